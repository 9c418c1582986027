package transforms

import (
	"context"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

func init() {
	register.Function2x1[int, int, int](sumInt)
	register.Function2x1[int, int, int](maxInt)
	register.DoFn2x0[Doc, func(uint64, int)](&distinctSignaturesFn{})
	register.DoFn2x0[Doc, func(uint64, Posting)](&postingsFn{})
	register.DoFn3x0[Doc, func(string, Doc), func(int)](&metaFn{})
	register.DoFn6x0[context.Context, uint64, func(*Posting) bool, func(*int) bool, int, func(string, Entry)](&KeepSignaturesFn{})
	register.DoFn7x0[context.Context, string, func(*Doc) bool, func(*Entry) bool, func(Doc), func(Reject), func(int)](&RebuildVectorFn{})
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

// ReasonTooFewSignatures: after the IDF filter the document's vector length
// |d| is below Params.MinSignatures.
const ReasonTooFewSignatures = "too-few-signatures"

var (
	idfSignaturesKept    = beam.NewCounter("idf", "distinct_signatures_kept")
	idfSignaturesDropped = beam.NewCounter("idf", "distinct_signatures_dropped")
	idfDocuments         = beam.NewCounter("idf", "documents")
	idfSkipped           = beam.NewCounter("idf", "skipped")
)

// IDFResult is what FilterIDF returns.
type IDFResult struct {
	Docs    beam.PCollection // Doc with the IDF-filtered vector, |d| >= MinSignatures
	Rejects beam.PCollection // Reject, reason ReasonTooFewSignatures
	// Counts: each a PCollection<int> holding exactly one element.
	N                   beam.PCollection // documents entering the filter (all have >= 1 signature)
	SignaturesBeforeIDF beam.PCollection // Σ|d| over the documents entering the filter
	SignaturesAfterIDF  beam.PCollection // Σ|d| over the same documents after the filter, before the MinSignatures drop
}

// FilterIDF is the corpus-level noise filter of §5.1 at any corpus size.
// docs holds every document with at least one signature. The document
// frequency df of each signature is summed per key with a combiner, N is a
// global count of docs, and a signature is kept when
// spotsig.IDFRange.Keep(df, N) says so (normalized idf = log(N/df)/log(N)
// inside [IDFMin, IDFMax]). Each document's vector is then rebuilt by two
// joins (CoGroupByKey on the signature, then on the document key): no side
// input ever holds more than the single number N. The result equals
// spotsig.FilterIDF on the same documents, followed by dropping those with
// |d| < MinSignatures.
func FilterIDF(s beam.Scope, docs beam.PCollection, p Params) IDFResult {
	s = s.Scope("FilterIDF")
	n := CountElements(s, docs)

	df := beam.CombinePerKey(s, sumInt, beam.ParDo(s, &distinctSignaturesFn{}, docs))
	postings := beam.ParDo(s, &postingsFn{}, docs)
	kept := beam.ParDo(s, &KeepSignaturesFn{Range: p.IDFRange()},
		beam.CoGroupByKey(s, postings, df), beam.SideInput{Input: n})

	meta, lengthsBefore := beam.ParDo2(s, &metaFn{}, docs)
	out, rejects, lengthsAfter := beam.ParDo3(s, &RebuildVectorFn{MinSignatures: p.MinSignatures},
		beam.CoGroupByKey(s, meta, kept))
	return IDFResult{
		Docs:                out,
		Rejects:             rejects,
		N:                   n,
		SignaturesBeforeIDF: SumInts(s, lengthsBefore),
		SignaturesAfterIDF:  SumInts(s, lengthsAfter),
	}
}

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
	key := d.Key()
	for i, h := range d.Vec.Hashes {
		emit(h, Posting{DocKey: key, Freq: d.Vec.Freqs[i]})
	}
}

// metaFn keys the document's metadata (without its vector) by Doc.Key for
// the rebuild join, and emits its vector length |d|.
type metaFn struct{}

func (*metaFn) ProcessElement(d Doc, emit func(string, Doc), length func(int)) {
	length(d.Vec.Len())
	d.Vec = spotsig.Vector{}
	emit(d.Key(), d)
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
		emit(post.DocKey, Entry{Hash: hash, Freq: post.Freq})
	}
}

// RebuildVectorFn joins a document's metadata with the signatures kept for
// it and rebuilds its vector (ascending hashes). Documents with fewer than
// MinSignatures signatures (|d|) left become Rejects. It emits every rebuilt
// vector length on its third output, for signatures_after_idf.
type RebuildVectorFn struct {
	MinSignatures int
}

// ProcessElement rebuilds one document.
func (fn *RebuildVectorFn) ProcessElement(ctx context.Context, key string, metas func(*Doc) bool, entries func(*Entry) bool, emit func(Doc), reject func(Reject), length func(int)) {
	var d Doc
	if !metas(&d) {
		return // cannot happen: every kept posting comes from a document
	}
	var es []Entry
	var e Entry
	for entries(&e) {
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b Entry) int {
		switch {
		case a.Hash < b.Hash:
			return -1
		case a.Hash > b.Hash:
			return 1
		}
		return 0
	})
	d.Vec = spotsig.Vector{Hashes: make([]uint64, len(es)), Freqs: make([]uint32, len(es))}
	for i, e := range es {
		d.Vec.Hashes[i], d.Vec.Freqs[i] = e.Hash, e.Freq
	}
	l := d.Vec.Len()
	length(l)
	if l < fn.MinSignatures || l == 0 {
		countReject(ctx, idfSkipped, "idf", ReasonTooFewSignatures)
		reject(Reject{File: d.File, Offset: d.Offset, Inner: d.Inner, RecordID: d.RecordID, URI: d.URI, Reason: ReasonTooFewSignatures,
			Detail: itoa(l) + " signatures after the IDF filter, minimum " + itoa(fn.MinSignatures)})
		return
	}
	idfDocuments.Inc(ctx, 1)
	emit(d)
}
