package transforms

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

func init() {
	register.Function2x1[int, int, int](sumInt)
	register.Function2x1[int, int, int](maxInt)
	registerDoFn(&distinctSignaturesFn{})
	registerDoFn(&postingsFn{})
	register.Function1x1[Doc, int](vectorLength)
	registerDoFn(&metaFn{})
	registerDoFn(&KeepSignaturesFn{})
	registerDoFn(&RebuildVectorFn{})
	registerDoFn(&MinSignaturesFn{})
	register.Emitter2[uint64, int]()
	register.Emitter2[uint64, Posting]()
	register.Emitter2[string, Doc]()
	register.Emitter2[string, Entry]()
	register.Emitter1[int]()
	register.Iter1[Posting]()
	register.Iter1[int]()
	register.Iter1[Doc]()
	register.Iter1[Entry]()
}

var (
	idfSignaturesKept    = beam.NewCounter("idf", "distinct_signatures_kept")
	idfSignaturesDropped = beam.NewCounter("idf", "distinct_signatures_dropped")
	idfDocuments         = beam.NewCounter("idf", "documents")
	idfSkipped           = beam.NewCounter("idf", "skipped")
)

// FilterIDF is the corpus-level noise filter of §5.1 at any corpus size,
// followed by the MinSignatures drop. docs holds every document with at
// least one signature. When the configured range keeps every signature
// whatever the document frequencies (spotsig.IDFRange.KeepsAll, the
// default), no statistic is computed and only MinSignatures applies.
// Otherwise the document frequency df of each signature is summed per key
// with a combiner, N is a global count of docs, and a signature is kept when
// spotsig.IDFRange.Keep(df, N) says so (normalized idf = log(N/df)/log(N)
// inside [IDFMin, IDFMax]). Each document's vector is then rebuilt by two
// joins (CoGroupByKey on the signature, then on the document's fixed-size
// warc.Ref.ID): no side input ever holds more than the single number N. The
// result equals spotsig.FilterIDF on the same documents, followed by
// dropping those with |d| < MinSignatures (rejects, with
// dedup.ReasonTooFewSignatures). st gets Σ|d| before and after the filter
// and the number of documents kept.
func FilterIDF(s beam.Scope, st *Stats, docs beam.PCollection, p config.Params) (kept, rejects beam.PCollection) {
	s = s.Scope("FilterIDF")
	before := beam.ParDo(s, vectorLength, docs)
	filtered := docs
	if r := p.IDFRange(); !r.KeepsAll() {
		n := CountElements(s, docs)
		df := beam.CombinePerKey(s, sumInt, beam.ParDo(s, &distinctSignaturesFn{}, docs))
		postings := beam.ParDo(s, &postingsFn{}, docs)
		entries := beam.ParDo(s, &KeepSignaturesFn{Range: r},
			beam.CoGroupByKey(s, postings, df), beam.SideInput{Input: n})
		meta := beam.ParDo(s, &metaFn{}, docs)
		filtered = beam.ParDo(s, &RebuildVectorFn{}, beam.CoGroupByKey(s, meta, entries))
	}
	kept, rejects, after := beam.ParDo3(s, &MinSignaturesFn{MinSignatures: p.MinSignatures}, filtered)
	st.Sum(s, StatSignaturesBeforeIDF, before)
	st.Sum(s, StatSignaturesAfterIDF, after)
	st.Count(s, StatDocuments, kept)
	return kept, rejects
}

// vectorLength is a document's vector length |d| (signatures with repeats).
func vectorLength(d Doc) int { return d.Vec.Len() }

// distinctSignaturesFn emits (signature hash, 1) once per distinct signature
// of a document: summed per key this is the document frequency df.
type distinctSignaturesFn struct{}

func (*distinctSignaturesFn) ProcessElement(d Doc, emit func(uint64, int)) {
	for _, h := range d.Vec.Hashes {
		emit(h, 1)
	}
}

// postingsFn emits the document's inverted-list entries (hash, (doc, freq)).
type postingsFn struct{}

func (*postingsFn) ProcessElement(d Doc, emit func(uint64, Posting)) {
	id := d.ID()
	for i, h := range d.Vec.Hashes {
		emit(h, Posting{DocID: id, Freq: d.Vec.Freqs[i]})
	}
}

// metaFn keys the document's identity (without its vector) by its
// fixed-size warc.Ref.ID for the rebuild join.
type metaFn struct{}

func (*metaFn) ProcessElement(d Doc, emit func(string, Doc)) {
	d.Vec = spotsig.Vector{}
	emit(d.ID(), d)
}

// KeepSignaturesFn sees one signature with its inverted list and its
// document frequency, decides with spotsig.IDFRange.Keep(df, N) whether the
// signature survives, and if so emits (doc key, (hash, freq)) for each
// posting.
type KeepSignaturesFn struct {
	Range spotsig.IDFRange
}

// ProcessElement filters one signature.
func (fn *KeepSignaturesFn) ProcessElement(ctx context.Context, hash uint64, postings func(*Posting) bool, dfs func(*int) bool, n int, emit func(string, Entry)) {
	df, x := 0, 0
	for dfs(&x) {
		df += x
	}
	if !fn.Range.Keep(df, n) {
		idfSignaturesDropped.Inc(ctx, 1)
		return
	}
	idfSignaturesKept.Inc(ctx, 1)
	var post Posting
	for postings(&post) {
		emit(post.DocID, Entry{Hash: hash, Freq: post.Freq})
	}
}

// RebuildVectorFn joins a document's identity with the signatures kept for
// it and rebuilds its vector (ascending hashes); a document left with no
// signature is emitted with an empty vector (MinSignaturesFn rejects it).
type RebuildVectorFn struct{}

// ProcessElement rebuilds one document.
func (fn *RebuildVectorFn) ProcessElement(ctx context.Context, id string, metas func(*Doc) bool, entries func(*Entry) bool, emit func(Doc)) error {
	var d Doc
	if !metas(&d) {
		return nil // cannot happen: every kept posting comes from a document
	}
	var other Doc
	if metas(&other) {
		return fmt.Errorf("filter IDF: records %s and %s share the document ID %x", d.Key(), other.Key(), id)
	}
	var es []Entry
	var e Entry
	for entries(&e) {
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b Entry) int { return cmp.Compare(a.Hash, b.Hash) })
	d.Vec = spotsig.Vector{Hashes: make([]uint64, len(es)), Freqs: make([]uint32, len(es))}
	for i, e := range es {
		d.Vec.Hashes[i], d.Vec.Freqs[i] = e.Hash, e.Freq
	}
	emit(d)
	return nil
}

// MinSignaturesFn drops documents whose vector length |d| is below
// MinSignatures (or 0) as Rejects with dedup.ReasonTooFewSignatures. It emits
// every vector length on its third output, for signatures_after_idf.
type MinSignaturesFn struct {
	MinSignatures int
}

// ProcessElement checks one document (dedup.CheckMinSignatures).
func (fn *MinSignaturesFn) ProcessElement(ctx context.Context, d Doc, emit func(Doc), reject func(Reject), length func(int)) {
	length(d.Vec.Len())
	if r, ok := dedup.CheckMinSignatures(dedup.Doc{Ref: d.Ref, Vec: d.Vec}, fn.MinSignatures); !ok {
		countReject(ctx, idfSkipped, "idf", r.Reason)
		reject(r)
		return
	}
	idfDocuments.Inc(ctx, 1)
	emit(d)
}
