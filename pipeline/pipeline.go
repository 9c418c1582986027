// Package pipeline builds the ndd-beam Beam job from a Config: the one place
// that strings the stages of transforms/ together, top to bottom in the
// order of the SpotSigs paper (Theobald, Siddharth, Paepcke, SIGIR 2008):
//
//	ReadWARC -> Extract (§3) -> DropSharedBlocks -> FilterIDF (§5.1)
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

// Build adds the whole job for cfg to s. cfg should have passed Validate (or
// at least ValidateValues); Build returns an error only for parameters the
// stages cannot be built with.
func Build(s beam.Scope, cfg config.Config) error {
	if err := cfg.ValidateValues(); err != nil {
		return err
	}
	p := cfg.Params
	st := &transforms.Stats{}

	candidates, readRejects, files, err := transforms.ReadWARC(s, st, cfg.Input, cfg.InputPrefix, p)
	if err != nil {
		return err
	}
	batches, extractRejects, unsigned := transforms.Extract(s, st, candidates, p)
	batches = transforms.DropSharedBlocks(s, st, batches, p)
	kept, idfRejects, tooFew := transforms.FilterIDF(s, st, batches, p)
	unsignedPages := beam.Flatten(s, unsigned, tooFew)
	var against transforms.Against
	if len(cfg.Against) > 0 {
		infos, err := index.List(context.Background(), cfg.Against)
		if err != nil {
			return err
		}
		against = transforms.ExactAgainst(s, transforms.ReadIndex(s, transforms.IndexFiles(infos)), kept, unsignedPages, p)
		kept, unsignedPages = against.Kept, against.Unsigned
	}
	groups := transforms.CollapseExact(s, st, kept, p)
	found, err := transforms.MatchGroups(s, st, transforms.KeyByGroup(s, groups.Reps, p), p)
	if err != nil {
		return err
	}
	near := transforms.NearDuplicates(s, found)
	var decided transforms.DecideResult
	if len(cfg.Against) > 0 {
		preDrops, rest := transforms.MatchAgainst(s, against, groups, near, p)
		decided, err = transforms.DecideAgainst(s, st, groups, rest, unsignedPages, preDrops, against.Dropped, p)
	} else {
		decided, err = transforms.Decide(s, st, groups, near, unsignedPages, p)
	}
	if err != nil {
		return err
	}

	runID := cfg.RunID
	if runID == "" {
		runID = output.NewRunID()
	}
	format, err := output.FormatOf(cfg.OutputFormat, cfg.Compression)
	if err != nil {
		return err
	}
	out := &transforms.Outputs{Dir: cfg.Output, Shards: cfg.Shards, RunID: runID, Format: format, Replace: cfg.Overwrite}
	transforms.WritePairs(s, out, beam.Flatten(s, transforms.FoundRecords(s, found), transforms.ExactPairs(s, groups.Copies),
		transforms.TextCopyPairs(s, st, decided.Decisions)))
	transforms.WriteDecisions(s, out, decided)
	transforms.WriteRejects(s, st, out, beam.Flatten(s, readRejects, extractRejects, idfRejects))
	base := output.Summary{Parameters: p, Input: cfg.Input, Output: cfg.Output, Shards: cfg.Shards,
		Run: output.NewRunInfo(out.RunID, cfg.Runner, core.SdkVersion)}
	base.Against = cfg.Against
	if cfg.WriteIndex != "" {
		label := cfg.IndexLabel
		if label == "" {
			label = index.LabelOf(base.Run.Start)
		}
		base.IndexDir, base.IndexSegment = cfg.WriteIndex, index.SegmentName(label)
	}
	ld, err := p.Languages()
	if err != nil {
		return err
	}
	base.LanguageData = ld
	transforms.WriteSummary(s, out, base, st.Collection(s), files)
	if cfg.WriteIndex != "" {
		out.After(transforms.WriteIndex(s, transforms.IndexSegment{Dir: cfg.WriteIndex, Name: base.IndexSegment,
			Created: base.Run.Start.Format(time.RFC3339), Shards: cfg.Shards, Params: p, Output: cfg.Output, RunID: runID},
			groups, unsignedPages, decided, files))
	}
	if cfg.WriteWARC != "" {
		out.After(transforms.FilterWARC(s, warcFilter(cfg, base, runID), files, decided.Decisions))
	}
	out.Commit(s) // after the index segment's commit: _SUCCESS is the run's last word
	return nil
}
