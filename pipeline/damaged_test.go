package pipeline

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/warc"
)

// plainReal is a real uncompressed WARC file (Common Crawl, 2014) of 13
// records, 3 of them HTML pages.
const plainReal = testdata + "/npm-warc-1.0.1__CC-MAIN-20140820021334-00006-ip-10-180-136-8.ec2.internal.warc"

var contentLength = regexp.MustCompile(`(?m)^Content-Length: *(\d+)\r$`)

// realRaw returns the records of a real plain WARC file byte for byte and
// the indices of its pages.
func realRaw(t *testing.T, path string) (raws [][]byte, pages []int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []warc.Record
	if err := warc.ReadFile(bytes.NewReader(data), path, warc.Options{}, func(r warc.Record) error { recs = append(recs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		end := int64(len(data))
		if i+1 < len(recs) {
			end = recs[i+1].Offset
		}
		raws = append(raws, data[r.Offset:end])
		if r.Skip == "" {
			pages = append(pages, i)
		}
	}
	if len(pages) < 3 {
		t.Fatalf("%s: %d pages", path, len(pages))
	}
	return raws, pages
}

// edit returns raw with old replaced by new once, and the WARC
// Content-Length moved by delta (or set to length when it is > 0).
func edit(t *testing.T, raw []byte, old, new string, delta, length int64) []byte {
	t.Helper()
	if old != "" {
		if !bytes.Contains(raw, []byte(old)) {
			t.Fatalf("%q not in record", old)
		}
		raw = bytes.Replace(raw, []byte(old), []byte(new), 1)
	}
	m := contentLength.FindSubmatchIndex(raw)
	n, _ := strconv.ParseInt(string(raw[m[2]:m[3]]), 10, 64)
	if length > 0 {
		n = length
	} else {
		n += delta
	}
	return bytes.Join([][]byte{raw[:m[2]], []byte(strconv.FormatInt(n, 10)), raw[m[3]:]}, nil)
}

// The job on files derived from real records with damage no crawler
// should write, each counted and none losing what can be read:
//   - target URIs that are not UTF-8 (".../\xff" and ".../\xfe") are
//     percent-encoded, distinct, in decisions and in the index, whose
//     string columns stay valid UTF-8 (DuckDB refuses a segment otherwise);
//   - a status line with the protocol twice is read as 200 and counted in
//     summary.json's "quirks";
//   - a gzip member whose CRC fails is a gzip-crc reject, not a page;
//   - a plain file whose record declares 2 GiB loses only that record.
func TestJobDamagedBytes(t *testing.T) {
	raws, pages := realRaw(t, plainReal)
	dir := t.TempDir()
	targetURI := regexp.MustCompile(`(?m)^WARC-Target-URI: .*\r$`)
	setURI := func(raw []byte, uri string) []byte {
		old := string(targetURI.Find(raw))
		return edit(t, raw, old, "WARC-Target-URI: "+uri+"\r", 0, 0)
	}

	// uris.warc: the three pages, two with a bad byte in their URI, one
	// with the protocol twice in its status line.
	var uris []byte
	uris = append(uris, setURI(raws[pages[0]], "http://example.com/\xff")...)
	uris = append(uris, setURI(raws[pages[1]], "http://example.com/\xfe")...)
	uris = append(uris, edit(t, raws[pages[2]], "\r\n\r\nHTTP/1.1 200 OK", "\r\n\r\nHTTP/1.1 HTTP/1.1 200 OK", int64(len("HTTP/1.1 ")), 0)...)
	// crc.warc.gz: the first page in a stored gzip member with one byte of
	// its HTML changed, so its deflate data decodes and its CRC fails.
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.NoCompression)
	w.Write(raws[pages[0]])
	w.Close()
	member := gz.Bytes()
	k := bytes.Index(member, []byte("<title>"))
	member[k+1] ^= 0x20
	// huge.warc: the whole real file, its first page declaring 2 GiB.
	var huge []byte
	for i, r := range raws {
		if i == pages[0] {
			r = edit(t, r, "", "", 0, 2<<30)
		}
		huge = append(huge, r...)
	}
	for name, data := range map[string][]byte{"uris.warc": uris, "crc.warc.gz": member, "huge.warc": huge} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	cfg := testConfig([]string{dir})
	cfg.WriteIndex = t.TempDir()
	out := runJob(t, "direct", cfg)
	sum := checkAccounting(t, out, 1)

	// 3 records in uris.warc, 1 in crc.warc.gz, all 13 of huge.warc.
	if sum.Records != 3+1+len(raws) {
		t.Errorf("records %d, want %d", sum.Records, 3+1+len(raws))
	}
	if sum.Skipped[warc.SkipGzipCRC] != 1 {
		t.Errorf("skipped %v, want 1 %s", sum.Skipped, warc.SkipGzipCRC)
	}
	if sum.Quirks[warc.QuirkHTTPProtocolTwice] != 1 {
		t.Errorf("quirks %v, want 1 %s", sum.Quirks, warc.QuirkHTTPProtocolTwice)
	}
	// Pages: 3 in uris.warc, the 2 after the bad record in huge.warc.
	if sum.Kept+sum.Dropped != 5 {
		t.Errorf("%d decisions, want 5 pages", sum.Kept+sum.Dropped)
	}

	seen := map[string]int{}
	for _, l := range readLines(t, out, "decisions", 1) {
		if !utf8.ValidString(l) || strings.ContainsRune(l, utf8.RuneError) {
			t.Errorf("decision line not clean UTF-8: %q", l)
		}
		var d struct {
			URI  string `json:"uri"`
			File string `json:"file"`
		}
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatal(err)
		}
		seen[d.URI]++
	}
	for _, u := range []string{"http://example.com/%FF", "http://example.com/%FE"} {
		if seen[u] != 1 {
			t.Errorf("decisions name %q %d times, want once (all: %v)", u, seen[u], seen)
		}
	}

	priors, _, err := index.Load(context.Background(), []string{cfg.WriteIndex}, index.AgreementOf(cfg.Params))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range priors {
		if !utf8.ValidString(p.URI) || !utf8.ValidString(p.RecordID) {
			t.Errorf("index row with invalid UTF-8: %q %q", p.URI, p.RecordID)
		}
		found = found || p.URI == "http://example.com/%FF"
	}
	if !found {
		t.Errorf("index has no page http://example.com/%%FF (%d pages)", len(priors))
	}
}
