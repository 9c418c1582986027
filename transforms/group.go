package transforms

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

func init() {
	register.DoFn3x0[context.Context, Doc, func(uint64, Doc)](&KeyByGroupFn{})
	register.DoFn5x1[context.Context, uint64, func(*Doc) bool, func(PairRecord), func(int), error](&MatchGroupsFn{})
	register.Emitter2[uint64, Doc]()
	register.Emitter1[PairRecord]()
	register.Iter1[Doc]()
}

var (
	groupEntries  = beam.NewCounter("group", "entries")
	groupGuests   = beam.NewCounter("group", "guests")
	matchGroups   = beam.NewCounter("match", "groups")
	matchPairs    = beam.NewCounter("match", "pairs")
	matchGroupLen = beam.NewDistribution("match", "group_size")
)

// KeyByGroup sends each document to the groups the Grouping of p names
// (Grouping.Keys): for the SpotSigs matcher its τ partition (§4.2) as a home
// document and, when it can match documents there, its left neighbour as a
// guest. Returns KV<uint64 group key, Doc> with Doc.Guest set on guest
// copies.
func KeyByGroup(s beam.Scope, docs beam.PCollection, p config.Params) beam.PCollection {
	s = s.Scope("KeyByGroup")
	return beam.ParDo(s, &KeyByGroupFn{Params: p}, docs)
}

// KeyByGroupFn emits one (key, doc) per match.GroupKey of the document.
type KeyByGroupFn struct {
	Params   config.Params
	grouping match.Grouping
}

// Setup builds the Grouping from Params.
func (fn *KeyByGroupFn) Setup() error {
	g, err := config.NewGrouping(fn.Params)
	fn.grouping = g
	return err
}

// ProcessElement keys one document.
func (fn *KeyByGroupFn) ProcessElement(ctx context.Context, d Doc, emit func(uint64, Doc)) {
	for _, k := range fn.grouping.Keys(d.Vec) {
		d.Guest = k.Guest
		groupEntries.Inc(ctx, 1)
		if k.Guest {
			groupGuests.Inc(ctx, 1)
		}
		emit(k.Key, d)
	}
}

// MatchGroups groups the keyed documents (GroupByKey) and matches each group
// in memory with the Grouping of p (Grouping.MatchGroup: Algorithm 1 of §4.3
// for the SpotSigs matcher). It returns the pairs (PairRecord, each unordered
// pair once: when the Grouping may find a pair in several groups, pairs are
// de-duplicated) and adds to st the number of groups (partitions), the size
// of the largest (largest_group, home + guest documents) and the number of
// pairs.
func MatchGroups(s beam.Scope, st *Stats, keyed beam.PCollection, p config.Params) (beam.PCollection, error) {
	s = s.Scope("MatchGroups")
	g, err := config.NewGrouping(p)
	if err != nil {
		return beam.PCollection{}, err
	}
	pairs, groupSizes := beam.ParDo2(s, &MatchGroupsFn{Params: p}, beam.GroupByKey(s, keyed))
	if g.Repeats() {
		pairs = filter.Distinct(s, pairs)
	}
	st.Count(s, StatPartitions, groupSizes)
	st.Max(s, StatLargestGroup, groupSizes)
	st.Count(s, StatPairs, pairs)
	return pairs, nil
}

// MatchGroupsFn matches one group: it splits home and guest documents, sorts
// each by document key (so the matcher sees the same order on every runner),
// runs Grouping.MatchGroup and emits each pair with both documents' metadata
// in canonical order.
type MatchGroupsFn struct {
	Params   config.Params
	grouping match.Grouping
}

// Setup builds the Grouping from Params.
func (fn *MatchGroupsFn) Setup() error {
	g, err := config.NewGrouping(fn.Params)
	fn.grouping = g
	return err
}

// ProcessElement matches the group key.
func (fn *MatchGroupsFn) ProcessElement(ctx context.Context, key uint64, docs func(*Doc) bool, emit func(PairRecord), size func(int)) error {
	var home, guests []Doc
	var d Doc
	for docs(&d) {
		if d.Guest {
			guests = append(guests, d)
		} else {
			home = append(home, d)
		}
		d = Doc{}
	}
	byKey := func(a, b Doc) int { return a.Compare(b.Ref) }
	slices.SortFunc(home, byKey)
	slices.SortFunc(guests, byKey)
	n := len(home) + len(guests)
	matchGroups.Inc(ctx, 1)
	matchGroupLen.Update(ctx, int64(n))
	size(n)
	if len(home) == 0 {
		return nil
	}
	all := append(home[:len(home):len(home)], guests...)
	vecs := make([]spotsig.Vector, len(all))
	for i := range all {
		vecs[i] = all[i].Vec
	}
	for _, p := range fn.grouping.MatchGroup(vecs[:len(home)], vecs[len(home):]) {
		if p.A < 0 || p.B >= len(all) || p.A >= p.B {
			return fmt.Errorf("group %d: matcher returned pair (%d, %d) outside [0, %d)", key, p.A, p.B, len(all))
		}
		matchPairs.Inc(ctx, 1)
		emit(NewPairRecord(all[p.A], all[p.B], p.Jaccard))
	}
	return nil
}
