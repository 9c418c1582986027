package spotsig

import (
	"testing"
)

// "The quick brown fox jumps" has 5 tokens: 5 one-word shingles, 3
// three-word shingles, 1 five-word shingle, none of 6 words.
func TestShinglesCounts(t *testing.T) {
	text := []byte("The quick brown fox jumps")
	for k, want := range map[int]int{1: 5, 3: 3, 5: 1, 6: 0} {
		if got := Shingles(text, k).Len(); got != want {
			t.Errorf("k=%d: %d shingles, want %d", k, got, want)
		}
	}
}

// Shingles are a multiset: "a b a b a b" has the 3-grams aba, bab, aba,
// bab: two distinct, each twice. As 1-grams: a×3, b×3.
func TestShinglesMultiset(t *testing.T) {
	v := Shingles([]byte("a b a b a b"), 3)
	if len(v.Hashes) != 2 || v.Freqs[0] != 2 || v.Freqs[1] != 2 {
		t.Errorf("3-shingles of a b a b a b = %+v, want two distinct, twice each", v)
	}
	w := Shingles([]byte("a b a b a b"), 1)
	if len(w.Hashes) != 2 || w.Freqs[0] != 3 || w.Freqs[1] != 3 {
		t.Errorf("1-shingles = %+v, want a×3, b×3", w)
	}
}

// Shingles see the tokens spot signatures see: case and punctuation do not
// matter, word order does (for k > 1).
func TestShinglesUseTokenize(t *testing.T) {
	a := Shingles([]byte("Obama signs the bill."), 3)
	b := Shingles([]byte("obama   SIGNS, the bill"), 3)
	if !shingleVectorsEqual(a, b) {
		t.Errorf("case/punctuation changed the shingles: %+v vs %+v", a, b)
	}
	c := Shingles([]byte("the bill signs obama"), 3)
	if shingleVectorsEqual(a, c) {
		t.Error("word order ignored by 3-shingles")
	}
	if !shingleVectorsEqual(Shingles([]byte("obama signs the bill"), 1), Shingles([]byte("the bill signs obama"), 1)) {
		t.Error("1-shingles must ignore word order")
	}
	// Tokens are joined in order, not concatenated: "ab c" and "a bc" differ.
	if shingleVectorsEqual(Shingles([]byte("ab c"), 2), Shingles([]byte("a bc"), 2)) {
		t.Error("2-shingles of 'ab c' and 'a bc' collide")
	}
}

func TestShinglerOptions(t *testing.T) {
	if _, err := NewShingler(0); err == nil {
		t.Error("k = 0 accepted")
	}
	s, err := NewShingler(2)
	if err != nil || s.K() != 2 || s.Extract([]byte("x y z")).Len() != 2 {
		t.Errorf("NewShingler(2): %v %+v", err, s)
	}
	if Shingles([]byte("x y"), 0).Len() != 2 {
		t.Error("k < 1 not treated as 1")
	}
}

func shingleVectorsEqual(a, b Vector) bool {
	if len(a.Hashes) != len(b.Hashes) {
		return false
	}
	for i := range a.Hashes {
		if a.Hashes[i] != b.Hashes[i] || a.Freqs[i] != b.Freqs[i] {
			return false
		}
	}
	return true
}
