package match

import (
	"math"
	"slices"
	"sort"

	"github.com/ndd-beam/ndd-beam/internal/hashx"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Defaults of the descriptive-words method (Ilyinsky, Kuzmin, Melkov,
// Segalovich, Yandex: "An efficient method to detect duplicates of Web
// documents with the use of inverted index"). The paper picks N = 2000 words
// for 60 million documents by experiment; a corpus of thousands needs far
// fewer, so the default is smaller and meant to be tuned (WithDescriptiveSize).
const (
	DefaultDescriptiveSize = 200
	// DefaultDescriptiveMinOnes: "vectors with 3 or less words above
	// threshold are removed from further consideration".
	DefaultDescriptiveMinOnes = 4
	// DefaultDescriptiveMinShare is the least share of the corpus that must
	// lie on each side of a word's threshold ("both fractions … not too
	// small").
	DefaultDescriptiveMinShare = 0.05
	// DefaultDescriptivePerturbation is the relative change of a word's
	// frequency that counts as a "small change of a document".
	DefaultDescriptivePerturbation = 0.10
)

// descriptiveGrid is the number of candidate thresholds tried per word
// (quantiles of its relative frequency over the corpus).
const descriptiveGrid = 32

// DescriptiveWords is the Yandex descriptive-words method as a Grouping.
//
// From corpus statistics it picks a descriptive set of N words and for each
// word i a threshold b_i on its relative frequency freq_i(d)/|d|. A
// document's fuzzy signature is the binary vector whose i-th bit says
// freq_i(d)/|d| > b_i; documents with the same vector are one class, and
// every pair in a class is a near-duplicate. Vectors with fewer than MinOnes
// bits set are dropped (no key).
//
// Choosing words and thresholds follows the paper's criteria: a word's
// quality is how rarely a small change of a document moves it across its
// threshold (the paper's Λ_i); b_i minimises Λ_i subject to both sides of
// the threshold holding at least MinShare of the corpus, and the N words of
// least Λ are kept. Λ_i(b) is estimated as the share of documents whose
// frequency lies within one occurrence, or within the relative perturbation
// ε, of b — the documents a small edit could flip.
//
// The input vectors must be word vectors (spotsig shingles with k = 1,
// without IDF filtering), so that Len is the document's length in words.
// A DescriptiveWords is immutable and safe for concurrent use.
type DescriptiveWords struct {
	words      []uint64       // descriptive set, ascending
	thresholds []float64      // b_i, aligned with words
	lambda     []float64      // Λ_i(b_i), aligned with words
	index      map[uint64]int // word hash -> position in words
	minOnes    int
}

// DescriptiveOption configures NewDescriptiveWords.
type DescriptiveOption func(*descriptiveConfig)

type descriptiveConfig struct {
	size     int
	minOnes  int
	minShare float64
	eps      float64
}

// WithDescriptiveSize sets N, the number of descriptive words (default
// DefaultDescriptiveSize).
func WithDescriptiveSize(n int) DescriptiveOption {
	return func(c *descriptiveConfig) {
		if n > 0 {
			c.size = n
		}
	}
}

// WithDescriptiveMinOnes sets the least number of set bits a document's
// vector needs to be classed (default 4, the paper's "more than 3").
func WithDescriptiveMinOnes(k int) DescriptiveOption {
	return func(c *descriptiveConfig) { c.minOnes = k }
}

// WithDescriptiveMinShare sets the least share of documents, in (0, 0.5),
// on each side of a word's threshold (default 0.05).
func WithDescriptiveMinShare(f float64) DescriptiveOption {
	return func(c *descriptiveConfig) {
		if f > 0 && f < 0.5 {
			c.minShare = f
		}
	}
}

// WithDescriptivePerturbation sets ε, the relative frequency change treated
// as a small edit when estimating Λ (default 0.1).
func WithDescriptivePerturbation(eps float64) DescriptiveOption {
	return func(c *descriptiveConfig) {
		if eps >= 0 {
			c.eps = eps
		}
	}
}

// NewDescriptiveWords chooses the descriptive set and thresholds from the
// corpus docs (word vectors). If fewer than N words qualify, all qualifying
// words are used; with none, every document is left without a key.
func NewDescriptiveWords(docs []spotsig.Vector, opts ...DescriptiveOption) *DescriptiveWords {
	c := descriptiveConfig{
		size:     DefaultDescriptiveSize,
		minOnes:  DefaultDescriptiveMinOnes,
		minShare: DefaultDescriptiveMinShare,
		eps:      DefaultDescriptivePerturbation,
	}
	for _, o := range opts {
		o(&c)
	}
	n := len(docs)
	d := &DescriptiveWords{index: map[uint64]int{}, minOnes: c.minOnes}
	if n == 0 {
		return d
	}

	// Inverted lists: word -> (document, count) for the words frequent enough
	// to put MinShare of the corpus above some threshold.
	type posting struct {
		doc   int32
		count uint32
	}
	df := map[uint64]int{}
	for _, v := range docs {
		for _, h := range v.Hashes {
			df[h]++
		}
	}
	minSide := int(math.Ceil(c.minShare * float64(n)))
	lists := map[uint64][]posting{}
	for i, v := range docs {
		for j, h := range v.Hashes {
			if df[h] >= minSide {
				lists[h] = append(lists[h], posting{int32(i), v.Freqs[j]})
			}
		}
	}
	lens := make([]float64, n)
	for i, v := range docs {
		lens[i] = float64(v.Len())
	}

	type candidate struct {
		word   uint64
		b, lam float64
	}
	var cands []candidate
	freqs := make([]float64, n) // relative frequency of the word in each document
	sorted := make([]float64, n)
	for w, ps := range lists {
		clear(freqs)
		for _, p := range ps {
			freqs[p.doc] = float64(p.count) / lens[p.doc]
		}
		copy(sorted, freqs)
		slices.Sort(sorted)
		bestB, bestLam := 0.0, math.Inf(1)
		for g := 0; g <= descriptiveGrid; g++ {
			// Thresholds between the MinShare and 1−MinShare quantiles, each
			// set midway between two distinct neighbouring frequencies.
			q := c.minShare + (1-2*c.minShare)*float64(g)/descriptiveGrid
			k := int(q * float64(n-1))
			b, ok := splitAt(sorted, k)
			if !ok {
				continue
			}
			above := n - sort.SearchFloat64s(sorted, math.Nextafter(b, math.Inf(1)))
			if above < minSide || n-above < minSide {
				continue
			}
			lam := 0
			for i, f := range freqs {
				cnt, at := f*lens[i], b*lens[i]
				if math.Abs(cnt-at) <= 1 || math.Abs(f-b) <= c.eps*b {
					lam++
				}
			}
			if l := float64(lam) / float64(n); l < bestLam {
				bestB, bestLam = b, l
			}
		}
		if !math.IsInf(bestLam, 1) {
			cands = append(cands, candidate{w, bestB, bestLam})
		}
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.lam != b.lam {
			if a.lam < b.lam {
				return -1
			}
			return 1
		}
		if a.word < b.word {
			return -1
		}
		if a.word > b.word {
			return 1
		}
		return 0
	})
	if len(cands) > c.size {
		cands = cands[:c.size]
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.word < b.word {
			return -1
		}
		if a.word > b.word {
			return 1
		}
		return 0
	})
	for i, cd := range cands {
		d.words = append(d.words, cd.word)
		d.thresholds = append(d.thresholds, cd.b)
		d.lambda = append(d.lambda, cd.lam)
		d.index[cd.word] = i
	}
	return d
}

