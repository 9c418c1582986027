package match

import (
	"math/rand/v2"
	"testing"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// naiveJaccard is eq. (4) written with maps, as an independent reference.
func naiveJaccard(a, b spotsig.Vector) float64 {
	fa, fb := map[uint64]uint64{}, map[uint64]uint64{}
	for i, h := range a.Hashes {
		fa[h] = uint64(a.Freqs[i])
	}
	for i, h := range b.Hashes {
		fb[h] = uint64(b.Freqs[i])
	}
	var num, den uint64
	for h, x := range fa {
		y := fb[h]
		num += min(x, y)
		den += max(x, y)
	}
	for h, y := range fb {
		if _, ok := fa[h]; !ok {
			den += y
		}
	}
	if den == 0 {
		return 0
	}
	return float64(num) / float64(den)
}

// The §4.3.2 documents, similarities worked out by hand from eq. (4).
func TestWeightedJaccardPaperExample(t *testing.T) {
	d1 := vec(1, 5, 2, 4, 3, 4)
	d2 := vec(1, 8, 2, 4)
	d3 := vec(1, 4, 2, 5, 3, 5)
	cases := []struct {
		a, b spotsig.Vector
		want float64
	}{
		{d1, d3, 12.0 / 15.0}, // (4+4+4)/(5+5+5), the paper's 0.8
		{d1, d2, 9.0 / 16.0},  // (5+4)/(8+4+4)
		{d2, d3, 8.0 / 18.0},  // (4+4)/(8+5+5)
		{d1, d1, 1},
	}
	for _, c := range cases {
		if got := WeightedJaccard(c.a, c.b); got != c.want {
			t.Errorf("WeightedJaccard(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := WeightedJaccard(c.b, c.a); got != c.want {
			t.Errorf("not symmetric: %v", got)
		}
	}
	if WeightedJaccard(d1, d3) != 0.8 {
		t.Errorf("sim(d1,d3) must be the float 0.8 the paper reports")
	}
}

func TestWeightedJaccardEmpty(t *testing.T) {
	var e spotsig.Vector
	if got := WeightedJaccard(e, e); got != 0 {
		t.Errorf("empty vs empty = %v, want 0 (two empty documents are not near-duplicates)", got)
	}
	if got := WeightedJaccard(e, vec(1, 1)); got != 0 {
		t.Errorf("empty vs non-empty = %v, want 0", got)
	}
	if _, ok := JaccardAtLeast(e, e, 0.5); ok {
		t.Errorf("JaccardAtLeast(empty, empty, 0.5) reported a match")
	}
}

func TestJaccardAtLeastAgreesWithWeightedJaccard(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	draw := func() uint64 { return uint64(r.IntN(30)) }
	taus := append([]float64{0, 0.05, 1e-9, 1.5}, testTaus...)
	for range 20000 {
		a := randomDoc(r, r.IntN(40), draw)
		var b spotsig.Vector
		if r.IntN(2) == 0 {
			b = perturb(r, a, 0.3*r.Float64(), draw)
		} else {
			b = randomDoc(r, r.IntN(40), draw)
		}
		want := naiveJaccard(a, b)
		if got := WeightedJaccard(a, b); got != want {
			t.Fatalf("WeightedJaccard = %v, naive %v for %v %v", got, want, a, b)
		}
		tau := taus[r.IntN(len(taus))]
		sim, ok := JaccardAtLeast(a, b, tau)
		if ok != (want >= tau) {
			t.Fatalf("JaccardAtLeast(τ=%v) ok=%v, but sim=%v", tau, ok, want)
		}
		if ok && sim != want {
			t.Fatalf("JaccardAtLeast returned %v, want exactly %v", sim, want)
		}
		if !ok && (sim >= tau || sim < want) {
			t.Fatalf("JaccardAtLeast not-ok sim %v must be an upper bound below τ=%v (true %v)", sim, tau, want)
		}
	}
}

// 18 of 20 signatures shared: the real quotient 0.9 lies below the double
// 0.9, but the computed similarity equals it, so the pair is a match.
func TestJaccardAtLeastDecimalTie(t *testing.T) {
	var a, b []uint64
	for i := range uint64(20) {
		b = append(b, i)
		if i < 18 {
			a = append(a, i)
		}
	}
	va, vb := spotsig.NewVector(a), spotsig.NewVector(b)
	sim, ok := JaccardAtLeast(va, vb, 0.9)
	if !ok || sim != 0.9 {
		t.Fatalf("JaccardAtLeast(18/20, 0.9) = %v, %v; want 0.9, true", sim, ok)
	}
}

func BenchmarkWeightedJaccard(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	draw := func() uint64 { return r.Uint64() % 5000 }
	x := randomDoc(r, 200, draw)
	y := perturb(r, x, 0.1, draw)
	b.ResetTimer()
	for b.Loop() {
		WeightedJaccard(x, y)
	}
}
