package spotsig

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/ndd-beam/ndd-beam/internal/hashx"
)

// Scanning text into tokens and blocks, the single pass over the token
// stream of §3: every token is looked up once and classified as an
// antecedent, a stopword or a content word in the language of its block.
// With blocks on, a line of text is a block (a short one that ends a
// sentence is joined by the next line) and blocks shorter than the minimum
// are dropped, a deviation from §3 measured on the gold set (see
// WithMinBlockTokens).

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
			e.shortBlock(s, blockStart, joined, blockLine, &spans)
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
	// With s.sketch, every word of the text goes to the sketch (sketch.go),
	// the main text's and the periphery's apart, past the token cap too.
	s.sk.main, s.sk.side, s.sk.sideEnd, s.shorts = s.sk.main[:0], s.sk.side[:0], s.sk.sideEnd[:0], s.shorts[:0]
	periphery := spans
	for {
		p0 := t.pos
		tok, ok := t.next()
		if !ok {
			break
		}
		h := wordHash(tok)
		if s.sketch {
			s.sk.addHash(h, t.end, &periphery)
		}
		if examined >= e.cfg.maxTokens {
			st.TokensTruncated = true
			for s.sketch {
				if tok, ok = t.next(); !ok {
					break
				}
				s.sk.add(tok, t.end, &periphery)
			}
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
		k, known := tab.find(h, tok)
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
	s.stop = int32(stop)
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
		e.shortBlock(s, start, len(s.ends), line, spans)
		e.dropTokens(s, start, len(s.ends), st)
		return
	}
	b := block{end: int32(len(s.ends)), start: int32(line), stop: int32(stop), main: inMain(spans, line)}
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

// inMain reports whether the line starting at byte offset line is inside
// the main content: in none of spans, the periphery spans not yet passed
// (advanced past the line's start).
func inMain(spans *[]span, line int) bool {
	for len(*spans) > 0 && (*spans)[0].end <= line {
		*spans = (*spans)[1:]
	}
	return !(len(*spans) > 0 && (*spans)[0].start <= line)
}

// shortBlock records, when the scan gathers the sketch (payload
// extractions), the block of the tokens [a, b) starting on the line at
// byte offset line, shorter than the minimum and about to be dropped: its
// BlockHash and where it lies (periphery.go).
func (e *Extractor) shortBlock(s *scratch, a, b, line int, spans *[]span) {
	if !s.sketch {
		return
	}
	h := uint64(hashx.FNVOffset)
	for k := a; k < b; k++ {
		h = hashBlockToken(h, s.token(int32(k)))
	}
	s.shorts = append(s.shorts, short{hash: h, start: int32(line), main: inMain(spans, line)})
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
