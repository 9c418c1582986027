package match

import (
	"fmt"
	"slices"
)

// Keep/drop decisions over the near-duplicate graph.
//
// The rule: pages are ordered by a priority (a Rank, smaller = higher
// priority, see Policy) and a page is kept iff no kept page of higher
// priority is its near-duplicate. The kept pages are the lexicographically
// first maximal independent set of the near-duplicate graph in priority
// order, which is what the sequential greedy scan in priority order keeps
// (DecideSequential). It never keeps two near-duplicates (independent),
// drops a page only for a kept near-duplicate (maximal, so a chain A~B~C with
// A≁C keeps A and C), and depends only on the pairs and the ranks (not on
// input order, runner or sharding).
//
// Blelloch, Fineman and Shun (SPAA 2012, "Greedy sequential maximal
// independent set and matching are parallel on average", Algorithm 2)
// compute the same set in synchronous rounds, each of which looks only at a
// page's higher-priority neighbours: Step. DecideRounds runs those rounds the
// way the Beam job does and is the in-process reference of its Decide stage.

// State is a page's state in the decision rounds.
type State uint8

// States of a page.
const (
	Undecided State = iota
	Keep
	Drop
)

func (s State) String() string {
	switch s {
	case Undecided:
		return "undecided"
	case Keep:
		return "keep"
	case Drop:
		return "drop"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Step is one round for one undecided page, from the states its
// higher-priority neighbours had at the end of the previous round: a kept
// one drops it (sawKeep); otherwise an undecided one makes it wait
// (sawUndecided); otherwise (all higher-priority neighbours dropped, or none
// at all) it is kept. Decided pages never change.
func Step(sawKeep, sawUndecided bool) State {
	switch {
	case sawKeep:
		return Drop
	case sawUndecided:
		return Undecided
	}
	return Keep
}

// Decision is the fate of one page: kept, or dropped as a near-duplicate of
// the kept page KeptBy (an index into the input, -1 when kept) with their
// weighted Jaccard. KeptBy is the highest-priority kept near-duplicate of the
// page, which always has a higher priority than the page itself.
type Decision struct {
	Keep    bool
	KeptBy  int
	Jaccard float64
}

// adjacency returns, for each page, its neighbours (index and Jaccard). It
// returns an error for a pair out of range, a self pair or equal ranks.
func adjacency(ranks []string, pairs []Pair) ([][]neighbour, error) {
	adj := make([][]neighbour, len(ranks))
	for _, p := range pairs {
		if p.A < 0 || p.B < 0 || p.A >= len(ranks) || p.B >= len(ranks) || p.A == p.B {
			return nil, fmt.Errorf("match: pair (%d, %d) outside [0, %d) or a self pair", p.A, p.B, len(ranks))
		}
		if ranks[p.A] == ranks[p.B] {
			return nil, fmt.Errorf("match: pages %d and %d have the same rank; ranks must be distinct", p.A, p.B)
		}
		adj[p.A] = append(adj[p.A], neighbour{p.B, p.Jaccard})
		adj[p.B] = append(adj[p.B], neighbour{p.A, p.Jaccard})
	}
	return adj, nil
}

type neighbour struct {
	page    int
	jaccard float64
}

// DecideSequential is the reference rule: pages in rank order (ascending
// string order of ranks, which must be distinct among paired pages), each
// kept iff none of its already kept neighbours (all of higher priority) is a
// near-duplicate; a dropped page's KeptBy is its highest-priority kept
// neighbour. pairs index ranks; each unordered pair should appear once (a
// repeat is harmless). Time O(n log n + |pairs|).
func DecideSequential(ranks []string, pairs []Pair) ([]Decision, error) {
	adj, err := adjacency(ranks, pairs)
	if err != nil {
		return nil, err
	}
	order := make([]int, len(ranks))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return compareRank(ranks, a, b) })
	states := make([]State, len(ranks))
	for _, v := range order {
		states[v] = Keep
		for _, u := range adj[v] {
			if states[u.page] == Keep {
				states[v] = Drop
				break
			}
		}
	}
	return decisions(ranks, adj, states), nil
}

