package spotsig

import (
	"strings"

	"github.com/ndd-beam/ndd-beam/internal/hashx"
)

// Spot signatures from the scanned tokens (§3.1): the chain walk from each
// antecedent a(d, c) over the next c non-stopwords at spot distance d, and
// the signatures it yields, hashed into the multiset of §4.1.2 (Extract, a
// Vector) or as strings like §3.2's "the:south:carolina" (Signatures).

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
