package spotsig

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/warc"
)

// TestLexerAgreesWithXNet holds the markup pass with the fast lexer equal
// to the pass with x/net's tokenizer (htmlStd) on every page of real WARC
// files: the repository's testdata and eval/realpages, and, when present,
// ../shared's WARC samples and both gold sets. Equal means the same
// blocks, signatures, languages and statistics from ExtractPayloadBlocks
// (text, layout and markup-marked boilerplate included), and the same text
// with the markup rule off. It logs how many pages the lexer pass handed
// back to htmlStd.
func TestLexerAgreesWithXNet(t *testing.T) {
	files := realWARCs(goldWARC, filepath.Join(sharedDir, "goldset-ml", "gold.warc.gz"))
	fast, std := mustExtractor(t), mustExtractor(t, withStdMarkup())
	keep := []Option{WithMarkupBoilerplate(false)}
	cfg, err := newSettings(nil)
	if err != nil {
		t.Fatal(err)
	}
	var pages, reread int
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(name)
		err = warc.ReadFile(f, base, warc.Options{}, func(r warc.Record) error {
			kind, err := payloadKind(r.Payload, r.ContentType)
			if r.Skip != "" || err != nil || kind != KindHTML {
				return nil
			}
			pages++
			b1, st1, err1 := fast.ExtractPayloadBlocks(r.Payload, r.ContentType)
			b2, st2, err2 := std.ExtractPayloadBlocks(r.Payload, r.ContentType)
			if err1 != err2 || !reflect.DeepEqual(b1, b2) || !reflect.DeepEqual(st1, st2) {
				t.Errorf("%s %s (offset %d): lexer and x/net passes differ", base, r.TargetURI, r.Offset)
			}
			t1, _, _ := HTMLToText(r.Payload, r.ContentType, keep...)
			t2, _, _ := HTMLToText(r.Payload, r.ContentType, append(keep, withStdMarkup())...)
			if !bytes.Equal(t1, t2) {
				t.Errorf("%s %s (offset %d): texts differ with the markup rule off", base, r.TargetURI, r.Offset)
			}
			var st TextStats
			if p, err := decodePayload(r.Payload, r.ContentType, kind, &cfg, &st); err == nil {
				w := textWriter{max: cfg.maxText, boiler: true}
				if !w.htmlLex(append(bytes.Clone(p), 0)[:len(p)]) {
					reread++
				}
			}
			return nil
		})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if pages == 0 {
		t.Fatal("no HTML pages read")
	}
	t.Logf("%d HTML pages of %d files (%s): %d read again by htmlStd", pages, len(files), strings.Join(baseNames(files), ", "), reread)
}

func baseNames(paths []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, filepath.Base(p))
	}
	return out
}
