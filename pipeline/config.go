package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"   // gs:// inputs and outputs
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths

	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/transforms"
	"github.com/ndd-beam/ndd-beam/warc"
)

// Paper defaults (Theobald et al., SIGIR 2008).
const (
	// DefaultTau is τ = 0.20, SpotSigs' best F1 on our gold set (`make
	// eval`, docs/quality.md: F1 0.936 at 0.20, 0.922 at 0.25, 0.685 at
	// 0.45). The paper's best was τ = 0.44 on its news-only set (§5.3); our
	// pages keep their whole template, so a copy's shared article is a
	// smaller share of its signatures and the best τ is lower.
	DefaultTau = 0.20
	// DefaultRho is ρ = 1000, "fixed to 1,000 for all runs" (§5.2).
	DefaultRho = 1000
	// DefaultMinSignatures drops documents with fewer than 5 signatures
	// after the IDF filter: below that, weighted Jaccard moves in steps of
	// 1/5 or more and two short boilerplate pages match by chance. Not from
	// the paper (its corpora are news articles).
	DefaultMinSignatures = 5
	// DefaultShards is the number of pairs-*.jsonl and rejects-*.jsonl files.
	DefaultShards = 1
	// DefaultShingleK is the shingle length for --method=shingles: 3, the
	// paper's 3-Shingling competitor (§5.3.1).
	DefaultShingleK = 3
)

// Config is everything the job needs: the stage parameters (embedded, see
// transforms.Params) plus where to read and write.
type Config struct {
	transforms.Params
	// Input is one or more file globs (local or gs://); each must match at
	// least one file.
	Input []string
	// Output is the output directory (local path or gs:// prefix).
	Output string
	// Shards is the number of files pairs and rejects are each split into
	// (>= 1).
	Shards int
}

// DefaultConfig returns the paper's best parameters, spotsig's default spot
// set and IDF range and the readers' default caps, with no input or output.
func DefaultConfig() Config {
	idf := spotsig.DefaultIDFRange
	return Config{
		Params: transforms.Params{
			Method:          transforms.MethodSpotSigs,
			Matcher:         transforms.MatcherSpotSigs,
			Tau:             DefaultTau,
			Rho:             DefaultRho,
			IDFMin:          idf.Min,
			IDFMax:          idf.Max,
			IDFKeepShared:   idf.KeepShared,
			MinSignatures:   DefaultMinSignatures,
			MaxHeaderBytes:  warc.DefaultMaxHeaderBytes,
			MaxRecordBytes:  warc.DefaultMaxRecordBytes,
			MaxPayloadBytes: warc.DefaultMaxPayloadBytes,
			MaxMemberBytes:  warc.DefaultMaxMemberBytes,
			MaxInputBytes:   spotsig.DefaultMaxInputBytes,
			MaxTextBytes:    spotsig.DefaultMaxTextBytes,
			MaxTokens:       spotsig.DefaultMaxTokens,
			MaxSignatures:   spotsig.DefaultMaxSignatures,
			MinBlockTokens:  spotsig.DefaultMinBlockTokens,
			ShingleK:        DefaultShingleK,
		},
		Shards: DefaultShards,
	}
}

// ErrConfig is wrapped by every error Validate returns: a bad flag value, an
// input glob that matches nothing, an unwritable output. The CLI prints it
// on one line and exits with status 2.
var ErrConfig = errors.New("config")

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
}

// Validate checks every value of c, resolves an "@file" spot set to its
// inline form (so workers need no local file), and checks the filesystem:
// each input glob must match at least one file and the output directory must
// be writable (a local output directory is created; gs:// outputs are only
// checked for a registered filesystem). It changes c only by normalizing
// Antecedents and Output. Errors wrap ErrConfig.
func (c *Config) Validate(ctx context.Context) error {
	if err := c.ValidateValues(); err != nil {
		return err
	}
	if err := c.checkInput(ctx); err != nil {
		return err
	}
	return c.checkOutput(ctx)
}

