package spotsig

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/ndd-beam/ndd-beam/warc"
)

// sharedSeeds passes add real pages from ../shared when present: a few
// small gold-set pages (one per charset) and small HTML records of each
// WARC sample.
func sharedSeeds(f *testing.F, add func(payload []byte, contentType string)) {
	if _, err := os.Stat(goldWARC); err == nil {
		seen := map[string]bool{}
		for _, p := range readGoldPages(f, 400, nil) {
			if len(p.Body) < 40000 && !seen[p.ContentType] {
				seen[p.ContentType] = true
				add(p.Body, p.ContentType)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(warcDir, "*.warc*"))
	for _, name := range files {
		fh, err := os.Open(name)
		if err != nil {
			continue
		}
		n := 0
		warc.ReadFile(fh, filepath.Base(name), warc.Options{}, func(r warc.Record) error {
			if r.Skip == "" && n < 2 && len(r.Payload) < 30000 {
				n++
				add(r.Payload, r.ContentType)
			}
			return nil
		})
		fh.Close()
	}
}

// FuzzHTMLToSignatures feeds arbitrary payloads and media types through
// the whole extraction path and checks its invariants: no panic; only the
// documented errors; valid UTF-8 text within its cap; a well-formed Vector
// within the caps; ExtractPayload equal to PayloadText + Extract; Extract
// equal to the hashes of Signatures; ExtractPayloadBlocks (the layout,
// links included) merged equal to ExtractPayload.
func FuzzHTMLToSignatures(f *testing.F) {
	f.Add([]byte(""), "text/html")
	f.Add([]byte("<p>"+paperSentence+"</p>"), "text/html; charset=utf-8")
	f.Add([]byte("<div><div><div><p>the cat is <b>on the mat"), "")
	f.Add([]byte("<script>the cat is on the mat</script><!-- the dog --><template>a b"), "text/html")
	f.Add([]byte("\xff\xfe<\x00p\x00>\x00t\x00h\x00e\x00 \x00c\x00a\x00t\x00"), "text/html")
	f.Add([]byte("caf\xe9 is the caf\xe9 of the town"), "text/plain; charset=iso-8859-1")
	f.Add([]byte("\x1f\x8b\x08\x00binary"), "text/html")
	f.Add([]byte("<meta charset=big5><p>\xa4\xa4 the \xa4\xe5 is a test"), "text/html")
	f.Add([]byte("<div><a href=x><div>the cat is on the mat and the dog is in the house of the town</a></div><div id=cookie-banner><a>we use cookies"), "text/html")
	sharedSeeds(f, func(p []byte, ct string) { f.Add(p, ct) })

	def := mustExtractor(f)
	small := mustExtractor(f, WithMaxTextBytes(200), WithMaxTokens(40), WithMaxSignatures(5), WithSpotSpec("the(1,2),is(2,1),a"))
	f.Fuzz(func(t *testing.T, payload []byte, contentType string) {
		for _, e := range []*Extractor{def, small} {
			v, st, err := e.ExtractPayload(payload, contentType)
			blocks, _, berr := e.ExtractPayloadBlocks(payload, contentType)
			if errKind(err) != errKind(berr) {
				t.Fatalf("ExtractPayload error %v, ExtractPayloadBlocks error %v", err, berr)
			}
			if merged := MergeBlocks(Vector{}, blocks, nil); !equalVectors(merged, v) {
				t.Fatalf("merged blocks (%d signatures) differ from ExtractPayload (%d)", merged.Len(), v.Len())
			}
			text, tst, terr := PayloadText(payload, contentType, func(c *settings) { c.maxText, c.maxInput = e.cfg.maxText, e.cfg.maxInput })
			if errKind(err) != errKind(terr) {
				t.Fatalf("ExtractPayload error %v, PayloadText error %v", err, terr)
			}
			if err != nil {
				if !errors.Is(err, ErrBinary) && !errors.Is(err, ErrNotText) {
					t.Fatalf("undocumented error %v", err)
				}
				if v.Len() != 0 {
					t.Fatal("vector with an error")
				}
				continue
			}
			if st.Text != tst {
				t.Fatalf("text stats differ: %+v vs %+v", st.Text, tst)
			}
			if !utf8.Valid(text) {
				t.Fatalf("text is not valid UTF-8: %q", text)
			}
			if len(text) > e.cfg.maxText || tst.TextBytes != len(text) {
				t.Fatalf("text %d bytes, stats %d, cap %d", len(text), tst.TextBytes, e.cfg.maxText)
			}
			if st.Extract.Tokens > e.cfg.maxTokens || st.Extract.Signatures > e.cfg.maxSigs || v.Len() != st.Extract.Signatures {
				t.Fatalf("caps: %+v |d|=%d", st.Extract, v.Len())
			}
			for i := range v.Hashes {
				if v.Freqs[i] < 1 || (i > 0 && v.Hashes[i] <= v.Hashes[i-1]) {
					t.Fatalf("malformed vector %+v", v)
				}
			}
			v2, st2 := e.Extract(text)
			if !slices.Equal(v.Hashes, v2.Hashes) || !slices.Equal(v.Freqs, v2.Freqs) || st2 != st.Extract {
				t.Fatalf("ExtractPayload and Extract(PayloadText) differ")
			}
			sigs := e.Signatures(text)
			hs := make([]uint64, len(sigs))
			for i, s := range sigs {
				hs[i] = SignatureHash(st.Extract.Lang + "/" + s)
			}
			v3 := NewVector(hs)
			if !slices.Equal(v.Hashes, v3.Hashes) || !slices.Equal(v.Freqs, v3.Freqs) {
				t.Fatalf("Signatures %q disagree with Extract", sigs)
			}
		}
	})
}

func errKind(err error) string {
	switch {
	case err == nil:
		return "nil"
	case errors.Is(err, ErrBinary):
		return "binary"
	case errors.Is(err, ErrNotText):
		return "not-text"
	}
	return err.Error()
}

// FuzzLexerAgreesWithXNet checks on arbitrary markup what
// TestLexerAgreesWithXNet checks on real pages: the lexer pass of
// HTMLToText gives the text, statistics, layout and blocks of the x/net
// pass, with the markup rule on and off and under a small text cap.
func FuzzLexerAgreesWithXNet(f *testing.F) {
	for _, s := range []string{
		"<p>the cat</p><svg><text>a \"b</text></svg><p>is on the mat",
		"<svg/><p>the cat</p></svg>x", "<math><p>the</p></math>", "<noscript><iframe>x</noscript>the cat",
		"<script><!-- a <script> b </script> c --></script>the", "<title>a &amp; b</title><textarea>&lt;</textarea>",
		"<div class=\"nav &amp;\" id=a class=footer>the cat</div>", "<a/b>the</a/b><!-->x<!--->y-->z</>w<![CDATA[v]]>",
		"<style>x</style1>the</style>cat", "<div hidden>the</div</p>", "<plaintext><b>the", "<xml><p>a</p></xml>b",
	} {
		f.Add([]byte(s))
	}
	sharedSeeds(f, func(p []byte, _ string) { f.Add(p) })
	opts := [][]Option{nil, {WithMarkupBoilerplate(false)}, {WithMaxTextBytes(64)}}
	exts := make([][2]*Extractor, len(opts))
	for i, o := range opts {
		exts[i] = [2]*Extractor{mustExtractor(f, o...), mustExtractor(f, append(o, withStdMarkup())...)}
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		for i, o := range opts {
			t1, s1, _ := HTMLToText(payload, "text/html", o...)
			t2, s2, _ := HTMLToText(payload, "text/html", append(o, withStdMarkup())...)
			if !bytes.Equal(t1, t2) || s1 != s2 {
				t.Fatalf("options %d: lexer text %q, x/net text %q", i, t1, t2)
			}
			b1, p1, _ := exts[i][0].ExtractPayloadBlocks(payload, "text/html")
			b2, p2, _ := exts[i][1].ExtractPayloadBlocks(payload, "text/html")
			if !reflect.DeepEqual(b1, b2) || !reflect.DeepEqual(p1, p2) {
				t.Fatalf("options %d: blocks differ", i)
			}
		}
	})
}
