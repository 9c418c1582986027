package warc

// Skip reasons: the stable, lower-case values of Record.Skip. A record with
// Skip == "" is a document candidate. Every emitted Record has exactly one of
// these or "".
const (
	// Record types that never hold a document (WARC 1.1 §6).
	SkipWarcinfo     = "warcinfo"
	SkipRequest      = "request"
	SkipMetadata     = "metadata"
	SkipRevisit      = "revisit"      // a revisit holds no payload of its own (§6.7)
	SkipContinuation = "continuation" // segmented records are not reassembled (§6.9)
	SkipUnknownType  = "unknown-type" // WARC-Type missing or not defined by the spec

	// Records of a document type whose content is not a usable page.
	SkipNotHTML       = "not-html"       // media type not a document type (Options.MediaTypes, BlockMediaTypes)
	SkipBinaryPayload = "binary-payload" // labelled as text but the bytes sniff as a binary format
	SkipHTTPStatus    = "http-status"    // HTTP status outside 200–299
	SkipHTTPMalformed = "http-malformed" // no parseable HTTP status line, or HTTP header over MaxHeaderBytes
	SkipEmptyPayload  = "empty-payload"  // zero-byte payload after decoding

	// Caps (see Options).
	SkipRecordTooLarge  = "record-too-large"   // raw body over MaxRecordBytes; discarded unread
	SkipPayloadTooLarge = "payload-too-large"  // decoded payload over MaxPayloadBytes (bomb)
	SkipMemberTooLarge  = "member-too-large"   // gzip member decompresses to over MaxMemberBytes (bomb)
	SkipDecodeError     = "decode-error"       // chunked or Content-Encoding data that cannot be decoded
	SkipURITooLong      = "uri-too-long"       // WARC-Target-URI over MaxURIBytes; the URI is cut, the block discarded unread
	SkipRecordIDTooLong = "record-id-too-long" // WARC-Record-ID over MaxRecordIDBytes; the ID is cut, the block discarded unread

	// Input that is not a readable record.
	SkipUnreadable = "unreadable" // a stretch that is not a WARC record: garbage, bad header, corrupt gzip
	SkipGzipCRC    = "gzip-crc"   // a record of a gzip member that decodes but fails its CRC-32 or length check
	SkipTruncated  = "truncated"  // the file ends inside a record (or inside a gzip member)
)

// Reasons lists every skip reason, for counters and documentation.
var Reasons = []string{
	SkipWarcinfo, SkipRequest, SkipMetadata, SkipRevisit, SkipContinuation, SkipUnknownType,
	SkipNotHTML, SkipBinaryPayload, SkipHTTPStatus, SkipHTTPMalformed, SkipEmptyPayload,
	SkipRecordTooLarge, SkipPayloadTooLarge, SkipMemberTooLarge, SkipDecodeError,
	SkipURITooLong, SkipRecordIDTooLong,
	SkipUnreadable, SkipGzipCRC, SkipTruncated,
}

// Quirks: the stable names of Record.Quirks, departures from the
// specifications that the reader repairs and counts instead of rejecting
// the record.
const (
	// QuirkHTTPProtocolTwice: an HTTP status line that names its protocol
	// twice, "HTTP/1.1 HTTP/1.1 200 OK" (RFC 9112 §4 allows one). The
	// status after the second is read.
	QuirkHTTPProtocolTwice = "http-protocol-twice"
)

// Quirks lists every quirk name, for counters and documentation.
var Quirks = []string{QuirkHTTPProtocolTwice}
