// Package hashx holds the two unseeded 64-bit hashes the job uses, so that
// every worker and machine computes the same values: FNV-1a (spot
// signature and shingle identifiers) and the SplitMix64 finalizer (a
// bijective mixer for well-spread bits), and the union of two bottom-k
// sketches of such hashes (UniteSmallest).
package hashx

import "slices"

// FNV-1a 64-bit offset basis and prime (the standard constants).
const (
	FNVOffset = 14695981039346656037
	FNVPrime  = 1099511628211
)

// FNVAdd continues the FNV-1a hash h over b; FNVAdd(FNVOffset, b) is the
// FNV-1a hash of b.
func FNVAdd(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= FNVPrime
	}
	return h
}

// FNVString is the FNV-1a hash of s.
func FNVString(s string) uint64 {
	h := uint64(FNVOffset)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= FNVPrime
	}
	return h
}

// Mix64 is the SplitMix64 finalizer: a bijection of 64-bit values whose
// output bits each depend on every input bit.
func Mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// UniteSmallest returns the k smallest distinct values of two ascending,
// distinct lists (bottom-k sketches of two sets: the sketch of their
// union), ascending; nil when both are empty.
func UniteSmallest[T uint32 | uint64](x, y []T, k int) []T {
	if len(x)+len(y) == 0 {
		return nil
	}
	out := make([]T, 0, min(len(x)+len(y), k))
	i, j := 0, 0
	for len(out) < k && (i < len(x) || j < len(y)) {
		switch {
		case j >= len(y) || (i < len(x) && x[i] < y[j]):
			out = append(out, x[i])
			i++
		case i >= len(x) || y[j] < x[i]:
			out = append(out, y[j])
			j++
		default: // equal
			out = append(out, x[i])
			i, j = i+1, j+1
		}
	}
	return out
}

// MergeSmallest is UniteSmallest(x, y, k) for a list x of at most k
// values, computed in place: x's array is reused (and changed), so x must
// not be shared. Merging one page's values (one or two) into a count's
// sketch then allocates only when x grows, not once per page.
func MergeSmallest[T uint32 | uint64](x, y []T, k int) []T {
	for _, v := range y {
		i, found := slices.BinarySearch(x, v)
		switch {
		case found:
		case len(x) < k:
			x = slices.Insert(x, i, v)
		case i >= len(x):
			return x // y is ascending: the rest are larger too
		default:
			copy(x[i+1:], x[i:len(x)-1])
			x[i] = v
		}
	}
	return x
}
