package spotsig

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/internal/hashx"
	"github.com/ndd-beam/ndd-beam/warc"
)

// exactShares is the share of a's words found in b and of b's in a, on the
// whole word multisets: what Shares estimates.
func exactShares(a, b []byte) (float64, float64) {
	words := func(t []byte) []string {
		var w []string
		Tokenize(t, func(tok []byte) { w = append(w, string(tok)) })
		slices.Sort(w)
		return w
	}
	x, y := words(a), words(b)
	if len(x) == 0 || len(y) == 0 {
		return 0, 0
	}
	n, i, j := 0, 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i] == y[j]:
			n, i, j = n+1, i+1, j+1
		case x[i] < y[j]:
			i++
		default:
			j++
		}
	}
	return float64(n) / float64(len(x)), float64(n) / float64(len(y))
}

func TestSharesSmallTextsExact(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"the cat sat on the mat", "the cat sat on the mat"},
		{"the cat sat on the mat", "the cat sat on a mat today"},
		{"Population 1,204 in 2011; 1,380 in 2021", "Population 2,310 in 2011; 2,512 in 2021"},
		{"the the the", "the"}, // a multiset: one of the three is found
		{"a b c", "d e f"},
		{"", "a b c"},
	} {
		got1, got2 := Shares(SketchText([]byte(c.a)), SketchText([]byte(c.b)))
		want1, want2 := exactShares([]byte(c.a), []byte(c.b))
		if math.Abs(got1-want1) > 1e-9 || math.Abs(got2-want2) > 1e-9 {
			t.Errorf("Shares(%q, %q) = %.3f, %.3f, want %.3f, %.3f", c.a, c.b, got1, got2, want1, want2)
		}
	}
	if s := SketchText([]byte("one two two")); s.Words != 3 || len(s.Min) != 3 || !s.Complete() {
		t.Errorf("SketchText: %+v, want 3 words held whole", s)
	}
}

// TestSharesEstimateRealPages holds the sketch's estimate of the smaller
// share (the one a verdict reads) close to the exact value on pairs of
// real pages: each main text of the bundled WARC files against the next
// few of its file, and against itself with its last sixth cut.
func TestSharesEstimateRealPages(t *testing.T) {
	ex := mustExtractor(t)
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.warc*"))
	var texts [][]byte
	eachRecord(t, files, func(r warc.Record) {
		if m, err := ex.MainText(r.Payload, r.ContentType); err == nil && len(m) > 0 {
			texts = append(texts, m)
		}
	})
	if len(texts) < 100 {
		t.Fatalf("%d main texts read, want >= 100", len(texts))
	}
	var n, large int
	var sum, worst float64
	check := func(a, b []byte) {
		sa, sb := SketchText(a), SketchText(b)
		e1, e2 := Shares(sa, sb)
		x1, x2 := exactShares(a, b)
		if !sa.Complete() || !sb.Complete() {
			large++
		}
		d := math.Abs(min(e1, e2) - min(x1, x2))
		n, sum, worst = n+1, sum+d, max(worst, d)
	}
	for i, a := range texts {
		for j := i + 1; j < min(len(texts), i+4); j++ {
			check(a, texts[j])
		}
		check(a, a[:len(a)*5/6])
	}
	mean := sum / float64(n)
	t.Logf("%d pairs (%d with a sketch not whole): mean |error| of the smaller share %.4f, largest %.3f", n, large, mean, worst)
	if large < n/4 {
		t.Errorf("only %d of %d pairs need the estimate", large, n)
	}
	if mean > 0.02 || worst > 0.2 {
		t.Errorf("estimate off: mean |error| %.4f (want <= 0.02), largest %.3f (want <= 0.2)", mean, worst)
	}
}

