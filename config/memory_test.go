package config

import "testing"

func TestParseMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"auto", 0, true}, {"off", 0, true}, {"4GiB", 4 << 30, true}, {"512MiB", 512 << 20, true},
		{"1TiB", 1 << 40, true}, {"67108864", 64 << 20, true}, {"65536KiB", 64 << 20, true}, {"100000000B", 100000000, true},
		{"63MiB", 0, false}, {"3", 0, false}, {"4GB", 0, false}, {"-1GiB", 0, false}, {"", 0, false}, {"lots", 0, false},
		{"9999999999TiB", 0, false},
	} {
		got, err := ParseMemoryLimit(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseMemoryLimit(%q) = %d, %v; want %d, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
	cfg := DefaultConfig()
	cfg.MemoryLimit = "4GB"
	if err := cfg.ValidateValues(); err == nil {
		t.Error("--memory_limit=4GB accepted")
	}
}
