package spotsig

import "github.com/ndd-beam/ndd-beam/internal/hashx"

// Shingles: the competitor signature scheme of the paper's §5.3.1 (Broder's
// word k-grams, "k-Shingling"), built over exactly the tokens spot
// signatures see (Tokenize), so that a comparison between the two schemes
// differs in the signatures only.

// shingleSeed starts every k-gram hash; it keeps the 1-gram of a word apart
// from the raw FNV hash of the word.
const shingleSeed = 0x2545f4914f6cdd1d

// Shingles returns the multiset of word k-grams (shingles) of text: one
// hash per window of k consecutive tokens of Tokenize (lower-cased Unicode
// words), counted with repeats, as a Vector. k = 1 gives the bag of words,
// k = 3 the paper's 3-Shingles (§5.3.1). A text with fewer than k tokens
// has no shingle and gives the empty Vector; k < 1 is treated as 1.
//
// The hash of a k-gram is a 64-bit mix of its tokens' FNV-1a hashes in
// order, computed without a string per token. Shingle hashes are
// deterministic across runs and machines, so vectors from different
// processes compare.
func Shingles(text []byte, k int) Vector {
	if k < 1 {
		k = 1
	}
	ring := make([]uint64, k) // FNV-1a hashes of the last k tokens
	var hashes []uint64
	n := 0
	Tokenize(text, func(tok []byte) {
		ring[n%k] = hashx.FNVAdd(hashx.FNVOffset, tok)
		n++
		if n < k {
			return
		}
		x := uint64(shingleSeed)
		for j := n - k; j < n; j++ {
			x = hashx.Mix64(x ^ ring[j%k])
		}
		hashes = append(hashes, x)
	})
	return NewVector(hashes)
}

// Shingler extracts word k-gram vectors; it is the shingles counterpart of
// Extractor for the evaluation harness and the job's shingles method. The
// zero value is not valid; use NewShingler.
type Shingler struct{ k int }

// NewShingler returns a Shingler for k-grams; k must be >= 1.
func NewShingler(k int) (*Shingler, error) {
	if k < 1 {
		return nil, errBadShingle(k)
	}
	return &Shingler{k: k}, nil
}

// K returns the shingle length in words.
func (s *Shingler) K() int { return s.k }

// Extract returns Shingles(text, K()).
func (s *Shingler) Extract(text []byte) Vector { return Shingles(text, s.k) }

type errBadShingle int

func (e errBadShingle) Error() string {
	return "spotsig: bad option: shingle length must be >= 1"
}

func (e errBadShingle) Unwrap() error { return ErrBadOption }
