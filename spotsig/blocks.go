package spotsig

import (
	"cmp"
	"slices"
)

// Text blocks: a page's spot signatures kept apart per text block
// (ExtractPayloadBlocks), each block's signatures a multiset of §4.1.2 (a
// Vector) under the BlockHash of its text, and MergeBlocks, which adds the
// chosen blocks' signatures back into a page's Vector. The corpus rule on
// shared boilerplate blocks (dedup/shared.go) is built on them.

// Block is one text block of a page (one line of the text, see
// WithMinBlockTokens) with its own spot signatures: Hash identifies the
// block's text across pages (BlockHash), Main says whether it lies inside
// the page's main content (layout.go), Prev and Next are the Hash of the
// text blocks (of at least the minimum tokens, with or without signatures)
// just before and after it, 0 at the start or end of the text, Lang is the
// language its signatures are taken and hashed in (ExtractStats.Lang, or in
// auto mode another one the block's own words name; langid.go), and Vec
// holds the signatures whose chains lie in it. The blocks of one page have
// distinct hashes: a block repeated on the page is one Block with the
// summed frequencies, Main if any occurrence is (the same words have the
// same language), and the neighbours of its first occurrence.
type Block struct {
	Hash       uint64
	Main       bool
	Prev, Next uint64
	Lang       string
	Vec        Vector
}

// ExtractPayloadBlocks is ExtractPayload with the page's signatures kept
// apart per text block, ascending by Hash; blocks without a signature are
// left out. MergeBlocks of all of them is exactly ExtractPayload's Vector
// (the same caps apply to the whole page). Main content is found as
// layout.go describes; plain text, and a page whose main content is the
// whole document, have only Main blocks. Errors are ExtractPayload's.
func (e *Extractor) ExtractPayloadBlocks(payload []byte, contentType string) (blocks []Block, st PayloadStats, err error) {
	s := e.scratch.Get().(*scratch)
	defer e.release(s)
	spans, err := e.payloadText(s, payload, contentType, &st)
	if err != nil {
		return nil, st, err
	}
	s.sketch = true
	blocks = e.extractBlocks(s, s.text, spans, &st.Extract)
	var whole []uint32
	st.Sketch, whole = s.sk.sketch(true)
	st.Periphery = e.periphery(s, blocks, st.Sketch, whole)
	return blocks, st, nil
}

// extractBlocks is extract with the signatures of each block apart; the
// blocks whose line lies in one of spans (ascending, disjoint) are not Main.
func (e *Extractor) extractBlocks(s *scratch, text []byte, spans []span, st *ExtractStats) []Block {
	s.hblock = s.hblock[:0]
	e.sign(s, text, spans, st, &s.hblock)
	// The hashes come block by block, in block order.
	type acc struct {
		main       bool
		prev, next uint64
		lang       string
		hs         []uint64
	}
	byHash := map[uint64]*acc{}
	var order []uint64
	for i := 0; i < len(s.hashes); {
		b := s.hblock[i]
		end := i + 1
		for end < len(s.hashes) && s.hblock[end] == b {
			end++
		}
		main := s.blocks[b].main
		if !main {
			st.PeripheralSignatures += end - i
		}
		bh := e.blockHash(s, int(b))
		a := byHash[bh]
		if a == nil {
			a = &acc{lang: e.table.data[s.blocks[b].lang].tag}
			if b > 0 {
				a.prev = e.blockHash(s, int(b)-1)
			}
			if int(b)+1 < len(s.blocks) {
				a.next = e.blockHash(s, int(b)+1)
			}
			byHash[bh] = a
			order = append(order, bh)
		}
		a.main = a.main || main
		a.hs = append(a.hs, s.hashes[i:end]...)
		i = end
	}
	blocks := make([]Block, 0, len(order))
	for _, bh := range order {
		a := byHash[bh]
		if !a.main {
			st.PeripheralBlocks++
		}
		blocks = append(blocks, Block{Hash: bh, Main: a.main, Prev: a.prev, Next: a.next, Lang: a.lang, Vec: NewVector(a.hs)})
	}
	slices.SortFunc(blocks, func(x, y Block) int { return cmp.Compare(x.Hash, y.Hash) })
	return blocks
}

// MergeBlocks returns v with the signatures of the blocks keep accepts
// added (frequencies summed); v and blocks are not modified. keep nil
// accepts every block.
func MergeBlocks(v Vector, blocks []Block, keep func(Block) bool) Vector {
	var hs []uint64
	for _, b := range blocks {
		if keep != nil && !keep(b) {
			continue
		}
		for i, h := range b.Vec.Hashes {
			for range b.Vec.Freqs[i] {
				hs = append(hs, h)
			}
		}
	}
	if len(hs) == 0 {
		return v
	}
	for i, h := range v.Hashes {
		for range v.Freqs[i] {
			hs = append(hs, h)
		}
	}
	return NewVector(hs)
}
