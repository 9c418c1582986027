package transforms

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Matching in groups (§4.2, §4.3): KeyByGroup sends each document to the
// groups its Grouping names, MatchGroups matches each group in memory
// (Algorithm 1 for the SpotSigs matcher) or, a group of a cross grouping
// over p.MaxGroupSignatures, as a grid of block-pair tasks (matchTasks);
// the pairs it finds are foundPair.

func init() {
	beam.RegisterType(reflect.TypeOf((*foundPair)(nil)).Elem())
	register.Function2x2[uint64, docPart, uint64, gridSize](partGridSize)
	registerDoFn(&keyByTaskFn{})
	registerDoFn(&matchTasksFn{})
	register.Emitter2[string, docPart]()
	register.Iter1[docPart]()
	registerDoFn(&keyByGroupFn{})
	registerDoFn(&matchGroupsFn{})
	register.Emitter2[uint64, docPart]()
	register.Emitter1[foundPair]()
	register.Emitter1[output.PairRecord]()
	register.Function1x1[foundPair, output.PairRecord](foundRecord)
	register.Function2x0[foundPair, func(foundPair)](nearDuplicate)
}

// foundPair is a candidate pair as MatchGroups finds it: the line of the pairs
// output (two exact-copy representatives, in canonical order, with their
// verification: only a NearDuplicate pair makes decisions, NearDuplicates)
// and the Batches they travel in (Decide tells them whether they have a
// pair).
type foundPair struct {
	Pair           output.PairRecord
	ABatch, BBatch string
}

// foundRecord is a found pair's line of the pairs output.
func foundRecord(f foundPair) output.PairRecord { return f.Pair }

// newFound is the found pair of documents x and y at Jaccard j, verified
// at share (dedup.Verify).
func newFound(x, y matchDoc, j, share float64) foundPair {
	v := dedup.Verify(x.Sketch, y.Sketch, x.Site, y.Site, dedup.Weak(x.Vec.Len(), y.Vec.Len()), share)
	f := foundPair{Pair: dedup.NewPairRecord(x.Ref, x.Vec.Len(), y.Ref, y.Vec.Len(), j, v), ABatch: x.Batch, BBatch: y.Batch}
	if f.Pair.A() != x.Ref {
		f.ABatch, f.BBatch = y.Batch, x.Batch
	}
	return f
}

// FoundRecords returns the lines of the pairs output of found pairs.
func FoundRecords(s beam.Scope, found beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("FoundRecords"), foundRecord, found)
}

// nearDuplicate passes a found pair that verification accepted.
func nearDuplicate(f foundPair, emit func(foundPair)) {
	if f.Pair.NearDuplicate {
		emit(f)
	}
}

// NearDuplicates returns the found pairs that are near-duplicates (their
// verification accepted them): what Decide reads.
func NearDuplicates(s beam.Scope, found beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("NearDuplicates"), nearDuplicate, found)
}

// partBuilder gathers documents per key into Parts of at most
// maxBatchDocs documents or about maxBatchBytes, emitting a part when full
// and the rest on flush.
type partBuilder[K comparable] struct {
	parts map[K]*docPart
	bytes map[K]int
}

func (pb *partBuilder[K]) add(k K, d matchDoc, emit func(K, docPart)) {
	if pb.parts == nil {
		pb.parts, pb.bytes = map[K]*docPart{}, map[K]int{}
	}
	b := pb.parts[k]
	if b == nil {
		b = &docPart{}
		pb.parts[k] = b
	}
	b.Docs = append(b.Docs, d)
	pb.bytes[k] += 48 + len(d.RecordID) + len(d.URI) + len(d.File) + len(d.Batch) + 10*len(d.Vec.Hashes) + d.Sketch.Bytes()
	if len(b.Docs) >= maxBatchDocs || pb.bytes[k] >= maxBatchBytes {
		emit(k, *b)
		delete(pb.parts, k)
		delete(pb.bytes, k)
	}
}

func (pb *partBuilder[K]) flush(emit func(K, docPart)) {
	for k, b := range pb.parts {
		emit(k, *b)
	}
	pb.parts, pb.bytes = nil, nil
}

var (
	groupEntries  = beam.NewCounter("group", "entries")
	groupGuests   = beam.NewCounter("group", "guests")
	matchGroups   = beam.NewCounter("match", "groups")
	matchPairs    = beam.NewCounter("match", "pairs")
	matchGroupLen = beam.NewDistribution("match", "group_size")
)

// KeyByGroup sends each document of the batches to the groups the
// Grouping of p names (Grouping.Keys): for the SpotSigs matcher its τ
// partition (§4.2) as a home document and, when it can match documents
// there, its left neighbour as a guest. Returns KV<uint64 group key,
// docPart>: parts of a group's documents as matching needs them (matchDoc),
// with Guest set on guest copies.
func KeyByGroup(s beam.Scope, batches beam.PCollection, p config.Params) beam.PCollection {
	s = s.Scope("KeyByGroup")
	return beam.ParDo(s, &keyByGroupFn{Params: p}, batches)
}

