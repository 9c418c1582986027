package eval

import (
	"reflect"
	"testing"
)

// Runs of five words both texts hold are marked, case aside; a Han or
// kana character is a word, as spotsig.Tokenize counts them.
func TestSharedRuns(t *testing.T) {
	for _, c := range []struct {
		a, b         string
		markA, markB []string
	}{
		{"Alpha beta gamma delta epsilon. Zeta eta theta iota kappa.", "x alpha BETA gamma delta epsilon y zeta eta theta iota",
			[]string{"Alpha beta gamma delta epsilon"}, []string{"alpha BETA gamma delta epsilon"}},
		{"one two three four", "one two three four", nil, nil}, // shorter than a run
		{"東京都の天気", "今日の東京都の天気は", []string{"東京都の天気"}, []string{"東京都の天気"}},
	} {
		ra, rb := sharedRuns(c.a, c.b, 5)
		if got := cut(c.a, ra); !reflect.DeepEqual(got, c.markA) {
			t.Errorf("%q: marked %q, want %q", c.a, got, c.markA)
		}
		if got := cut(c.b, rb); !reflect.DeepEqual(got, c.markB) {
			t.Errorf("%q: marked %q, want %q", c.b, got, c.markB)
		}
	}
}

func cut(s string, rs [][2]int) []string {
	var out []string
	for _, r := range rs {
		out = append(out, s[r[0]:r[1]])
	}
	return out
}

func TestSharedSignatures(t *testing.T) {
	n, top := sharedSignatures([]string{"a:x", "a:x", "b:y", "c:z"}, []string{"a:x", "a:x", "a:x", "c:z", "d:w"}, 1)
	if n != 3 || !reflect.DeepEqual(top, []string{"a:x"}) {
		t.Errorf("shared %d, top %q; want 3, [a:x]", n, top)
	}
}
