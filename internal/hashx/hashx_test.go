package hashx

import (
	"hash/fnv"
	"testing"
)

// FNVAdd and FNVString equal the standard library's FNV-1a 64; Mix64 keeps
// its published test vector (SplitMix64 with seed 0: the first output is
// Mix64(0x9e3779b97f4a7c15)).
func TestHashes(t *testing.T) {
	for _, s := range []string{"", "a", "en/the:south:carolina", "日本語"} {
		h := fnv.New64a()
		h.Write([]byte(s))
		if got := FNVAdd(FNVOffset, []byte(s)); got != h.Sum64() {
			t.Errorf("FNVAdd(%q) = %x, want %x", s, got, h.Sum64())
		}
		if got := FNVString(s); got != h.Sum64() {
			t.Errorf("FNVString(%q) = %x, want %x", s, got, h.Sum64())
		}
	}
	if got := Mix64(0x9e3779b97f4a7c15); got != 0xe220a8397b1dcdaf {
		t.Errorf("Mix64 = %x, want e220a8397b1dcdaf", got)
	}
}
