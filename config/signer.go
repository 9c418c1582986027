package config

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
	if p.KeepMarkupBoilerplate {
		opts = append(opts, spotsig.WithMarkupBoilerplate(false))
	}
	if p.Lang != "" {
		opts = append(opts, spotsig.WithLanguage(p.Lang))
	}
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

		MaxURIBytes:      p.MaxURIBytes,
		MaxRecordIDBytes: p.MaxRecordIDBytes,
	}
}

// ReasonBadText is the reject reason for a payload-to-text error other than
// spotsig.ErrNotText and spotsig.ErrBinary (not expected; the detail has
// it). What is a page is decided once, by the WARC reader (warc.Options
// media types and its binary sniffing, reasons warc.SkipNotHTML and
// warc.SkipBinaryPayload); should spotsig's own checks still refuse a
// payload, the reject carries the reader's reason name, so one page policy
// has one set of names (docs/robustness.md).
const ReasonBadText = "text-error"

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
	ex     *spotsig.Extractor
	blocks bool // peripheral blocks apart (Params.SharedBlockPages > 0)
}

func newSpotSigner(p Params) (*spotSigner, error) {
	ex, err := spotsig.NewExtractor(p.SpotSigOptions()...)
	if err != nil {
		return nil, err
	}
	return &spotSigner{ex: ex, blocks: p.SharedBlockPages > 0}, nil
}

// Sign extracts the spot signatures of one payload.
func (s *spotSigner) Sign(ctx context.Context, payload []byte, contentType string) (Signed, string, string) {
	var out Signed
	var st spotsig.PayloadStats
	var err error
	if s.blocks {
		out.Blocks, st, err = s.ex.ExtractPayloadBlocks(payload, contentType)
	} else {
		out.Vec, st, err = s.ex.ExtractPayload(payload, contentType)
	}
	if reason, detail := textReason(err, contentType); reason != "" {
		return Signed{}, reason, detail
	}
	out.Capped = textCaps(st.Text)
	if st.Extract.TokensTruncated {
		out.Capped = append(out.Capped, CapTokens)
	}
	if st.Extract.SignaturesTruncated {
		out.Capped = append(out.Capped, CapSignatures)
	}
	out.Text = TextInfo{Bytes: st.Text.TextBytes, Digest: st.Digest}
	out.Lang = st.Extract.Lang
	return out, "", ""
}

// newPartitioned is the exact SpotSigs method as a Grouping.
func newPartitioned(tau float64, rho int) match.Grouping {
	return match.Partitioned{Tau: tau, Rho: rho}
}

// textReason maps a spotsig payload-to-text error to a skip reason and its
// detail ("" for no error).
func textReason(err error, contentType string) (reason, detail string) {
	switch {
	case err == nil:
		return "", ""
	case errors.Is(err, spotsig.ErrNotText):
		return warc.SkipNotHTML, contentType
	case errors.Is(err, spotsig.ErrBinary):
		return warc.SkipBinaryPayload, contentType
	default:
		return ReasonBadText, err.Error()
	}
}

// textCaps names the byte caps that applied while a payload became text.
func textCaps(st spotsig.TextStats) []string {
	var capped []string
	if st.InputTruncated {
		capped = append(capped, CapInputBytes)
	}
	if st.TextTruncated {
		capped = append(capped, CapTextBytes)
	}
	return capped
}

// shingleSigner is the "shingles" scheme: the same payload-to-text step as
// spot signatures, then word ShingleK-grams (spotsig.Shingles), the
// Shingling competitor of §5.3.1.
type shingleSigner struct {
	opts []spotsig.Option
	sh   *spotsig.Shingler
}

func newShingleSigner(p Params) (*shingleSigner, error) {
	sh, err := spotsig.NewShingler(p.ShingleK)
	if err != nil {
		return nil, err
	}
	return &shingleSigner{opts: p.SpotSigOptions(), sh: sh}, nil
}

// Sign extracts the word k-gram multiset of one payload.
func (s *shingleSigner) Sign(_ context.Context, payload []byte, contentType string) (Signed, string, string) {
	text, st, err := spotsig.PayloadText(payload, contentType, s.opts...)
	if reason, detail := textReason(err, contentType); reason != "" {
		return Signed{}, reason, detail
	}
	return Signed{Vec: s.sh.Extract(text), Capped: textCaps(st), Text: TextInfo{Bytes: len(text), Digest: spotsig.TextDigest(text)}}, "", ""
}

// LanguageData is the language configuration of a spotsigs run as
// summary.json records it.
type LanguageData struct {
	// Mode is spotsig.LanguageAuto or the forced language code (Params.Lang).
	Mode string `json:"mode"`
	// AntecedentSource says where the spot sets come from: the embedded
	// lists (spotsig.LanguageDataSource) or --antecedents, and for which
	// language it replaces the embedded set.
	AntecedentSource string `json:"antecedent_source"`
	// SpotSetSizes is the number of antecedent specs per language the
	// extractor can use; "und" (spotsig.LanguageUnknown) serves pages of
	// unidentified language.
	SpotSetSizes map[string]int `json:"spot_set_sizes"`
}

// Languages returns the language configuration of p for the spotsigs
// scheme, the zero LanguageData for another scheme. p must be valid.
func (p Params) Languages() (LanguageData, error) {
	if p.SignatureMethod() != MethodSpotSigs {
		return LanguageData{}, nil
	}
	ex, err := spotsig.NewExtractor(p.SpotSigOptions()...)
	if err != nil {
		return LanguageData{}, err
	}
	ld := LanguageData{Mode: ex.LanguageMode(), AntecedentSource: spotsig.LanguageDataSource, SpotSetSizes: ex.SpotSetSizes()}
	if p.Antecedents != "" {
		who := ld.Mode
		if who == spotsig.LanguageAuto {
			who = spotsig.DefaultLanguage + " and " + spotsig.LanguageUnknown
		}
		ld.AntecedentSource = "--antecedents (for " + who + "); other languages: " + spotsig.LanguageDataSource
	}
	return ld, nil
}
