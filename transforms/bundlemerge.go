package transforms

import "github.com/ndd-beam/ndd-beam/internal/hashx"

// Per-key merging within a bundle: a combiner lifted by hand into
// the DoFn that makes the values. Decide sends one message per edge of the
// pair graph, DropSharedBlocks one per block occurrence; merged per
// destination key before the shuffle, a stage shuffles about one element
// per key and bundle instead (and DropSharedBlocks and CollapseExact far
// fewer: "Sharded shuffles" below).
// Beam's CombinePerKey would not do this on the direct runner, which does
// not lift combiners and holds every element it groups at about 170 bytes
// (docs/design.md); distributed runners get fewer, larger shuffle elements
// too.

// mergeBytes is how many bytes (estimated by the callers) a bundleMerge
// holds before it emits its values.
const mergeBytes = 64 << 20

// bundleMerge holds one value per key, merging the values a DoFn makes for
// the same key, until it is flushed: when it holds its limit (mergeBytes;
// tests set less) and at the end of each bundle. What a key receives
// downstream is then one or more merged values, which the consumer merges
// again.
type bundleMerge[K comparable, V any] struct {
	m     map[K]*V
	size  int
	limit int
}

// start empties the merge and sets its limit in bytes (mergeBytes when
// 0); DoFns call it in StartBundle, dropping what a failed bundle left (its
// retry makes the values again).
func (b *bundleMerge[K, V]) start(limit int) {
	b.m, b.size, b.limit = nil, 0, limit
	if b.limit <= 0 {
		b.limit = mergeBytes
	}
}

// add merges into key's value with merge (called on the zero V for a new
// key) and counts size bytes (what merge adds; a new key counts 64 more).
// When the merge holds its limit, everything in it is emitted (flush).
func (b *bundleMerge[K, V]) add(key K, size int, merge func(*V), emit func(K, V)) {
	if b.put(key, size, merge) {
		b.flush(emit)
	}
}

// put is add without the flush: it reports whether the merge holds its
// limit, and the caller flushes it (flushShards).
func (b *bundleMerge[K, V]) put(key K, size int, merge func(*V)) bool {
	if b.m == nil {
		b.m = make(map[K]*V)
	}
	v, ok := b.m[key]
	if !ok {
		v = new(V)
		b.m[key] = v
		size += 64
	}
	merge(v)
	b.size += size
	return b.size >= b.limit
}

// flush emits every value held and empties the merge.
func (b *bundleMerge[K, V]) flush(emit func(K, V)) {
	for k, v := range b.m {
		emit(k, *v)
	}
	b.m, b.size = nil, 0
}

// Sharded shuffles. A stage that merges values per key across the whole
// input (a block's counts, an exact-copy group's head) would shuffle one
// element per key and bundle, and most keys have one value: the 108,000
// pages of the crawl benchmark have 410,000 distinct blocks. The values are
// shuffled under one of shuffleShards keys instead (keyShard), in parts
// (flushShards), and the consumer merges the values of each key of its
// shard in memory: a shard holds 1/shuffleShards of the keys, and a stage
// shuffles at most shuffleShards elements per bundle and partBytes.

// shuffleShards is the number of shards of a sharded shuffle: enough keys
// for any cluster's workers, and at a billion pages' four billion blocks
// about a million keys a shard.
const shuffleShards = 4096

// partBytes bounds a part's estimated size, well under the 10 MB Flink
// accepts for one element (docs/deploy.md).
const partBytes = 4 << 20

// keyShard returns the shard of a 64-bit key, in [0, shuffleShards).
func keyShard(key uint64) int { return int(hashx.Mix64(key) % shuffleShards) }

// flushShards emits every value held, grouped by shard(key) into parts of
// at most partBytes (size estimates a value's bytes), and empties the
// merge. The keys are put in shard order first (a counting sort), so one
// part is built at a time: a flush holds the merge, its keys and one part,
// not every part besides the merge.
func (b *bundleMerge[K, V]) flushShards(shard func(K) int, size func(*V) int, emit func(int, []V)) {
	var end [shuffleShards + 1]int // shard sh's keys are keys[end[sh]:end[sh+1]]
	for k := range b.m {
		end[shard(k)+1]++
	}
	for sh := 1; sh <= shuffleShards; sh++ {
		end[sh] += end[sh-1]
	}
	keys := make([]K, len(b.m))
	next := end
	for k := range b.m {
		sh := shard(k)
		keys[next[sh]] = k
		next[sh]++
	}
	for sh := range shuffleShards {
		ks := keys[end[sh]:end[sh+1]]
		var part []V
		bytes := 0
		for i, k := range ks {
			v := b.m[k]
			n := size(v)
			if bytes+n > partBytes && len(part) > 0 {
				emit(sh, part)
				part, bytes = nil, 0
			}
			if part == nil {
				part = make([]V, 0, len(ks)-i)
			}
			part = append(part, *v)
			bytes += n
			delete(b.m, k) // its value is in the part now: the merge's copy can go
		}
		if len(part) > 0 {
			emit(sh, part)
		}
	}
	b.m, b.size = nil, 0
}

// shardParts gathers values per shard within a bundle, for values that are
// not merged: a shard's part is emitted when it reaches partBytes, every
// part when all hold the limit (mergeBytes; tests set less), and at the
// end of the bundle (flush).
type shardParts[V any] struct {
	parts map[int][]V
	bytes map[int]int
	size  int
	limit int
}

// start empties the parts and sets the limit in bytes (mergeBytes when 0);
// DoFns call it in StartBundle.
func (p *shardParts[V]) start(limit int) {
	p.parts, p.bytes, p.size, p.limit = map[int][]V{}, map[int]int{}, 0, limit
	if p.limit <= 0 {
		p.limit = mergeBytes
	}
}

// add adds v (size bytes, estimated) to shard's part.
func (p *shardParts[V]) add(shard int, v V, size int, emit func(int, []V)) {
	if p.bytes[shard]+size > partBytes && len(p.parts[shard]) > 0 {
		p.size -= p.bytes[shard]
		emit(shard, p.parts[shard])
		delete(p.parts, shard)
		delete(p.bytes, shard)
	}
	p.parts[shard] = append(p.parts[shard], v)
	p.bytes[shard] += size
	if p.size += size; p.size >= p.limit {
		p.flush(emit)
	}
}

// flush emits every part and empties them.
func (p *shardParts[V]) flush(emit func(int, []V)) {
	for sh, part := range p.parts {
		emit(sh, part)
	}
	p.start(p.limit)
}
