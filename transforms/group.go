package transforms

import (
	"context"
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*GroupSize)(nil)).Elem())
	register.Function2x1[GroupSize, GroupSize, GroupSize](addGroupSizes)
	register.Function2x2[uint64, Doc, uint64, GroupSize](docGroupSize)
	register.Function2x1[uint64, GroupSize, GroupSize](withGroupKey)
	registerDoFn(&KeyByTaskFn{})
	registerDoFn(&MatchTasksFn{})
	register.Emitter2[string, Doc]()
	register.Iter1[GroupSize]()
	registerDoFn(&KeyByGroupFn{})
	registerDoFn(&MatchGroupsFn{})
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
// for the SpotSigs matcher). For a match.CrossGrouping with
// p.MaxGroupDocs > 0, a group of more documents is matched as a block-pair
// grid instead, no task holding more than p.MaxGroupDocs documents
// (matchTasks); the pairs are the same. It returns the pairs (PairRecord, each unordered
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
	if _, ok := g.(match.CrossGrouping); ok && p.MaxGroupDocs > 0 {
		return matchTasks(s, st, keyed, p), nil
	}
	pairs, groupSizes, sameSite := beam.ParDo3(s, &MatchGroupsFn{Params: p}, beam.GroupByKey(s, keyed))
	if g.Repeats() {
		pairs = filter.Distinct(s, pairs)
	}
	st.Count(s, StatPartitions, groupSizes)
	st.Max(s, StatLargestGroup, groupSizes)
	st.Count(s, StatPairs, pairs)
	st.Sum(s, StatSameSitePairs, sameSite)
	return pairs, nil
}

// MatchGroupsFn matches one group: it splits home and guest documents, sorts
// each by document key (so the matcher sees the same order on every runner),
// runs Grouping.MatchGroup and emits each pair the same-site rule keeps
// (config.Params.SiteRule) with both documents' metadata in canonical
// order, then the group's size and the number of pairs the rule removed.
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
func (fn *MatchGroupsFn) ProcessElement(ctx context.Context, key uint64, docs func(*Doc) bool, emit func(PairRecord), size, sameSite func(int)) error {
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
	rule, removed := fn.Params.SiteRule(), 0
	for _, p := range fn.grouping.MatchGroup(vecs[:len(home)], vecs[len(home):]) {
		if p.A < 0 || p.B >= len(all) || p.A >= p.B {
			return fmt.Errorf("group %d: matcher returned pair (%d, %d) outside [0, %d)", key, p.A, p.B, len(all))
		}
		if !rule.Keep(p.Jaccard, all[p.A].Site, all[p.B].Site) {
			removed++
			continue
		}
		matchPairs.Inc(ctx, 1)
		progress.pairs.Add(1)
		emit(NewPairRecord(all[p.A], all[p.B], p.Jaccard))
	}
	sameSite(removed)
	return nil
}

// GroupSize counts a group's home and guest documents (matchTasks).
type GroupSize struct {
	Key         uint64
	Home, Guest int
}

func addGroupSizes(a, b GroupSize) GroupSize {
	return GroupSize{Key: a.Key, Home: a.Home + b.Home, Guest: a.Guest + b.Guest}
}

func docGroupSize(k uint64, d Doc) (uint64, GroupSize) {
	if d.Guest {
		return k, GroupSize{Guest: 1}
	}
	return k, GroupSize{Home: 1}
}

func withGroupKey(k uint64, g GroupSize) GroupSize { g.Key = k; return g }

// matchTasks is MatchGroups with hot groups split (block-pair grid). The
// group sizes are summed per key by a combiner and reach KeyByTaskFn as a
// side input (one small record per group: the τ partitions number a few
// dozen). A group of at most p.MaxGroupDocs documents is one task, as
// before. A larger one with h home and g guest documents is cut into
// B = ⌈h/b⌉ home blocks and C = ⌈g/b⌉ guest blocks of b = 0.4 ×
// p.MaxGroupDocs documents on average (a document's block: a hash of its
// warc.Ref.ID modulo the count, so no pass needs the whole group), and
// matched as B self tasks (MatchGroup of a home block), B(B−1)/2 home–home
// and B·C home–guest cross tasks (match.MatchCross): every pair of the
// group meets in exactly one task, and each home document is sent to
// B + C tasks. A task holds two blocks, 0.8 × p.MaxGroupDocs documents on
// average; hashing spreads a block of n documents by about ±√n, so the
// bound holds for blocks of hundreds of documents and more, not exactly
// for tiny ones (docs/design.md). Statistics: partitions is
// the number of groups, largest_group the largest task.
func matchTasks(s beam.Scope, st *Stats, keyed beam.PCollection, p config.Params) beam.PCollection {
	s = s.Scope("Tasks")
	sizes := beam.ParDo(s, withGroupKey, beam.CombinePerKey(s, addGroupSizes, beam.ParDo(s, docGroupSize, keyed)))
	tasks := beam.ParDo(s, &KeyByTaskFn{MaxDocs: p.MaxGroupDocs}, keyed, beam.SideInput{Input: sizes})
	pairs, taskSizes, taskPairs, sameSite := beam.ParDo4(s, &MatchTasksFn{Params: p}, beam.GroupByKey(s, tasks))
	st.Count(s, StatPartitions, sizes)
	st.Max(s, StatLargestGroup, taskSizes)
	st.Sum(s, StatPairs, taskPairs) // one number per task, not one per pair
	st.Sum(s, StatSameSitePairs, sameSite)
	return pairs
}

