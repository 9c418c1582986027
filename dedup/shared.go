package dedup

import (
	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Shared boilerplate (issue 10; docs/design.md, "Shared boilerplate"). A
// page's signatures come per text block (spotsig.ExtractPayloadBlocks),
// each marked inside or outside the page's main content. A block that lies
// outside the main content of pages about at least minPages different
// things (config.Params.SharedBlockPages; Context), and of more pages than
// it is the main content of, is text pages share beside what they are
// about: a cookie notice, a licence footer, a banner. Its signatures would make unrelated
// pages near-duplicates, so they are dropped from every page that has it,
// before the IDF filter. A syndicated article is the main content of most
// of its copies and keeps its signatures everywhere; two identical pages
// stay a pair.

// BlockCount is how many documents have a block outside (Periphery) and
// inside (Main) their main content, and the distinct contexts of the
// documents it is outside the main content of (Contexts: ascending, at most
// config.MaxSharedBlockPages, the smallest ones; see Context). Counting contexts
// rather than pages keeps the periphery of exact copies: a block beside
// the same main content on a thousand copies of one page is one context.
type BlockCount struct {
	Periphery, Main int
	Contexts        []uint64
}

// Add returns the sum of two counts (the job's combiner): page counts
// added, contexts united and cut to the config.MaxSharedBlockPages smallest, which
// is associative and commutative, so any combining order gives the same
// count.
func (c BlockCount) Add(o BlockCount) BlockCount {
	out := BlockCount{Periphery: c.Periphery + o.Periphery, Main: c.Main + o.Main}
	if len(c.Contexts)+len(o.Contexts) > 0 {
		out.Contexts = make([]uint64, 0, min(len(c.Contexts)+len(o.Contexts), config.MaxSharedBlockPages))
	}
	i, j := 0, 0
	for len(out.Contexts) < config.MaxSharedBlockPages && (i < len(c.Contexts) || j < len(o.Contexts)) {
		var v uint64
		switch {
		case j >= len(o.Contexts) || (i < len(c.Contexts) && c.Contexts[i] < o.Contexts[j]):
			v = c.Contexts[i]
			i++
		case i >= len(c.Contexts) || o.Contexts[j] < c.Contexts[i]:
			v = o.Contexts[j]
			j++
		default: // equal
			v = c.Contexts[i]
			i++
			j++
		}
		out.Contexts = append(out.Contexts, v)
	}
	return out
}

// Shared reports whether a block with these counts is shared boilerplate
// for minPages (0: never): outside the main content of pages with at least
// minPages different contexts, and of more pages than it is main content
// of.
func (c BlockCount) Shared(minPages int) bool {
	return minPages > 0 && len(c.Contexts) >= minPages && c.Periphery > c.Main
}

// Context identifies what a document is about, for BlockCount: the
// smallest hash of its blocks inside the main content, or of all its
// blocks if none is (a one-permutation MinHash over blocks, so exact
// copies, and most near-duplicates, share it).
func Context(blocks []spotsig.Block) uint64 {
	ctx, any := uint64(0), false
	for _, main := range []bool{true, false} {
		for _, b := range blocks {
			if (b.Main || !main) && (!any || b.Hash < ctx) {
				ctx, any = b.Hash, true
			}
		}
		if any {
			break
		}
	}
	return ctx
}

// Count is the contribution to BlockCount of block b of a document whose
// Context is ctx.
func Count(b spotsig.Block, ctx uint64) BlockCount {
	if b.Main {
		return BlockCount{Main: 1}
	}
	return BlockCount{Periphery: 1, Contexts: []uint64{ctx}}
}

// BlockCounts counts, per block hash, the documents that have the block
// outside and inside their main content (each document once per block: a
// Doc's Blocks have distinct hashes). The job computes the same counts
// with a combiner (transforms.DropSharedBlocks).
func BlockCounts(docs []Doc) map[uint64]BlockCount {
	n := map[uint64]BlockCount{}
	for _, d := range docs {
		ctx := Context(d.Blocks)
		for _, b := range d.Blocks {
			n[b.Hash] = n[b.Hash].Add(Count(b, ctx))
		}
	}
	return n
}

// ResolveBlocks returns d with the signatures of its blocks that shared
// does not report merged into Vec, and Blocks nil; it also returns the
// number of blocks left out and of their signatures (with repeats).
func ResolveBlocks(d Doc, shared func(hash uint64) bool) (out Doc, droppedBlocks, droppedSignatures int) {
	for _, b := range d.Blocks {
		if shared(b.Hash) {
			droppedBlocks++
			droppedSignatures += b.Vec.Len()
		}
	}
	d.Vec = spotsig.MergeBlocks(d.Vec, d.Blocks, func(b spotsig.Block) bool { return !shared(b.Hash) })
	d.Blocks = nil
	return d, droppedBlocks, droppedSignatures
}

// DropSharedBlocks resolves every document's blocks in place (BlockCounts,
// BlockCount.Shared, ResolveBlocks) and returns the blocks and signatures
// dropped over all documents. Documents left with an empty Vec stay
// (CheckMinSignatures rejects them).
func DropSharedBlocks(docs []Doc, minPages int) (droppedBlocks, droppedSignatures int) {
	counts := BlockCounts(docs)
	shared := func(h uint64) bool { return counts[h].Shared(minPages) }
	for i := range docs {
		var b, s int
		docs[i], b, s = ResolveBlocks(docs[i], shared)
		droppedBlocks += b
		droppedSignatures += s
	}
	return droppedBlocks, droppedSignatures
}