// keyByGroupFn sends each document to the part of every group its
// match.GroupKeys name, parts gathered per key within a bundle.
type keyByGroupFn struct {
	Params   config.Params
	grouping match.Grouping
	parts    partBuilder[uint64]
}

// Setup builds the Grouping from Params.
func (fn *keyByGroupFn) Setup() error {
	g, err := config.NewGrouping(fn.Params)
	fn.grouping = g
	return err
}

// StartBundle starts the bundle's parts.
func (fn *keyByGroupFn) StartBundle(func(uint64, docPart)) { fn.parts = partBuilder[uint64]{} }

// ProcessElement keys one batch's documents.
func (fn *keyByGroupFn) ProcessElement(ctx context.Context, b docBatch, emit func(uint64, docPart)) {
	for i := range b.Docs {
		d := partDoc(b.Docs[i])
		for _, k := range fn.grouping.Keys(d.Vec) {
			d.Guest = k.Guest
			groupEntries.Inc(ctx, 1)
			if k.Guest {
				groupGuests.Inc(ctx, 1)
			}
			fn.parts.add(k.Key, d, emit)
		}
	}
}

// FinishBundle emits the parts not yet full.
func (fn *keyByGroupFn) FinishBundle(emit func(uint64, docPart)) { fn.parts.flush(emit) }

// MatchGroups groups the keyed documents (GroupByKey) and matches each group
// in memory with the Grouping of p (Grouping.MatchGroup: Algorithm 1 of §4.3
// for the SpotSigs matcher). For a match.CrossGrouping with
// p.MaxGroupSignatures > 0, a group of more signatures is matched as a
// block-pair grid instead, no task holding more than about
// p.MaxGroupSignatures (matchTasks); the pairs are the same. It returns the
// pairs (foundPair, each unordered pair once: when the Grouping may find a pair
// in several groups, pairs are de-duplicated) and adds to st the number of
// groups (partitions), the size of the largest (largest_group, home + guest
// documents; largest_group_signatures, their Σ|d|) and the number of
// pairs.
func MatchGroups(s beam.Scope, st *Stats, keyed beam.PCollection, p config.Params) (beam.PCollection, error) {
	s = s.Scope("MatchGroups")
	g, err := config.NewGrouping(p)
	if err != nil {
		return beam.PCollection{}, err
	}
	if _, ok := g.(match.CrossGrouping); ok && p.MaxGroupSignatures > 0 {
		return matchTasks(s, st, keyed, p), nil
	}
	pairs, groupSizes, groupSigs := beam.ParDo3(s, &matchGroupsFn{Params: p}, beam.GroupByKey(s, keyed))
	if g.Repeats() {
		pairs = filter.Distinct(s, pairs)
	}
	st.Count(s, output.StatPartitions, groupSizes)
	st.Max(s, output.StatLargestGroup, groupSizes)
	st.Max(s, output.StatLargestGroupSignatures, groupSigs)
	st.Count(s, output.StatPairs, pairs)
	return pairs, nil
}

// matchGroupsFn matches one group: it gathers its parts, splits home and guest documents, sorts
// each by document key (so the matcher sees the same order on every runner),
// runs Grouping.MatchGroup and emits each pair the same-site rule keeps
// (config.Params.SiteRule) with both documents' metadata in canonical
// order, then the group's size and signatures.
type matchGroupsFn struct {
	Params   config.Params
	grouping match.Grouping
}

// Setup builds the Grouping from Params.
func (fn *matchGroupsFn) Setup() error {
	g, err := config.NewGrouping(fn.Params)
	fn.grouping = g
	return err
}

// ProcessElement matches the group key.
func (fn *matchGroupsFn) ProcessElement(ctx context.Context, key uint64, parts func(*docPart) bool, emit func(foundPair), size, sigs func(int)) error {
	g := gatherParts(ctx, parts)
	size(len(g.all))
	sigs(g.sigs)
	if g.home == 0 {
		return nil
	}
	sink := g.sink(ctx, fmt.Sprintf("group %d", key), fn.Params, emit)
	vecs := g.vectors()
	sink.add(fn.grouping.MatchGroup(vecs[:g.home], vecs[g.home:]))
	return sink.err
}

// groupDocs is a group's or a task's documents, home documents first,
// each side sorted by key so that every runner gives the matcher the same
// order; pointers into the parts' batches, so no document is copied.
type groupDocs struct {
	all  []*matchDoc
	home int // all[:home] are home documents, the rest guests
	sigs int // Σ|d|
}

