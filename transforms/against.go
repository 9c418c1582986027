package transforms

import (
	"context"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// A run against an index (--against; dedup.RunAgainst is the reference,
// docs/design.md "Scheduled batches"): the index pages are read as a
// PCollection; a new page that copies one exactly (its text digest, or a
// document's vector) is dropped for it before collapsing and matching
// (ExactAgainst); the new exact-copy representatives are matched with the
// index pages only, through the partitions (MatchAgainst); a new node with
// such a pair is dropped for its best-ranked index neighbour before the
// decision rounds (Decide with PreDropped).

func init() {
	for _, t := range []any{indexFile{}, PriorRef{}, exactItem{}, exactHit{}, PreDrop{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.Function3x1[context.Context, string, func(indexFile), error](listIndexFn)
	register.Emitter1[indexFile]()
	registerDoFn(&readIndexFileFn{})
	register.Function2x0[dedup.Prior, func(string, PriorRef)](priorKeys)
	register.Function2x1[PriorRef, PriorRef, PriorRef](betterPrior)
	register.Function2x0[Batch, func(string, exactItem)](docExactKeys)
	register.Function2x0[Page, func(string, exactItem)](pageExactKeys)
	registerDoFn(&exactHitsFn{})
	register.Function2x1[exactHit, exactHit, exactHit](betterHit)
	register.Function2x0[Batch, func(Doc)](unbatch)
	register.Function1x2[Page, string, Page](keyPage)
	register.Function3x0[string, exactHit, func(string, exactHit)](hitByBatch)
	registerDoFn(&dropExactDocsFn{})
	registerDoFn(&dropExactPagesFn{})
	register.Function2x0[dedup.Prior, func(string, dedup.Prior)](keyPrior)
	registerDoFn(&priorDocFn{})
	registerDoFn(&keyAgainstFn{})
	registerDoFn(&matchAgainstFn{})
	register.Function2x2[uint64, Doc, uint64, gridSize](priorSize)
	register.Function2x2[uint64, Doc, uint64, gridSize](newSize)
	registerDoFn(&againstTaskFn{})
	register.Emitter2[string, Doc]()
	register.Function2x1[PreDrop, PreDrop, PreDrop](betterPreDrop)
	register.Function2x0[Found, func(string, Found)](foundByA)
	registerDoFn(&keepUndroppedFn{})
	register.Function3x0[string, PreDrop, func(string, PreDrop)](preDropByBatch)
	register.Function1x2[PreDrop, string, PreDrop](preDropBatch)
	register.Emitter2[string, PriorRef]()
	register.Emitter2[string, exactItem]()
	register.Emitter2[string, exactHit]()
	register.Emitter2[string, match.Site]()
	register.Emitter2[uint64, Doc]()
	register.Emitter2[string, PreDrop]()
	register.Emitter2[string, Found]()
	register.Emitter1[dedup.Prior]()
	register.Emitter1[Doc]()
	register.Iter1[PriorRef]()
	register.Iter1[exactItem]()
	register.Iter1[exactHit]()
	register.Iter1[match.Site]()
	register.Iter1[Doc]()
	register.Iter1[PreDrop]()
	register.Iter1[Found]()
}

var (
	againstExact    = beam.NewCounter("against", "exact_copies")
	againstPairs    = beam.NewCounter("against", "pairs")
	againstPriors   = beam.NewCounter("against", "index_pages")
	againstCompared = beam.NewCounter("against", "groups_matched")
)

// indexFile is one Parquet file of an index segment.
type indexFile struct {
	Dir  string // the segment's directory
	File string
	Meta index.Meta
}

// ReadIndex returns the pages (dedup.Prior) of the committed segments of
// the index directories dirs, listed (index.List) and read
// (index.ReadPages, one Parquet file per element) when the job runs, as
// Beam's file sources list their globs; pipeline.Launch has checked them
// (their parameters, files and inputs). No dirs: the zero PCollection, a
// run without an index, which ExactAgainst passes through.
func ReadIndex(s beam.Scope, dirs []string) beam.PCollection {
	if len(dirs) == 0 {
		return beam.PCollection{}
	}
	s = s.Scope("ReadIndex")
	files := beam.ParDo(s, listIndexFn, beam.CreateList(s, dirs))
	return beam.ParDo(s, &readIndexFileFn{}, beam.Reshuffle(s, files))
}

// listIndexFn emits the Parquet files of the segments of one index
// directory.
func listIndexFn(ctx context.Context, dir string, emit func(indexFile)) error {
	infos, err := index.List(ctx, []string{dir})
	if err != nil {
		return err
	}
	for _, in := range infos {
		for _, f := range in.Meta.Files {
			m := in.Meta
			m.Files = []string{f}
			emit(indexFile{Dir: in.Dir, File: f, Meta: m})
		}
	}
	return nil
}

type readIndexFileFn struct{}

func (*readIndexFileFn) ProcessElement(ctx context.Context, f indexFile, emit func(dedup.Prior)) error {
	return index.ReadPages(ctx, f.Dir, f.Meta, func(p dedup.Prior) error {
		againstPriors.Inc(ctx, 1)
		emit(p)
		return nil
	})
}

// PriorRef is an index page as a new page learns of it: its identity,
// rank and segment.
type PriorRef struct {
	Ref     warc.Ref
	Rank    string
	Segment string
	Sketch  spotsig.Sketch // its main-text sketch, for a vector key
}

// exactItem is a new page under one of its exact keys: its key, its
// batch ("" for a page without a vector) and site, and whether the key is
// its vector's.
type exactItem struct {
	ID     string
	Batch  string
	Site   match.Site
	Vector bool
	Sketch spotsig.Sketch // the document's main-text sketch, under its vector key
}

// exactHit is the index page a new page copies, and the page's batch.
type exactHit struct {
	ID    string
	Prior PriorRef
	Batch string
}

const (
	digestKeyPrefix = "d"
	vectorKeyPrefix = "v"
)

// priorKeys emits an index page under its text digest and its vector's
// ExactKey.
func priorKeys(p dedup.Prior, emit func(string, PriorRef)) {
	r := PriorRef{Ref: p.Ref, Rank: p.Rank, Segment: p.Segment}
	if p.Digest != "" {
		emit(digestKeyPrefix+p.Digest, r)
	}
	if p.Vec.Len() > 0 {
		r.Sketch = p.Sketch
		emit(vectorKeyPrefix+dedup.ExactKey(p.Vec), r)
	}
}

// betterPrior is the index page of smaller rank.
func betterPrior(a, b PriorRef) PriorRef {
	if b.Rank < a.Rank {
		return b
	}
	return a
}

func docExactKeys(b Batch, emit func(string, exactItem)) {
	for _, d := range b.Docs {
		it := exactItem{ID: d.ID(), Batch: b.ID, Site: d.Site}
		if d.Digest != "" {
			emit(digestKeyPrefix+d.Digest, it)
		}
		it.Vector, it.Sketch = true, d.Sketch
		emit(vectorKeyPrefix+dedup.ExactKey(d.Vec), it)
	}
}

func pageExactKeys(p Page, emit func(string, exactItem)) {
	if p.Digest != "" {
		emit(digestKeyPrefix+p.Digest, exactItem{ID: p.ID()})
	}
}

// exactHitsFn gives each new page at a key an index page holds that index
// page (hits), and each index page the sites of the new documents with its
// vector (an exact-copy group's site, Collapse); under a vector key only
// the documents whose main text verifies against the index page's at Share
// (dedup.ExactPrior).
type exactHitsFn struct {
	Share float64
}

func (fn *exactHitsFn) ProcessElement(_ string, priors func(*PriorRef) bool, items func(*exactItem) bool, hits func(string, exactHit), sites func(string, match.Site)) {
	var p PriorRef
	if !priors(&p) {
		return
	}
	var it exactItem
	for items(&it) {
		if it.Vector && !dedup.Verify(it.Sketch, p.Sketch, it.Site, match.SiteOf(p.Ref.Site()), fn.Share).OK {
			it = exactItem{}
			continue
		}
		ref := p
		ref.Sketch = spotsig.Sketch{} // the hit travels without it
		hits(it.ID, exactHit{ID: it.ID, Prior: ref, Batch: it.Batch})
		if it.Vector {
			sites(p.Ref.ID(), it.Site)
		}
		it = exactItem{}
	}
}

// betterHit is the hit of smaller index rank.
func betterHit(a, b exactHit) exactHit {
	if b.Prior.Rank < a.Prior.Rank {
		return b
	}
	return a
}

func unbatch(b Batch, emit func(Doc)) {
	for _, d := range b.Docs {
		emit(d)
	}
}

func keyPage(p Page) (string, Page) { return p.ID(), p }

func hitByBatch(id string, h exactHit, emit func(string, exactHit)) {
	if h.Batch != "" {
		emit(h.Batch, h)
	} else {
		emit(id, h)
	}
}

// dropExactDocsFn takes out of a batch the documents that copy an index
// page, each dropped for it at Jaccard 1.
type dropExactDocsFn struct {
	Method string
}

func (fn *dropExactDocsFn) ProcessElement(ctx context.Context, _ string, batches func(*Batch) bool, hits func(*exactHit) bool, emit func(Batch), dropped func(Decided)) {
	var b Batch
	if !batches(&b) {
		return
	}
	copyOf := map[string]PriorRef{}
	var h exactHit
	for hits(&h) {
		copyOf[h.ID] = h.Prior
	}
	if len(copyOf) == 0 {
		emit(b)
		return
	}
	docs := b.Docs[:0]
	for _, d := range b.Docs {
		k, ok := copyOf[d.ID()]
		if !ok {
			docs = append(docs, d)
			continue
		}
		againstExact.Inc(ctx, 1)
		dropped(dropForPrior(d.Page, fn.Method, k, 1))
	}
	if b.Docs = docs; len(docs) > 0 {
		emit(b)
	}
}

// dropExactPagesFn drops a page decided by its text that copies an index
// page; the others go on to Decide.
type dropExactPagesFn struct{}

func (*dropExactPagesFn) ProcessElement(ctx context.Context, id string, pages func(*Page) bool, hits func(*exactHit) bool, emit func(Page), dropped func(Decided)) {
	var h exactHit
	hit := hits(&h)
	var p Page
	for pages(&p) {
		if !hit {
			emit(p)
			p = Page{}
			continue
		}
		againstExact.Inc(ctx, 1)
		dropped(dropForPrior(p, DecideExactText, h.Prior, 1))
		p = Page{}
	}
}

// dropForPrior is page p's decision, method method, dropped for the index
// page k at Jaccard j.
func dropForPrior(p Page, method string, k PriorRef, j float64) Decided {
	d := Decided{Line: decisionLineFor(p, method), Keeper: k.Ref}
	d.Line.DropFor(k.Ref, j)
	d.Line.KeptBySegment = k.Segment
	return d
}

func keyPrior(p dedup.Prior, emit func(string, dedup.Prior)) { emit(p.ID(), p) }

// priorDocFn makes an index page with a vector a document for matching:
// its site merged with those of its new exact copies; Batch holds its
// segment (index pages travel in no batch).
type priorDocFn struct{}

func (*priorDocFn) ProcessElement(_ string, priors func(*dedup.Prior) bool, sites func(*match.Site) bool, emit func(Doc)) {
	var p dedup.Prior
	if !priors(&p) || p.Vec.Len() == 0 {
		return
	}
	site := match.SiteOf(p.Site())
	var s match.Site
	for sites(&s) {
		site = match.MergeSites(site, s)
	}
	emit(Doc{Doc: dedup.Doc{Page: p.Page, Site: site, Vec: p.Vec, Sketch: p.Sketch, Lang: p.Lang}, Batch: p.Segment})
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

func (fn *keyAgainstFn) ProcessElement(d Doc, emit func(uint64, Doc)) {
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

// PreDrop is a new node dropped for an index page before the decision
// rounds: the node's batch, the index page and the pair's Jaccard.
type PreDrop struct {
	Node    string
	Batch   string
	Keeper  PriorRef
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

func (fn *matchAgainstFn) ProcessElement(ctx context.Context, _ string, priors func(*Doc) bool, news func(*Doc) bool, emit func(string, PreDrop)) {
	var priorHome, priorGuest, newHome, newAll []Doc
	var d Doc
	for news(&d) {
		if !d.Guest {
			newHome = append(newHome, d)
		}
		newAll = append(newAll, d)
		d = Doc{}
	}
	if len(newAll) == 0 {
		for priors(&d) {
		}
		return
	}
	for priors(&d) {
		if d.Guest {
			priorGuest = append(priorGuest, d)
		} else {
			priorHome = append(priorHome, d)
		}
		d = Doc{}
	}
	againstCompared.Inc(ctx, 1)
	rule := match.SiteRule{SameSiteTau: fn.SameSiteTau}
	cross := func(ps, ns []Doc) {
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
			if !rule.Keep(pr.Jaccard, p.Site, n.Site) || !dedup.Verify(n.Sketch, p.Sketch, n.Site, p.Site, fn.Share).OK {
				continue
			}
			againstPairs.Inc(ctx, 1)
			emit(n.ID(), PreDrop{Node: n.ID(), Batch: n.Batch, Keeper: PriorRef{Ref: p.Ref, Rank: p.Rank, Segment: p.Batch}, Jaccard: pr.Jaccard})
		}
	}
	cross(priorHome, newAll)
	cross(priorGuest, newHome)
}

// betterPreDrop is the drop for the index page of smaller rank.
func betterPreDrop(a, b PreDrop) PreDrop {
	if b.Keeper.Rank < a.Keeper.Rank {
		return b
	}
	return a
}

func preDropByBatch(_ string, p PreDrop, emit func(string, PreDrop)) { emit(p.Batch, p) }

func preDropBatch(p PreDrop) (string, PreDrop) { return p.Batch, p }

func foundByA(f Found, emit func(string, Found)) { emit(f.Pair.A().ID(), f) }

// keepUndroppedFn passes on the pairs of the key's node unless the node
// was dropped for an index page; with Second it re-keys them by their
// second node for the next pass.
type keepUndroppedFn struct {
	Second bool
}

func (fn *keepUndroppedFn) ProcessElement(_ string, drops func(*PreDrop) bool, found func(*Found) bool, emit func(string, Found)) {
	var p PreDrop
	if drops(&p) {
		return
	}
	var f Found
	for found(&f) {
		if fn.Second {
			emit(f.Pair.B().ID(), f)
		} else {
			emit("", f)
		}
		f = Found{}
	}
}

// Against is a run against an index (--against) as the rest of the job
// sees it: what ExactAgainst and MatchAgainst found, for MatchAgainst and
// Decide. The zero Against is a run without an index: MatchAgainst passes
// its pairs through and Decide decides as without one.
type Against struct {
	dropped  beam.PCollection // Decided: the pages that copy an index page
	priors   beam.PCollection // Doc: index pages with a vector (Batch: their segment), with their exact-copy groups' sites
	preDrops beam.PCollection // PreDrop keyed by batch: new nodes dropped for an index page (MatchAgainst)
}

// ExactAgainst drops the new pages that copy an index page (priors,
// dedup.Prior from ReadIndex) exactly: documents of the batches kept
// (their text digest or vector) and pages unsigned (their text digest),
// each for the best-ranked index page it copies, at Jaccard 1
// (dedup.ExactPrior); two joins on the keys, one on the page, one on the
// batch. It returns the run's Against and the batches and unsigned pages
// without those copies. With the zero priors (no index) it returns the
// zero Against and kept and unsigned as they are.
func ExactAgainst(s beam.Scope, priors, kept, unsigned beam.PCollection, p config.Params) (a Against, keptOut, unsignedOut beam.PCollection) {
	if !priors.IsValid() {
		return Against{}, kept, unsigned
	}
	s = s.Scope("ExactAgainst")
	best := beam.CombinePerKey(s, betterPrior, beam.ParDo(s, priorKeys, priors))
	items := beam.Flatten(s, beam.ParDo(s, docExactKeys, kept), beam.ParDo(s, pageExactKeys, unsigned))
	hits, sites := beam.ParDo2(s, &exactHitsFn{Share: p.VerifyShare}, beam.CoGroupByKey(s, best, items))
	perPage := beam.ParDo(s, hitByBatch, beam.CombinePerKey(s, betterHit, hits))
	keptOut, droppedDocs := beam.ParDo2(s, &dropExactDocsFn{Method: p.SignatureMethod()}, beam.CoGroupByKey(s, beam.ParDo(s, keyBatch, kept), perPage))
	unsignedOut, droppedPages := beam.ParDo2(s, &dropExactPagesFn{}, beam.CoGroupByKey(s, beam.ParDo(s, keyPage, unsigned), perPage))
	a.dropped = beam.Flatten(s, droppedDocs, droppedPages)
	a.priors = beam.ParDo(s, &priorDocFn{}, beam.CoGroupByKey(s, beam.ParDo(s, keyPrior, priors), sites))
	return a, keptOut, unsignedOut
}

// MatchAgainst matches the new representatives (CollapseExact's Reps) with
// the index documents of a, never index with index, and returns a with
// each new node with a pair as a PreDrop for its best-ranked index
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

// priorSize and newSize are the signatures of an index document (side A
// of match.Grid) and of a new one (side B).
func priorSize(k uint64, d Doc) (uint64, gridSize) { return k, gridSize{A: d.Vec.Len()} }

func newSize(k uint64, d Doc) (uint64, gridSize) { return k, gridSize{B: d.Vec.Len()} }

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

func (fn *againstTaskFn) ProcessElement(part uint64, d Doc, sizes func(*gridSize) bool, emit func(string, Doc)) {
	g := gridSizes(&fn.sizes, sizes)[part]
	match.NewGrid(g.A, g.B, fn.MaxSigs, false).Tasks(!fn.Prior, blockHash(d.ID()), func(t match.Task, _ bool) {
		emit(taskKey(part, t), d)
	})
}
