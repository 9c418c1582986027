package match

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// GroupKey says where a document goes: to the group Key, as a home document
// or as a guest. Guests are only compared with the group's home documents
// (guest–guest pairs belong to another group), see §4.2 and Algorithm 1.
type GroupKey struct {
	Key   uint64
	Guest bool
}

// A Grouping is a matching method split the way a distributed job runs it:
// Keys sends each document to one or more groups (a shuffle key), and
// MatchGroup finds the near-duplicate pairs inside one group in memory.
//
// The exact SpotSigs method (partitions of §4.2 + Algorithm 1 of §4.3) sends a
// document to its home partition and, when it can match documents there, as a
// guest to the left neighbour; it never finds a pair twice. Hashing methods
// (LSH, I-Match, descriptive words) send documents to buckets; LSH may find a
// pair in several buckets, which Repeats reports so the caller de-duplicates.
//
// Pair indices returned by MatchGroup index home first, then guests:
// index len(home)+j is guests[j]. Implementations must be safe for
// concurrent use and deterministic.
type Grouping interface {
	Keys(v spotsig.Vector) []GroupKey
	MatchGroup(home, guests []spotsig.Vector) []Pair
	Repeats() bool
}

// KeyAll returns g.Keys of every document, on all cores: the shuffle keys
// the Beam job's KeyByGroup stage computes. Empty vectors get no key.
func KeyAll(g Grouping, docs []spotsig.Vector) [][]GroupKey {
	keys := make([][]GroupKey, len(docs))
	forEach(len(docs), func(i int) {
		if len(docs[i].Hashes) > 0 {
			keys[i] = g.Keys(docs[i])
		}
	})
	return keys
}

// MatchKeyed runs a Grouping in process the way the Beam job does after its
// shuffle: documents are grouped by their keys, each group of two or more is
// matched by MatchGroup (on all cores), indices are mapped back to docs, and
// the pairs are returned sorted by (A, B). A pair met in several groups is
// kept once; it panics if that happens for a Grouping whose Repeats is
// false, since that breaks the Grouping contract.
func MatchKeyed(g Grouping, docs []spotsig.Vector, keys [][]GroupKey) []Pair {
	type member struct {
		doc   int
		guest bool
	}
	groups := map[uint64][]member{}
	for i, ks := range keys {
		for _, k := range ks {
			groups[k.Key] = append(groups[k.Key], member{i, k.Guest})
		}
	}
	names := make([]uint64, 0, len(groups))
	for k, ms := range groups {
		if len(ms) > 1 {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	found := make([][]Pair, len(names))
	forEach(len(names), func(n int) {
		var home, guests []spotsig.Vector
		var hi, gi []int
		for _, m := range groups[names[n]] {
			if m.guest {
				guests, gi = append(guests, docs[m.doc]), append(gi, m.doc)
			} else {
				home, hi = append(home, docs[m.doc]), append(hi, m.doc)
			}
		}
		ids := append(hi, gi...)
		ps := g.MatchGroup(home, guests)
		for i, p := range ps {
			a, b := ids[p.A], ids[p.B]
			ps[i] = NewPair(a, b, p.Jaccard)
		}
		found[n] = ps
	})
	var pairs []Pair
	for _, ps := range found {
		pairs = append(pairs, ps...)
	}
	slices.SortFunc(pairs, func(x, y Pair) int {
		if x.A != y.A {
			return x.A - y.A
		}
		return x.B - y.B
	})
	out := pairs[:0]
	for i, p := range pairs {
		if i > 0 && p.A == pairs[i-1].A && p.B == pairs[i-1].B {
			if !g.Repeats() {
				panic("match: a Grouping whose Repeats is false found a pair twice")
			}
			continue
		}
		out = append(out, p)
	}
	return out
}

// RunGrouping is MatchKeyed(g, docs, KeyAll(g, docs)): the in-process
// reference of the Beam job for any method.
func RunGrouping(g Grouping, docs []spotsig.Vector) []Pair {
	return MatchKeyed(g, docs, KeyAll(g, docs))
}

// forEach calls fn(0..n-1) on all cores.
func forEach(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	var next atomic.Int64
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// CrossGrouping is a Grouping whose groups can also be matched as blocks:
// MatchGroup of each block (as home documents, the group's guests as blocks
// of guests) plus MatchCross of each pair of blocks, home–home and
// home–guest, gives exactly MatchGroup of the whole group. The Beam job
// splits a group of more than config.Params.MaxGroupSignatures signatures this way.
type CrossGrouping interface {
	Grouping
	// MatchCross returns the pairs with one document in a and one in b;
	// index i < len(a) is a[i], len(a)+j is b[j].
	MatchCross(a, b []spotsig.Vector) []Pair
	// MatchGroupEach and MatchCrossEach are MatchGroup and MatchCross with
	// the pairs handed to emit in batches as they are found, unsorted, on
	// the caller's goroutine (see the package's MatchGroupEach): memory
	// does not grow with the number of pairs. With sites (the documents'
	// Sites, indexed as the pairs are; nil for none) they return only the
	// pairs rule keeps, checking a candidate of one site at
	// rule.SameSiteTau (WithSiteRule).
	MatchGroupEach(home, guests []spotsig.Vector, sites []Site, rule SiteRule, emit func([]Pair))
	MatchCrossEach(a, b []spotsig.Vector, sites []Site, rule SiteRule, emit func([]Pair))
}