// gatherParts reads a group's (or task's) parts into groupDocs and
// counts the group on the match counters.
func gatherParts(ctx context.Context, parts func(*docPart) bool) groupDocs {
	var home, guests []*matchDoc
	var b docPart
	for parts(&b) {
		docs := b.Docs
		for i := range docs {
			if docs[i].Guest {
				guests = append(guests, &docs[i])
			} else {
				home = append(home, &docs[i])
			}
		}
		b = docPart{}
	}
	sortDocs(home)
	sortDocs(guests)
	g := groupDocs{all: append(home, guests...), home: len(home)}
	for _, d := range g.all {
		g.sigs += d.Vec.Len()
	}
	matchGroups.Inc(ctx, 1)
	matchGroupLen.Update(ctx, int64(len(g.all)))
	return g
}

// sortDocs sorts docs in the canonical record order (warc.Ref.Compare),
// so that every runner gives the matcher the same order. It compares the
// first 16 bytes of the record IDs past the prefix they all share
// ("urn:uuid:"), held beside each pointer, and the whole Ref only where
// those are equal: sorting by the Refs behind the pointers took 35 of the
// 1,080,000-page crawl's 504 CPU-s, on a core the matcher's workers wait for
// (docs/benchmarks.md, "The 1,080,000-page crawl's matching").
func sortDocs(docs []*matchDoc) {
	if len(docs) < 2 {
		return
	}
	first := docs[0].RecordID
	shared := len(first)
	for _, d := range docs[1:] {
		n := min(shared, len(d.RecordID))
		i := 0
		for i < n && first[i] == d.RecordID[i] {
			i++
		}
		shared = i
	}
	type keyed struct {
		hi, lo uint64 // bytes [shared, shared+16) of the record ID, big-endian, 0 past its end
		d      *matchDoc
	}
	ks := make([]keyed, len(docs))
	for i, d := range docs {
		var b [16]byte
		copy(b[:], d.RecordID[shared:])
		ks[i] = keyed{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:]), d}
	}
	slices.SortFunc(ks, func(x, y keyed) int {
		if c := cmp.Compare(x.hi, y.hi); c != 0 {
			return c
		}
		if c := cmp.Compare(x.lo, y.lo); c != 0 {
			return c
		}
		return x.d.Compare(y.d.Ref)
	})
	for i := range ks {
		docs[i] = ks[i].d
	}
}

// vectors returns the documents' vectors in the same order.
func (g groupDocs) vectors() []spotsig.Vector {
	vecs := make([]spotsig.Vector, len(g.all))
	for i, d := range g.all {
		vecs[i] = d.Vec
	}
	return vecs
}

// sites returns the documents' sites in the same order.
func (g groupDocs) sites() []match.Site {
	sites := make([]match.Site, len(g.all))
	for i, d := range g.all {
		sites[i] = d.Site
	}
	return sites
}

// sink returns the pairSink that emits the pairs of g's matcher.
func (g groupDocs) sink(ctx context.Context, what string, p config.Params, emit func(foundPair)) *pairSink {
	return &pairSink{ctx: ctx, what: what, docs: g.all, rule: p.SiteRule(), share: p.VerifyShare, emit: emit}
}

// pairSink checks each pair the matcher returns (indices into docs),
// applies the same-site rule (config.Params.SiteRule) and emits the pairs
// it keeps as foundPair, verified at share; it counts the pairs kept and
// keeps the first error. (A match.CrossGrouping given the sites applies the
// rule itself: matchTasksFn.)
type pairSink struct {
	ctx   context.Context
	what  string
	docs  []*matchDoc
	rule  match.SiteRule
	share float64
	emit  func(foundPair)
	pairs int
	err   error
}

func (s *pairSink) add(ps []match.Pair) {
	for _, p := range ps {
		if p.A < 0 || p.B >= len(s.docs) || p.A >= p.B {
			if s.err == nil {
				s.err = fmt.Errorf("%s: matcher returned pair (%d, %d) outside [0, %d)", s.what, p.A, p.B, len(s.docs))
			}
			continue
		}
		a, b := s.docs[p.A], s.docs[p.B]
		if !s.rule.Keep(p.Jaccard, a.Site, b.Site) {
			continue
		}
		matchPairs.Inc(s.ctx, 1)
		progress.pairs.Add(1)
		s.pairs++
		s.emit(newFound(*a, *b, p.Jaccard, s.share))
	}
}

// partGridSize is the signatures of a part's home (side A) and guest
// (side B) documents.
func partGridSize(k uint64, b docPart) (uint64, gridSize) {
	var g gridSize
	for _, d := range b.Docs {
		if d.Guest {
			g.B += d.Vec.Len()
		} else {
			g.A += d.Vec.Len()
		}
	}
	return k, g
}

