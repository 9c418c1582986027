package spotsig

import (
	"math"
	"slices"
	"testing"
)

// seq returns the n hashes from, from+step, … (ascending).
func seq(from, step uint32, n int) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = from + uint32(i)*step
	}
	return out
}

// An element is the template's when half or more of the pages whose
// sketch would hold it have it, on 3 or more pages, with 6 or more such
// pages; a page whose sketch ends below an element does not count
// against it; fewer than 6 pages give no template.
func TestTemplateOf(t *testing.T) {
	full := func(min []uint32) Sketch { return Sketch{Words: uint32(len(min)), Min: min} } // complete
	// six complete pages: 10 on all, 20 on three, 30 on two
	var pages []Sketch
	for i := range 6 {
		m := []uint32{10}
		if i < 3 {
			m = append(m, 20)
		}
		if i < 2 {
			m = append(m, 30)
		}
		m = append(m, 1000+uint32(i))
		slices.Sort(m)
		pages = append(pages, full(m))
	}
	if got := TemplateOf(pages); !slices.Equal(got, HostTemplate{10, 20}) {
		t.Errorf("template %v, want [10 20]", got)
	}
	if got := TemplateOf(pages[:5]); got != nil {
		t.Errorf("five pages: template %v, want none", got)
	}
	// Two more pages whose sketches end at 15 (not complete): they hold 10
	// but cannot show 20, which stays the template's (3 of 6 able).
	cut := Sketch{Words: 100, Min: []uint32{5, 10, 15}}
	if got := TemplateOf(append(slices.Clone(pages), cut, cut)); !slices.Equal(got, HostTemplate{10, 20}) {
		t.Errorf("with two short sketches: template %v, want [10 20]", got)
	}
	rev := slices.Clone(pages)
	slices.Reverse(rev)
	if !slices.Equal(TemplateOf(rev), TemplateOf(pages)) {
		t.Error("the template depends on the pages' order")
	}
}

// The marks cover the whole-text sketch, up to 128 hashes when a page has
// no periphery; HostShares reads the texts less the marks, exactly for
// complete sketches, and needs two pages marked against one template.
func TestHostShares(t *testing.T) {
	tpl := HostTemplate(seq(1000, 10, 100)) // 1000, 1010, … 1990
	// a: 100 template elements and 20 of its own, b: the same template, 15
	// of a's own and 5 others; complete sketches without periphery (120
	// hashes, marks past bit 64)
	own := seq(5000, 1, 20)
	a := Sketch{Min: append(slices.Clone(tpl), own...)}
	b := Sketch{Min: append(append(slices.Clone(tpl), own[:15]...), seq(9000, 1, 5)...)}
	a.Words, b.Words = uint32(len(a.Min)), uint32(len(b.Min))
	if x, y, ok := HostShares(a, b); ok || x != 0 || y != 0 {
		t.Errorf("unmarked: %v %v %v, want no shares", x, y, ok)
	}
	a.MarkTemplate(7, tpl)
	b.MarkTemplate(7, tpl)
	if a.Template[1] == 0 || !a.MarksValid() {
		t.Fatalf("marks %x: want bits past 64, valid", a.Template)
	}
	x, y, ok := HostShares(a, b)
	if !ok || math.Abs(x-15.0/20) > 1e-9 || math.Abs(y-15.0/20) > 1e-9 {
		t.Errorf("shares %v %v %v, want 0.75 0.75", x, y, ok)
	}
	if lx, ly := Shares(a, b); lx < 0.8 || ly < 0.8 {
		t.Errorf("layout shares %v %v: the template should make the pages look alike", lx, ly)
	}
	other := b
	other.MarkTemplate(8, tpl)
	if _, _, ok := HostShares(a, other); ok {
		t.Error("pages marked against two templates compared")
	}
	// template only on both sides: no shares of their own
	only := Sketch{Words: uint32(len(tpl)), Min: slices.Clone(tpl)}
	only.MarkTemplate(7, tpl)
	if _, _, ok := HostShares(only, only); ok {
		t.Error("two pages of template only: want the layout's shares alone")
	}
	if x, y, ok := HostShares(only, a); ok {
		t.Errorf("template only beside own text: %v %v %v, want the layout's shares alone", x, y, ok)
	}
	// Incomplete sketches: only elements at or below the smaller limit
	// count. c's sketch ends at 5009, so a's own elements above it are
	// not compared.
	c := Sketch{Words: 1000, Min: append(slices.Clone(tpl), seq(5000, 1, 10)...)}
	c.MarkTemplate(7, tpl)
	if x, y, ok := HostShares(a, c); !ok || x != 1 || y != 1 {
		t.Errorf("incomplete: %v %v %v, want 1 1 true (a's own at or below 5009 are all in c)", x, y, ok)
	}
	bad := a
	bad.Template[1] |= 1 << 63 // bit 127, past a's 120 hashes
	if bad.MarksValid() {
		t.Error("a mark past the sketch is valid")
	}
}
