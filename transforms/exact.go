package transforms

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/warc"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*ExactCopy)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*warc.Ref)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*dedup.Head)(nil)).Elem())
	registerDoFn(&exactKeyFn{})
	register.Function2x1[dedup.Head, dedup.Head, dedup.Head](dedup.MergeHeads)
	registerDoFn(&collapseFn{})
	register.Emitter2[string, dedup.Head]()
	register.Emitter1[ExactCopy]()
	register.Iter1[dedup.Head]()
	register.Function1x1[ExactCopy, PairRecord](exactPairRecord)
	register.Function1x2[ExactCopy, string, string](copyByMember)
}

var exactCopies = beam.NewCounter("exact", "copies")

// StatExactCopies is the summary statistic of CollapseExact: documents
// collapsed into a representative (the pairs lines with "exact": true).
const StatExactCopies = "exact_copies"

// ExactCopy is a document collapsed into its exact-copy representative
// (dedup.ExactCopy).
type ExactCopy = dedup.ExactCopy

// CollapseExact collapses exact copies before partitioning (issue 12): of
// the documents (Doc, IDF-filtered) with the same vector (dedup.ExactKey),
// only the representative (the first in warc.Ref order, dedup.FirstRef)
// goes on to matching, carrying the site of the whole group (Doc.Site);
// each other one becomes an ExactCopy. The group's dedup.Head is found by a
// combiner on the 16-byte key (dedup.MergeHeads), so no worker holds a
// group; the documents are then joined with it (CoGroupByKey on the key)
// and streamed. Returns the representatives (Doc) and the copies
// (ExactCopy); their number is added to st as exact_copies and to the
// counter exact/copies. The result equals dedup.Collapse's.
func CollapseExact(s beam.Scope, st *Stats, docs beam.PCollection) (reps, copies beam.PCollection) {
	s = s.Scope("CollapseExact")
	keyed, heads := beam.ParDo2(s, &exactKeyFn{}, docs)
	head := beam.CombinePerKey(s, dedup.MergeHeads, heads)
	reps, copies = beam.ParDo2(s, &collapseFn{}, beam.CoGroupByKey(s, keyed, head))
	st.Count(s, StatExactCopies, copies)
	return reps, copies
}

// exactKeyFn keys a document, and its Head alone, by its exact-copy key.
type exactKeyFn struct{}

func (*exactKeyFn) ProcessElement(d Doc, doc func(string, Doc), head func(string, dedup.Head)) {
	k := dedup.ExactKey(d.Vec)
	doc(k, d)
	head(k, dedup.NewHead(d.Ref))
}

// collapseFn passes a key's representative on and turns every other
// document of the key into an ExactCopy.
type collapseFn struct{}

func (*collapseFn) ProcessElement(ctx context.Context, key string, docs func(*Doc) bool, heads func(*dedup.Head) bool, rep func(Doc), exact func(ExactCopy)) error {
	var h dedup.Head
	if !heads(&h) {
		return fmt.Errorf("collapse: exact-copy key %x has no representative", key)
	}
	r := h.Rep
	var d Doc
	for docs(&d) {
		if d.Ref == r {
			d.Site = h.Site
			rep(d)
		} else {
			exactCopies.Inc(ctx, 1)
			progress.pairs.Add(1) // a line of pairs
			exact(ExactCopy{Member: d.Ref, Rep: r, Signatures: d.Vec.Len()})
		}
		d = Doc{}
	}
	return nil
}

// exactPairRecord is a copy's line of the pairs output.
func exactPairRecord(c ExactCopy) PairRecord { return c.PairRecord() }

// copyByMember keys a copy's representative by the member's key.
func copyByMember(c ExactCopy) (string, string) { return c.Member.ID(), c.Rep.ID() }

// ExactPairs returns the pairs lines of the copies (PairRecord, Exact).
func ExactPairs(s beam.Scope, copies beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("ExactPairs"), exactPairRecord, copies)
}
