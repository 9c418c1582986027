package eval

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
)

// TestMeasureVerificationRealPages reads every judged pair of
// eval/realpages and checks what docs/quality.md ("Verification") reports
// of the sketch: every pair read, shares in [0, 1], and a small error of
// the smaller share.
func TestMeasureVerificationRealPages(t *testing.T) {
	truth := filepath.Join("realpages", "truth.tsv")
	rep, err := MeasureVerification(context.Background(), config.DefaultParams(), truth, []string{filepath.Join("realpages", "warcs", "*.warc*")}, DefaultSiteLines)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := LoadRealTruth(truth)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Missing != 0 || len(rep.Pairs) != len(rt.Judged()) || len(rep.Pairs) == 0 {
		t.Fatalf("%d pairs read, %d missing, want all %d judged pairs", len(rep.Pairs), rep.Missing, len(rt.Judged()))
	}
	dups := 0
	for _, p := range rep.Pairs {
		for _, v := range []float64{p.ExactAB, p.ExactBA, p.EstAB, p.EstBA, p.SiteAB, p.SiteBA} {
			if v < 0 || v > 1 {
				t.Fatalf("%s %s: share %v outside [0, 1]", p.A, p.B, v)
			}
		}
		if p.Dup {
			dups++
		}
	}
	s := rep.Summarize(0.8)
	if s.Dups != dups || s.Dups+s.Diffs != len(rep.Pairs) {
		t.Errorf("summary counts %d dup + %d different, want %d + %d", s.Dups, s.Diffs, dups, len(rep.Pairs)-dups)
	}
	if s.MeanAbsErr > 0.02 || s.MaxAbsErr > 0.2 {
		t.Errorf("sketch error of the smaller share: mean %.4f, largest %.3f", s.MeanAbsErr, s.MaxAbsErr)
	}
}
