package match

import (
	"cmp"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// This file is Algorithm 1 of §4.3 (SpotSigs deduplication) within one group
// and the driver that runs it over all groups of a corpus on all cores.
//
// # Algorithm 1, as implemented
//
// A group holds its home documents and its guests (documents of the right
// neighbour partition that can match it, §4.2). Documents get a rank: by
// descending length |d|, ties by home-before-guest and input order. For each
// signature s the group keeps an inverted list of the documents containing s,
// sorted by rank, i.e. by descending |d| as the paper prescribes.
//
// Symmetry (the paper's own argument for visiting only the right neighbour,
// §4.3.1) lets every document d be compared only with documents ranked BEFORE
// it, i.e. not shorter: each unordered pair is then examined from exactly one
// side. For d with length L, the signatures of d are visited in ascending
// document frequency within the group (line 5); δ1 is the frequency mass of
// d's signatures whose lists are finished (line 24). A candidate d' met for
// the first time in the list of the j-th signature contains none of the
// earlier ones, so its overlap with d is at most L − δ1 and the union at least
// |d'| + δ1:
//
//	sim(d, d') ≤ (L − δ1) / (|d'| + δ1)          for |d'| ≥ L        (*)
//
//   - lines 15–16 (δ2 < 0, d' longer): documents whose bound (*) is below τ
//     are skipped; as the list is sorted by descending length and (*) grows
//     as |d'| shrinks, they form a prefix, found by binary search instead of a
//     `continue` per document (WithLinearScan restores the `continue`);
//   - lines 17–18 (δ2 ≥ 0, d' not longer): the scan of a list stops at d
//     itself — documents after it are shorter and find d from their side;
//   - lines 13 and 21, checked_i: a generation-stamped []uint32 by rank;
//     every examined d' is marked, whether it matched or not;
//   - lines 25–26: after a list, stop once no unseen document can reach τ,
//     i.e. once (L − δ1)/(L + δ1) < τ (the maximum of (*) over |d'| ≥ L).
//
// The paper's printed conditions are not exact as written, so we do not use
// them literally. Line 18's δ1 + δ2 > (1−τ)|d_i| assumes the missing mass δ1
// also shortens d', which it need not: d = {a:5, b:5}, d' = {b:5}, τ = 0.5
// (similarity 0.5) is lost from d's side and only rescued by the query of d'.
// Lines 16 and 26 compare against (1−τ)·|d| in floating point, where
// 1 − 0.9 = 0.09999999999999998: d = {a:1, b:9}, d' = {b:9}, τ = 0.9 has
// similarity 9/10, which is the double 0.9, yet line 16 prunes it from d''s
// side and line 26 (with its "≥") from d's side. The bound (*) above is the
// exact form; all comparisons go through reaches, the same float64 quotient
// WeightedJaccard returns, so no pair whose computed similarity is ≥ τ is
// ever pruned (TestPrintedConditionCounterexamples). Surviving candidates are
// verified by JaccardAtLeast, which itself exits early.
//
// Guests: a home document's query accepts home and guest candidates. A guest
// is a query only if some home document ranks before it (a guest shorter
// than a home document, which the partitions never produce but MatchGroup
// allows), and then accepts home candidates only; guest–guest pairs are
// never compared here, they meet in the guests' own home group.

// Matcher finds all near-duplicate pairs of a corpus exactly (§4), using the
// partitioning of §4.2 and Algorithm 1 of §4.3. Build it with NewMatcher; it
// is safe for concurrent use.
type Matcher struct {
	tau       float64
	rho       int
	workers   int
	partition bool
	prune     bool
	linear    bool
	sites     []Site   // by input index; nil: every pair at tau
	rule      SiteRule // with sites: the pairs of one site at rule.SameSiteTau
}

// Option configures a Matcher.
type Option func(*Matcher)

// WithRange sets the partitioning range ρ (default DefaultRho = 1000, §5.1).
func WithRange(rho int) Option { return func(m *Matcher) { m.rho = rho } }

// WithWorkers sets the number of goroutines (default runtime.GOMAXPROCS(0)).
func WithWorkers(n int) Option { return func(m *Matcher) { m.workers = n } }

// WithoutPartitions puts every document into one partition (the paper's
// NoPart baseline, Table 2); pruning still applies.
func WithoutPartitions() Option { return func(m *Matcher) { m.partition = false } }

// WithoutPruning disables the δ1/δ2 pruning and the early-exit similarity
// (NoPrune baseline): every document sharing a signature with d in its group
// is compared in full.
func WithoutPruning() Option { return func(m *Matcher) { m.prune = false } }

// WithLinearScan makes lines 15–16 literal: every document of an inverted
// list that is too long for bound (*) is passed over with a `continue`, as in
// the paper, instead of skipping the whole too-long prefix by binary search.
// Same result; it exists to measure what the partitions buy under the
// paper's scan (Table 2's NoPart), see docs/benchmarks.md.
func WithLinearScan() Option { return func(m *Matcher) { m.linear = true } }

// WithSiteRule gives the matcher the documents' sites (sites[i] is the Site
// of the i-th input document) and the same-site rule, so that a candidate
// pair of one site (not captures of one URL) is checked at
// rule.SameSiteTau instead of τ: the matcher returns exactly the pairs
// rule.Keep keeps, and the pairs it would remove cost an early-exit check
// (JaccardAtLeast at the higher threshold) instead of a full one. The
// partitions and the pruning bounds stay those of τ, since they hold for
// every candidate of a query whatever its site.
func WithSiteRule(sites []Site, rule SiteRule) Option {
	return func(m *Matcher) { m.sites, m.rule = sites, rule }
}

// NewMatcher returns a Matcher for the similarity threshold τ: pairs with
// weighted Jaccard ≥ tau are reported (τ ≤ 0 means "share at least one
// signature", see Partitioning). ρ = DefaultRho, partitions and pruning on
// and all cores unless opts say otherwise. The job's default τ is
// config.DefaultTau; the paper's runtime comparisons (Table 2) use 0.9.
func NewMatcher(tau float64, opts ...Option) *Matcher {
	m := &Matcher{tau: tau, rho: DefaultRho, partition: true, prune: true}
	for _, o := range opts {
		o(m)
	}
	if m.workers < 1 {
		m.workers = runtime.GOMAXPROCS(0)
	}
	return m
}

// Match returns every pair of docs with weighted Jaccard ≥ tau (and > 0),
// indices into docs, A < B, sorted by (A, B), each pair once, with its
// WeightedJaccard. It partitions by length (§4.2) with range rho and runs
// Algorithm 1 (§4.3) per group, groups and queries spread over all cores.
// Memory: the corpus plus the inverted index of the groups in flight (≈ 8
// bytes per signature occurrence, guests counted twice). A group may hold at
// most 2^31−1 signature occurrences; a larger one panics.
func Match(docs []spotsig.Vector, tau float64, rho int) []Pair {
	return NewMatcher(tau, WithRange(rho)).Match(docs)
}

// Match runs the matcher over an in-memory corpus; see the package-level Match.
func (m *Matcher) Match(docs []spotsig.Vector) []Pair {
	tau := effectiveTau(m.tau)
	if tau > 1 || len(docs) < 2 {
		return nil
	}
	lens := make([]int, len(docs))
	var specs []groupSpec
	if !m.partition {
		g := groupSpec{}
		for i, d := range docs {
			if lens[i] = d.Len(); lens[i] > 0 {
				g.home = append(g.home, int32(i))
			}
		}
		specs = []groupSpec{g}
	} else {
		p := NewPartitioning(tau, m.rho)
		specs = make([]groupSpec, p.Count())
		for i, d := range docs {
			n := d.Len()
			lens[i] = n
			if n == 0 {
				continue
			}
			k := p.Home(n)
			specs[k].home = append(specs[k].home, int32(i))
			if gk, ok := p.Guest(n); ok {
				specs[gk].guests = append(specs[gk].guests, int32(i))
			}
		}
	}
	return m.run(docs, lens, specs, tau)
}

// MatchGroup runs Algorithm 1 (§4.3) over one group: its home documents and
// guests (documents of the right neighbour partition that can match it,
// Partitioning.Guest). It returns every home–home and home–guest pair with
// weighted Jaccard ≥ tau (and > 0) — never guest–guest pairs, which belong to
// the guests' own home group — once each, A < B, sorted by (A, B). Index i <
// len(home) is home[i]; index len(home)+j is guests[j]. Guests need not be
// longer than the home documents (the partitions make them so, but the
// result is exact either way). Uses all cores.
func MatchGroup(home, guests []spotsig.Vector, tau float64) []Pair {
	return collect(func(emit func([]Pair)) { MatchGroupEach(home, guests, tau, emit) })
}

// MatchGroupEach is MatchGroup with the pairs handed to emit in batches as
// the workers find them, unsorted, instead of returned: memory holds the
// group's inverted index and a few thousand pairs per worker, whatever the
// number of pairs. emit is called on the caller's goroutine, never
// concurrently, and must not keep the slice.
func MatchGroupEach(home, guests []spotsig.Vector, tau float64, emit func([]Pair)) {
	NewMatcher(tau).MatchGroupEach(home, guests, emit)
}

// MatchGroupEach is the package's MatchGroupEach at m's τ and options
// (WithSiteRule's sites indexed as the pairs are: home, then guests).
func (m *Matcher) MatchGroupEach(home, guests []spotsig.Vector, emit func([]Pair)) {
	t := effectiveTau(m.tau)
	if t > 1 {
		return
	}
	docs := make([]spotsig.Vector, 0, len(home)+len(guests))
	docs = append(docs, home...)
	docs = append(docs, guests...)
	lens := make([]int, len(docs))
	var g groupSpec
	for i, d := range docs {
		if lens[i] = d.Len(); lens[i] == 0 {
			continue
		}
		if i < len(home) {
			g.home = append(g.home, int32(i))
		} else {
			g.guests = append(g.guests, int32(i))
		}
	}
	m.runEach(docs, lens, []groupSpec{g}, t, emit)
}

// collect gathers the batches of an Each function, sorted by (A, B).
func collect(each func(emit func([]Pair))) []Pair {
	var out []Pair
	each(func(ps []Pair) { out = append(out, ps...) })
	sortPairs(out)
	return out
}

// MatchCross runs Algorithm 1 (§4.3) over the union of a and b and
// returns only the pairs with one document in each: weighted Jaccard ≥ tau
// (and > 0), once each, A < B, sorted; index i < len(a) is a[i], index
// len(a)+j is b[j]. With MatchGroup of each part alone it gives exactly
// MatchGroup of the union, so a group too large for one worker can be
// matched as blocks (block-pair grid, transforms.MatchGroups): the queries
// and pruning are MatchGroup's, only home–home and guest–guest candidates
// are passed over. Uses all cores.
func MatchCross(a, b []spotsig.Vector, tau float64) []Pair {
	return collect(func(emit func([]Pair)) { MatchCrossEach(a, b, tau, emit) })
}

// MatchCrossEach is MatchCross with the pairs handed to emit in batches, as
// MatchGroupEach does.
func MatchCrossEach(a, b []spotsig.Vector, tau float64, emit func([]Pair)) {
	NewMatcher(tau).MatchCrossEach(a, b, emit)
}

// MatchCrossEach is the package's MatchCrossEach at m's τ and options
// (WithSiteRule's sites indexed as the pairs are: a, then b).
func (m *Matcher) MatchCrossEach(a, b []spotsig.Vector, emit func([]Pair)) {
	t := effectiveTau(m.tau)
	if t > 1 {
		return
	}
	docs := make([]spotsig.Vector, 0, len(a)+len(b))
	docs = append(docs, a...)
	docs = append(docs, b...)
	lens := make([]int, len(docs))
	g := groupSpec{cross: true}
	for i, d := range docs {
		if lens[i] = d.Len(); lens[i] == 0 {
			continue
		}
		if i < len(a) {
			g.home = append(g.home, int32(i))
		} else {
			g.guests = append(g.guests, int32(i))
		}
	}
	if len(g.guests) == 0 {
		return
	}
	m.runEach(docs, lens, []groupSpec{g}, t, emit)
}

// scratch is a worker's per-query state: checked_i as generation stamps and
// the signature visiting order.
type scratch struct {
	stamp []uint32
	gen   uint32
	order []uint64
	pairs []Pair
}

func (s *scratch) reset(n int) {
	if len(s.stamp) < n {
		s.stamp = make([]uint32, n)
		s.gen = 0
	}
	s.gen++
	if s.gen == 0 {
		clear(s.stamp)
		s.gen = 1
	}
}

// query runs Algorithm 1 for the document of rank q, appending its pairs
// with documents of smaller rank to s.pairs.
func (g *group) query(q int32, s *scratch) {
	isGuest := g.guest[q]
	if isGuest && q < g.firstHome {
		return // only guests rank before it: nothing it may be paired with
	}
	if g.cross && !isGuest && q < g.firstGst {
		return // cross group: only home documents rank before it
	}
	s.reset(len(g.lens))
	L := int(g.lens[q])
	d := g.vecs[q]
	terms := g.termOf[g.sigOff[q]:g.sigOff[q+1]]
	tau := g.tau

	// Line 5: visit signatures by ascending document frequency in the group.
	// Every finished list adds at least 1 to δ1 and line 26 stops once δ1
	// exceeds maxDelta, so at most maxDelta+1 lists are visited: when that is
	// a handful, select them one by one instead of sorting all of d's
	// signatures. Without pruning the order does not matter.
	order := s.order[:0]
	for j, t := range terms {
		order = append(order, uint64(g.df[t])<<32|uint64(j))
	}
	s.order = order
	lazy := !g.prune
	if g.prune {
		if maxDelta(L, tau) < 8 {
			lazy = true
		} else {
			slices.Sort(order)
		}
	}

	delta1 := 0
	for i := range order {
		if lazy && g.prune {
			m := i
			for k := i + 1; k < len(order); k++ {
				if order[k] < order[m] {
					m = k
				}
			}
			order[i], order[m] = order[m], order[i]
		}
		j := int(uint32(order[i]))
		list := g.lists[g.listOff[terms[j]]:g.listOff[terms[j]+1]]
		start := 0
		num := L - delta1
		if g.prune && !g.linear {
			// Lines 15–16: skip the prefix of documents too long for bound (*).
			start = sort.Search(len(list), func(i int) bool {
				return reaches(num, int(g.lens[list[i]])+delta1, tau)
			})
		}
		for _, r := range list[start:] {
			if r >= q {
				break // lines 17–18: the rest are not longer than d
			}
			if s.stamp[r] == s.gen {
				continue // line 13: checked_i
			}
			if g.linear && g.prune && !reaches(num, int(g.lens[r])+delta1, tau) {
				continue // lines 15–16, literally
			}
			s.stamp[r] = s.gen
			if isGuest && g.guest[r] {
				continue // guest–guest: not this group's pair
			}
			if g.cross && !isGuest && !g.guest[r] {
				continue // cross group: home–home belongs to another group
			}
			t := tau
			if g.sites != nil && g.sites[q].Sibling(g.sites[r]) {
				t = g.siteTau
			}
			var sim float64
			var ok bool
			if g.prune {
				sim, ok = jaccardAtLeast(d, g.vecs[r], L, int(g.lens[r]), t)
			} else {
				sim = WeightedJaccard(d, g.vecs[r])
				ok = sim >= t
			}
			if ok {
				s.pairs = append(s.pairs, NewPair(int(g.pos[q]), int(g.pos[r]), sim))
			}
		}
		delta1 += int(d.Freqs[j])
		// Lines 25–26: no unseen document can reach τ any more.
		if g.prune && !reaches(L-delta1, L+delta1, tau) {
			break
		}
	}
}

// maxDelta returns the largest δ1 for which a document of length L can still
// reach tau with an unseen, not shorter document: the largest δ with
// reaches(L−δ, L+δ), or -1 if none (line 26 of Algorithm 1).
func maxDelta(L int, tau float64) int {
	d := 0
	if tau > 0 {
		// (L−δ)/(L+δ) ≥ τ  <=>  δ ≤ L(1−τ)/(1+τ); fix rounding exactly.
		d = max(int(float64(L)*(1-tau)/(1+tau)), 0)
	}
	for d >= 0 && !reaches(L-d, L+d, tau) {
		d--
	}
	for d+1 <= L && reaches(L-d-1, L+d+1, tau) {
		d++
	}
	return d
}

// run builds and matches all groups (runEach) and returns the pairs
// sorted by (A, B).
func (m *Matcher) run(docs []spotsig.Vector, lens []int, specs []groupSpec, tau float64) []Pair {
	return collect(func(emit func([]Pair)) { m.runEach(docs, lens, specs, tau, emit) })
}

// flushPairs is the number of pairs a worker gathers before handing them to
// runEach's caller.
const flushPairs = 4096

// runEach builds and matches all groups on m.workers goroutines. Groups are
// taken largest first; a worker that finds no group left to build helps
// matching the queries of groups already built, in chunks. Each worker
// hands its pairs to emit, on the caller's goroutine, in batches of about
// flushPairs.
func (m *Matcher) runEach(docs []spotsig.Vector, lens []int, specs []groupSpec, tau float64, emit func([]Pair)) {
	order := make([]int, 0, len(specs))
	for i, s := range specs {
		if len(s.home) > 0 && s.size() > 1 {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(specs[b].size(), specs[a].size()) })

	const chunk = 64
	type active struct {
		g    *group
		next int32
	}
	var (
		mu       sync.Mutex
		cond     = sync.NewCond(&mu)
		nextSpec int
		building int
		queue    []*active
	)
	// take returns the next piece of work: a chunk of queries or a group to
	// build; ok=false when everything is handed out.
	take := func() (a *active, lo, hi int32, spec int, ok bool) {
		mu.Lock()
		defer mu.Unlock()
		for {
			for len(queue) > 0 {
				a = queue[0]
				n := int32(len(a.g.lens))
				if a.next >= n {
					queue = queue[1:]
					continue
				}
				lo = a.next
				hi = min(n, lo+chunk)
				a.next = hi
				return a, lo, hi, -1, true
			}
			if nextSpec < len(order) {
				spec = order[nextSpec]
				nextSpec++
				building++
				return nil, 0, 0, spec, true
			}
			if building == 0 {
				return nil, 0, 0, -1, false
			}
			cond.Wait()
		}
	}
	batches := make(chan []Pair, m.workers)
	var wg sync.WaitGroup
	for range m.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b builder
			var s scratch
			for {
				a, lo, hi, spec, ok := take()
				if !ok {
					break
				}
				if a == nil {
					g := b.build(docs, lens, specs[spec], tau, m.prune)
					g.linear = m.linear
					g.setSites(m.sites, m.rule)
					mu.Lock()
					queue = append(queue, &active{g: g})
					building--
					cond.Broadcast()
					mu.Unlock()
					continue
				}
				for q := lo; q < hi; q++ {
					a.g.query(q, &s)
				}
				if len(s.pairs) >= flushPairs {
					batches <- s.pairs
					s.pairs = nil
				}
			}
			if len(s.pairs) > 0 {
				batches <- s.pairs
			}
		}()
	}
	go func() {
		wg.Wait()
		close(batches)
	}()
	for b := range batches {
		emit(b)
	}
}

// sortPairs orders pairs by (A, B).
func sortPairs(p []Pair) {
	slices.SortFunc(p, func(x, y Pair) int {
		if c := cmp.Compare(x.A, y.A); c != 0 {
			return c
		}
		return cmp.Compare(x.B, y.B)
	})
}
