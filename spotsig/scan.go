package spotsig

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ndd-beam/ndd-beam/internal/hashx"
)

// Extractor turns plain text into spot signatures (paper §3). It holds
// immutable per-language spot sets and stopword lists, so one Extractor is
// safe for concurrent use by any number of goroutines (per-call scratch
// buffers come from a sync.Pool).
type Extractor struct {
	cfg     config
	fixed   *langData  // the forced language, or the LanguageUnknown fallback in auto mode
	table   *wordTable // every language's words; auto mode: Languages() then the fallback
	auto    bool       // LanguageAuto: languages identified per page and block
	scratch sync.Pool
}

// langData is one language's spot set and stopwords in the form the scan
// uses.
type langData struct {
	tag    string             // hashed into every signature: the language code, or LanguageUnknown
	spots  []Antecedent       // the spot set, normalized, in spec order
	words  map[string]int32   // token -> wordStop, or index into groups (antecedents)
	groups [][]antecedentSpec // per antecedent word, its (d, c) specs
}

// ExtractStats describes one Extract call; every cap that applied is
// reported so a caller can count it.
type ExtractStats struct {
	Tokens              int  // tokens examined (at most the max-tokens cap)
	TokensTruncated     bool // the text had more tokens than the cap; the rest was ignored
	Blocks              int  // blocks whose signatures were taken (1 for non-empty text with blocks off)
	BlocksSkipped       int  // blocks shorter than the min-block-tokens option, ignored
	TokensSkipped       int  // tokens of those skipped blocks
	Spots               int  // antecedent occurrences seen (times specs per antecedent word)
	Signatures          int  // signatures kept, with repeats: |d| of the returned Vector
	SignaturesTruncated bool // the max-signatures cap stopped extraction early
	// Lang is the document's language: the forced language, or in auto
	// mode the one identified from its main content (langid.go), or
	// LanguageUnknown. Its code is in the hash of every signature of the
	// blocks in that language; LangBlocks counts the kept blocks signed in
	// another language (auto mode: a block whose own words clearly say
	// so), and LangSignatures their signatures, with repeats.
	Lang           string
	LangBlocks     int
	LangSignatures int
	// ExtractPayloadBlocks only: the blocks outside the page's main
	// content (distinct by BlockHash, with a signature) and their
	// signatures, with repeats.
	PeripheralBlocks     int
	PeripheralSignatures int
}

type antecedentSpec struct {
	word     string
	distance int
	chain    int
	prefix   uint64 // FNV-1a state after hashing "<language>/<word>"
}

const (
	wordContent = -2 // not in the map: a content word (non-stopword)
	wordStop    = -1 // stopword that is not an antecedent
)

// Signatures are FNV-1a 64 hashes (internal/hashx): no seed, so the same
// hash on every process and machine, which Beam workers computing
// signatures independently require.

// SignatureHash returns the 64-bit identifier of a spot signature given in
// its string form "<language>/antecedent:word1:word2…", e.g.
// "en/the:south:carolina" (Signatures returns the part after the '/', the
// language is ExtractStats.Lang): the FNV-1a 64 hash of those bytes.
// Extract computes the same value without building the string. The
// language is part of the identifier so that documents of different
// languages never share a signature, whatever words they share. Tokens
// never contain ':' or '/', so the string form, and the hashed bytes, are
// unambiguous.
func SignatureHash(sig string) uint64 { return hashx.FNVString(sig) }

// NewExtractor returns an Extractor with the defaults: the language of
// each text block of a document identified from its words and the
// document's from its main content (LanguageAuto, langid.go), and each
// block signed with its language's embedded data lang/<code>/ (stopwords and spot set;
// for English the paper's §5.3.2 set: SMART stopwords, articles and
// flexions of be/can/will/have/do as antecedents), spot distance
// DefaultDistance and chain length DefaultChain, spot distance counted in
// tokens as on slide 12, and the caps DefaultMaxTokens and
// DefaultMaxSignatures. Options change any of these; a spot set or
// stopword list given as an option replaces the data of the forced
// language, or in auto mode that of DefaultLanguage (and the fallback).
// Antecedents always count as stopwords for chaining. The error wraps
// ErrBadOption or ErrSpotSet, or names an unknown language.
func NewExtractor(opts ...Option) (*Extractor, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	e := &Extractor{cfg: cfg, auto: cfg.lang == LanguageAuto}
	var data []*langData
	if e.auto {
		for _, code := range Languages() {
			d, err := newLangData(&cfg, code, code)
			if err != nil {
				return nil, err
			}
			data = append(data, d)
		}
		if e.fixed, err = newLangData(&cfg, LanguageUnknown, DefaultLanguage); err != nil {
			return nil, err
		}
	} else if e.fixed, err = newLangData(&cfg, cfg.lang, cfg.lang); err != nil {
		return nil, err
	}
	e.table = newWordTable(append(data, e.fixed), e.auto)
	e.scratch.New = func() any { return new(scratch) }
	return e, nil
}

