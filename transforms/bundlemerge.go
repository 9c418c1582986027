package transforms

// Per-key merging within a bundle: a combiner lifted by hand into
// the DoFn that makes the values. Decide sends one message per edge of the
// pair graph, DropSharedBlocks one per block occurrence; merged per
// destination key before the shuffle, a stage shuffles about one element
// per key and bundle instead.
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
	if b.size += size; b.size >= b.limit {
		b.flush(emit)
	}
}

// flush emits every value held and empties the merge.
func (b *bundleMerge[K, V]) flush(emit func(K, V)) {
	for k, v := range b.m {
		emit(k, *v)
	}
	b.m, b.size = nil, 0
}
