// Package warc reads WARC files (ISO 28500; WARC/0.17, 0.18, 1.0 and 1.1)
// into [Record] values, one per WARC record, for the near-duplicate job.
// It never imports Beam.
//
// # Reading
//
// [ReadFile] takes an io.Reader (it never seeks) and calls emit once for
// every WARC record it reads and once for every stretch it cannot read, in
// file order. A record with Skip == "" is a document candidate: an HTML
// response ([DefaultMediaTypes]), or an HTML or plain-text resource or
// conversion record ([DefaultBlockMediaTypes]; the three document types,
// [IsDocumentType]), with a usable body;
// every other record carries a stable skip reason (see [Reasons]). So a
// caller that counts emitted records can always prove
//
//	records == candidates + Σ skipped[reason]
//
// # Layers
//
//   - Compression: a file whose first two bytes are the gzip magic 1f 8b is
//     read member by member with github.com/klauspost/compress/gzip
//     (Multistream(false); the standard library's API, decoding about 1.2×
//     as fast, BenchmarkReadGoldSet) over a counting buffered reader, so a
//     record's Offset is the byte offset of its gzip
//     member in the file, the way CDX indexes address records. Any other
//     file is read as plain WARC; the file name is never consulted. A member
//     that ends early (truncated file) ends the file; a corrupt member or
//     bytes between members are skipped up to the next gzip header.
//   - Framing: records are found by their "WARC/<digit>" version line;
//     blank lines between records are tolerated, anything else up to the
//     next line that starts a record is one "unreadable" stretch. The block
//     is framed by Content-Length.
//   - Header fields: parsed by github.com/nlnwa/gowarc v1.6.0's
//     Unmarshaler with WithNoValidation (the lenient policy), which accepts
//     the 0.17/0.18 version lines, bare-LF line endings, unparseable dates
//     ("WARC-Date: null") and missing fields. gowarc is handed one framed
//     header at a time rather than the file, because its own framing drains
//     a whole gzip member per record (it reads one record of a single-member
//     file such as ClueWeb09's), has no size caps, and skips garbage by
//     looking for "WARC/" anywhere rather than at a line start.
//   - HTTP: the block of a response record is parsed leniently as an HTTP
//     response (status line, header fields; CRLF or bare LF), then the body
//     is de-chunked and Content-Encoding decoded (gzip, deflate, br, zstd).
//
// # Bounds
//
// Every buffer is capped by [Options]: the WARC and HTTP headers
// (MaxHeaderBytes), the raw body of a candidate held in memory
// (MaxRecordBytes), its decoded payload (MaxPayloadBytes) and the
// decompressed size of one gzip member (MaxMemberBytes). Bytes beyond a cap
// are discarded while streaming, never held, and the record is counted under
// the cap's reason. Each step of the reader consumes input, so it finishes
// on any input; docs/robustness.md lists the caps and reasons.
package warc
