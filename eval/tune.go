package eval

import (
	"fmt"
	"strings"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// DefaultsDescription lists the SpotSigs parameters of cfg and the default
// τ as "parameter: value" lines for the report.
func DefaultsDescription(cfg MethodsConfig, tau float64) []string {
	ex, err := spotsig.NewExtractor(cfg.Extractor...)
	if err != nil {
		return []string{"extractor: " + err.Error()}
	}
	set := ex.SpotSet()
	words := make([]string, len(set))
	for i, a := range set {
		words[i] = a.String()
	}
	return []string{
		fmt.Sprintf("antecedents (spot set, %d): %s", len(set), strings.Join(words, ", ")),
		fmt.Sprintf("spot distance d = %d, chain length c = %d (uniform)", spotsig.DefaultDistance, spotsig.DefaultChain),
		fmt.Sprintf("chains confined to blocks (lines of PayloadText), blocks of fewer than %d tokens skipped (spotsig.WithMinBlockTokens; 0 = the paper's whole-document chains)", ex.MinBlockTokens()),
		fmt.Sprintf("IDF range: %s", describeIDF(cfg.IDF)),
		fmt.Sprintf("τ = %.2f", tau),
		fmt.Sprintf("minimum signatures per page: %d", cfg.MinSignatures),
	}
}

func describeIDF(r spotsig.IDFRange) string {
	s := fmt.Sprintf("[%.2f, %.2f]", r.Min, r.Max)
	if r.KeepShared {
		s += " with KeepShared (the upper bound drops only signatures seen in one page)"
	} else {
		s += " (plain upper bound)"
	}
	return s
}

// uniformSpots returns a variant that sets spot distance d and chain
// length c of every antecedent of the default spot set.
func uniformSpots(d, c int) func(*MethodsConfig) {
	return func(cfg *MethodsConfig) {
		ex, err := spotsig.NewExtractor(cfg.Extractor...)
		if err != nil {
			return // NewExtractor in SpotSigsMethod reports it
		}
		set := ex.SpotSet()
		for i := range set {
			set[i].Distance, set[i].Chain = d, c
		}
		cfg.Extractor = append(cfg.Extractor, spotsig.WithSpotSet(set))
	}
}

// wordSpots returns a variant whose spot set is the given words with the
// default distance and chain length.
func wordSpots(words []string) func(*MethodsConfig) {
	return func(cfg *MethodsConfig) {
		set := make([]spotsig.Antecedent, len(words))
		for i, w := range words {
			set[i] = spotsig.Antecedent{Word: w, Distance: spotsig.DefaultDistance, Chain: spotsig.DefaultChain}
		}
		cfg.Extractor = append(cfg.Extractor, spotsig.WithSpotSet(set))
	}
}

// DefaultVariants returns the one-step changes of the SpotSigs defaults
// that the sensitivity table reports: antecedents (articles only, the SMART
// stopword list), spot distance ±1, chain length ±1 (and the Java
// prototype's 1), the minimum block length (0 = the paper's whole-document
// chains), the IDF range's bounds, and the minimum number of
// signatures. τ ±1 step is read off each row's sweep.
func DefaultVariants() []Variant {
	d, c := spotsig.DefaultDistance, spotsig.DefaultChain
	def := DefaultMethodsConfig()
	vs := []Variant{{Parameter: "defaults", Value: "as chosen", Default: true, SignKey: "base"}}
	vs = append(vs,
		Variant{Parameter: "antecedents", Value: "articles only (a, an, the)", Apply: wordSpots([]string{"a", "an", "the"})},
		Variant{Parameter: "antecedents", Value: "SMART stopword list (571)", Apply: func(cfg *MethodsConfig) {
			stop, err := spotsig.Stopwords(spotsig.DefaultLanguage)
			if err == nil {
				wordSpots(stop)(cfg)
			}
		}},
	)
	for _, dd := range []int{d - 1, d + 1} {
		if dd >= 1 {
			vs = append(vs, Variant{Parameter: "spot distance d", Value: fmt.Sprint(dd), Apply: uniformSpots(dd, c)})
		}
	}
	for _, cc := range []int{1, c - 1, c + 1} {
		if cc >= 1 && (cc != 1 || c-1 != 1) {
			vs = append(vs, Variant{Parameter: "chain length c", Value: fmt.Sprint(cc), Apply: uniformSpots(d, cc)})
		}
	}
	vs = append(vs,
		Variant{Parameter: "min block tokens", Value: "0 (paper §3: whole-document chains)", Apply: blockVariant(0)},
		Variant{Parameter: "min block tokens", Value: "1 (chains confined to blocks, none skipped)", Apply: blockVariant(1)},
		Variant{Parameter: "min block tokens", Value: "10", Apply: blockVariant(10)},
		Variant{Parameter: "min block tokens", Value: "30", Apply: blockVariant(30)},
	)
	idf := def.IDF
	vs = append(vs,
		Variant{Parameter: "IDF range", Value: "paper's [0.20, 0.85], plain upper bound", SignKey: "base",
			Apply: func(cfg *MethodsConfig) { cfg.IDF = spotsig.PaperIDFRange }},
		Variant{Parameter: "IDF range", Value: fmt.Sprintf("[%.2f, 0.85], plain upper bound", idf.Min), SignKey: "base",
			Apply: func(cfg *MethodsConfig) { cfg.IDF = spotsig.IDFRange{Min: idf.Min, Max: 0.85} }},
		Variant{Parameter: "IDF range", Value: fmt.Sprintf("[%.2f, 0.85], upper bound only for single-page signatures (KeepShared)", idf.Min), SignKey: "base",
			Apply: func(cfg *MethodsConfig) { cfg.IDF = spotsig.IDFRange{Min: idf.Min, Max: 0.85, KeepShared: true} }},
		Variant{Parameter: "IDF range", Value: fmt.Sprintf("min %.2f", idf.Min+0.1), SignKey: "base",
			Apply: func(cfg *MethodsConfig) { cfg.IDF.Min = idf.Min + 0.1 }},
	)
	if idf.Min >= 0.1 {
		vs = append(vs, Variant{Parameter: "IDF range", Value: fmt.Sprintf("min %.2f", idf.Min-0.1), SignKey: "base",
			Apply: func(cfg *MethodsConfig) { cfg.IDF.Min = idf.Min - 0.1 }})
	}
	for _, m := range []int{def.MinSignatures - 5, def.MinSignatures + 5} {
		if m >= 0 {
			vs = append(vs, Variant{Parameter: "minimum signatures", Value: fmt.Sprint(m), SignKey: "base",
				Apply: func(cfg *MethodsConfig) { cfg.MinSignatures = m }})
		}
	}
	return vs
}

// blockVariant sets the extractor's minimum block length
// (spotsig.WithMinBlockTokens).
func blockVariant(minTokens int) func(*MethodsConfig) {
	return func(cfg *MethodsConfig) {
		cfg.Extractor = append(cfg.Extractor, spotsig.WithMinBlockTokens(minTokens))
	}
}
