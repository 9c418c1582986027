package transforms

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/typex"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.Function1x1[typex.T, int](one)
}

func sumInt(a, b int) int { return a + b }

func maxInt(a, b int) int { return max(a, b) }

func one(typex.T) int { return 1 }

// SumInts returns a PCollection<int> holding exactly one element: the sum of
// the ints in col, 0 when col is empty. (A global Combine of an empty
// PCollection emits nothing, so a 0 is flattened in first: the result can be
// used as a singleton side input whatever the input.)
func SumInts(s beam.Scope, col beam.PCollection) beam.PCollection {
	s = s.Scope("SumInts")
	return beam.Combine(s, sumInt, beam.Flatten(s, col, beam.Create(s, 0)))
}

// MaxInts is like SumInts for the maximum of non-negative ints (0 when col
// is empty).
func MaxInts(s beam.Scope, col beam.PCollection) beam.PCollection {
	s = s.Scope("MaxInts")
	return beam.Combine(s, maxInt, beam.Flatten(s, col, beam.Create(s, 0)))
}

// CountElements returns a PCollection<int> holding exactly one element: the
// number of elements of col (which must not be a KV PCollection).
func CountElements(s beam.Scope, col beam.PCollection) beam.PCollection {
	s = s.Scope("CountElements")
	return SumInts(s, beam.ParDo(s, one, col))
}
