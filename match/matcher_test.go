package match

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// diffPairs reports the first difference between two pair lists.
func diffPairs(got, want []Pair) string {
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			return fmt.Sprintf("missing %+v (got %d pairs, want %d)", want[i], len(got), len(want))
		case i >= len(want):
			return fmt.Sprintf("extra %+v (got %d pairs, want %d)", got[i], len(got), len(want))
		case got[i] != want[i]:
			return fmt.Sprintf("pair %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	return ""
}

// viaGrouping runs a Grouping the way the Beam job does: Keys shuffles
// documents into groups, MatchGroup runs per group, indices map back.
func viaGrouping(g Grouping, docs []spotsig.Vector) []Pair {
	type members struct{ home, guests []int }
	groups := map[uint64]*members{}
	for i, d := range docs {
		for _, k := range g.Keys(d) {
			m := groups[k.Key]
			if m == nil {
				m = &members{}
				groups[k.Key] = m
			}
			if k.Guest {
				m.guests = append(m.guests, i)
			} else {
				m.home = append(m.home, i)
			}
		}
	}
	var out []Pair
	for _, m := range groups {
		var home, guests []spotsig.Vector
		for _, i := range m.home {
			home = append(home, docs[i])
		}
		for _, i := range m.guests {
			guests = append(guests, docs[i])
		}
		idx := append(slices.Clone(m.home), m.guests...)
		for _, p := range g.MatchGroup(home, guests) {
			a, b := idx[p.A], idx[p.B]
			if a > b {
				a, b = b, a
			}
			out = append(out, Pair{A: a, B: b, Jaccard: p.Jaccard})
		}
	}
	sortPairs(out)
	return out
}

// Exactness: Match, NoPart, NoPrune and the Partitioned grouping return the
// brute-force pairs, pair for pair and similarity for similarity.
func TestMatchEqualsBruteForce(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 120
	}
	for ki, kind := range corpusKinds {
		r := rand.New(rand.NewPCG(uint64(ki), 7))
		docs := kind.gen(r, n)
		for _, tau := range testTaus {
			want := BruteForce(docs, tau)
			for _, rho := range []int{7, 40, 1000} {
				name := fmt.Sprintf("%s/τ=%v/ρ=%d", kind.name, tau, rho)
				if d := diffPairs(Match(docs, tau, rho), want); d != "" {
					t.Errorf("%s Match: %s", name, d)
				}
				if d := diffPairs(NoPrune(docs, tau, rho), want); d != "" {
					t.Errorf("%s NoPrune: %s", name, d)
				}
				if d := diffPairs(viaGrouping(Partitioned{Tau: tau, Rho: rho}, docs), want); d != "" {
					t.Errorf("%s Partitioned grouping: %s", name, d)
				}
			}
			if d := diffPairs(NoPart(docs, tau), want); d != "" {
				t.Errorf("%s/τ=%v NoPart: %s", kind.name, tau, d)
			}
			if d := diffPairs(NewMatcher(tau, WithRange(40), WithLinearScan()).Match(docs), want); d != "" {
				t.Errorf("%s/τ=%v linear scan: %s", kind.name, tau, d)
			}
			if d := diffPairs(NewMatcher(tau, WithoutPartitions(), WithoutPruning(), WithWorkers(1)).Match(docs), want); d != "" {
				t.Errorf("%s/τ=%v NoPart+NoPrune: %s", kind.name, tau, d)
			}
		}
	}
}

// The corpora must actually contain pairs, or the test above proves little.
func TestCorporaHavePairs(t *testing.T) {
	for ki, kind := range corpusKinds {
		r := rand.New(rand.NewPCG(uint64(ki), 7))
		docs := kind.gen(r, 300)
		if hi, lo := len(BruteForce(docs, 0.9)), len(BruteForce(docs, 0.3)); lo == 0 || (kind.name != "uniform" && kind.name != "zipf" && hi == 0) {
			t.Errorf("%s: %d pairs at τ=0.3, %d at τ=0.9", kind.name, lo, hi)
		}
	}
}