// splitAt returns a threshold just above sorted[k]: the midpoint between
// sorted[k] and the next larger value. ok is false when no larger value
// exists.
func splitAt(sorted []float64, k int) (float64, bool) {
	j := sort.SearchFloat64s(sorted, math.Nextafter(sorted[k], math.Inf(1)))
	if j >= len(sorted) {
		return 0, false
	}
	return (sorted[k] + sorted[j]) / 2, true
}

// Size returns the number of descriptive words chosen.
func (d *DescriptiveWords) Size() int { return len(d.words) }

// Word returns the i-th descriptive word's hash, its threshold b_i on the
// relative frequency and its estimated flip probability Λ_i.
func (d *DescriptiveWords) Word(i int) (hash uint64, threshold, lambda float64) {
	return d.words[i], d.thresholds[i], d.lambda[i]
}

// Bits returns v's binary descriptive vector as a bit set over the
// descriptive words (bit i of word i/64) and the number of bits set.
func (d *DescriptiveWords) Bits(v spotsig.Vector) ([]uint64, int) {
	bits := make([]uint64, (len(d.words)+63)/64)
	ones := 0
	n := float64(v.Len())
	for j, h := range v.Hashes {
		i, ok := d.index[h]
		if !ok {
			continue
		}
		if float64(v.Freqs[j])/n > d.thresholds[i] {
			bits[i/64] |= 1 << (i % 64)
			ones++
		}
	}
	return bits, ones
}

// Keys returns the one home key of v, a hash of its binary vector, or none
// when fewer than MinOnes bits are set.
func (d *DescriptiveWords) Keys(v spotsig.Vector) []GroupKey {
	bits, ones := d.Bits(v)
	if ones < d.minOnes || ones == 0 {
		return nil
	}
	x := hashx.Mix64(0x6a09e667f3bcc909)
	for _, w := range bits {
		x = hashx.Mix64(x ^ w)
	}
	return []GroupKey{{Key: x}}
}

// MatchGroup returns every pair of the class (home–home and home–guest),
// each with its weighted Jaccard, sorted by (A, B).
func (d *DescriptiveWords) MatchGroup(home, guests []spotsig.Vector) []Pair {
	return allPairs(home, guests, func(a, b spotsig.Vector) (float64, bool) {
		return WeightedJaccard(a, b), true
	})
}

// Repeats reports false: a document has one class.
func (d *DescriptiveWords) Repeats() bool { return false }
