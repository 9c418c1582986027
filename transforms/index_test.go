package transforms

import (
	"fmt"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/output"
)

func init() { register.Function1x1[dedup.Prior, string](priorSummary) }

func priorSummary(p dedup.Prior) string {
	return fmt.Sprintf("%s rank=%s digest=%s lang=%s vec=%v/%v seg=%s", p.Key(), p.Rank, p.Digest, p.Lang, p.Vec.Hashes, p.Vec.Freqs, p.Segment)
}

// WriteIndex writes the pages Decide kept, with their vectors (a page that
// keeps an exact-copy group: the group's), as a segment that ReadIndex
// reads back as dedup.Priors of the in-process result, in one file and in
// several: the batch that wrote it reaches every page it kept with a
// vector or a text (it has both), an empty batch none.
func TestWriteIndexReadIndex(t *testing.T) {
	p := config.DefaultParams()
	res := smallResult(t, p)
	c := newDecideCase(t, res, 2)
	for _, shards := range []int{1, 3} {
		dir := t.TempDir()
		seg := IndexSegment{Dir: dir, Name: index.SegmentName(output.NewRunID()), Created: "2026-01-02T03:04:05Z", Shards: shards, Params: p}
		var reached []string
		kept := dedup.Priors(res, seg.Name)
		for _, pr := range kept {
			if pr.Digest != "" || pr.Vec.Len() > 0 { // a page without text or vector reaches nothing
				reached = append(reached, priorSummary(pr))
			}
		}
		if len(reached) < 3 || len(reached) == len(kept) {
			t.Fatalf("%d pages kept, %d with a vector or a text: want at least 3, and one without", len(kept), len(reached))
		}

		pl, s := beam.NewPipelineWithRoot()
		st := &Stats{}
		groups := CollapseExact(s, st, beam.CreateList(s, c.batches), p)
		unsigned := beam.CreateList(s, c.unsigned)
		r, err := Decide(s, st, groups, beam.CreateList(s, c.found), unsigned, Against{}, p)
		if err != nil {
			t.Fatal(err)
		}
		committed := WriteIndex(s, seg, groups, unsigned, r, beam.CreateList(s, []string{"a.warc.gz", "b.warc.gz"}))
		passert.Equals(s, committed, seg.Name)
		ptest.RunAndValidate(t, pl)

		infos, err := index.List(t.Context(), []string{dir})
		if err != nil {
			t.Fatal(err)
		}
		if len(infos) != 1 || len(infos[0].Meta.Files) != shards {
			t.Fatalf("%d shards: index lists %d segments, %v", shards, len(infos), infos)
		}
		pl, s = beam.NewPipelineWithRoot()
		passert.Equals(s, beam.ParDo(s, priorSummary, ReadIndex(s, []string{dir}, beam.CreateList(s, c.batches), beam.CreateList(s, c.unsigned), p)), strs(reached)...)
		passert.Empty(s, ReadIndex(s.Scope("empty"), []string{dir}, beam.CreateList(s, []docBatch{}), beam.CreateList(s, []dedup.Page{}), p))
		ptest.RunAndValidate(t, pl)
	}
}
