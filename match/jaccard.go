package match

import (
	"math"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// WeightedJaccard returns the weighted (multi-set) Jaccard similarity of eq. (4),
//
//	Σ_{s ∈ A∩B} min(freq_A(s), freq_B(s)) / Σ_{s ∈ A∪B} max(freq_A(s), freq_B(s)),
//
// in [0, 1], computed by one merge of the ascending hash slices
// (O(|A|+|B|) distinct signatures, no allocation). The result is the float64
// quotient of the two integer sums, so every matcher in this package that
// reports a similarity reports exactly this value and results compare with ==.
//
// Empty documents: eq. (4) is 0/0 for two empty multisets; we define it as 0,
// and any pair involving an empty document is 0. Two pages without a single
// spot signature (images, redirects, markup- or stopword-only pages) share no
// evidence of common content, and calling them identical would put every such
// page of a crawl into one clique of n²/2 "near-duplicate" pairs.
func WeightedJaccard(a, b spotsig.Vector) float64 {
	var inter, union uint64
	i, j := 0, 0
	ah, bh := a.Hashes, b.Hashes
	for i < len(ah) && j < len(bh) {
		switch x, y := ah[i], bh[j]; {
		case x == y:
			fa, fb := a.Freqs[i], b.Freqs[j]
			if fa < fb {
				inter += uint64(fa)
				union += uint64(fb)
			} else {
				inter += uint64(fb)
				union += uint64(fa)
			}
			i++
			j++
		case x < y:
			union += uint64(a.Freqs[i])
			i++
		default:
			union += uint64(b.Freqs[j])
			j++
		}
	}
	for ; i < len(ah); i++ {
		union += uint64(a.Freqs[i])
	}
	for ; j < len(bh); j++ {
		union += uint64(b.Freqs[j])
	}
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// JaccardAtLeast reports whether WeightedJaccard(a, b) >= tau, stopping the
// merge as soon as the remaining signatures can no longer lift the similarity
// to tau. ok is exactly WeightedJaccard(a, b) >= tau. When ok is true, sim is
// bit-for-bit WeightedJaccard(a, b); when ok is false, sim is either the exact
// similarity or an upper bound of it, and in both cases sim < tau.
//
// The bound (§4.1.2): after merging a prefix of both vectors with overlap I,
// the final overlap is at most I + min(rest_a, rest_b), and the similarity is
// increasing in the overlap (union = |a| + |b| - overlap), so once that
// optimistic overlap falls below the least overlap that reaches tau the pair
// is decided.
func JaccardAtLeast(a, b spotsig.Vector, tau float64) (sim float64, ok bool) {
	return jaccardAtLeast(a, b, a.Len(), b.Len(), tau)
}

// reaches reports whether a similarity of inter/union reaches tau, computed
// exactly like WeightedJaccard computes it (float64 quotient of the integer
// sums). Because IEEE division is correctly rounded, it is monotone: if the
// true overlap and union satisfy inter ≤ i and union ≥ u, then the computed
// similarity is ≤ float64(i)/float64(u). Every pruning bound in this package
// goes through reaches, so a bound can never prune a pair whose computed
// similarity is ≥ tau (even when the real quotient sits half an ulp below
// tau, as 9/10 does for tau = 0.9).
func reaches(inter, union int, tau float64) bool {
	if union <= 0 {
		return 0 >= tau
	}
	return float64(inter)/float64(union) >= tau
}

// minOverlap returns the least overlap I in [0, min(la, lb)] for which two
// documents of lengths la and lb can reach tau (reaches(I, la+lb-I, tau)),
// or -1 if none can.
func minOverlap(la, lb int, tau float64) int {
	m := min(la, lb)
	s := la + lb
	if !reaches(m, s-m, tau) {
		return -1
	}
	// I/(S-I) >= tau  <=>  I >= tau*S/(1+tau); start near it and fix rounding
	// with the exact predicate, which is monotone in I.
	i := 0
	if tau > 0 {
		est := math.Ceil(tau * float64(s) / (1 + tau))
		if est > float64(m) {
			est = float64(m)
		}
		i = int(est)
	}
	for i > 0 && reaches(i-1, s-i+1, tau) {
		i--
	}
	for !reaches(i, s-i, tau) {
		i++
	}
	return i
}

// jaccardAtLeast is JaccardAtLeast with the lengths |a| and |b| given.
func jaccardAtLeast(a, b spotsig.Vector, la, lb int, tau float64) (float64, bool) {
	if la == 0 || lb == 0 {
		return 0, 0 >= tau
	}
	need := minOverlap(la, lb, tau)
	if need < 0 {
		m := min(la, lb)
		return float64(m) / float64(la+lb-m), false
	}
	inter := 0
	ra, rb := la, lb // mass not yet merged
	i, j := 0, 0
	ah, bh := a.Hashes, b.Hashes
	for i < len(ah) && j < len(bh) {
		x, y := ah[i], bh[j]
		if x == y {
			fa, fb := int(a.Freqs[i]), int(b.Freqs[j])
			ra -= fa
			rb -= fb
			inter += min(fa, fb)
			if fa != fb && inter+min(ra, rb) < need {
				break
			}
			i++
			j++
			continue
		}
		if x < y {
			ra -= int(a.Freqs[i])
			i++
		} else {
			rb -= int(b.Freqs[j])
			j++
		}
		if inter+min(ra, rb) < need {
			break
		}
	}
	if i < len(ah) && j < len(bh) {
		best := inter + min(ra, rb)
		return float64(best) / float64(la+lb-best), false
	}
	sim := float64(inter) / float64(la+lb-inter)
	return sim, sim >= tau
}
