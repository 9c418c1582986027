package transforms

import (
	"context"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// New exact-copy representatives matched with the index pages only,
// through the partitions of §4.2 and the task grid (MatchAgainst,
// dedup.AgainstPairs): a new node with such a pair is dropped for its
// best-ranked index neighbour before the decision rounds, and its pairs
// with new nodes are taken out.

func init() {
	beam.RegisterType(reflect.TypeOf(preDrop{}))
	register.Function2x0[docBatch, func(doc)](unbatch)
	registerDoFn(&keyAgainstFn{})
	registerDoFn(&matchAgainstFn{})
	register.Function2x2[uint64, doc, uint64, gridSize](priorSize)
	register.Function2x2[uint64, doc, uint64, gridSize](newSize)
	registerDoFn(&againstTaskFn{})
	register.Emitter2[string, doc]()
	register.Function2x1[preDrop, preDrop, preDrop](betterPreDrop)
	register.Function2x0[foundPair, func(string, foundPair)](foundByA)
	registerDoFn(&keepUndroppedFn{})
	register.Function3x0[string, preDrop, func(string, preDrop)](preDropByBatch)
	register.Function1x2[preDrop, string, preDrop](preDropBatch)
	register.Emitter2[uint64, doc]()
	register.Emitter2[string, preDrop]()
	register.Emitter2[string, foundPair]()
	register.Emitter1[doc]()
	register.Iter1[doc]()
	register.Iter1[preDrop]()
	register.Iter1[foundPair]()
}

// MatchAgainst matches the new representatives (CollapseExact's Reps) with
// the index documents of a, never index with index, and returns a with
// each new node with a pair as a preDrop for its best-ranked index
// neighbour, and found, the pairs among new representatives, without the
// pairs of such nodes (they drop nothing: two joins). The zero Against
// returns itself and found.
func MatchAgainst(s beam.Scope, a Against, c Collapsed, found beam.PCollection, p config.Params) (Against, beam.PCollection) {
	if !a.priors.IsValid() {
		return a, found
	}
	s = s.Scope("MatchAgainst")
	key := &keyAgainstFn{Tau: p.Tau, Rho: p.Rho}
	priors, news := beam.ParDo(s, key, a.priors), beam.ParDo(s, key, beam.ParDo(s, unbatch, c.Reps))
	sizes := beam.ParDo(s, withGridKey, beam.CombinePerKey(s, addGridSizes,
		beam.Flatten(s, beam.ParDo(s, priorSize, priors), beam.ParDo(s, newSize, news))))
	tasks := beam.CoGroupByKey(s,
		beam.ParDo(s, &againstTaskFn{MaxSigs: p.MaxGroupSignatures, Prior: true}, priors, beam.SideInput{Input: sizes}),
		beam.ParDo(s, &againstTaskFn{MaxSigs: p.MaxGroupSignatures}, news, beam.SideInput{Input: sizes}))
	drops := beam.CombinePerKey(s, betterPreDrop, beam.ParDo(s, &matchAgainstFn{Tau: p.Tau, SameSiteTau: p.SameSiteTau, Share: p.VerifyShare}, tasks))
	byB := beam.ParDo(s, &keepUndroppedFn{Second: true}, beam.CoGroupByKey(s, drops, beam.ParDo(s, foundByA, found)))
	rest := beam.DropKey(s, beam.ParDo(s, &keepUndroppedFn{}, beam.CoGroupByKey(s, drops, byB)))
	a.preDrops = beam.ParDo(s, preDropByBatch, drops)
	return a, rest
}

func unbatch(b docBatch, emit func(doc)) {
	for _, d := range b.Docs {
		emit(d)
	}
}

// keyAgainstFn sends a document to its home partition and, when it can
// match there, as a guest to the left neighbour (match.Partitioning, as
// dedup.AgainstPairs does).
type keyAgainstFn struct {
	Tau float64
	Rho int

	part match.Partitioning
}

func (fn *keyAgainstFn) Setup() { fn.part = match.NewPartitioning(fn.Tau, fn.Rho) }

func (fn *keyAgainstFn) ProcessElement(d doc, emit func(uint64, doc)) {
	l := d.Vec.Len()
	if l == 0 {
		return
	}
	d.Guest = false
	emit(uint64(fn.part.Home(l)), d)
	if k, ok := fn.part.Guest(l); ok {
		d.Guest = true
		emit(uint64(k), d)
	}
}

// preDrop is a new node dropped for an index page before the decision
// rounds: the node's batch, the index page and the pair's Jaccard.
type preDrop struct {
	Node    string
	Batch   string
	Keeper  priorRef
	Jaccard float64
}

// matchAgainstFn matches one partition's index pages with its new
// representatives only (dedup.AgainstPairs): index pages at home with new
// documents at home or guests, new documents at home with index guests;
// pairs the same-site rule keeps drop the new node, for its best-ranked
// index neighbour (betterPreDrop). One task: a partition, or one block of
// its index pages with one block of its new documents (againstTaskFn).
type matchAgainstFn struct {
	Tau         float64
	SameSiteTau float64
	Share       float64 // config.Params.VerifyShare
}

func (fn *matchAgainstFn) ProcessElement(ctx context.Context, _ string, priors func(*doc) bool, news func(*doc) bool, emit func(string, preDrop)) {
	// The task's documents are held by pointer: slices of doc values (472
	// bytes each) moved every document again at each growth, 0.46 s of the
	// 17.5 s of samples of day 30 in make bench-batches (docs/benchmarks.md,
	// "A task's documents held by pointer").
	var priorHome, priorGuest, newHome, newAll []*doc
	for d := new(doc); news(d); d = new(doc) {
		if !d.Guest {
			newHome = append(newHome, d)
		}
		newAll = append(newAll, d)
	}
	if len(newAll) == 0 {
		for d := new(doc); priors(d); {
		}
		return
	}
	for d := new(doc); priors(d); d = new(doc) {
		if d.Guest {
			priorGuest = append(priorGuest, d)
		} else {
			priorHome = append(priorHome, d)
		}
	}
	againstCompared.Inc(ctx, 1)
	rule := match.SiteRule{SameSiteTau: fn.SameSiteTau}
	cross := func(ps, ns []*doc) {
		if len(ps) == 0 || len(ns) == 0 {
			return
		}
		a := make([]spotsig.Vector, len(ps))
		for i, p := range ps {
			a[i] = p.Vec
		}
		b := make([]spotsig.Vector, len(ns))
		for i, n := range ns {
			b[i] = n.Vec
		}
		for _, pr := range match.MatchCross(a, b, fn.Tau) {
			p, n := ps[pr.A], ns[pr.B-len(a)]
			if !rule.Keep(pr.Jaccard, p.Site, n.Site) || !dedup.Verify(n.Sketch, p.Sketch, n.Site, p.Site, dedup.Weak(n.Vec.Len(), p.Vec.Len()), fn.Share).OK {
				continue
			}
			againstPairs.Inc(ctx, 1)
			emit(n.ID(), preDrop{Node: n.ID(), Batch: n.Batch, Keeper: priorRef{Ref: p.Ref, Rank: p.Rank, Segment: p.Batch}, Jaccard: pr.Jaccard})
		}
	}
	cross(priorHome, newAll)
	cross(priorGuest, newHome)
}

// betterPreDrop is the drop for the index page of smaller rank.
func betterPreDrop(a, b preDrop) preDrop {
	if b.Keeper.Rank < a.Keeper.Rank {
		return b
	}
	return a
}

func preDropByBatch(_ string, p preDrop, emit func(string, preDrop)) { emit(p.Batch, p) }

func preDropBatch(p preDrop) (string, preDrop) { return p.Batch, p }

func foundByA(f foundPair, emit func(string, foundPair)) { emit(f.Pair.A().ID(), f) }

// keepUndroppedFn passes on the pairs of the key's node unless the node
// was dropped for an index page; with Second it re-keys them by their
// second node for the next pass.
type keepUndroppedFn struct {
	Second bool
}

func (fn *keepUndroppedFn) ProcessElement(_ string, drops func(*preDrop) bool, found func(*foundPair) bool, emit func(string, foundPair)) {
	var p preDrop
	if drops(&p) {
		return
	}
	var f foundPair
	for found(&f) {
		if fn.Second {
			emit(f.Pair.B().ID(), f)
		} else {
			emit("", f)
		}
		f = foundPair{}
	}
}

// priorSize and newSize are the signatures of an index document (side A
// of match.Grid) and of a new one (side B).
func priorSize(k uint64, d doc) (uint64, gridSize) { return k, gridSize{A: d.Vec.Len()} }

func newSize(k uint64, d doc) (uint64, gridSize) { return k, gridSize{B: d.Vec.Len()} }

// againstTaskFn sends a document of a partition to the tasks match.Grid
// gives it, index documents side A and new ones side B, without self
// pairs: the whole partition when it holds at most MaxSigs signatures (0:
// no bound), else one task per index block and new block, so each
// index–new pair meets in exactly one task.
type againstTaskFn struct {
	MaxSigs int
	Prior   bool

	sizes map[uint64]gridSize
}

func (fn *againstTaskFn) ProcessElement(part uint64, d doc, sizes func(*gridSize) bool, emit func(string, doc)) {
	g := gridSizes(&fn.sizes, sizes)[part]
	match.NewGrid(g.A, g.B, fn.MaxSigs, false).Tasks(!fn.Prior, blockHash(d.ID()), func(t match.Task, _ bool) {
		emit(taskKey(part, t), d)
	})
}
