package transforms

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*sharedBlock)(nil)).Elem())
	registerDoFn(&blockShardsFn{})
	register.Function1x2[docBatch, string, docBatch](keyBatch)
	registerDoFn(&packBatchFn{})
	registerDoFn(&sharedBlocksFn{})
	registerDoFn(&resolveBatchFn{})
	register.Emitter2[int, []byte]()
	register.Emitter2[string, []sharedBlock]()
	register.Emitter2[string, docBatch]()
	register.Emitter1[int]()
	register.Iter1[[]byte]()
	register.Iter1[[]sharedBlock]()
	register.Iter1[docBatch]()
}

var (
	sharedBlocksFound   = beam.NewCounter("shared", "blocks_shared")
	sharedLinesFound    = beam.NewCounter("shared", "lines_shared")
	sharedBlocksDropped = beam.NewCounter("shared", "block_occurrences_dropped")
	sharedSigsDropped   = beam.NewCounter("shared", "signatures_dropped")
	sharedTextPages     = beam.NewCounter("shared", "shared_text_pages")
)

// DropSharedBlocks drops the signatures of shared boilerplate blocks
// (dedup.DropSharedBlocks: a text block outside the main content of pages
// with at least p.SharedBlockPages different contexts, and of more pages
// than it is the main content of, or on pages of many contexts with many
// different neighbours) from every document of the batches that has other
// signed blocks, and merges the other blocks into each document's vector
// (a document of shared blocks only keeps them, hashed with its site:
// dedup.ResolveBlocks). Each block's counts
// (dedup.Count) and the IDs of the batches that have it are merged per
// block hash where they are made, then shuffled in encoded parts
// (appendBlockPart) under the block hash's shard (bundlemerge.go, "Sharded
// shuffles"); the worker of a shard
// sums each block's counts (dedup.BlockCount.Add, associative and
// commutative) and sends the shared blocks' hashes to the batches that
// have them, which a join on the batch ID (CoGroupByKey) hands to each
// batch. No worker holds more than one shard's blocks or one batch. With
// p.SharedBlockPages 0 the documents have no blocks and pass unchanged.
// The result equals dedup.DropSharedBlocks on the same documents. st gets
// the signatures dropped (output.StatSharedSignatures), the pages of shared
// text only (output.StatSharedTextPages) and the language of
// each document's main content once they are dropped ("languages/<code>",
// dedup.Language).
func DropSharedBlocks(s beam.Scope, st *Stats, batches beam.PCollection, p config.Params) beam.PCollection {
	if p.SharedBlockPages == 0 {
		return batches
	}
	s = s.Scope("DropSharedBlocks")
	parts := beam.ParDo(s, &blockShardsFn{Limit: cmp.Or(mergeLimit, blockMergeBytes)}, batches)
	shared := beam.ParDo(s, &sharedBlocksFn{MinPages: p.SharedBlockPages}, beam.GroupByKey(s, parts))
	out, dropped, langs := beam.ParDo3(s, &resolveBatchFn{}, beam.CoGroupByKey(s, beam.ParDo(s, &packBatchFn{}, batches), shared))
	st.Sum(s, output.StatSharedSignatures, dropped)
	st.Add(beam.CombinePerKey(s, sumInt, langs))
	return out
}

// keyBatch keys a batch by its ID.
func keyBatch(b docBatch) (string, docBatch) { return b.ID, b }

// packBatchFn keys a batch by its ID, encoded (encodeBatch), for the
// join that waits for the shared blocks. The direct runner holds every
// input of a join as it came until the join runs, and the batches waiting
// there, blocks and all, are the largest thing a run holds: encoded they
// take a fraction of their Go values' memory, and the collector has
// nothing in them to scan (docs/benchmarks.md, "Batches held encoded").
// Other runners encode them anyway. A batch is encoded into a buffer
// reused across batches, then copied at its size.
type packBatchFn struct{ buf []byte }

func (fn *packBatchFn) ProcessElement(b docBatch) (string, []byte) {
	fn.buf = appendBatch(fn.buf[:0], b)
	return b.ID, bytes.Clone(fn.buf)
}

// blockEntry is one block's counts and the IDs of the batches that have
// it, as far as one bundle saw them.
type blockEntry struct {
	Hash    uint64
	Count   dedup.BlockCount
	Batches []string
}

// bytes estimates the entry's encoded size.
func (e *blockEntry) bytes() int {
	n := 32 + 8*(len(e.Count.Contexts)+len(e.Count.All)+len(e.Count.Before)+len(e.Count.After))
	for _, id := range e.Batches {
		n += 8 + len(id)
	}
	return n
}

