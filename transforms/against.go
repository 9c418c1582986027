package transforms

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// A run against an index (--against; dedup.RunAgainst is the reference,
// docs/design.md "Scheduled batches"), as one value, Against, whose zero
// is a run without an index: the index pages the new batch can reach are
// read as a PCollection (ReadIndex, against_read.go); a new page that copies one exactly (its
// text digest, or a document's vector) is dropped for it before
// collapsing and matching (ExactAgainst, against_exact.go); the new
// exact-copy representatives are matched with the index pages only,
// through the partitions and the task grid (MatchAgainst,
// against_match.go); a new node with such a pair is dropped for its
// best-ranked index neighbour where Decide splits the nodes.

var (
	againstExact    = beam.NewCounter("against", "exact_copies")
	againstPairs    = beam.NewCounter("against", "pairs")
	againstPriors   = beam.NewCounter("against", "index_pages")
	againstReached  = beam.NewCounter("against", "index_pages_reached")
	againstCompared = beam.NewCounter("against", "groups_matched")
)

// Against is a run against an index (--against) as the rest of the job
// sees it: what ExactAgainst and MatchAgainst found, for MatchAgainst and
// Decide. The zero Against is a run without an index: MatchAgainst passes
// its pairs through and Decide decides as without one.
type Against struct {
	dropped  beam.PCollection // decidedPage: the pages that copy an index page
	priors   beam.PCollection // doc: index pages with a vector (Batch: their segment), with their exact-copy groups' sites
	preDrops beam.PCollection // preDrop keyed by batch: new nodes dropped for an index page (MatchAgainst)
}