// matchTasks is MatchGroups with hot groups split: each group's home
// (side A) and guest (side B) signatures are summed by a combiner and
// reach keyByTaskFn as a side input (one small record per group: the τ
// partitions number a few dozen), which sends each document to the tasks
// match.Grid gives it (with self pairs: home–home and home–guest), so every
// pair of the group meets in exactly one task and the pairs are those of
// the whole group. Statistics: partitions is the number of groups,
// largest_group and largest_group_signatures the largest task.
func matchTasks(s beam.Scope, st *Stats, keyed beam.PCollection, p config.Params) beam.PCollection {
	s = s.Scope("Tasks")
	sizes := beam.ParDo(s, withGridKey, beam.CombinePerKey(s, addGridSizes, beam.ParDo(s, partGridSize, keyed)))
	tasks := beam.ParDo(s, &keyByTaskFn{MaxSigs: p.MaxGroupSignatures}, keyed, beam.SideInput{Input: sizes})
	out := beam.ParDoN(s, &matchTasksFn{Params: p}, beam.GroupByKey(s, tasks))
	pairs, taskSizes, taskSigs, taskPairs := out[0], out[1], out[2], out[3]
	st.Count(s, output.StatPartitions, sizes)
	st.Max(s, output.StatLargestGroup, taskSizes)
	st.Max(s, output.StatLargestGroupSignatures, taskSigs)
	st.Sum(s, output.StatPairs, taskPairs) // one number per task, not one per pair
	return pairs
}

// keyByTaskFn sends each document of a group's parts to the tasks of its
// group (matchTasks), parts gathered per task within a bundle. In a cross
// task the first block's documents have Guest false, the second's Guest
// true.
type keyByTaskFn struct {
	MaxSigs int
	sizes   map[uint64]gridSize
	parts   partBuilder[string]
}

// StartBundle starts the bundle's parts.
func (fn *keyByTaskFn) StartBundle(_ func(*gridSize) bool, _ func(string, docPart)) {
	fn.parts = partBuilder[string]{}
}

// ProcessElement keys one part's documents.
func (fn *keyByTaskFn) ProcessElement(ctx context.Context, group uint64, part docPart, sizes func(*gridSize) bool, emit func(string, docPart)) {
	g := gridSizes(&fn.sizes, sizes)[group]
	grid := match.NewGrid(g.A, g.B, fn.MaxSigs, true)
	if na, _ := grid.Blocks(); na == 0 {
		emit(taskKey(group, match.Task{Kind: match.TaskWhole}), part)
		return
	}
	for _, d := range part.Docs {
		grid.Tasks(d.Guest, blockHash(d.ID()), func(t match.Task, second bool) {
			d.Guest = second
			fn.parts.add(taskKey(group, t), d, emit)
		})
	}
}

// FinishBundle emits the parts not yet full.
func (fn *keyByTaskFn) FinishBundle(_ func(*gridSize) bool, emit func(string, docPart)) {
	fn.parts.flush(emit)
}

// matchTasksFn matches one task of matchTasks: a whole group or a home
// block (Grouping.MatchGroup), or two blocks (match.CrossGrouping
// MatchCross), documents sorted by key so every runner gives the matcher
// the same order. The matcher is given the documents' sites and applies the
// same-site rule (config.Params.SiteRule) itself, checking a candidate of
// one site at the same-site τ, not τ (match.WithSiteRule): a clique of
// template siblings costs early-exit checks, not full ones
// (docs/benchmarks.md, "The 1,080,000-page crawl's matching"). It emits
// the pairs, then the task's number of documents, signatures and pairs.
type matchTasksFn struct {
	Params   config.Params
	grouping match.CrossGrouping
}

// Setup builds the Grouping from Params.
func (fn *matchTasksFn) Setup() error {
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

// ProcessElement matches one task. Pairs stream out of the matcher in
// batches: a task's memory is its documents and index, not its pairs.
func (fn *matchTasksFn) ProcessElement(ctx context.Context, key string, parts func(*docPart) bool, emit func(foundPair), size, sigs, pairCount func(int)) error {
	g := gatherParts(ctx, parts)
	size(len(g.all))
	sigs(g.sigs)
	if g.home == 0 {
		return nil
	}
	sink := g.sink(ctx, "task "+key, fn.Params, emit)
	vecs, sites, rule := g.vectors(), g.sites(), fn.Params.SiteRule()
	if isCrossTask(key) {
		fn.grouping.MatchCrossEach(vecs[:g.home], vecs[g.home:], sites, rule, sink.add)
	} else {
		fn.grouping.MatchGroupEach(vecs[:g.home], vecs[g.home:], sites, rule, sink.add)
	}
	if sink.err != nil {
		return sink.err
	}
	pairCount(sink.pairs)
	return nil
}
