package hashx

import (
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"testing"
)

// FNVAdd and FNVString equal the standard library's FNV-1a 64; Mix64 keeps
// its published test vector (SplitMix64 with seed 0: the first output is
// Mix64(0x9e3779b97f4a7c15)).
func TestHashes(t *testing.T) {
	for _, s := range []string{"", "a", "en/the:south:carolina", "日本語"} {
		h := fnv.New64a()
		h.Write([]byte(s))
		if got := FNVAdd(FNVOffset, []byte(s)); got != h.Sum64() {
			t.Errorf("FNVAdd(%q) = %x, want %x", s, got, h.Sum64())
		}
		if got := FNVString(s); got != h.Sum64() {
			t.Errorf("FNVString(%q) = %x, want %x", s, got, h.Sum64())
		}
	}
	if got := Mix64(0x9e3779b97f4a7c15); got != 0xe220a8397b1dcdaf {
		t.Errorf("Mix64 = %x, want e220a8397b1dcdaf", got)
	}
}

// UniteSmallest is the k smallest distinct values of the sorted union.
func TestUniteSmallest(t *testing.T) {
	for _, c := range []struct {
		x, y []uint32
		k    int
		want []uint32
	}{
		{nil, nil, 3, nil},
		{[]uint32{1, 4, 9}, []uint32{2, 4, 5}, 4, []uint32{1, 2, 4, 5}},
		{[]uint32{1, 4, 9}, []uint32{2, 4, 5}, 10, []uint32{1, 2, 4, 5, 9}},
		{[]uint32{3}, nil, 1, []uint32{3}},
		{nil, []uint32{7, 8}, 1, []uint32{7}},
	} {
		if got := UniteSmallest(c.x, c.y, c.k); !slices.Equal(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("UniteSmallest(%v, %v, %d) = %v, want %v", c.x, c.y, c.k, got, c.want)
		}
	}
}

// TestMergeSmallest checks MergeSmallest against UniteSmallest on random
// ascending lists, and that it merges in place.
func TestMergeSmallest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	list := func(n int) []uint64 {
		var s []uint64
		for range n {
			s = append(s, uint64(rng.IntN(40)))
		}
		slices.Sort(s)
		return slices.Compact(s)
	}
	for range 20000 {
		k := 1 + rng.IntN(8)
		x, y := list(rng.IntN(k+1)), list(rng.IntN(4))
		if len(x) > k {
			x = x[:k]
		}
		want := UniteSmallest(x, y, k)
		if got := MergeSmallest(slices.Clone(x), y, k); !slices.Equal(got, want) {
			t.Fatalf("MergeSmallest(%v, %v, %d) = %v, want %v", x, y, k, got, want)
		}
	}
	x := make([]uint64, 3, 4)
	copy(x, []uint64{2, 5, 9})
	if got := MergeSmallest(x, []uint64{1}, 4); &got[0] != &x[0] || !slices.Equal(got, []uint64{1, 2, 5, 9}) {
		t.Fatalf("MergeSmallest did not merge in place: %v", got)
	}
}
