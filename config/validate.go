package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Validation of every value of a Config without touching a filesystem: one
// ParamError naming the flag for the first bad value.

// ValidateValues checks every value of c without touching any filesystem
// and resolves a given "@file" spot set to its inline form, so workers need
// no local file and summary.json says exactly which antecedents were used
// (an empty spot set stays empty: the languages' own, see Params.Antecedents).
// It changes c only by normalizing Antecedents and Keep (the default policy
// written out).
// Errors are *ParamError (they wrap ErrConfig) and name the flag.
func (c *Config) ValidateValues() error {
	if err := c.Params.Validate(); err != nil {
		return err
	}
	if c.Shards < 1 {
		return ParamErrorf(LayoutIs, "--shards", c.Shards, "must be >= 1")
	}
	switch c.Compression {
	case CompressionNone, CompressionGzip:
	default:
		return ParamErrorf(LayoutIsQuoted, "--compression", c.Compression, "want %s or %s", CompressionNone, CompressionGzip)
	}
	if !slices.Contains(OutputFormats, c.OutputFormat) {
		return ParamErrorf(LayoutIsQuoted, "--output_format", c.OutputFormat, "want one of %s", strings.Join(OutputFormats, ", "))
	}
	if c.OutputFormat == OutputFormatParquet && c.Compression != CompressionNone {
		return ParamErrorf(LayoutCause, "--output_format", c.OutputFormat, "--output_format=%s compresses its columns with zstd: drop --compression=%s", c.OutputFormat, c.Compression)
	}
	if len(c.Input) == 0 {
		return ParamErrorf(LayoutFlag, "--input", nil, "is required: a folder of WARC files, WARC file paths or globs, gs://, s3:// or http(s):// URLs, or @LIST files of them, comma-separated (ndd-beam --help)")
	}
	if strings.TrimSpace(c.Output) == "" {
		return ParamErrorf(LayoutFlag, "--output", nil, "is required (a directory or gs:// prefix)")
	}
	if err := checkOutputName(c.Output); err != nil {
		return err
	}
	switch c.Progress {
	case ProgressAuto, ProgressOn, ProgressOff:
	default:
		return ParamErrorf(LayoutIsQuoted, "--progress", c.Progress, "want %s, %s or %s", ProgressAuto, ProgressOn, ProgressOff)
	}
	if c.ProgressInterval <= 0 {
		return ParamErrorf(LayoutIs, "--progress_interval", c.ProgressInterval, "must be > 0")
	}
	if _, err := ParseMemoryLimit(c.MemoryLimit); err != nil {
		return ParamErrorf(LayoutIsQuoted, "--memory_limit", c.MemoryLimit, "%s", err)
	}
	if strings.HasPrefix(c.WriteIndex, "http://") || strings.HasPrefix(c.WriteIndex, "https://") {
		return ParamErrorf(LayoutQuoted, "--write_index", c.WriteIndex, "http(s) is read-only; write to a local directory, gs:// or s3://")
	}
	if c.WriteIndex != "" {
		if inside(c.WriteIndex, c.Output) || inside(c.Output, c.WriteIndex) {
			return ParamErrorf(LayoutQuoted, "--write_index", c.WriteIndex, "is --output %q or inside it, or holds it: the index and the outputs need directories of their own", c.Output)
		}
	}
	for _, a := range c.Against {
		if inside(a, c.Output) {
			return ParamErrorf(LayoutQuoted, "--against", a, "is --output %q or inside it: the index and the outputs need directories of their own", c.Output)
		}
	}
	if c.IndexLabel != "" {
		if err := checkLabel(c.IndexLabel); err != nil {
			return ParamErrorf(LayoutIsQuoted, "--index_label", c.IndexLabel, "%v", err)
		}
	}
	return nil
}

// inside reports whether the directory a is b or lies under it: local
// paths compared absolute and clean, URLs as strings without a trailing
// slash.
func inside(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if strings.Contains(a, "://") != strings.Contains(b, "://") {
		return false
	}
	if strings.Contains(a, "://") {
		a, b = strings.TrimSuffix(a, "/"), strings.TrimSuffix(b, "/")
		return a == b || strings.HasPrefix(a, b+"/")
	}
	aa, err1 := filepath.Abs(a)
	ba, err2 := filepath.Abs(b)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(ba, aa)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// checkLabel returns an error unless label is 1 to 100 of the characters
// A-Z a-z 0-9 . _ - and does not start with a dot.
func checkLabel(label string) error {
	if len(label) > 100 || label[0] == '.' {
		return fmt.Errorf("want 1 to 100 characters, not starting with a dot")
	}
	for _, c := range label {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("%q is not allowed: want letters, digits, '.', '_' and '-'", c)
		}
	}
	return nil
}

