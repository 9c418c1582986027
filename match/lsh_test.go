package match

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

func randomHashes(rng *rand.Rand, n int) []uint64 {
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = rng.Uint64()
	}
	return hs
}

// linear61 must equal (a·x + b) mod (2^61 − 1) computed with big integers.
func TestLinear61MatchesBigInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := new(big.Int).SetUint64(mersenne61)
	for range 10000 {
		a := 1 + rng.Uint64N(mersenne61-1)
		b := rng.Uint64N(mersenne61)
		x := reduce61(rng.Uint64())
		want := new(big.Int).SetUint64(a)
		want.Mul(want, new(big.Int).SetUint64(x))
		want.Add(want, new(big.Int).SetUint64(b))
		want.Mod(want, p)
		if got := linear61(a, x, b); got != want.Uint64() {
			t.Fatalf("linear61(%d,%d,%d) = %d, want %d", a, x, b, got, want.Uint64())
		}
	}
	// Edge values of the reduction.
	for _, x := range []uint64{0, 1, mersenne61 - 1, mersenne61, mersenne61 + 1, math.MaxUint64} {
		if r := reduce61(x); r >= mersenne61 || r != x%mersenne61 {
			t.Errorf("reduce61(%d) = %d, want %d", x, r, x%mersenne61)
		}
	}
}

// Min-hashing: the probability that one min-hash of two sets agrees is their
// set Jaccard (slides, "Minhashing"). With 1 row per band and 3000 bands the
// agreeing share estimates J with standard error sqrt(J(1−J)/3000) ≈ 0.009;
// the test allows 4 standard errors.
func TestMinHashAgreementEstimatesJaccard(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	common := randomHashes(rng, 800)
	a := spotsig.NewVector(append(slices.Clone(common), randomHashes(rng, 200)...))
	b := spotsig.NewVector(append(slices.Clone(common), randomHashes(rng, 200)...))
	want := 800.0 / 1200.0
	h := NewLSH(0.5, WithBands(1, 3000))
	ma, mb := h.MinHashes(a), h.MinHashes(b)
	agree := 0
	for i := range ma {
		if ma[i] == mb[i] {
			agree++
		}
	}
	got := float64(agree) / float64(len(ma))
	if math.Abs(got-want) > 4*math.Sqrt(want*(1-want)/3000) {
		t.Errorf("min-hash agreement %.3f, set Jaccard %.3f", got, want)
	}
}

func TestLSHKeysDeterministicAndSeeded(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	v := spotsig.NewVector(randomHashes(rng, 300))
	k1 := NewLSH(0.8).Keys(v)
	k2 := NewLSH(0.8).Keys(v)
	if len(k1) != DefaultLSHBands || !slices.Equal(k1, k2) {
		t.Fatalf("keys not repeatable: %d keys", len(k1))
	}
	k3 := NewLSH(0.8, WithLSHSeed(99)).Keys(v)
	if slices.Equal(k1, k3) {
		t.Error("a different seed gave the same keys")
	}
	if keys := NewLSH(0.8).Keys(spotsig.Vector{}); keys != nil {
		t.Errorf("empty vector got keys %v", keys)
	}
	// Keys of different bands differ even for identical min-hash values.
	seen := map[uint64]bool{}
	for _, k := range k1 {
		if k.Guest {
			t.Error("LSH emitted a guest key")
		}
		seen[k.Key] = true
	}
	if len(seen) != len(k1) {
		t.Errorf("%d distinct band keys of %d", len(seen), len(k1))
	}
}

// Multiplicities do not change the min-hashes (set semantics), but the
// verification uses the weighted Jaccard.
func TestLSHMatchGroupVerifiesWeightedJaccard(t *testing.T) {
	a := spotsig.Vector{Hashes: []uint64{1, 2, 3, 4}, Freqs: []uint32{1, 1, 1, 1}}
	b := spotsig.Vector{Hashes: []uint64{1, 2, 3, 4}, Freqs: []uint32{4, 1, 1, 1}}
	h := NewLSH(0.8)
	if !slices.Equal(h.Keys(a), h.Keys(b)) {
		t.Fatal("same distinct signatures must give the same bands")
	}
	// Weighted Jaccard = (1+1+1+1)/(4+1+1+1) = 4/7 ≈ 0.571 < 0.8.
	if ps := h.MatchGroup([]spotsig.Vector{a, b}, nil); len(ps) != 0 {
		t.Errorf("pair below tau kept: %v", ps)
	}
	low := NewLSH(0.5)
	ps := low.MatchGroup([]spotsig.Vector{a, b}, nil)
	if len(ps) != 1 || ps[0].A != 0 || ps[0].B != 1 || math.Abs(ps[0].Jaccard-4.0/7) > 1e-12 {
		t.Errorf("pairs at tau 0.5 = %v, want [{0 1 0.571}]", ps)
	}
	// A guest is paired with home documents only, at index len(home)+j.
	ps = low.MatchGroup([]spotsig.Vector{a}, []spotsig.Vector{b, b})
	if len(ps) != 2 || ps[0] != (Pair{0, 1, ps[0].Jaccard}) || ps[1].B != 2 {
		t.Errorf("home/guest pairs = %v", ps)
	}
}

// On a corpus with planted near-duplicates LSH finds only pairs the brute
// force finds (it verifies exactly), and at J ≥ 0.9 it misses none: a pair
// escapes all 32 bands of 6 rows with probability (1 − 0.9^6)^32 < 1e-10.
func TestLSHAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var docs []spotsig.Vector
	for range 40 {
		base := randomHashes(rng, 200)
		docs = append(docs, spotsig.NewVector(slices.Clone(base)))
		// 0..3 near copies: replace 0..20 signatures of 200.
		for range rng.IntN(4) {
			c := slices.Clone(base)
			for j := range rng.IntN(21) {
				c[j] = rng.Uint64()
			}
			docs = append(docs, spotsig.NewVector(c))
		}
	}
	const tau = 0.7
	got := RunGrouping(NewLSH(tau), docs)
	want := BruteForce(docs, tau)
	wantSet := map[[2]int]float64{}
	for _, p := range want {
		wantSet[[2]int{p.A, p.B}] = p.Jaccard
	}
	found := map[[2]int]bool{}
	for _, p := range got {
		j, ok := wantSet[[2]int{p.A, p.B}]
		if !ok || j != p.Jaccard {
			t.Errorf("LSH pair %v not found by brute force", p)
		}
		found[[2]int{p.A, p.B}] = true
	}
	for _, p := range want {
		if p.Jaccard >= 0.9 && !found[[2]int{p.A, p.B}] {
			t.Errorf("LSH missed %v", p)
		}
	}
	if len(want) < 20 {
		t.Fatalf("corpus too easy: only %d true pairs", len(want))
	}
}
