package match

import (
	"cmp"
	"slices"
	"sort"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Probe is the inverted index (§4.3) of a fixed set of vectors, asked
// about documents from outside the set: Reaches reports whether some
// member has weighted Jaccard ≥ τ with a query vector. A run against an
// index (--against) builds one over the new batch and streams the index
// pages past it, so that only the index pages a new page can reach are
// held and matched (transforms.ReadIndex); the answers are exact, never
// missing a member that MatchCross would pair with the query.
//
// Memory: the members' vectors (shared with the caller) and 4 bytes per
// signature occurrence plus one map entry per distinct signature. A Probe
// is read-only once built; Reaches needs its own ProbeScratch per
// goroutine.
type Probe struct {
	tau   float64 // effective (effectiveTau)
	vecs  []spotsig.Vector
	lens  []int32            // by rank: descending length
	lists map[uint64][]int32 // signature → ranks, ascending (descending length)
}

// NewProbe indexes docs (empty vectors are left out: they match nothing)
// for queries at threshold tau (τ ≤ 0: share a signature; τ > 1 or NaN:
// nothing reaches).
func NewProbe(docs []spotsig.Vector, tau float64) *Probe {
	p := &Probe{tau: effectiveTau(tau), lists: map[uint64][]int32{}}
	for _, d := range docs {
		if d.Len() > 0 {
			p.vecs = append(p.vecs, d)
		}
	}
	slices.SortStableFunc(p.vecs, func(a, b spotsig.Vector) int { return cmp.Compare(b.Len(), a.Len()) })
	p.lens = make([]int32, len(p.vecs))
	for r, d := range p.vecs {
		p.lens[r] = int32(d.Len())
		for _, h := range d.Hashes {
			p.lists[h] = append(p.lists[h], int32(r))
		}
	}
	return p
}

// Len is the number of members (non-empty vectors).
func (p *Probe) Len() int { return len(p.vecs) }

// ProbeScratch is one goroutine's working memory for Probe.Reaches.
type ProbeScratch struct {
	seen  []uint32
	gen   uint32
	order []uint64
}

// Reaches reports whether some member of p has weighted Jaccard ≥ τ (and
// > 0) with v. Algorithm 1's pruning, turned outward: v's inverted lists
// are visited by ascending length; in each only members whose length can
// reach τ with |v| (eq. 6) are compared, by JaccardAtLeast, and only if
// the signatures left in v can still lift them to τ; the visit stops once
// those left (|v| − δ1 of v's weight) cannot lift an unseen member to τ,
// whose union with v is at least |v|.
func (p *Probe) Reaches(v spotsig.Vector, s *ProbeScratch) bool {
	L := v.Len()
	if L == 0 || p.tau > 1 || len(p.vecs) == 0 {
		return false
	}
	if len(s.seen) < len(p.vecs) {
		s.seen, s.gen = make([]uint32, len(p.vecs)), 0
	}
	if s.gen++; s.gen == 0 {
		clear(s.seen)
		s.gen = 1
	}
	order := s.order[:0]
	for j, h := range v.Hashes {
		if n := len(p.lists[h]); n > 0 {
			order = append(order, uint64(n)<<32|uint64(j))
		}
	}
	slices.Sort(order)
	s.order = order
	delta1 := 0
	for _, o := range order {
		j := int(uint32(o))
		if !reaches(L-delta1, L, p.tau) {
			break // no unseen member can reach τ any more
		}
		list := p.lists[v.Hashes[j]]
		// The members long enough (eq. 6) and not too long: a contiguous run.
		lo := sort.Search(len(list), func(i int) bool {
			lb := int(p.lens[list[i]])
			return lb <= L || reaches(L, lb, p.tau)
		})
		for _, r := range list[lo:] {
			lb := int(p.lens[r])
			if lb < L && !reaches(lb, L, p.tau) {
				break // shorter ones from here on
			}
			if s.seen[r] == s.gen {
				continue
			}
			s.seen[r] = s.gen
			// r shares no signature visited before: its overlap is at
			// most what is left of v and its own length.
			if !reaches(min(L-delta1, lb), max(L, lb), p.tau) {
				continue
			}
			if _, ok := jaccardAtLeast(v, p.vecs[r], L, lb, p.tau); ok {
				return true
			}
		}
		delta1 += int(v.Freqs[j])
	}
	return false
}