// newLangData builds the data of language code, tagged tag in the hashes;
// the options' spot set and stopwords replace code's own for the language
// they concern (see NewExtractor).
func newLangData(cfg *config, tag, code string) (*langData, error) {
	custom := code == cfg.lang || cfg.lang == LanguageAuto && code == DefaultLanguage
	spots := cfg.spotSet
	if !custom || !cfg.spotSetSet {
		var err error
		if spots, err = DefaultSpotSet(code); err != nil {
			return nil, err
		}
	}
	if len(spots) == 0 {
		return nil, fmt.Errorf("%w: empty spot set", ErrSpotSet)
	}
	stop := cfg.stopwords
	if !custom || !cfg.stopSet {
		var err error
		if stop, err = Stopwords(code); err != nil {
			return nil, err
		}
	}
	if custom {
		stop = append(slices.Clip(stop), cfg.extraStop...)
	}
	d := &langData{tag: tag, words: map[string]int32{}}
	for _, w := range stop {
		if t, ok := singleToken(w); ok {
			d.words[t] = wordStop
		}
	}
	prefix := hashx.FNVAdd(hashx.FNVAdd(hashx.FNVOffset, []byte(tag)), []byte{'/'})
	groupOf := map[string]int32{}
	for _, a := range spots {
		if err := a.validate(); err != nil {
			return nil, err
		}
		t, ok := singleToken(a.Word)
		if !ok {
			return nil, fmt.Errorf("%w: antecedent %q (%s) is not one token", ErrSpotSet, a.Word, code)
		}
		a.Word = t
		g, ok := groupOf[t]
		if !ok {
			g = int32(len(d.groups))
			groupOf[t] = g
			d.groups = append(d.groups, nil)
			d.words[t] = g
		}
		d.groups[g] = append(d.groups[g], antecedentSpec{
			word: t, distance: a.Distance, chain: a.Chain,
			prefix: hashx.FNVAdd(prefix, []byte(t)),
		})
		d.spots = append(d.spots, a)
	}
	return d, nil
}

// singleToken returns the token form of w if Tokenize makes exactly one
// token of it.
func singleToken(w string) (string, bool) {
	t := tokenizer{text: []byte(w)}
	tok, ok := t.next()
	if !ok {
		return "", false
	}
	s := string(tok)
	if _, more := t.next(); more {
		return "", false
	}
	return s, true
}

// SpotSet returns a copy of the spot set (normalized words) of the forced
// language, or in auto mode of the fallback (DefaultLanguage's data).
func (e *Extractor) SpotSet() []Antecedent { return slices.Clone(e.fixed.spots) }

// LanguageMode returns LanguageAuto or the forced language code.
func (e *Extractor) LanguageMode() string { return e.cfg.lang }

// SpotSetSizes returns the number of antecedent specs per language the
// Extractor can use (in auto mode every embedded language and
// LanguageUnknown), for the record of a run's configuration.
func (e *Extractor) SpotSetSizes() map[string]int {
	out := map[string]int{}
	for _, d := range e.table.data {
		out[d.tag] = len(d.spots)
	}
	return out
}

// MinBlockTokens returns the minimum block length in effect
// (WithMinBlockTokens; 0 = blocks off, the paper's whole-document chains).
func (e *Extractor) MinBlockTokens() int { return e.cfg.minBlock }

// IsStopword reports whether the (lower-case, tokenized) word is skipped by
// chains of the forced language (in auto mode: of DefaultLanguage): a
// stopword or an antecedent.
func (e *Extractor) IsStopword(word string) bool {
	d := e.fixed
	if e.auto {
		d = e.table.data[e.table.lang(DefaultLanguage)]
	}
	_, ok := d.words[word]
	return ok
}

