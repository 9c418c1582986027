package match

import (
	"math/rand/v2"
	"testing"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// TestProbeEqualsBruteForce: Reaches answers, for every query of every
// corpus kind and threshold, whether brute force finds a member with
// weighted Jaccard ≥ τ (and > 0), and the corpora make both answers
// common.
func TestProbeEqualsBruteForce(t *testing.T) {
	yes, no := 0, 0
	for ki, kind := range corpusKinds {
		r := rand.New(rand.NewPCG(uint64(ki), 11))
		docs := kind.gen(r, 400)
		for _, tau := range append([]float64{0, -1}, testTaus...) {
			for _, cut := range []int{1, 50, 200} {
				members, queries := docs[:cut], docs[cut:]
				p := NewProbe(members, tau)
				var s ProbeScratch
				for qi, q := range queries {
					want := false
					for _, m := range members {
						if j := WeightedJaccard(q, m); j > 0 && j >= effectiveTau(tau) {
							want = true
							break
						}
					}
					if got := p.Reaches(q, &s); got != want {
						t.Fatalf("%s/τ=%v/cut=%d: query %d (|v|=%d) reaches = %v, brute force %v", kind.name, tau, cut, qi, q.Len(), got, want)
					}
					if want {
						yes++
					} else {
						no++
					}
				}
			}
		}
	}
	if yes < 1000 || no < 1000 {
		t.Fatalf("corpora too one-sided: %d queries reach a member, %d do not", yes, no)
	}
}

// TestProbeAboveOneAndEmpty: τ above 1 reaches nothing, not even an
// identical vector; an empty query or an empty set reaches nothing.
func TestProbeAboveOneAndEmpty(t *testing.T) {
	v := vec(1, 2, 3, 1)
	var s ProbeScratch
	for _, tau := range []float64{1.5} {
		if NewProbe([]spotsig.Vector{v}, tau).Reaches(v, &s) {
			t.Errorf("τ=%v reaches", tau)
		}
	}
	if !NewProbe([]spotsig.Vector{v}, 1).Reaches(v, &s) {
		t.Error("τ=1: an identical vector does not reach")
	}
	if NewProbe([]spotsig.Vector{v}, 0.5).Reaches(spotsig.Vector{}, &s) || NewProbe(nil, 0.5).Reaches(v, &s) {
		t.Error("empty query or empty set reaches")
	}
}
