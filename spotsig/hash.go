package spotsig

import "github.com/ndd-beam/ndd-beam/internal/hashx"

// Hashing: the identifier of a spot signature (§3.1; the elements of the
// multisets of §4.1.2), which Extract computes as it walks a chain, and the
// identifier of a text block across pages.

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
