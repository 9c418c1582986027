package match

import (
	"math/bits"
	"math/rand/v2"

	"github.com/ndd-beam/ndd-beam/internal/hashx"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Paper defaults for LSH-S (§5.3.3, Table 1): k = 6 min-hashes concatenated
// per band, l = 32 bands.
const (
	DefaultLSHRows  = 6
	DefaultLSHBands = 32
	// DefaultLSHSeed fixes the random hash functions so runs are repeatable.
	DefaultLSHSeed = 20080720
)

// mersenne61 is the prime P = 2^61 − 1 of the random linear hash functions
// π_i(x) = (α_i·x + β_i) mod P (§5.2). The paper takes P as the first prime
// above the dimensionality D; signatures here are 64-bit hashes, so D is
// unknown and a large fixed prime serves (x is first reduced mod P).
const mersenne61 = 1<<61 - 1

// LSH is MinHash locality-sensitive hashing as a Grouping: the paper's LSH-S
// when the vectors hold spot signatures (§5.2, §5.3.3), LSH over shingles
// otherwise.
//
// Each document gets k·l min-hashes under random linear hash functions
// π_i(x) = (α_i·x + β_i) mod P over its distinct signatures (set semantics,
// so the probability that one min-hash agrees is the set Jaccard of the two
// documents). The min-hashes are cut into l bands of k rows; each band is one
// group key, so two documents become candidates when they agree on all k rows
// of at least one band, with probability 1 − (1 − J^k)^l
// (ndd-shingling-minhash-lsh-slides). MatchGroup verifies every candidate
// pair by the exact weighted Jaccard (eq. 4) against Tau, so LSH has no false
// positives beyond the exact matcher's, only false negatives.
//
// A pair may share several bands, so Repeats reports true and the caller
// de-duplicates. An LSH is immutable and safe for concurrent use.
type LSH struct {
	tau   float64
	k, l  int
	alpha []uint64 // k·l coefficients in [1, P)
	beta  []uint64 // k·l offsets in [0, P)
}

// LSHOption configures NewLSH.
type LSHOption func(*lshConfig)

type lshConfig struct {
	k, l int
	seed uint64
}

// WithBands sets k, the min-hashes per band (rows), and l, the number of
// bands (hash tables). Values below 1 are ignored. Paper: k = 6, l = 32.
func WithBands(k, l int) LSHOption {
	return func(c *lshConfig) {
		if k >= 1 {
			c.k = k
		}
		if l >= 1 {
			c.l = l
		}
	}
}

// WithLSHSeed sets the seed of the random hash functions (default
// DefaultLSHSeed). The same seed gives the same groups on every machine.
func WithLSHSeed(seed uint64) LSHOption {
	return func(c *lshConfig) { c.seed = seed }
}

// NewLSH returns MinHash LSH verifying candidates at weighted Jaccard ≥ tau,
// with the paper's k = 6, l = 32 unless options say otherwise.
func NewLSH(tau float64, opts ...LSHOption) *LSH {
	c := lshConfig{k: DefaultLSHRows, l: DefaultLSHBands, seed: DefaultLSHSeed}
	for _, o := range opts {
		o(&c)
	}
	rng := rand.New(rand.NewPCG(c.seed, c.seed^0x9e3779b97f4a7c15))
	m := c.k * c.l
	h := &LSH{tau: tau, k: c.k, l: c.l, alpha: make([]uint64, m), beta: make([]uint64, m)}
	for i := range m {
		h.alpha[i] = 1 + rng.Uint64N(mersenne61-1)
		h.beta[i] = rng.Uint64N(mersenne61)
	}
	return h
}

// Tau returns the verification threshold.
func (h *LSH) Tau() float64 { return h.tau }

// Bands returns k (rows per band) and l (bands).
func (h *LSH) Bands() (k, l int) { return h.k, h.l }

// MinHashes returns the k·l min-hashes of v's distinct signatures, band by
// band (entries b·k … b·k+k−1 form band b). An empty vector gets none.
func (h *LSH) MinHashes(v spotsig.Vector) []uint64 {
	if len(v.Hashes) == 0 {
		return nil
	}
	m := len(h.alpha)
	mins := make([]uint64, m)
	for i := range mins {
		mins[i] = mersenne61
	}
	for _, s := range v.Hashes {
		x := reduce61(s)
		for i := range m {
			if p := linear61(h.alpha[i], x, h.beta[i]); p < mins[i] {
				mins[i] = p
			}
		}
	}
	return mins
}

// Keys returns one home key per band: a hash of the band index and its k
// min-hashes. Documents without signatures get no key and are never matched.
func (h *LSH) Keys(v spotsig.Vector) []GroupKey {
	mins := h.MinHashes(v)
	if mins == nil {
		return nil
	}
	keys := make([]GroupKey, h.l)
	for b := range h.l {
		x := hashx.Mix64(uint64(b) + 0x51ed270b27a4b1c5)
		for _, mh := range mins[b*h.k : (b+1)*h.k] {
			x = hashx.Mix64(x ^ mh)
		}
		keys[b] = GroupKey{Key: x}
	}
	return keys
}

// MatchGroup returns the pairs of one LSH bucket whose weighted Jaccard is at
// least Tau: all home–home pairs and all home–guest pairs (LSH emits no
// guests itself). Indices follow the Grouping contract; pairs are sorted.
func (h *LSH) MatchGroup(home, guests []spotsig.Vector) []Pair {
	return allPairs(home, guests, func(a, b spotsig.Vector) (float64, bool) {
		if !lengthCompatible(a.Len(), b.Len(), h.tau) {
			return 0, false
		}
		j := WeightedJaccard(a, b)
		return j, j >= h.tau
	})
}

// Repeats reports true: a pair can collide in several bands.
func (h *LSH) Repeats() bool { return true }

// allPairs applies keep to every home–home pair and every home–guest pair
// (guest index len(home)+j), returning the kept pairs sorted by (A, B).
func allPairs(home, guests []spotsig.Vector, keep func(a, b spotsig.Vector) (float64, bool)) []Pair {
	var out []Pair
	for i := range home {
		for j := i + 1; j < len(home); j++ {
			if s, ok := keep(home[i], home[j]); ok {
				out = append(out, Pair{A: i, B: j, Jaccard: s})
			}
		}
		for g := range guests {
			if s, ok := keep(home[i], guests[g]); ok {
				out = append(out, Pair{A: i, B: len(home) + g, Jaccard: s})
			}
		}
	}
	return out // already sorted by (A, B): guest indices exceed home indices
}

// lengthCompatible is the length bound of eq. (6): two vectors can reach
// weighted Jaccard τ only if min(|a|,|b|)/max(|a|,|b|) ≥ τ.
func lengthCompatible(la, lb int, tau float64) bool {
	if la > lb {
		la, lb = lb, la
	}
	// The slack keeps rounding from ever rejecting a pair that WeightedJaccard
	// would accept; the bound only saves work.
	return lb == 0 || float64(la) >= tau*float64(lb)*(1-1e-9)
}

// reduce61 maps a 64-bit hash into [0, P).
func reduce61(x uint64) uint64 {
	x = (x & mersenne61) + (x >> 61)
	if x >= mersenne61 {
		x -= mersenne61
	}
	return x
}

// linear61 returns (a·x + b) mod P for a, x, b < P = 2^61 − 1.
func linear61(a, x, b uint64) uint64 {
	hi, lo := bits.Mul64(a, x)
	// a·x = hi·2^64 + lo; 2^64 ≡ 2^3 (mod 2^61 − 1).
	r := (lo & mersenne61) + (lo >> 61) + (hi << 3)
	r = (r & mersenne61) + (r >> 61)
	r += b
	r = (r & mersenne61) + (r >> 61)
	if r >= mersenne61 {
		r -= mersenne61
	}
	return r
}
