package transforms

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*ExactCopy)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*groupHead)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*member)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*mark)(nil)).Elem())
	registerDoFn(&exactKeyFn{})
	register.Function2x1[groupHead, groupHead, groupHead](mergeGroupHeads)
	registerDoFn(&collapseFn{})
	registerDoFn(&applyMarksFn{})
	register.Emitter2[string, member]()
	register.Emitter2[string, groupHead]()
	register.Emitter2[string, []mark]()
	register.Emitter1[ExactCopy]()
	register.Iter1[member]()
	register.Iter1[groupHead]()
	register.Iter1[[]mark]()
	register.Function1x1[ExactCopy, PairRecord](exactPairRecord)
}

var exactCopies = beam.NewCounter("exact", "copies")

// ExactCopy is a document collapsed into its exact-copy representative
// (dedup.ExactCopy).
type ExactCopy = dedup.ExactCopy

// Collapsed is what CollapseExact returns.
type Collapsed struct {
	// Reps are the batches with the representatives only, each with its
	// group's Site and Group (a document without copies: its own site,
	// Size 1).
	Reps beam.PCollection
	// Copies are the other members (ExactCopy).
	Copies beam.PCollection
	// Members are the pages of the groups of more than one member, but
	// their best-ranked one, keyed by their representative's
	// warc.Ref.ID (KV<string, Page>): Decide writes their decisions once
	// it knows their group's.
	Members beam.PCollection
}

// CollapseExact collapses exact copies before partitioning (docs/design.md,
// "Crawl-scale matching"): of the documents with the same vector
// (dedup.ExactKey), only the representative (the first in warc.Ref order,
// dedup.FirstRef) goes on to matching, carrying its group's site, size and
// best-ranked page; each other one becomes an ExactCopy. A group's head is
// found by a combiner on the 16-byte key, so no worker holds a group; the
// members are then joined with it (CoGroupByKey on the key) and streamed,
// and the groups of more than one member send the batches of their
// members what to change (a second join, on the batch ID). The number of
// copies is added to st as exact_copies and to the counter exact/copies.
// The representatives equal dedup.Collapse's.
func CollapseExact(s beam.Scope, st *Stats, batches beam.PCollection) Collapsed {
	s = s.Scope("CollapseExact")
	keyed, heads := beam.ParDo2(s, &exactKeyFn{}, batches)
	head := beam.CombinePerKey(s, mergeGroupHeads, heads)
	marks, copies, members := beam.ParDo3(s, &collapseFn{}, beam.CoGroupByKey(s, keyed, head))
	reps := beam.ParDo(s, &applyMarksFn{}, beam.CoGroupByKey(s, beam.ParDo(s, keyBatch, batches), marks))
	st.Count(s, output.StatExactCopies, copies)
	return Collapsed{Reps: reps, Copies: copies, Members: members}
}

// groupHead is what is known of an exact-copy group as a whole: its
// dedup.Head (representative and site), its member of smallest rank and
// its size. mergeGroupHeads combines it.
type groupHead struct {
	Head dedup.Head
	Best Page
	Size int
}

func mergeGroupHeads(a, b groupHead) groupHead {
	best := a.Best
	if b.Best.Rank < best.Rank {
		best = b.Best
	}
	return groupHead{Head: dedup.MergeHeads(a.Head, b.Head), Best: best, Size: a.Size + b.Size}
}

// member is one document of an exact-copy key: where it is (batch and
// index), its page and its vector length.
type member struct {
	Batch      string
	Doc        int
	Page       Page
	Signatures int
}

// mark tells a batch what collapsing changes for its document Doc: drop it
// (a copy), or set its group's Site and Group (a representative of more
// than one member).
type mark struct {
	Doc   int
	Drop  bool
	Site  match.Site
	Group dedup.Group
}

// exactKeyFn keys each document of a batch, and its head alone, by its
// exact-copy key.
type exactKeyFn struct{}

func (*exactKeyFn) ProcessElement(b Batch, doc func(string, member), head func(string, groupHead)) {
	for i, d := range b.Docs {
		k := dedup.ExactKey(d.Vec)
		doc(k, member{Batch: b.ID, Doc: i, Page: d.Page, Signatures: d.Vec.Len()})
		head(k, groupHead{Head: dedup.Head{Rep: d.Ref, Site: d.Site}, Best: d.Page, Size: 1})
	}
}

// collapseFn sees one exact-copy key with its members and its head; for a
// group of more than one member it marks the representative and the copies
// in their batches (merged per batch within a bundle), turns every copy
// into an ExactCopy, and sends the pages but the best-ranked one to
// Members.
type collapseFn struct {
	merge bundleMerge[string, []mark]
}

func (fn *collapseFn) StartBundle(func(string, []mark), func(ExactCopy), func(string, Page)) {
	fn.merge.start(0)
}

func (fn *collapseFn) ProcessElement(ctx context.Context, key string, members func(*member) bool, heads func(*groupHead) bool, marks func(string, []mark), exact func(ExactCopy), pages func(string, Page)) error {
	var h groupHead
	if !heads(&h) {
		return fmt.Errorf("collapse: exact-copy key %x has no head", key)
	}
	if h.Size < 2 {
		return nil
	}
	rep := h.Head.Rep
	repID := rep.ID()
	var m member
	for members(&m) {
		var mk mark
		if m.Page.Ref == rep {
			mk = mark{Doc: m.Doc, Site: h.Head.Site, Group: dedup.Group{Size: h.Size}}
			if h.Best.Ref != rep {
				mk.Group.Best = h.Best
			}
		} else {
			mk = mark{Doc: m.Doc, Drop: true}
			exactCopies.Inc(ctx, 1)
			progress.pairs.Add(1) // a line of pairs
			exact(ExactCopy{Member: m.Page.Ref, Rep: rep, Signatures: m.Signatures})
		}
		if m.Page.Ref != h.Best.Ref {
			pages(repID, m.Page)
		}
		fn.merge.add(m.Batch, 64, func(ms *[]mark) { *ms = append(*ms, mk) }, marks)
		m = member{}
	}
	return nil
}

func (fn *collapseFn) FinishBundle(marks func(string, []mark), _ func(ExactCopy), _ func(string, Page)) {
	fn.merge.flush(marks)
}

// applyMarksFn joins a batch with its marks: copies leave it, the
// representatives of groups of more than one member get their group's Site
// and Group, and every other document is a group of one.
type applyMarksFn struct{}

func (*applyMarksFn) ProcessElement(id string, batches func(*Batch) bool, marks func(*[]mark) bool, emit func(Batch)) error {
	var b Batch
	if !batches(&b) {
		return nil // cannot happen: every mark comes from a batch
	}
	byDoc := map[int]mark{}
	var ms []mark
	for marks(&ms) {
		for _, m := range ms {
			byDoc[m.Doc] = m
		}
		ms = nil
	}
	docs := b.Docs[:0]
	for i, d := range b.Docs {
		m, ok := byDoc[i]
		switch {
		case !ok:
			d.Group = dedup.Group{Size: 1}
		case m.Drop:
			continue
		default:
			d.Site, d.Group = m.Site, m.Group
		}
		docs = append(docs, d)
	}
	if len(docs) == 0 {
		return nil
	}
	b.Docs = docs
	emit(b)
	return nil
}

// exactPairRecord is a copy's line of the pairs output.
func exactPairRecord(c ExactCopy) PairRecord { return c.PairRecord() }

// ExactPairs returns the pairs lines of the copies (PairRecord, Exact).
func ExactPairs(s beam.Scope, copies beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("ExactPairs"), exactPairRecord, copies)
}
