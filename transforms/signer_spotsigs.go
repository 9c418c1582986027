package transforms

import (
	"context"
	"errors"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// SpotSigOptions are the spotsig options Params selects: the spot set and
// the token and signature caps. The in-process reference and the job use
// the same list.
func (p Params) SpotSigOptions() []spotsig.Option {
	var opts []spotsig.Option
	if p.Antecedents != "" {
		opts = append(opts, spotsig.WithSpotSpec(p.Antecedents))
	}
	if p.MaxTokens > 0 {
		opts = append(opts, spotsig.WithMaxTokens(p.MaxTokens))
	}
	if p.MaxSignatures > 0 {
		opts = append(opts, spotsig.WithMaxSignatures(p.MaxSignatures))
	}
	return opts
}

// WARCOptions are the warc.ReadFile caps Params selects (zero fields take
// warc's defaults).
func (p Params) WARCOptions() warc.Options {
	return warc.Options{
		MaxHeaderBytes:  p.MaxHeaderBytes,
		MaxRecordBytes:  p.MaxRecordBytes,
		MaxPayloadBytes: p.MaxPayloadBytes,
		MaxMemberBytes:  p.MaxMemberBytes,
	}
}

// Reasons the "spotsigs" scheme gives for a rejected candidate.
const (
	ReasonNotText = "not-text" // spotsig.ErrNotText: a media type that is neither HTML nor plain text
	ReasonBinary  = "binary"   // spotsig.ErrBinary: the bytes sniff as binary, whatever the label
	ReasonBadText = "text-error"
)

var (
	extractInputTruncated = beam.NewCounter("extract", "capped-input-bytes")
	extractTextTruncated  = beam.NewCounter("extract", "capped-text-bytes")
	extractTokensCapped   = beam.NewCounter("extract", "capped-tokens")
	extractSigsCapped     = beam.NewCounter("extract", "capped-signatures")
)

// spotSigner is the "spotsigs" scheme: Extractor.ExtractPayload (markup
// removal, charset decoding, binary check, then spot signatures, §3) with
// the caps of Params. Caps that applied are counted ("extract/capped-*"); the
// document is kept with what was read.
type spotSigner struct {
	ex *spotsig.Extractor
}

func newSpotSigner(p Params) (*spotSigner, error) {
	ex, err := spotsig.NewExtractor(p.SpotSigOptions()...)
	if err != nil {
		return nil, err
	}
	return &spotSigner{ex: ex}, nil
}

// Sign extracts the spot signatures of one payload.
func (s *spotSigner) Sign(ctx context.Context, payload []byte, contentType string) (spotsig.Vector, string, string) {
	v, st, err := s.ex.ExtractPayload(payload, contentType)
	switch {
	case errors.Is(err, spotsig.ErrNotText):
		return spotsig.Vector{}, ReasonNotText, contentType
	case errors.Is(err, spotsig.ErrBinary):
		return spotsig.Vector{}, ReasonBinary, contentType
	case err != nil:
		return spotsig.Vector{}, ReasonBadText, err.Error()
	}
	if st.Text.InputTruncated {
		extractInputTruncated.Inc(ctx, 1)
	}
	if st.Text.TextTruncated {
		extractTextTruncated.Inc(ctx, 1)
	}
	if st.Extract.TokensTruncated {
		extractTokensCapped.Inc(ctx, 1)
	}
	if st.Extract.SignaturesTruncated {
		extractSigsCapped.Inc(ctx, 1)
	}
	return v, "", ""
}

// newPartitioned is the exact SpotSigs method as a Grouping.
func newPartitioned(tau float64, rho int) match.Grouping {
	return match.Partitioned{Tau: tau, Rho: rho}
}
