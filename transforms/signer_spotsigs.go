package transforms

import (
	"context"
	"errors"

	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// SpotSigOptions are the spotsig options Params selects: the spot set, the
// block rule and the byte, token and signature caps. The in-process reference and the job use
// the same list.
func (p Params) SpotSigOptions() []spotsig.Option {
	opts := []spotsig.Option{spotsig.WithMinBlockTokens(p.MinBlockTokens)}
	if p.Antecedents != "" {
		opts = append(opts, spotsig.WithSpotSpec(p.Antecedents))
	}
	if p.MaxInputBytes > 0 {
		opts = append(opts, spotsig.WithMaxInputBytes(p.MaxInputBytes))
	}
	if p.MaxTextBytes > 0 {
		opts = append(opts, spotsig.WithMaxTextBytes(p.MaxTextBytes))
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

// Caps of the "spotsigs" scheme, as Sign reports them (summary.json
// "capped", counters "extract/capped-<cap>").
const (
	CapInputBytes = "input-bytes" // --max_input_bytes: payload parsed only in part
	CapTextBytes  = "text-bytes"  // --max_text_bytes: text cut
	CapTokens     = "tokens"      // --max_tokens: tokens after the cap ignored
	CapSignatures = "signatures"  // --max_signatures: extraction stopped early
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
func (s *spotSigner) Sign(ctx context.Context, payload []byte, contentType string) (spotsig.Vector, string, string, []string) {
	v, st, err := s.ex.ExtractPayload(payload, contentType)
	switch {
	case errors.Is(err, spotsig.ErrNotText):
		return spotsig.Vector{}, ReasonNotText, contentType, nil
	case errors.Is(err, spotsig.ErrBinary):
		return spotsig.Vector{}, ReasonBinary, contentType, nil
	case err != nil:
		return spotsig.Vector{}, ReasonBadText, err.Error(), nil
	}
	var capped []string
	if st.Text.InputTruncated {
		capped = append(capped, CapInputBytes)
	}
	if st.Text.TextTruncated {
		capped = append(capped, CapTextBytes)
	}
	if st.Extract.TokensTruncated {
		capped = append(capped, CapTokens)
	}
	if st.Extract.SignaturesTruncated {
		capped = append(capped, CapSignatures)
	}
	return v, "", "", capped
}

// newPartitioned is the exact SpotSigs method as a Grouping.
func newPartitioned(tau float64, rho int) match.Grouping {
	return match.Partitioned{Tau: tau, Rho: rho}
}
