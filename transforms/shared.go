package transforms

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*dedup.BlockCount)(nil)).Elem())
	register.Function2x1[dedup.BlockCount, dedup.BlockCount, dedup.BlockCount](addBlockCounts)
	registerDoFn(&blockCountsFn{})
	registerDoFn(&blockRefsFn{})
	register.Function1x2[Batch, string, Batch](keyBatch)
	registerDoFn(&sharedBlockFn{})
	registerDoFn(&resolveBatchFn{})
	register.Emitter2[uint64, dedup.BlockCount]()
	register.Emitter2[uint64, []string]()
	register.Emitter2[string, uint64]()
	register.Emitter2[string, Batch]()
	register.Emitter1[int]()
	register.Iter1[dedup.BlockCount]()
	register.Iter1[[]string]()
	register.Iter1[uint64]()
	register.Iter1[Batch]()
}

var (
	sharedBlocksFound   = beam.NewCounter("shared", "blocks_shared")
	sharedBlocksDropped = beam.NewCounter("shared", "block_occurrences_dropped")
	sharedSigsDropped   = beam.NewCounter("shared", "signatures_dropped")
)

// DropSharedBlocks drops the signatures of shared boilerplate blocks
// (dedup.DropSharedBlocks: a text block outside the main content of pages
// with at least p.SharedBlockPages different contexts, and of more pages
// than it is the main content of, or on pages of many contexts with many
// different neighbours) from every document of the batches, and merges
// the other blocks into each document's vector. The counts per block hash
// are summed with a combiner; the verdict reaches the documents by two
// joins (CoGroupByKey on the block hash with the IDs of the batches that
// have the block, then on the batch ID), so no worker holds more than one
// block's batch IDs or one batch. Counts and batch IDs are merged per
// block hash where they are made (bundleMerge). With p.SharedBlockPages 0
// the documents have no blocks and pass unchanged. The result equals
// dedup.DropSharedBlocks on the same documents. st gets the signatures
// dropped (output.StatSharedSignatures) and the language of each document's main
// content once they are dropped ("languages/<code>", dedup.Language).
func DropSharedBlocks(s beam.Scope, st *Stats, batches beam.PCollection, p config.Params) beam.PCollection {
	if p.SharedBlockPages == 0 {
		return batches
	}
	s = s.Scope("DropSharedBlocks")
	counts := beam.CombinePerKey(s, addBlockCounts, beam.ParDo(s, &blockCountsFn{}, batches))
	refs := beam.ParDo(s, &blockRefsFn{}, batches)
	shared := beam.ParDo(s, &sharedBlockFn{MinPages: p.SharedBlockPages}, beam.CoGroupByKey(s, refs, counts))
	out, dropped, langs := beam.ParDo3(s, &resolveBatchFn{}, beam.CoGroupByKey(s, beam.ParDo(s, keyBatch, batches), shared))
	st.Sum(s, output.StatSharedSignatures, dropped)
	st.Add(beam.CombinePerKey(s, sumInt, langs))
	return out
}

func addBlockCounts(a, b dedup.BlockCount) dedup.BlockCount { return a.Add(b) }

// keyBatch keys a batch by its ID.
func keyBatch(b Batch) (string, Batch) { return b.ID, b }

// blockCountsFn emits each block of each document with its count
// (dedup.Count), summed per block hash within a bundle.
type blockCountsFn struct {
	merge bundleMerge[uint64, dedup.BlockCount]
}

func (fn *blockCountsFn) StartBundle(func(uint64, dedup.BlockCount)) { fn.merge.start(0) }

func (fn *blockCountsFn) ProcessElement(b Batch, emit func(uint64, dedup.BlockCount)) {
	for _, d := range b.Docs {
		ctx := dedup.NewContexts(d.Blocks)
		for _, bl := range d.Blocks {
			c := dedup.Count(bl, ctx.Of(bl.Hash))
			fn.merge.add(bl.Hash, 8*(len(c.Contexts)+len(c.All)+len(c.Before)+len(c.After)), func(sum *dedup.BlockCount) { *sum = sum.Add(c) }, emit)
		}
	}
}

func (fn *blockCountsFn) FinishBundle(emit func(uint64, dedup.BlockCount)) { fn.merge.flush(emit) }

// blockRefsFn emits, for each block hash of a batch, the batch's ID,
// gathered per hash within a bundle.
type blockRefsFn struct {
	merge bundleMerge[uint64, []string]
}

func (fn *blockRefsFn) StartBundle(func(uint64, []string)) { fn.merge.start(0) }

func (fn *blockRefsFn) ProcessElement(b Batch, emit func(uint64, []string)) {
	seen := map[uint64]bool{}
	for _, d := range b.Docs {
		for _, bl := range d.Blocks {
			if seen[bl.Hash] {
				continue
			}
			seen[bl.Hash] = true
			fn.merge.add(bl.Hash, 16, func(ids *[]string) { *ids = append(*ids, b.ID) }, emit)
		}
	}
}

func (fn *blockRefsFn) FinishBundle(emit func(uint64, []string)) { fn.merge.flush(emit) }

// sharedBlockFn sees one block hash with the batches that have it and its
// summed counts, and if the block is shared boilerplate
// (dedup.BlockCount.Shared) emits (batch ID, block hash) for each.
type sharedBlockFn struct {
	MinPages int
}

func (fn *sharedBlockFn) ProcessElement(ctx context.Context, hash uint64, batches func(*[]string) bool, counts func(*dedup.BlockCount) bool, emit func(string, uint64)) {
	var total, c dedup.BlockCount
	for counts(&c) {
		total = total.Add(c)
	}
	if !total.Shared(fn.MinPages) {
		return
	}
	sharedBlocksFound.Inc(ctx, 1)
	var ids []string
	for batches(&ids) {
		for _, id := range ids {
			emit(id, hash)
		}
		ids = nil
	}
}

// resolveBatchFn joins a batch with the hashes of its shared blocks and
// merges each document's other blocks into its vector
// (dedup.ResolveBlocks); it emits the signatures dropped and the language
// statistics of the batch's documents on its other outputs.
type resolveBatchFn struct{}

func (fn *resolveBatchFn) ProcessElement(ctx context.Context, id string, batches func(*Batch) bool, hashes func(*uint64) bool, emit func(Batch), dropped func(int), stat func(string, int)) error {
	var b Batch
	if !batches(&b) {
		return nil // cannot happen: every reference comes from a batch
	}
	var other Batch
	if batches(&other) {
		return fmt.Errorf("shared blocks: two batches with the ID %x", id)
	}
	shared := map[uint64]bool{}
	var h uint64
	for hashes(&h) {
		shared[h] = true
	}
	isShared := func(h uint64) bool { return shared[h] }
	langs := map[string]int{}
	sigs := 0
	for i, d := range b.Docs {
		r, nb, ns := dedup.ResolveBlocks(d.Doc, isShared)
		sharedBlocksDropped.Inc(ctx, int64(nb))
		sharedSigsDropped.Inc(ctx, int64(ns))
		sigs += ns
		if len(d.Blocks) > 0 && r.Lang != "" { // without blocks, Extract counted it
			langs[output.StatLanguagePrefix+r.Lang]++
		}
		d.Doc = r
		b.Docs[i] = d
	}
	dropped(sigs)
	for k, v := range langs {
		stat(k, v)
	}
	emit(b)
	return nil
}
