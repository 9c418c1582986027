package transforms

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
)

func init() {
	registerDoFn(&ExtractFn{})
	register.Emitter1[Doc]()
	register.Emitter1[Page]()
	register.Emitter1[string]()
}

var (
	extractDocs       = beam.NewCounter("extract", "documents")
	extractSkipped    = beam.NewCounter("extract", "skipped")
	extractSignatures = beam.NewCounter("extract", "signatures")
)

// Extract turns each Candidate into a Doc carrying its signature vector
// (spot signatures, §3, or the scheme config.NewSigner picks for p.Method)
// and drops the payload. Candidates the signer rejects, or that yield no
// signature, become Rejects. The caps that applied to kept documents are
// added to st ("capped/<cap>", once per document and cap), and so is the
// language of each kept document ("languages/<code>") without blocks
// (with blocks DropSharedBlocks counts it). pages holds a Page
// (ranked by the keep policy of p) for every candidate that became text,
// with or without signatures: the pages Decide keeps or drops.
func Extract(s beam.Scope, st *Stats, candidates beam.PCollection, p config.Params) (docs, rejects, pages beam.PCollection) {
	s = s.Scope("Extract")
	out := beam.ParDoN(s, &ExtractFn{Params: p}, candidates)
	st.Add(NameStats(s, out[2]))
	return out[0], out[1], out[3]
}

// ExtractFn builds its Signer once per worker (Setup) and signs each
// candidate's payload.
type ExtractFn struct {
	Params config.Params
	signer config.Signer
	policy match.Policy
}

// Setup builds the Signer and the keep policy from Params.
func (fn *ExtractFn) Setup() error {
	s, err := config.NewSigner(fn.Params)
	if err != nil {
		return err
	}
	fn.signer = s
	fn.policy, err = fn.Params.Policy()
	return err
}

// ProcessElement signs one candidate (dedup.Sign); stat gets the names of
// the statistics the document counts in (its caps, its language).
func (fn *ExtractFn) ProcessElement(ctx context.Context, c Candidate, emit func(Doc), reject func(Reject), stat func(string), page func(Page)) {
	d, r, caps, pg, ok := dedup.Sign(ctx, fn.signer, fn.policy, c)
	if pg != nil {
		page(*pg)
	}
	if !ok {
		countReject(ctx, extractSkipped, "extract", r.Reason)
		reject(r)
		return
	}
	for _, name := range caps {
		beam.NewCounter("extract", "capped-"+name).Inc(ctx, 1)
		stat(statCappedPrefix + name)
	}
	if d.Lang != "" && len(d.Blocks) == 0 { // with blocks, the language is known after the shared blocks (ResolveBlocksFn)
		stat(statLanguagePrefix + d.Lang)
	}
	extractDocs.Inc(ctx, 1)
	progress.documents.Add(1)
	n := d.Vec.Len()
	for _, b := range d.Blocks {
		n += b.Vec.Len()
	}
	extractSignatures.Inc(ctx, int64(n))
	emit(Doc{Ref: d.Ref, Vec: d.Vec, Blocks: d.Blocks})
}
