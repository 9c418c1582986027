package eval

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

var nanTau = math.NaN()

// Taus returns the thresholds lo, lo+step, …, hi (inclusive, rounded to 1e-9
// so 0.3 + 14·0.05 is exactly 1.0).
func Taus(lo, hi, step float64) []float64 {
	var out []float64
	for i := 0; ; i++ {
		t := math.Round((lo+float64(i)*step)*1e9) / 1e9
		if t > hi+1e-9 {
			return out
		}
		out = append(out, t)
	}
}

// MethodsConfig selects the parameters of the compared methods. The zero
// value is not useful; start from DefaultMethodsConfig.
type MethodsConfig struct {
	Extractor     []spotsig.Option // spot signature extraction (SpotSigs, LSH-S, I-Match-S)
	IDF           spotsig.IDFRange // SpotSigs, shingles, LSH-S
	IMatchIDF     spotsig.IDFRange // I-Match, I-Match-S (§5.3.3: [0.4, 0.75])
	MinSignatures int              // SpotSigs and LSH-S
	ShingleK      []int            // word k-gram lengths, each a method
	LSHK, LSHL    int              // rows per band, bands
	Descriptive   []int            // descriptive-set sizes N, each a method
	// PaperChains adds "SpotSigs-paper": SpotSigs with the paper's
	// whole-document chains (§3, spotsig.WithMinBlockTokens(0)) instead of
	// the job's block-confined extraction, for comparison.
	PaperChains bool
}

// DefaultMethodsConfig returns the job's defaults for SpotSigs and the
// paper's settings for the competitors (§5.3): shingles with k = 1 and 3,
// LSH-S with k = 6, l = 32, I-Match(-S) over IDF [0.4, 0.75].
func DefaultMethodsConfig() MethodsConfig {
	return MethodsConfig{
		IDF:           spotsig.DefaultIDFRange,
		IMatchIDF:     match.DefaultIMatchIDF,
		ShingleK:      []int{1, 3},
		LSHK:          match.DefaultLSHRows,
		LSHL:          match.DefaultLSHBands,
		Descriptive:   []int{25, 50, 100, 200, 400},
		MinSignatures: config.DefaultMinSignatures,
		PaperChains:   true,
	}
}

// Methods builds the compared methods of the paper's Table 1 plus the
// descriptive-words method: SpotSigs (exact matcher), k-Shingles (exact
// matcher), LSH-S, I-Match, I-Match-S and descriptive words. Methods with
// the same SignKey share one signature computation in Sweep.
func Methods(cfg MethodsConfig) ([]Method, error) {
	ex, err := spotsig.NewExtractor(cfg.Extractor...)
	if err != nil {
		return nil, err
	}
	spots := func(text []byte) spotsig.Vector { v, _ := ex.Extract(text); return v }
	words := func(text []byte) spotsig.Vector { return spotsig.Shingles(text, 1) }
	idf, imIDF := cfg.IDF, cfg.IMatchIDF

	ms := []Method{{
		Name: "SpotSigs", Sign: spots, SignKey: "spots", IDF: &idf, MinSignatures: cfg.MinSignatures,
	}}
	if cfg.PaperChains {
		paper, err := spotsig.NewExtractor(append(slices.Clone(cfg.Extractor), spotsig.WithMinBlockTokens(0))...)
		if err != nil {
			return nil, err
		}
		ms = append(ms, Method{
			Name: "SpotSigs-paper", Params: "paper §3: whole-document chains (min block tokens 0)",
			Sign:    func(text []byte) spotsig.Vector { v, _ := paper.Extract(text); return v },
			SignKey: "spots-paper", IDF: &idf, MinSignatures: cfg.MinSignatures,
		})
	}
	for _, k := range cfg.ShingleK {
		k := k
		ms = append(ms, Method{
			Name: fmt.Sprintf("%d-Shingles", k), SignKey: fmt.Sprintf("shingles-%d", k), IDF: &idf,
			Sign: func(text []byte) spotsig.Vector { return spotsig.Shingles(text, k) },
		})
	}
	lk, ll := cfg.LSHK, cfg.LSHL
	ms = append(ms,
		Method{
			Name: "LSH-S", Sign: spots, SignKey: "spots", IDF: &idf, MinSignatures: cfg.MinSignatures,
			K: lk, L: ll, Memory: LSHMemory(ll),
			Grouping: func(tau float64, _ []spotsig.Vector) match.Grouping {
				return match.NewLSH(tau, match.WithBands(lk, ll))
			},
		},
		Method{
			Name: "I-Match", Sign: words, SignKey: "shingles-1", IDF: &imIDF, NoTau: true, Memory: BucketMemory,
			Grouping: func(float64, []spotsig.Vector) match.Grouping { return match.IMatch{} },
		},
		Method{
			Name: "I-Match-S", Sign: spots, SignKey: "spots", IDF: &imIDF, NoTau: true, Memory: BucketMemory,
			Grouping: func(float64, []spotsig.Vector) match.Grouping { return match.IMatch{} },
		},
	)
	for _, n := range cfg.Descriptive {
		n := n
		ms = append(ms, Method{
			Name: "Descriptive words", Params: fmt.Sprintf("N=%d", n), Sign: words, SignKey: "shingles-1",
			NoTau: true,
			Memory: func(docs int, _ int64) int64 {
				return int64(docs)*(8+4) + int64(n)*(8+8)
			},
			Grouping: func(_ float64, docs []spotsig.Vector) match.Grouping {
				return match.NewDescriptiveWords(docs, match.WithDescriptiveSize(n))
			},
		})
	}
	return ms, nil
}

