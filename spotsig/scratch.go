package spotsig

// The scratch buffers of one extraction: the tokens of the text, their
// kinds and ranks, the kept blocks and the signature hashes, taken from the
// Extractor's pool for one call and given back by release.

// maxPooledTokens bounds the scratch kept for reuse: a scratch that grew
// beyond it (a huge document) is left to the garbage collector, so one
// outlier does not pin its memory in every pool slot.
const maxPooledTokens = 1 << 18

func (e *Extractor) release(s *scratch) {
	if cap(s.ends) > maxPooledTokens || cap(s.arena) > 8*maxPooledTokens || cap(s.text) > 8*maxPooledTokens || cap(s.tokbuf) > 8*maxPooledTokens || cap(s.hashes) > maxPooledTokens || cap(s.blocks) > maxPooledTokens || cap(s.hblock) > maxPooledTokens || cap(s.votes) > 4*maxPooledTokens || cap(s.sk.el) > maxPooledTokens || cap(s.shorts) > maxPooledTokens {
		return
	}
	s.sketch = false
	e.scratch.Put(s)
}

// scratch is the per-call working memory of an extraction, reused via the
// Extractor's pool.
type scratch struct {
	arena  []byte    // lower-cased tokens, concatenated
	ends   []int32   // ends[i] = end offset of token i in arena
	kind   []int32   // while scanning the word table entry (-1: none), then wordContent, wordStop or antecedent group index
	rank   []int32   // rank[i] = number of non-stopwords among tokens [0, i); len n+1
	ns     []int32   // positions of the non-stopwords, ascending
	hashes []uint64  // signature hashes, with repeats
	chain  []int32   // token positions of the current chain
	blocks []block   // the kept blocks, in text order
	hblock []int32   // block index of each hash in hashes (ExtractPayloadBlocks)
	lay    layout    // where the text sits on the page (HTML payloads)
	tokbuf []byte    // the tokenizer's word buffer
	text   []byte    // payload text (ExtractPayload)
	line   tally     // the language evidence of the line being scanned
	cur    tally     // and of the block it is in, before that line
	main   pageTally // of the kept blocks inside the main content
	all    pageTally // of all kept blocks
	any    pageTally // of all blocks, kept or not
	page   int32     // the text's language (index into the word table's data)
	votes  []int32   // the votes of the kept blocks (block.votes)
	sk     sketcher  // the main-text sketch's word hashes (sketch.go)
	sketch bool      // scan gathers them (payload extractions)
	shorts []short   // with sketch: the blocks shorter than the minimum, in text order
	stop   int32     // byte offset just past the last token the blocks hold
	order  []int32   // periphery's: the short blocks by hash
	line32 []int32   // periphery's: each short block's Line
	unit   []int32   // periphery's: each kept block's Block
	units  []uint16  // periphery's: each whole-text element's unit
}

// short is a block of the scanned text shorter than the minimum: its
// BlockHash, the byte offset of its line and whether that line is inside
// the main content.
type short struct {
	hash  uint64
	start int32
	main  bool
}

// block is a kept block of the scanned text.
type block struct {
	end         int32 // end (exclusive kept-token position)
	start, stop int32 // byte range in the text: its line's start, just past its last token
	main        bool  // inside the page's main content (layout.go)
	lang        int32 // index into the word table's data: the language it is signed in
	blockVote         // auto mode: the evidence of its words for its language
	votes       int32 // auto mode: its votes are s.votes[votes:votes+n] for the n voting languages
}

func (s *scratch) token(i int32) []byte {
	start := int32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.arena[start:s.ends[i]]
}
