// Package pipeline builds the ndd-beam Beam job from a Config: the one place
// that strings the stages of transforms/ together, top to bottom in the
// order of the SpotSigs paper (Theobald, Siddharth, Paepcke, SIGIR 2008):
//
//	ReadWARC -> Extract (§3) -> FilterIDF (§5.1) -> KeyByGroup (§4.2)
//	  -> MatchGroups (§4.3) -> WritePairs, WriteRejects, WriteSummary
//
// Outputs under Config.Output (the contract other tools read):
//
//   - pairs-SSSSS-of-NNNNN.jsonl: one JSON object per unordered
//     near-duplicate pair, exactly once (see transforms.PairRecord);
//   - rejects-SSSSS-of-NNNNN.jsonl: every WARC record (or unreadable
//     stretch or file) that did not reach matching, with its reason (see
//     transforms.Reject);
//   - summary.json: counts with records == documents + Σ skipped, and the
//     parameters (see transforms.Summary).
//
// The shard files are sorted, so the same input gives byte-identical outputs
// on every run and runner.
package pipeline

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/ndd-beam/ndd-beam/transforms"
)

// Build adds the whole job for cfg to s. cfg should have passed Validate (or
// at least ValidateValues); Build returns an error only for parameters the
// stages cannot be built with.
func Build(s beam.Scope, cfg Config) error {
	if err := cfg.ValidateValues(); err != nil {
		return err
	}
	p := cfg.Params

	candidates, readRejects, files := transforms.ReadWARC(s, cfg.Input, p)
	docs, extractRejects, capped := transforms.Extract(s, candidates, p)
	idf := transforms.FilterIDF(s, docs, p)
	keyed := transforms.KeyByGroup(s, idf.Docs, p)
	pairs, groupSizes, err := transforms.MatchGroups(s, keyed, p)
	if err != nil {
		return err
	}
	rejects := beam.Flatten(s, readRejects, extractRejects, idf.Rejects)

	transforms.WritePairs(s, cfg.Output, cfg.Shards, pairs)
	transforms.WriteRejects(s, cfg.Output, cfg.Shards, rejects)

	stats := beam.Flatten(s,
		transforms.Stat(s, transforms.StatRecords, transforms.CountElements(s, candidates)),
		transforms.Stat(s, transforms.StatRecords, transforms.CountElements(s, readRejects)),
		transforms.Stat(s, transforms.StatDocuments, transforms.CountElements(s, idf.Docs)),
		transforms.SkipStats(s, rejects),
		transforms.CapStats(s, capped),
		transforms.Stat(s, transforms.StatSignaturesBeforeIDF, idf.SignaturesBeforeIDF),
		transforms.Stat(s, transforms.StatSignaturesAfterIDF, idf.SignaturesAfterIDF),
		transforms.Stat(s, transforms.StatPartitions, transforms.CountElements(s, groupSizes)),
		transforms.Stat(s, transforms.StatLargestGroup, transforms.MaxInts(s, groupSizes)),
		transforms.Stat(s, transforms.StatPairs, transforms.CountElements(s, pairs)),
	)
	base := transforms.Summary{Parameters: p, Input: cfg.Input, Output: cfg.Output, Shards: cfg.Shards}
	transforms.WriteSummary(s, cfg.Output, base, stats, files)
	return nil
}
