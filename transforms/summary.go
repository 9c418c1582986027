package transforms

import (
	"bufio"
	"context"
	"encoding/json"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/output"
)

func init() {
	registerDoFn(&statFn{})
	registerDoFn(&skipStatFn{})
	registerDoFn(&nameStatFn{})
	registerDoFn(&writeSummaryFn{})
	register.Emitter2[string, int]()
	register.Iter2[string, int]()
}

// mustStatistic panics when name is not a plain statistic of the summary
// merged as a maximum (isMax) or a sum (a programming error, seen when the
// graph is built).
func mustStatistic(name string, isMax bool) {
	if err := output.CheckStatistic(name, isMax); err != nil {
		panic("transforms: " + err.Error())
	}
}

// Stats gathers the run statistics of every stage into one
// PCollection<KV<string, int>> (name, number; see output.Stat*) for
// WriteSummary. Each composite adds its own statistics to the Stats it is
// given, so the pipeline wires none by hand. The numbers come from
// PCollections, not runner metrics, so summary.json never depends on a
// runner's metrics being queryable.
type Stats struct {
	cols []beam.PCollection
}

// Count adds the statistic name: the number of elements of col (not a KV
// PCollection).
func (st *Stats) Count(s beam.Scope, name string, col beam.PCollection) {
	mustStatistic(name, false)
	st.cols = append(st.cols, namedStat(s, name, countElements(s.Scope("Count."+name), col)))
}

// Sum adds the statistic name: the sum of the ints of col.
func (st *Stats) Sum(s beam.Scope, name string, ints beam.PCollection) {
	mustStatistic(name, false)
	st.cols = append(st.cols, namedStat(s, name, sumInts(s.Scope("Sum."+name), ints)))
}

// Max adds the statistic name: the largest of the non-negative ints of col
// (0 if none).
func (st *Stats) Max(s beam.Scope, name string, ints beam.PCollection) {
	mustStatistic(name, true)
	st.cols = append(st.cols, namedStat(s, name, maxInts(s.Scope("Max."+name), ints)))
}

// Add adds statistics already keyed by name (KV<string, int>, e.g.
// skipStats).
func (st *Stats) Add(kv beam.PCollection) { st.cols = append(st.cols, kv) }

// Collection returns every statistic added, as one PCollection.
func (st *Stats) Collection(s beam.Scope) beam.PCollection {
	if len(st.cols) == 0 {
		return namedStat(s, output.StatRecords, beam.Create(s, 0)) // nothing added: records 0
	}
	return beam.Flatten(s, st.cols...)
}

// namedStat turns a PCollection<int> holding one number (see sumInts) into the
// statistic KV<string, int> (name, number) for WriteSummary.
func namedStat(s beam.Scope, name string, single beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("Stat."+name), &statFn{Name: name}, single)
}

type statFn struct{ Name string }

func (fn *statFn) ProcessElement(n int, emit func(string, int)) { emit(fn.Name, n) }

// skipStats counts rejects per reason as statistics "skipped/<reason>".
func skipStats(s beam.Scope, rejects beam.PCollection) beam.PCollection {
	s = s.Scope("SkipStats")
	return beam.CombinePerKey(s, sumInt, beam.ParDo(s, &skipStatFn{}, rejects))
}

// nameStats counts the statistic names of names (string, e.g.
// "capped/<cap>", "languages/<code>"), one per element.
func nameStats(s beam.Scope, names beam.PCollection) beam.PCollection {
	s = s.Scope("NameStats")
	return beam.CombinePerKey(s, sumInt, beam.ParDo(s, &nameStatFn{}, names))
}

type nameStatFn struct{ sums statSums }

func (fn *nameStatFn) StartBundle(func(string, int)) { fn.sums.start() }

func (fn *nameStatFn) ProcessElement(name string, emit func(string, int)) { fn.sums.add(name, 1, emit) }

func (fn *nameStatFn) FinishBundle(emit func(string, int)) { fn.sums.flush(emit) }

type skipStatFn struct{ sums statSums }

func (fn *skipStatFn) StartBundle(func(string, int)) { fn.sums.start() }

func (fn *skipStatFn) ProcessElement(r output.Reject, emit func(string, int)) {
	fn.sums.add(output.StatSkippedPrefix+r.Reason, 1, emit)
}

func (fn *skipStatFn) FinishBundle(emit func(string, int)) { fn.sums.flush(emit) }

// WriteSummary writes <out.Dir>/summary.json (under its temporary name
// until out.Commit) from stats (KV<string, int>, one element per statistic,
// see output.Stat* and skipStats) and files (the paths read, string).
// base supplies the parameters, input and output; the language data of
// its parameters (config.Params.Languages) is added when it is written.
func WriteSummary(s beam.Scope, out *Outputs, base output.Summary, stats, files beam.PCollection) {
	s = s.Scope("WriteSummary")
	out.add(beam.ParDo(s, &writeSummaryFn{Dir: out.Dir, RunID: out.RunID, Base: base}, beam.Impulse(s),
		beam.SideInput{Input: stats}, beam.SideInput{Input: files}), output.SummaryFile)
}

// writeSummaryFn assembles and writes summary.json once (its main input is
// a single impulse) and emits its name (for Outputs.Commit).
type writeSummaryFn struct {
	Dir   string
	RunID string
	Base  output.Summary
}

// ProcessElement writes the summary.
func (fn *writeSummaryFn) ProcessElement(ctx context.Context, _ []byte, stats func(*string, *int) bool, files func(*string) bool, written func(string)) error {
	sum := fn.Base
	var err error
	sum.Skipped = map[string]int{}
	sum.Capped = map[string]int{}
	sum.ClusterSizes = map[int]int{}
	sum.SchemaVersion = output.SchemaVersion
	var k string
	var v int
	for stats(&k, &v) {
		if err := output.AddStatistic(&sum, k, v); err != nil {
			return err
		}
	}
	if sum.LanguageData, err = sum.Parameters.Languages(); err != nil {
		return err
	}
	sum.PagesRead = sum.Pages()
	sum.Files = nil
	var f string
	for files(&f) {
		sum.Files = append(sum.Files, f)
	}
	slices.Sort(sum.Files)
	if sum.Files == nil {
		sum.Files = []string{}
	}
	sum.Run.Finish(fn.RunID)
	if got := sum.Documents + sum.SkippedTotal(); got != sum.Records {
		// Never expected: logged as an error and counted
		// (summary/accounting_mismatch); the summary is still written.
		log.Errorf(ctx, "summary: %d documents + %d skipped != %d records read", sum.Documents, sum.SkippedTotal(), sum.Records)
		beam.NewCounter("summary", "accounting_mismatch").Inc(ctx, 1)
	}
	b, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return err
	}
	out := &Outputs{Dir: fn.Dir, RunID: fn.RunID}
	if err := writeFile(ctx, out.TempPath(output.SummaryFile), func(w *bufio.Writer) error {
		w.Write(b)
		return w.WriteByte('\n')
	}); err != nil {
		return err
	}
	written(output.SummaryFile)
	return nil
}