// TestMainText: the main text of a page is its main content, without the
// periphery's words.
func TestMainText(t *testing.T) {
	ex := mustExtractor(t)
	article := "<p>The council approved the new budget for the city on Tuesday after a long debate about schools, roads and the harbour, with the mayor saying the plan would hold taxes flat.</p>"
	page := []byte("<html><body><div id=nav><p>Home News Sport Weather Contact us About us Jobs Advertise Privacy Terms Cookies Help</p></div><div id=main>" +
		article + article + "</div></body></html>")
	main, err := ex.MainText(page, "text/html")
	if err != nil {
		t.Fatal(err)
	}
	sk := SketchText(main)
	for range 2 { // the second time with the pool's reused buffers
		if _, st, err := ex.ExtractPayloadBlocks(page, "text/html"); err != nil || st.Sketch.Words != sk.Words || !slices.Equal(st.Sketch.Min, sk.Min) {
			t.Errorf("the extraction's sketch %+v is not that of the main text %+v (%v)", st.Sketch, sk, err)
		}
	}
	// The whole text's sketch is the 64 smallest of the whole text's
	// multiset, the navigation's words with the article's.
	side := []byte("<html><body><div><p>Weather: sunny, 21 degrees, light wind from the west</p></div><div>" +
		article + article + "</div></body></html>")
	whole, _, err := PayloadText(side, "text/html")
	if err != nil {
		t.Fatal(err)
	}
	if _, st, _ := ex.ExtractPayloadBlocks(side, "text/html"); int(st.Sketch.WholeWords) != int(SketchText(whole).Words) ||
		!slices.Equal(st.Sketch.WholeMin, SketchText(whole).Min[:WholeSketchSize]) || st.Sketch.WholeWords <= sk.Words {
		t.Errorf("whole-text sketch %d words, %d hashes; the whole text has %d words", st.Sketch.WholeWords, len(st.Sketch.WholeMin), SketchText(whole).Words)
	}
	if sk.Words != 2*31 {
		t.Errorf("main text %q: %d words, want the article's 2 × 31", main, sk.Words)
	}
	if a, _ := Shares(SketchText([]byte("Home News Sport Weather Contact")), sk); a != 0 {
		t.Errorf("periphery words found in the main text (share %.2f): %q", a, main)
	}
	if _, err := ex.MainText([]byte{0, 1, 2, 3, 0, 0, 0, 0}, "application/octet-stream"); err == nil {
		t.Error("MainText of a binary payload: no error")
	}
}

// TestSharesMainAndWhole: a pair's share is the smaller of its main
// contents' and its whole pages' shares. Template siblings (one template,
// different main contents) share little; so do two listings whose layout
// took the same footer paragraph for their main content; two captures of
// one page share all.
func TestSharesMainAndWhole(t *testing.T) {
	ex := mustExtractor(t)
	sketch := func(html string) Sketch {
		_, st, err := ex.ExtractPayloadBlocks([]byte(html), "text/html")
		if err != nil {
			t.Fatal(err)
		}
		return st.Sketch
	}
	template := func(main, side string) string {
		return "<html><body><div id=side><p>" + side + "</p></div><div id=main><p>" + main + "</p></div></body></html>"
	}
	para := func(s string) string { return strings.Repeat(s+" ", 4) }
	side := para("Our magazine has been published every month since 1869 and reports on science for all readers in the country.")
	a := para("The council approved the new budget for the city on Tuesday after a long debate about schools and roads.")
	b := para("Heavy rain flooded the lower town overnight and the river reached its highest level in forty years.")
	// Entries of a listing: short lines that the layout does not score.
	entries := func(n int) string {
		var e []string
		for i := range n {
			e = append(e, fmt.Sprintf("<li><a href=/a/%d>Report number %d of the archive</a></li>", i, i))
		}
		return strings.Join(e, "")
	}
	listing := func(from int) string {
		return "<html><body><ul>" + entries(from) + "</ul><div id=about><p>" + side + "</p></div></body></html>"
	}
	cases := []struct {
		name string
		x, y string
		high bool
	}{
		{"one page twice", template(a, side), template(a, side), true},
		{"template siblings", template(a, side+side+side), template(b, side+side+side), false},
		{"listings with the same about paragraph", listing(40), strings.ReplaceAll(listing(40), "Report number", "Notice no."), false},
	}
	for _, c := range cases {
		sx, sy := sketch(c.x), sketch(c.y)
		ab, ba := Shares(sx, sy)
		if (min(ab, ba) >= 0.8) != c.high {
			t.Errorf("%s: shares %.2f, %.2f (main %d words, whole %d)", c.name, ab, ba, sx.Words, sx.WholeWords)
		}
	}
}

