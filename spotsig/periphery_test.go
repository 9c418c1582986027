package spotsig

import (
	"bytes"
	"cmp"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ndd-beam/ndd-beam/warc"
)

// realPage returns the payload and content type of the record of uri in
// the repository's eval/realpages WARC file name.
func realPage(t *testing.T, name, uri string) ([]byte, string) {
	t.Helper()
	var body []byte
	var ct string
	eachRecord(t, []string{filepath.Join("..", "eval", "realpages", "warcs", name)}, func(r warc.Record) {
		if r.TargetURI == uri {
			body, ct = r.Payload, r.ContentType
		}
	})
	if body == nil {
		t.Fatalf("%s not in %s", uri, name)
	}
	return body, ct
}

// TestPeripheryOfRealPages reads a blog post and a tag page that prints
// the same post whole inside the site's chrome (navigation, a subscription
// form, recent comments: eval/realpages, labelled one document). It checks
// the tag page's Periphery: lines ascending and distinct, each the
// BlockHash of a run of lines of the page's text; units naming its blocks
// and lines; and LessShared: nothing shared leaves the sketch as it is,
// every periphery block and line shared leaves the main text's sketch
// and fewer whole words, which share more of the post's. Which of them
// are shared is the corpus rule's to say (dedup's
// TestWholeTextLessSharedBoilerplate runs it on the whole file).
func TestPeripheryOfRealPages(t *testing.T) {
	e := mustExtractor(t)
	const file = "ipwb__sample-1.warc.gz"
	type page struct {
		blocks []Block
		st     PayloadStats
		text   []byte
	}
	read := func(uri string) page {
		body, ct := realPage(t, file, uri)
		blocks, st, err := e.ExtractPayloadBlocks(body, ct)
		if err != nil {
			t.Fatal(err)
		}
		text, _, err := PayloadText(body, ct)
		if err != nil {
			t.Fatal(err)
		}
		return page{blocks, st, text}
	}
	post := read("http://bitchmagazine.org/post/on-our-radar-todays-feminist-news-roundup-35")
	tag := read("http://bitchmagazine.org/tag/femen")

	p := tag.st.Periphery
	if len(p.Lines) < 10 || !slices.IsSortedFunc(p.Lines, func(a, b Line) int { return cmp.Compare(a.Hash, b.Hash) }) ||
		len(slices.CompactFunc(slices.Clone(p.Lines), func(a, b Line) bool { return a.Hash == b.Hash })) != len(p.Lines) {
		t.Fatalf("tag page: %d lines, want 10 or more, ascending and distinct", len(p.Lines))
	}
	var lines []uint64 // BlockHash of every run of up to 8 lines of the text (short lines that end a sentence are joined)
	ls := bytes.Split(tag.text, []byte("\n"))
	for i := range ls {
		for j := i + 1; j <= min(len(ls), i+8); j++ {
			lines = append(lines, BlockHash(bytes.Join(ls[i:j], []byte("\n"))))
		}
	}
	for i, l := range p.Lines {
		if !slices.Contains(lines, l.Hash) {
			t.Errorf("line hash %x is no line of the text", l.Hash)
		}
		if l.Main && p.Words[len(tag.blocks)+i] != 0 {
			t.Errorf("line %x inside the main content has %d periphery words", l.Hash, p.Words[len(tag.blocks)+i])
		}
	}
	sk := tag.st.Sketch
	if len(p.Units) != len(sk.WholeMin)+len(p.Ext) || len(sk.WholeMin) != WholeSketchSize || len(sk.WholeMin)+len(p.Ext) > WholeWaitSize ||
		slices.IndexFunc(p.Units, func(u uint16) bool { return u == 0 }) < 0 {
		t.Fatalf("tag page: %d units for %d + %d elements", len(p.Units), len(sk.WholeMin), len(p.Ext))
	}
	var words uint32
	for _, n := range p.Words {
		words += n
	}
	if len(p.Words) != len(tag.blocks)+len(p.Lines) || words == 0 || words > sk.WholeWords-sk.Words {
		t.Fatalf("tag page: %d word counts for %d blocks and %d lines, %d words of %d outside the main text",
			len(p.Words), len(tag.blocks), len(p.Lines), words, sk.WholeWords-sk.Words)
	}
	marked := 0
	for _, u := range p.Units {
		if int(u) > len(tag.blocks)+len(p.Lines) {
			t.Fatalf("unit %d of %d blocks and %d lines", u, len(tag.blocks), len(p.Lines))
		}
		if u > 0 {
			marked++
		}
	}

	none := func(uint64) bool { return false }
	every := func(uint64) bool { return true }
	if got := sk.LessShared(tag.blocks, p, none); !slices.Equal(got.WholeMin, sk.WholeMin) || got.WholeWords != sk.WholeWords {
		t.Errorf("nothing shared changed the sketch: %d words, want %d", got.WholeWords, sk.WholeWords)
	}
	less := sk.LessShared(tag.blocks, p, every)
	a, b := Shares(post.st.Sketch, sk)
	x, y := Shares(post.st.Sketch, less)
	t.Logf("tag page: %d whole words, %d of %d sampled elements in periphery units; %d words less them; shares %.3f/%.3f, less them %.3f/%.3f",
		sk.WholeWords, marked, len(p.Units), less.WholeWords, a, b, x, y)
	if min(a, b) >= 0.8 || min(x, y) <= min(a, b)+0.3 {
		t.Errorf("shares %.3f/%.3f, less the periphery %.3f/%.3f: want under 0.8, then 0.3 more", a, b, x, y)
	}
	if less.WholeWords != sk.WholeWords-words || less.Words != sk.Words || !slices.Equal(less.Min, sk.Min) {
		t.Errorf("less the periphery: %d whole words of %d, main %d of %d", less.WholeWords, sk.WholeWords, less.Words, sk.Words)
	}
}
