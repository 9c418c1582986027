package transforms

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
)

// readAll runs ReadWARC's per-file step (readWARCFn) on one path outside Beam.
func readAll(t *testing.T, path string) ([]dedup.Candidate, []output.Reject) {
	t.Helper()
	var cands []dedup.Candidate
	var rejects []output.Reject
	fn := &readWARCFn{}
	err := fn.ProcessElement(context.Background(), path, func(c dedup.Candidate) { cands = append(cands, c) }, func(r output.Reject) { rejects = append(rejects, r) }, func(string) {}, func(string) {})
	if err != nil {
		t.Fatalf("ProcessElement failed the bundle: %v", err)
	}
	return cands, rejects
}

// A file that cannot be opened, or read (a directory), is one reject with
// dedup.ReasonUnreadableFile, not a failed job.
func TestReadWARCUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{filepath.Join(dir, "vanished.warc.gz"), dir} {
		cands, rejects := readAll(t, path)
		if len(cands) != 0 || len(rejects) != 1 || rejects[0].Reason != dedup.ReasonUnreadableFile || rejects[0].File != path || rejects[0].Detail == "" {
			t.Errorf("%s: candidates %v rejects %+v, want one %s reject", path, cands, rejects, dedup.ReasonUnreadableFile)
		}
	}
}

// On a real file, every record is a candidate or a reject, and a gzip file
// is read through warc.ReadFile, not decompressed twice: the record count
// is MANIFEST.md's.
func TestReadWARCRealFile(t *testing.T) {
	path := filepath.Join("..", "testdata", "dolma__sample-0000.warc.gz")
	if _, err := os.Stat(path); err != nil {
		t.Skip(err)
	}
	cands, rejects := readAll(t, path)
	// MANIFEST.md: 48 records, 22 of them HTML pages (candidates also
	// include text/plain).
	if len(cands)+len(rejects) != 48 {
		t.Errorf("%d candidates + %d rejects, want 48 records", len(cands), len(rejects))
	}
	html := 0
	for _, c := range cands {
		if mt, _, _ := strings.Cut(c.ContentType, ";"); mt == "text/html" || mt == "application/xhtml+xml" {
			html++
		}
		if c.RecordID == "" || c.URI == "" || len(c.Payload) == 0 || c.File != path {
			t.Errorf("incomplete candidate %+v", c.RecordID)
		}
	}
	if html != 22 {
		t.Errorf("%d HTML candidates, want 22", html)
	}
}

// A file of 0 bytes is one reject with dedup.ReasonEmptyFile (it would
// otherwise give no record at all and vanish from the accounting).
func TestReadWARCEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.warc.gz")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cands, rejects := readAll(t, path)
	if len(cands) != 0 || len(rejects) != 1 || rejects[0].Reason != dedup.ReasonEmptyFile || rejects[0].File != path || rejects[0].Offset != -1 {
		t.Errorf("candidates %v rejects %+v, want one %s reject at offset -1", cands, rejects, dedup.ReasonEmptyFile)
	}
}

// The paths that reach one file are read once, under the clean path that
// sorts first; the others are duplicate-file rejects naming it.
func TestPickPathFn(t *testing.T) {
	in := []string{"d/link.warc", "d/./a.warc", "d/a.warc", "d/a.warc", "d/hard.warc"}
	i := 0
	var read []string
	var rejects []output.Reject
	(&pickPathFn{}).ProcessElement(context.Background(), "file:1:2", func(p *string) bool {
		if i == len(in) {
			return false
		}
		*p = in[i]
		i++
		return true
	}, func(p string) { read = append(read, p) }, func(r output.Reject) { rejects = append(rejects, r) })
	if len(read) != 1 || read[0] != "d/a.warc" {
		t.Errorf("read %q, want [d/a.warc]", read)
	}
	var got []string
	for _, r := range rejects {
		if r.Reason != dedup.ReasonDuplicateFile || !strings.Contains(r.Detail, "d/a.warc") || r.Offset != -1 {
			t.Errorf("reject %+v", r)
		}
		got = append(got, r.File)
	}
	if strings.Join(got, " ") != "d/hard.warc d/link.warc d/./a.warc" {
		t.Errorf("duplicate rejects for %q", got)
	}
}
