package transforms

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/warc"
)

// The Decide composite and the elements it carries: exact-copy groups split
// into nodes with and without a pair, each node's decision, its keeper, and
// the fate of its group's other members. The pair graph's rounds are in
// decide_graph.go, decisions by text in decide_text.go, the output lines
// and clusters in decide_output.go.

func init() {
	register.Function2x0[decidedPage, func(output.PairRecord)](textCopyPair)
	for _, t := range []any{dedup.Page{}, pageState{}, edge{}, adjacency{}, pairEnds{}, roundMsg{}, residualItem{}, decidedPage{}, output.Cluster{}, graphNode{}, fate{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	registerDoFn(&involvedFn{})
	registerDoFn(&packNodesFn{})
	registerDoFn(&splitNodesFn{})
	register.Function2x2[string, dedup.Page, string, pageState](initialState)
	register.Function2x1[dedup.Page, dedup.Page, dedup.Page](higherPriority)
	registerDoFn(&pairEndsFn{})
	register.Function2x2[string, adjacency, string, []string](lowerKeys)
	register.Function2x0[decidedPage, func(string, decidedPage)](dropKey)
	register.Emitter2[string, decidedPage]()
	registerDoFn(&byDigestFn{})
	registerDoFn(&exactTextFn{})
	registerDoFn(&orientAFn{})
	registerDoFn(&orientBFn{})
	register.Function3x0[string, func(*adjacency) bool, func(string, adjacency)](packAdjacency)
	registerDoFn(&broadcastFn{})
	registerDoFn(&stepFn{})
	registerDoFn(&tailFn{})
	registerDoFn(&residualFn{})
	registerDoFn(&keptNeighboursFn{})
	registerDoFn(&decideNodeFn{})
	registerDoFn(&resolveKeeperFn{})
	registerDoFn(&decideMembersFn{})
	register.Iter1[string]()
	registerDoFn(&decisionStatFn{})
	registerDoFn(&clusterFn{})
	register.Function1x2[decidedPage, string, error](decisionLine)
	registerDoFn(&clusterStatFn{})
	register.Function1x2[output.Cluster, string, error](clusterLine)
	register.Emitter1[decidedPage]()
	register.Emitter2[string, dedup.Page]()
	register.Emitter1[dedup.Page]()
	register.Emitter2[string, pairEnds]()
	register.Emitter2[string, edge]()
	register.Emitter2[string, []string]()
	register.Emitter2[string, adjacency]()
	register.Emitter2[string, roundMsg]()
	register.Emitter2[string, pageState]()
	register.Emitter2[string, graphNode]()
	register.Emitter2[string, fate]()
	register.Emitter2[int, residualItem]()
	register.Emitter1[output.Cluster]()
	register.Iter1[dedup.Page]()
	register.Iter1[pageState]()
	register.Iter1[edge]()
	register.Iter1[adjacency]()
	register.Iter1[pairEnds]()
	register.Iter1[[]string]()
	register.Iter1[roundMsg]()
	register.Iter1[residualItem]()
	register.Iter1[decidedPage]()
	register.Iter1[graphNode]()
	register.Iter1[fate]()
}

var (
	decideKept     = beam.NewCounter("decide", "kept")
	decideDropped  = beam.NewCounter("decide", "dropped")
	decideExact    = beam.NewCounter("decide", "dropped_exact")
	decideResidual = beam.NewCounter("decide", "residual_pages")
)

// pageState is a page's state in the decision rounds (a match.State) with
// its rank.
type pageState struct {
	State uint8
	Rank  string
}

// Edge is a near-duplicate pair oriented by priority: Hi ranks before Lo
// (node keys: the warc.Ref.ID of an exact-copy group's representative),
// with Hi's rank and the pair's Jaccard: what a dropped node learns of its
// kept neighbours. It carries no identity: a dropped node's keeper is
// looked up once at the end (resolveKeeperFn).
type edge struct {
	Hi, Lo  string
	HiRank  string
	Jaccard float64
}

// adjacency is edges of one higher page (the key of its PCollection): its
// rank and, per lower page, that page's key and the pair's Jaccard. The
// pair graph is held between the decision's steps as one adjacency per
// page rather than one element per edge: a runner that holds grouped
// elements in memory (the direct runner: ~170 bytes per element) then pays
// about 40 bytes per edge. The rounds carry only the lower pages' keys
// (lowerKeys).
type adjacency struct {
	HiRank  string
	Lo      []string
	Jaccard []float64
}

// decidedPage is a decision with the identity of the kept page that dropped it
// (zero when kept), from which clusters are formed.
type decidedPage struct {
	Line   output.Decision
	Keeper warc.Ref
}

// DecideResult is what Decide returns.
type DecideResult struct {
	Decisions    beam.PCollection // decidedPage, one per page
	Clusters     beam.PCollection // output.Cluster
	ClusterSizes beam.PCollection // int, the size of each cluster
	Residual     beam.PCollection // int, the number of pages decided on the residual worker (one element)
}

// graphNode is a node of the pair graph that has a pair: an exact-copy group
// (keyed by its representative's warc.Ref.ID) by its page of highest
// priority, and its size.
type graphNode struct {
	Best dedup.Page
	Size int
}

// fate is what the members of an exact-copy group of more than one page
// (all but its best-ranked one) learn of their group: kept (Keep), so they
// are dropped for its best page Keeper at Jaccard 1; or dropped for the
// page Keeper at Jaccard.
type fate struct {
	Keep    bool
	Keeper  warc.Ref
	Jaccard float64
	// Segment is the index segment of Keeper when it is an index page
	// (a run against an index), else "".
	Segment string
}

// mergeLimit is the Limit of the merging DoFns of Decide, CollapseExact
// and DropSharedBlocks (bundleMerge, shardParts); tests set it small so
// that a key gets many merged parts.
var mergeLimit = 0

// Decide keeps or drops every page and returns one decision per page and
// the clusters (a kept page with the pages it drops). Its inputs are the
// exact-copy groups of CollapseExact (c: the batches of representatives,
// and the members of groups of more than one page), the pairs MatchGroups
// found between representatives, and the unsigned pages (no or too few
// signatures).
//
// Pages that reached matching are decided by the near-duplicate pairs: the
// lexicographically-first maximal independent set of the pair graph in
// priority order (see match.DecideSequential), each exact-copy group one
// node ranked as its best-ranked member, which is kept or dropped as the
// node is; every other member is dropped by the node's kept member or by
// the page that drops the node, as dedup.Decide does. A node without a
// pair, which is almost every node of a crawl, is kept where its batch is
// joined with the nodes of the pairs (one join on the batch ID). The nodes
// with a pair go through the pair graph (decide_graph.go): the pairs are
// oriented by rank with two joins and grouped into one adjacency per higher
// node, then p.DecideRounds synchronous rounds of Blelloch, Fineman and
// Shun (SPAA 2012) run as joins, each node a key of its own: in a round
// every node still undecided learns the states of its higher-priority
// neighbours (join on the neighbour) and takes match.Step (join on the
// node). Decided nodes leave the rounds after telling their neighbours
// once, and pairs leave with them. Nodes still undecided after the rounds
// (the residual; none on a graph whose priority chains are shorter than
// about half the rounds) are gathered on one worker and decided by
// match.ResolveResidual, which gives the same result. A last pair of joins
// gives each dropped node its highest-priority kept neighbour, and one
// more join names that node's best page as the keeper (edges carry keys
// and ranks only); the members of a group learn their group's fate by one
// more join. Pages without enough signatures are decided by exact text
// (DecideExactText, one combine and one join on the text digest) or kept
// (DecideNoText). Every step that sends one message per edge merges the
// messages per destination before the shuffle (bundleMerge). The result
// equals dedup.Decide's. Kept and dropped pages, residual pages and
// cluster sizes are added to st. Cost and worst case: docs/design.md.
//
// With an index (a from ExactAgainst and MatchAgainst; the zero Against:
// none), a new node dropped for an index page (a preDrop: found no longer
// holds its pairs) is dropped for it, its group's other members with it,
// and the decisions ExactAgainst made join the decisions and clusters;
// decisions of pages dropped for an index page name its segment
// (kept_by_segment), and so do their clusters.
func Decide(s beam.Scope, st *Stats, c Collapsed, found, unsigned beam.PCollection, a Against, p config.Params) (DecideResult, error) {
	s = s.Scope("Decide")
	if _, err := p.Policy(); err != nil {
		return DecideResult{}, err
	}
	method := p.SignatureMethod()
	lim := mergeLimit

	// Nodes without a pair are kept in their batch, or dropped for an
	// index page; the others go on.
	involved := beam.ParDo(s, &involvedFn{Limit: lim}, found)
	preDrops, exactDrops := a.preDrops, a.dropped
	if !preDrops.IsValid() {
		preDrops = beam.ParDo(s, preDropBatch, beam.CreateList(s, []preDrop{})) // none
		exactDrops = beam.CreateList(s, []decidedPage{})
	}
	isolated, ranked, nodes, keptFates := beam.ParDo4(s, &splitNodesFn{Method: method},
		beam.CoGroupByKey(s, beam.ParDo(s, &packNodesFn{}, c.Reps), involved, preDrops))

	// Pages without signatures: no text, or exact copies by text digest.
	noText, byDigest := beam.ParDo2(s, &byDigestFn{}, unsigned)
	keepers := beam.CombinePerKey(s, higherPriority, byDigest)
	exact := beam.ParDo(s, &exactTextFn{}, beam.CoGroupByKey(s, byDigest, keepers))

	// Orient the pairs by rank.
	ends := beam.ParDo(s, &pairEndsFn{Limit: lim}, found)
	halves := beam.ParDo(s, &orientAFn{Limit: lim}, beam.CoGroupByKey(s, ranked, ends))
	edges := beam.ParDo(s, packAdjacency, beam.GroupByKey(s, beam.ParDo(s, &orientBFn{Limit: lim}, beam.CoGroupByKey(s, ranked, halves))))

	// Rounds.
	states := beam.ParDo(s, initialState, ranked)
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
	finalStates := beam.Flatten(s, finals...)

	// Each dropped node's highest-priority kept neighbour, its best page,
	// and the fates of the groups' members.
	kept := beam.ParDo(s, &keptNeighboursFn{Limit: lim}, beam.CoGroupByKey(s, finalStates, edges))
	decided, pending, fates := beam.ParDo3(s, &decideNodeFn{Method: method}, beam.CoGroupByKey(s, nodes, finalStates, kept))
	resolved2, droppedFates := beam.ParDo2(s, &resolveKeeperFn{}, beam.CoGroupByKey(s, ranked, pending))
	members := beam.ParDo(s, &decideMembersFn{Method: method},
		beam.CoGroupByKey(s, beam.Flatten(s, keptFates, fates, droppedFates), c.Members))

	decisions := beam.Flatten(s, isolated, decided, resolved2, members, exact, noText, exactDrops)
	dropped := beam.ParDo(s, dropKey, decisions)
	clusters, sizes := beam.ParDo2(s, &clusterFn{}, beam.GroupByKey(s, dropped))
	r := DecideResult{Decisions: decisions, Clusters: clusters, ClusterSizes: sizes, Residual: residualCount}
	decisionStats(s, st, r)
	return r, nil
}

func initialState(key string, p dedup.Page) (string, pageState) {
	return key, pageState{State: uint8(match.Undecided), Rank: p.Rank}
}

// higherPriority is the page of smaller rank.
func higherPriority(a, b dedup.Page) dedup.Page {
	if b.Rank < a.Rank {
		return b
	}
	return a
}

// involvedFn tells the batches of the representatives of each pair that
// the nodes have a pair (their keys, gathered per batch within a bundle).
type involvedFn struct {
	Limit int

	merge bundleMerge[string, []string]
}

func (fn *involvedFn) StartBundle(func(string, []string)) { fn.merge.start(fn.Limit) }

func (fn *involvedFn) ProcessElement(f foundPair, emit func(string, []string)) {
	a, b := f.Pair.A().ID(), f.Pair.B().ID()
	fn.merge.add(f.ABatch, len(a)+16, func(ks *[]string) { *ks = append(*ks, a) }, emit)
	fn.merge.add(f.BBatch, len(b)+16, func(ks *[]string) { *ks = append(*ks, b) }, emit)
}

func (fn *involvedFn) FinishBundle(emit func(string, []string)) { fn.merge.flush(emit) }

// packNodesFn keys a batch of representatives by its ID, with only what
// splitNodesFn reads of them, encoded (appendNodes: their pages and
// groups; no vectors, sketches or sites), for the join that waits for the
// last pair matching finds. The direct runner holds every input of a join
// as it came until the join runs: the batches themselves kept every
// document's struct, and its vector and sketch, live through matching
// (on the 1,080,000-page crawl 0.31 GB of structs; docs/benchmarks.md,
// "Decide's join without vectors and sketches"). A batch is encoded into
// a buffer reused across batches, then copied at its size.
type packNodesFn struct{ buf []byte }

func (fn *packNodesFn) ProcessElement(b docBatch) (string, []byte) {
	fn.buf = appendNodes(fn.buf[:0], b)
	return b.ID, bytes.Clone(fn.buf)
}

// splitNodesFn joins a batch of representatives with the keys of its
// nodes that have a pair and the nodes of the batch dropped for an index
// page (preDrop; their pairs with new nodes were taken out). A node
// dropped for an index page is dropped for it, and its group's other
// members with it (keptFates). A node without a pair has no
// higher-priority neighbour and is kept: its best page's decision is
// written here, and a group of more than one page tells its other members.
// A node with a pair goes on to the pair graph with its best page (ranked)
// and its graphNode.
type splitNodesFn struct {
	Method string
}

func (fn *splitNodesFn) ProcessElement(id string, batches func(*[]byte) bool, involved func(*[]string) bool, drops func(*preDrop) bool, isolated func(decidedPage), ranked func(string, dedup.Page), nodes func(string, graphNode), keptFates func(string, fate)) error {
	var enc []byte
	if !batches(&enc) {
		return fmt.Errorf("decide: pair of a document of batch %x, which is not a batch of representatives", id)
	}
	docs, err := decodeNodes(enc)
	if err != nil {
		return fmt.Errorf("decide: %w", err)
	}
	in := map[string]bool{}
	var ks []string
	for involved(&ks) {
		for _, k := range ks {
			in[k] = true
		}
		ks = nil
	}
	dropped := map[string]preDrop{}
	var p preDrop
	for drops(&p) {
		dropped[p.Node] = p
	}
	method := fn.Method
	for _, d := range docs {
		key, best := d.ID(), d.BestPage()
		if p, ok := dropped[key]; ok {
			if in[key] {
				return fmt.Errorf("decide: node %x dropped for an index page still has pairs", key)
			}
			isolated(dropForPrior(best, method, p.Keeper, p.Jaccard))
			if d.Group.Size > 1 {
				keptFates(key, fate{Keeper: p.Keeper.Ref, Jaccard: p.Jaccard, Segment: p.Keeper.Segment})
			}
			continue
		}
		if in[key] {
			ranked(key, best)
			nodes(key, graphNode{Best: best, Size: d.Group.Size})
			continue
		}
		isolated(decidedPage{Line: decisionLineFor(best, method)})
		if d.Group.Size > 1 {
			keptFates(key, fate{Keep: true, Keeper: best.Ref, Jaccard: 1})
		}
	}
	return nil
}

// decideNodeFn decides one node of the pair graph: its best page is kept,
// or dropped by the node's highest-priority kept neighbour, as the node
// is. A kept group of more than one page tells its other members; a
// dropped node's decision waits for its keeper's best page
// (resolveKeeperFn).
type decideNodeFn struct {
	Method string
}

func (fn *decideNodeFn) ProcessElement(key string, nodes func(*graphNode) bool, states func(*pageState) bool, kept func(*edge) bool, emit func(decidedPage), pending func(string, decidedPage), fates func(string, fate)) error {
	var n graphNode
	var st pageState
	if !nodes(&n) || !states(&st) {
		return fmt.Errorf("decide: node %x has no page or no final state", key)
	}
	var keeper, e edge
	for kept(&e) {
		if keeper.Hi == "" || e.HiRank < keeper.HiRank {
			keeper = e
		}
	}
	d := decidedPage{Line: decisionLineFor(n.Best, fn.Method)}
	switch match.State(st.State) {
	case match.Keep:
		emit(d)
		if n.Size > 1 {
			fates(key, fate{Keep: true, Keeper: n.Best.Ref, Jaccard: 1})
		}
	case match.Drop:
		if keeper.Hi == "" {
			return fmt.Errorf("decide: node %x dropped without a kept neighbour", key)
		}
		// The keeper node's best page, and the group size for the
		// members, are added by resolveKeeperFn.
		d.Line.Keep, d.Line.Jaccard = false, keeper.Jaccard
		d.Keeper.RecordID = key // the dropped node, for its members
		if n.Size < 2 {
			d.Keeper.RecordID = ""
		}
		pending(keeper.Hi, d)
	default:
		return fmt.Errorf("decide: node %x left undecided", key)
	}
	return nil
}

// resolveKeeperFn completes the decisions of the best pages of the nodes a
// node dropped with the identity of its best page, the page that drops
// them, and tells their groups' other members.
type resolveKeeperFn struct{}

func (*resolveKeeperFn) ProcessElement(key string, bests func(*dedup.Page) bool, dropped func(*decidedPage) bool, emit func(decidedPage), fates func(string, fate)) error {
	var b dedup.Page
	have := bests(&b)
	var d decidedPage
	for dropped(&d) {
		if !have {
			return fmt.Errorf("decide: keeper %x has no page", key)
		}
		node := d.Keeper.RecordID
		d.Line.DropFor(b.Ref, d.Line.Jaccard)
		d.Keeper = b.Ref
		emit(d)
		if node != "" {
			fates(node, fate{Keeper: b.Ref, Jaccard: d.Line.Jaccard})
		}
		d = decidedPage{}
	}
	return nil
}

// decideMembersFn writes the decisions of the members of one group of more
// than one page, but its best-ranked one, from their group's fate.
type decideMembersFn struct {
	Method string
}

func (fn *decideMembersFn) ProcessElement(key string, fates func(*fate) bool, members func(*dedup.Page) bool, emit func(decidedPage)) error {
	var f fate
	if !fates(&f) {
		return fmt.Errorf("decide: group %x has members but no fate", key)
	}
	var p dedup.Page
	for members(&p) {
		d := decidedPage{Line: decisionLineFor(p, fn.Method), Keeper: f.Keeper}
		d.Line.DropFor(f.Keeper, f.Jaccard)
		d.Line.KeptBySegment = f.Segment
		emit(d)
		p = dedup.Page{}
	}
	return nil
}

// textCopyPair emits the pairs line of a page dropped as an exact copy of
// another page's text (dedup.TextCopyRecord).
func textCopyPair(d decidedPage, emit func(output.PairRecord)) {
	if p, ok := dedup.TextCopyRecord(d.Line); ok {
		progress.pairs.Add(1) // a line of pairs
		emit(p)
	}
}

// TextCopyPairs returns the pairs lines (output.PairRecord) of the pages the
// decisions (decidedPage) drop as exact copies of another page's text, so that
// every such drop has its line; they are added to st as pairs.
func TextCopyPairs(s beam.Scope, st *Stats, decided beam.PCollection) beam.PCollection {
	s = s.Scope("TextCopyPairs")
	lines := beam.ParDo(s, textCopyPair, decided)
	st.Count(s, output.StatPairs, lines)
	return lines
}