// ValidateValues is Validate without the filesystem checks, for runs that
// only build the job (e.g. Dataflow's --dry_run, which may have no
// credentials to list gs:// inputs).
func (c *Config) ValidateValues() error {
	p := &c.Params
	if !(p.Tau > 0 && p.Tau <= 1) {
		return bad("--tau=%v: must be in (0, 1]", p.Tau)
	}
	if p.Rho < 1 {
		return bad("--rho=%d: must be >= 1", p.Rho)
	}
	if !(p.IDFMin >= 0 && p.IDFMin <= 1) {
		return bad("--idf_min=%v: must be in [0, 1]", p.IDFMin)
	}
	if !(p.IDFMax >= 0 && p.IDFMax <= 1) {
		return bad("--idf_max=%v: must be in [0, 1]", p.IDFMax)
	}
	if p.IDFMin > p.IDFMax {
		return bad("--idf_min=%v is above --idf_max=%v", p.IDFMin, p.IDFMax)
	}
	if p.MinSignatures < 1 {
		return bad("--min_signatures=%d: must be >= 1", p.MinSignatures)
	}
	if c.Shards < 1 {
		return bad("--shards=%d: must be >= 1", c.Shards)
	}
	for name, v := range map[string]int64{
		"--max_header_bytes": p.MaxHeaderBytes, "--max_record_bytes": p.MaxRecordBytes,
		"--max_payload_bytes": p.MaxPayloadBytes, "--max_member_bytes": p.MaxMemberBytes,
		"--max_input_bytes": int64(p.MaxInputBytes), "--max_text_bytes": int64(p.MaxTextBytes),
		"--max_tokens": int64(p.MaxTokens), "--max_signatures": int64(p.MaxSignatures),
	} {
		if v < 1 {
			return bad("%s=%d: must be >= 1", name, v)
		}
	}
	if p.MinBlockTokens < 0 {
		return bad("--min_block_tokens=%d: must be >= 0", p.MinBlockTokens)
	}
	// The spot set is resolved to its inline form (the default included), so
	// summary.json says exactly which antecedents the job used.
	var set []spotsig.Antecedent
	var err error
	if p.Antecedents != "" {
		set, err = spotsig.ParseSpotSet(p.Antecedents)
	} else {
		set, err = spotsig.DefaultSpotSet("en")
	}
	if err != nil {
		return bad("--antecedents=%q: %v", p.Antecedents, err)
	}
	parts := make([]string, len(set))
	for i, a := range set {
		parts[i] = a.String()
	}
	p.Antecedents = strings.Join(parts, ",")
	if _, err := transforms.NewSigner(*p); err != nil {
		return bad("--method=%q: %v", p.Method, err)
	}
	if _, err := transforms.NewGrouping(*p); err != nil {
		return bad("--matcher=%q: %v", p.Matcher, err)
	}
	if len(c.Input) == 0 {
		return bad("--input is required (comma-separated file globs)")
	}
	if strings.TrimSpace(c.Output) == "" {
		return bad("--output is required (a directory or gs:// prefix)")
	}
	return nil
}

func (c *Config) checkInput(ctx context.Context) error {
	for _, g := range c.Input {
		if strings.TrimSpace(g) == "" {
			return bad("--input has an empty glob")
		}
		fs, err := newFS(ctx, g)
		if err != nil {
			return bad("--input %q: %v", g, err)
		}
		files, err := fs.List(ctx, g)
		fs.Close()
		if err != nil {
			return bad("--input %q: %v", g, err)
		}
		if len(files) == 0 {
			return bad("--input %q matches no file", g)
		}
	}
	return nil
}

// checkOutput writes and removes a probe file in the output directory.
func (c *Config) checkOutput(ctx context.Context) error {
	fs, err := newFS(ctx, c.Output)
	if err != nil {
		return bad("--output %q: %v", c.Output, err)
	}
	defer fs.Close()
	if strings.HasPrefix(c.Output, "gs://") {
		return nil // no write without credentials at launch; the job reports failures
	}
	probe := transforms.JoinPath(c.Output, ".ndd-beam-write-probe")
	w, err := fs.OpenWrite(ctx, probe)
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return bad("--output %q is not writable: %v", c.Output, err)
	}
	if r, ok := fs.(filesystem.Remover); ok {
		_ = r.Remove(ctx, probe)
	}
	return nil
}

// newFS is filesystem.New for the scheme of path ("gs://", or local).
func newFS(ctx context.Context, path string) (filesystem.Interface, error) {
	return filesystem.New(ctx, path)
}
