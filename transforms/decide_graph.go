package transforms

import (
	"context"
	"fmt"
	"slices"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
)

// The pair graph of Decide: its pairs oriented by rank into one adjacency
// per higher node (two joins), the synchronous rounds of Blelloch, Fineman
// and Shun over its nodes (two joins a round), the residual decided on one
// worker, and each dropped node's highest-priority kept neighbour. Nodes are
// exact-copy groups keyed by their representative's warc.Ref.ID; only nodes
// with a pair take part (Decide).

// pairEnds are the pairs of one page (the key) on their way to
// orientation, merged per page (bundleMerge): for each pair, the other
// page's key and the Jaccard, and from the first join on, the other page's
// rank.
type pairEnds struct {
	Other   []string
	Jaccard []float64
	Rank    []string
}

// pairEndsFn keys each found pair by its first document.
type pairEndsFn struct {
	Limit int // bytes held before emitting; mergeBytes when 0 (tests)

	merge bundleMerge[string, pairEnds]
}

func (fn *pairEndsFn) StartBundle(func(string, pairEnds)) { fn.merge.start(fn.Limit) }

func (fn *pairEndsFn) ProcessElement(f foundPair, emit func(string, pairEnds)) {
	p := f.Pair
	b := p.B().ID()
	fn.merge.add(p.A().ID(), len(b)+56, func(e *pairEnds) {
		e.Other, e.Jaccard = append(e.Other, b), append(e.Jaccard, p.Jaccard)
	}, emit)
}

func (fn *pairEndsFn) FinishBundle(emit func(string, pairEnds)) { fn.merge.flush(emit) }

// orientAFn attaches the first page's rank to each of its pairs and sends
// them to the second page.
type orientAFn struct {
	Limit int

	merge bundleMerge[string, pairEnds]
}

func (fn *orientAFn) StartBundle(func(string, pairEnds)) { fn.merge.start(fn.Limit) }

func (fn *orientAFn) ProcessElement(key string, pages func(*dedup.Page) bool, ends func(*pairEnds) bool, emit func(string, pairEnds)) error {
	return forEachEnd(key, pages, ends, func(p dedup.Page, other string, j float64, _ string) error {
		fn.merge.add(other, len(key)+72, func(b *pairEnds) {
			b.Other, b.Jaccard, b.Rank = append(b.Other, key), append(b.Jaccard, j), append(b.Rank, p.Rank)
		}, emit)
		return nil
	})
}

func (fn *orientAFn) FinishBundle(emit func(string, pairEnds)) { fn.merge.flush(emit) }

// orientBFn orients each pair of the second page by rank and adds it to the
// adjacency of its higher page.
type orientBFn struct {
	Limit int

	merge bundleMerge[string, adjacency]
}

func (fn *orientBFn) StartBundle(func(string, adjacency)) { fn.merge.start(fn.Limit) }

func (fn *orientBFn) ProcessElement(key string, pages func(*dedup.Page) bool, ends func(*pairEnds) bool, emit func(string, adjacency)) error {
	return forEachEnd(key, pages, ends, func(b dedup.Page, other string, j float64, otherRank string) error {
		hiRank, loRank, hiKey, loKey := otherRank, b.Rank, other, key
		if loRank < hiRank {
			hiRank, loRank, hiKey, loKey = loRank, hiRank, loKey, hiKey
		}
		if hiRank == loRank {
			return fmt.Errorf("decide: pages %x and %x have the same rank", hiKey, loKey)
		}
		fn.merge.add(hiKey, len(loKey)+40, func(a *adjacency) {
			a.HiRank, a.Lo, a.Jaccard = hiRank, append(a.Lo, loKey), append(a.Jaccard, j)
		}, emit)
		return nil
	})
}

// forEachEnd calls fn with the page key's record and each of its pair
// ends (the other page's key, the Jaccard, and the other page's rank once
// orientAFn has attached it); a pair of a page that has no record is an
// error.
func forEachEnd(key string, pages func(*dedup.Page) bool, ends func(*pairEnds) bool, fn func(p dedup.Page, other string, j float64, otherRank string) error) error {
	var p dedup.Page
	have := pages(&p)
	var e pairEnds
	for ends(&e) {
		if !have {
			return fmt.Errorf("decide: pair with %x, which reached no decision", key)
		}
		for i, other := range e.Other {
			rank := ""
			if i < len(e.Rank) {
				rank = e.Rank[i]
			}
			if err := fn(p, other, e.Jaccard[i], rank); err != nil {
				return err
			}
		}
		e = pairEnds{}
	}
	return nil
}

