package warc

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// Damaged files derived from real records: each test takes records of a
// real plain WARC file byte for byte and changes only what the damage
// needs, so the rest of each record is what a crawler wrote.

// plainReal is a real uncompressed WARC file (Common Crawl, 2014): a
// warcinfo record, then request, response and metadata records of 4 pages.
const plainReal = "npm-warc-1.0.1__CC-MAIN-20140820021334-00006-ip-10-180-136-8.ec2.internal.warc"

// rawRecord is one record of a plain WARC file as written: its header
// lines (version line first, no Content-Length) and its block.
type rawRecord struct {
	header []string
	block  []byte
}

// realRecords splits a real plain WARC file into its records, at the
// offsets the reader reports (checked against the bytes by TestRealFiles).
func realRecords(t *testing.T, name string) ([]rawRecord, []Record) {
	t.Helper()
	data := realFile(t, name)
	recs := readAll(t, data, Options{})
	var out []rawRecord
	for i, r := range recs {
		end := int64(len(data))
		if i+1 < len(recs) {
			end = recs[i+1].Offset
		}
		raw := data[r.Offset:end]
		head, block, ok := bytes.Cut(raw, []byte("\r\n\r\n"))
		if !ok {
			t.Fatalf("record %d: no end of header", i)
		}
		var rr rawRecord
		for _, l := range strings.Split(string(head), "\r\n") {
			if !strings.HasPrefix(l, "Content-Length:") {
				rr.header = append(rr.header, l)
			}
		}
		rr.block = bytes.TrimSuffix(block, []byte("\r\n\r\n"))
		out = append(out, rr)
	}
	return out, recs
}

