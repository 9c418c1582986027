package spotsig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ndd-beam/ndd-beam/warc"
)

// TestSharedWARCFiles runs every document candidate of the real WARC
// samples in ../shared/data/warc (WARC/0.17, 0.18, ClueWeb, Wayback,
// Common Crawl, wget crawls, Wikipedia captures; see its MANIFEST) through
// ExtractPayload. Only the documented errors may occur, the text must be
// valid UTF-8, and the English Wikipedia article pages must give spot
// signatures (an English article of several thousand words has hundreds
// of article/auxiliary-verb spots).
func TestSharedWARCFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(warcDir, "*.warc*"))
	if len(files) == 0 {
		t.Skip("no shared WARC files")
	}
	e := mustExtractor(t)
	var docs, withSigs, binary, notText, wiki int
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(name)
		warc.ReadFile(f, base, warc.Options{}, func(r warc.Record) error {
			if r.Skip != "" {
				return nil
			}
			docs++
			v, st, err := e.ExtractPayload(r.Payload, r.ContentType)
			switch {
			case errors.Is(err, ErrBinary):
				binary++
				return nil
			case errors.Is(err, ErrNotText):
				notText++
				return nil
			case err != nil:
				t.Errorf("%s %s: %v", base, r.TargetURI, err)
				return nil
			}
			text, _, _ := PayloadText(r.Payload, r.ContentType)
			if !utf8.Valid(text) {
				t.Errorf("%s %s: text is not valid UTF-8", base, r.TargetURI)
			}
			if v.Len() > 0 {
				withSigs++
			}
			if strings.Contains(base, "wikipedia") && strings.Contains(r.TargetURI, "en.wikipedia.org/wiki/") && r.ContentType == "text/html" && st.Text.TextBytes > 20000 {
				wiki++
				t.Logf("%s %s: %d text bytes, %d signatures", base, r.TargetURI, st.Text.TextBytes, v.Len())
			}
			if strings.Contains(base, "wikipedia") && strings.Contains(r.TargetURI, "en.wikipedia.org/wiki/") && r.ContentType == "text/html" && st.Text.TextBytes > 20000 && v.Len() < 100 {
				t.Errorf("%s %s: %d text bytes but only %d signatures", base, r.TargetURI, st.Text.TextBytes, v.Len())
			}
			return nil
		})
		f.Close()
	}
	t.Logf("%d files, %d documents: %d with signatures, %d binary, %d not text", len(files), docs, withSigs, binary, notText)
	if wiki == 0 {
		t.Error("no English Wikipedia article page checked")
	}
	if docs == 0 || withSigs*2 < docs {
		t.Errorf("only %d of %d documents gave signatures", withSigs, docs)
	}
}

// A payload with millions of tokens is bounded by the caps, each reported.
func TestMillionsOfTokens(t *testing.T) {
	page := []byte("<p>" + strings.Repeat("the cat is on the mat ", 1<<19) + "</p>") // 11.5 MB, 3.1M tokens
	e := mustExtractor(t)
	v, st, err := e.ExtractPayload(page, "text/html")
	if err != nil {
		t.Fatal(err)
	}
	if !st.Text.InputTruncated || st.Text.ParsedBytes != DefaultMaxInputBytes || !st.Text.TextTruncated || st.Text.TextBytes > DefaultMaxTextBytes {
		t.Fatalf("payload caps not applied: %+v", st.Text)
	}
	// 2 MiB of "the cat is on the mat " (22 bytes, 6 tokens) is ~572k tokens,
	// under the token cap; the(2,3) and is(2,3) each give one signature per
	// sentence.
	if st.Extract.TokensTruncated || v.Len() != st.Extract.Signatures || len(v.Hashes) > 4 {
		t.Fatalf("extract: %+v, %d distinct", st.Extract, len(v.Hashes))
	}
	_, xs := mustExtractor(t, WithMaxTokens(1000)).Extract([]byte(strings.Repeat("word ", 5000)))
	if !xs.TokensTruncated || xs.Tokens != 1000 {
		t.Fatalf("token cap: %+v", xs)
	}
}
