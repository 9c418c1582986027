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
	"github.com/ndd-beam/ndd-beam/warc"
)

// New pages that copy an index page exactly (its text digest, or a
// document's vector): dropped for it before collapsing and matching
// (ExactAgainst, dedup.ExactPrior), and the index pages made documents for
// MatchAgainst.

func init() {
	for _, t := range []any{priorRef{}, exactItem{}, exactHit{}, match.Site{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.Function2x0[dedup.Prior, func(string, priorRef)](priorKeys)
	register.Function2x1[priorRef, priorRef, priorRef](betterPrior)
	register.Function2x0[docBatch, func(string, exactItem)](docExactKeys)
	register.Function2x0[dedup.Page, func(string, exactItem)](pageExactKeys)
	registerDoFn(&exactHitsFn{})
	register.Function2x1[exactHit, exactHit, exactHit](betterHit)
	register.Function1x2[dedup.Page, string, dedup.Page](keyPage)
	register.Function3x0[string, exactHit, func(string, exactHit)](hitByBatch)
	registerDoFn(&dropExactDocsFn{})
	registerDoFn(&dropExactPagesFn{})
	register.Function2x0[dedup.Prior, func(string, dedup.Prior)](keyPrior)
	registerDoFn(&priorDocFn{})
	register.Emitter2[string, priorRef]()
	register.Emitter2[string, exactItem]()
	register.Emitter2[string, exactHit]()
	register.Emitter2[string, match.Site]()
	register.Emitter1[doc]()
	register.Iter1[priorRef]()
	register.Iter1[exactItem]()
	register.Iter1[exactHit]()
	register.Iter1[match.Site]()
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

// priorRef is an index page as a new page learns of it: its identity,
// rank and segment.
type priorRef struct {
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
	// Signatures is its vector's length |d|, under its vector key (the
	// index page's is the same: dedup.Weak).
	Signatures int
}

// exactHit is the index page a new page copies, and the page's batch.
type exactHit struct {
	ID    string
	Prior priorRef
	Batch string
}

const (
	digestKeyPrefix = "d"
	vectorKeyPrefix = "v"
)

// priorKeys emits an index page under its text digest and its vector's
// ExactKey.
func priorKeys(p dedup.Prior, emit func(string, priorRef)) {
	r := priorRef{Ref: p.Ref, Rank: p.Rank, Segment: p.Segment}
	if p.Digest != "" {
		emit(digestKeyPrefix+p.Digest, r)
	}
	if p.Vec.Len() > 0 {
		r.Sketch = p.Sketch
		emit(vectorKeyPrefix+dedup.ExactKey(p.Vec), r)
	}
}

// betterPrior is the index page of smaller rank.
func betterPrior(a, b priorRef) priorRef {
	if b.Rank < a.Rank {
		return b
	}
	return a
}

func docExactKeys(b docBatch, emit func(string, exactItem)) {
	for _, d := range b.Docs {
		it := exactItem{ID: d.ID(), Batch: b.ID, Site: d.Site}
		if d.Digest != "" {
			emit(digestKeyPrefix+d.Digest, it)
		}
		it.Vector, it.Sketch, it.Signatures = true, d.Sketch, d.Vec.Len()
		emit(vectorKeyPrefix+dedup.ExactKey(d.Vec), it)
	}
}

func pageExactKeys(p dedup.Page, emit func(string, exactItem)) {
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

func (fn *exactHitsFn) ProcessElement(_ string, priors func(*priorRef) bool, items func(*exactItem) bool, hits func(string, exactHit), sites func(string, match.Site)) {
	var p priorRef
	if !priors(&p) {
		return
	}
	var it exactItem
	for items(&it) {
		if it.Vector && !dedup.Verify(it.Sketch, p.Sketch, it.Site, dedup.SiteOf(p.Ref), dedup.Weak(it.Signatures, it.Signatures), fn.Share).OK {
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

func keyPage(p dedup.Page) (string, dedup.Page) { return p.ID(), p }

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

func (fn *dropExactDocsFn) ProcessElement(ctx context.Context, _ string, batches func(*docBatch) bool, hits func(*exactHit) bool, emit func(docBatch), dropped func(decidedPage)) {
	var b docBatch
	if !batches(&b) {
		return
	}
	copyOf := map[string]priorRef{}
	var h exactHit
	for hits(&h) {
		copyOf[h.ID] = h.Prior
	}
	if len(copyOf) == 0 {
		emit(b)
		return
	}
	docs := make([]doc, 0, len(b.Docs)) // a new slice: a DoFn must not modify its input
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

func (*dropExactPagesFn) ProcessElement(ctx context.Context, id string, pages func(*dedup.Page) bool, hits func(*exactHit) bool, emit func(dedup.Page), dropped func(decidedPage)) {
	var h exactHit
	hit := hits(&h)
	var p dedup.Page
	for pages(&p) {
		if !hit {
			emit(p)
			p = dedup.Page{}
			continue
		}
		againstExact.Inc(ctx, 1)
		dropped(dropForPrior(p, dedup.DecideExactText, h.Prior, 1))
		p = dedup.Page{}
	}
}

// dropForPrior is page p's decision, method method, dropped for the index
// page k at Jaccard j.
func dropForPrior(p dedup.Page, method string, k priorRef, j float64) decidedPage {
	d := decidedPage{Line: decisionLineFor(p, method), Keeper: k.Ref}
	d.Line.DropFor(k.Ref, j)
	d.Line.KeptBySegment = k.Segment
	return d
}

func keyPrior(p dedup.Prior, emit func(string, dedup.Prior)) { emit(p.ID(), p) }

// priorDocFn makes an index page with a vector a document for matching:
// its site merged with those of its new exact copies; Batch holds its
// segment (index pages travel in no batch).
type priorDocFn struct{}

func (*priorDocFn) ProcessElement(_ string, priors func(*dedup.Prior) bool, sites func(*match.Site) bool, emit func(doc)) {
	var p dedup.Prior
	if !priors(&p) || p.Vec.Len() == 0 {
		return
	}
	site := dedup.SiteOf(p.Ref)
	var s match.Site
	for sites(&s) {
		site = match.MergeSites(site, s)
	}
	emit(doc{Doc: dedup.Doc{Page: p.Page, Site: site, Vec: p.Vec, Sketch: p.Sketch, Lang: p.Lang}, Batch: p.Segment})
}
