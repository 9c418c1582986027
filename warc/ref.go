package warc

import (
	"cmp"
	"encoding/binary"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Ref identifies one WARC record (or unreadable stretch) wherever it goes in
// the job: the file it was read from, where in that file, its
// WARC-Record-ID and WARC-Target-URI. It is the one home of record identity;
// the job's outputs (pairs, rejects, decisions) are written from it, its
// fields flattened into each JSON line and Parquet row (package output).
//
// A record is identified by (File, Offset, Inner), not by RecordID: real
// archives repeat record IDs across files, and ClueWeb09 holds a whole file
// in one gzip member, so Offset alone is not unique.
type Ref struct {
	// File is the path or URL the record was read from.
	File string `json:"file" parquet:"file,dict"`
	// Offset is the byte offset of the record's gzip member in File (of the
	// record itself in a plain .warc), as in CDX indexes; -1 when a whole
	// file could not be opened.
	Offset int64 `json:"offset" parquet:"offset"`
	// Inner is the offset of the record inside the decompressed gzip member
	// (Record.InnerOffset); usually 0.
	Inner int64 `json:"inner_offset" parquet:"inner_offset"`
	// RecordID is WARC-Record-ID without angle brackets; "" when unknown.
	// Valid UTF-8 (EscapeInvalidUTF8).
	RecordID string `json:"record_id" parquet:"record_id"`
	// URI is WARC-Target-URI without angle brackets; "" when absent. Valid
	// UTF-8 (EscapeInvalidUTF8).
	URI string `json:"uri" parquet:"uri"`
}

// EscapeInvalidUTF8 returns s with every byte that is not part of a valid
// UTF-8 sequence replaced by its percent-encoding "%XX" (upper-case hex,
// RFC 3986 §2.1, the way an IRI is mapped to a URI in RFC 3987 §3.1), and
// s itself when s is valid UTF-8. The result is valid UTF-8, so JSON
// encoders keep it as is (they would turn each bad byte into U+FFFD, and
// ".../\xff" and ".../\xfe" into one URI) and string columns of Parquet
// accept it (DuckDB refuses a file whose string column holds invalid
// UTF-8). Distinct inputs stay distinct, except that a bad byte and its
// percent-encoding written out ("%FF") give the same result: RFC 3986
// §6.2.2 makes them the same URI. Valid sequences, ASCII and non-ASCII, and
// "%" itself are kept. The reader applies it to WARC-Target-URI and
// WARC-Record-ID (both URIs, WARC 1.1 §5.2, §5.11), the one place they enter
// the job.
func EscapeInvalidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			c := s[i]
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Ref returns the record's identity.
func (r *Record) Ref() Ref {
	return Ref{File: r.File, Offset: r.Offset, Inner: r.InnerOffset, RecordID: r.RecordID, URI: r.TargetURI}
}

// Key is the record's readable unique key "file@offset+inner", for logs,
// tests and evaluation. Shuffles use the fixed-size ID instead.
func (r Ref) Key() string { return string(r.AppendKey(make([]byte, 0, len(r.File)+42))) }

// AppendKey appends Key to b.
func (r Ref) AppendKey(b []byte) []byte {
	b = strconv.AppendInt(append(append(b, r.File...), '@'), r.Offset, 10)
	return strconv.AppendInt(append(b, '+'), r.Inner, 10)
}

// IDSize is the length in bytes of a record ID as returned by Ref.ID.
const IDSize = 16

// ID is the record's compact, fixed-size shuffle key: the 128-bit FNV-1a
// hash of (len(File), File, Offset, Inner), as a 16-byte string. Two records collide
// with probability about n²/2^129 for n records (below 10^-20 for a
// billion), so the job keys joins by it instead of carrying Key's
// full path in every element.
func (r Ref) ID() string {
	h := fnv.New128a()
	var b [3 * binary.MaxVarintLen64]byte
	n := binary.PutUvarint(b[:], uint64(len(r.File)))
	h.Write(b[:n])
	h.Write([]byte(r.File))
	n = binary.PutVarint(b[:], r.Offset)
	n += binary.PutVarint(b[n:], r.Inner)
	h.Write(b[:n])
	return string(h.Sum(nil))
}

// Less is the canonical order of records: record ID, then file, offset and
// inner offset (Compare). Pairs are written with the lesser record first.
func (r Ref) Less(o Ref) bool { return r.Compare(o) < 0 }

// Compare is the canonical order of records as a three-way comparison
// (for slices.SortFunc), each field compared once.
func (r Ref) Compare(o Ref) int {
	if c := strings.Compare(r.RecordID, o.RecordID); c != 0 {
		return c
	}
	if c := strings.Compare(r.File, o.File); c != 0 {
		return c
	}
	if c := cmp.Compare(r.Offset, o.Offset); c != 0 {
		return c
	}
	return cmp.Compare(r.Inner, o.Inner)
}
