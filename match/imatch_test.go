package match

import (
	"crypto/sha1"
	"encoding/binary"
	"testing"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// The I-Match fingerprint is SHA-1 over the distinct features in ascending
// order; recompute it independently for a two-feature document.
func TestIMatchDigestIsSHA1OfSortedFeatures(t *testing.T) {
	v := spotsig.NewVector([]uint64{0x0202, 0x0101, 0x0202})
	var buf [16]byte
	binary.BigEndian.PutUint64(buf[0:], 0x0101)
	binary.BigEndian.PutUint64(buf[8:], 0x0202)
	want := sha1.Sum(buf[:])
	if got := (IMatch{}).Digest(v); got != want {
		t.Errorf("digest %x, want %x", got, want)
	}
	keys := IMatch{}.Keys(v)
	if len(keys) != 1 || keys[0].Key != binary.BigEndian.Uint64(want[:8]) || keys[0].Guest {
		t.Errorf("keys %v, want the first 8 digest bytes as one home key", keys)
	}
}

// More than 64 features exercise the digest's buffer refill.
func TestIMatchSetSemantics(t *testing.T) {
	var hs []uint64
	for i := range 200 {
		hs = append(hs, uint64(i)*0x9e3779b97f4a7c15)
	}
	a := spotsig.NewVector(append([]uint64(nil), hs...))
	b := spotsig.NewVector(append(append([]uint64(nil), hs...), hs[:50]...)) // same set, other counts
	c := spotsig.NewVector(append([]uint64(nil), hs[1:]...))                 // one feature less
	m := IMatch{}
	if m.Keys(a)[0] != m.Keys(b)[0] {
		t.Error("equal feature sets must share the bucket whatever the multiplicities")
	}
	if m.Keys(a)[0] == m.Keys(c)[0] {
		t.Error("one missing feature must change the bucket (I-Match brittleness)")
	}
	if m.Keys(spotsig.Vector{}) != nil {
		t.Error("an empty document must get no bucket")
	}
	if (IMatch{MinFeatures: 201}).Keys(a) != nil {
		t.Error("MinFeatures not applied")
	}
}

// Every pair of an I-Match bucket is returned, with its weighted Jaccard,
// and a whole-corpus run pairs exactly the documents with equal sets.
func TestIMatchPairs(t *testing.T) {
	x := spotsig.Vector{Hashes: []uint64{1, 2}, Freqs: []uint32{1, 1}}
	y := spotsig.Vector{Hashes: []uint64{1, 2}, Freqs: []uint32{3, 1}}
	z := spotsig.Vector{Hashes: []uint64{1, 3}, Freqs: []uint32{1, 1}}
	ps := IMatch{}.MatchGroup([]spotsig.Vector{x, y}, nil)
	// (1+1)/(3+1) = 0.5
	if len(ps) != 1 || ps[0].A != 0 || ps[0].B != 1 || ps[0].Jaccard != 0.5 {
		t.Errorf("bucket pairs %v, want [{0 1 0.5}]", ps)
	}
	got := RunGrouping(IMatch{}, []spotsig.Vector{x, z, y, z})
	want := []Pair{{0, 2, 0.5}, {1, 3, 1}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("corpus pairs %v, want %v", got, want)
	}
}