// smallest selects the smallest distinct hashes without sorting them all:
// the same as sorting all, on lists of every size and repetition.
func TestSmallestEqualsSort(t *testing.T) {
	var sk sketcher
	for _, n := range []int{1, 5, 127, 128, 129, 256, 257, 1000, 20000} {
		for _, distinct := range []int{1, 3, n/2 + 1, n} {
			el := make([]uint32, n)
			for i := range el {
				el[i] = uint32(hashx.Mix64(uint64(i%distinct)) >> 32)
			}
			sorted := slices.Compact(slices.Sorted(slices.Values(el)))
			for _, size := range []int{WholeSketchSize, SketchSize} {
				want := sorted[:min(len(sorted), size)]
				if got := sk.smallest(el, size); !slices.Equal(got, want) {
					t.Fatalf("n %d, %d distinct, k %d: %d hashes, want %d", n, distinct, size, len(got), len(want))
				}
			}
		}
	}
}

// BenchmarkSmallest is the selection of a sketch's hashes from the
// elements of pages of 100 and 2,000 words.
func BenchmarkSmallest(b *testing.B) {
	for _, n := range []int{100, 2000} {
		el := make([]uint32, n)
		for i := range el {
			el[i] = uint32(hashx.Mix64(uint64(i)) >> 32)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var sk sketcher
			for b.Loop() {
				sk.smallest(el, SketchSize)
			}
		})
	}
}

// TestSketchOfTheScan: the sketch that the scan gathers as it tokenizes a
// page (ExtractPayloadBlocks) is the sketch of its main text and of its
// whole text, each tokenized apart (MainText; the periphery alone), on the
// real pages of testdata, eval/realpages and the shared WARCs; and a
// page cut by the token cap still has every word in its sketch.
func TestSketchOfTheScan(t *testing.T) {
	files := realWARCs()
	ex, capped := mustExtractor(t), mustExtractor(t, WithMaxTokens(50))
	var pages, withPeriphery int
	eachRecord(t, files, func(r warc.Record) {
		_, st, err := ex.ExtractPayloadBlocks(r.Payload, r.ContentType)
		if err != nil {
			return
		}
		s := ex.scratch.Get().(*scratch)
		var pst PayloadStats
		periphery, _ := ex.payloadText(s, r.Payload, r.ContentType, &pst)
		var sk sketcher
		at := 0
		words := func(part []byte, to *[]uint64) {
			Tokenize(part, func(tok []byte) { *to = append(*to, wordHash(tok)) })
		}
		for _, p := range periphery {
			words(s.text[at:p.start], &sk.main)
			words(s.text[p.start:p.end], &sk.side)
			at = p.end
		}
		words(s.text[at:], &sk.main)
		ex.release(s)
		want, _ := sk.sketch(false)
		if !sketchEqual(st.Sketch, want) {
			t.Errorf("%s @%d: sketch of the scan %d/%d words, of the text's parts %d/%d", r.TargetURI, r.Offset, st.Sketch.Words, st.Sketch.WholeWords, want.Words, want.WholeWords)
		}
		if _, cst, err := capped.ExtractPayloadBlocks(r.Payload, r.ContentType); err == nil && !sketchEqual(cst.Sketch, want) {
			t.Errorf("%s @%d: sketch under a cap of 50 tokens differs", r.TargetURI, r.Offset)
		}
		pages++
		if want.WholeWords > 0 {
			withPeriphery++
		}
	})
	t.Logf("%d pages, %d with periphery", pages, withPeriphery)
	if pages < 300 || withPeriphery < pages/3 {
		t.Fatalf("%d pages, %d with periphery: want >= 300 and a third", pages, withPeriphery)
	}
}

func sketchEqual(a, b Sketch) bool {
	return a.Words == b.Words && a.WholeWords == b.WholeWords && slices.Equal(a.Min, b.Min) && slices.Equal(a.WholeMin, b.WholeMin)
}
