package dedup

import (
	"testing"

	"github.com/ndd-beam/ndd-beam/config"

	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

func vec(hs ...uint64) spotsig.Vector { return spotsig.NewVector(hs) }

// The shared-block rule: a block outside the main content of pages with
// >= minPages different contexts, and of more pages than it is main
// content of, is dropped from every page that has it; the periphery of
// exact copies and a block that is mostly main content (a syndicated
// article) stay.
func TestDropSharedBlocks(t *testing.T) {
	article := spotsig.Block{Hash: 1, Main: true, Vec: vec(10, 11, 12)}
	notice := spotsig.Block{Hash: 2, Vec: vec(20, 21)}
	syndicated := func(main bool) spotsig.Block { return spotsig.Block{Hash: 3, Main: main, Vec: vec(30, 31)} }
	own := func(h uint64) spotsig.Block { return spotsig.Block{Hash: h, Vec: vec(h * 100)} }
	other := spotsig.Block{Hash: 7, Main: true, Vec: vec(70, 71)}
	docs := []Doc{
		{Ref: warc.Ref{RecordID: "a"}, Blocks: []spotsig.Block{article, notice}},
		{Ref: warc.Ref{RecordID: "b"}, Blocks: []spotsig.Block{other, notice}},
		{Ref: warc.Ref{RecordID: "s1"}, Blocks: []spotsig.Block{syndicated(true), own(4)}},
		{Ref: warc.Ref{RecordID: "s2"}, Blocks: []spotsig.Block{syndicated(true), own(5)}},
		{Ref: warc.Ref{RecordID: "s3"}, Blocks: []spotsig.Block{syndicated(false), own(6)}},
		{Ref: warc.Ref{RecordID: "s4"}, Blocks: []spotsig.Block{syndicated(false)}},
	}
	blocks, sigs := DropSharedBlocks(docs, 2)
	if blocks != 2 || sigs != 4 {
		t.Errorf("dropped %d blocks, %d signatures; want the notice twice: 2, 4", blocks, sigs)
	}
	want := [][]uint64{{10, 11, 12}, {70, 71}, {30, 31, 400}, {30, 31, 500}, {30, 31, 600}, {30, 31}}
	for i, d := range docs {
		if d.Blocks != nil || !equal(d.Vec.Hashes, want[i]) {
			t.Errorf("%s: %v (blocks %v), want %v", d.RecordID, d.Vec.Hashes, d.Blocks, want[i])
		}
	}
	// Exact copies: the block beside the same main content on three
	// copies is one context, and stays.
	docs = []Doc{{Blocks: []spotsig.Block{article, notice}}, {Blocks: []spotsig.Block{article, notice}}, {Blocks: []spotsig.Block{article, notice}}}
	if b, _ := DropSharedBlocks(docs, 2); b != 0 || docs[0].Vec.Len() != 5 {
		t.Errorf("exact copies: dropped %d, vector %v", b, docs[0].Vec)
	}
	// Off: every block joins the vector.
	docs = []Doc{{Blocks: []spotsig.Block{article, notice}}, {Blocks: []spotsig.Block{notice}}}
	if b, _ := DropSharedBlocks(docs, 0); b != 0 || docs[0].Vec.Len() != 5 {
		t.Errorf("off: dropped %d, vector %v", b, docs[0].Vec)
	}
}

func equal(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// BlockCount.Add is associative and commutative and keeps the smallest
// distinct contexts, so any combining order gives the same verdict.
func TestBlockCountAdd(t *testing.T) {
	var parts []BlockCount
	for i := range 200 {
		parts = append(parts, BlockCount{Periphery: 1, Contexts: []uint64{uint64((i * 7919) % 150)}})
	}
	var fwd, rev BlockCount
	for i := range parts {
		fwd = fwd.Add(parts[i])
		rev = parts[i].Add(rev)
	}
	var tree []BlockCount = parts
	for len(tree) > 1 {
		var next []BlockCount
		for i := 0; i < len(tree); i += 2 {
			if i+1 < len(tree) {
				next = append(next, tree[i+1].Add(tree[i]))
			} else {
				next = append(next, tree[i])
			}
		}
		tree = next
	}
	for _, c := range []BlockCount{rev, tree[0]} {
		if c.Periphery != 200 || !equal(c.Contexts, fwd.Contexts) {
			t.Fatalf("orders differ: %+v vs %+v", c, fwd)
		}
	}
	if len(fwd.Contexts) != config.MaxSharedBlockPages || fwd.Contexts[0] != 0 || fwd.Contexts[config.MaxSharedBlockPages-1] != config.MaxSharedBlockPages-1 {
		t.Errorf("contexts %v: want the %d smallest of 0..149", fwd.Contexts, config.MaxSharedBlockPages)
	}
}
