package match

import (
	"math"
	"testing"
)

// §5.1: "for ρ = 1,000 ... 501 partitions for τ = 1.0, still 41 partitions
// for τ = 0.9, and only 3 partitions for τ = 0.1".
func TestPartitionCountsOfThePaper(t *testing.T) {
	for _, c := range []struct {
		tau  float64
		want int
	}{{1.0, 501}, {0.9, 41}, {0.1, 3}} {
		if got := NewPartitioning(c.tau, 1000).Count(); got != c.want {
			t.Errorf("τ=%v ρ=1000: %d partitions, the paper reports %d", c.tau, got, c.want)
		}
	}
}

// Boundaries worked out by hand from the rule q = min{q > p : p/q ≤ τ},
// partition [p, q], next p = q+1.
func TestPartitionBoundsByHand(t *testing.T) {
	p := NewPartitioning(0.1, 1000) // [1,10] [11,110] [111,∞)
	want := [][2]int{{1, 11}, {11, 111}, {111, math.MaxInt}}
	for k, w := range want {
		if lo, hi := p.Bounds(k); lo != w[0] || hi != w[1] {
			t.Errorf("τ=0.1 partition %d = [%d,%d), want [%d,%d)", k, lo, hi, w[0], w[1])
		}
	}
	p = NewPartitioning(1.0, 1000) // [1,2] [3,4] ... [999,1000] [1001,∞)
	for k := range 500 {
		if lo, hi := p.Bounds(k); lo != 2*k+1 || hi != 2*k+3 {
			t.Fatalf("τ=1 partition %d = [%d,%d)", k, lo, hi)
		}
	}
	if lo, _ := p.Bounds(500); lo != 1001 {
		t.Errorf("τ=1 overflow starts at %d", lo)
	}
	// τ=0.9: [1,2] [3,4] [5,6] [7,8] [9,10] [11,13] [14,16] [17,19] [20,...
	p = NewPartitioning(0.9, 1000)
	for length, home := range map[int]int{0: 0, 1: 0, 2: 0, 9: 4, 10: 4, 11: 5, 13: 5, 14: 6, 19: 7, 20: 8, 5000: 40} {
		if got := p.Home(length); got != home {
			t.Errorf("τ=0.9 Home(%d) = %d, want %d", length, got, home)
		}
	}
	// 20 is a guest of [17,19] (19/20 ≥ 0.9); 22 is not (19/22 < 0.9).
	if k, ok := p.Guest(20); !ok || k != 7 {
		t.Errorf("Guest(20) = %d, %v", k, ok)
	}
	if _, ok := p.Guest(22); ok {
		t.Errorf("Guest(22) should be false")
	}
}

// The invariant of Partitioning, exhaustively over lengths 0..3ρ: every pair
// of lengths that can match meets in exactly one group as (home, home) or
// (home, guest); and a length pair in non-adjacent partitions never can.
func TestPartitionMeetsExactlyOnce(t *testing.T) {
	const rho = 1000
	taus := append([]float64{0.33, 0.999, 0}, testTaus...)
	if testing.Short() {
		taus = taus[:4]
	}
	for _, tau := range taus {
		p := NewPartitioning(tau, rho)
		home := make([]int, 3*rho+1)
		guest := make([]int, 3*rho+1)
		for l := range home {
			home[l] = p.Home(l)
			guest[l] = -1
			if k, ok := p.Guest(l); ok {
				guest[l] = k
			}
		}
		if guest[0] != -1 {
			t.Fatalf("τ=%v: empty document is a guest", tau)
		}
		for long := 1; long <= 3*rho; long++ {
			for short := 1; short <= long; short++ {
				can := p.CanMatch(short, long)
				if can != (float64(short)/float64(long) >= p.Tau()) {
					t.Fatalf("CanMatch(%d,%d) wrong", short, long)
				}
				meets := 0
				if home[short] == home[long] {
					meets++
				}
				if guest[long] >= 0 && guest[long] == home[short] {
					meets++
				}
				if guest[short] >= 0 && guest[short] == home[long] {
					meets++
				}
				if can && meets != 1 {
					t.Fatalf("τ=%v: lengths %d,%d can match but meet %d times (homes %d,%d guests %d,%d)",
						tau, short, long, meets, home[short], home[long], guest[short], guest[long])
				}
				if can && home[long]-home[short] > 1 {
					t.Fatalf("τ=%v: matching lengths %d,%d in non-adjacent partitions", tau, short, long)
				}
			}
		}
	}
}
