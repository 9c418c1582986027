// Package transforms holds the Beam composites and DoFns of the ndd-beam job,
// one per step of the SpotSigs method (Theobald, Siddharth, Paepcke, SIGIR
// 2008). It only wires the plain Go packages warc/, spotsig/ and match/ into
// Beam; no algorithm lives here.
//
// # Stages
//
//   - ReadWARC (§5 input): match globs, read each WARC file with warc.ReadFile,
//     split WARC records into document candidates and rejects.
//   - Extract (§3): payload -> plain text -> spot signatures (the signature
//     scheme is chosen by NewSigner).
//   - FilterIDF (§5.1): document frequency per signature with a combiner, N
//     from a global count, keep signatures whose normalized IDF lies in the
//     configured range, rebuild each document's vector by a join.
//   - KeyByGroup and MatchGroups (§4.2, §4.3): send each document to its
//     groups (its τ partition, and as a guest to the left neighbour) and run the
//     in-memory matcher of the Grouping chosen by NewGrouping on each group.
//   - WritePairs, WriteRejects, WriteSummary: the job's output contract.
//
// # Element types
//
// Doc is a document with its signature vector; it has a compact binary coder
// (registered with beam.RegisterCoder) because it crosses every shuffle.
// Reject is a WARC record (or unreadable stretch) that did not reach
// matching, with its reason. PairRecord is one output pair.
//
// # Counters
//
// Every stage increments Beam metrics counters in its own namespace ("read",
// "extract", "idf", "match", "write") so a Dataflow user sees progress live;
// the same numbers are computed from PCollections for summary.json, which
// therefore never depends on a runner's metrics being queryable.
package transforms
