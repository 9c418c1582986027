package transforms

import (
	"context"
	"fmt"
	"hash/fnv"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/internal/fault"
	"github.com/ndd-beam/ndd-beam/storage"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*dedup.Prior)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*indexShard)(nil)).Elem())
	register.Function2x0[docBatch, func(string, dedup.Prior)](bestEntries)
	register.Function2x0[dedup.Page, func(string, dedup.Prior)](pageEntry)
	register.Function2x0[decidedPage, func(string, int)](keptKey)
	registerDoFn(&joinKeptFn{})
	register.Function1x2[int, int, int](shardMarker)
	registerDoFn(&writeIndexShardFn{})
	registerDoFn(&commitIndexFn{})
	register.Emitter1[string]()
	register.Emitter2[string, dedup.Prior]()
	register.Emitter2[int, dedup.Prior]()
	register.Emitter2[string, int]()
	register.Emitter1[indexShard]()
	register.Iter1[dedup.Prior]()
	register.Iter1[indexShard]()
}

var indexPages = beam.NewCounter("index", "pages")

// IndexSegment says where WriteIndex writes: the index directory Dir, the
// segment's Name (index.SegmentName of the run's label), the run's start
// Created (RFC 3339), the number of Parquet files Shards, the job's
// parameters (index.AgreementOf), the run's output directory Output and
// run ID RunID (whose commit commits the segment: index.Meta.Output).
type IndexSegment struct {
	Dir, Name, Created string
	Shards             int
	Params             config.Params
	Output, RunID      string
}

// indexShard is what writing one Parquet file of a segment gives: its
// name and rows.
type indexShard struct {
	File  string
	Rows  int
	Bytes int64
}

// WriteIndex writes the pages the job kept as a new segment of the index
// at seg.Dir (package index; docs/design.md, "Scheduled batches"): each
// kept page joined, on its warc.Ref.ID, with its vector (the vector of the
// exact-copy group it is the best page of, c.Reps) or, for a page decided
// by its text, with its page (unsigned), one join; the rows hashed into
// seg.Shards Parquet files (every shard written, empty or not); then
// segment.json (with the input files read, files) and _SUCCESS. It equals
// index.WriteSegment of dedup.Priors, rows in another order. It returns
// the segment's name once the segment is committed, for the output's
// commit to wait on (Outputs.After).
func WriteIndex(s beam.Scope, seg IndexSegment, c Collapsed, unsigned beam.PCollection, r DecideResult, files beam.PCollection) beam.PCollection {
	s = s.Scope("WriteIndex")
	shards := max(seg.Shards, 1)
	entries := beam.Flatten(s, beam.ParDo(s, bestEntries, c.Reps), beam.ParDo(s, pageEntry, unsigned))
	rows := beam.ParDo(s, &joinKeptFn{Shards: shards}, beam.CoGroupByKey(s, beam.ParDo(s, keptKey, r.Decisions), entries))
	idx := make([]int, shards)
	for i := range idx {
		idx[i] = i
	}
	markers := beam.ParDo(s, shardMarker, beam.CreateList(s, idx))
	dir := index.Join(seg.Dir, seg.Name)
	written := beam.ParDo(s, &writeIndexShardFn{Dir: dir, Shards: shards}, beam.CoGroupByKey(s, markers, rows))
	return beam.ParDo(s, &commitIndexFn{Dir: dir, Name: seg.Name, Created: seg.Created, Shards: shards, Agreement: index.AgreementOf(seg.Params),
		Output: seg.Output, RunID: seg.RunID},
		beam.Impulse(s), beam.SideInput{Input: written}, beam.SideInput{Input: files})
}

// bestEntries emits, for each representative of a batch, its group's best
// page (the only one of the group that can be kept) with the group's
// vector and the representative's language and main-text sketch (the
// group's members verified against it).
func bestEntries(b docBatch, emit func(string, dedup.Prior)) {
	for _, d := range b.Docs {
		best := d.BestPage()
		emit(best.ID(), dedup.Prior{Page: best, Lang: d.Lang, Vec: d.Vec, Sketch: d.Sketch})
	}
}

