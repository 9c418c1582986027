package warc

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// fuzzOptions are small caps so that the fuzzer reaches them.
var fuzzOptions = Options{MaxHeaderBytes: 4 << 10, MaxRecordBytes: 64 << 10, MaxPayloadBytes: 64 << 10, MaxMemberBytes: 1 << 20}

// firstMembers returns the first k gzip members of a .warc.gz.
func firstMembers(data []byte, k int) []byte {
	r := bytes.NewReader(data)
	z, err := gzip.NewReader(r)
	if err != nil {
		return nil
	}
	for i := 0; i < k; i++ {
		z.Multistream(false)
		if _, err := io.Copy(io.Discard, z); err != nil {
			return nil
		}
		if err := z.Reset(r); err != nil {
			break
		}
	}
	return data[:len(data)-r.Len()]
}

// FuzzReadFile feeds arbitrary bytes to ReadFile (gzip layer, framing,
// gowarc header parsing, HTTP and Content-Encoding decoding). Seeds: the
// crafted files (except the large bombs) and slices of the small real files
// when present. It checks that reading never panics and always finishes,
// that every record is either a candidate with a payload within
// MaxPayloadBytes or carries a known skip reason and no payload, that
// offsets never go backwards, and that the result does not depend on how the
// input is split into reads.
func FuzzReadFile(f *testing.F) {
	for _, c := range craftedCases {
		if strings.HasPrefix(c.name, "bomb-") || c.name == "record-too-large.warc.gz" {
			continue
		}
		data, _ := c.data()
		f.Add(data)
	}
	for _, name := range []string{"commoncrawl-whirlwind__whirlwind.warc.gz", "aut__example.warc.gz", "resiliparse__clueweb-quirk.warc.gz", "dolma__sample-0000.warc.gz"} {
		for _, dir := range []string{repoTestdata, sharedDir} {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				f.Add(firstMembers(b, 3))
				break
			}
		}
	}
	for _, name := range []string{"copycat__clueweb-09-sample-en0000-00.warc.gz", "npm-warc-1.0.1__CC-MAIN-20140820021334-00006-ip-10-180-136-8.ec2.internal.warc"} {
		for _, dir := range []string{repoTestdata, sharedDir} {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				f.Add(b[:min(len(b), 6000)]) // truncated inside a record
				break
			}
		}
	}
	known := map[string]bool{"": true}
	for _, r := range Reasons {
		known[r] = true
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		read := func(r io.Reader) []Record {
			var recs []Record
			if err := ReadFile(r, "fuzz", fuzzOptions, func(r Record) error { recs = append(recs, r); return nil }); err != nil {
				t.Fatalf("ReadFile: %v", err)
			}
			return recs
		}
		recs := read(bytes.NewReader(data))
		last := int64(0)
		for i, r := range recs {
			if !known[r.Skip] {
				t.Fatalf("record %d: unknown skip reason %q", i, r.Skip)
			}
			if (r.Skip == "") != (len(r.Payload) > 0) {
				t.Fatalf("record %d: Skip %q with %d payload bytes", i, r.Skip, len(r.Payload))
			}
			if int64(len(r.Payload)) > fuzzOptions.MaxPayloadBytes || cap(r.Payload) > 2*len(r.Payload)+64<<10 {
				t.Fatalf("record %d: payload of %d bytes (capacity %d), cap %d", i, len(r.Payload), cap(r.Payload), fuzzOptions.MaxPayloadBytes)
			}
			if r.File != "fuzz" || r.Offset < last || r.Offset > int64(len(data)) || r.InnerOffset < 0 {
				t.Fatalf("record %d: File %q Offset %d/%d after %d (input %d bytes)", i, r.File, r.Offset, r.InnerOffset, last, len(data))
			}
			if !utf8.ValidString(r.TargetURI) || !utf8.ValidString(r.RecordID) {
				t.Fatalf("record %d: URI %q or record ID %q is not UTF-8", i, r.TargetURI, r.RecordID)
			}
			last = r.Offset
		}
		if again := read(iotest.OneByteReader(bytes.NewReader(data))); !reflect.DeepEqual(recs, again) {
			t.Fatalf("reading one byte at a time gives %d records, at once %d", len(again), len(recs))
		}
	})
}
