package warc

// Default caps, used for any zero or negative field of [Options].
const (
	// DefaultMaxHeaderBytes caps one WARC header and one HTTP header, each.
	DefaultMaxHeaderBytes = 256 << 10 // 256 KiB
	// DefaultMaxRecordBytes caps the raw HTTP body (or resource block) of a
	// candidate held in memory.
	DefaultMaxRecordBytes = 16 << 20 // 16 MiB
	// DefaultMaxPayloadBytes caps the payload after de-chunking and
	// Content-Encoding decoding.
	DefaultMaxPayloadBytes = 16 << 20 // 16 MiB
	// DefaultMaxMemberBytes caps the decompressed bytes of one gzip member.
	// It is large because some archives (ClueWeb09: about 1 GiB per file)
	// compress a whole file as a single member; it bounds time, not memory,
	// since members are streamed.
	DefaultMaxMemberBytes = 4 << 30 // 4 GiB
	// DefaultMaxURIBytes caps WARC-Target-URI. 8 KiB is the length HTTP
	// implementations are asked to support at least (RFC 9110 §4.1) and
	// far above what crawlers keep (Heritrix refuses URIs over 2,083
	// characters); a URI is carried through every stage and output of the
	// job, so its length is multiplied by every copy of the record.
	DefaultMaxURIBytes = 8 << 10 // 8 KiB
	// DefaultMaxRecordIDBytes caps WARC-Record-ID. IDs are URIs such as
	// "urn:uuid:…" (45 bytes, WARC 1.1 §5.2); 1 KiB leaves room for any
	// scheme a writer picks.
	DefaultMaxRecordIDBytes = 1 << 10 // 1 KiB
)

// Options bounds what [ReadFile] reads. The zero value means all defaults;
// any zero or negative field takes its Default* value. All sizes are bytes.
//
// Per-record memory is at most about MaxHeaderBytes + MaxRecordBytes +
// MaxPayloadBytes plus the decoder windows (brotli ≤ 16 MiB, zstd ≤
// min(MaxPayloadBytes, 64 MiB)), whatever the input; the body buffer grows
// with the bytes actually read, not with the declared Content-Length
// (but for a body without codings of at most 1 MiB, freshBodyMax, read
// into a buffer of its declared size that its record keeps). What
// a Record carries beyond its payload is bounded by MaxURIBytes and
// MaxRecordIDBytes.
type Options struct {
	// MaxHeaderBytes caps one WARC header block and one HTTP response header
	// block, each. A longer WARC header makes the record "unreadable"; a
	// longer HTTP header makes it "http-malformed".
	MaxHeaderBytes int64
	// MaxRecordBytes caps the raw body of a would-be candidate (HTTP body
	// still chunked/encoded, or the block of a resource/conversion record)
	// that is read into memory. Larger bodies are skipped by discarding
	// without buffering: reason "record-too-large".
	MaxRecordBytes int64
	// MaxPayloadBytes caps the decoded payload (after de-chunking and
	// Content-Encoding). A body that decodes to more is a decompression
	// bomb or a huge page: reason "payload-too-large".
	MaxPayloadBytes int64
	// MaxMemberBytes caps the decompressed size of one gzip member of a
	// .warc.gz. Reading stops there (reason "member-too-large" for the
	// record in progress) and resumes at the next gzip member header.
	MaxMemberBytes int64
	// MaxURIBytes caps WARC-Target-URI. A record with a longer URI is
	// skipped, reason "uri-too-long", its TargetURI cut to the first
	// MaxURIBytes bytes (at a UTF-8 boundary) and its block discarded
	// unread.
	MaxURIBytes int64
	// MaxRecordIDBytes caps WARC-Record-ID the same way: reason
	// "record-id-too-long", RecordID cut to MaxRecordIDBytes bytes.
	MaxRecordIDBytes int64
	// MediaTypes lists the payload media types (lower case, no parameters)
	// of response records that make a document candidate; nil means
	// DefaultMediaTypes. A response of any other type is skipped as
	// "not-html".
	MediaTypes []string
	// BlockMediaTypes does the same for resource and conversion records,
	// whose block is the document itself (WARC 1.1 §6.4, §6.6); nil means
	// DefaultBlockMediaTypes.
	BlockMediaTypes []string
}

// DefaultMediaTypes are the media types of response records that are
// document candidates: HTML and XHTML pages. Plain-text responses (robots.txt,
// sitemaps, logs) are crawl plumbing, not pages, and are skipped.
var DefaultMediaTypes = []string{"text/html", "application/xhtml+xml"}

// DefaultBlockMediaTypes are the media types of resource and conversion
// records that are document candidates: HTML, XHTML and plain text (a
// conversion record typically holds the text extracted from a page).
var DefaultBlockMediaTypes = []string{"text/html", "application/xhtml+xml", "text/plain"}

// DefaultOptions returns Options with every cap set to its default.
func DefaultOptions() Options {
	return Options{}.withDefaults()
}

func (o Options) withDefaults() Options {
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if o.MaxRecordBytes <= 0 {
		o.MaxRecordBytes = DefaultMaxRecordBytes
	}
	if o.MaxPayloadBytes <= 0 {
		o.MaxPayloadBytes = DefaultMaxPayloadBytes
	}
	if o.MaxMemberBytes <= 0 {
		o.MaxMemberBytes = DefaultMaxMemberBytes
	}
	if o.MaxURIBytes <= 0 {
		o.MaxURIBytes = DefaultMaxURIBytes
	}
	if o.MaxRecordIDBytes <= 0 {
		o.MaxRecordIDBytes = DefaultMaxRecordIDBytes
	}
	if o.MediaTypes == nil {
		o.MediaTypes = DefaultMediaTypes
	}
	if o.BlockMediaTypes == nil {
		o.BlockMediaTypes = DefaultBlockMediaTypes
	}
	return o
}
