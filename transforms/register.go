package transforms

import (
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// registerDoFn registers the type of a structural DoFn (fn is a pointer to
// it) so that every runner can rebuild it by name (beam.RegisterType), and
// nothing more: Beam then calls its methods by reflection. The package's
// functions, emitters and iterators keep Beam's generic callers
// (register.FunctionNxM, EmitterN, IterN), which compile cheaply.
//
// register.DoFnNxM would add generated callers that avoid the reflection,
// but each one costs the Go compiler about 4 s and 300 MB, so this
// package's 60 DoFns took 240 s and a 13 GB compiler process to build
// (apache/beam#34693), more than a laptop has. Without them it builds in
// about 3 s; the direct job's CPU grows by about 5 % on the pair-heavy
// skewed crawl (perf samples; docs/benchmarks.md, "Job cost").
func registerDoFn(fn any) {
	beam.RegisterType(reflect.TypeOf(fn).Elem())
}
