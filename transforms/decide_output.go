package transforms

import (
	"context"
	"slices"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/ndd-beam/ndd-beam/output"
)

// The outputs of Decide: clusters formed from the dropped pages, the
// statistics of the decisions, and the decisions and clusters written as
// JSON lines.

// pages decided on the residual worker, and clusters per size.
func decisionStats(s beam.Scope, st *Stats, r DecideResult) {
	s = s.Scope("DecisionStats")
	st.Add(beam.CombinePerKey(s, sumInt, beam.Flatten(s,
		beam.ParDo(s, &decisionStatFn{}, r.Decisions),
		beam.ParDo(s, &clusterStatFn{}, r.ClusterSizes))))
	st.Sum(s, output.StatDecideResidual, r.Residual)
}

// decisionStatFn counts a decision as kept or dropped, and a dropped page
// at weighted Jaccard 1 (the same signatures as the page kept, or for
// exact-text the same text) also as an exact copy.
type decisionStatFn struct{ sums statSums }

func (fn *decisionStatFn) StartBundle(func(string, int)) { fn.sums.start() }

func (fn *decisionStatFn) ProcessElement(ctx context.Context, d decidedPage, emit func(string, int)) {
	if d.Line.Keep {
		decideKept.Inc(ctx, 1)
		fn.sums.add(output.StatKept, 1, emit)
		return
	}
	decideDropped.Inc(ctx, 1)
	fn.sums.add(output.StatDropped, 1, emit)
	if d.Line.Jaccard == 1 {
		decideExact.Inc(ctx, 1)
		fn.sums.add(output.StatDroppedExact, 1, emit)
	}
	if d.Line.KeptBySegment != "" {
		fn.sums.add(output.StatDroppedForIndex, 1, emit)
	}
}

func (fn *decisionStatFn) FinishBundle(emit func(string, int)) { fn.sums.flush(emit) }

// clusterStatFn counts clusters per size.
type clusterStatFn struct{ sums statSums }

func (fn *clusterStatFn) StartBundle(func(string, int)) { fn.sums.start() }

func (fn *clusterStatFn) ProcessElement(size int, emit func(string, int)) {
	fn.sums.add(output.StatClusterSizePrefix+strconv.Itoa(size), 1, emit)
}

func (fn *clusterStatFn) FinishBundle(emit func(string, int)) { fn.sums.flush(emit) }

// dropKey keys each dropped page by the kept page that dropped it.
func dropKey(d decidedPage, emit func(string, decidedPage)) {
	if !d.Line.Keep {
		emit(d.Keeper.ID(), d)
	}
}

// clusterFn forms the cluster of one kept page from the pages it dropped.
type clusterFn struct{}

func (*clusterFn) ProcessElement(_ string, dropped func(*decidedPage) bool, emit func(output.Cluster), size func(int)) {
	var c output.Cluster
	var d decidedPage
	for dropped(&d) {
		c.Ref, c.Segment = d.Keeper, d.Line.KeptBySegment
		c.Dropped = append(c.Dropped, d.Line.RecordID)
	}
	slices.Sort(c.Dropped)
	c.Size = 1 + len(c.Dropped)
	emit(c)
	size(c.Size)
}

// WriteDecisions writes the decisions (decidedPage; their rows output.Decision)
// to <out.Dir>/decisions-SSSSS-of-NNNNN, and the clusters (output.Cluster) to
// <out.Dir>/clusters-SSSSS-of-NNNNN, in out's format, see WriteLines.
func WriteDecisions(s beam.Scope, out *Outputs, r DecideResult) {
	s = s.Scope("WriteDecisions")
	WriteLines(s, out, output.Decisions, beam.ParDo(s, decisionLine, r.Decisions))
	WriteLines(s, out, output.Clusters, beam.ParDo(s, clusterLine, r.Clusters))
}

func decisionLine(d decidedPage) (string, error) { return output.Line(d.Line) }

func clusterLine(c output.Cluster) (string, error) { return output.Line(c) }