// DecideRounds computes the same decisions as DecideSequential in the
// synchronous rounds of Blelloch, Fineman and Shun, as the Beam job does:
// in each round every undecided page takes Step over its higher-priority
// neighbours' states of the previous round. After maxRounds rounds the pages
// still undecided (the residual) are decided by the sequential rule on the
// subgraph they span, given the states already fixed, which is exact too.
// It returns the decisions, the number of rounds that changed a state (the
// dependence length of the priority order, ≤ maxRounds) and the number of
// residual pages. maxRounds < 0 means no limit.
func DecideRounds(ranks []string, pairs []Pair, maxRounds int) (ds []Decision, rounds, residual int, err error) {
	adj, err := adjacency(ranks, pairs)
	if err != nil {
		return nil, 0, 0, err
	}
	states := make([]State, len(ranks))
	next := make([]State, len(ranks))
	undecided := len(ranks)
	for undecided > 0 && (maxRounds < 0 || rounds < maxRounds) {
		copy(next, states)
		for v, s := range states {
			if s != Undecided {
				continue
			}
			var sawKeep, sawUndecided bool
			for _, u := range adj[v] {
				if ranks[u.page] < ranks[v] {
					sawKeep = sawKeep || states[u.page] == Keep
					sawUndecided = sawUndecided || states[u.page] == Undecided
				}
			}
			if next[v] = Step(sawKeep, sawUndecided); next[v] != Undecided {
				undecided--
			}
		}
		states, next = next, states
		rounds++
	}
	residual = undecided
	if residual > 0 {
		ResolveResidual(ranks, adj2pairs(adj), states)
	}
	return decisions(ranks, adj, states), rounds, residual, nil
}

// ResolveResidual decides the Undecided entries of states in place by the
// sequential rule, given the states already decided: undecided pages in rank
// order, each dropped iff a neighbour is (by then) kept. pairs need only
// cover the pairs with an undecided page and a higher-priority page that is
// kept or undecided; it is the Beam job's last step after its unrolled
// rounds, run on the residual subgraph alone.
func ResolveResidual(ranks []string, pairs []Pair, states []State) {
	var order []int
	for v, s := range states {
		if s == Undecided {
			order = append(order, v)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return compareRank(ranks, a, b) })
	higher := map[int][]int{}
	for _, p := range pairs {
		u, v := p.A, p.B
		if ranks[v] < ranks[u] {
			u, v = v, u
		}
		if states[v] == Undecided {
			higher[v] = append(higher[v], u)
		}
	}
	for _, v := range order {
		states[v] = Keep
		for _, u := range higher[v] {
			if states[u] == Keep {
				states[v] = Drop
				break
			}
		}
	}
}

func adj2pairs(adj [][]neighbour) []Pair {
	var ps []Pair
	for a, ns := range adj {
		for _, n := range ns {
			if a < n.page {
				ps = append(ps, Pair{A: a, B: n.page, Jaccard: n.jaccard})
			}
		}
	}
	return ps
}

// decisions turns final states into Decisions: KeptBy of a dropped page is
// its kept neighbour of smallest rank.
func decisions(ranks []string, adj [][]neighbour, states []State) []Decision {
	ds := make([]Decision, len(ranks))
	for v := range ds {
		ds[v] = Decision{Keep: states[v] == Keep, KeptBy: -1}
		if states[v] != Drop {
			continue
		}
		for _, u := range adj[v] {
			if states[u.page] == Keep && (ds[v].KeptBy < 0 || ranks[u.page] < ranks[ds[v].KeptBy]) {
				ds[v].KeptBy, ds[v].Jaccard = u.page, u.jaccard
			}
		}
	}
	return ds
}

// DecideExact drops exact copies: among the pages with the same non-empty
// group (a digest of their text), the one of smallest rank is kept and every
// other is dropped with KeptBy that page and Jaccard 1. Pages with an empty
// group are kept. It is the fallback for pages that have too few signatures
// to be matched.
func DecideExact(ranks, groups []string) []Decision {
	best := map[string]int{}
	for i, g := range groups {
		if g == "" {
			continue
		}
		if b, ok := best[g]; !ok || ranks[i] < ranks[b] {
			best[g] = i
		}
	}
	ds := make([]Decision, len(ranks))
	for i, g := range groups {
		ds[i] = Decision{Keep: true, KeptBy: -1}
		if b, ok := best[g]; ok && b != i {
			ds[i] = Decision{KeptBy: b, Jaccard: 1}
		}
	}
	return ds
}

func compareRank(ranks []string, a, b int) int {
	switch {
	case ranks[a] < ranks[b]:
		return -1
	case ranks[a] > ranks[b]:
		return 1
	}
	return a - b
}
