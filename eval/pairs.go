package eval

import "github.com/ndd-beam/ndd-beam/output"

// PairRecord is one row of a pairs output (the job's contract,
// output.PairRecord): two documents found near-duplicate and their
// weighted Jaccard similarity. Evaluation uses the record IDs, URIs and
// Jaccard. Pairs outputs, and the other outputs, are read with output.Read
// or output.ReadAll, in either format.
type PairRecord = output.PairRecord