// appendBlockPart appends a part of entries as blockShardsFn sends them:
// a version byte (docCoderVersion); the distinct batch IDs of the part,
// their number as a uvarint and each as uvarint length + bytes; the number
// of entries as a uvarint; and per entry its Hash (8 bytes,
// little-endian), Periphery and Main (uvarints), the lists Contexts, All,
// Before and After (each its length as a uvarint, then its values, 8 bytes
// little-endian each) and its batches (their number as a uvarint, then
// each as its index among the IDs, a uvarint). A short line's entry takes
// about 25 bytes, against some 190 held as a Go value: the direct runner
// holds every part until the shuffle's consumer runs (docs/benchmarks.md,
// "Block counts held encoded").
func appendBlockPart(buf []byte, part []blockEntry) []byte {
	index := map[string]int{}
	var ids []string
	for i := range part {
		for _, id := range part[i].Batches {
			if _, ok := index[id]; !ok {
				index[id] = len(ids)
				ids = append(ids, id)
			}
		}
	}
	buf = binary.AppendUvarint(append(buf, docCoderVersion), uint64(len(ids)))
	for _, id := range ids {
		buf = appendString(buf, id)
	}
	buf = binary.AppendUvarint(buf, uint64(len(part)))
	for i := range part {
		e := &part[i]
		buf = binary.LittleEndian.AppendUint64(buf, e.Hash)
		buf = binary.AppendUvarint(binary.AppendUvarint(buf, uint64(e.Count.Periphery)), uint64(e.Count.Main))
		for _, l := range [][]uint64{e.Count.Contexts, e.Count.All, e.Count.Before, e.Count.After} {
			buf = binary.AppendUvarint(buf, uint64(len(l)))
			for _, h := range l {
				buf = binary.LittleEndian.AppendUint64(buf, h)
			}
		}
		buf = binary.AppendUvarint(buf, uint64(len(e.Batches)))
		for _, id := range e.Batches {
			buf = binary.AppendUvarint(buf, uint64(index[id]))
		}
	}
	return buf
}

// errBlockPart is a block part's list not strictly ascending or longer
// than config.MaxSharedBlockPages, or a batch index past its IDs.
var errBlockPart = errors.New("transforms: block part lists not ascending or too long, or batch index out of range")

// decodeBlockPart decodes the bytes written by appendBlockPart. Besides
// the decoder's checks (version, truncation, trailing bytes, non-minimal
// varints), lists not strictly ascending or longer than
// config.MaxSharedBlockPages and batch indexes past the IDs are errors
// (errBlockPart); it never allocates more than the input can describe.
func decodeBlockPart(b []byte) ([]blockEntry, error) {
	r, err := start(b, "block part")
	if err != nil {
		return nil, err
	}
	ids := make([]string, r.count(1)) // every ID needs >= 1 byte
	for i := range ids {
		ids[i] = r.string()
	}
	part := make([]blockEntry, r.count(15)) // every entry needs >= 15 bytes
	values := make([]uint64, 0, len(r.b)/8) // every list value takes 8
	list := func() []uint64 {
		n := r.uvarint()
		if r.err == nil && (n > config.MaxSharedBlockPages || n > uint64(len(r.b))/8) {
			r.err = errBlockPart
		}
		if r.err != nil {
			return nil
		}
		from := len(values)
		for i := range int(n) {
			h := r.uint64()
			if i > 0 && h <= values[len(values)-1] && r.err == nil {
				r.err = errBlockPart
			}
			values = append(values, h)
		}
		if n == 0 {
			return nil
		}
		return values[from:len(values):len(values)]
	}
	for i := range part {
		e := &part[i]
		e.Hash = r.uint64()
		e.Count.Periphery, e.Count.Main = int(r.uvarint()), int(r.uvarint())
		e.Count.Contexts, e.Count.All, e.Count.Before, e.Count.After = list(), list(), list(), list()
		e.Batches = make([]string, r.count(1)) // every index needs >= 1 byte
		for j := range e.Batches {
			x := r.uvarint()
			if r.err == nil && x >= uint64(len(ids)) {
				r.err = errBlockPart
			}
			if r.err != nil {
				break
			}
			e.Batches[j] = ids[x]
		}
		if r.err != nil {
			break
		}
	}
	if err := r.end("block part"); err != nil {
		return nil, err
	}
	return part, nil
}

// blockMergeBytes is the estimated bytes (bundleMerge.put) blockShardsFn
// holds before it flushes: 2 MB, about 5 MB of Go values. Its parts are
// encoded, so a flush turns some 190 bytes an entry into about 25 (a short
// line's); the cost of flushing often is a block's entry sent once per
// flush rather than once per bundle. With mergeBytes (64 MB, some 150 MB
// held) the merge was the largest thing the gold sets' run held
// (docs/benchmarks.md, "Block counts held encoded").
const blockMergeBytes = 2 << 20

// blockShardsFn merges each block's counts and batch IDs within a bundle
// and emits them in parts keyed by the block hash's shard, encoded
// (appendBlockPart).
type blockShardsFn struct {
	Limit int // bytes held before a flush (bundleMerge); 0: mergeBytes
	merge bundleMerge[uint64, blockEntry]
	buf   []byte
}

func (fn *blockShardsFn) StartBundle(func(int, []byte)) { fn.merge.start(fn.Limit) }