// MatchGroup with explicit home and guest lists (guests of any length):
// brute force over home+guests minus the guest–guest pairs.
func TestMatchGroupHomeGuests(t *testing.T) {
	for ki, kind := range corpusKinds {
		r := rand.New(rand.NewPCG(uint64(ki), 11))
		docs := kind.gen(r, 150)
		split := r.IntN(len(docs))
		home, guests := docs[:split], docs[split:]
		for _, tau := range testTaus {
			var want []Pair
			for _, p := range BruteForce(docs, tau) {
				if p.A >= split {
					continue // guest–guest
				}
				want = append(want, p)
			}
			if d := diffPairs(MatchGroup(home, guests, tau), want); d != "" {
				t.Errorf("%s τ=%v split=%d: %s", kind.name, tau, split, d)
			}
		}
	}
}

// §4.3.2: d1, d2, d3 in one partition, τ = 0.8: ⟨d1, d3⟩ with sim 0.8 is
// the only near-duplicate pair (sim(d1,d2) = 9/16, sim(d2,d3) = 8/18).
func TestPaperDeduplicationExample(t *testing.T) {
	d1 := vec(1, 5, 2, 4, 3, 4)
	d2 := vec(1, 8, 2, 4)
	d3 := vec(1, 4, 2, 5, 3, 5)
	want := []Pair{{A: 0, B: 2, Jaccard: 0.8}}
	if got := MatchGroup([]spotsig.Vector{d1, d2, d3}, nil, 0.8); !slices.Equal(got, want) {
		t.Errorf("MatchGroup = %v, want %v", got, want)
	}
	if got := Match([]spotsig.Vector{d1, d2, d3}, 0.8, 1000); !slices.Equal(got, want) {
		t.Errorf("Match = %v, want %v", got, want)
	}
}

// Pairs that the paper's printed conditions would lose (see matcher.go).
func TestPrintedConditionCounterexamples(t *testing.T) {
	cases := []struct {
		name string
		tau  float64
		a, b spotsig.Vector
		sim  float64
	}{
		// line 18: after list a (δ1=5), d'={b:5} has δ1+δ2 = 10 > (1-τ)·10.
		{"line18", 0.5, vec(1, 5, 2, 5), vec(2, 5), 0.5},
		// line 26: after list a (δ1=1), δ1 ≥ (1-τ)|d|, yet d' = d minus a.
		{"line26", 0.9, vec(1, 1, 2, 9), vec(2, 9), 0.9},
		// decimal tie across partitions [17,19] and [20,22] at τ = 0.9.
		{"tie", 0.9, vec(1, 3, 2, 5, 3, 10), vec(1, 3, 2, 5, 3, 10, 4, 2), 0.9},
	}
	for _, c := range cases {
		want := []Pair{{A: 0, B: 1, Jaccard: c.sim}}
		docs := []spotsig.Vector{c.a, c.b}
		if got := Match(docs, c.tau, 1000); !slices.Equal(got, want) {
			t.Errorf("%s: Match = %v, want %v", c.name, got, want)
		}
		if got := viaGrouping(Partitioned{Tau: c.tau, Rho: 1000}, docs); !slices.Equal(got, want) {
			t.Errorf("%s: Partitioned = %v, want %v", c.name, got, want)
		}
		// Add filler documents so that df order visits the rare list first.
		docs = append(docs, vec(2, 1, 99, 1), vec(2, 1, 98, 1))
		if got := MatchGroup(docs, nil, c.tau); !slices.Equal(got, want) {
			t.Errorf("%s: MatchGroup = %v, want %v", c.name, got, want)
		}
	}
}

func TestPartitionedKeys(t *testing.T) {
	g := Partitioned{Tau: 0.9, Rho: 1000}
	if k := g.Keys(spotsig.Vector{}); k != nil {
		t.Errorf("empty document got keys %v", k)
	}
	// |d| = 20: home [20,22] is partition 8, guest of [17,19] (partition 7).
	d := vec(1, 20)
	want := []GroupKey{{Key: 8}, {Key: 7, Guest: true}}
	if got := g.Keys(d); !slices.Equal(got, want) {
		t.Errorf("Keys(|d|=20) = %v, want %v", got, want)
	}
	if g.Repeats() {
		t.Errorf("Partitioned repeats pairs")
	}
}

