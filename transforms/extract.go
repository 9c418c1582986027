package transforms

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
)

func init() {
	registerDoFn(&extractFn{})
	register.Emitter1[docBatch]()
	register.Emitter1[dedup.Page]()
	register.Emitter2[string, int]()
}

var (
	extractDocs       = beam.NewCounter("extract", "documents")
	extractSkipped    = beam.NewCounter("extract", "skipped")
	extractSignatures = beam.NewCounter("extract", "signatures")
)

// Extract signs each dedup.Candidate (spot signatures, §3, or the scheme
// dedup.NewSigner picks for p.Method) and drops its payload. The
// documents come out in batches (docBatch; each doc carries its dedup.Page: identity, rank under
// the keep policy of p, text digest, caps). candidates the signer rejects,
// or that yield no signature, become Rejects, and those whose payload
// became text also unsigned pages (dedup.Page), which Decide keeps or drops by their
// text. The caps that applied to kept documents are added to st
// ("capped/<cap>", once per document and cap), and so is the language of
// each kept document ("languages/<code>") without blocks (with blocks
// DropSharedBlocks counts it).
func Extract(s beam.Scope, st *Stats, candidates beam.PCollection, p config.Params) (batches, rejects, unsigned beam.PCollection) {
	s = s.Scope("Extract")
	out := beam.ParDoN(s, &extractFn{Params: p}, candidates)
	st.Add(beam.CombinePerKey(s, sumInt, out[2]))
	return out[0], out[1], out[3]
}

// extractFn builds its Signer once per worker (Setup) and signs each
// candidate's payload. Signing is most of a local run's CPU, and a runner
// may call a DoFn from one goroutine only (Beam's direct runner does), so
// extractFn signs on every core itself: each candidate goes to one of
// GOMAXPROCS workers, at most 4 × GOMAXPROCS are in flight (queued for the
// workers, so that they never wait for the calling goroutine, which also
// reads the input), and results are taken in input order on the calling
// goroutine (the oldest is waited for once that many are in flight, the
// rest in FinishBundle). Documents are
// gathered into Batches of the bundle (maxBatchDocs, maxBatchBytes), and
// statistics are summed per bundle: the outputs are those of signing one
// candidate after the other.
type extractFn struct {
	Params config.Params
	signer dedup.Signer
	policy match.Policy

	work    chan *signing
	pending []*signing // in input order
	workers sync.WaitGroup
	batch   batcher
	stats   map[string]int
}

// signing is one candidate on its way through the workers.
type signing struct {
	c dedup.Candidate
	s dedup.Signed
	// panicked holds what signing panicked with, re-raised on the DoFn's
	// goroutine (takeOldest) so that the runner reports it as the
	// element's failure instead of the worker goroutine ending the process.
	panicked any
	done     chan struct{}
}

// sign signs j's candidate; a panic is kept in j, not raised.
func (fn *extractFn) sign(ctx context.Context, j *signing) {
	defer func() {
		if r := recover(); r != nil {
			j.panicked = fmt.Sprintf("%v\n%s", r, debug.Stack())
		}
		j.c.Payload = nil
		close(j.done)
	}()
	j.s = dedup.Sign(ctx, fn.signer, fn.policy, j.c)
}

// Setup builds the Signer and the keep policy from Params.
func (fn *extractFn) Setup() error {
	s, err := dedup.NewSigner(fn.Params)
	if err != nil {
		return err
	}
	fn.signer = s
	fn.policy, err = fn.Params.Policy()
	return err
}

// StartBundle starts the workers.
func (fn *extractFn) StartBundle(ctx context.Context, _ func(docBatch), _ func(output.Reject), _ func(string, int), _ func(dedup.Page)) {
	fn.work, fn.pending, fn.batch, fn.stats = make(chan *signing, 4*runtime.GOMAXPROCS(0)), fn.pending[:0], batcher{}, map[string]int{}
	for range runtime.GOMAXPROCS(0) {
		fn.workers.Add(1)
		go func() {
			defer fn.workers.Done()
			for j := range fn.work {
				fn.sign(ctx, j)
			}
		}()
	}
}

