package match

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// A~B, B~C, A≁C with A > B > C: A is kept, B is dropped by A, and C is kept
// because its only near-duplicate B was dropped (connected components would
// drop C too).
func TestDecideChainKeepsBothEnds(t *testing.T) {
	ranks := []string{"a", "b", "c"}
	pairs := []Pair{{A: 0, B: 1, Jaccard: 0.6}, {A: 1, B: 2, Jaccard: 0.7}}
	want := []Decision{{Keep: true, KeptBy: -1}, {KeptBy: 0, Jaccard: 0.6}, {Keep: true, KeptBy: -1}}
	seq, err := DecideSequential(ranks, pairs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(seq, want) {
		t.Errorf("sequential: %+v, want %+v", seq, want)
	}
	for _, max := range []int{-1, 0, 1, 2} {
		got, _, _, err := DecideRounds(ranks, pairs, max)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("rounds (max %d): %+v, want %+v", max, got, want)
		}
	}
	// Reversed priority C > B > A: C kept, B dropped by C, A kept.
	got, _ := DecideSequential([]string{"c", "b", "a"}, pairs)
	if !got[0].Keep || got[1].Keep || got[1].KeptBy != 2 || !got[2].Keep {
		t.Errorf("reversed priority: %+v", got)
	}
}

// A dropped page's KeptBy is its highest-priority kept neighbour, even when
// a lower-priority kept neighbour was decided first in the rounds.
func TestDecideKeptByIsHighestPriorityKeptNeighbour(t *testing.T) {
	// Pages by rank: 0 < 1 < 2 < 3. 0~1 (1 dropped), 1~2? no. Page 3 ~ 0 and 3 ~ 2;
	// 2 has no higher neighbour, kept in round 1; 0 kept in round 1 too.
	ranks := []string{"0", "1", "2", "3"}
	pairs := []Pair{{A: 0, B: 1, Jaccard: 0.9}, {A: 0, B: 3, Jaccard: 0.3}, {A: 2, B: 3, Jaccard: 0.8}}
	for _, max := range []int{-1, 0} {
		got, _, _, _ := DecideRounds(ranks, pairs, max)
		if got[3].Keep || got[3].KeptBy != 0 || got[3].Jaccard != 0.3 {
			t.Errorf("max %d: page 3 %+v, want dropped by 0 at 0.3", max, got[3])
		}
	}
}

// Property: on random graphs with random priorities, the rounds (with and
// without a residual step) equal the sequential rule, and the result is an
// independent, maximal set whose drops point at kept, higher-priority
// neighbours.
func TestDecideRoundsEqualSequential(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := range 400 {
		n := 1 + r.IntN(60)
		density := r.Float64() * 0.3
		if trial%10 == 0 {
			density = 0.9 // near-cliques
		}
		var pairs []Pair
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				if r.Float64() < density {
					pairs = append(pairs, Pair{A: a, B: b, Jaccard: r.Float64()})
				}
			}
		}
		if trial%7 == 0 { // a path with monotone priority: the longest dependence
			pairs = nil
			for a := 0; a+1 < n; a++ {
				pairs = append(pairs, Pair{A: a, B: a + 1, Jaccard: 0.5})
			}
		}
		ranks := make([]string, n)
		for i, p := range r.Perm(n) {
			ranks[i] = fmt.Sprintf("%04d", p)
		}
		if trial%7 == 0 {
			for i := range ranks {
				ranks[i] = fmt.Sprintf("%04d", i)
			}
		}
		want, err := DecideSequential(ranks, pairs)
		if err != nil {
			t.Fatal(err)
		}
		checkDecisions(t, ranks, pairs, want)
		for _, max := range []int{-1, 0, 1, 3} {
			got, rounds, residual, err := DecideRounds(ranks, pairs, max)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("trial %d (n %d, %d pairs), max rounds %d: rounds %+v != sequential %+v", trial, n, len(pairs), max, got, want)
			}
			if max < 0 && residual != 0 || max >= 0 && rounds > max {
				t.Fatalf("trial %d: rounds %d residual %d with max %d", trial, rounds, residual, max)
			}
		}
	}
}

// checkDecisions checks the guarantees of a decision set.
func checkDecisions(t *testing.T, ranks []string, pairs []Pair, ds []Decision) {
	t.Helper()
	adj := map[[2]int]float64{}
	for _, p := range pairs {
		adj[[2]int{p.A, p.B}], adj[[2]int{p.B, p.A}] = p.Jaccard, p.Jaccard
		if ds[p.A].Keep && ds[p.B].Keep {
			t.Fatalf("pair (%d, %d) joins two kept pages", p.A, p.B)
		}
	}
	for v, d := range ds {
		if d.Keep {
			if d.KeptBy != -1 {
				t.Fatalf("kept page %d has KeptBy %d", v, d.KeptBy)
			}
			continue
		}
		j, ok := adj[[2]int{v, d.KeptBy}]
		if !ok || !ds[d.KeptBy].Keep || j != d.Jaccard || ranks[d.KeptBy] >= ranks[v] {
			t.Fatalf("dropped page %d: KeptBy %d (kept %v, pair %v, jaccard %v vs %v)", v, d.KeptBy, ds[d.KeptBy].Keep, ok, d.Jaccard, j)
		}
	}
}