func (fn *blockShardsFn) ProcessElement(b docBatch, emit func(int, []byte)) {
	full := false
	put := func(h uint64, c dedup.BlockCount) {
		full = fn.merge.put(h, 8*(len(c.Contexts)+len(c.All)+len(c.Before)+len(c.After))+8, func(e *blockEntry) {
			if e.Batches == nil { // a new entry takes c, made for it
				e.Hash, e.Count, e.Batches = h, c, []string{b.ID}
				return
			}
			e.Count.Merge(c) // the entry's lists are its own
			if e.Batches[len(e.Batches)-1] != b.ID {
				e.Batches = append(e.Batches, b.ID)
			}
		}) || full
	}
	for _, d := range b.Docs {
		ctx := dedup.NewContexts(d.Blocks)
		for _, bl := range d.Blocks {
			put(bl.Hash, dedup.Count(bl, ctx.Of(bl.Hash)))
		}
		for _, l := range d.Periphery.Lines {
			put(l.Hash, dedup.CountLine(l, ctx.Of(l.Hash)))
		}
	}
	if full {
		fn.FinishBundle(emit)
	}
}

func (fn *blockShardsFn) FinishBundle(emit func(int, []byte)) {
	fn.merge.flushShards(keyShard, (*blockEntry).bytes, func(sh int, part []blockEntry) {
		fn.buf = appendBlockPart(fn.buf[:0], part)
		emit(sh, bytes.Clone(fn.buf))
	})
}

// sharedBlock is the hash of a shared block or short line
// (dedup.BlockCount.Shared) sent to a batch that has it, and whether it is
// boilerplate too (dedup.BlockCount.Boilerplate).
type sharedBlock struct {
	Hash        uint64
	Boilerplate bool
}

// sharedBlocksFn sees the parts of one shard, sums each block's counts, and
// for every shared block (dedup.BlockCount.Shared) sends its hash to each
// batch that has it; the hashes are gathered per batch ID within a bundle.
type sharedBlocksFn struct {
	MinPages int
	merge    bundleMerge[string, []sharedBlock]
}

func (fn *sharedBlocksFn) StartBundle(func(string, []sharedBlock)) { fn.merge.start(0) }

func (fn *sharedBlocksFn) ProcessElement(ctx context.Context, _ int, parts func(*[]byte) bool, emit func(string, []sharedBlock)) error {
	blocks := map[uint64]*blockEntry{}
	var enc []byte
	for parts(&enc) {
		part, err := decodeBlockPart(enc)
		if err != nil {
			return fmt.Errorf("shared blocks: %w", err)
		}
		for i := range part {
			e := &part[i]
			if sum, ok := blocks[e.Hash]; ok {
				sum.Count = sum.Count.Add(e.Count)
				sum.Batches = append(sum.Batches, e.Batches...)
			} else {
				blocks[e.Hash] = e
			}
		}
		enc = nil
	}
	for h, e := range blocks {
		if !e.Count.Shared(fn.MinPages) {
			continue
		}
		if len(e.Count.All) == 0 { // a short line's count (dedup.CountLine)
			sharedLinesFound.Inc(ctx, 1)
		} else {
			sharedBlocksFound.Inc(ctx, 1)
		}
		for _, id := range e.Batches {
			sb := sharedBlock{Hash: h, Boilerplate: e.Count.Main == 0}
			fn.merge.add(id, 9, func(hs *[]sharedBlock) { *hs = append(*hs, sb) }, emit)
		}
	}
	return nil
}

func (fn *sharedBlocksFn) FinishBundle(emit func(string, []sharedBlock)) { fn.merge.flush(emit) }

// resolveBatchFn joins a batch with the hashes of its shared blocks and
// merges each document's other blocks into its vector
// (dedup.ResolveBlocks); it emits the signatures dropped, and the pages of
// shared text only and the language statistics of the batch's documents,
// on its other outputs.
type resolveBatchFn struct{}

func (fn *resolveBatchFn) ProcessElement(ctx context.Context, id string, batches func(*[]byte) bool, hashes func(*[]sharedBlock) bool, emit func(docBatch), dropped func(int), stat func(string, int)) error {
	var enc, other []byte
	if !batches(&enc) {
		return nil // cannot happen: every reference comes from a batch
	}
	if batches(&other) {
		return fmt.Errorf("shared blocks: two batches with the ID %x", id)
	}
	b, err := decodeBatch(enc)
	if err != nil {
		return fmt.Errorf("shared blocks: %w", err)
	}
	shared := map[uint64]bool{} // the shared blocks' hashes: whether boilerplate
	var hs []sharedBlock
	for hashes(&hs) {
		for _, h := range hs {
			shared[h.Hash] = h.Boilerplate
		}
		hs = nil
	}
	isShared := func(h uint64) bool { _, ok := shared[h]; return ok }
	isBoiler := func(h uint64) bool { return shared[h] }
	langs := map[string]int{}
	sigs := 0
	only := 0
	for i, d := range b.Docs {
		r, nb, ns, o := dedup.ResolveBlocks(d.Doc, isShared, isBoiler)
		if o {
			only++
		}
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
	if only > 0 {
		sharedTextPages.Inc(ctx, int64(only))
		stat(output.StatSharedTextPages, only)
	}
	for k, v := range langs {
		stat(k, v)
	}
	emit(b)
	return nil
}
