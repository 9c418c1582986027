package match

import "github.com/ndd-beam/ndd-beam/spotsig"

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
