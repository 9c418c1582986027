// Package transforms holds the Beam composites and DoFns of the ndd-beam job,
// one per step of the SpotSigs method (Theobald, Siddharth, Paepcke, SIGIR
// 2008). It only wires the plain Go packages warc/, spotsig/, match/ and
// dedup/ into Beam; no algorithm lives here. pipeline.Build strings the
// composites together.
//
// # Stages
//
//   - ReadWARC (§5 input): match globs and lists, read each WARC file with
//     warc.ReadFile, split WARC records into document candidates and rejects.
//   - Extract (§3): payload -> plain text -> text blocks -> spot signatures
//     (the signature scheme is chosen by dedup.NewSigner), in Batches.
//   - DropSharedBlocks: blocks repeated on many pages (boilerplate) lose
//     their signatures (dedup.SharedBlocks), by joins on the block hash and
//     the batch ID.
//   - FilterIDF (§5.1): document frequency per signature with a combiner, N
//     from a global count, keep signatures whose normalized IDF lies in the
//     configured range, rebuild each batch's vectors by a join; documents
//     with too few signatures leave as rejects.
//   - CollapseExact: documents with equal vectors become one representative
//     (ExactPairs writes their pairs lines).
//   - KeyByGroup and MatchGroups (§4.2, §4.3): send each document to its
//     groups (its τ partition, and as a guest to the left neighbour) and run the
//     in-memory matcher of the Grouping chosen by config.NewGrouping on each
//     group, or on a grid of tasks for a group above --max_group_signatures.
//   - Decide: keep/drop for every page (match.DecideSequential's rule in
//     rounds), clusters. FoundRecords and ExactPairs give the pairs lines.
//   - With an index of earlier runs' kept pages: ReadIndex, ExactAgainst
//     and MatchAgainst give the run's Against, with which Decide decides new
//     pages against it (the zero Against: no index); WriteIndex adds the
//     pages a run kept as a segment (package index).
//   - WritePairs, WriteRejects, WriteDecisions, WriteLines, WriteSummary and
//     Outputs.Commit write the job's output contract, whose names, summary
//     and statistics table are package output's (sorted shards,
//     summary.json, _SUCCESS last). Stats gathers each stage's statistics
//     for WriteSummary.
//
// # Element types
//
// Documents travel in batches of up to 1,000 (docBatch of doc: a
// dedup.Doc with its batch ID and guest flag) with a compact binary coder
// (coder.go), because they cross every shuffle up to matching; matching
// gets what it needs of them (matchDoc) in parts (docPart). dedup.Page is
// the compact page Decide needs, output.Reject a WARC record (or
// unreadable stretch) that did not reach matching, with its reason, and
// output.PairRecord one row of the pairs output. Element types are
// unexported, as the DoFns are: Beam registers them as they are (each
// file's init). The package exports its composites, the structs they
// return (Collapsed, Against, DecideResult), what they are given (Stats,
// Outputs, IndexSegment), and a local run's Progress and Abort.
//
// # Counters
//
// Every stage increments Beam metrics counters in its own namespace
// ("read", "extract", "shared", "idf", "exact", "group", "match",
// "decide", "write", "summary", and with an index "index" and "against";
// every counter is listed in docs/deploy.md,
// "Metrics") so a Dataflow user sees progress live; the same numbers are
// computed from PCollections for summary.json, which therefore never
// depends on a runner's metrics being queryable.
package transforms
