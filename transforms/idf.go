package transforms

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*posting)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*entry)(nil)).Elem())
	register.Function2x1[int, int, int](sumInt)
	register.Function2x1[int, int, int](maxInt)
	registerDoFn(&distinctSignaturesFn{})
	registerDoFn(&postingsFn{})
	register.Function1x1[docBatch, int](batchSignatures)
	register.Function1x1[docBatch, int](batchDocs)
	registerDoFn(&keepSignaturesFn{})
	registerDoFn(&rebuildBatchFn{})
	registerDoFn(&minSignaturesFn{})
	register.Emitter2[uint64, int]()
	register.Emitter2[uint64, []posting]()
	register.Emitter2[string, []entry]()
	register.Iter1[[]posting]()
	register.Iter1[[]entry]()
	register.Iter1[int]()
}

var (
	idfSignaturesKept    = beam.NewCounter("idf", "distinct_signatures_kept")
	idfSignaturesDropped = beam.NewCounter("idf", "distinct_signatures_dropped")
	idfDocuments         = beam.NewCounter("idf", "documents")
	idfSkipped           = beam.NewCounter("idf", "skipped")
)

// posting is one entry of a signature's inverted list during the IDF join:
// the document (its batch and its index in the batch) and the signature's
// frequency in it.
type posting struct {
	Batch string
	Doc   int
	Freq  uint32
}

// entry is one (signature hash, frequency) component of a batch's
// document Doc while its vector is rebuilt after the IDF filter.
type entry struct {
	Doc  int
	Hash uint64
	Freq uint32
}

// FilterIDF is the corpus-level noise filter of §5.1 at any corpus size,
// followed by the MinSignatures drop, on batches of documents with at
// least one signature. When the configured range keeps every signature
// whatever the document frequencies (spotsig.IDFRange.KeepsAll, the
// default), no statistic is computed and only MinSignatures applies.
// Otherwise the document frequency df of each signature is summed per key
// with a combiner, N is a global count of documents, and a signature is
// kept when spotsig.IDFRange.Keep(df, N) says so (normalized idf =
// log(N/df)/log(N) inside [IDFMin, IDFMax]). Each batch's vectors are then
// rebuilt by two joins (CoGroupByKey on the signature with its postings,
// then on the batch ID with the kept entries): no side input ever holds
// more than the single number N. The result equals spotsig.FilterIDF on
// the same documents, followed by dropping those with |d| < MinSignatures
// (rejects, with output.ReasonTooFewSignatures; their pages go to unsigned,
// for Decide). st gets Σ|d| before and after the filter and the number of
// documents kept.
func FilterIDF(s beam.Scope, st *Stats, batches beam.PCollection, p config.Params) (kept, rejects, unsigned beam.PCollection) {
	s = s.Scope("FilterIDF")
	before := beam.ParDo(s, batchSignatures, batches)
	filtered := batches
	if r := p.IDFRange(); !r.KeepsAll() {
		n := sumInts(s, beam.ParDo(s, batchDocs, batches))
		df := beam.CombinePerKey(s, sumInt, beam.ParDo(s, &distinctSignaturesFn{}, batches))
		postings := beam.ParDo(s, &postingsFn{}, batches)
		entries := beam.ParDo(s, &keepSignaturesFn{Range: r},
			beam.CoGroupByKey(s, postings, df), beam.SideInput{Input: n})
		filtered = beam.ParDo(s, &rebuildBatchFn{}, beam.CoGroupByKey(s, beam.ParDo(s, keyBatch, batches), entries))
	}
	out := beam.ParDoN(s, &minSignaturesFn{MinSignatures: p.MinSignatures}, filtered)
	kept, rejects, unsigned = out[0], out[1], out[2]
	st.Sum(s, output.StatSignaturesBeforeIDF, before)
	st.Sum(s, output.StatSignaturesAfterIDF, out[3])
	st.Sum(s, output.StatDocuments, out[4])
	return kept, rejects, unsigned
}

// batchSignatures is Σ|d| over a batch's documents.
func batchSignatures(b docBatch) int {
	n := 0
	for _, d := range b.Docs {
		n += d.Vec.Len()
	}
	return n
}

// batchDocs is the number of documents of a batch.
func batchDocs(b docBatch) int { return len(b.Docs) }

// distinctSignaturesFn emits (signature hash, number of documents that
// have it) summed within a bundle: summed per key this is the document
// frequency df.
type distinctSignaturesFn struct {
	merge bundleMerge[uint64, int]
}

func (fn *distinctSignaturesFn) StartBundle(func(uint64, int)) { fn.merge.start(0) }

func (fn *distinctSignaturesFn) ProcessElement(b docBatch, emit func(uint64, int)) {
	for _, d := range b.Docs {
		for _, h := range d.Vec.Hashes {
			fn.merge.add(h, 8, func(n *int) { *n++ }, emit)
		}
	}
}

func (fn *distinctSignaturesFn) FinishBundle(emit func(uint64, int)) { fn.merge.flush(emit) }

