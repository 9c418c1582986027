package transforms

import (
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/ndd-beam/ndd-beam/output"
)

// SumInts, MaxInts and CountElements hold exactly one number, 0 for an
// empty input; Stats gathers them under their names with SkipStats' and
// NameStats' counts per key.
func TestStatsComposites(t *testing.T) {
	pl, s := beam.NewPipelineWithRoot()
	ints := beam.Create(s, 3, 9, 4)
	empty := beam.CreateList(s, []int{})
	passert.Equals(s, SumInts(s, ints), 16)
	passert.Equals(s, SumInts(s, empty), 0)
	passert.Equals(s, MaxInts(s, ints), 9)
	passert.Equals(s, MaxInts(s, empty), 0)
	passert.Equals(s, CountElements(s, beam.Create(s, "a", "b")), 2)
	passert.Equals(s, CountElements(s, beam.CreateList(s, []string{})), 0)

	st := &Stats{}
	st.Sum(s, output.StatPairs, ints)
	st.Max(s, output.StatLargestGroup, ints)
	st.Count(s, output.StatDocuments, beam.Create(s, "a", "b"))
	st.Add(SkipStats(s, beam.Create(s, Reject{Reason: "request"}, Reject{Reason: "request"}, Reject{Reason: "empty-file"})))
	st.Add(NameStats(s, beam.Create(s, output.StatLanguagePrefix+"de", output.StatLanguagePrefix+"de", output.StatCappedPrefix+"tokens")))
	passert.Equals(s, beam.ParDo(s, statLine, st.Collection(s)),
		"pairs=16", "largest_group=9", "documents=2", "skipped/request=2", "skipped/empty-file=1", "languages/de=2", "capped/tokens=1")

	none := &Stats{}
	passert.Equals(s, beam.ParDo(s, statLine, none.Collection(s)), "records=0")
	ptest.RunAndValidate(t, pl)
}
