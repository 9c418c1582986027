package spotsig

import (
	"math"
	"testing"
)

func TestNormalizedIDF(t *testing.T) {
	cases := []struct {
		df, n int
		want  float64
	}{
		{1, 100, 1},
		{100, 100, 0},
		{10, 100, 0.5},      // log(10)/log(100)
		{10, 1000, 2.0 / 3}, // log(100)/log(1000)
		{1, 1, 0},           // N <= 1
		{0, 0, 0},
		{0, 100, 1},   // df < 1 treated as 1
		{200, 100, 0}, // df > N treated as N
	}
	for _, c := range cases {
		if got := NormalizedIDF(c.df, c.n); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("NormalizedIDF(%d, %d) = %v, want %v", c.df, c.n, got, c.want)
		}
	}
}

func TestIDFRangeKeepInclusive(t *testing.T) {
	r := IDFRange{Min: NormalizedIDF(10, 100), Max: NormalizedIDF(10, 1000)} // 0.5, 2/3
	if !r.Keep(10, 100) {                                                    // idf = Min
		t.Error("Min not inclusive")
	}
	if !r.Keep(10, 1000) { // idf = Max
		t.Error("Max not inclusive")
	}
	if r.Keep(11, 100) || r.Keep(9, 1000) {
		t.Error("values outside the range kept")
	}
}

// corpusWithRarePair builds n documents: docs 0 and 1 are copies sharing
// only signatures no other document has (df = 2); every document also has
// signatures of its own (df = 1) and one common to all (df = n).
func corpusWithRarePair(n int) []Vector {
	docs := make([]Vector, n)
	for i := range docs {
		hs := []uint64{1, uint64(1000 + i), uint64(2000 + i)}
		if i < 2 {
			hs = append(hs, 10, 11, 12)
		}
		docs[i] = NewVector(hs)
	}
	return docs
}

func shared(a, b Vector) int {
	n := 0
	for _, h := range a.Hashes {
		for _, g := range b.Hashes {
			if h == g {
				n++
			}
		}
	}
	return n
}

// The weakness of a plain upper bound: in a corpus of 1000 documents a
// signature held by 2 has idf = 1 - log 2/log 1000 ≈ 0.90 > 0.85, so the
// paper's range drops all three signatures the copies share. KeepShared
// with the same Max keeps them and still drops the df = 1 signatures; the
// default range keeps everything.
func TestIDFUpperBoundWeakness(t *testing.T) {
	docs := corpusWithRarePair(1000)
	if idf := NormalizedIDF(2, 1000); idf <= 0.85 {
		t.Fatalf("premise: idf(2, 1000) = %v should exceed 0.85", idf)
	}
	paper := FilterIDF(docs, PaperIDFRange)
	if got := shared(paper[0], paper[1]); got != 0 {
		t.Fatalf("paper range: copies share %d signatures after filtering; the weakness should drop all 3", got)
	}
	guarded := FilterIDF(docs, IDFRange{Min: 0, Max: 0.85, KeepShared: true})
	if got := shared(guarded[0], guarded[1]); got != 4 {
		t.Fatalf("Max 0.85 with KeepShared: copies share %d signatures, want 4 (3 rare + 1 common)", got)
	}
	// df = 1 signatures are gone, the df = N one is kept (Min = 0).
	if guarded[0].Len() != 4 || guarded[5].Len() != 1 {
		t.Fatalf("Max 0.85 with KeepShared: |d0| = %d, |d5| = %d; want 4 and 1", guarded[0].Len(), guarded[5].Len())
	}
	def := FilterIDF(docs, DefaultIDFRange)
	if got := shared(def[0], def[1]); got != 4 {
		t.Fatalf("default range: copies share %d signatures, want 4", got)
	}
	if def[0].Len() != 6 || def[5].Len() != 3 || !DefaultIDFRange.KeepsAll() {
		t.Fatalf("default range: |d0| = %d, |d5| = %d; want everything kept (6 and 3)", def[0].Len(), def[5].Len())
	}
	// Input untouched, alignment kept.
	if docs[0].Len() != 6 || len(def) != len(docs) || len(paper) != len(docs) {
		t.Fatal("FilterIDF modified its input or changed the document count")
	}
}

func TestFilterIDFTwoCopies(t *testing.T) {
	// The smallest corpus: two identical documents. The default range must
	// keep what they share.
	v := NewVector([]uint64{5, 6, 7})
	out := FilterIDF([]Vector{v, v}, DefaultIDFRange)
	if out[0].Len() != 3 || out[1].Len() != 3 {
		t.Fatalf("two copies lost signatures: %+v", out)
	}
	if got := FilterIDF([]Vector{v, v}, PaperIDFRange); got[0].Len() != 0 {
		t.Fatalf("paper range at N=2 should drop idf-0 signatures, kept %+v", got[0])
	}
}