// postingsFn emits the batch's inverted-list entries (hash, postings),
// gathered per hash within a bundle.
type postingsFn struct {
	merge bundleMerge[uint64, []posting]
}

func (fn *postingsFn) StartBundle(func(uint64, []posting)) { fn.merge.start(0) }

func (fn *postingsFn) ProcessElement(b docBatch, emit func(uint64, []posting)) {
	for i, d := range b.Docs {
		for k, h := range d.Vec.Hashes {
			p := posting{Batch: b.ID, Doc: i, Freq: d.Vec.Freqs[k]}
			fn.merge.add(h, 40, func(ps *[]posting) { *ps = append(*ps, p) }, emit)
		}
	}
}

func (fn *postingsFn) FinishBundle(emit func(uint64, []posting)) { fn.merge.flush(emit) }

// keepSignaturesFn sees one signature with its inverted list and its
// document frequency, decides with spotsig.IDFRange.Keep(df, N) whether the
// signature survives, and if so emits (batch ID, entries) for its
// postings, one element per batch.
type keepSignaturesFn struct {
	Range spotsig.IDFRange
}

func (fn *keepSignaturesFn) ProcessElement(ctx context.Context, hash uint64, postings func(*[]posting) bool, dfs func(*int) bool, n int, emit func(string, []entry)) {
	df, x := 0, 0
	for dfs(&x) {
		df += x
	}
	if !fn.Range.Keep(df, n) {
		idfSignaturesDropped.Inc(ctx, 1)
		return
	}
	idfSignaturesKept.Inc(ctx, 1)
	byBatch := map[string][]entry{}
	var ps []posting
	for postings(&ps) {
		for _, p := range ps {
			byBatch[p.Batch] = append(byBatch[p.Batch], entry{Doc: p.Doc, Hash: hash, Freq: p.Freq})
		}
		ps = nil
	}
	for b, es := range byBatch {
		emit(b, es)
	}
}

// rebuildBatchFn joins a batch with the signatures kept for its documents
// and rebuilds their vectors (ascending hashes); a document left with no
// signature keeps an empty vector (minSignaturesFn rejects it).
type rebuildBatchFn struct{}

func (fn *rebuildBatchFn) ProcessElement(ctx context.Context, id string, batches func(*docBatch) bool, entries func(*[]entry) bool, emit func(docBatch)) error {
	var b docBatch
	if !batches(&b) {
		return nil // cannot happen: every kept posting comes from a batch
	}
	var other docBatch
	if batches(&other) {
		return fmt.Errorf("filter IDF: two batches with the ID %x", id)
	}
	per := make([][]entry, len(b.Docs))
	var es []entry
	for entries(&es) {
		for _, e := range es {
			if e.Doc < 0 || e.Doc >= len(per) {
				return fmt.Errorf("filter IDF: entry for document %d of a batch of %d", e.Doc, len(per))
			}
			per[e.Doc] = append(per[e.Doc], e)
		}
		es = nil
	}
	for i := range b.Docs {
		slices.SortFunc(per[i], func(a, b entry) int { return cmp.Compare(a.Hash, b.Hash) })
		v := spotsig.Vector{Hashes: make([]uint64, len(per[i])), Freqs: make([]uint32, len(per[i]))}
		for k, e := range per[i] {
			v.Hashes[k], v.Freqs[k] = e.Hash, e.Freq
		}
		b.Docs[i].Vec = v
	}
	emit(b)
	return nil
}

// minSignaturesFn drops the documents whose vector length |d| is below
// MinSignatures (or 0) as Rejects with output.ReasonTooFewSignatures and
// their pages as unsigned; it emits the batch's Σ|d| and its documents
// kept on its last two outputs.
type minSignaturesFn struct {
	MinSignatures int
}

func (fn *minSignaturesFn) ProcessElement(ctx context.Context, b docBatch, emit func(docBatch), reject func(output.Reject), unsigned func(dedup.Page), length, kept func(int)) {
	// A batch that loses no document goes on as it is: a copy would hold
	// every document twice while the stage before still holds its input
	// (the direct runner's side-input wait in MarkTemplates). Otherwise a
	// new slice: the input batch may be shared with other consumers of the
	// same PCollection (fused stages see one decoded element), and a DoFn
	// must not modify its input.
	var docs []doc
	n := 0
	for i, d := range b.Docs {
		n += d.Vec.Len()
		if r, ok := dedup.CheckMinSignatures(d.Doc, fn.MinSignatures); !ok {
			countReject(ctx, idfSkipped, "idf", r.Reason)
			reject(r)
			unsigned(d.Page)
			if docs == nil {
				docs = append(make([]doc, 0, len(b.Docs)-1), b.Docs[:i]...)
			}
			continue
		}
		idfDocuments.Inc(ctx, 1)
		if docs != nil {
			docs = append(docs, d)
		}
	}
	if docs != nil {
		b.Docs = docs
	}
	length(n)
	kept(len(b.Docs))
	if len(b.Docs) > 0 {
		emit(b)
	}
}
