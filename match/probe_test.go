package match

import (
	"math/rand/v2"
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