func TestBruteForceGrouping(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	docs := corpusKinds[5].gen(r, 100)
	for _, tau := range []float64{0.5, 0.9} {
		if d := diffPairs(viaGrouping(BruteForceGrouping{Tau: tau}, docs), BruteForce(docs, tau)); d != "" {
			t.Errorf("τ=%v: %s", tau, d)
		}
	}
}

// decodeCorpus turns fuzz bytes into τ, ρ and a small corpus: byte 0 picks τ,
// byte 1 ρ, then per document a length byte n (n mod 8 signatures) followed
// by n bytes: low 4 bits the signature, bits 4-5 its extra repeats.
func decodeCorpus(data []byte) (float64, int, []spotsig.Vector) {
	if len(data) < 2 {
		return 0.5, 10, nil
	}
	tau := float64(data[0]%101) / 100
	rho := 1 + int(data[1]%64)
	data = data[2:]
	var docs []spotsig.Vector
	for len(data) > 0 && len(docs) < 64 {
		n := int(data[0] % 8)
		data = data[1:]
		var hs []uint64
		for ; n > 0 && len(data) > 0; n-- {
			b := data[0]
			data = data[1:]
			for range 1 + int(b>>4&3) {
				hs = append(hs, uint64(b&15))
			}
		}
		docs = append(docs, spotsig.NewVector(hs))
	}
	return tau, rho, docs
}

func FuzzMatchEqualsBruteForce(f *testing.F) {
	f.Add([]byte{80, 10, 3, 0x41, 0x12, 0x03, 3, 0x31, 0x12, 0x23, 3, 0x11, 0x32, 0x23})
	f.Add([]byte{90, 3, 2, 1, 2, 2, 1, 2, 1, 1, 0, 0})
	f.Add([]byte{100, 1, 1, 5, 1, 5, 1, 5, 0, 1, 6})
	f.Add([]byte{10, 63, 7, 1, 2, 3, 4, 5, 6, 7, 7, 1, 2, 3, 4, 5, 6, 8, 2, 0x31, 0x32})
	f.Add([]byte{50, 5, 2, 0x31, 0x22, 1, 0x32})
	f.Add([]byte{0, 0, 1, 1, 1, 2, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		tau, rho, docs := decodeCorpus(data)
		want := BruteForce(docs, tau)
		if d := diffPairs(Match(docs, tau, rho), want); d != "" {
			t.Fatalf("Match τ=%v ρ=%d: %s", tau, rho, d)
		}
		if d := diffPairs(NoPart(docs, tau), want); d != "" {
			t.Fatalf("NoPart τ=%v: %s", tau, d)
		}
		if d := diffPairs(NoPrune(docs, tau, rho), want); d != "" {
			t.Fatalf("NoPrune τ=%v ρ=%d: %s", tau, rho, d)
		}
		if d := diffPairs(NewMatcher(tau, WithRange(rho), WithLinearScan()).Match(docs), want); d != "" {
			t.Fatalf("linear scan τ=%v ρ=%d: %s", tau, rho, d)
		}
		if d := diffPairs(viaGrouping(Partitioned{Tau: tau, Rho: rho}, docs), want); d != "" {
			t.Fatalf("Partitioned τ=%v ρ=%d: %s", tau, rho, d)
		}
	})
}

