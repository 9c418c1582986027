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
// Memory: the members' lengths and sites, 8 bytes per signature
// occurrence (the inverted lists, one array, indexed by int32: fewer than
// 2³¹ occurrences) and 32 to 64 bytes per distinct signature (its slot of
// 16 bytes, the table a quarter to half full). A Probe is read-only once
// built; Reaches needs its own ProbeScratch per goroutine.
type Probe struct {
	tau   float64 // effective (effectiveTau)
	rule  SiteRule
	lens  []int32 // by rank: descending length
	sites []Site
	// Signature h's inverted list, postings by ascending rank (descending
	// length), is posts[s.start:s.end] for the slot s of key h in table,
	// found by linear probing from h's Fibonacci hash (a power-of-two
	// table, at most half full; key 0 marks an empty slot, so signature
	// 0's list is zero's). A lookup reads one slot of 16 bytes where a Go
	// map of slices read its control word, key and slice header apart:
	// in a profile of a 36,000-page batch against 723,044 index pages the
	// map's lookups were 1.15 of Reaches' 3.2 s, the table's 0.5 s.
	table []probeSlot
	shift uint
	posts []posting
	zero  probeSlot
}

// probeSlot is a signature's entry in Probe.table.
type probeSlot struct {
	key        uint64
	start, end int32
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
	p := &Probe{tau: effectiveTau(tau), rule: rule}
	var idx []int
	occ := 0
	for i, d := range docs {
		if d.Len() > 0 {
			idx = append(idx, i)
			occ += len(d.Hashes)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(docs[b].Len(), docs[a].Len()) })
	p.lens = make([]int32, len(idx))
	p.sites = make([]Site, len(idx))
	// Each distinct signature's slot, its occurrences counted, then its
	// list laid out and filled by ascending rank.
	p.table, p.shift = make([]probeSlot, 1024), 64-10
	distinct := 0
	for _, i := range idx {
		for _, h := range docs[i].Hashes {
			s := p.slot(h, true)
			if s.end == 0 && h != 0 {
				if distinct++; 2*distinct > len(p.table) {
					p.grow()
					s = p.slot(h, false)
				}
			}
			s.end++
		}
	}
	next := int32(0)
	lay := func(s *probeSlot) {
		n := s.end
		s.start, s.end = next, next
		next += n
	}
	for i := range p.table {
		if p.table[i].key != 0 {
			lay(&p.table[i])
		}
	}
	lay(&p.zero)
	p.posts = make([]posting, occ)
	for r, i := range idx {
		d := docs[i]
		p.lens[r], p.sites[r] = int32(d.Len()), sites[i]
		for j, h := range d.Hashes {
			s := p.slot(h, false)
			p.posts[s.end] = posting{int32(r), d.Freqs[j]}
			s.end++
		}
	}
	return p
}

// slot is signature h's slot: added if add and absent, else nil if absent.
func (p *Probe) slot(h uint64, add bool) *probeSlot {
	if h == 0 {
		return &p.zero
	}
	mask := len(p.table) - 1
	for i := int((h * mixK) >> p.shift); ; i = (i + 1) & mask {
		s := &p.table[i]
		switch s.key {
		case h:
			return s
		case 0:
			if !add {
				return nil
			}
			s.key = h
			return s
		}
	}
}

// grow doubles p.table, its slots moved with their counts.
func (p *Probe) grow() {
	old := p.table
	p.table, p.shift = make([]probeSlot, 2*len(old)), p.shift-1
	for _, o := range old {
		if o.key != 0 {
			*p.slot(o.key, true) = o
		}
	}
}

// list is signature h's inverted list, as bounds into p.posts (empty if no
// member has h).
func (p *Probe) list(h uint64) probeSlot {
	if s := p.slot(h, false); s != nil {
		return *s
	}
	return probeSlot{}
}

// ProbeScratch is one goroutine's working memory for Probe.Reaches.
type ProbeScratch struct {
	seen  []uint32 // generation stamps
	inter []int32  // overlap so far, of the members seen
	gen   uint32
	order []uint64
	lists []probeSlot // of the query's signatures, by position
	seenR []int32     // the ranks seen, in order
	first []int32     // the first rank of each list found, by position
	warm  uint64      // the sum of the home slots' keys (see Reaches)
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
// counted further (Algorithm 1's δ1 bound); δ1 starts at the weight of
// v's signatures no member has. At that point the members seen that could
// not reach τ with all the rest are left out, and with none left v
// reaches nothing (a quarter of the index pages of day 30 of `make
// bench-batches` end there, counted once: docs/benchmarks.md, "Reading
// the index cheaper").
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
	s.lists = slices.Grow(s.lists[:0], len(v.Hashes))[:len(v.Hashes)]
	s.first = slices.Grow(s.first[:0], len(v.Hashes))[:len(v.Hashes)]
	present := 0 // v's weight in signatures some member has
	// Most of a query's cost is cache misses: a slot, then a list, per
	// signature. The home slots are read first in a loop without branches
	// (their keys summed, so that the reads stay), and each list's first
	// posting as its slot is found, so that the misses overlap instead of
	// coming one at a time in the loops below; the first rank also spares
	// firstFrom's search where the list starts within range. On day 30 of
	// `make bench-batches` against days 1–29 this took Reaches from 2.05–2.19
	// to 1.55–1.81 s of samples (three paired profiles).
	var warm uint64
	for _, h := range v.Hashes {
		warm += p.table[(h*mixK)>>p.shift].key
	}
	s.warm = warm
	for j, h := range v.Hashes {
		l := p.list(h)
		if n := l.end - l.start; n > 0 {
			s.lists[j] = l
			s.first[j] = p.posts[l.start].rank
			order = append(order, uint64(n)<<32|uint64(j))
			present += int(v.Freqs[j])
		}
	}
	// δ1 starts at the weight no member shares: a member's overlap is at
	// most the weight of the lists still to visit.
	delta1 := L - present
	if !reaches(L-delta1, L, p.tau) {
		return false
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
	vsite, known := NoSite, false
	s.seenR = s.seenR[:0]
	fresh := true // may a member not seen yet still reach τ?
	for _, o := range order {
		j := int(uint32(o))
		if fresh && !reaches(L-delta1, L, p.tau) {
			// From here on only the members seen are counted: those that
			// cannot reach τ with all of v's weight left are dropped (their
			// stamp cleared), and with none left nothing reaches.
			fresh = false
			alive := 0
			for _, r := range s.seenR {
				lb := int(p.lens[r])
				most := min(int(s.inter[r])+L-delta1, lb, L)
				if reaches(most, L+lb-most, p.tau) {
					alive++
				} else {
					s.seen[r] = 0
				}
			}
			if alive == 0 {
				break
			}
		}
		list := p.posts[s.lists[j].start:s.lists[j].end]
		start := 0
		if s.first[j] < int32(lo) {
			start = firstFrom(list, int32(lo))
		}
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
				s.seenR = append(s.seenR, r)
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
