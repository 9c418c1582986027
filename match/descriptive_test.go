package match

import (
	"math/rand/v2"
	"testing"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// wordDoc builds a word vector of length 1000 from word counts; the rest of
// the document is filler words unique to the document.
func wordDoc(rng *rand.Rand, counts map[uint64]int) spotsig.Vector {
	var hs []uint64
	for w, c := range counts {
		for range c {
			hs = append(hs, w)
		}
	}
	for len(hs) < 1000 {
		hs = append(hs, rng.Uint64()|1<<63) // fillers never collide with words < 2^63
	}
	return spotsig.NewVector(hs)
}

// A corpus of 200 documents over words 1..6:
//   - words 1..5 are bimodal: a document uses word w either 10 or 50 times
//     in 1000 (relative frequency 0.01 or 0.05), drawn independently;
//   - word 6 is spread evenly over 1..60 occurrences, so every threshold
//     has many documents within one occurrence of it;
//   - word 7 occurs 20 times in every document and cannot split the corpus.
//
// The bimodal words must be chosen first, each with a threshold in the gap
// (0.01, 0.05), word 7 never.
func TestDescriptiveWordsChoosesStableThresholds(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var docs []spotsig.Vector
	for i := range 200 {
		c := map[uint64]int{6: 1 + i%60, 7: 20}
		for w := uint64(1); w <= 5; w++ {
			if rng.IntN(2) == 0 {
				c[w] = 10
			} else {
				c[w] = 50
			}
		}
		docs = append(docs, wordDoc(rng, c))
	}
	d := NewDescriptiveWords(docs, WithDescriptiveSize(5))
	if d.Size() != 5 {
		t.Fatalf("chose %d words, want 5", d.Size())
	}
	for i := range d.Size() {
		w, b, lam := d.Word(i)
		if w < 1 || w > 5 {
			t.Errorf("word %d chosen (threshold %.4f, lambda %.3f), want one of the bimodal words 1..5", w, b, lam)
		}
		if b <= 0.01 || b >= 0.05 {
			t.Errorf("word %d: threshold %.4f not in the gap (0.01, 0.05)", w, b)
		}
	}
	all := NewDescriptiveWords(docs, WithDescriptiveSize(100))
	for i := range all.Size() {
		if w, _, _ := all.Word(i); w == 7 {
			t.Error("a word with the same frequency everywhere cannot split the corpus but was chosen")
		}
	}
}

// Documents with the same binary vector share the class; a vector with
// fewer than MinOnes bits has none.
func TestDescriptiveWordsClasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	var docs []spotsig.Vector
	for i := range 100 {
		c := map[uint64]int{}
		for w := uint64(1); w <= 6; w++ {
			if (i>>(w-1))&1 == 1 {
				c[w] = 50
			} else {
				c[w] = 10
			}
		}
		docs = append(docs, wordDoc(rng, c))
	}
	d := NewDescriptiveWords(docs, WithDescriptiveSize(6))
	if d.Size() != 6 {
		t.Fatalf("chose %d words, want 6", d.Size())
	}
	// Document i uses word w often iff bit w−1 of i is set, so its vector
	// is i mod 64: documents 15 and 79 (= 64 + 15) share a vector, 31 does not.
	k15, k79 := d.Keys(docs[15]), d.Keys(docs[79])
	if len(k15) != 1 || len(k79) != 1 || k15[0] != k79[0] {
		t.Errorf("documents with equal vectors in different classes: %v %v", k15, k79)
	}
	if k31 := d.Keys(docs[31]); len(k31) != 1 || k31[0] == k15[0] {
		t.Errorf("documents with different vectors share a class: %v %v", k31, k15)
	}
	// Document 7 = 0b111 has 3 bits set: dropped (paper: 3 or fewer).
	if k := d.Keys(docs[7]); k != nil {
		t.Errorf("a vector with 3 bits got class %v", k)
	}
	if k := NewDescriptiveWords(docs, WithDescriptiveSize(6), WithDescriptiveMinOnes(3)).Keys(docs[7]); k == nil {
		t.Error("WithDescriptiveMinOnes(3) not applied")
	}
	ps := RunGrouping(d, docs)
	for _, p := range ps {
		if p.A%64 != p.B%64 {
			t.Errorf("pair %v joins documents with different vectors", p)
		}
	}
	if len(ps) == 0 {
		t.Error("no class found")
	}
}