// ProcessElement hands one candidate to the workers (dedup.Sign) and takes
// the oldest results once 4 × GOMAXPROCS are in flight.
func (fn *extractFn) ProcessElement(ctx context.Context, c dedup.Candidate, batch func(docBatch), reject func(output.Reject), stat func(string, int), unsigned func(dedup.Page)) {
	j := &signing{c: c, done: make(chan struct{})}
	fn.pending = append(fn.pending, j)
	fn.work <- j
	for len(fn.pending) > 4*runtime.GOMAXPROCS(0) {
		fn.takeOldest(ctx, batch, reject, unsigned)
	}
}

// FinishBundle stops the workers and emits what is still in flight, the
// last batch and the bundle's statistics.
func (fn *extractFn) FinishBundle(ctx context.Context, batch func(docBatch), reject func(output.Reject), stat func(string, int), unsigned func(dedup.Page)) {
	close(fn.work)
	fn.workers.Wait()
	for len(fn.pending) > 0 {
		fn.takeOldest(ctx, batch, reject, unsigned)
	}
	fn.batch.flush(batch)
	for k, v := range fn.stats {
		stat(k, v)
	}
}

// takeOldest waits for the oldest candidate in flight and passes its
// results on.
func (fn *extractFn) takeOldest(ctx context.Context, batch func(docBatch), reject func(output.Reject), unsigned func(dedup.Page)) {
	j := fn.pending[0]
	fn.pending[0] = nil
	fn.pending = fn.pending[1:]
	<-j.done
	if j.panicked != nil {
		panic(fmt.Sprintf("extract: signing %s@%d: %v", j.c.File, j.c.Offset, j.panicked))
	}
	d := j.s.Doc
	if !j.s.IsDoc() {
		countReject(ctx, extractSkipped, "extract", j.s.Reject.Reason)
		reject(j.s.Reject)
		if j.s.HasPage {
			unsigned(d.Page)
		}
		return
	}
	for _, name := range d.Capped {
		beam.NewCounter("extract", "capped-"+name).Inc(ctx, 1)
		fn.stats[output.StatCappedPrefix+name]++
	}
	if d.Lang != "" && len(d.Blocks) == 0 { // with blocks, the language is known after the shared blocks (resolveBatchFn)
		fn.stats[output.StatLanguagePrefix+d.Lang]++
	}
	extractDocs.Inc(ctx, 1)
	progress.documents.Add(1)
	n := d.Vec.Len()
	for _, b := range d.Blocks {
		n += b.Vec.Len()
	}
	extractSignatures.Inc(ctx, int64(n))
	fn.batch.add(doc{Doc: d}, batch)
}

// batcher gathers documents into Batches: a batch is emitted once it holds
// maxBatchDocs documents, and before a document that would take it past
// maxBatchBytes, so a batch is at most maxBatchBytes or one document
// (docs/deploy.md: elements stay under the 10 MB of cluster runners).
type batcher struct {
	b     docBatch
	bytes int
}

// add adds d to the current batch (whose ID is its first document's
// warc.Ref.ID), emitting it when full.
func (bt *batcher) add(d doc, emit func(docBatch)) {
	n := docBytes(d)
	if len(bt.b.Docs) > 0 && bt.bytes+n > maxBatchBytes {
		bt.flush(emit)
	}
	if len(bt.b.Docs) == 0 {
		bt.b.ID = d.ID()
	}
	d.Batch = bt.b.ID
	bt.b.Docs = append(bt.b.Docs, d)
	bt.bytes += n
	if len(bt.b.Docs) >= maxBatchDocs || bt.bytes >= maxBatchBytes {
		bt.flush(emit)
	}
}

// flush emits the current batch, if any.
func (bt *batcher) flush(emit func(docBatch)) {
	if len(bt.b.Docs) > 0 {
		emit(bt.b)
	}
	bt.b, bt.bytes = docBatch{}, 0
}

// docBytes estimates d's encoded size (appendDoc): its strings, about 10
// bytes per signature and its periphery's lines and hashes.
func docBytes(d doc) int {
	n := 64 + len(d.RecordID) + len(d.URI) + len(d.File) + len(d.Rank) + len(d.Digest) + 10*len(d.Vec.Hashes)
	for _, b := range d.Blocks {
		n += 40 + 10*len(b.Vec.Hashes)
	}
	return n + 9*len(d.Periphery.Lines) + len(d.Periphery.Words) + 4*len(d.Periphery.Ext) + len(d.Periphery.Units)
}
