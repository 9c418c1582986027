package match

import (
	"runtime"
	"sync"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// BruteForce is the all-pairs reference: it computes WeightedJaccard for
// every pair of docs and returns those with similarity ≥ tau (and > 0, so
// empty documents and pairs without a common signature never match), A < B,
// sorted by (A, B). O(n²) similarity computations, spread over all cores by
// rows; use it for tests and small corpora only.
func BruteForce(docs []spotsig.Vector, tau float64) []Pair {
	t := effectiveTau(tau)
	if t > 1 {
		return nil
	}
	workers := runtime.GOMAXPROCS(0)
	results := make([][]Pair, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out []Pair
			// Row i goes to worker i mod workers; rows come out in order.
			for i := w; i < len(docs); i += workers {
				for j := i + 1; j < len(docs); j++ {
					if s := WeightedJaccard(docs[i], docs[j]); s >= t {
						out = append(out, Pair{A: i, B: j, Jaccard: s})
					}
				}
			}
			results[w] = out
		}()
	}
	wg.Wait()
	var out []Pair
	for _, r := range results {
		out = append(out, r...)
	}
	sortPairs(out)
	return out
}

// NoPart is the paper's NoPart baseline (Table 2): Algorithm 1 with its
// pruning over ONE partition holding every document, i.e. without the
// length partitioning of §4.2. Same result as Match.
func NoPart(docs []spotsig.Vector, tau float64) []Pair {
	return NewMatcher(tau, WithoutPartitions()).Match(docs)
}

// NoPrune is Match without the δ1/δ2 pruning of Algorithm 1 (lines 15–18 and
// 25–26) and without the early-exit similarity: partitions and inverted lists
// only, every document sharing a signature within the group is compared in
// full. (The paper's NoPrune in Table 2 also drops the partitions; combine
// WithoutPartitions and WithoutPruning on a Matcher for that.) Same result as
// Match.
func NoPrune(docs []spotsig.Vector, tau float64, rho int) []Pair {
	return NewMatcher(tau, WithRange(rho), WithoutPruning()).Match(docs)
}
