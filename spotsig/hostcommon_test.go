package spotsig

import (
	"reflect"
	"testing"
)

// Five pages of host a share a template signature 1 (and three of them 8);
// two of them share an article (2), below half of the host; host b has two
// pages only and keeps everything.
func TestStripHostTemplate(t *testing.T) {
	v := func(hs ...uint64) Vector {
		f := make([]uint32, len(hs))
		for i := range f {
			f[i] = 1
		}
		return Vector{Hashes: hs, Freqs: f}
	}
	vecs := []Vector{v(1, 2, 5, 8), v(1, 2, 6, 8), v(1, 7, 8), v(1, 3), v(1, 4), v(1), v(1, 9)}
	hosts := []string{"a", "a", "a", "b", "b", "a", "a"}
	got := StripHostTemplate(vecs, hosts, DefaultHostTemplate)
	want := []Vector{v(2, 5), v(2, 6), v(7), v(1, 3), v(1, 4), {}, v(9)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if vecs[0].Len() != 4 {
		t.Error("input modified")
	}
}
