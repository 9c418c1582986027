package warc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"testing"
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
