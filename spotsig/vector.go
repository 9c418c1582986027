package spotsig

import "slices"

// Vector is a document's multiset of spot signatures in compact form
// (paper §4.1.2): the distinct signature hashes in ascending order and, at the
// same index, how often each occurs. The zero Vector is the empty multiset.
type Vector struct {
	Hashes []uint64 // ascending, unique
	Freqs  []uint32 // Freqs[i] = multiplicity of Hashes[i], >= 1
}

// Len returns |d| = Σ freq, the vector length used by the partitioning and
// pruning bounds of §4.1.2 (eq. 5 and 6).
func (v Vector) Len() int {
	n := 0
	for _, f := range v.Freqs {
		n += int(f)
	}
	return n
}

// NewVector builds the multiset of an unsorted list of signature hashes,
// counting repeats. It sorts hashes in place; the result's slices are sized
// exactly (documents are held by the million in a matcher's memory).
func NewVector(hashes []uint64) Vector {
	if len(hashes) == 0 {
		return Vector{}
	}
	slices.Sort(hashes)
	distinct := 1
	for i := 1; i < len(hashes); i++ {
		if hashes[i] != hashes[i-1] {
			distinct++
		}
	}
	v := Vector{Hashes: make([]uint64, 0, distinct), Freqs: make([]uint32, 0, distinct)}
	for i, h := range hashes {
		if i > 0 && h == hashes[i-1] {
			v.Freqs[len(v.Freqs)-1]++
			continue
		}
		v.Hashes = append(v.Hashes, h)
		v.Freqs = append(v.Freqs, 1)
	}
	return v
}
