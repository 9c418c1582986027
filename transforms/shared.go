package transforms

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*dedup.BlockCount)(nil)).Elem())
	register.Function2x1[dedup.BlockCount, dedup.BlockCount, dedup.BlockCount](addBlockCounts)
	registerDoFn(&blockCountsFn{})
	registerDoFn(&blockRefsFn{})
	registerDoFn(&keyDocFn{})
	registerDoFn(&SharedBlockFn{})
	registerDoFn(&ResolveBlocksFn{})
	register.Emitter2[uint64, dedup.BlockCount]()
	register.Emitter2[uint64, []string]()
	register.Emitter2[string, uint64]()
	register.Iter1[dedup.BlockCount]()
	register.Iter1[[]string]()
	register.Iter1[uint64]()
}

var (
	sharedBlocksFound   = beam.NewCounter("shared", "blocks_shared")
	sharedBlocksDropped = beam.NewCounter("shared", "block_occurrences_dropped")
	sharedSigsDropped   = beam.NewCounter("shared", "signatures_dropped")
)

// StatSharedSignatures is the summary statistic of DropSharedBlocks: the
// signatures (with repeats) dropped as shared boilerplate.
const StatSharedSignatures = "shared_block_signatures"

// DropSharedBlocks drops the signatures of shared boilerplate blocks
// (dedup.DropSharedBlocks: a text block outside the main content of pages
// with at least p.SharedBlockPages different contexts, and of more pages
// than it is the main content of) from every document, and merges the other blocks into each
// document's vector. The counts per block hash are summed with a combiner;
// the verdict reaches the documents by two joins (CoGroupByKey on the
// block hash, then on the document's fixed-size warc.Ref.ID), so no worker
// holds more than one block's references or one document. Counts and
// references are merged per block hash where they are made (bundleMerge).
// With
// p.SharedBlockPages 0 the documents have no blocks and pass unchanged.
// The result equals dedup.DropSharedBlocks on the same documents. st gets
// the signatures dropped (StatSharedSignatures) and the language of each
// document's main content once they are dropped ("languages/<code>",
// dedup.Language).
func DropSharedBlocks(s beam.Scope, st *Stats, docs beam.PCollection, p config.Params) beam.PCollection {
	if p.SharedBlockPages == 0 {
		return docs
	}
	s = s.Scope("DropSharedBlocks")
	counts := beam.CombinePerKey(s, addBlockCounts, beam.ParDo(s, &blockCountsFn{}, docs))
	refs := beam.ParDo(s, &blockRefsFn{}, docs)
	shared := beam.ParDo(s, &SharedBlockFn{MinPages: p.SharedBlockPages}, beam.CoGroupByKey(s, refs, counts))
	keyed := beam.ParDo(s, &keyDocFn{}, docs)
	out, dropped, langs := beam.ParDo3(s, &ResolveBlocksFn{}, beam.CoGroupByKey(s, keyed, shared))
	st.Sum(s, StatSharedSignatures, dropped)
	st.Add(NameStats(s, langs))
	return out
}

func addBlockCounts(a, b dedup.BlockCount) dedup.BlockCount { return a.Add(b) }

// blockCountsFn emits each block of a document with its count
// (dedup.Count), summed per block hash within a bundle.
type blockCountsFn struct {
	merge bundleMerge[uint64, dedup.BlockCount]
}

func (fn *blockCountsFn) StartBundle(func(uint64, dedup.BlockCount)) { fn.merge.start(0) }

func (fn *blockCountsFn) ProcessElement(d Doc, emit func(uint64, dedup.BlockCount)) {
	ctx := dedup.NewContexts(d.Blocks)
	for _, b := range d.Blocks {
		c := dedup.Count(b, ctx.Of(b.Hash))
		fn.merge.add(b.Hash, 8*(len(c.Contexts)+len(c.All)+len(c.Before)+len(c.After)), func(sum *dedup.BlockCount) { *sum = sum.Add(c) }, emit)
	}
}

func (fn *blockCountsFn) FinishBundle(emit func(uint64, dedup.BlockCount)) { fn.merge.flush(emit) }

// blockRefsFn emits the IDs of the documents that have each block, keyed by
// the block hash and gathered per hash within a bundle.
type blockRefsFn struct {
	merge bundleMerge[uint64, []string]
}

func (fn *blockRefsFn) StartBundle(func(uint64, []string)) { fn.merge.start(0) }

func (fn *blockRefsFn) ProcessElement(d Doc, emit func(uint64, []string)) {
	if len(d.Blocks) == 0 {
		return
	}
	id := d.ID()
	for _, b := range d.Blocks {
		fn.merge.add(b.Hash, 16, func(ids *[]string) { *ids = append(*ids, id) }, emit)
	}
}

func (fn *blockRefsFn) FinishBundle(emit func(uint64, []string)) { fn.merge.flush(emit) }

// keyDocFn keys a document by its fixed-size warc.Ref.ID.
type keyDocFn struct{}

func (*keyDocFn) ProcessElement(d Doc, emit func(string, Doc)) { emit(d.ID(), d) }

// SharedBlockFn sees one block hash with the documents that have it and
// its summed counts, and if the block is shared boilerplate
// (dedup.BlockCount.Shared) emits (document ID, block hash) for each.
type SharedBlockFn struct {
	MinPages int
}

// ProcessElement judges one block.
func (fn *SharedBlockFn) ProcessElement(ctx context.Context, hash uint64, docs func(*[]string) bool, counts func(*dedup.BlockCount) bool, emit func(string, uint64)) {
	var total, c dedup.BlockCount
	for counts(&c) {
		total = total.Add(c)
	}
	if !total.Shared(fn.MinPages) {
		return
	}
	sharedBlocksFound.Inc(ctx, 1)
	var ids []string
	for docs(&ids) {
		for _, id := range ids {
			emit(id, hash)
		}
		ids = nil
	}
}

// ResolveBlocksFn joins a document with the hashes of its shared blocks
// and merges the others into its vector (dedup.ResolveBlocks); it emits
// the number of signatures dropped on its second output and the name of
// the document's language statistic on its third.
type ResolveBlocksFn struct{}

// ProcessElement resolves one document.
func (fn *ResolveBlocksFn) ProcessElement(ctx context.Context, id string, docs func(*Doc) bool, hashes func(*uint64) bool, emit func(Doc), dropped func(int), stat func(string)) error {
	var d Doc
	if !docs(&d) {
		return nil // cannot happen: every reference comes from a document
	}
	var other Doc
	if docs(&other) {
		return fmt.Errorf("shared blocks: records %s and %s share the document ID %x", d.Key(), other.Key(), id)
	}
	shared := map[uint64]bool{}
	var h uint64
	for hashes(&h) {
		shared[h] = true
	}
	r, blocks, sigs := dedup.ResolveBlocks(dedup.Doc{Ref: d.Ref, Vec: d.Vec, Blocks: d.Blocks}, func(h uint64) bool { return shared[h] })
	sharedBlocksDropped.Inc(ctx, int64(blocks))
	sharedSigsDropped.Inc(ctx, int64(sigs))
	dropped(sigs)
	if r.Lang != "" {
		stat(statLanguagePrefix + r.Lang)
	}
	emit(Doc{Ref: r.Ref, Vec: r.Vec})
	return nil
}