// pageEntry emits a page decided by its text, without a vector.
func pageEntry(p dedup.Page, emit func(string, dedup.Prior)) {
	emit(p.ID(), dedup.Prior{Page: p})
}

// keptKey emits the key of a kept page.
func keptKey(d decidedPage, emit func(string, int)) {
	if d.Line.Keep {
		emit(d.Line.ID(), 1)
	}
}

// joinKeptFn emits each kept page's row, keyed by its shard.
type joinKeptFn struct {
	Shards int
}

func (fn *joinKeptFn) ProcessElement(ctx context.Context, id string, kept func(*int) bool, entries func(*dedup.Prior) bool, emit func(int, dedup.Prior)) error {
	var k int
	if !kept(&k) {
		return nil
	}
	var p dedup.Prior
	if !entries(&p) {
		return fmt.Errorf("index: kept page %x has neither a vector nor a page", id)
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	indexPages.Inc(ctx, 1)
	emit(int(h.Sum32()%uint32(fn.Shards)), p)
	return nil
}

func shardMarker(i int) (int, int) { return i, i }

// writeIndexShardFn writes the rows of one shard as one Parquet file
// (index.WriteRows), in the order of their pages' warc.Ref.Key, so that
// the same run writes the same bytes every time (a shard's rows are held
// in memory to sort them: about 1 KB a page); the file is new, in the
// run's own segment directory.
type writeIndexShardFn struct {
	Dir    string
	Shards int
}

func (fn *writeIndexShardFn) ProcessElement(ctx context.Context, shard int, _ func(*int) bool, rows func(*dedup.Prior) bool, emit func(indexShard)) error {
	name := index.ShardName(shard, fn.Shards)
	path := index.Join(fn.Dir, name)
	fs, err := storage.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return fmt.Errorf("index: %v", err)
	}
	var all []dedup.Prior
	var p dedup.Prior
	for rows(&p) {
		all = append(all, p)
		p = dedup.Prior{}
	}
	slices.SortFunc(all, func(a, b dedup.Prior) int { return strings.Compare(a.Key(), b.Key()) })
	n, size, err := index.WriteRows(w, func(write func(dedup.Prior) error) error {
		for _, p := range all {
			if err := write(p); err != nil {
				return err
			}
		}
		return nil
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("index: writing %s: %v", path, err)
	}
	emit(indexShard{File: name, Rows: n, Bytes: size})
	return nil
}

// commitIndexFn writes segment.json and _SUCCESS once every shard is
// written, and emits the segment's name.
type commitIndexFn struct {
	Dir, Name, Created string
	Shards             int
	Agreement          index.Agreement
	Output, RunID      string
}

func (fn *commitIndexFn) ProcessElement(ctx context.Context, _ []byte, written func(*indexShard) bool, files func(*string) bool, emit func(string)) error {
	fault.At(fault.IndexFiles)
	release, err := enterCommit(fn.RunID)
	if err != nil {
		return err
	}
	defer release()
	m := index.Meta{Segment: fn.Name, Created: fn.Created, Params: fn.Agreement, Output: storage.Absolute(fn.Output), RunID: fn.RunID}
	var f string
	for files(&f) {
		m.Inputs = append(m.Inputs, storage.Absolute(f))
	}
	slices.Sort(m.Inputs)
	var sh indexShard
	m.FileBytes = map[string]int64{}
	for written(&sh) {
		m.Files = append(m.Files, sh.File)
		m.FileBytes[sh.File] = sh.Bytes
		m.Pages += sh.Rows
	}
	if len(m.Files) != fn.Shards {
		return fmt.Errorf("index: %d of %d files written", len(m.Files), fn.Shards)
	}
	slices.Sort(m.Files)
	if err := index.Commit(ctx, fn.Dir, m); err != nil {
		return err
	}
	fault.At(fault.IndexCommitted)
	emit(fn.Name)
	return nil
}
