package spotsig

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

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
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		err = warc.ReadFile(f, filepath.Base(name), warc.Options{}, func(r warc.Record) error {
			if r.Skip != "" {
				return nil
			}
			if m, err := ex.MainText(r.Payload, r.ContentType); err == nil && len(m) > 0 {
				texts = append(texts, m)
			}
			return nil
		})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
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
