package warc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// zeroReader yields n bytes of 'a' without holding them.
type fillReader struct{ n int64 }

func (z *fillReader) Read(p []byte) (int, error) {
	if z.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > z.n {
		p = p[:z.n]
	}
	for i := range p {
		p[i] = 'a'
	}
	z.n -= int64(len(p))
	return len(p), nil
}

// TestHugeRecordIsStreamed feeds a 512 MiB text/html resource record (never
// materialised: the input is generated while it is read) followed by a
// normal page, and checks the big one is skipped as record-too-large, the
// page after it is read, and the reader allocated far less than the record.
func TestHugeRecordIsStreamed(t *testing.T) {
	const size = 512 << 20
	head := fmt.Sprintf("WARC/1.0\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:x:huge>\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n", size)
	b := &builder{}
	b.page()
	in := io.MultiReader(bytes.NewReader([]byte(head)), &fillReader{n: size}, bytes.NewReader([]byte("\r\n\r\n")), bytes.NewReader(b.buf.Bytes()))

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var got []Record
	if err := ReadFile(in, "huge", Options{}, func(r Record) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if len(got) != 2 || got[0].Skip != SkipRecordTooLarge || got[0].RecordID != "urn:x:huge" || got[1].Skip != "" || string(got[1].Payload) != page {
		t.Fatalf("records = %+v", got)
	}
	if got[1].Offset != int64(len(head))+size+4 {
		t.Errorf("page offset %d, want %d", got[1].Offset, int64(len(head))+size+4)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("allocated %d bytes reading a %d-byte record", alloc, size)
	}
}

// TestEmitErrorStops checks that an error from emit ends ReadFile at once
// and is returned unchanged.
func TestEmitErrorStops(t *testing.T) {
	b := &builder{}
	for i := 0; i < 5; i++ {
		b.page()
	}
	stop := errors.New("stop")
	calls := 0
	err := ReadFile(bytes.NewReader(b.buf.Bytes()), "f", Options{}, func(Record) error {
		calls++
		if calls == 2 {
			return stop
		}
		return nil
	})
	if err != stop || calls != 2 {
		t.Errorf("err = %v after %d calls, want %v after 2", err, calls, stop)
	}
}

type failingReader struct {
	r   io.Reader
	n   int
	err error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, f.err
	}
	if len(p) > f.n {
		p = p[:f.n]
	}
	k, err := f.r.Read(p)
	f.n -= k
	return k, err
}

// TestIOErrorIsReturned checks that an I/O error of the underlying reader
// (as opposed to bad data) is returned, after the records read before it.
func TestIOErrorIsReturned(t *testing.T) {
	for _, gz := range []bool{false, true} {
		b := &builder{gz: gz}
		b.page()
		first := b.buf.Len()
		b.page()
		b.page()
		ioErr := errors.New("connection reset")
		var got []Record
		err := ReadFile(&failingReader{r: bytes.NewReader(b.buf.Bytes()), n: first + 10, err: ioErr}, "f", Options{},
			func(r Record) error { got = append(got, r); return nil })
		if !errors.Is(err, ioErr) {
			t.Errorf("gz=%v: err = %v, want %v", gz, err, ioErr)
		}
		if len(got) == 0 || got[0].Skip != "" {
			t.Errorf("gz=%v: records before the error = %+v", gz, got)
		}
	}
}

// TestNoRecords checks inputs that hold no record at all: nothing is
// emitted for empty or blank input (there is nothing to account for), and
// one unreadable stretch for bytes that are neither.
func TestNoRecords(t *testing.T) {
	tests := []struct {
		name  string
		input []byte
		want  []string
	}{
		{"empty", nil, nil},
		{"blank lines", []byte("\r\n\r\n\n \t\n"), nil},
		{"empty gzip member", gzipBytes(nil), nil},
		{"text", []byte("hello, world\n"), []string{SkipUnreadable}},
		{"gzip magic only", []byte{0x1f, 0x8b}, []string{SkipTruncated}},
		{"version line only", []byte("WARC/1.0\r\n"), []string{SkipTruncated}},
	}
	for _, tt := range tests {
		var got []string
		if err := ReadFile(bytes.NewReader(tt.input), "f", Options{}, func(r Record) error {
			got = append(got, r.Skip)
			return nil
		}); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: skips %q, want %q", tt.name, got, tt.want)
		}
	}
}

