package warc

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sharedDir holds the real WARC files and their MANIFEST.md (read-only,
// outside the repository); repoTestdata holds copies of the permissive ones.
const (
	sharedDir    = "../../shared/data/warc"
	repoTestdata = "../testdata"
)

// realFile returns the contents of a real WARC file from the repository's
// testdata/ or the shared data folder, skipping the test when neither has it.
func realFile(t testing.TB, name string) []byte {
	t.Helper()
	for _, dir := range []string{repoTestdata, sharedDir} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			return b
		}
	}
	t.Skipf("%s not found in %s or %s", name, repoTestdata, sharedDir)
	return nil
}

// readAll runs ReadFile over data and returns every emitted record.
func readAll(t testing.TB, data []byte, opts Options) []Record {
	t.Helper()
	var recs []Record
	err := ReadFile(bytes.NewReader(data), "f", opts, func(r Record) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		t.Fatalf("ReadFile: %v", err)
	}
	return recs
}

// decompressed returns a .warc.gz file's records as one byte string (all
// gzip members), or data itself for a plain file.
func decompressed(t testing.TB, data []byte) []byte {
	t.Helper()
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data
	}
	z, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var warcTypeLine = regexp.MustCompile(`(?m)^WARC-Type: *([a-z]+)\r?$`)

// TestRealFiles reads every real file and checks, against the shared
// MANIFEST.md and against the files' bytes:
//   - the number of records (MANIFEST "records" column);
//   - the number of HTML response records, whatever their HTTP status
//     (MANIFEST "HTML pages" column; see htmlNote for the one exception);
//   - the number of records of each WARC-Type, counted by a regular
//     expression over the decompressed text, independently of the reader;
//   - that every Offset addresses the record: in a .warc.gz a gzip member
//     that decompresses to the record's "WARC/" line (InnerOffset bytes in),
//     in a plain .warc the "WARC/" line itself;
//   - that every candidate has a payload and every other record none, and
//     that no record of these well-formed files is unreadable.
func TestRealFiles(t *testing.T) {
	tests := []struct {
		file     string
		records  int // MANIFEST "records"
		html     int // MANIFEST "HTML pages"
		htmlNote string
	}{
		{file: "aut__example.warc.gz", records: 822, html: 140},
		{file: "commoncrawl-whirlwind__whirlwind.warc.gz", records: 4, html: 1},
		{file: "copycat__clueweb-09-sample-en0000-00.warc.gz", records: 24, html: 23},
		{file: "copycat__snapshot-wayback-topic-02.warc.gz", records: 129, html: 128,
			htmlNote: "MANIFEST says 125, but all 128 response records carry Content-Type text/html and " +
				"X-Archive-Guessed-Content-Type: text/html (grep the decompressed file); 126 distinct target URIs"},
		{file: "dolma__sample-0000.warc.gz", records: 48, html: 22},
		{file: "dolma__sample-0001.warc.gz", records: 34, html: 15},
		{file: "npm-warc-1.0.1__CC-MAIN-20140820021334-00006-ip-10-180-136-8.ec2.internal.warc", records: 13, html: 3},
		{file: "resiliparse__clueweb-quirk.warc.gz", records: 30, html: 29},
		{file: "resiliparse__warcfile.warc.gz", records: 50, html: 16},
		{file: "ukwa-discovery__BL-20140325121225068-00000-32090~opera~8443.warc.gz", records: 190, html: 36},
		{file: "ukwa-discovery__BL-20140325122341434-00000-32090~opera~8443.warc.gz", records: 190, html: 7},
		{file: "ukwa-discovery__IAH-20080430204825-00000-blackbook-truncated.warc.gz", records: 23, html: 2},
		{file: "ukwa-discovery__IAH-urls-wget.warc.gz", records: 36, html: 11},
		{file: "ukwa-discovery__wikipedia-mona-lisa-flashfrozen-jwat-recompressed.warc.gz", records: 82, html: 2},
		{file: "ukwa-testsuite__wikipedia-blackout-sopa-wikipedia-homepage.warc.gz", records: 164, html: 1},
		{file: "ukwa-testsuite__wikipedia-post-blackout-main-page.warc.gz", records: 151, html: 1},
		{file: "ukwa-testsuite__wikipedia-post-blackout-post-blackout.warc.gz", records: 117, html: 1},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data := realFile(t, tt.file)
			recs := readAll(t, data, Options{})
			if len(recs) != tt.records {
				t.Errorf("records = %d, MANIFEST says %d", len(recs), tt.records)
			}
			html := 0
			types := map[string]int{}
			for _, r := range recs {
				types[r.Type]++
				if r.Type == "response" && r.ContentType == "text/html" {
					html++
				}
				if r.Skip == SkipUnreadable || r.Skip == SkipTruncated || r.Skip == SkipDecodeError {
					t.Errorf("record at %d/%d: %s (%s)", r.Offset, r.InnerOffset, r.Skip, r.Detail)
				}
				if (r.Skip == "") != (len(r.Payload) > 0) {
					t.Errorf("record %s: Skip %q with %d payload bytes", r.RecordID, r.Skip, len(r.Payload))
				}
				if r.RecordID == "" || strings.ContainsAny(r.RecordID, "<>") || strings.ContainsAny(r.TargetURI, "<>") {
					t.Errorf("record at %d: RecordID %q TargetURI %q", r.Offset, r.RecordID, r.TargetURI)
				}
			}
			if html != tt.html {
				t.Errorf("HTML responses = %d, want %d %s", html, tt.html, tt.htmlNote)
			}
			plain := decompressed(t, data)
			want := map[string]int{}
			for _, m := range warcTypeLine.FindAllSubmatch(plain, -1) {
				want[string(m[1])]++
			}
			for typ, n := range want {
				if types[typ] != n {
					t.Errorf("%s records = %d, the file has %d WARC-Type: %s lines", typ, types[typ], n, typ)
				}
			}
			checkOffsets(t, data, recs)
		})
	}
}

// checkOffsets verifies that each record's Offset/InnerOffset points at its
// "WARC/" version line.
func checkOffsets(t *testing.T, data []byte, recs []Record) {
	t.Helper()
	gz := data[0] == 0x1f && data[1] == 0x8b
	for _, r := range recs {
		var at []byte
		if gz {
			z, err := gzip.NewReader(bytes.NewReader(data[r.Offset:]))
			if err != nil {
				t.Errorf("record %s: no gzip member at offset %d: %v", r.RecordID, r.Offset, err)
				continue
			}
			z.Multistream(false)
			at, _ = io.ReadAll(io.LimitReader(z, r.InnerOffset+5))
			if int64(len(at)) < r.InnerOffset {
				t.Errorf("record %s: member at %d has fewer than %d bytes", r.RecordID, r.Offset, r.InnerOffset)
				continue
			}
			at = at[r.InnerOffset:]
		} else {
			at = data[r.Offset:]
		}
		if !bytes.HasPrefix(at, []byte("WARC/")) {
			t.Errorf("record %s at %d/%d does not start with WARC/: %q", r.RecordID, r.Offset, r.InnerOffset, at[:min(len(at), 5)])
		}
	}
}
