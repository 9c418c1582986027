package output

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestShardName(t *testing.T) {
	if got := JSONLines.ShardName("pairs", 3, 12); got != "pairs-00003-of-00012.jsonl" {
		t.Errorf("ShardName = %q", got)
	}
	if got := JoinPath("gs://b/out/", "summary.json"); got != "gs://b/out/summary.json" {
		t.Errorf("JoinPath = %q", got)
	}
	if got := JoinPath("out", "summary.json"); got != "out/summary.json" {
		t.Errorf("JoinPath = %q", got)
	}
}

// Every statistic of the table fills its own summary field, and a
// statistic merged the other way is refused.
func TestStatisticsTable(t *testing.T) {
	for name, st := range statistics {
		var s Summary
		st.add(&s, 7)
		b, _ := json.Marshal(s)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		var set []string
		for k, v := range m {
			if f, ok := v.(float64); ok && f == 7 {
				set = append(set, k)
			}
		}
		slices.Sort(set)
		if len(set) == 0 || !slices.Contains(set, name) {
			t.Errorf("statistic %q fills %v, not its own field", name, set)
		}
		if len(set) > 1 && name != StatExactCopies { // exact copies are pairs lines too
			t.Errorf("statistic %q fills %v", name, set)
		}
	}
	s := Summary{Skipped: map[string]int{}, Capped: map[string]int{}, ClusterSizes: map[int]int{}}
	for k, v := range map[string]int{"skipped/request": 2, "capped/tokens": 1, "languages/de": 3, "cluster_size/4": 5, StatLargestGroup: 9} {
		if err := AddStatistic(&s, k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := AddStatistic(&s, StatLargestGroup, 4); err != nil || s.LargestGroup != 9 {
		t.Errorf("largest_group after 9 and 4: %d, %v", s.LargestGroup, err)
	}
	if s.Skipped["request"] != 2 || s.Capped["tokens"] != 1 || s.Languages["de"] != 3 || s.ClusterSizes[4] != 5 {
		t.Errorf("keyed statistics: %+v", s)
	}
	for _, bad := range []string{"no_such", "cluster_size/x"} {
		if err := AddStatistic(&s, bad, 1); err == nil {
			t.Errorf("statistic %q accepted", bad)
		}
	}
	if err := CheckStatistic(StatPairs, true); err == nil {
		t.Error("pairs accepted as a max statistic")
	}
	if err := CheckStatistic(StatLargestGroup, true); err != nil {
		t.Error(err)
	}
}

func TestIsJobFile(t *testing.T) {
	for name, want := range map[string]bool{
		"pairs-00000-of-00001.jsonl": true, "clusters-00003-of-00010.jsonl": true, "summary.json": true,
		"_SUCCESS": true, ".ndd-beam-tmp-0123-summary.json": true, ProbeFile: true,
		"pairs-0-of-1.jsonl": false, "report.md": false, "notes.txt": false, "pairs-00000-of-00001.jsonl.bak": false, "decisions-00000-of-00002.jsonl.gz": true, "pairs-00000-of-00001.jsonl.zst": false, "clusters-00001-of-00002.parquet": true, "clusters-00001-of-00002.parquet.gz": false,
	} {
		if got := IsJobFile(name); got != want {
			t.Errorf("IsJobFile(%q) = %v, want %v", name, got, want)
		}
	}
}