// A record whose Content-Length declares more than its file holds (10
// bytes of body) is a truncated reject, and reading it allocates about
// what was read, not what was declared: 1 GiB declared (MaxRecordBytes is
// raised above it so the body is read, not skipped as record-too-large)
// costs a few MiB. A body without codings of at most freshBodyMax is read
// into a buffer of its declared size, the most such a lie can allocate.
func TestDeclaredLengthIsNotAllocated(t *testing.T) {
	for _, c := range []struct {
		declared int
		opts     Options
		bound    uint64
	}{
		{1 << 30, Options{MaxRecordBytes: 2 << 30}, 4 << 20},
		{freshBodyMax, Options{}, freshBodyMax + 2<<20},
	} {
		head := fmt.Sprintf("WARC/1.0\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:x:liar>\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n", c.declared)
		in := []byte(head + "<p>short</p>"[:10])
		var got []Record
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := ReadFile(bytes.NewReader(in), "liar", c.opts, func(r Record) error { got = append(got, r); return nil })
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Skip != SkipTruncated || got[0].RecordID != "urn:x:liar" || got[0].Payload != nil {
			t.Fatalf("declared %d: records = %+v", c.declared, got)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > c.bound {
			t.Errorf("allocated %d bytes for a record declaring %d bytes with 10 read", alloc, c.declared)
		}
	}
}

// A body declared and delivered in full is read whole whatever its size
// relative to the buffer's growth steps.
func TestGrowingBodyIsWhole(t *testing.T) {
	for _, n := range []int{1, bodyChunk - 1, bodyChunk, bodyChunk + 1, 5*bodyChunk + 7} {
		body := bytes.Repeat([]byte("<p>x</p>"), n/8+1)[:n]
		rec := record("1.1", "resource", "urn:x:grow", []string{"Content-Type: text/html"}, body, 0)
		var got []Record
		if err := ReadFile(bytes.NewReader(rec), "grow", Options{}, func(r Record) error { got = append(got, r); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Skip != "" || !bytes.Equal(got[0].Payload, body) {
			t.Fatalf("%d-byte body: got %d records, first %+v", n, len(got), brief(got[0]))
		}
	}
}

// WARC-Target-URI and WARC-Record-ID over their caps: the record is a
// reject with reason uri-too-long or record-id-too-long, the field cut to
// the cap at a UTF-8 boundary, and the records around it are read as
// usual. 2,000 records with 120 KiB URIs and IDs (480 MiB) are held in far
// less than that.
func TestURIAndRecordIDCaps(t *testing.T) {
	opts := Options{MaxURIBytes: 100, MaxRecordIDBytes: 50}
	longURI := "http://example.com/" + strings.Repeat("é", 100) // 219 bytes, 2-byte runes
	longID := "urn:x:" + strings.Repeat("i", 60)
	fields, block := htmlResponse(200, []string{"Content-Type: text/html"}, []byte(page))
	var in bytes.Buffer
	in.Write(record("1.1", "response", "urn:x:ok1", fields, block, 0))
	in.Write(record("1.1", "response", "urn:x:longuri", []string{"WARC-Target-URI: " + longURI, fields[1]}, block, 0))
	in.Write(record("1.1", "response", longID, fields, block, 0))
	in.Write(record("1.1", "warcinfo", "urn:x:info", []string{"WARC-Target-URI: " + longURI}, []byte("software: x\r\n"), 0))
	in.Write(record("1.1", "response", "urn:x:ok2", fields, block, 0))
	var got []Record
	if err := ReadFile(bytes.NewReader(in.Bytes()), "caps", opts, func(r Record) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	wantSkips := []string{"", SkipURITooLong, SkipRecordIDTooLong, SkipURITooLong, ""}
	if len(got) != len(wantSkips) {
		t.Fatalf("%d records, want %d: %+v", len(got), len(wantSkips), got)
	}
	for i, w := range wantSkips {
		if got[i].Skip != w {
			t.Errorf("record %d: skip %q, want %q (%s)", i, got[i].Skip, w, got[i].Detail)
		}
	}
	if u := got[1].TargetURI; len(u) > 100 || len(u) < 99 || !utf8.ValidString(u) || !strings.HasPrefix(longURI, u) {
		t.Errorf("cut URI %q (%d bytes)", u, len(u))
	}
	if id := got[2].RecordID; id != longID[:50] {
		t.Errorf("cut record ID %q", id)
	}
	if got[1].Payload != nil || got[4].Skip != "" || string(got[4].Payload) != page {
		t.Errorf("records around the capped ones: %+v", got)
	}
	if !strings.Contains(got[1].Detail, "219 bytes, cap 100") {
		t.Errorf("detail %q", got[1].Detail)
	}

	// The case: records whose URI and ID fill the 256 KiB header are held at the
	// default caps, not whole.
	const n = 2000
	huge := strings.Repeat("u", 120<<10) // both fit the 256 KiB header cap
	var many bytes.Buffer
	for i := 0; i < n; i++ {
		many.Write(record("1.1", "response", "urn:x:"+huge, []string{"WARC-Target-URI: http://x/" + huge, fields[1]}, block, 0))
	}
	var held []Record
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := ReadFile(bytes.NewReader(many.Bytes()), "many", Options{}, func(r Record) error { held = append(held, r); return nil }); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if len(held) != n || held[0].Skip != SkipRecordIDTooLong || len(held[0].TargetURI) != DefaultMaxURIBytes || len(held[0].RecordID) != DefaultMaxRecordIDBytes {
		t.Fatalf("%d records, first skip %q, URI %d bytes, ID %d bytes", len(held), held[0].Skip, len(held[0].TargetURI), len(held[0].RecordID))
	}
	if live := int64(after.HeapAlloc) - int64(before.HeapAlloc) - int64(many.Len()); live > 64<<20 {
		t.Errorf("%d records hold %d bytes beyond their input, want < 64 MiB (uncapped: > 1 GiB)", n, live)
	}
	runtime.KeepAlive(held)
}

// Every payload is the record's own: read into a buffer of its own (a
// body without codings up to freshBodyMax), decoded into a new one (gzip
// Content-Encoding), or copied out of the reader's reused buffer (a larger
// body), a payload is unchanged by the records read after it.
func TestPayloadsAreTheirOwn(t *testing.T) {
	small := []byte(strings.Repeat("<p>small page</p>", 100))
	coded := []byte(strings.Repeat("<p>gzip page</p>", 100))
	large := bytes.Repeat([]byte("<p>large page</p>"), freshBodyMax/17+100)
	other := []byte(strings.Repeat("<p>other page</p>", 200))
	var in []byte
	for i, c := range []struct {
		headers []string
		body    []byte
	}{
		{[]string{"Content-Type: text/html"}, small},
		{[]string{"Content-Type: text/html", "Content-Encoding: gzip"}, gzipBytes(coded)},
		{[]string{"Content-Type: text/html"}, large},
		{[]string{"Content-Type: text/html", "Content-Encoding: gzip"}, gzipBytes(other)},
		{[]string{"Content-Type: text/html"}, other},
	} {
		f, blk := htmlResponse(200, c.headers, c.body)
		in = append(in, record("1.1", "response", fmt.Sprintf("urn:x:%d", i), f, blk, 0)...)
	}
	got := readAll(t, in, Options{})
	want := [][]byte{small, coded, large, other, other}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i, r := range got {
		if r.Skip != "" || !bytes.Equal(r.Payload, want[i]) {
			t.Errorf("record %d: skip %q, payload of %d bytes, want the %d-byte body it was read with", i, r.Skip, len(r.Payload), len(want[i]))
		}
	}
}
