package match

import (
	"crypto/sha1"
	"encoding/binary"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// DefaultIMatchIDF is the IDF range at which the paper's I-Match and
// I-Match-S perform best on its gold set (§5.3.3, Table 1), the range the
// I-Match authors also recommend. I-Match applies it to the vectors before
// hashing (spotsig.FilterIDF); the Grouping itself only hashes.
var DefaultIMatchIDF = spotsig.IDFRange{Min: 0.4, Max: 0.75}

// IMatch is the I-Match algorithm (Chowdhury et al.; paper §5.2) as a
// Grouping: one SHA-1 digest over a document's distinct, IDF-filtered
// features, and every pair of documents with the same digest is a
// near-duplicate. Over word vectors (spotsig shingles with k = 1) it is the
// paper's I-Match; over spot signatures it is I-Match-S.
//
// The features are hashed in the vector's ascending hash order, which is a
// canonical order, so two documents collide exactly when their filtered
// feature sets are equal. The group key is the first 8 bytes of the digest.
// A document whose filtered vector is empty gets no key (the empty set would
// otherwise make every such document a duplicate of every other).
//
// I-Match has no threshold: MatchGroup returns all pairs of a bucket with
// their weighted Jaccard for information. Each pair lies in one bucket only,
// so Repeats is false. An IMatch is stateless and safe for concurrent use.
type IMatch struct {
	// MinFeatures is the least number of distinct features a document needs
	// to get a key; below it the digest says too little (0 or 1 means any
	// non-empty document).
	MinFeatures int
}

// Digest returns the SHA-1 digest of v's distinct features (each hash as 8
// big-endian bytes, ascending), the I-Match fingerprint.
func (m IMatch) Digest(v spotsig.Vector) [sha1.Size]byte {
	h := sha1.New()
	var buf [8 * 64]byte
	n := 0
	for _, x := range v.Hashes {
		binary.BigEndian.PutUint64(buf[n:], x)
		n += 8
		if n == len(buf) {
			h.Write(buf[:])
			n = 0
		}
	}
	h.Write(buf[:n])
	var d [sha1.Size]byte
	h.Sum(d[:0])
	return d
}

// Keys returns the one home key of v: the first 8 bytes of its digest.
func (m IMatch) Keys(v spotsig.Vector) []GroupKey {
	if len(v.Hashes) == 0 || len(v.Hashes) < m.MinFeatures {
		return nil
	}
	d := m.Digest(v)
	return []GroupKey{{Key: binary.BigEndian.Uint64(d[:8])}}
}

// MatchGroup returns every pair of the bucket (home–home and home–guest),
// each with its weighted Jaccard, sorted by (A, B).
func (m IMatch) MatchGroup(home, guests []spotsig.Vector) []Pair {
	return allPairs(home, guests, func(a, b spotsig.Vector) (float64, bool) {
		return WeightedJaccard(a, b), true
	})
}

// Repeats reports false: a document has one key, so a pair meets once.
func (m IMatch) Repeats() bool { return false }
