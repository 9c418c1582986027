package dedup

import "github.com/ndd-beam/ndd-beam/spotsig"

// Shared boilerplate (issue 10; docs/design.md, "Shared boilerplate"). A
// page's signatures come per text block (spotsig.ExtractPayloadBlocks),
// each marked inside or outside the page's main content. A block that lies
// outside the main content of at least minPages pages of the corpus
// (config.Params.SharedBlockPages), and of more pages than it is the main
// content of, is text pages share beside what they are about: a cookie
// notice, a licence footer, a banner. Its signatures would make unrelated
// pages near-duplicates, so they are dropped from every page that has it,
// before the IDF filter. A syndicated article is the main content of most
// of its copies and keeps its signatures everywhere; two identical pages
// stay a pair.

// BlockCount is how many documents have a block outside (Periphery) and
// inside (Main) their main content.
type BlockCount struct{ Periphery, Main int }

// Add returns the sum of two counts (the job's combiner).
func (c BlockCount) Add(o BlockCount) BlockCount {
	return BlockCount{c.Periphery + o.Periphery, c.Main + o.Main}
}

// Shared reports whether a block with these counts is shared boilerplate
// for minPages (0: never).
func (c BlockCount) Shared(minPages int) bool {
	return minPages > 0 && c.Periphery >= minPages && c.Periphery > c.Main
}

// Count is the contribution of one document's block to its BlockCount.
func Count(b spotsig.Block) BlockCount {
	if b.Main {
		return BlockCount{Main: 1}
	}
	return BlockCount{Periphery: 1}
}

// BlockCounts counts, per block hash, the documents that have the block
// outside and inside their main content (each document once per block: a
// Doc's Blocks have distinct hashes). The job computes the same counts
// with a combiner (transforms.DropSharedBlocks).
func BlockCounts(docs []Doc) map[uint64]BlockCount {
	n := map[uint64]BlockCount{}
	for _, d := range docs {
		for _, b := range d.Blocks {
			n[b.Hash] = n[b.Hash].Add(Count(b))
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
