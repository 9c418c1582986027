package match

import (
	"cmp"
	"slices"
	"sort"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Probe is the inverted index (§4.3) of a fixed set of vectors, asked
// about documents from outside the set: Reaches reports whether some
// member pairs with a query vector, at weighted Jaccard ≥ τ and, when the
// two are of one site, at the SiteRule's threshold. A run against an
// index (--against) builds one over the new batch and streams the index
// pages past it, so that only the index pages a new page can reach are
// held and matched (transforms.ReadIndex); the answers are exact, never
// missing a member that MatchCross would pair with the query and the
// SiteRule keep.
//
// Memory: the members' lengths and sites, 8 bytes per signature occurrence and one
// map entry per distinct signature. A Probe is read-only once built;
// Reaches needs its own ProbeScratch per goroutine.
type Probe struct {
	tau   float64 // effective (effectiveTau)
	rule  SiteRule
	lens  []int32 // by rank: descending length
	sites []Site
	lists map[uint64][]posting // signature → postings by ascending rank (descending length)
}

// posting is one occurrence of a signature: the member's rank and the
// signature's frequency in it.
type posting struct {
	rank int32
	freq uint32
}

// NewProbe indexes docs, of sites sites (docs[i] is of sites[i]; empty
// vectors are left out: they match nothing), for queries at threshold tau
// (τ ≤ 0: share a signature; τ > 1 or NaN: nothing reaches) with the
// same-site rule rule.
func NewProbe(docs []spotsig.Vector, sites []Site, tau float64, rule SiteRule) *Probe {
	p := &Probe{tau: effectiveTau(tau), rule: rule, lists: map[uint64][]posting{}}
	var idx []int
	for i, d := range docs {
		if d.Len() > 0 {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(docs[b].Len(), docs[a].Len()) })
	p.lens = make([]int32, len(idx))
	p.sites = make([]Site, len(idx))
	for r, i := range idx {
		d := docs[i]
		p.lens[r], p.sites[r] = int32(d.Len()), sites[i]
		for j, h := range d.Hashes {
			p.lists[h] = append(p.lists[h], posting{int32(r), d.Freqs[j]})
		}
	}
	return p
}

// ProbeScratch is one goroutine's working memory for Probe.Reaches.
type ProbeScratch struct {
	seen  []uint32 // generation stamps
	inter []int32  // overlap so far, of the members seen
	gen   uint32
	order []uint64
}

// Reaches reports whether some member of p has weighted Jaccard j ≥ τ (and
// > 0) with v, of site site (called at most once, when a member reaches
// τ), that the same-site rule keeps (SiteRule.Keep). It counts overlaps
// over v's inverted lists (§4.3) instead of comparing vectors: the lists
// are visited by ascending length, and each member seen adds min(its
// frequency, v's) to its overlap I, restricted to the lengths that can
// reach τ with |v| (eq. 6). Since j = I/(|v|+|m|−I) grows with I, a member
// is a pair as soon as its overlap so far makes one (the answer, at once);
// its final j is checked on its last addition. A member not yet seen shares none of
// the signatures visited, so once the rest of v's weight (|v| − δ1) cannot
// reach τ against a union of at least |v|, only members already seen are
// counted further (Algorithm 1's δ1 bound).
func (p *Probe) Reaches(v spotsig.Vector, site func() Site, s *ProbeScratch) bool {
	L := v.Len()
	if L == 0 || p.tau > 1 || len(p.lens) == 0 {
		return false
	}
	if len(s.seen) < len(p.lens) {
		s.seen, s.inter, s.gen = make([]uint32, len(p.lens)), make([]int32, len(p.lens)), 0
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
	// The ranks whose lengths can reach τ with L (eq. 6): lo ≤ rank < hi.
	lo := sort.Search(len(p.lens), func(r int) bool {
		lb := int(p.lens[r])
		return lb <= L || reaches(L, lb, p.tau)
	})
	hi := sort.Search(len(p.lens), func(r int) bool {
		lb := int(p.lens[r])
		return lb < L && !reaches(lb, L, p.tau)
	})
	delta1 := 0
	vsite, known := NoSite, false
	for _, o := range order {
		j := int(uint32(o))
		fresh := reaches(L-delta1, L, p.tau) // may a member not seen yet still reach τ?
		list := p.lists[v.Hashes[j]]
		start := firstFrom(list, int32(lo))
		fv := v.Freqs[j]
		for _, e := range list[start:] {
			r := e.rank
			if int(r) >= hi {
				break
			}
			if s.seen[r] != s.gen {
				if !fresh {
					continue
				}
				s.seen[r], s.inter[r] = s.gen, 0
			}
			s.inter[r] += int32(min(e.freq, fv))
			in, lb := int(s.inter[r]), int(p.lens[r])
			if !reaches(in, L+lb-in, p.tau) {
				continue
			}
			if !known {
				vsite, known = site(), true
			}
			if p.rule.Keep(float64(in)/float64(L+lb-in), vsite, p.sites[r]) {
				return true
			}
		}
		delta1 += int(fv)
	}
	return false
}

// firstFrom returns the index of the first posting of list (ascending
// rank) of rank lo or more: sort.Search's answer, without its closure,
// and at once when the list starts there (the hot path of ReadIndex).
func firstFrom(list []posting, lo int32) int {
	i, j := 0, len(list)
	if j == 0 || list[0].rank >= lo {
		return 0
	}
	for i < j {
		h := int(uint(i+j) >> 1)
		if list[h].rank < lo {
			i = h + 1
		} else {
			j = h
		}
	}
	return i
}
