package spotsig

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/warc"
)

// Shared data (read-only, outside the repository); tests skip without it.
var (
	sharedDir = filepath.Join("..", "..", "shared", "data")
	goldWARC  = filepath.Join(sharedDir, "goldset", "gold.warc.gz")
	warcDir   = filepath.Join(sharedDir, "warc")
)

// realWARCs returns the real pages' WARC files: testdata's,
// eval/realpages' and the shared WARCs (those present), then those of the
// globs more.
func realWARCs(more ...string) []string {
	var files []string
	for _, pat := range append([]string{
		filepath.Join("..", "testdata", "*.warc*"),
		filepath.Join("..", "eval", "realpages", "warcs", "*.warc*"),
		filepath.Join(warcDir, "*.warc*"),
	}, more...) {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	return files
}

// eachRecord calls fn with every record of the WARC files that the job's
// reader (warc.ReadFile, default options) does not skip, file by file.
func eachRecord(t testing.TB, files []string, fn func(r warc.Record)) {
	t.Helper()
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		err = warc.ReadFile(f, filepath.Base(name), warc.Options{}, func(r warc.Record) error {
			if r.Skip == "" {
				fn(r)
			}
			return nil
		})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// page is one HTTP response of a WARC file: its target URI, the full HTTP
// Content-Type (parameters included) and the body.
type page struct {
	URI, RecordID, ContentType string
	Body                       []byte
}

// readGoldPages reads the response records of the gold set, a well-formed
// WARC/1.1 file (one gzip member per record, correct Content-Length, no
// Transfer- or Content-Encoding; see its README), stopping after max pages
// (0: all) or when keep returns false for all remaining wants. It keeps the
// charset parameter of the HTTP Content-Type, which is what the charset
// tests need. Skips the test when the file is absent.
func readGoldPages(t testing.TB, max int, keep func(p page) bool) []page {
	t.Helper()
	return readPagesOf(t, goldWARC, max, keep)
}

// readPagesOf is readGoldPages for another WARC file of the same form
// (goldset-ml).
func readPagesOf(t testing.TB, path string, max int, keep func(p page) bool) []page {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("gold set not available: %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReaderSize(zr, 1<<16)
	var pages []page
	for max == 0 || len(pages) < max {
		hdr, err := readHeaderBlock(br)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(hdr["content-length"])
		if err != nil {
			t.Fatalf("bad Content-Length %q", hdr["content-length"])
		}
		block := make([]byte, n)
		if _, err := io.ReadFull(br, block); err != nil {
			t.Fatal(err)
		}
		if _, err := br.Discard(4); err != nil { // CRLF CRLF after the block
			t.Fatal(err)
		}
		if hdr["warc-type"] != "response" {
			continue
		}
		head, body, ok := bytes.Cut(block, []byte("\r\n\r\n"))
		if !ok {
			t.Fatalf("no HTTP header in %s", hdr["warc-target-uri"])
		}
		p := page{URI: hdr["warc-target-uri"], RecordID: strings.Trim(hdr["warc-record-id"], "<>"), Body: body}
		for _, line := range strings.Split(string(head), "\r\n")[1:] {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, "content-type") {
				p.ContentType = strings.TrimSpace(v)
			}
		}
		if keep == nil || keep(p) {
			pages = append(pages, p)
		}
	}
	return pages
}

// readHeaderBlock reads a WARC header block (version line, fields, blank
// line) into a map of lower-cased field names.
func readHeaderBlock(br *bufio.Reader) (map[string]string, error) {
	hdr := map[string]string{}
	first := true
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			if first && err == io.EOF && line == "" {
				return nil, io.EOF
			}
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if first {
			first = false
			if !strings.HasPrefix(line, "WARC/") {
				return nil, io.ErrUnexpectedEOF
			}
			continue
		}
		if line == "" {
			return hdr, nil
		}
		if k, v, ok := strings.Cut(line, ":"); ok {
			hdr[strings.ToLower(k)] = strings.TrimSpace(v)
		}
	}
}
