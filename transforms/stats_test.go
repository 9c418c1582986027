package transforms

import (
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/ndd-beam/ndd-beam/output"
)

// sumInts, maxInts and countElements hold exactly one number, 0 for an
// empty input; Stats gathers them under their names with skipStats' and
// nameStats' counts per key.
func TestStatsComposites(t *testing.T) {
	pl, s := beam.NewPipelineWithRoot()
	ints := beam.Create(s, 3, 9, 4)
	empty := beam.CreateList(s, []int{})
	passert.Equals(s, sumInts(s, ints), 16)
	passert.Equals(s, sumInts(s, empty), 0)
	passert.Equals(s, maxInts(s, ints), 9)
	passert.Equals(s, maxInts(s, empty), 0)
	passert.Equals(s, countElements(s, beam.Create(s, "a", "b")), 2)
	passert.Equals(s, countElements(s, beam.CreateList(s, []string{})), 0)

	st := &Stats{}
	st.Sum(s, output.StatPairs, ints)
	st.Max(s, output.StatLargestGroup, ints)
	st.Count(s, output.StatDocuments, beam.Create(s, "a", "b"))
	st.Add(skipStats(s, beam.Create(s, output.Reject{Reason: "request"}, output.Reject{Reason: "request"}, output.Reject{Reason: "empty-file"})))
	st.Add(nameStats(s, beam.Create(s, output.StatLanguagePrefix+"de", output.StatLanguagePrefix+"de", output.StatCappedPrefix+"tokens")))
	passert.Equals(s, beam.ParDo(s, statLine, st.Collection(s)),
		"pairs=16", "largest_group=9", "documents=2", "skipped/request=2", "skipped/empty-file=1", "languages/de=2", "capped/tokens=1")

	none := &Stats{}
	passert.Equals(s, beam.ParDo(s, statLine, none.Collection(s)), "records=0")
	ptest.RunAndValidate(t, pl)
}
