package match

import (
	"slices"
	"testing"
)

// A group's site is its pages' one site, or NoSite when they are on
// several or have none; merging is associative and commutative.
func TestMergeSites(t *testing.T) {
	a, b := SiteOf("a.example", ""), SiteOf("b.example", "")
	if a == NoSite || a == b || SiteOf("", "") != NoSite {
		t.Fatalf("SiteOf: a %v b %v empty %v", a, b, SiteOf("", ""))
	}
	for _, c := range []struct {
		in   []Site
		want Site
	}{
		{[]Site{a}, a}, {[]Site{a, a, a}, a}, {[]Site{a, b}, NoSite}, {[]Site{a, a, b}, NoSite},
		{[]Site{a, NoSite}, NoSite}, {[]Site{NoSite, NoSite}, NoSite},
	} {
		rev := slices.Clone(c.in)
		slices.Reverse(rev)
		for _, order := range [][]Site{c.in, rev} {
			got := order[0]
			for _, s := range order[1:] {
				got = MergeSites(got, s)
			}
			if got != c.want {
				t.Errorf("merge %v = %v, want %v", order, got, c.want)
			}
		}
	}
}

// The rule keeps every pair across sites at τ, a pair of one site only at
// SameSiteTau unless both capture one URL; 0 keeps all (the paper's rule).
func TestSiteRule(t *testing.T) {
	a, b := SiteOf("a.example", ""), SiteOf("b.example", "")
	r := SiteRule{SameSiteTau: 0.9}
	home, home2, about := SiteOf("a.example", "a.example"), SiteOf("a.example", "a.example"), SiteOf("a.example", "a.example/about")
	for _, c := range []struct {
		x, y Site
		want bool
	}{{home, home2, true}, {home, about, false}, {home, a, false}, {a, a, false}, {SiteOf("", "x"), SiteOf("", "x"), true}} {
		if got := r.Keep(0.5, c.x, c.y); got != c.want {
			t.Errorf("Keep(0.5, %v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	if g := MergeSites(home, about); g != a {
		t.Errorf("a group of two URLs of one site: %v, want the site %v", g, a)
	}
	for _, c := range []struct {
		j    float64
		x, y Site
		want bool
	}{
		{0.2, a, b, true}, {0.2, a, a, false}, {0.89, a, a, false}, {0.9, a, a, true}, {1, a, a, true},
		{0.5, NoSite, NoSite, true}, {0.5, NoSite, a, true}, {0.5, a, NoSite, true},
	} {
		if got := r.Keep(c.j, c.x, c.y); got != c.want {
			t.Errorf("Keep(%v, %v, %v) = %v, want %v", c.j, c.x, c.y, got, c.want)
		}
	}
	if !(SiteRule{}).Keep(0.2, a, a) {
		t.Error("SameSiteTau 0 drops a pair")
	}
	got := r.Filter([]Pair{{0, 1, 0.3}, {0, 2, 0.3}, {1, 2, 0.95}}, []Site{a, a, b})
	if want := []Pair{{0, 2, 0.3}, {1, 2, 0.95}}; !slices.Equal(got, want) {
		t.Errorf("Filter: %v, want %v", got, want)
	}
}
