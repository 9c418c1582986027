package transforms

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/ndd-beam/ndd-beam/output"
)

// WriteLines gives every shard sorted and complete (duplicates kept)
// whether its lines fit in one run or are spilled as hundreds of runs per
// shard (merged in passes beyond maxMergeRuns), and Commit leaves no run
// behind.
func TestWriteLinesSpilledRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var lines []string
	for i := range 1500 {
		lines = append(lines, fmt.Sprintf(`{"a":"%x","i":%d}`, r.Uint64()%300, i%7))
	}
	for _, spill := range []int{0, 200, 1} {
		dir := t.TempDir()
		pl, s := beam.NewPipelineWithRoot()
		out := &Outputs{Dir: dir, Shards: 3, RunID: output.NewRunID(), spill: spill}
		WriteLines(s, out, "x", beam.CreateList(s, lines))
		out.Commit(s)
		ptest.RunAndValidate(t, pl)
		var got []string
		for i := range 3 {
			b, err := os.ReadFile(filepath.Join(dir, output.JSONLines.ShardName("x", i, 3)))
			if err != nil {
				t.Fatal(err)
			}
			shard := strings.Fields(string(b))
			if !slices.IsSorted(shard) {
				t.Errorf("spill %d: shard %d not sorted", spill, i)
			}
			for _, l := range shard {
				if shardOf(l, 3) != i {
					t.Fatalf("spill %d: line %s in shard %d", spill, l, i)
				}
			}
			got = append(got, shard...)
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(lines))
		if !slices.Equal(got, want) {
			t.Errorf("spill %d: %d lines written, want the %d given", spill, len(got), len(want))
		}
		left, _ := filepath.Glob(filepath.Join(dir, output.TempPrefix+"*"))
		if len(left) != 0 {
			t.Errorf("spill %d: temporary files left: %d", spill, len(left))
		}
	}
}
