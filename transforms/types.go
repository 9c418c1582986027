package transforms

import (
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// What travels through the Beam graph: documents (doc) in batches
// (docBatch) and, for matching, what matching needs of them (matchDoc) in
// parts (docPart); their coder is coder.go. The domain's records travel
// under their own names (dedup.Candidate, output.Reject,
// output.PairRecord).

func init() {
	beam.RegisterType(reflect.TypeOf((*output.Reject)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*output.PairRecord)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*dedup.Candidate)(nil)).Elem())
}

// doc is a document (dedup.Doc: its page, site, exact-copy group,
// signatures and language) on its way through the Beam graph, with two
// fields that belong to the graph, not to the domain: Batch is the ID of
// the docBatch it travels in from Extract on, and Guest is set on the copy of
// a document that KeyByGroup sends to a neighbouring partition as a guest
// (§4.2; dedup.Run matches partitions without copies), false everywhere
// else.
type doc struct {
	dedup.Doc
	Batch string
	Guest bool
}

// docBatch is up to maxBatchDocs documents, or maxBatchBytes of them, made in
// one bundle, moved and joined together: a crawl is mostly pages nothing
// else refers to, and every stage that can works on a batch at once, so the
// runner handles one element per batch rather than per page. ID is the
// warc.Ref.ID of its first document, unique in the job.
type docBatch struct {
	ID   string
	Docs []doc
}

// Batch limits: a batch holds at most maxBatchDocs documents and is closed
// once its encoded size passes maxBatchBytes, well below the 10 MB a
// shuffled element may have on Flink.
const (
	maxBatchDocs  = 1000
	maxBatchBytes = 4 << 20
)

// matchDoc is what matching needs of a document (KeyByGroup to
// MatchGroups): its identity, site, vector, sketch and batch ID (matchBody)
// and its guest flag. A hot partition's documents are sent to many tasks
// (matchTasks: a group cut into a grid of n blocks sends each document to
// n tasks), so matching carries this and the page's other fields (rank,
// digest, date, exact-copy group, language) stay behind; and a document's
// copies share one body, so a copy costs 16 bytes where a runner does not
// encode it (the direct runner: the tasks' parts held 1.4 GB of copies at
// the peak of the 1,080,000-page crawl before, docs/benchmarks.md). No
// stage changes a body once made.
type matchDoc struct {
	*matchBody
	Guest bool
}

// matchBody is what the copies of a matchDoc share.
type matchBody struct {
	warc.Ref
	Site   match.Site
	Vec    spotsig.Vector
	Sketch spotsig.Sketch
	Batch  string
}

// partDoc is d as matching needs it.
func partDoc(d doc) matchDoc {
	return matchDoc{matchBody: &matchBody{Ref: d.Ref, Site: d.Site, Vec: d.Vec, Sketch: d.Sketch, Batch: d.Batch}, Guest: d.Guest}
}

// docPart is a group's or a task's share of documents (KeyByGroup), at most
// maxBatchDocs or about maxBatchBytes.
type docPart struct {
	Docs []matchDoc
}