func TestDecideRejectsBadInput(t *testing.T) {
	if _, err := DecideSequential([]string{"a", "a"}, []Pair{{A: 0, B: 1}}); err == nil {
		t.Error("equal ranks of a pair: no error")
	}
	if _, err := DecideSequential([]string{"a"}, []Pair{{A: 0, B: 1}}); err == nil {
		t.Error("pair out of range: no error")
	}
	if _, _, _, err := DecideRounds([]string{"a", "b"}, []Pair{{A: 1, B: 1}}, -1); err == nil {
		t.Error("self pair: no error")
	}
}

func TestDecideExact(t *testing.T) {
	ranks := []string{"3", "1", "2", "0", "4"}
	groups := []string{"x", "x", "y", "", "x"}
	got := DecideExact(ranks, groups)
	want := []Decision{{KeptBy: 1, Jaccard: 1}, {Keep: true, KeptBy: -1}, {Keep: true, KeptBy: -1}, {Keep: true, KeptBy: -1}, {KeptBy: 1, Jaccard: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DecideExact = %+v, want %+v", got, want)
	}
}

func TestPolicyRank(t *testing.T) {
	p, err := ParsePolicy("")
	if err != nil || p.String() != DefaultKeep {
		t.Fatalf("default policy %v, %v", p, err)
	}
	early := PageInfo{Date: "2020-01-01T00:00:00Z", TextBytes: 10, URI: "http://b/long", RecordID: "z", Location: "f@1+0"}
	late := PageInfo{Date: "2021-01-01T00:00:00.5Z", TextBytes: 99, URI: "http://a", RecordID: "a", Location: "f@0+0"}
	undated := PageInfo{Date: "yesterday", TextBytes: 999, URI: "http://a", RecordID: "a", Location: "f@2+0"}
	missing := PageInfo{TextBytes: 1000, URI: "http://a", RecordID: "a", Location: "f@3+0"}
	order := func(spec string, pages ...PageInfo) {
		t.Helper()
		pol, err := ParsePolicy(spec)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(pages); i++ {
			if pol.Rank(pages[i-1]) >= pol.Rank(pages[i]) {
				t.Errorf("%s: page %d (%+v) does not rank before page %d (%+v)", spec, i-1, pages[i-1], i, pages[i])
			}
		}
	}
	// Missing and malformed dates come after every valid date, both ways;
	// among them the next criterion (longest text) decides.
	order("earliest,longest,uri", early, late, missing, undated)
	order("latest,longest,uri", late, early, missing, undated)
	order("longest", missing, undated, late, early)
	order("shortest", early, late, undated, missing)
	order("uri", late, early) // "http://a" is shorter
	// Full ties fall to record ID, then location.
	a, b := early, early
	b.Location = "f@9+0"
	order("earliest", a, b)
	b.RecordID = "y"
	order("earliest", b, a)
	// Pre-1970 dates order correctly.
	old := PageInfo{Date: "1969-12-31T23:59:59Z", Location: "x"}
	order("earliest", old, early)
	for _, bad := range []string{"nope", "earliest,earliest", "earliest,latest", "longest,shortest"} {
		if _, err := ParsePolicy(bad); err == nil {
			t.Errorf("ParsePolicy(%q): no error", bad)
		}
	}
}

func TestParseWARCDate(t *testing.T) {
	for in, want := range map[string]string{
		"2008-04-30T20:48:25Z":        "2008-04-30T20:48:25Z",
		"2024-03-05T18:03:09.123456Z": "2024-03-05T18:03:09.123456Z",
		"2008-04-30T22:48:25+02:00":   "2008-04-30T20:48:25Z",
		"2008-04-30T20:48Z":           "2008-04-30T20:48:00Z",
		"2008-04-30":                  "2008-04-30T00:00:00Z",
		"20080430204825":              "2008-04-30T20:48:25Z",
	} {
		got, ok := ParseWARCDate(in)
		if !ok || got.Format("2006-01-02T15:04:05.999999Z07:00") != want {
			t.Errorf("ParseWARCDate(%q) = %v, %v; want %s", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "null", "2008-13-01T00:00:00Z", "30/04/2008"} {
		if _, ok := ParseWARCDate(bad); ok {
			t.Errorf("ParseWARCDate(%q) accepted", bad)
		}
	}
}
