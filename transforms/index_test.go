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
// several.
func TestWriteIndexReadIndex(t *testing.T) {
	p := config.DefaultParams()
	res := smallResult(t, p)
	c := newDecideCase(t, res, 2)
	for _, shards := range []int{1, 3} {
		dir := t.TempDir()
		seg := IndexSegment{Dir: dir, Name: index.SegmentName(output.NewRunID()), Created: "2026-01-02T03:04:05Z", Shards: shards, Params: p}
		var want []string
		for _, pr := range dedup.Priors(res, seg.Name) {
			want = append(want, priorSummary(pr))
		}
		if len(want) < 3 {
			t.Fatalf("%d pages kept; want more", len(want))
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
		passert.Equals(s, beam.ParDo(s, priorSummary, ReadIndex(s, []string{dir}, p)), strs(want)...)
		ptest.RunAndValidate(t, pl)
	}
}