func (fn *orientBFn) FinishBundle(emit func(string, adjacency)) { fn.merge.flush(emit) }

// packAdjacency joins the adjacency parts of one higher page into one.
func packAdjacency(key string, parts func(*adjacency) bool, emit func(string, adjacency)) {
	var a, p adjacency
	for parts(&p) {
		a.HiRank = p.HiRank
		a.Lo = append(a.Lo, p.Lo...)
		a.Jaccard = append(a.Jaccard, p.Jaccard...)
		p = adjacency{}
	}
	emit(key, a)
}

// each calls fn with every edge of a, whose higher page is hi.
func (a adjacency) each(hi string, fn func(edge)) {
	for i, lo := range a.Lo {
		fn(edge{Hi: hi, Lo: lo, HiRank: a.HiRank, Jaccard: a.Jaccard[i]})
	}
}

// lowerKeys is the edges of the rounds: a higher page's lower pages.
func lowerKeys(hi string, a adjacency) (string, []string) { return hi, a.Lo }

// roundMsg is what a page (the key) learns in a round from its
// higher-priority neighbours, merged per page (bundleMerge): whether one of
// them is kept and, if none is, the keys of those still undecided. A
// dropped neighbour tells nothing.
type roundMsg struct {
	SawKeep bool
	Waiting []string
}

// add merges m into r.
func (r *roundMsg) add(m roundMsg) {
	switch {
	case r.SawKeep:
	case m.SawKeep:
		r.SawKeep, r.Waiting = true, nil
	default:
		r.Waiting = append(r.Waiting, m.Waiting...)
	}
}

// broadcastFn is the first join of a round, keyed by the higher page: it
// tells each of the page's remaining lower pages its state (Keep or
// Undecided).
type broadcastFn struct {
	Limit int

	merge bundleMerge[string, roundMsg]
}

func (fn *broadcastFn) StartBundle(func(string, roundMsg)) { fn.merge.start(fn.Limit) }

func (fn *broadcastFn) ProcessElement(key string, states func(*pageState) bool, lows func(*[]string) bool, emit func(string, roundMsg)) error {
	var st pageState
	have := states(&st)
	var lo []string
	for lows(&lo) {
		if !have {
			return fmt.Errorf("decide: edge from %x, which is not in the rounds", key)
		}
		m := roundMsg{Waiting: []string{key}}
		switch match.State(st.State) {
		case match.Keep:
			m = roundMsg{SawKeep: true}
		case match.Drop:
			lo = nil
		}
		for _, l := range lo {
			fn.merge.add(l, len(key)+16, func(r *roundMsg) { r.add(m) }, emit)
		}
		lo = nil
	}
	return nil
}

func (fn *broadcastFn) FinishBundle(emit func(string, roundMsg)) { fn.merge.flush(emit) }

// stepFn is the second join of a round, keyed by the page: a page decided
// in the previous round (it has now told its neighbours) leaves on final; an
// undecided page takes match.Step and stays in the rounds (next), and while
// it stays undecided the edges from its undecided higher neighbours stay
// active (carry, keyed by the higher page and merged per higher page).
type stepFn struct {
	Limit int

	merge bundleMerge[string, []string]
}

func (fn *stepFn) StartBundle(func(string, pageState), func(string, []string), func(string, pageState)) {
	fn.merge.start(fn.Limit)
}