// maxPooledTokens bounds the scratch kept for reuse: a scratch that grew
// beyond it (a huge document) is left to the garbage collector, so one
// outlier does not pin its memory in every pool slot.
const maxPooledTokens = 1 << 18

func (e *Extractor) release(s *scratch) {
	if cap(s.ends) > maxPooledTokens || cap(s.arena) > 8*maxPooledTokens || cap(s.text) > 8*maxPooledTokens || cap(s.tokbuf) > 8*maxPooledTokens || cap(s.hashes) > maxPooledTokens || cap(s.blocks) > maxPooledTokens || cap(s.hblock) > maxPooledTokens || cap(s.votes) > 4*maxPooledTokens {
		return
	}
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

// scan tokenizes text into s, decides the language of the text and of
// each kept block (auto mode, langid.go; blocks whose line lies in one of
// spans, ascending and disjoint, are outside the main content) and
// classifies every token by its block's language. With blocks on (the
// min-block-tokens option >= 1) a '\n' between two tokens ends a block:
// the tokens of a block shorter than the minimum are dropped again (the
// arrays are cut back to the block's start, so nothing is allocated), and
// s.blocks records each kept block. With blocks off the whole text is one
// block.
func (e *Extractor) scan(s *scratch, text []byte, spans []span, st *ExtractStats) {
	// Size the token arrays once: a token and its separator take at least 2
	// bytes, typical text about 6; growing by appending would allocate
	// several times the final size for a huge document.
	if est := min(e.cfg.maxTokens, len(text)/4+16); cap(s.ends) < est {
		s.ends, s.kind = make([]int32, 0, est), make([]int32, 0, est)
		s.rank, s.ns = make([]int32, 0, est+1), make([]int32, 0, est)
	}
	if cap(s.arena) < len(text) {
		s.arena = make([]byte, 0, len(text))
	}
	s.arena, s.ends, s.kind = s.arena[:0], s.ends[:0], s.kind[:0]
	s.rank, s.ns, s.blocks, s.votes = s.rank[:0], s.ns[:0], s.blocks[:0], s.votes[:0]
	s.line, s.cur, s.main, s.all, s.any = tally{}, tally{}, pageTally{}, pageTally{}, pageTally{}
	tab := e.table
	minBlock := e.cfg.minBlock
	blockStart := 0 // position of the current block's first token
	blockLine := 0  // byte offset of the line the current block starts on
	joined := -1    // first token of a line joined to the block for now (-1: none)
	joinedLine := 0 // and the byte offset of that line
	stop := 0       // byte offset just past the last token
	// endLine is called at the end of each line (blocks on): the line
	// ends its block unless the block is short and the line ends a
	// sentence; then the next line, starting at byte offset next, is
	// joined to the block: prose written one sentence per line (help
	// pages, list items that are sentences) is one block, as it would be
	// in a paragraph. A joined line that has the minimum of tokens by
	// itself is a block of its own, and the short block before it ends
	// there: a notice after a page's short last sentence is the same block
	// on every page.
	endLine := func(next int, sentence bool) {
		if joined >= 0 && len(s.ends)-joined >= minBlock {
			e.dropTokens(s, blockStart, joined, st)
			blockLine, s.cur = joinedLine, s.line
		} else {
			s.cur.merge(&s.line)
		}
		joined = -1
		s.line.reset()
		if next < 0 {
			return
		}
		if n := len(s.ends) - blockStart; n > 0 && n < minBlock && sentence {
			joined, joinedLine = len(s.ends), next
			return
		}
		e.endBlock(s, blockStart, blockLine, stop, &spans, st)
		blockStart, blockLine = len(s.ends), next
	}
	t := tokenizer{text: text, buf: s.tokbuf}
	examined := 0
	termNL := false // the previous token was ended by a '\n'
	for {
		p0 := t.pos
		tok, ok := t.next()
		if !ok {
			break
		}
		if examined >= e.cfg.maxTokens {
			st.TokensTruncated = true
			break
		}
		examined++
		if minBlock > 0 {
			// t.pos is just past the byte that ended tok (or the end of
			// the text): a '\n' before tok is the one that ended the
			// previous token or one among the separators in between.
			p1 := t.pos
			if i := bytes.LastIndexByte(text[p0:p1-1], '\n'); i >= 0 {
				// The previous token's terminator (at p0-1, a rune of up to
				// 4 bytes) may be the full stop.
				first := bytes.IndexByte(text[p0:p1-1], '\n')
				endLine(p0+i+1, endsSentence(text[max(0, p0-4):p0+first]))
			} else if termNL {
				endLine(p0, false)
			}
			termNL = text[p1-1] == '\n'
		}
		k, known := tab.words[string(tok)]
		if !known {
			k = -1
		}
		if e.auto {
			s.line.add(tab, k, tok)
		}
		s.arena = append(s.arena, tok...)
		s.ends = append(s.ends, int32(len(s.arena)))
		s.kind = append(s.kind, k)
		stop = t.pos
	}
	endLine(-1, false)
	e.endBlock(s, blockStart, blockLine, stop, &spans, st)
	st.Tokens = examined
	s.tokbuf = t.buf[:0]

	// The page's language, then each block's; then every token's kind in
	// its block's language.
	page := tab.und
	if e.auto {
		// The main content's blocks; all kept blocks if none is inside
		// it; all the text if no block is kept (a page of short lines:
		// it has no signatures, but its language is still reported).
		p := &s.main
		if p.blocks == 0 {
			p = &s.all
		}
		if p.blocks == 0 {
			p = &s.any
		}
		page = tab.pageLanguage(p, func(script, max int) string {
			var b strings.Builder
			if p == &s.any {
				sampleOf(&b, text, 0, len(text), max)
			}
			for _, k := range s.blocks {
				if int(k.script) == script && (k.main || p == &s.all) {
					sampleOf(&b, text, int(k.start), int(k.stop), max)
				}
			}
			return b.String()
		})
	}
	st.Lang, s.page = tab.data[page].tag, int32(page)
	nl, nv := len(tab.data), min(tab.und, 64)
	i := int32(0)
	for b := range s.blocks {
		k := &s.blocks[b]
		if !e.auto {
			k.lang = int32(page)
		} else if k.lang = int32(tab.blockLanguage(k.blockVote, s.votes[k.votes:k.votes+int32(nv)], page)); int(k.lang) != page {
			st.LangBlocks++
		}
		for ; i < k.end; i++ {
			kind := int32(wordContent)
			if w := s.kind[i]; w >= 0 {
				kind = tab.kinds[int(w)*nl+int(k.lang)]
			}
			s.rank = append(s.rank, int32(len(s.ns)))
			if kind == wordContent {
				s.ns = append(s.ns, i)
			}
			s.kind[i] = kind
		}
	}
	s.rank = append(s.rank, int32(len(s.ns)))
}

// endsSentence reports whether the bytes sep before a line's '\n' (the
// last token's terminator and the separators after it) end a sentence:
// their last non-space rune is a full stop, question or exclamation mark
// (Latin, CJK full-width, or the ellipsis).
func endsSentence(sep []byte) bool {
	sep = bytes.TrimRight(sep, " \t\r")
	r, _ := utf8.DecodeLastRune(sep)
	switch r {
	case '.', '!', '?', '…', '。', '！', '？', '．':
		return true
	}
	return false
}

// endBlock closes the block of the tokens from start on, whose line starts
// at byte offset line and whose last token ends before byte stop, with
// the language evidence s.cur: it is kept (recorded in s.blocks, its
// evidence added to the page's) if it has at least the minimum of tokens,
// else its tokens are removed from s. spans are the periphery spans not
// yet passed.
func (e *Extractor) endBlock(s *scratch, start, line, stop int, spans *[]span, st *ExtractStats) {
	cur := &s.cur
	defer cur.reset()
	n := len(s.ends) - start
	if n == 0 {
		return
	}
	if e.auto {
		s.any.add(cur, cur.dominant())
	}
	if n < e.cfg.minBlock {
		e.dropTokens(s, start, len(s.ends), st)
		return
	}
	for len(*spans) > 0 && (*spans)[0].end <= line {
		*spans = (*spans)[1:]
	}
	b := block{end: int32(len(s.ends)), start: int32(line), stop: int32(stop),
		main: !(len(*spans) > 0 && (*spans)[0].start <= line)}
	if e.auto {
		b.blockVote = blockVote{script: int8(cur.dominant()), kana: cur.kana, han: cur.han}
		b.votes = int32(len(s.votes))
		s.votes = append(s.votes, cur.votes[:min(e.table.und, 64)]...)
		if b.main {
			s.main.add(cur, int(b.script))
		}
		s.all.add(cur, int(b.script))
	}
	s.blocks = append(s.blocks, b)
	st.Blocks++
}

// dropTokens removes the tokens [a, b) of s, a block shorter than the
// minimum (the tokens after it move down), and counts it as skipped.
func (e *Extractor) dropTokens(s *scratch, a, b int, st *ExtractStats) {
	st.BlocksSkipped++
	st.TokensSkipped += b - a
	var to int32 // arena offset of token a
	if a > 0 {
		to = s.ends[a-1]
	}
	from := s.ends[b-1]
	s.arena = s.arena[:int(to)+copy(s.arena[to:], s.arena[from:])]
	s.ends = s.ends[:a+copy(s.ends[a:], s.ends[b:])]
	s.kind = s.kind[:a+copy(s.kind[a:], s.kind[b:])]
	for j := a; j < len(s.ends); j++ {
		s.ends[j] -= from - to
	}
}

// walk visits the spot signatures of the scanned text in document order:
// for every antecedent occurrence and each of its specs a(d, c) in the
// language of its block, the chain of §3.1 (see DistanceMode) within the
// occurrence's block, cut at the end of the block (the end of the text
// with blocks off) as long as it has at least one word. visit gets the
// block's index, the spec and the chain's token positions (valid during
// the call) and returns false to stop.
func (e *Extractor) walk(s *scratch, st *ExtractStats, visit func(b int, a *antecedentSpec, chain []int32) bool) {
	i := int32(0)
	for b, k := range s.blocks {
		n := k.end
		d := e.table.data[k.lang]
		nns := s.rank[n] // non-stopwords before the block's end
		for ; i < n; i++ {
			g := s.kind[i]
			if g < 0 {
				continue
			}
			for a := range d.groups[g] {
				spec := &d.groups[g][a]
				st.Spots++
				chain := s.chain[:0]
				d := int32(spec.distance)
				if e.cfg.mode == DistanceContentWords {
					r := s.rank[i+1] + d - 1 // rank of the d-th non-stopword after i
					for j := 0; j < spec.chain && r < nns; j++ {
						chain = append(chain, s.ns[r])
						r += d
					}
				} else {
					k := i + d
					for j := 0; j < spec.chain && k < n; j++ {
						// Move on to the next non-stopword (O(1) via rank).
						r := s.rank[k]
						if r >= nns {
							break
						}
						k = s.ns[r]
						chain = append(chain, k)
						k += d
					}
				}
				s.chain = chain
				if len(chain) == 0 {
					continue
				}
				if !visit(b, spec, chain) {
					return
				}
			}
		}
	}
}

// Extract returns the multiset of spot signatures of plain text (§3, single
// pass, O(|tokens|·c)) as a Vector, identified by SignatureHash of
// "<language>/antecedent:word1:…:wordc", the language being that of the
// signature's block (langid.go; ExtractStats.Lang for the blocks in the
// text's language). By default chains stay within one block (one
// line of text, '\n'-separated, as PayloadText produces) and blocks of
// fewer than DefaultMinBlockTokens tokens are skipped: a deviation from §3
// measured on the gold set, see WithMinBlockTokens; WithMinBlockTokens(0)
// gives the paper's whole-document chains. Caps: at most the max-tokens cap of tokens is
// read and at most the max-signatures cap of signatures is kept; both are
// reported in ExtractStats. Text without any antecedent followed by a
// non-stopword (in its block) yields the empty Vector.
func (e *Extractor) Extract(text []byte) (Vector, ExtractStats) {
	s := e.scratch.Get().(*scratch)
	defer e.release(s)
	var st ExtractStats
	v := e.extract(s, text, nil, &st)
	return v, st
}

// extract is Extract with the blocks whose line lies in one of spans
// outside the main content.
func (e *Extractor) extract(s *scratch, text []byte, spans []span, st *ExtractStats) Vector {
	e.sign(s, text, spans, st, nil)
	return NewVector(s.hashes)
}

// sign scans text and computes the hashes of its signatures into
// s.hashes, under the max-signatures cap; with hblock non-nil the block of
// each hash goes to *hblock.
func (e *Extractor) sign(s *scratch, text []byte, spans []span, st *ExtractStats, hblock *[]int32) {
	e.scan(s, text, spans, st)
	s.hashes = s.hashes[:0]
	maxSigs := e.cfg.maxSigs
	e.walk(s, st, func(b int, a *antecedentSpec, chain []int32) bool {
		h := a.prefix
		for _, k := range chain {
			h ^= ':'
			h *= hashx.FNVPrime
			h = hashx.FNVAdd(h, s.token(k))
		}
		s.hashes = append(s.hashes, h)
		if hblock != nil {
			*hblock = append(*hblock, int32(b))
		}
		if s.blocks[b].lang != s.page {
			st.LangSignatures++
		}
		if len(s.hashes) >= maxSigs {
			st.SignaturesTruncated = true
			return false
		}
		return true
	})
	st.Signatures = len(s.hashes)
}

// Signatures returns the spot signatures of text in document order, with
// repeats, in the paper's string form "the:south:carolina" (§3.2), without
// the language, which is that of the signature's block (ExtractStats.Lang
// of Extract on the same text, for the blocks in the text's language). It
// is the debug twin of Extract: SignatureHash(lang + "/" + s) of each
// string s is the hash Extract counts, under the same caps.
func (e *Extractor) Signatures(text []byte) []string {
	s := e.scratch.Get().(*scratch)
	defer e.release(s)
	var st ExtractStats
	e.scan(s, text, nil, &st)
	var out []string
	var b strings.Builder
	e.walk(s, &st, func(_ int, a *antecedentSpec, chain []int32) bool {
		b.Reset()
		b.WriteString(a.word)
		for _, k := range chain {
			b.WriteByte(':')
			b.Write(s.token(k))
		}
		out = append(out, b.String())
		return len(out) < e.cfg.maxSigs
	})
	return out
}

// PayloadStats describes one ExtractPayload call.
type PayloadStats struct {
	Text    TextStats
	Extract ExtractStats
	// Digest is TextDigest of the text the signatures were taken from.
	Digest string
}

// ExtractPayload is PayloadText followed by Extract, with the Extractor's
// options (caps included) and without allocating the intermediate text:
// the whole per-document path from an HTTP payload to its signature
// Vector. The language of an HTML page is that of its main content
// (layout.go, langid.go). Errors are PayloadText's (ErrNotText,
// ErrBinary); the Vector is then empty.
func (e *Extractor) ExtractPayload(payload []byte, contentType string) (Vector, PayloadStats, error) {
	s := e.scratch.Get().(*scratch)
	defer e.release(s)
	var st PayloadStats
	spans, err := e.payloadText(s, payload, contentType, &st)
	if err != nil {
		return Vector{}, st, err
	}
	return e.extract(s, s.text, spans, &st.Extract), st, nil
}

// payloadText writes the text of payload to s.text and returns the spans
// of its periphery (HTML; nil for plain text), and sets st.Text and
// st.Digest.
func (e *Extractor) payloadText(s *scratch, payload []byte, contentType string, st *PayloadStats) ([]span, error) {
	kind, err := payloadKind(payload, contentType)
	if err != nil {
		st.Text.InputBytes = len(payload)
		return nil, err
	}
	s.text, err = appendPayloadText(s.text[:0], payload, contentType, kind, &e.cfg, &st.Text, &s.lay)
	if err != nil {
		return nil, err
	}
	st.Digest = TextDigest(s.text)
	if kind == KindHTML {
		return s.lay.periphery(s.text), nil
	}
	return nil, nil
}

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
	return e.extractBlocks(s, s.text, spans, &st.Extract), st, nil
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

// blockHash is BlockHash of kept block b's tokens.
func (e *Extractor) blockHash(s *scratch, b int) uint64 {
	start := int32(0)
	if b > 0 {
		start = s.blocks[b-1].end
	}
	h := uint64(hashx.FNVOffset)
	for k := start; k < s.blocks[b].end; k++ {
		h = hashBlockToken(h, s.token(k))
	}
	return h
}

// BlockHash identifies a block of text across pages: FNV-1a (64 bit) of
// its tokens (Tokenize: lower-cased words) each followed by a space, with
// every ASCII digit read as '0', so that a notice differing only in a date
// or a count is the same block (cc_net's paragraph normalisation, Wenzek
// et al. 2020, §3.2).
func BlockHash(text []byte) uint64 {
	h := uint64(hashx.FNVOffset)
	Tokenize(text, func(tok []byte) { h = hashBlockToken(h, tok) })
	return h
}

func hashBlockToken(h uint64, tok []byte) uint64 {
	for _, c := range tok {
		if c >= '0' && c <= '9' {
			c = '0'
		}
		h ^= uint64(c)
		h *= hashx.FNVPrime
	}
	h ^= ' '
	h *= hashx.FNVPrime
	return h
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