// bytes returns the record with Content-Length set to the block's length,
// or to length when it is not negative.
func (r rawRecord) bytes(length int64) []byte {
	if length < 0 {
		length = int64(len(r.block))
	}
	var b bytes.Buffer
	for _, l := range r.header {
		b.WriteString(l + "\r\n")
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", length)
	b.Write(r.block)
	b.WriteString("\r\n\r\n")
	return b.Bytes()
}

// with returns a copy of r with header field name set to value.
func (r rawRecord) with(name, value string) rawRecord {
	c := rawRecord{block: r.block}
	for _, l := range r.header {
		if strings.HasPrefix(l, name+":") {
			l = name + ": " + value
		}
		c.header = append(c.header, l)
	}
	return c
}

// firstPage returns the index of the first HTML 200 response of recs.
func firstPage(t *testing.T, recs []Record) int {
	t.Helper()
	for i, r := range recs {
		if r.Type == "response" && r.Skip == "" {
			return i
		}
	}
	t.Fatal("no page")
	return -1
}

// A status line that names its protocol twice ("HTTP/1.1 HTTP/1.1 200 OK",
// every response of at least one public archive) is read with the status
// it carries, and the quirk is named on the record. warcio reads such a
// line without error but takes "HTTP/1.1" for the status code; jwarc and
// gowarc (net/http) reject it.
func TestStatusLineProtocolTwice(t *testing.T) {
	raws, recs := realRecords(t, plainReal)
	i := firstPage(t, recs)
	var file bytes.Buffer
	for _, line := range []string{"HTTP/1.1 HTTP/1.1 200 OK", "HTTP/1.1  HTTP/1.0 404 Not Found"} {
		r := raws[i]
		head, rest, _ := bytes.Cut(r.block, []byte("\r\n"))
		if string(head) != "HTTP/1.1 200 OK" {
			t.Fatalf("status line %q", head)
		}
		r.block = slices.Concat([]byte(line+"\r\n"), rest)
		file.Write(r.bytes(-1))
	}
	got := readAll(t, file.Bytes(), Options{})
	if len(got) != 2 {
		t.Fatalf("%d records, want 2", len(got))
	}
	for _, g := range got {
		if !slices.Equal(g.Quirks, []string{QuirkHTTPProtocolTwice}) {
			t.Errorf("record at %d: quirks %q, want [%s]", g.Offset, g.Quirks, QuirkHTTPProtocolTwice)
		}
	}
	want := recs[i]
	if g := got[0]; g.Skip != "" || g.HTTPStatus != 200 || !bytes.Equal(g.Payload, want.Payload) || g.TargetURI != want.TargetURI {
		t.Errorf("200 record = %+v, want the real page (%d payload bytes)", brief(g), len(want.Payload))
	}
	if g := got[1]; g.Skip != SkipHTTPStatus || g.HTTPStatus != 404 {
		t.Errorf("404 record = %+v, want skip %q with status 404", brief(g), SkipHTTPStatus)
	}
	if want.Quirks != nil {
		t.Errorf("the real record has quirks %q", want.Quirks)
	}
}

// Bytes of a WARC-Target-URI or WARC-Record-ID that are not UTF-8 are
// percent-encoded: two URIs that differ only in such a byte stay two
// URIs, and JSON (which would make each bad byte U+FFFD) keeps them apart.
// Valid non-ASCII UTF-8 is kept as is.
func TestInvalidUTF8InURIIsPercentEncoded(t *testing.T) {
	raws, recs := realRecords(t, plainReal)
	i := firstPage(t, recs)
	base := recs[i].TargetURI
	var file bytes.Buffer
	for _, c := range []struct{ uri, id string }{
		{base + "/\xff", "<urn:uuid:x-\xff>"},
		{base + "/\xfe", "<urn:uuid:x-\xfe>"},
		{base + "/caf\xc3\xa9\xe9", "<urn:uuid:x-ok>"}, // "café" in UTF-8, then Latin-1 "é"
	} {
		file.Write(raws[i].with("WARC-Target-URI", c.uri).with("WARC-Record-ID", c.id).bytes(-1))
	}
	got := readAll(t, file.Bytes(), Options{})
	want := []struct{ uri, id string }{
		{base + "/%FF", "urn:uuid:x-%FF"},
		{base + "/%FE", "urn:uuid:x-%FE"},
		{base + "/café%E9", "urn:uuid:x-ok"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	seen := map[string]bool{}
	for k, g := range got {
		if g.TargetURI != want[k].uri || g.RecordID != want[k].id || g.Skip != "" {
			t.Errorf("record %d: uri %q id %q skip %q, want %q %q", k, g.TargetURI, g.RecordID, g.Skip, want[k].uri, want[k].id)
		}
		j, err := json.Marshal(g.Ref())
		if err != nil {
			t.Fatal(err)
		}
		var back Ref
		if err := json.Unmarshal(j, &back); err != nil || back.URI != g.TargetURI || !utf8.ValidString(back.URI) {
			t.Errorf("record %d: URI %q through JSON is %q", k, g.TargetURI, back.URI)
		}
		if seen[back.URI] {
			t.Errorf("record %d: URI %q twice", k, back.URI)
		}
		seen[back.URI] = true
	}
}

func TestEscapeInvalidUTF8(t *testing.T) {
	for in, want := range map[string]string{
		"":                         "",
		"http://a/b?c=%20":         "http://a/b?c=%20",
		"http://a/é":               "http://a/é",
		"http://a/\xff":            "http://a/%FF",
		"http://a/\xc3":            "http://a/%C3", // a sequence cut short
		"\xe2\x82\xac\xe2\x82":     "€%E2%82",
		"\xed\xa0\x80":             "%ED%A0%80", // a surrogate is not UTF-8
		"\x00\x7f ok":              "\x00\x7f ok",
		"http://a/\xff\xfe%41\x80": "http://a/%FF%FE%41%80",
	} {
		if got := EscapeInvalidUTF8(in); got != want {
			t.Errorf("EscapeInvalidUTF8(%q) = %q, want %q", in, got, want)
		}
	}
}

// gzipMember compresses p as one gzip member at level.
func gzipMember(t *testing.T, p []byte, level int) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, level)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(p)
	w.Close()
	return b.Bytes()
}

// A gzip member whose deflate data decodes but whose CRC-32 does not
// match is a gzip-crc reject for each of its records, which are not
// decided; the members around it are read as usual. Two damages: a bad
// byte in the page's HTML (a stored deflate block decodes it as is, so
// the page would be signed from corrupted bytes), and a bad stored CRC.
func TestGzipCRCMismatch(t *testing.T) {
	raws, recs := realRecords(t, plainReal)
	i := firstPage(t, recs)
	page := raws[i].bytes(-1)
	for _, c := range []struct {
		name   string
		damage func(m []byte)
	}{
		{"byte in the page", func(m []byte) {
			k := bytes.Index(m, []byte("<title>"))
			if k < 0 {
				t.Fatal("no <title> in the stored member")
			}
			m[k+1] ^= 0x20 // "<Title>": still HTML, other bytes
		}},
		{"stored CRC", func(m []byte) {
			crc := binary.LittleEndian.Uint32(m[len(m)-8:])
			binary.LittleEndian.PutUint32(m[len(m)-8:], crc^1)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := gzipMember(t, raws[0].bytes(-1), gzip.BestCompression) // warcinfo
			bad := gzipMember(t, page, gzip.NoCompression)
			c.damage(bad)
			after := gzipMember(t, page, gzip.BestCompression)
			got := readAll(t, slices.Concat(before, bad, after), Options{})
			if len(got) != 3 {
				t.Fatalf("%d records, want 3", len(got))
			}
			if g := got[0]; g.Type != "warcinfo" || g.Skip != SkipWarcinfo {
				t.Errorf("first member: %+v", brief(g))
			}
			if g := got[1]; g.Skip != SkipGzipCRC || g.Payload != nil || g.Offset != int64(len(before)) ||
				g.RecordID != recs[i].RecordID || !strings.Contains(g.Detail, "CRC") {
				t.Errorf("damaged member: %+v, want a %s reject with the record's ID", brief(g), SkipGzipCRC)
			}
			if g := got[2]; g.Skip != "" || !bytes.Equal(g.Payload, recs[i].Payload) || g.Offset != int64(len(before)+len(bad)) {
				t.Errorf("member after: %+v", brief(g))
			}
		})
	}
}

// In a gzip member of several records (ClueWeb09 stores a whole file as
// one), the records are held until the member's check, at most
// MaxPayloadBytes of payload: past that they are passed on, and a failed
// check is one more gzip-crc reject at the member's end that says how many
// went before it.
func TestGzipCRCMismatchLargeMember(t *testing.T) {
	raws, recs := realRecords(t, plainReal)
	var all []byte
	pages := 0
	for _, r := range raws {
		all = append(all, r.bytes(-1)...)
	}
	for _, r := range recs {
		if r.Skip == "" {
			pages++
		}
	}
	largest := 0
	for _, r := range recs {
		largest = max(largest, len(r.Payload))
	}
	m := gzipMember(t, all, gzip.BestCompression)
	binary.LittleEndian.PutUint32(m[len(m)-8:], binary.LittleEndian.Uint32(m[len(m)-8:])^1)

	got := readAll(t, m, Options{})
	if len(got) != len(recs) {
		t.Fatalf("%d records, want %d", len(got), len(recs))
	}
	for k, g := range got {
		if g.Skip != SkipGzipCRC || g.Payload != nil || g.InnerOffset != recs[k].Offset {
			t.Errorf("record %d: %+v, want a %s reject at inner offset %d", k, brief(g), SkipGzipCRC, recs[k].Offset)
		}
	}

	// A hold limit of the largest page: no two pages are held together,
	// so pages are passed on before the check fails, and the member's end
	// is one more reject.
	got = readAll(t, m, Options{MaxPayloadBytes: int64(largest)})
	if len(got) != len(recs)+1 {
		t.Fatalf("small hold: %d records, want %d", len(got), len(recs)+1)
	}
	last := got[len(got)-1]
	if last.Skip != SkipGzipCRC || last.InnerOffset != int64(len(all)) || !strings.Contains(last.Detail, "passed on before the check") {
		t.Errorf("member end: %+v", brief(last))
	}
	passed := 0
	for _, g := range got[:len(recs)] {
		if g.Skip == "" {
			passed++
		}
	}
	if passed == 0 || passed == pages {
		t.Errorf("%d of %d pages passed on before the check; want some, not all", passed, pages)
	}
}

// A plain .warc record that declares a Content-Length far beyond the end
// of the file (2 GiB) is one unreadable reject, and the complete records
// after it are read: the reader resynchronises on the first record line
// inside the block that ran past the end.
func TestHugeContentLengthInPlainFile(t *testing.T) {
	raws, recs := realRecords(t, plainReal)
	i := firstPage(t, recs)
	var file []byte
	var offsets []int64
	for k, r := range raws {
		offsets = append(offsets, int64(len(file)))
		length := int64(-1)
		if k == i {
			length = 2 << 30
		}
		file = append(file, r.bytes(length)...)
	}
	got := readAll(t, file, Options{})
	if len(got) != len(recs) {
		t.Fatalf("%d records, want %d (the file's records, the bad one as a reject)", len(got), len(recs))
	}
	for k, g := range got {
		w := recs[k]
		if k == i {
			if g.Skip != SkipUnreadable || g.RecordID != w.RecordID || g.Offset != offsets[k] ||
				!strings.Contains(g.Detail, fmt.Sprintf("resumed at the WARC/ line at offset %d", offsets[k+1])) {
				t.Errorf("bad record: %+v", brief(g))
			}
			continue
		}
		if g.Skip != w.Skip || g.RecordID != w.RecordID || g.Type != w.Type || g.Offset != offsets[k] || !bytes.Equal(g.Payload, w.Payload) {
			t.Errorf("record %d = %+v, want %+v at %d", k, brief(g), brief(w), offsets[k])
		}
	}
	if n := len(recs) - i - 1; n < 4 {
		t.Errorf("only %d records after the bad one", n)
	}
}