func (fn *stepFn) ProcessElement(key string, states func(*pageState) bool, msgs func(*roundMsg) bool, next func(string, pageState), carry func(string, []string), final func(string, pageState)) error {
	var st pageState
	if !states(&st) {
		return fmt.Errorf("decide: message to %x, which is not in the rounds", key)
	}
	in, m := roundMsg{}, roundMsg{}
	for msgs(&m) {
		in.add(m)
		m = roundMsg{}
	}
	if match.State(st.State) != match.Undecided {
		final(key, st)
		return nil
	}
	st.State = uint8(match.Step(in.SawKeep, len(in.Waiting) > 0))
	next(key, st)
	if match.State(st.State) == match.Undecided {
		for _, hi := range in.Waiting {
			fn.merge.add(hi, len(key)+16, func(lo *[]string) { *lo = append(*lo, key) }, carry)
		}
	}
	return nil
}

func (fn *stepFn) FinishBundle(_ func(string, pageState), carry func(string, []string), _ func(string, pageState)) {
	fn.merge.flush(carry)
}

// residualItem is a page still undecided after the rounds: its rank,
// whether a kept higher neighbour drops it, and the keys of its undecided
// higher neighbours.
type residualItem struct {
	Key     string
	Rank    string
	SawKeep bool
	Higher  []string
}

// tailFn ends the rounds: pages decided leave on final, undecided ones go
// to the single residual key with their remaining edges.
type tailFn struct{}

func (*tailFn) ProcessElement(key string, states func(*pageState) bool, msgs func(*roundMsg) bool, final func(string, pageState), residual func(int, residualItem)) error {
	var st pageState
	if !states(&st) {
		return fmt.Errorf("decide: message to %x, which is not in the rounds", key)
	}
	in, m := roundMsg{}, roundMsg{}
	for msgs(&m) {
		in.add(m)
		m = roundMsg{}
	}
	if match.State(st.State) != match.Undecided {
		final(key, st)
		return nil
	}
	residual(0, residualItem{Key: key, Rank: st.Rank, SawKeep: in.SawKeep, Higher: in.Waiting})
	return nil
}

// residualFn decides the residual pages in one place with
// match.ResolveResidual.
type residualFn struct{}

func (*residualFn) ProcessElement(ctx context.Context, _ int, items func(*residualItem) bool, final func(string, pageState), count func(int)) error {
	var all []residualItem
	var it residualItem
	for items(&it) {
		all = append(all, it)
		it = residualItem{}
	}
	slices.SortFunc(all, func(a, b residualItem) int {
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	})
	index := make(map[string]int, len(all))
	ranks := make([]string, len(all))
	states := make([]match.State, len(all))
	for i, it := range all {
		index[it.Key], ranks[i] = i, it.Rank
		if it.SawKeep {
			states[i] = match.Drop
		}
	}
	var pairs []match.Pair
	for i, it := range all {
		for _, hi := range it.Higher {
			j, ok := index[hi]
			if !ok {
				return fmt.Errorf("decide: residual page %x has an undecided neighbour %x outside the residual", it.Key, hi)
			}
			pairs = append(pairs, match.Pair{A: min(i, j), B: max(i, j)})
		}
	}
	match.ResolveResidual(ranks, pairs, states)
	decideResidual.Inc(ctx, int64(len(all)))
	count(len(all))
	for i, it := range all {
		final(it.Key, pageState{State: uint8(states[i]), Rank: it.Rank})
	}
	return nil
}

// keptNeighboursFn sends every edge of a kept page to the lower page,
// keeping per lower page (bundleMerge) only the edge of highest priority.
type keptNeighboursFn struct {
	Limit int

	merge bundleMerge[string, edge]
}

func (fn *keptNeighboursFn) StartBundle(func(string, edge)) { fn.merge.start(fn.Limit) }

func (fn *keptNeighboursFn) ProcessElement(key string, states func(*pageState) bool, adjs func(*adjacency) bool, emit func(string, edge)) error {
	var st pageState
	have := states(&st)
	var a adjacency
	for adjs(&a) {
		if !have {
			return fmt.Errorf("decide: edge from %x, which has no final state", key)
		}
		if match.State(st.State) == match.Keep {
			a.each(key, func(e edge) {
				fn.merge.add(e.Lo, 40, func(best *edge) {
					if best.Hi == "" || e.HiRank < best.HiRank {
						*best = e
					}
				}, emit)
			})
		}
		a = adjacency{}
	}
	return nil
}

func (fn *keptNeighboursFn) FinishBundle(emit func(string, edge)) { fn.merge.flush(emit) }
