package match

import (
	"math"
	"sort"
	"sync"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// DefaultRho is the partitioning range ρ of §5.1: lengths in [1, ρ] get
// regular partitions, longer vectors share the overflow partition.
const DefaultRho = 1000

// maxRho caps ρ so that partition boundaries stay far from float64 rounding
// (see Partitioning) and the boundary table stays small.
const maxRho = 1 << 26

// Partitioning is the static, data-independent partitioning of vector
// lengths |d| of §4.2: a function of the threshold τ and the range ρ only.
//
// # Boundaries
//
// Partition k holds the lengths [p_k, p_{k+1}); the last one is the overflow
// partition [p_last, ∞). Starting with p_0 = 1, partition k ends at the
// smallest length q > p_k whose best similarity to p_k has dropped to τ,
//
//	q = min{ q > p_k : p_k/q ≤ τ }   (equivalently q − p_k ≥ (1−τ)·q),
//
// and q itself still belongs to partition k: p_{k+1} = q + 1. Partitions are
// closed while q ≤ ρ; the remaining lengths form the overflow partition.
//
// This is the paper's printed rule ("smallest p_{k+1} > p_k with
// p_{k+1} − p_k > (1−τ)p_{k+1}") as the authors' Java prototype applies it:
// the q it finds is the inclusive END of the partition and the next one starts
// at q+1, which is what makes τ = 1.0 give partitions of width two, [1,2],
// [3,4], …, [999,1000], i.e. 500 + overflow = 501 (§5.1), where the rule read
// as half-open would give 1000. The prototype evaluates "q − p > (1−τ)q" in
// IEEE doubles, where 1−0.9 = 0.09999999999999998, so at τ = 0.9 the decimal
// ties p/q = 0.9 (9/10, 18/20, …) close a partition; we make that explicit
// and rounding-independent by comparing the double quotient p/q ≤ τ, which
// equals τ exactly at every decimal tie. For ρ = 1000 this gives the paper's
// 501 partitions at τ = 1.0, 41 at τ = 0.9 and 3 at τ = 0.1 ([1,10],
// [11,110], [111,∞)), counting the overflow partition; a strict "<" would
// give 40 at τ = 0.9. (The prototype's float accident goes the other way at
// τ = 0.95, 69 vs our 70; the paper reports no number there.)
//
// # Why two neighbours suffice (§4.2, condition A)
//
// Let x ≤ p_k − 1 and ℓ ≥ p_{k+1} = q + 1. Then x/ℓ ≤ (p_k−1)/(q+1), which
// is below p_k/q ≤ τ by more than 1/(q+1) ≥ 1/(ρ+1) — far more than the
// rounding error of a double for ρ ≤ 2^26 — so their computed similarity is
// below τ: a near-duplicate pair spans at most two adjacent partitions.
//
// # Home and guest
//
// A document lives in its home partition Home(|d|). It is ALSO placed, as a
// guest, in the left neighbour k−1 when some length x in that partition can
// match it, i.e. when the longest one, p_k − 1, can (Guest). Algorithm 1 then
// runs once per group: group k = the home documents of partition k plus the
// guests from partition k+1, comparing home–home and home–guest pairs only.
// Invariant (proved by TestPartitionMeetsExactlyOnce over every length pair
// 0..3ρ): every pair of lengths x ≤ ℓ with x/ℓ ≥ τ meets in exactly one
// group as (home, home) or (home, guest). "x/ℓ ≥ τ" means the float64
// quotient, the same comparison WeightedJaccard's result is subject to, so a
// pair whose computed similarity is ≥ τ is never lost to rounding.
//
// # Empty documents
//
// Length 0 (no signature) is given Home(0) = 0 and is never a guest; since an
// empty document has similarity 0 to everything (WeightedJaccard), it never
// matches and Partitioned.Keys sends it nowhere.
//
// # Thresholds outside (0, 1]
//
// τ ≤ 0 is treated as "shares at least one signature" (smallest positive
// similarity); the rule then never closes a partition and everything lands in
// a single overflow partition [1, ∞). τ > 1 (or NaN) can match nothing.
type Partitioning struct {
	tau    float64 // effective threshold, > 0 (see effectiveTau)
	rho    int
	starts []int // starts[k] = p_k; len = Count()
}

// effectiveTau maps the caller's τ onto the one the matchers compare with:
// τ ≤ 0 becomes the smallest positive float64, so pairs must share at least
// one signature (similarity > 0); NaN becomes +Inf (matches nothing).
func effectiveTau(tau float64) float64 {
	switch {
	case math.IsNaN(tau):
		return math.Inf(1)
	case tau <= 0:
		return math.SmallestNonzeroFloat64
	}
	return tau
}

// NewPartitioning builds the partition boundaries for threshold tau and range
// rho (§4.2). rho < 1 means DefaultRho; rho above 2^26 is capped there (the
// bound proof needs 1/ρ ≫ float64 rounding; longer vectors go to the
// overflow partition, which stays exact).
func NewPartitioning(tau float64, rho int) Partitioning {
	if rho < 1 {
		rho = DefaultRho
	}
	rho = min(rho, maxRho)
	t := effectiveTau(tau)
	starts := []int{1}
	p := 1
	for q := 2; q <= rho; q++ {
		if q > p && float64(p)/float64(q) <= t {
			p = q + 1
			starts = append(starts, p)
		}
	}
	// A boundary at ρ+1 opens an empty-range overflow partition [ρ+1, ∞),
	// which is what the prototype counts too.
	return Partitioning{tau: t, rho: rho, starts: starts}
}

// Count returns the number of partitions, including the overflow partition.
func (p Partitioning) Count() int { return len(p.starts) }

// Tau returns the effective threshold the partitioning was built for (τ ≤ 0
// is reported as the smallest positive float64, see Partitioning).
func (p Partitioning) Tau() float64 { return p.tau }

// Rho returns the partitioning range ρ.
func (p Partitioning) Rho() int { return p.rho }

// Bounds returns partition k's lengths [lo, hi); hi = math.MaxInt for the
// overflow partition. It panics if k is out of range.
func (p Partitioning) Bounds(k int) (lo, hi int) {
	lo = p.starts[k]
	if k+1 < len(p.starts) {
		return lo, p.starts[k+1]
	}
	return lo, math.MaxInt
}

// Home returns the index of the partition that holds vector length |d|.
// Lengths ≤ 0 map to partition 0.
func (p Partitioning) Home(length int) int {
	// largest k with starts[k] <= length
	k := sort.SearchInts(p.starts, length+1) - 1
	return max(k, 0)
}

// Guest reports whether a document of vector length |d| must also be placed
// in the partition to the left of its home, and returns that partition: it
// must when the longest length of that partition, p_home − 1, can still
// match it ((p_home − 1)/|d| ≥ τ as float64, see Partitioning).
func (p Partitioning) Guest(length int) (int, bool) {
	if length <= 0 {
		return 0, false
	}
	k := p.Home(length)
	if k == 0 {
		return 0, false
	}
	if reaches(p.starts[k]-1, length, p.tau) {
		return k - 1, true
	}
	return 0, false
}

// CanMatch reports whether two vector lengths can belong to a near-duplicate
// pair at all (eq. 6: sim ≤ min/max, compared as float64 like the
// similarity itself). Zero lengths never match.
func (p Partitioning) CanMatch(la, lb int) bool {
	if la <= 0 || lb <= 0 {
		return false
	}
	return reaches(min(la, lb), max(la, lb), p.tau)
}

// Partitioned is the exact SpotSigs method as a Grouping: the partitions of
// §4.2 as group keys and Algorithm 1 (§4.3) inside each group. The zero value
// is not useful; set Tau and Rho (Rho < 1 means DefaultRho). The boundaries
// for each (Tau, Rho) are computed once per process and shared.
type Partitioned struct {
	Tau float64
	Rho int
}

var _ Grouping = Partitioned{}

type partitionKey struct {
	tau float64
	rho int
}

var partitionings sync.Map // partitionKey -> Partitioning

// cachedPartitioning returns NewPartitioning(tau, rho), computed once.
func cachedPartitioning(tau float64, rho int) Partitioning {
	k := partitionKey{tau, rho}
	if p, ok := partitionings.Load(k); ok {
		return p.(Partitioning)
	}
	p := NewPartitioning(tau, rho)
	partitionings.Store(k, p)
	return p
}

// Keys sends a document to its home partition and, if Guest says so, as a
// guest to the left neighbour. Empty documents get no key: they match nothing.
func (g Partitioned) Keys(v spotsig.Vector) []GroupKey {
	n := v.Len()
	if n == 0 {
		return nil
	}
	p := cachedPartitioning(g.Tau, g.Rho)
	keys := []GroupKey{{Key: uint64(p.Home(n))}}
	if k, ok := p.Guest(n); ok {
		keys = append(keys, GroupKey{Key: uint64(k), Guest: true})
	}
	return keys
}

// MatchGroup runs Algorithm 1 over one group (see MatchGroup).
func (g Partitioned) MatchGroup(home, guests []spotsig.Vector) []Pair {
	return MatchGroup(home, guests, g.Tau)
}

// Repeats is false: every pair meets in exactly one group.
func (g Partitioned) Repeats() bool { return false }

// MatchCross returns the pairs between two blocks of one group (see
// MatchCross).
func (g Partitioned) MatchCross(a, b []spotsig.Vector) []Pair { return MatchCross(a, b, g.Tau) }

// MatchGroupEach streams MatchGroup's pairs that rule keeps (see
// MatchGroupEach and WithSiteRule).
func (g Partitioned) MatchGroupEach(home, guests []spotsig.Vector, sites []Site, rule SiteRule, emit func([]Pair)) {
	NewMatcher(g.Tau, WithSiteRule(sites, rule)).MatchGroupEach(home, guests, emit)
}

// MatchCrossEach streams MatchCross's pairs that rule keeps (see
// MatchCrossEach and WithSiteRule).
func (g Partitioned) MatchCrossEach(a, b []spotsig.Vector, sites []Site, rule SiteRule, emit func([]Pair)) {
	NewMatcher(g.Tau, WithSiteRule(sites, rule)).MatchCrossEach(a, b, emit)
}

// BruteForceGrouping puts every document into one group and compares all
// pairs there (BruteForce): the reference method of the Beam job's
// --matcher=bruteforce. Quadratic; for small corpora and checks only.
type BruteForceGrouping struct {
	Tau float64
}

var _ Grouping = BruteForceGrouping{}

// Keys sends every non-empty document to group 0.
func (g BruteForceGrouping) Keys(v spotsig.Vector) []GroupKey {
	if len(v.Hashes) == 0 {
		return nil
	}
	return []GroupKey{{Key: 0}}
}

// MatchGroup compares every home–home and home–guest pair (there are no
// guests in this grouping, but they are honoured if given).
func (g BruteForceGrouping) MatchGroup(home, guests []spotsig.Vector) []Pair {
	all := make([]spotsig.Vector, 0, len(home)+len(guests))
	all = append(all, home...)
	all = append(all, guests...)
	tau := effectiveTau(g.Tau)
	var out []Pair
	for i := range home {
		for j := i + 1; j < len(all); j++ {
			if s := WeightedJaccard(all[i], all[j]); s >= tau {
				out = append(out, Pair{A: i, B: j, Jaccard: s})
			}
		}
	}
	return out
}

// Repeats is false.
func (g BruteForceGrouping) Repeats() bool { return false }
