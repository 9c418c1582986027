package warc

// Record is one WARC record, or one unreadable stretch of a WARC file, as
// reported by [ReadFile].
type Record struct {
	// File is the name passed to ReadFile.
	File string
	// Offset is the byte offset in File where the record can be found: the
	// start of its gzip member in a .warc.gz (as in CDX indexes), the start
	// of its "WARC/" line in a plain .warc, the first unreadable byte of a
	// stretch.
	Offset int64
	// InnerOffset is the offset of the record inside the decompressed gzip
	// member that starts at Offset; 0 unless a member holds several records
	// (ClueWeb09 compresses a whole file as one member). Always 0 for plain
	// .warc files.
	InnerOffset int64
	// RecordID is WARC-Record-ID without the angle brackets; "" when unknown.
	RecordID string
	// Type is WARC-Type, lower-cased ("response", "resource", …); "" when
	// unknown.
	Type string
	// TargetURI is WARC-Target-URI without the angle brackets some writers
	// add (WARC/1.0 drafts); "" when absent.
	TargetURI string
	// Date is WARC-Date as written (ISO 8601 in WARC/1.x, often malformed in
	// older files); "" when absent or "null".
	Date string
	// ConcurrentTo holds the record IDs of WARC-Concurrent-To (WARC 1.1
	// §5.7; the field may repeat), without angle brackets; RefersTo is
	// WARC-Refers-To (§5.8). Both "" / nil when absent; FilterPlan links
	// records to pages by them.
	ConcurrentTo []string
	RefersTo     string
	// HTTPStatus is the HTTP status code of a response record with an HTTP
	// block; 0 otherwise.
	HTTPStatus int
	// ContentType is the payload's media type, lower-cased, without
	// parameters: from the HTTP header for HTTP responses, from the WARC
	// Content-Type for resource and conversion records; sniffed when
	// missing. "" when unknown.
	ContentType string
	// Charset is the charset parameter of that Content-Type, lower-cased
	// ("" when absent), e.g. "iso-8859-1": the HTTP header's say in the
	// page's encoding (WHATWG encoding sniffing gives it precedence over
	// <meta>).
	Charset string
	// Payload is the document body for candidates (Skip == ""): the HTTP
	// body de-chunked and Content-Encoding-decoded, at most
	// Options.MaxPayloadBytes. Nil for skipped records. The slice is freshly
	// allocated per record; the caller owns it.
	Payload []byte
	// Skip is "" for a document candidate, else one of the Skip* reasons.
	Skip string
	// Quirks names the departures from the WARC and HTTP specifications
	// the reader repaired to read this record (Quirk* constants, in the
	// order met); nil for most records. They are counted, not rejected.
	Quirks []string
	// Detail is a human-readable note on why the record was skipped or what
	// was repaired (e.g. the parse error); "" when there is nothing to add.
	Detail string
}

// IsDocumentType reports whether a record of WARC-Type typ (lower-cased, as
// in Record.Type) can hold a document: a response, resource or conversion
// record (WARC 1.1 §6). ReadFile reads the payload of these types only and
// skips a record of any other type under its type's reason (SkipWarcinfo …
// SkipUnknownType), so a caller that looks for the pages of a file, skipped
// or not, looks at the records of these types.
func IsDocumentType(typ string) bool {
	switch typ {
	case "response", "resource", "conversion":
		return true
	}
	return false
}

// MIMEType returns the record's payload Content-Type with its charset, e.g.
// "text/html; charset=iso-8859-1", the form spotsig.PayloadText takes.
func (r Record) MIMEType() string {
	if r.Charset == "" {
		return r.ContentType
	}
	return r.ContentType + "; charset=" + r.Charset
}
