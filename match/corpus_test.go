package match

import (
	"math/rand/v2"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Random corpora for the exactness tests. Hashes are drawn from small
// vocabularies so that documents share signatures and similarities spread
// over the whole [0, 1] range.

// vec builds a Vector from signature:frequency pairs.
func vec(pairs ...uint64) spotsig.Vector {
	var hs []uint64
	for i := 0; i < len(pairs); i += 2 {
		for range pairs[i+1] {
			hs = append(hs, pairs[i])
		}
	}
	return spotsig.NewVector(hs)
}

// randomDoc draws n signature occurrences from vocab (uniform or Zipf).
func randomDoc(r *rand.Rand, n int, draw func() uint64) spotsig.Vector {
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = draw()
	}
	return spotsig.NewVector(hs)
}

// perturb returns a copy of base with about frac of its occurrences replaced
// by others drawn from draw (the near-copy generator: similarities sit
// around 1-frac).
func perturb(r *rand.Rand, base spotsig.Vector, frac float64, draw func() uint64) spotsig.Vector {
	var hs []uint64
	for i, h := range base.Hashes {
		for range base.Freqs[i] {
			if r.Float64() < frac {
				switch r.IntN(3) {
				case 0: // drop
				case 1: // replace
					hs = append(hs, draw())
				default: // keep and add one
					hs = append(hs, h, draw())
				}
				continue
			}
			hs = append(hs, h)
		}
	}
	return spotsig.NewVector(hs)
}

type corpusKind struct {
	name string
	gen  func(r *rand.Rand, n int) []spotsig.Vector
}

var corpusKinds = []corpusKind{
	{"uniform", func(r *rand.Rand, n int) []spotsig.Vector {
		draw := func() uint64 { return uint64(r.IntN(40)) }
		docs := make([]spotsig.Vector, n)
		for i := range docs {
			docs[i] = randomDoc(r, 1+r.IntN(30), draw)
		}
		return docs
	}},
	{"zipf", func(r *rand.Rand, n int) []spotsig.Vector {
		lz := rand.NewZipf(r, 1.2, 4, 400)
		vz := rand.NewZipf(r, 1.1, 2, 300)
		draw := func() uint64 { return vz.Uint64() * 0x9E3779B97F4A7C15 }
		docs := make([]spotsig.Vector, n)
		for i := range docs {
			docs[i] = randomDoc(r, 1+int(lz.Uint64()), draw)
		}
		return docs
	}},
	{"copies", func(r *rand.Rand, n int) []spotsig.Vector {
		draw := func() uint64 { return uint64(r.IntN(200)) }
		var docs []spotsig.Vector
		for len(docs) < n {
			base := randomDoc(r, 1+r.IntN(60), draw)
			for range 1 + r.IntN(10) {
				docs = append(docs, base)
			}
		}
		r.Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
		return docs[:n]
	}},
	{"single", func(r *rand.Rand, n int) []spotsig.Vector {
		docs := make([]spotsig.Vector, n)
		for i := range docs {
			docs[i] = vec(uint64(r.IntN(8)), uint64(1+r.IntN(12)))
		}
		return docs
	}},
	{"empty", func(r *rand.Rand, n int) []spotsig.Vector {
		draw := func() uint64 { return uint64(r.IntN(15)) }
		docs := make([]spotsig.Vector, n)
		for i := range docs {
			if r.IntN(3) > 0 {
				docs[i] = randomDoc(r, r.IntN(6), draw)
			}
		}
		return docs
	}},
	{"near", func(r *rand.Rand, n int) []spotsig.Vector {
		draw := func() uint64 { return uint64(r.IntN(5000)) }
		var docs []spotsig.Vector
		for len(docs) < n {
			base := randomDoc(r, 5+r.IntN(120), draw)
			docs = append(docs, base)
			for range r.IntN(8) {
				docs = append(docs, perturb(r, base, 0.3*r.Float64(), draw))
			}
		}
		r.Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
		return docs[:n]
	}},
}

var testTaus = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 0.44, 0.95, 0.999}
