package dedup

import (
	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/internal/hashx"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Shared boilerplate (docs/design.md, "Shared boilerplate"). A
// page's signatures come per text block (spotsig.ExtractPayloadBlocks),
// each marked inside or outside the page's main content. A block that lies
// outside the main content of pages about at least minPages different
// things (config.Params.SharedBlockPages; Context), and of more pages than
// it is the main content of, is text pages share beside what they are
// about: a cookie notice, a licence footer, a banner. Its signatures would make unrelated
// pages near-duplicates, so they are dropped from every page that has it
// beside signed text of its own, before the IDF filter (a page of shared
// blocks only keeps them, hashed with its site: ResolveBlocks). A
// syndicated article is the main content of most of its copies and keeps
// its signatures everywhere; two identical pages stay a pair.

// BlockCount is how many documents have a block outside (Periphery) and
// inside (Main) their main content; the contexts (Context) of the
// documents it is outside the main content of (Contexts) and of every
// document that has it (All); and the blocks it sits between on every
// document that has it (Before and After: the spotsig.Block Prev and Next
// hashes, or the document's Context where the block starts or ends the
// text). Each list is ascending, distinct, the smallest
// config.MaxSharedBlockPages only (a k-minimum-values sketch: exact below
// k, an estimate of the distinct count above, see Distinct). Counting
// contexts rather than pages keeps the blocks of exact copies: a block on a
// thousand copies of one page is one context.
type BlockCount struct {
	Periphery, Main int
	Contexts, All   []uint64
	Before, After   []uint64
}

// Add returns the sum of two counts (the job's combiner): page counts
// added, context sketches united and cut to the smallest k, which is
// associative and commutative, so any combining order gives the same count.
func (c BlockCount) Add(o BlockCount) BlockCount {
	return BlockCount{Periphery: c.Periphery + o.Periphery, Main: c.Main + o.Main,
		Contexts: unite(c.Contexts, o.Contexts), All: unite(c.All, o.All),
		Before: unite(c.Before, o.Before), After: unite(c.After, o.After)}
}

// Boilerplate reports whether a block or short line with these counts
// leaves the whole text that verification reads (spotsig.Sketch.LessShared):
// it is shared for minPages (Shared) and the main content of no page. A
// post's paragraphs and list items shown on listings beside other posts
// are shared too, but they are the main content of the post's own page:
// they stay, and a listing of two posts is not taken for one of them.
func (c BlockCount) Boilerplate(minPages int) bool { return c.Main == 0 && c.Shared(minPages) }

// Merge adds o into c in place (c becomes c.Add(o)): c's lists are
// reused, so they must not be shared with another count; a combiner adding
// one page's count at a time then allocates only as its lists grow.
func (c *BlockCount) Merge(o BlockCount) {
	k := config.MaxSharedBlockPages
	c.Periphery += o.Periphery
	c.Main += o.Main
	c.Contexts = hashx.MergeSmallest(c.Contexts, o.Contexts, k)
	c.All = hashx.MergeSmallest(c.All, o.All, k)
	c.Before = hashx.MergeSmallest(c.Before, o.Before, k)
	c.After = hashx.MergeSmallest(c.After, o.After, k)
}

// unite returns the smallest config.MaxSharedBlockPages distinct values of
// two ascending lists.
func unite(x, y []uint64) []uint64 { return hashx.UniteSmallest(x, y, config.MaxSharedBlockPages) }

// Distinct estimates the number of distinct values a sketch (Add) was
// built from: exact when it holds fewer than k values, else the
// k-minimum-values estimate (k−1)·2^64 / (k-th smallest) (Bar-Yossef et
// al. 2002). Context hashes are FNV-1a block hashes, uniform enough for
// this.
func Distinct(sketch []uint64) float64 {
	k := config.MaxSharedBlockPages
	if len(sketch) < k {
		return float64(len(sketch))
	}
	return float64(k-1) * 18446744073709551616.0 / (float64(sketch[k-1]) + 1)
}

// Shared reports whether a block with these counts is shared boilerplate
// for minPages (0: never). Either it lies outside the main content of
// pages with at least minPages different contexts, and of more pages than
// it is the main content of; or, whether inside or outside their main
// content, it is on many unrelated pages and inserted there on its own:
// pages of at least 2·minPages different contexts, and as many as half its
// pages (many), with many different blocks before it or after it. That is
// text pages carry beside whatever they hold (on a page with little text
// of its own a notice is the largest block and looks like main content).
// A paragraph inside an article has the same neighbours on both sides
// wherever the article is copied or shown in full (a tag, category or
// archive page beside other posts, a print version), so a page whose main
// content is a repeated article keeps it, but its first and last
// paragraph.
func (c BlockCount) Shared(minPages int) bool {
	if minPages <= 0 {
		return false
	}
	if len(c.Contexts) >= minPages && c.Periphery > c.Main {
		return true
	}
	many := func(sketch []uint64) bool {
		d := Distinct(sketch)
		return d >= float64(2*minPages) && 2*d >= float64(c.Periphery+c.Main)
	}
	return many(c.All) && (many(c.Before) || many(c.After))
}

// Context identifies what a document is about apart from the block
// exclude, for BlockCount: the smallest hash of its other blocks inside
// the main content, or of all its other blocks if none is, or 0 (a
// one-permutation MinHash over blocks: exact copies share it, and so do
// near-duplicates with probability their block Jaccard). NewContexts
// gives the same for every block of a document in O(1) each.
func Context(blocks []spotsig.Block, exclude uint64) uint64 {
	return NewContexts(blocks).Of(exclude)
}

// Contexts holds the two smallest block hashes of a document's main
// content and of all its blocks, from which Of derives Context for any
// block.
type Contexts struct {
	main, all [2]uint64
	nMain     int // main-content blocks (only the first two matter)
	nAll      int
}

// NewContexts scans a document's blocks once.
func NewContexts(blocks []spotsig.Block) Contexts {
	var c Contexts
	for _, b := range blocks {
		if b.Main {
			insertSmallest(&c.main, &c.nMain, b.Hash)
		}
		insertSmallest(&c.all, &c.nAll, b.Hash)
	}
	return c
}

// insertSmallest keeps the two smallest values of distinct inputs in s.
func insertSmallest(s *[2]uint64, n *int, h uint64) {
	switch {
	case *n == 0 || h < s[0]:
		s[1], s[0] = s[0], h
	case *n == 1 || h < s[1]:
		s[1] = h
	}
	*n++
}

// Of is Context(blocks, exclude) for the blocks NewContexts scanned.
func (c Contexts) Of(exclude uint64) uint64 {
	pick := func(s [2]uint64, n int) (uint64, bool) {
		switch {
		case n > 0 && s[0] != exclude:
			return s[0], true
		case n > 1:
			return s[1], true
		}
		return 0, false
	}
	if v, ok := pick(c.main, c.nMain); ok {
		return v
	}
	v, _ := pick(c.all, c.nAll)
	return v
}

// Count is the contribution to BlockCount of block b of a document whose
// Context apart from b is ctx.
func Count(b spotsig.Block, ctx uint64) BlockCount {
	before, after := b.Prev, b.Next
	if before == 0 {
		before = ctx
	}
	if after == 0 {
		after = ctx
	}
	c := BlockCount{Main: 1, All: []uint64{ctx}, Before: []uint64{before}, After: []uint64{after}}
	if !b.Main {
		c.Main, c.Periphery, c.Contexts = 0, 1, []uint64{ctx}
	}
	return c
}

// CountLine is the contribution to BlockCount of a short line
// (spotsig.Line) of a document whose Context apart from it is ctx. A line
// has no signatures: all that is read of its count is whether it is
// Boilerplate, that is inside no page's main content and outside that of
// pages of at least minPages contexts (Shared's first clause; its second
// asks for more contexts than that). So it counts its page and, outside
// the main content, its context; not the lists of all contexts and
// neighbours a Block's count keeps, which the shuffle would hold for
// every line of every page.
func CountLine(l spotsig.Line, ctx uint64) BlockCount {
	if l.Main {
		return BlockCount{Main: 1}
	}
	return BlockCount{Periphery: 1, Contexts: []uint64{ctx}}
}

// BlockCounts counts, per block hash, the documents that have the block
// (or short line, Doc.Periphery's Lines) outside and inside their main
// content (each document once per block: a Doc's Blocks, and its Lines,
// have distinct hashes). The job computes the same counts with a combiner
// (transforms.DropSharedBlocks).
func BlockCounts(docs []Doc) map[uint64]BlockCount {
	n := map[uint64]BlockCount{}
	for _, d := range docs {
		ctx := NewContexts(d.Blocks)
		for _, b := range d.Blocks {
			n[b.Hash] = n[b.Hash].Add(Count(b, ctx.Of(b.Hash)))
		}
		for _, l := range d.Periphery.Lines {
			n[l.Hash] = n[l.Hash].Add(CountLine(l, ctx.Of(l.Hash)))
		}
	}
	return n
}

// ResolveBlocks returns d with the signatures of its blocks that shared
// does not report merged into Vec, its Lang the language of its main
// content once they are left out (Language: "" if none is left;
// unchanged without blocks), its whole-text sketch less the words of the
// blocks and short lines boiler reports (BlockCount.Boilerplate,
// spotsig.Sketch.LessShared; not on a page of shared text only, below),
// and Blocks and Periphery zero; it also returns the number of blocks left
// out and of their signatures (with repeats), and whether d is a page of
// shared text only.
//
// A page of shared text only is a page of a site (d.Site is not
// match.NoSite) every signed block of which shared reports: it is made
// only of text that other pages carry (a tag page that prints one post
// whole, the one-entry listings of that post, a notice page). Leaving the
// blocks out would leave it no signature, and only a byte-identical text
// could then drop it. It keeps them instead, each signature hashed with
// its site (SiteSignatures), its Lang that of all its blocks, and
// SharedText set: it can be a candidate only of another such page of its
// site (the site match.Site gives it), where the same-site rule and
// verification (Verify) decide, and its exact-copy group is that of its
// text (ExactGroupKey). So pages of different sites that show nothing but
// one shared notice (app shells behind one consent wall) stay apart unless
// their texts are identical, and its signatures never meet those of the
// pages that carry the same text beside their own. Nothing is counted as
// dropped then (docs/quality.md, "Pages of shared text only").
func ResolveBlocks(d Doc, shared, boiler func(hash uint64) bool) (out Doc, droppedBlocks, droppedSignatures int, sharedOnly bool) {
	if d.Site.Name != 0 && d.Vec.Len() == 0 && allShared(d.Blocks, shared) {
		d.Lang = Language(d.Blocks, func(uint64) bool { return false })
		d.Vec = SiteSignatures(spotsig.MergeBlocks(d.Vec, d.Blocks, nil), d.Site)
		d.Blocks, d.Periphery = nil, spotsig.Periphery{}
		d.SharedText = true
		return d, 0, 0, true
	}
	for _, b := range d.Blocks {
		if shared(b.Hash) {
			droppedBlocks++
			droppedSignatures += b.Vec.Len()
		}
	}
	if len(d.Blocks) > 0 {
		d.Lang = Language(d.Blocks, shared)
	}
	d.Vec = spotsig.MergeBlocks(d.Vec, d.Blocks, func(b spotsig.Block) bool { return !shared(b.Hash) })
	d.Sketch = d.Sketch.LessShared(d.Blocks, d.Periphery, boiler)
	d.Blocks, d.Periphery = nil, spotsig.Periphery{}
	return d, droppedBlocks, droppedSignatures, false
}

// allShared reports whether blocks hold a signature and shared reports
// every block that does.
func allShared(blocks []spotsig.Block, shared func(hash uint64) bool) bool {
	found := false
	for _, b := range blocks {
		if b.Vec.Len() == 0 {
			continue
		}
		if !shared(b.Hash) {
			return false
		}
		found = true
	}
	return found
}

// SiteSignatures returns v with every signature hash mixed with the hash of
// site's name (hashx.Mix64 of the two XORed; frequencies kept): the
// signatures of a page made only of shared blocks (ResolveBlocks), which
// only pages of the same site share.
func SiteSignatures(v spotsig.Vector, site match.Site) spotsig.Vector {
	hs := make([]uint64, 0, v.Len())
	for i, h := range v.Hashes {
		for range v.Freqs[i] {
			hs = append(hs, hashx.Mix64(h^site.Name))
		}
	}
	return spotsig.NewVector(hs)
}

// Language is the language a page is reported in: that of its
// main content after its shared blocks are known. A notice in another
// language can be the largest block of a page with little text of its
// own, and then the extractor's main content (spotsig/layout.go) and its
// language; once the notice is dropped as shared, the page's own text is
// what remains. So: the language (spotsig.Block.Lang) of the most
// signatures, with repeats, among the blocks shared does not report that
// lie inside the main content, or among all those if none does; ties go
// to the smaller code. "" when no block is left (the page then has no
// signature and is not counted, as without the notice).
func Language(blocks []spotsig.Block, shared func(hash uint64) bool) string {
	n := map[string]int{}
	for _, main := range []bool{true, false} {
		for _, b := range blocks {
			if (b.Main || !main) && !shared(b.Hash) {
				n[b.Lang] += b.Vec.Len()
			}
		}
		if len(n) > 0 {
			break
		}
	}
	best, most := "", -1
	for l, c := range n {
		if c > most || c == most && l < best {
			best, most = l, c
		}
	}
	return best
}

// DropSharedBlocks resolves every document's blocks in place (BlockCounts,
// BlockCount.Shared, ResolveBlocks) and returns the blocks and signatures
// dropped over all documents, and the pages of shared text only that kept
// theirs. Documents left with an empty Vec stay (CheckMinSignatures
// rejects them).
func DropSharedBlocks(docs []Doc, minPages int) (droppedBlocks, droppedSignatures, sharedOnly int) {
	counts := BlockCounts(docs)
	shared := func(h uint64) bool { return counts[h].Shared(minPages) }
	boiler := func(h uint64) bool { return counts[h].Boilerplate(minPages) }
	for i := range docs {
		var b, s int
		var only bool
		docs[i], b, s, only = ResolveBlocks(docs[i], shared, boiler)
		droppedBlocks += b
		droppedSignatures += s
		if only {
			sharedOnly++
		}
	}
	return droppedBlocks, droppedSignatures, sharedOnly
}