// Task kinds in a task key "group/kind/i/j".
const (
	taskWhole = "w" // the whole group, MatchGroup(home, guests)
	taskSelf  = "s" // home block i alone, MatchGroup
	taskCross = "x" // block i × block j (j >= B: guest block j−B), MatchCross
)

func taskKey(group uint64, kind string, i, j int) string {
	return strconv.FormatUint(group, 10) + "/" + kind + "/" + strconv.Itoa(i) + "/" + strconv.Itoa(j)
}

// blockHash mixes a document's 16-byte warc.Ref.ID into 64 well-spread bits
// (SplitMix64's finalizer of the halves' XOR; FNV's high bits change
// little between records of one file) for its block number.
func blockHash(id string) uint64 {
	x := binary.BigEndian.Uint64([]byte(id[:8])) ^ binary.BigEndian.Uint64([]byte(id[8:16]))
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// KeyByTaskFn sends each keyed document to the tasks of its group
// (matchTasks). In a cross task the first block's documents have Guest
// false, the second's Guest true.
type KeyByTaskFn struct {
	MaxDocs int
	sizes   map[uint64]GroupSize
}

// ProcessElement keys one document.
func (fn *KeyByTaskFn) ProcessElement(ctx context.Context, group uint64, d Doc, sizes func(*GroupSize) bool, emit func(string, Doc)) {
	if fn.sizes == nil {
		fn.sizes = map[uint64]GroupSize{}
		var g GroupSize
		for sizes(&g) {
			fn.sizes[g.Key] = g
		}
	}
	g := fn.sizes[group]
	if g.Home+g.Guest <= fn.MaxDocs {
		emit(taskKey(group, taskWhole, 0, 0), d)
		return
	}
	blk := max(1, fn.MaxDocs*2/5)
	nb, nc := (g.Home+blk-1)/blk, (g.Guest+blk-1)/blk
	h := blockHash(d.ID())
	if d.Guest {
		k := int(h % uint64(max(nc, 1)))
		for i := range nb {
			emit(taskKey(group, taskCross, i, nb+k), d)
		}
		return
	}
	i := int(h % uint64(nb))
	emit(taskKey(group, taskSelf, i, i), d)
	a, b := d, d
	a.Guest, b.Guest = false, true
	for j := range nb {
		switch {
		case j > i:
			emit(taskKey(group, taskCross, i, j), a)
		case j < i:
			emit(taskKey(group, taskCross, j, i), b)
		}
	}
	for k := range nc {
		emit(taskKey(group, taskCross, i, nb+k), a)
	}
}

// MatchTasksFn matches one task of matchTasks: a whole group or a home
// block (Grouping.MatchGroup), or two blocks (match.CrossGrouping
// MatchCross), documents sorted by key so every runner gives the matcher
// the same order. It emits the pairs the same-site rule keeps
// (config.Params.SiteRule), then the task's number of documents, of pairs
// and of pairs the rule removed.
type MatchTasksFn struct {
	Params   config.Params
	grouping match.CrossGrouping
}

// Setup builds the Grouping from Params.
func (fn *MatchTasksFn) Setup() error {
	g, err := config.NewGrouping(fn.Params)
	if err != nil {
		return err
	}
	cg, ok := g.(match.CrossGrouping)
	if !ok {
		return fmt.Errorf("matcher %q cannot match blocks", fn.Params.Matcher)
	}
	fn.grouping = cg
	return nil
}

// ProcessElement matches one task.
func (fn *MatchTasksFn) ProcessElement(ctx context.Context, key string, docs func(*Doc) bool, emit func(PairRecord), size, pairCount, sameSite func(int)) error {
	var a, b []Doc
	var d Doc
	for docs(&d) {
		if d.Guest {
			b = append(b, d)
		} else {
			a = append(a, d)
		}
		d = Doc{}
	}
	byKey := func(x, y Doc) int { return x.Compare(y.Ref) }
	slices.SortFunc(a, byKey)
	slices.SortFunc(b, byKey)
	n := len(a) + len(b)
	matchGroups.Inc(ctx, 1)
	matchGroupLen.Update(ctx, int64(n))
	size(n)
	if len(a) == 0 {
		return nil
	}
	all := append(a[:len(a):len(a)], b...)
	vecs := make([]spotsig.Vector, len(all))
	for i := range all {
		vecs[i] = all[i].Vec
	}
	var bad error
	var npairs, removed int
	rule := fn.Params.SiteRule()
	emitPairs := func(ps []match.Pair) {
		for _, p := range ps {
			if p.A < 0 || p.B >= len(all) || p.A >= p.B {
				if bad == nil {
					bad = fmt.Errorf("task %s: matcher returned pair (%d, %d) outside [0, %d)", key, p.A, p.B, len(all))
				}
				continue
			}
			if !rule.Keep(p.Jaccard, all[p.A].Site, all[p.B].Site) {
				removed++
				continue
			}
			matchPairs.Inc(ctx, 1)
			progress.pairs.Add(1)
			npairs++
			emit(NewPairRecord(all[p.A], all[p.B], p.Jaccard))
		}
	}
	// Pairs stream out of the matcher in batches: a task's memory is its
	// documents and index, not its pairs.
	if strings.Contains(key, "/"+taskCross+"/") {
		fn.grouping.MatchCrossEach(vecs[:len(a)], vecs[len(a):], emitPairs)
	} else {
		fn.grouping.MatchGroupEach(vecs[:len(a)], vecs[len(a):], emitPairs)
	}
	if bad != nil {
		return bad
	}
	pairCount(npairs)
	sameSite(removed)
	return nil
}
