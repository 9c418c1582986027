package transforms

import (
	"testing"
)

// flushShards emits every key's merged value once, in the part of its
// shard, and no part above partBytes unless it holds one value.
func TestFlushShardsParts(t *testing.T) {
	type kv struct {
		Key uint64
		N   int
	}
	var m bundleMerge[uint64, kv]
	m.start(1 << 40)
	const keys = 20000
	for i := range 2 * keys { // every key twice: merged
		k := uint64(i % keys)
		m.put(k, 0, func(v *kv) { v.Key, v.N = k, v.N+1 })
	}
	size := func(v *kv) int { return int(v.Key%7) * (partBytes / 9) } // 0 to 2/3 of a part
	seen := map[uint64]bool{}
	parts := 0
	m.flushShards(keyShard, size, func(shard int, part []kv) {
		parts++
		bytes := 0
		for _, v := range part {
			if keyShard(v.Key) != shard {
				t.Fatalf("key %d (shard %d) in the part of shard %d", v.Key, keyShard(v.Key), shard)
			}
			if seen[v.Key] || v.N != 2 {
				t.Fatalf("key %d: seen before %v, merged %d values, want 2", v.Key, seen[v.Key], v.N)
			}
			seen[v.Key] = true
			bytes += size(&v)
		}
		if bytes > partBytes && len(part) > 1 {
			t.Fatalf("shard %d: a part of %d values and %d bytes, above %d", shard, len(part), bytes, partBytes)
		}
	})
	if len(seen) != keys || parts <= shuffleShards {
		t.Fatalf("%d keys in %d parts; want %d keys in more parts than the %d shards (large values split)", len(seen), parts, keys, shuffleShards)
	}
	if len(m.m) != 0 {
		t.Fatalf("%d values held after the flush", len(m.m))
	}
}

// shardParts emits every value once, in its shard's part, each part within
// partBytes, everything when the limit is held.
func TestShardPartsLimits(t *testing.T) {
	var p shardParts[int]
	p.start(0)
	var got []int
	emit := func(shard int, part []int) {
		bytes := 0
		for _, v := range part {
			if v%3 != shard {
				t.Fatalf("value %d in the part of shard %d", v, shard)
			}
			bytes += partBytes / 4
		}
		if bytes > partBytes {
			t.Fatalf("shard %d: a part of %d bytes", shard, bytes)
		}
		got = append(got, part...)
	}
	for v := range 100 {
		p.add(v%3, v, partBytes/4, emit)
	}
	if len(got) < 80 {
		t.Fatalf("%d values emitted before the flush; parts of 4 values each should have left", len(got))
	}
	p.flush(emit)
	if len(got) != 100 {
		t.Fatalf("%d values emitted, want 100", len(got))
	}
	seen := map[int]bool{}
	for _, v := range got {
		if seen[v] {
			t.Fatalf("value %d emitted twice", v)
		}
		seen[v] = true
	}
	// A limit of one byte emits each value alone.
	p.start(1)
	got = nil
	n := 0
	for v := range 10 {
		p.add(v%3, v, 8, func(shard int, part []int) { n++; emit(shard, part) })
	}
	if n != 10 || len(got) != 10 {
		t.Fatalf("limit 1: %d parts of %d values, want 10 of one", n, len(got))
	}
}
