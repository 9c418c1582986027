package transforms

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/warc"
)

// Methods of a decision line besides the signature scheme (dedup).
const (
	DecideExactText = dedup.DecideExactText
	DecideNoText    = dedup.DecideNoText
)

func init() {
	for _, t := range []any{Page{}, PageState{}, Edge{}, Adjacency{}, pairEnds{}, roundMsg{}, residualItem{}, Decided{}, ClusterRecord{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.Function1x2[Page, string, Page](keyPage)
	register.Function1x2[Doc, string, int](keyDocOne)
	registerDoFn(&splitIsolatedFn{})
	register.Function3x0[string, Adjacency, func(string, bool)](edgeNodes)
	register.Emitter2[string, bool]()
	register.Iter1[bool]()
	register.Function2x1[Page, Page, Page](higherPriority)
	registerDoFn(&pairEndsFn{})
	register.Function2x2[string, Adjacency, string, []string](lowerKeys)
	register.Function2x0[Decided, func(string, Decided)](dropKey)
	register.Emitter2[string, Decided]()
	registerDoFn(&splitSignedFn{})
	registerDoFn(&byDigestFn{})
	registerDoFn(&exactTextFn{})
	registerDoFn(&orientAFn{})
	registerDoFn(&orientBFn{})
	register.Function3x0[string, func(*Adjacency) bool, func(string, Adjacency)](packAdjacency)
	registerDoFn(&broadcastFn{})
	registerDoFn(&stepFn{})
	registerDoFn(&tailFn{})
	registerDoFn(&residualFn{})
	registerDoFn(&keptNeighboursFn{})
	registerDoFn(&decideFn{})
	registerDoFn(&resolveKeeperFn{})
	register.Iter1[string]()
	registerDoFn(&decisionStatFn{})
	registerDoFn(&clusterFn{})
	register.Function1x2[Decided, string, error](decisionLine)
	register.Function1x2[int, string, int](clusterStat)
	register.Function1x2[ClusterRecord, string, error](clusterLine)
	register.Emitter1[Decided]()
	register.Emitter2[string, Page]()
	register.Emitter1[Page]()
	register.Emitter2[string, pairEnds]()
	register.Emitter2[string, Edge]()
	register.Emitter2[string, []string]()
	register.Emitter2[string, Adjacency]()
	register.Emitter2[string, roundMsg]()
	register.Emitter2[string, PageState]()
	register.Emitter2[int, residualItem]()
	register.Emitter1[ClusterRecord]()
	register.Iter1[Page]()
	register.Iter1[PageState]()
	register.Iter1[Edge]()
	register.Iter1[Adjacency]()
	register.Iter1[pairEnds]()
	register.Iter1[[]string]()
	register.Iter1[roundMsg]()
	register.Iter1[residualItem]()
	register.Iter1[Decided]()
}

var (
	decideKept     = beam.NewCounter("decide", "kept")
	decideDropped  = beam.NewCounter("decide", "dropped")
	decideResidual = beam.NewCounter("decide", "residual_pages")
)

// Statistics Decide adds to summary.json.
const (
	StatKept           = "kept"
	StatDropped        = "dropped"
	StatDecideResidual = "decide_residual"
	statClusterPrefix  = "cluster_size/"
)

// Page is a WARC record that passed the page policy (it became text), with
// its rank under the keep policy and its text digest (dedup.Page). Decide
// keys it by its warc.Ref.ID.
type Page = dedup.Page

// PageState is a page's state in the decision rounds (a match.State) with
// its rank.
type PageState struct {
	State uint8
	Rank  string
}

// Edge is a near-duplicate pair oriented by priority: Hi ranks before Lo
// (node keys: the warc.Ref.ID of an exact-copy group's representative),
// with Hi's rank and the pair's Jaccard: what a dropped node learns of its
// kept neighbours. It carries no identity: a dropped node's keeper is
// looked up once at the end (resolveKeeperFn).
type Edge struct {
	Hi, Lo  string
	HiRank  string
	Jaccard float64
}

// Adjacency is edges of one higher page (the key of its PCollection): its
// rank and, per lower page, that page's key and the pair's Jaccard. The
// pair graph is held between the decision's steps as one Adjacency per
// page rather than one element per edge: a runner that holds grouped
// elements in memory (the direct runner: ~170 bytes per element) then pays
// about 40 bytes per edge. The rounds carry only the lower pages' keys
// (lowerKeys).
type Adjacency struct {
	HiRank  string
	Lo      []string
	Jaccard []float64
}

// DecisionRecord is one line of decisions-*.jsonl (dedup.Decision).
type DecisionRecord = dedup.Decision

// ClusterRecord is one line of clusters-*.jsonl (dedup.Cluster).
type ClusterRecord = dedup.Cluster

// Decided is a decision with the identity of the kept page that dropped it
// (zero when kept), from which clusters are formed.
type Decided struct {
	Line   DecisionRecord
	Keeper warc.Ref
}

// DecideResult is what Decide returns.
type DecideResult struct {
	Decisions    beam.PCollection // Decided, one per page
	Clusters     beam.PCollection // ClusterRecord
	ClusterSizes beam.PCollection // int, the size of each cluster
	Residual     beam.PCollection // int, the number of pages decided on the residual worker (one element)
}

// decisionStats adds the statistics of r to st: kept and dropped pages,
// pages decided on the residual worker, and clusters per size.
func decisionStats(s beam.Scope, st *Stats, r DecideResult) {
	s = s.Scope("DecisionStats")
	st.Add(beam.CombinePerKey(s, sumInt, beam.Flatten(s,
		beam.ParDo(s, &decisionStatFn{}, r.Decisions),
		beam.ParDo(s, clusterStat, r.ClusterSizes))))
	st.Sum(s, StatDecideResidual, r.Residual)
}

// decisionStatFn counts a decision as kept or dropped.
type decisionStatFn struct{}

func (*decisionStatFn) ProcessElement(ctx context.Context, d Decided, emit func(string, int)) {
	if d.Line.Keep {
		decideKept.Inc(ctx, 1)
		emit(StatKept, 1)
	} else {
		decideDropped.Inc(ctx, 1)
		emit(StatDropped, 1)
	}
}

func clusterStat(size int) (string, int) { return statClusterPrefix + strconv.Itoa(size), 1 }

// decideMergeLimit is the Limit of Decide's merging DoFns (bundleMerge);
// tests set it small so that a key gets many merged parts.
var decideMergeLimit = 0

// Decide keeps or drops every page (Page, from Extract) and returns one
// decision per page and the clusters (a kept page with the pages it drops).
//
// Pages that reached matching (their key is in docs, the exact-copy
// representatives, or in copies, the ExactCopy of CollapseExact) are
// decided by the near-duplicate pairs of the representatives: the
// lexicographically-first maximal independent set of the pair graph in
// priority order (see match.DecideSequential), each exact-copy group one
// node (keyed by its representative) ranked as its best-ranked member (a
// combiner), which is kept or dropped as the node is; every other member is
// dropped by the node's kept member or by the page that drops the node, as
// dedup.Decide does. The
// pairs are oriented by rank with two joins and grouped into one Adjacency
// per higher page, then p.DecideRounds synchronous
// rounds of Blelloch, Fineman and Shun (SPAA 2012) run as joins, each page a
// key of its own: in a round every page still undecided learns the states of
// its higher-priority neighbours (join on the neighbour) and takes
// match.Step (join on the page). Decided pages leave the rounds after
// telling their neighbours once, and pairs leave with them. Pages still
// undecided after the rounds (the residual; none on a graph whose priority
// chains are shorter than about half the rounds) are gathered on one worker
// and decided by match.ResolveResidual, which gives the same result. A last
// pair of joins gives each dropped node its highest-priority kept
// neighbour, and one more join names that node's best page as the keeper
// (edges carry keys and ranks only). Pages without enough signatures are decided by exact text
// (DecideExactText, one combine and one join on the text digest) or kept
// (DecideNoText). Every step that sends one message per edge merges the
// messages per destination page before the shuffle (bundleMerge). The
// result equals dedup.Decide's. Kept and dropped
// pages, residual pages and cluster sizes are added to st. Cost and worst
// case: docs/design.md.
func Decide(s beam.Scope, st *Stats, pages, docs, copies, pairs beam.PCollection, p config.Params) (DecideResult, error) {
	s = s.Scope("Decide")
	if _, err := p.Policy(); err != nil {
		return DecideResult{}, err
	}
	method := p.Method
	if method == "" {
		method = config.MethodSpotSigs
	}
	grouped, unsigned := beam.ParDo2(s, &splitSignedFn{}, beam.CoGroupByKey(s,
		beam.ParDo(s, keyPage, pages), beam.ParDo(s, keyDocOne, docs), beam.ParDo(s, copyByMember, copies)))
	signed := beam.CombinePerKey(s, higherPriority, grouped)

	// Pages without signatures: no text, or exact copies by text digest.
	noText, byDigest := beam.ParDo2(s, &byDigestFn{}, unsigned)
	keepers := beam.CombinePerKey(s, higherPriority, byDigest)
	exact := beam.ParDo(s, &exactTextFn{}, beam.CoGroupByKey(s, byDigest, keepers))

	// Orient the pairs by rank.
	lim := decideMergeLimit
	ends := beam.ParDo(s, &pairEndsFn{Limit: lim}, pairs)
	halves := beam.ParDo(s, &orientAFn{Limit: lim}, beam.CoGroupByKey(s, signed, ends))
	edges := beam.ParDo(s, packAdjacency, beam.GroupByKey(s, beam.ParDo(s, &orientBFn{Limit: lim}, beam.CoGroupByKey(s, signed, halves))))

	// Rounds, for the nodes with an edge; a node without one is kept.
	states, isolated := beam.ParDo2(s, &splitIsolatedFn{}, beam.CoGroupByKey(s, signed, beam.ParDo(s, edgeNodes, edges)))
	active := beam.ParDo(s, lowerKeys, edges)
	var finals []beam.PCollection
	for r := 0; r < p.DecideRounds; r++ {
		rs := s.Scope(fmt.Sprintf("Round%02d", r+1))
		msgs := beam.ParDo(rs, &broadcastFn{Limit: lim}, beam.CoGroupByKey(rs, states, active))
		var final beam.PCollection
		states, active, final = beam.ParDo3(rs, &stepFn{Limit: lim}, beam.CoGroupByKey(rs, states, msgs))
		finals = append(finals, final)
	}
	ts := s.Scope("Residual")
	msgs := beam.ParDo(ts, &broadcastFn{Limit: lim}, beam.CoGroupByKey(ts, states, active))
	final, residual := beam.ParDo2(ts, &tailFn{}, beam.CoGroupByKey(ts, states, msgs))
	resolved, residualCount := beam.ParDo2(ts, &residualFn{}, beam.GroupByKey(ts, residual))
	finals = append(finals, final, resolved)
	roundStates := beam.Flatten(s, finals...)
	finalStates := beam.Flatten(s, roundStates, isolated)

	// Each dropped page's highest-priority kept neighbour.
	kept := beam.ParDo(s, &keptNeighboursFn{Limit: lim}, beam.CoGroupByKey(s, roundStates, edges))
	matched, pending := beam.ParDo2(s, &decideFn{Method: method}, beam.CoGroupByKey(s, grouped, signed, finalStates, kept))
	matched = beam.Flatten(s, matched, beam.ParDo(s, &resolveKeeperFn{}, beam.CoGroupByKey(s, signed, pending)))

	decisions := beam.Flatten(s, matched, exact, noText)
	dropped := beam.ParDo(s, dropKey, decisions)
	clusters, sizes := beam.ParDo2(s, &clusterFn{}, beam.GroupByKey(s, dropped))
	r := DecideResult{Decisions: decisions, Clusters: clusters, ClusterSizes: sizes, Residual: residualCount}
	decisionStats(s, st, r)
	return r, nil
}

func keyPage(p Page) (string, Page) { return p.ID(), p }

func keyDocOne(d Doc) (string, int) { return d.ID(), 1 }

// edgeNodes emits the nodes of a higher page's edges: itself and its lower
// pages.
func edgeNodes(hi string, a Adjacency, emit func(string, bool)) {
	emit(hi, true)
	for _, lo := range a.Lo {
		emit(lo, true)
	}
}

// splitIsolatedFn starts the rounds for a node with an edge (Undecided,
// with its rank) and keeps a node without one at once: it has no
// higher-priority neighbour, so the rounds would keep it in their first.
type splitIsolatedFn struct{}

func (*splitIsolatedFn) ProcessElement(key string, pages func(*Page) bool, edges func(*bool) bool, states func(string, PageState), isolated func(string, PageState)) error {
	var p Page
	if !pages(&p) {
		return fmt.Errorf("decide: pair with %x, which reached no decision", key)
	}
	var e bool
	if edges(&e) {
		states(key, PageState{State: uint8(match.Undecided), Rank: p.Rank})
		return nil
	}
	isolated(key, PageState{State: uint8(match.Keep), Rank: p.Rank})
	return nil
}

// higherPriority is the page of smaller rank.
func higherPriority(a, b Page) Page {
	if b.Rank < a.Rank {
		return b
	}
	return a
}

// dropKey keys each dropped page by the kept page that dropped it.
func dropKey(d Decided, emit func(string, Decided)) {
	if !d.Line.Keep {
		emit(d.Keeper.ID(), d)
	}
}

// splitSignedFn sends each page that reached matching to grouped, keyed by
// its exact-copy group's representative (itself, or the representative
// its ExactCopy names), and every other page to unsigned.
type splitSignedFn struct{}

func (*splitSignedFn) ProcessElement(key string, pages func(*Page) bool, docs func(*int) bool, reps func(*string) bool, grouped func(string, Page), unsigned func(Page)) error {
	var p Page
	if !pages(&p) {
		return fmt.Errorf("decide: document %x has no page", key)
	}
	var n int
	var rep string
	switch {
	case docs(&n):
		grouped(key, p)
	case reps(&rep):
		grouped(rep, p)
	default:
		unsigned(p)
	}
	return nil
}

// byDigestFn keeps pages with an empty text (DecideNoText) and keys the
// others by their text digest.
type byDigestFn struct{}

func (*byDigestFn) ProcessElement(p Page, noText func(Decided), emit func(string, Page)) {
	if p.Digest == "" {
		noText(Decided{Line: decisionLineFor(p, DecideNoText)})
		return
	}
	emit(p.Digest, p)
}

// exactTextFn decides the pages of one text digest: the keeper (the page of
// smallest rank, from the combine) is kept, every other page dropped by it
// with Jaccard 1.
type exactTextFn struct{}

func (*exactTextFn) ProcessElement(digest string, pages func(*Page) bool, keepers func(*Page) bool, emit func(Decided)) error {
	var k Page
	if !keepers(&k) {
		return fmt.Errorf("decide: text digest %s has no keeper", digest)
	}
	var p Page
	for pages(&p) {
		d := Decided{Line: decisionLineFor(p, DecideExactText)}
		if p.Ref != k.Ref {
			d.Line.DropFor(k.Ref, 1)
			d.Keeper = k.Ref
		}
		emit(d)
	}
	return nil
}

func decisionLineFor(p Page, method string) DecisionRecord {
	return DecisionRecord{Ref: p.Ref, Keep: true, Method: method, Capped: p.Capped}
}

// pairEnds are the pairs of one page (the key) on their way to
// orientation, merged per page (bundleMerge): for each pair, the other
// page's key and the Jaccard, and from the first join on, the other page's
// rank.
type pairEnds struct {
	Other   []string
	Jaccard []float64
	Rank    []string
}

// pairEndsFn keys each pair by its first document.
type pairEndsFn struct {
	Limit int // bytes held before emitting; mergeBytes when 0 (tests)

	merge bundleMerge[string, pairEnds]
}

func (fn *pairEndsFn) StartBundle(func(string, pairEnds)) { fn.merge.start(fn.Limit) }

func (fn *pairEndsFn) ProcessElement(p PairRecord, emit func(string, pairEnds)) {
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

func (fn *orientAFn) ProcessElement(key string, pages func(*Page) bool, ends func(*pairEnds) bool, emit func(string, pairEnds)) error {
	var p Page
	have := pages(&p)
	var e pairEnds
	for ends(&e) {
		if !have {
			return fmt.Errorf("decide: pair with %x, which reached no decision", key)
		}
		for i, other := range e.Other {
			j := e.Jaccard[i]
			fn.merge.add(other, len(key)+72, func(b *pairEnds) {
				b.Other, b.Jaccard, b.Rank = append(b.Other, key), append(b.Jaccard, j), append(b.Rank, p.Rank)
			}, emit)
		}
		e = pairEnds{}
	}
	return nil
}

func (fn *orientAFn) FinishBundle(emit func(string, pairEnds)) { fn.merge.flush(emit) }

// orientBFn orients each pair of the second page by rank and adds it to the
// Adjacency of its higher page.
type orientBFn struct {
	Limit int

	merge bundleMerge[string, Adjacency]
}

func (fn *orientBFn) StartBundle(func(string, Adjacency)) { fn.merge.start(fn.Limit) }

func (fn *orientBFn) ProcessElement(key string, pages func(*Page) bool, ends func(*pairEnds) bool, emit func(string, Adjacency)) error {
	var b Page
	have := pages(&b)
	var e pairEnds
	for ends(&e) {
		if !have {
			return fmt.Errorf("decide: pair with %x, which reached no decision", key)
		}
		for i, other := range e.Other {
			hiRank, loRank, hiKey, loKey := e.Rank[i], b.Rank, other, key
			if loRank < hiRank {
				hiRank, loRank, hiKey, loKey = loRank, hiRank, loKey, hiKey
			}
			if hiRank == loRank {
				return fmt.Errorf("decide: pages %x and %x have the same rank", hiKey, loKey)
			}
			j := e.Jaccard[i]
			fn.merge.add(hiKey, len(loKey)+40, func(a *Adjacency) {
				a.HiRank, a.Lo, a.Jaccard = hiRank, append(a.Lo, loKey), append(a.Jaccard, j)
			}, emit)
		}
		e = pairEnds{}
	}
	return nil
}

func (fn *orientBFn) FinishBundle(emit func(string, Adjacency)) { fn.merge.flush(emit) }

// packAdjacency joins the Adjacency parts of one higher page into one.
func packAdjacency(key string, parts func(*Adjacency) bool, emit func(string, Adjacency)) {
	var a, p Adjacency
	for parts(&p) {
		a.HiRank = p.HiRank
		a.Lo = append(a.Lo, p.Lo...)
		a.Jaccard = append(a.Jaccard, p.Jaccard...)
		p = Adjacency{}
	}
	emit(key, a)
}

// each calls fn with every edge of a, whose higher page is hi.
func (a Adjacency) each(hi string, fn func(Edge)) {
	for i, lo := range a.Lo {
		fn(Edge{Hi: hi, Lo: lo, HiRank: a.HiRank, Jaccard: a.Jaccard[i]})
	}
}

// lowerKeys is the edges of the rounds: a higher page's lower pages.
func lowerKeys(hi string, a Adjacency) (string, []string) { return hi, a.Lo }

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

func (fn *broadcastFn) ProcessElement(key string, states func(*PageState) bool, lows func(*[]string) bool, emit func(string, roundMsg)) error {
	var st PageState
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

func (fn *stepFn) StartBundle(func(string, PageState), func(string, []string), func(string, PageState)) {
	fn.merge.start(fn.Limit)
}

func (fn *stepFn) ProcessElement(key string, states func(*PageState) bool, msgs func(*roundMsg) bool, next func(string, PageState), carry func(string, []string), final func(string, PageState)) error {
	var st PageState
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

func (fn *stepFn) FinishBundle(_ func(string, PageState), carry func(string, []string), _ func(string, PageState)) {
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

func (*tailFn) ProcessElement(key string, states func(*PageState) bool, msgs func(*roundMsg) bool, final func(string, PageState), residual func(int, residualItem)) error {
	var st PageState
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

func (*residualFn) ProcessElement(ctx context.Context, _ int, items func(*residualItem) bool, final func(string, PageState), count func(int)) error {
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
		final(it.Key, PageState{State: uint8(states[i]), Rank: it.Rank})
	}
	return nil
}

// keptNeighboursFn sends every edge of a kept page to the lower page,
// keeping per lower page (bundleMerge) only the edge of highest priority.
type keptNeighboursFn struct {
	Limit int

	merge bundleMerge[string, Edge]
}

func (fn *keptNeighboursFn) StartBundle(func(string, Edge)) { fn.merge.start(fn.Limit) }

func (fn *keptNeighboursFn) ProcessElement(key string, states func(*PageState) bool, adjs func(*Adjacency) bool, emit func(string, Edge)) error {
	var st PageState
	have := states(&st)
	var a Adjacency
	for adjs(&a) {
		if !have {
			return fmt.Errorf("decide: edge from %x, which has no final state", key)
		}
		if match.State(st.State) == match.Keep {
			a.each(key, func(e Edge) {
				fn.merge.add(e.Lo, 40, func(best *Edge) {
					if best.Hi == "" || e.HiRank < best.HiRank {
						*best = e
					}
				}, emit)
			})
		}
		a = Adjacency{}
	}
	return nil
}

func (fn *keptNeighboursFn) FinishBundle(emit func(string, Edge)) { fn.merge.flush(emit) }

// decideFn writes the decisions of one node of the pair graph (an
// exact-copy group, keyed by its representative): its best-ranked member
// is kept or dropped by the node's highest-priority kept neighbour, as the
// node is; every other member is dropped by the kept member (Jaccard 1) or
// by that neighbour. Members are streamed.
type decideFn struct {
	Method string
}

func (fn *decideFn) ProcessElement(key string, members func(*Page) bool, bests func(*Page) bool, states func(*PageState) bool, kept func(*Edge) bool, emit func(Decided), pending func(string, Decided)) error {
	var b Page
	var st PageState
	if !bests(&b) || !states(&st) {
		return fmt.Errorf("decide: page %x has no page or no final state", key)
	}
	var keeper Edge
	var e Edge
	for kept(&e) {
		if keeper.Hi == "" || e.HiRank < keeper.HiRank {
			keeper = e
		}
	}
	switch match.State(st.State) {
	case match.Keep:
	case match.Drop:
		if keeper.Hi == "" {
			return fmt.Errorf("decide: page %x dropped without a kept neighbour", key)
		}
	default:
		return fmt.Errorf("decide: page %x left undecided", key)
	}
	var p Page
	for members(&p) {
		d := Decided{Line: decisionLineFor(p, fn.Method)}
		switch {
		case match.State(st.State) == match.Drop:
			// Dropped by the keeper node's best page, found by resolveKeeperFn.
			d.Line.Keep, d.Line.Jaccard = false, keeper.Jaccard
			pending(keeper.Hi, d)
		case p.Ref != b.Ref:
			d.Line.DropFor(b.Ref, 1)
			d.Keeper = b.Ref
			emit(d)
		default:
			emit(d)
		}
		p = Page{}
	}
	return nil
}

// resolveKeeperFn completes the decisions of the pages dropped by a node
// with the identity of the node's best page, the page that drops them.
type resolveKeeperFn struct{}

func (*resolveKeeperFn) ProcessElement(key string, bests func(*Page) bool, dropped func(*Decided) bool, emit func(Decided)) error {
	var b Page
	have := bests(&b)
	var d Decided
	for dropped(&d) {
		if !have {
			return fmt.Errorf("decide: keeper %x has no page", key)
		}
		d.Line.DropFor(b.Ref, d.Line.Jaccard)
		d.Keeper = b.Ref
		emit(d)
		d = Decided{}
	}
	return nil
}

// clusterFn forms the cluster of one kept page from the pages it dropped.
type clusterFn struct{}

func (*clusterFn) ProcessElement(_ string, dropped func(*Decided) bool, emit func(ClusterRecord), size func(int)) {
	var c ClusterRecord
	var d Decided
	for dropped(&d) {
		c.Ref = d.Keeper
		c.Dropped = append(c.Dropped, d.Line.RecordID)
	}
	slices.Sort(c.Dropped)
	c.Size = 1 + len(c.Dropped)
	emit(c)
	size(c.Size)
}

// WriteDecisions writes the decisions (Decided) as JSON lines (see
// DecisionRecord) to <out.Dir>/decisions-SSSSS-of-NNNNN.jsonl, and the clusters
// (ClusterRecord) to <out.Dir>/clusters-SSSSS-of-NNNNN.jsonl, see WriteLines.
func WriteDecisions(s beam.Scope, out *Outputs, r DecideResult) {
	s = s.Scope("WriteDecisions")
	WriteLines(s, out, "decisions", beam.ParDo(s, decisionLine, r.Decisions))
	WriteLines(s, out, "clusters", beam.ParDo(s, clusterLine, r.Clusters))
}

func decisionLine(d Decided) (string, error) { return jsonLine(d.Line) }

func clusterLine(c ClusterRecord) (string, error) { return jsonLine(c) }
