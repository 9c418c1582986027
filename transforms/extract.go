package transforms

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.DoFn5x0[context.Context, Candidate, func(Doc), func(Reject), func(string)](&ExtractFn{})
	register.Emitter1[Doc]()
	register.Emitter1[string]()
}

// ReasonNoSignatures: the document's text yields no signature at all with
// the configured scheme (e.g. no antecedent word occurs), so it can take no
// part in IDF statistics or matching.
const ReasonNoSignatures = "no-signatures"

var (
	extractDocs       = beam.NewCounter("extract", "documents")
	extractSkipped    = beam.NewCounter("extract", "skipped")
	extractSignatures = beam.NewCounter("extract", "signatures")
)

// Extract turns each Candidate into a Doc carrying its signature vector
// (spot signatures, §3, or the scheme NewSigner picks for p.Method) and drops
// the payload. Candidates the signer rejects, or that yield no signature,
// become Rejects. Returns (docs, rejects, capped): capped holds the name of
// every cap that applied to a kept document (string, see the Cap* names),
// once per document and cap.
func Extract(s beam.Scope, candidates beam.PCollection, p Params) (docs, rejects, capped beam.PCollection) {
	s = s.Scope("Extract")
	return beam.ParDo3(s, &ExtractFn{Params: p}, candidates)
}

// ExtractFn builds its Signer once per worker (Setup) and signs each
// candidate's payload.
type ExtractFn struct {
	Params Params
	signer Signer
}

// Setup builds the Signer from Params.
func (fn *ExtractFn) Setup() error {
	s, err := NewSigner(fn.Params)
	fn.signer = s
	return err
}

// ProcessElement signs one candidate.
func (fn *ExtractFn) ProcessElement(ctx context.Context, c Candidate, emit func(Doc), reject func(Reject), capped func(string)) {
	v, reason, detail, caps := fn.signer.Sign(ctx, c.Payload, c.ContentType)
	if reason == "" && len(v.Hashes) == 0 {
		reason = ReasonNoSignatures
	}
	if reason != "" {
		countReject(ctx, extractSkipped, "extract", reason)
		reject(Reject{File: c.File, Offset: c.Offset, Inner: c.Inner, RecordID: c.RecordID, URI: c.URI, Reason: reason, Detail: detail})
		return
	}
	for _, name := range caps {
		beam.NewCounter("extract", "capped-"+name).Inc(ctx, 1)
		capped(name)
	}
	extractDocs.Inc(ctx, 1)
	extractSignatures.Inc(ctx, int64(v.Len()))
	emit(Doc{RecordID: c.RecordID, URI: c.URI, File: c.File, Offset: c.Offset, Inner: c.Inner, Vec: v})
}
