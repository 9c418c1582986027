package config

import (
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
