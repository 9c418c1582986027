package match

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// TestProbeEqualsBruteForce: Reaches answers, for every query of every
// corpus kind, threshold and same-site rule, whether brute force finds a
// member with weighted Jaccard ≥ τ (and > 0) that the rule keeps (sites
// drawn from three and NoSite), asking the query's site at most once; the
// corpora make both answers common, and the rule changes some.
func TestProbeEqualsBruteForce(t *testing.T) {
	yes, no, ruled := 0, 0, 0
	for ki, kind := range corpusKinds {
		r := rand.New(rand.NewPCG(uint64(ki), 11))
		docs := kind.gen(r, 400)
		sites := make([]Site, len(docs))
		for i := range sites {
			sites[i] = Site{Name: uint64(r.IntN(4)), URL: uint64(r.IntN(8))} // 0 is none
		}
		for _, tau := range append([]float64{0, -1}, testTaus...) {
			for _, rule := range []SiteRule{{}, {SameSiteTau: 0.5}, {SameSiteTau: 0.9}} {
				for _, cut := range []int{1, 50, 200} {
					p := NewProbe(docs[:cut], sites[:cut], tau, rule)
					var s ProbeScratch
					for q := cut; q < len(docs); q++ {
						want, any := false, false
						for m := range cut {
							j := WeightedJaccard(docs[q], docs[m])
							if j > 0 && j >= effectiveTau(tau) {
								any = true
								if rule.Keep(j, sites[q], sites[m]) {
									want = true
									break
								}
							}
						}
						asked := 0
						got := p.Reaches(docs[q], func() Site { asked++; return sites[q] }, &s)
						if got != want || asked > 1 {
							t.Fatalf("%s/τ=%v/%+v/cut=%d: query %d (|v|=%d) reaches = %v (site asked %d times), brute force %v",
								kind.name, tau, rule, cut, q, docs[q].Len(), got, asked, want)
						}
						switch {
						case want:
							yes++
						case any:
							ruled++
						default:
							no++
						}
					}
				}
			}
		}
	}
	if yes < 1000 || no < 1000 || ruled < 100 {
		t.Fatalf("corpora too one-sided: %d queries pair with a member, %d only below the same-site threshold, %d with none", yes, ruled, no)
	}
}

// TestProbeManySignatures: with more distinct signatures than the
// table's first size (it grows, moving its slots), every member is found
// by a copy of itself and Reaches agrees with brute force on queries
// that share parts of members.
func TestProbeManySignatures(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	docs := make([]spotsig.Vector, 300)
	for i := range docs {
		docs[i] = randomDoc(r, 5+r.IntN(20), r.Uint64)
	}
	sites := make([]Site, len(docs))
	p := NewProbe(docs, sites, 0.5, SiteRule{})
	if len(p.table) < 4096 {
		t.Fatalf("table of %d slots for %d signatures", len(p.table), len(p.posts))
	}
	var s ProbeScratch
	yes := 0
	for q := range 600 {
		v := docs[q%len(docs)]
		if q >= len(docs) { // three quarters of a member, the rest new
			h := slices.Clone(v.Hashes[:len(v.Hashes)*3/4])
			for range len(v.Hashes) - len(h) {
				h = append(h, r.Uint64())
			}
			v = spotsig.NewVector(h)
		}
		want := false
		for _, d := range docs {
			if WeightedJaccard(v, d) >= 0.5 {
				want = true
			}
		}
		if got := p.Reaches(v, func() Site { return NoSite }, &s); got != want || (q < len(docs) && !got) {
			t.Fatalf("query %d: reaches %v, brute force %v", q, got, want)
		}
		if want {
			yes++
		}
	}
	t.Logf("%d of 600 queries reach", yes)
	if yes > 590 || yes < 310 {
		t.Fatalf("%d of 600 queries reach", yes)
	}
}

// TestProbeAboveOneAndEmpty: τ above 1 reaches nothing, not even an
// identical vector; τ = 1 does; an empty query or set reaches nothing.
func TestProbeAboveOneAndEmpty(t *testing.T) {
	v := vec(1, 2, 3, 1)
	one := []spotsig.Vector{v}
	site := func() Site { return Site{Name: 1} }
	var s ProbeScratch
	if NewProbe(one, []Site{{Name: 1}}, 1.5, SiteRule{}).Reaches(v, site, &s) {
		t.Error("τ=1.5 reaches")
	}
	if !NewProbe(one, []Site{{Name: 1}}, 1, SiteRule{SameSiteTau: 1}).Reaches(v, site, &s) {
		t.Error("τ=1: an identical vector of the same site does not reach")
	}
	if NewProbe(one, []Site{{Name: 1}}, 0.5, SiteRule{}).Reaches(spotsig.Vector{}, site, &s) || NewProbe(nil, nil, 0.5, SiteRule{}).Reaches(v, site, &s) {
		t.Error("empty query or empty set reaches")
	}
}