// Validate checks every value of p but the signature method, which only
// its scheme can check (dedup.CheckMethod; pipeline.ValidateValues does
// both), and resolves its spot set to inline form (see
// Config.ValidateValues). Errors are *ParamError (they wrap ErrConfig) and
// name the flag.
func (p *Params) Validate() error {
	if !(p.Tau > 0 && p.Tau <= 1) {
		return ParamErrorf(LayoutIs, "--tau", p.Tau, "must be in (0, 1]")
	}
	if !(p.VerifyShare >= 0 && p.VerifyShare <= 1) {
		return ParamErrorf(LayoutIs, "--verify_share", p.VerifyShare, "must be in [0, 1]")
	}
	if !(p.SameSiteTau >= 0 && p.SameSiteTau <= 1) {
		return ParamErrorf(LayoutIs, "--same_site_tau", p.SameSiteTau, "must be in [0, 1]")
	}
	if p.Rho < 1 {
		return ParamErrorf(LayoutIs, "--rho", p.Rho, "must be >= 1")
	}
	if !(p.IDFMin >= 0 && p.IDFMin <= 1) {
		return ParamErrorf(LayoutIs, "--idf_min", p.IDFMin, "must be in [0, 1]")
	}
	if !(p.IDFMax >= 0 && p.IDFMax <= 1) {
		return ParamErrorf(LayoutIs, "--idf_max", p.IDFMax, "must be in [0, 1]")
	}
	if p.IDFMin > p.IDFMax {
		return ParamErrorf("%s=%v %v", "--idf_min", p.IDFMin, "is above --idf_max=%v", p.IDFMax)
	}
	if p.MinSignatures < 1 {
		return ParamErrorf(LayoutIs, "--min_signatures", p.MinSignatures, "must be >= 1")
	}
	for _, c := range []struct {
		name string
		v    int64
	}{
		{"--max_header_bytes", p.MaxHeaderBytes}, {"--max_record_bytes", p.MaxRecordBytes},
		{"--max_payload_bytes", p.MaxPayloadBytes}, {"--max_member_bytes", p.MaxMemberBytes},
		{"--max_uri_bytes", p.MaxURIBytes}, {"--max_record_id_bytes", p.MaxRecordIDBytes},
		{"--max_input_bytes", int64(p.MaxInputBytes)}, {"--max_text_bytes", int64(p.MaxTextBytes)},
		{"--max_tokens", int64(p.MaxTokens)}, {"--max_signatures", int64(p.MaxSignatures)},
	} {
		if c.v < 1 {
			return ParamErrorf(LayoutIs, c.name, c.v, "must be >= 1")
		}
	}
	if p.MinBlockTokens < 0 {
		return ParamErrorf(LayoutIs, "--min_block_tokens", p.MinBlockTokens, "must be >= 0")
	}
	if p.Lang != "" && p.Lang != spotsig.LanguageAuto && !slices.Contains(spotsig.Languages(), p.Lang) {
		return ParamErrorf(LayoutIsQuoted, "--lang", p.Lang, "want %q or one of %v", spotsig.LanguageAuto, spotsig.Languages())
	}
	if p.SharedBlockPages == 1 || p.SharedBlockPages < 0 || p.SharedBlockPages > MaxSharedBlockPages {
		return ParamErrorf(LayoutIs, "--shared_block_pages", p.SharedBlockPages, "must be 0 (off) or in [2, %d]", MaxSharedBlockPages)
	}
	pol, err := p.Policy()
	if err != nil {
		return ParamErrorf(LayoutIsQuoted, "--keep", p.Keep, "%w", err)
	}
	p.Keep = pol.String()
	if p.MaxGroupSignatures < 0 {
		return ParamErrorf(LayoutIs, "--max_group_signatures", p.MaxGroupSignatures, "must be 0 (unbounded) or more")
	}
	if p.DecideRounds < 0 {
		return ParamErrorf(LayoutIs, "--decide_rounds", p.DecideRounds, "must be >= 0")
	}
	if p.Antecedents != "" {
		// A given spot set (inline or @file) is resolved to its inline
		// form. Empty stays empty: each page's language brings its own
		// spot set (spotsig/lang/<code>), recorded in summary.json as
		// sizes per language.
		set, err := spotsig.ParseSpotSet(p.Antecedents)
		if err != nil {
			return ParamErrorf(LayoutIsQuoted, "--antecedents", p.Antecedents, "%w", err)
		}
		parts := make([]string, len(set))
		for i, a := range set {
			parts[i] = a.String()
		}
		p.Antecedents = strings.Join(parts, ",")
	}
	if _, err := NewGrouping(*p); err != nil {
		return ParamErrorf(LayoutIsQuoted, "--matcher", p.Matcher, "%w", err)
	}
	return nil
}

// checkOutputName refuses an --output that cannot name a directory of the
// job's files: "-" (the job writes several files, never to standard
// output), a value starting with "-" (a flag taken as the value of
// --output), and one with glob characters (its files could not be listed
// back).
func checkOutputName(out string) error {
	switch {
	case out == "-":
		return ParamErrorf(LayoutIs, "--output", out, "the job writes a directory of files, not standard output; give a directory, gs:// or s3:// prefix")
	case strings.HasPrefix(out, "-"):
		return ParamErrorf("%s=%q %v", "--output", out, "looks like a flag, not a directory (--output needs a value: --output=DIR)")
	case strings.ContainsAny(out, "*?["):
		return ParamErrorf(LayoutIsQuoted, "--output", out, "a directory name with a glob character (* ? [) cannot be listed back; choose another name")
	}
	return nil
}
