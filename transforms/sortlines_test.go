package transforms

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// lineSorter gives the lines sorted whether they fit its limit or spill to
// many runs (limit of a few lines), keeps duplicates, and removes its
// temporary files.
func TestLineSorterSpills(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	r := rand.New(rand.NewPCG(1, 2))
	for _, limit := range []int{1 << 30, 200, 1} {
		var want []string
		s := &lineSorter{limit: limit}
		for i := range 1000 {
			l := fmt.Sprintf(`{"a":"%x","i":%d}`, r.Uint64()%300, i%7)
			want = append(want, l)
			if err := s.Add(l); err != nil {
				t.Fatal(err)
			}
		}
		if limit < 1000 && len(s.runs) < 10 {
			t.Errorf("limit %d: %d runs spilled, expected many", limit, len(s.runs))
		}
		var got []string
		n, err := s.Each(func(l string) error { got = append(got, l); return nil })
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(want)
		if n != len(want) || !slices.Equal(got, want) {
			t.Errorf("limit %d: %d lines, sorted %v", limit, n, slices.IsSorted(got))
		}
		left, _ := filepath.Glob(filepath.Join(os.Getenv("TMPDIR"), "ndd-beam-sort-*"))
		if len(left) != 0 {
			t.Errorf("limit %d: temporary files left: %v", limit, left)
		}
	}
}
