package pipeline

import (
	"context"
	"reflect"
	"testing"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/index"
)

// --write_index: the job adds one committed segment to the index
// directory holding exactly the pages dedup.Run keeps, each row as
// dedup.Priors makes it (index.WriteSegment's rows), in 2 shards; a second
// run adds a second segment and leaves the first as it was.
func TestJobWritesIndexSegment(t *testing.T) {
	ctx := context.Background()
	cfg := testConfig(testdataGlobs(t))
	cfg.Shards = 2
	cfg.WriteIndex = t.TempDir()
	out := runJob(t, "direct", cfg)
	sum := readSummary(t, out)
	_, _, _, res := reference(t, cfg, sum.Files)
	want := map[string]dedup.Prior{}
	for _, p := range dedup.Priors(res, "") {
		want[p.ID()] = p
	}
	got, infos, err := index.Load(ctx, []string{cfg.WriteIndex}, index.AgreementOf(cfg.Params))
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 1 || infos[0].Meta.Pages != len(want) || len(infos[0].Meta.Files) != 2 {
		t.Fatalf("segments %+v; want one of %d pages in 2 files", infos, len(want))
	}
	if sum.IndexSegment != infos[0].Meta.Segment || sum.IndexDir != cfg.WriteIndex {
		t.Errorf("summary names segment %q of %q; wrote %q of %q", sum.IndexSegment, sum.IndexDir, infos[0].Meta.Segment, cfg.WriteIndex)
	}
	if len(got) != len(want) || sum.Kept != len(want) {
		t.Fatalf("index has %d pages, summary %d kept, dedup.Run kept %d", len(got), sum.Kept, len(want))
	}
	for _, g := range got {
		w, ok := want[g.ID()]
		if !ok {
			t.Errorf("index page %s not kept by dedup.Run", g.Key())
			continue
		}
		if g.Segment != infos[0].Meta.Segment {
			t.Errorf("page %s of segment %q in segment %q", g.Key(), g.Segment, infos[0].Meta.Segment)
		}
		g.Segment = ""
		if len(g.Vec.Hashes) == 0 && len(w.Vec.Hashes) == 0 {
			g.Vec = w.Vec
		}
		if len(g.Capped) == 0 && len(w.Capped) == 0 {
			g.Capped = w.Capped
		}
		w.Capped = nil // not in the index
		g.Capped = nil
		if !reflect.DeepEqual(g, w) {
			t.Errorf("index page\n%+v\nwant\n%+v", g, w)
		}
	}

	cfg.Output = ""
	runJob(t, "direct", cfg)
	infos2, err := index.List(ctx, []string{cfg.WriteIndex})
	if err != nil {
		t.Fatal(err)
	}
	if len(infos2) != 2 {
		t.Fatalf("%d segments after two runs", len(infos2))
	}
	for _, in := range infos2 {
		if in.Meta.Segment == infos[0].Meta.Segment && !reflect.DeepEqual(in, infos[0]) {
			t.Errorf("first segment changed: %+v, was %+v", in, infos[0])
		}
	}
}
