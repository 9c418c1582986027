// Package pipeline builds the ndd-beam Beam job from a Config: the one place
// that strings the stages of transforms/ together, top to bottom in the
// order of the SpotSigs paper (Theobald, Siddharth, Paepcke, SIGIR 2008):
//
//	ReadWARC -> Extract (§3) -> DropSharedBlocks -> MarkTemplates -> FilterIDF (§5.1)
//	  -> CollapseExact -> KeyByGroup (§4.2) -> MatchGroups (§4.3)
//	  -> Decide -> WritePairs,
//	  WriteRejects, WriteDecisions, WriteSummary
//
// Outputs under Config.Output (the contract other tools read):
//
//   - pairs-SSSSS-of-NNNNN.jsonl (.jsonl.gz with --compression=gzip,
//     .parquet with --output_format=parquet, as every sharded output;
//     output.Format): one row per unordered candidate pair, exactly once,
//     with its verification (see output.PairRecord);
//   - rejects-SSSSS-of-NNNNN.jsonl: every WARC record (or unreadable
//     stretch or file) that did not reach matching, with its reason (see
//     output.Reject);
//   - decisions-SSSSS-of-NNNNN.jsonl: one row per page (a record that
//     became text), kept or dropped (see output.Decision);
//   - clusters-SSSSS-of-NNNNN.jsonl: each kept page with the pages it
//     drops (see output.Cluster);
//   - summary.json: counts with records == documents + Σ skipped, and the
//     parameters (see output.Summary);
//   - _SUCCESS: empty, written last (transforms.Outputs.Commit).
//
// Every file is written under a temporary name (.ndd-beam-tmp-<run ID>-…)
// and renamed when all are written; _SUCCESS marks a finished run. With
// --write_index the index segment is committed first (transforms.
// WriteIndex), and the output's commit waits for it, so _SUCCESS is the
// run's last write (index package doc, "Commit", for a kill in between).
// docs/outputs.md documents every field. The shard files are sorted, so the
// same input gives byte-identical outputs on every run and runner.
package pipeline

import (
	"context"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/transforms"
)

// Build adds the whole job for cfg to s, top to bottom. cfg should have
// passed Launch or Validate (or at least ValidateValues); Build returns an
// error only for parameters the stages cannot be built with. Its one
// read is a local input list (@LIST, with ctx), which remote workers could
// not read (transforms.ReadWARC); the inputs and the index are listed and
// read by the job's stages when it runs (ReadWARC, ReadIndex), and
// summary.json's language data is gathered when the summary is written.
func Build(ctx context.Context, s beam.Scope, cfg config.Config) error {
	if err := ValidateValues(&cfg); err != nil {
		return err
	}
	out, err := outputs(cfg)
	if err != nil {
		return err
	}
	p, st, base := cfg.Params, &transforms.Stats{}, summaryBase(cfg, out.RunID)
	candidates, readRejects, files, err := transforms.ReadWARC(ctx, s, st, cfg.Input, cfg.InputPrefix, p)
	if err != nil {
		return err
	}
	batches, extractRejects, unsigned := transforms.Extract(s, st, candidates, p)
	batches = transforms.DropSharedBlocks(s, st, batches, p)
	batches = transforms.MarkTemplates(s, batches, p)
	kept, idfRejects, tooFew := transforms.FilterIDF(s, st, batches, p)
	unsigned = beam.Flatten(s, unsigned, tooFew)
	reached := transforms.ReadIndex(s, cfg.Against, kept, unsigned, p)
	if len(cfg.Against) > 0 {
		st.Count(s, output.StatIndexPagesReached, reached)
	}
	against, kept, unsigned := transforms.ExactAgainst(s, reached, kept, unsigned, p)
	groups := transforms.CollapseExact(s, st, kept, p)
	found, err := transforms.MatchGroups(s, st, transforms.KeyByGroup(s, groups.Reps, p), p)
	if err != nil {
		return err
	}
	against, near := transforms.MatchAgainst(s, against, groups, transforms.NearDuplicates(s, found), p)
	decided, err := transforms.Decide(s, st, groups, near, unsigned, against, p)
	if err != nil {
		return err
	}
	transforms.WritePairs(s, out, beam.Flatten(s, transforms.FoundRecords(s, found), transforms.ExactPairs(s, groups.Copies),
		transforms.TextCopyPairs(s, st, decided.Decisions)))
	transforms.WriteDecisions(s, out, decided)
	transforms.WriteRejects(s, st, out, beam.Flatten(s, readRejects, extractRejects, idfRejects))
	transforms.WriteSummary(s, out, base, st.Collection(s), files)
	if cfg.WriteIndex != "" {
		out.After(transforms.WriteIndex(s, transforms.IndexSegment{Dir: cfg.WriteIndex, Name: base.IndexSegment,
			Created: base.Run.Start.Format(time.RFC3339), Shards: cfg.Shards, Params: p, Output: cfg.Output, RunID: out.RunID},
			groups, unsigned, decided, files))
	}
	if cfg.WriteWARC != "" {
		out.After(transforms.FilterWARC(s, warcFilter(cfg, base, out.RunID), files, decided.Decisions))
	}
	out.Commit(s) // after the index segment's commit: _SUCCESS is the run's last word
	return nil
}

// outputs is where and how the run writes its outputs (cfg.RunID, or a
// new run ID; the format of --output_format and --compression).
func outputs(cfg config.Config) (*transforms.Outputs, error) {
	runID := cfg.RunID
	if runID == "" {
		runID = output.NewRunID()
	}
	format, err := output.FormatOf(cfg.OutputFormat, cfg.Compression)
	if err != nil {
		return nil, err
	}
	return &transforms.Outputs{Dir: cfg.Output, Shards: cfg.Shards, RunID: runID, Format: format, Replace: cfg.Overwrite}, nil
}

// summaryBase is what summary.json says of run runID before it runs: its
// parameters, inputs, output, index and run information.
func summaryBase(cfg config.Config, runID string) output.Summary {
	base := output.Summary{Parameters: cfg.Params, Input: cfg.Input, Output: cfg.Output, Shards: cfg.Shards,
		Run: output.NewRunInfo(runID, cfg.Runner, core.SdkVersion), Against: cfg.Against}
	if cfg.WriteIndex != "" {
		label := cfg.IndexLabel
		if label == "" {
			label = index.LabelOf(base.Run.Start)
		}
		base.IndexDir, base.IndexSegment = cfg.WriteIndex, index.SegmentName(label)
	}
	return base
}