// MatchCross of two blocks returns exactly the brute-force pairs with one
// document in each block, at several τ, on the test corpora (near-duplicate
// clusters among them).
func TestMatchCrossEqualsBruteForce(t *testing.T) {
	for ki, kind := range corpusKinds {
		r := rand.New(rand.NewPCG(uint64(ki), 7))
		docs := kind.gen(r, 300)
		for _, tau := range []float64{0.2, 0.5, 0.9} {
			all := BruteForce(docs, tau)
			for _, cut := range []int{1, 100, 299} {
				var want []Pair
				for _, p := range all {
					if p.A < cut && p.B >= cut {
						want = append(want, p)
					}
				}
				if d := diffPairs(MatchCross(docs[:cut], docs[cut:], tau), want); d != "" {
					t.Errorf("%s/τ=%v/cut=%d: %s", kind.name, tau, cut, d)
				}
				if d := diffPairs(MatchCross(docs[cut:], docs[:cut], tau), shift(want, cut, len(docs)-cut)); d != "" {
					t.Errorf("%s/τ=%v/cut=%d swapped: %s", kind.name, tau, cut, d)
				}
			}
		}
	}
}

// shift maps pairs of docs[:cut] × docs[cut:] to the indices of
// MatchCross(docs[cut:], docs[:cut]): b block first (n2 documents).
func shift(ps []Pair, cut, n2 int) []Pair {
	out := make([]Pair, 0, len(ps))
	for _, p := range ps {
		out = append(out, Pair{A: p.B - cut, B: n2 + p.A, Jaccard: p.Jaccard})
	}
	sortPairs(out)
	return out
}

// A matcher given the sites (WithSiteRule) returns exactly the brute-force
// pairs the rule keeps: whole corpora, groups with guests and cross
// blocks, the documents spread over three sites (so most candidates are of
// one site), a fifth of them on no site, and some pairs capturing one URL.
// The rule's τ sits between the corpus τ and 1, and at 0.9 with the
// corpus τ at 0.9 (no pair of one site asks more).
func TestMatchWithSiteRuleEqualsFilteredBruteForce(t *testing.T) {
	removed := 0
	for ki, kind := range corpusKinds {
		r := rand.New(rand.NewPCG(uint64(ki), 13))
		docs := kind.gen(r, 240)
		sites := make([]Site, len(docs))
		for i := range sites {
			switch n := r.IntN(10); {
			case n < 2:
				sites[i] = SiteOf("", fmt.Sprint("u", i))
			case n < 4:
				sites[i] = SiteOf(fmt.Sprint("s", i%3), "one-url") // captures of one URL per site
			default:
				sites[i] = SiteOf(fmt.Sprint("s", i%3), fmt.Sprint("u", i))
			}
		}
		for _, c := range []struct{ tau, siteTau float64 }{{0.2, 0.9}, {0.3, 0.6}, {0.9, 0.9}, {0.5, 0.95}} {
			rule := SiteRule{SameSiteTau: c.siteTau}
			all := BruteForce(docs, c.tau)
			want := rule.Filter(slices.Clone(all), sites)
			removed += len(all) - len(want)
			name := fmt.Sprintf("%s/τ=%v/same-site τ=%v", kind.name, c.tau, c.siteTau)
			if d := diffPairs(NewMatcher(c.tau, WithRange(40), WithSiteRule(sites, rule)).Match(docs), want); d != "" {
				t.Errorf("%s Match: %s", name, d)
			}
			g := Partitioned{Tau: c.tau, Rho: DefaultRho}
			split := 100
			var wantGroup, wantCross []Pair
			for _, p := range want {
				if p.A < split {
					wantGroup = append(wantGroup, p)
					if p.B >= split {
						wantCross = append(wantCross, p)
					}
				}
			}
			if d := diffPairs(collect(func(emit func([]Pair)) { g.MatchGroupEach(docs[:split], docs[split:], sites, rule, emit) }), wantGroup); d != "" {
				t.Errorf("%s MatchGroupEach: %s", name, d)
			}
			if d := diffPairs(collect(func(emit func([]Pair)) { g.MatchCrossEach(docs[:split], docs[split:], sites, rule, emit) }), wantCross); d != "" {
				t.Errorf("%s MatchCrossEach: %s", name, d)
			}
		}
	}
	if removed < 100 {
		t.Errorf("the rule removes %d pairs in all: the test proves little", removed)
	}
}