// SpotSigsMethod returns the SpotSigs method (exact matcher) of cfg alone,
// named name, with its own signature cache key, for parameter studies.
func SpotSigsMethod(cfg MethodsConfig, name string) (Method, error) {
	ex, err := spotsig.NewExtractor(cfg.Extractor...)
	if err != nil {
		return Method{}, err
	}
	idf := cfg.IDF
	m := Method{
		Name: name, SignKey: "spots|" + name, IDF: &idf, MinSignatures: cfg.MinSignatures,
		Sign: func(text []byte) spotsig.Vector { v, _ := ex.Extract(text); return v },
	}
	return m, nil
}

// A Variant changes one parameter of a MethodsConfig by one step.
type Variant struct {
	Parameter string
	Value     string
	Default   bool // the unchanged configuration
	Apply     func(*MethodsConfig)
	// SignKey, if set, names the variant's spot signature extraction:
	// variants that change only the IDF range or the minimum share it with
	// the default and are not extracted again.
	SignKey string
}

// Sensitivity runs SpotSigs under base changed by each variant over taus and
// reports the best F1 and the F1 at defaultTau of each.
func Sensitivity(c *Corpus, base MethodsConfig, variants []Variant, taus []float64, defaultTau float64, progress io.Writer) ([]SensitivityRow, error) {
	var rows []SensitivityRow
	for _, v := range variants {
		cfg := base
		cfg.Extractor = append([]spotsig.Option(nil), base.Extractor...)
		if v.Apply != nil {
			v.Apply(&cfg)
		}
		m, err := SpotSigsMethod(cfg, v.Parameter+"="+v.Value)
		if err != nil {
			return nil, fmt.Errorf("variant %s=%s: %w", v.Parameter, v.Value, err)
		}
		if v.SignKey != "" {
			m.SignKey = "spots|" + v.SignKey
		}
		s := Sweep(c, []Method{m}, taus, nil)[0]
		row := SensitivityRow{Parameter: v.Parameter, Value: v.Value, Default: v.Default,
			BestTau: s.BestRun().Tau, Best: s.BestRun().Result}
		for i, r := range s.Runs {
			if math.Abs(r.Tau-defaultTau) < 1e-9 {
				row.AtDefault = r.Result
				if i > 0 {
					row.AtLower = s.Runs[i-1].Result
				}
				if i+1 < len(s.Runs) {
					row.AtUpper = s.Runs[i+1].Result
				}
			}
		}
		if progress != nil {
			fmt.Fprintf(progress, "sensitivity %-28s best F1 %.3f at tau %.2f, F1 %.3f at %.2f\n",
				m.Name, row.Best.F1, row.BestTau, row.AtDefault.F1, defaultTau)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// MethodSweep is one method evaluated over a range of τ.
type MethodSweep struct {
	Method  Method
	Vectors Vectors // signatures (pairs are dropped from Runs except the best)
	Runs    []Run   // one per τ, ascending; one run for NoTau methods
	Best    int     // index into Runs of the highest F1 (highest τ on ties)
}

// BestRun returns the run of highest F1.
func (s MethodSweep) BestRun() Run { return s.Runs[s.Best] }

// Sweep evaluates every method at every τ (once for NoTau methods) over the
// corpus. Signatures are computed once per SignKey (Corpus.Sign). Progress lines go to progress when it is non-nil. To keep
// memory flat only the best run of each method keeps its pairs.
func Sweep(c *Corpus, methods []Method, taus []float64, progress io.Writer) []MethodSweep {
	var out []MethodSweep
	for _, m := range methods {
		v := c.Sign(m)
		s := MethodSweep{Method: m, Vectors: v}
		ts := taus
		if m.NoTau {
			ts = []float64{nanTau}
		}
		for _, tau := range ts {
			r := c.Evaluate(m, v, tau)
			if progress != nil {
				fmt.Fprintf(progress, "%-18s %-8s tau=%-5.2f P=%.3f R=%.3f F1=%.3f sign=%v match=%v\n",
					m.Name, m.Params, tau, r.Result.Precision, r.Result.Recall, r.Result.F1,
					r.SignTime.Round(1e6), (r.KeyTime + r.MatchTime).Round(1e6))
			}
			if len(s.Runs) == 0 || r.Result.F1 >= s.Runs[s.Best].Result.F1 {
				if len(s.Runs) > 0 {
					s.Runs[s.Best].Pairs = nil
				}
				s.Best = len(s.Runs)
			} else {
				r.Pairs = nil
			}
			s.Runs = append(s.Runs, r)
		}
		out = append(out, s)
	}
	return out
}
