package pipeline

import (
	"context"
	"encoding/json"
	"path"
	"sort"
	"strings"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/storage"
	"github.com/ndd-beam/ndd-beam/transforms"
)

// checkWARCDir checks the directory of the filtered WARC files
// (--write_warc) as Validate checks --output: empty or missing, or, with
// --overwrite, holding only files FilterWARC writes (transforms.
// IsWARCDirFile); and writable (a probe file written and removed).
func checkWARCDir(ctx context.Context, c *config.Config) error {
	dir := c.WriteWARC
	if dir == "" {
		return nil
	}
	fs, err := storage.New(ctx, dir)
	if err != nil {
		return config.ParamErrorf(config.LayoutQuoted, "--write_warc", dir, "%w", err)
	}
	all, err := fs.List(ctx, output.JoinPath(dir, "*"))
	fs.Close()
	if err != nil {
		return config.ParamErrorf(config.LayoutQuoted, "--write_warc", dir, "listing it: %w", err)
	}
	var ours, foreign []string
	for _, p := range all {
		name := path.Base(strings.ReplaceAll(p, "\\", "/"))
		switch {
		case strings.HasPrefix(name, storage.LockFile):
		case transforms.IsWARCDirFile(name):
			ours = append(ours, name)
		default:
			foreign = append(foreign, name)
		}
	}
	sort.Strings(ours)
	sort.Strings(foreign)
	switch {
	case len(foreign) > 0:
		return config.ParamErrorf(config.LayoutQuotedIs, "--write_warc", dir, "holds files the job did not write (%s): choose an empty directory", abbreviate(foreign))
	case len(ours) > 0 && !c.Overwrite:
		return config.ParamErrorf(config.LayoutQuotedIs, "--write_warc", dir, "holds filtered WARC files of an earlier run (%s): pass --overwrite to replace them, or choose another directory", abbreviate(ours))
	}
	if err := checkOutput(ctx, dir, c.RunID); err != nil {
		return config.ParamErrorf(config.LayoutQuotedIs, "--write_warc", dir, "is not writable")
	}
	return nil
}

// warcFilter is what FilterWARC needs of the run: where, its reading
// options, and the warcinfo fields every filtered file shares (WARC 1.1
// §6.2, Annex C: software, format, description; then ndd-beam's own:
// run ID, output, parameters as JSON, indexes against).
func warcFilter(cfg config.Config, base output.Summary, runID string) transforms.WARCFilter {
	params, _ := json.Marshal(cfg.Params)
	software := "ndd-beam " + base.Run.Version
	if base.Run.Revision != "" {
		software += " (" + base.Run.Revision + ")"
	}
	fields := [][2]string{
		{"software", software + ", Apache Beam Go SDK " + base.Run.BeamSDK},
		{"format", "WARC File Format 1.1"},
		{"description", "a copy of the input WARC file without the pages ndd-beam dropped as near-duplicates or exact copies of kept pages (SpotSigs), and without the records that belong to them; ndd-beam-removed says how many, the manifest which"},
		{"ndd-beam-run-id", runID},
		{"ndd-beam-output", cfg.Output},
		{"ndd-beam-parameters", string(params)},
	}
	if len(cfg.Against) > 0 {
		fields = append(fields, [2]string{"ndd-beam-against", strings.Join(cfg.Against, ",")})
	}
	return transforms.WARCFilter{Dir: cfg.WriteWARC, RunID: runID, Replace: cfg.Overwrite,
		Options: cfg.Params.WARCOptions(), Date: base.Run.Start, Fields: fields}
}
