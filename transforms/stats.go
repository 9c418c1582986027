package transforms

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/typex"
)

func init() {
	registerDoFn(&countFn{})
	registerDoFn(&sumFn{})
}

func sumInt(a, b int) int { return a + b }

func maxInt(a, b int) int { return max(a, b) }

// sumInts returns a PCollection<int> holding exactly one element: the sum of
// the ints in col, 0 when col is empty. (A global Combine of an empty
// PCollection emits nothing, so a 0 is flattened in first: the result can be
// used as a singleton side input whatever the input.)
func sumInts(s beam.Scope, col beam.PCollection) beam.PCollection {
	s = s.Scope("SumInts")
	return beam.Combine(s, sumInt, beam.Flatten(s, beam.ParDo(s, &sumFn{}, col), beam.Create(s, 0)))
}

// maxInts is like sumInts for the maximum of non-negative ints (0 when col
// is empty).
func maxInts(s beam.Scope, col beam.PCollection) beam.PCollection {
	s = s.Scope("MaxInts")
	return beam.Combine(s, maxInt, beam.Flatten(s, col, beam.Create(s, 0)))
}

// countElements returns a PCollection<int> holding exactly one element: the
// number of elements of col (which must not be a KV PCollection).
func countElements(s beam.Scope, col beam.PCollection) beam.PCollection {
	s = s.Scope("CountElements")
	return sumInts(s, beam.ParDo(s, &countFn{}, col))
}

// Counts and sums are taken within each bundle and shuffled as one number
// per bundle: the direct runner does not lift combiners (bundlemerge.go),
// and a per-page statistic would otherwise shuffle an element per page.

// countFn emits the number of elements of each bundle.
type countFn struct{ n int }

func (fn *countFn) StartBundle(func(int)) { fn.n = 0 }

func (fn *countFn) ProcessElement(_ typex.T, _ func(int)) { fn.n++ }

func (fn *countFn) FinishBundle(emit func(int)) {
	if fn.n > 0 {
		emit(fn.n)
	}
}

// sumFn emits the sum of the ints of each bundle.
type sumFn struct{ n, seen int }

func (fn *sumFn) StartBundle(func(int)) { fn.n, fn.seen = 0, 0 }

func (fn *sumFn) ProcessElement(v int, _ func(int)) { fn.n, fn.seen = fn.n+v, fn.seen+1 }

func (fn *sumFn) FinishBundle(emit func(int)) {
	if fn.seen > 0 {
		emit(fn.n)
	}
}

// statSums sums statistics (name, count) within a bundle for a DoFn that
// makes them per element; the DoFn calls start in StartBundle and flush in
// FinishBundle.
type statSums struct{ merge bundleMerge[string, int] }

func (s *statSums) start() { s.merge.start(0) }

func (s *statSums) add(name string, n int, emit func(string, int)) {
	s.merge.add(name, 0, func(v *int) { *v += n }, emit)
}

func (s *statSums) flush(emit func(string, int)) { s.merge.flush(emit) }
