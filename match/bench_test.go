package match

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Synthetic web-like corpus for the matcher benchmarks (docs/benchmarks.md).
//
//   - Vector lengths |d| are log-normal, exp(N(ln 40, 0.9²)), clamped to
//     [1, 20000]: median 40 spot signatures, mean ≈ 60, a heavy right tail
//     (≈ 1.5% above 300, a few above 1000, i.e. in the overflow partition),
//     the skew of real page lengths.
//   - Signatures come from a vocabulary of 4M with Zipf document frequencies
//     (rand.Zipf s = 1.1, v = 100), hashed to 64 bits; with repeats drawn from
//     the same law, frequent signatures get freq > 1.
//   - 30% of the documents are near-duplicates of an earlier original of the
//     same chunk: 20% of them exact copies, the rest with a fraction
//     uniform in [0, 15%] of their occurrences dropped, replaced or extended
//     (perturb), so their similarities to the original spread over ≈
//     [0.75, 1] and many pairs sit right around τ = 0.9.
//
// Generation is deterministic (PCG seeded per chunk of 10k documents) and
// parallel; corpora are built lazily on first use and cached, never in init.
const (
	benchChunk   = 10000
	benchVocab   = 1 << 22
	benchDupRate = 0.3
)

var benchCorpora sync.Map // size -> []spotsig.Vector

func webCorpus(n int) []spotsig.Vector {
	if v, ok := benchCorpora.Load(n); ok {
		return v.([]spotsig.Vector)
	}
	docs := make([]spotsig.Vector, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for c := 0; c*benchChunk < n; c++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			genChunk(docs[c*benchChunk:min(n, (c+1)*benchChunk)], uint64(c))
		}()
	}
	wg.Wait()
	benchCorpora.Store(n, docs)
	return docs
}

func genChunk(docs []spotsig.Vector, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0x5907516))
	z := rand.NewZipf(r, 1.1, 100, benchVocab-1)
	draw := func() uint64 { return (z.Uint64() + 1) * 0x9E3779B97F4A7C15 }
	var originals []int
	for i := range docs {
		if len(originals) > 0 && r.Float64() < benchDupRate {
			base := docs[originals[r.IntN(len(originals))]]
			if r.Float64() < 0.2 {
				docs[i] = base
			} else {
				docs[i] = perturb(r, base, 0.15*r.Float64(), draw)
			}
			continue
		}
		l := int(math.Round(math.Exp(math.Log(40) + 0.9*r.NormFloat64())))
		l = min(max(l, 1), 20000)
		docs[i] = randomDoc(r, l, draw)
		originals = append(originals, i)
	}
}

// peakHeap samples the live heap every 50ms while fn runs and returns the
// peak above the heap at the start, in bytes. The caller runs a GC first
// (outside the timer) so that the start is the live corpus only.
func peakHeap(fn func()) (peak uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			if v := read(); v > base && v-base > peak {
				peak = v - base
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(done)
	wg.Wait()
	if v := read(); v > base && v-base > peak {
		peak = v - base
	}
	return peak
}

type benchMethod struct {
	name string
	run  func(docs []spotsig.Vector, tau float64) []Pair
}

var benchMethods = []benchMethod{
	{"spotsigs", func(d []spotsig.Vector, tau float64) []Pair { return Match(d, tau, DefaultRho) }},
	{"nopart", NoPart},
	{"noprune", func(d []spotsig.Vector, tau float64) []Pair { return NoPrune(d, tau, DefaultRho) }},
	{"spotsigs-linear", func(d []spotsig.Vector, tau float64) []Pair {
		return NewMatcher(tau, WithLinearScan()).Match(d)
	}},
	{"nopart-linear", func(d []spotsig.Vector, tau float64) []Pair {
		return NewMatcher(tau, WithLinearScan(), WithoutPartitions()).Match(d)
	}},
	{"bruteforce", BruteForce},
}

// BenchmarkMatch times the matchers on the synthetic corpus. Sizes 10k and
// 100k always run under -bench; 1M runs only with NDD_BENCH_LARGE=1 (and
// NoPrune/NoPart at 1M only with NDD_BENCH_LARGE=all). Brute force runs on
// 10k only (100k would be 5·10⁹ similarities, about an hour here).
// Metrics: pairs found, peak-heap-MB (live heap above the corpus) and
// alloc-MB/op.
func BenchmarkMatch(b *testing.B) {
	large := os.Getenv("NDD_BENCH_LARGE")
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		if n == 1_000_000 && large == "" {
			continue
		}
		for _, tau := range []float64{0.9, 1.0} {
			for _, m := range benchMethods {
				if m.name == "bruteforce" && n > 10_000 {
					continue
				}
				if n == 1_000_000 && (m.name == "noprune" || m.name != "spotsigs" && large != "all") {
					continue
				}
				b.Run(fmt.Sprintf("n=%dk/tau=%.1f/%s", n/1000, tau, m.name), func(b *testing.B) {
					docs := webCorpus(n)
					var pairs int
					var peak uint64
					var ms0, ms1 runtime.MemStats
					runtime.ReadMemStats(&ms0)
					var cpu time.Duration
					b.ResetTimer()
					for range b.N {
						b.StopTimer()
						runtime.GC()
						b.StartTimer()
						peak = max(peak, peakHeap(func() {
							c0 := cpuTime()
							pairs = len(m.run(docs, tau))
							cpu += cpuTime() - c0
						}))
					}
					b.StopTimer()
					b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
					runtime.ReadMemStats(&ms1)
					b.ReportMetric(float64(pairs), "pairs")
					b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
					b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(b.N)/(1<<20), "alloc-MB/op")
				})
			}
		}
	}
}

// TestWebCorpusShape checks the benchmark generator against its description.
func TestWebCorpusShape(t *testing.T) {
	if testing.Short() {
		t.Skip("generator check")
	}
	docs := make([]spotsig.Vector, benchChunk)
	genChunk(docs, 1)
	lens := make([]int, len(docs))
	over := 0
	for i, d := range docs {
		lens[i] = d.Len()
		if lens[i] > 300 {
			over++
		}
	}
	slices.Sort(lens)
	if med := lens[len(lens)/2]; med < 30 || med > 55 {
		t.Errorf("median length %d, want ≈ 40", med)
	}
	if over == 0 || over > len(docs)/20 {
		t.Errorf("%d documents above 300 signatures, want a thin tail", over)
	}
	if p := len(BruteForce(docs[:3000], 0.9)); p < 50 {
		t.Errorf("only %d pairs at τ=0.9 in 3000 documents", p)
	}
}

// BenchmarkBuildGroup times the inverted-index build of one group of 100k
// synthetic documents (ns per signature occurrence as ns/occ).
func BenchmarkBuildGroup(b *testing.B) {
	docs := webCorpus(100_000)
	lens := make([]int, len(docs))
	var spec groupSpec
	total := 0
	for i, d := range docs {
		lens[i] = d.Len()
		spec.home = append(spec.home, int32(i))
		total += len(d.Hashes)
	}
	var bl builder
	b.ResetTimer()
	c0 := cpuTime()
	for range b.N {
		bl.build(docs, lens, spec, 0.9, true)
	}
	b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N)/float64(total), "cpu-ns/occ")
}
