package dedup

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/match"

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
	// A syndicated article: two paragraphs, the main content of two copies
	// and beside it on two others.
	syndicated := func(main bool) []spotsig.Block {
		return []spotsig.Block{{Hash: 3, Main: main, Vec: vec(30, 31)}, {Hash: 8, Main: main, Vec: vec(80)}}
	}
	own := func(h uint64) spotsig.Block { return spotsig.Block{Hash: h, Vec: vec(h * 100)} }
	other := spotsig.Block{Hash: 7, Main: true, Vec: vec(70, 71)}
	docs := []Doc{
		{Page: Page{Ref: warc.Ref{RecordID: "a"}}, Blocks: []spotsig.Block{article, notice}},
		{Page: Page{Ref: warc.Ref{RecordID: "b"}}, Blocks: []spotsig.Block{other, notice}},
		{Page: Page{Ref: warc.Ref{RecordID: "s1"}}, Blocks: append(syndicated(true), own(4))},
		{Page: Page{Ref: warc.Ref{RecordID: "s2"}}, Blocks: append(syndicated(true), own(5))},
		{Page: Page{Ref: warc.Ref{RecordID: "s3"}}, Blocks: append(syndicated(false), own(6))},
		{Page: Page{Ref: warc.Ref{RecordID: "s4"}}, Blocks: syndicated(false)},
	}
	blocks, sigs, _ := DropSharedBlocks(docs, 2)
	if blocks != 2 || sigs != 4 {
		t.Errorf("dropped %d blocks, %d signatures; want the notice twice: 2, 4", blocks, sigs)
	}
	want := [][]uint64{{10, 11, 12}, {70, 71}, {30, 31, 80, 400}, {30, 31, 80, 500}, {30, 31, 80, 600}, {30, 31, 80}}
	for i, d := range docs {
		if d.Blocks != nil || !equal(d.Vec.Hashes, want[i]) {
			t.Errorf("%s: %v (blocks %v), want %v", d.RecordID, d.Vec.Hashes, d.Blocks, want[i])
		}
	}
	// Exact copies: the block beside the same main content on three
	// copies is one context, and stays.
	docs = []Doc{{Blocks: []spotsig.Block{article, notice}}, {Blocks: []spotsig.Block{article, notice}}, {Blocks: []spotsig.Block{article, notice}}}
	if b, _, _ := DropSharedBlocks(docs, 2); b != 0 || docs[0].Vec.Len() != 5 {
		t.Errorf("exact copies: dropped %d, vector %v", b, docs[0].Vec)
	}
	// A notice that is the largest block of short pages (their main
	// content by the layout) on pages of 2·minPages different contexts is
	// shared too.
	docs = nil
	for i := range 4 {
		docs = append(docs, Doc{Blocks: []spotsig.Block{{Hash: 2, Main: true, Vec: vec(20, 21)}, own(uint64(10 + i))}})
	}
	if b, _, _ := DropSharedBlocks(docs, 2); b != 4 || docs[0].Vec.Len() != 1 {
		t.Errorf("notice as main content of short pages: dropped %d, vector %v", b, docs[0].Vec)
	}
	// Off: every block joins the vector.
	docs = []Doc{{Blocks: []spotsig.Block{article, notice}}, {Blocks: []spotsig.Block{notice}}}
	if b, _, _ := DropSharedBlocks(docs, 0); b != 0 || docs[0].Vec.Len() != 5 {
		t.Errorf("off: dropped %d, vector %v", b, docs[0].Vec)
	}
}

// A page every block of which is shared keeps its blocks, its signatures
// hashed with its site: two such pages of one site are equal, a page of
// another site that shows the same text alone shares no signature with
// them, and the pages that carry the text beside their own still lose it.
func TestPagesOfSharedBlocksOnly(t *testing.T) {
	notice := spotsig.Block{Hash: 2, Main: true, Vec: vec(20, 21, 21)}
	own := func(h uint64) spotsig.Block { return spotsig.Block{Hash: h, Main: true, Vec: vec(h * 100)} }
	x, y := match.SiteOf("x.example", "x.example/a"), match.SiteOf("y.example", "y.example/a")
	var docs []Doc
	for i := range 4 { // the notice beside four pages' own text
		docs = append(docs, Doc{Site: x, Blocks: []spotsig.Block{notice, own(uint64(10 + i))}})
	}
	docs = append(docs, Doc{Site: x, Blocks: []spotsig.Block{notice}}, Doc{Site: x, Blocks: []spotsig.Block{notice}},
		Doc{Site: y, Blocks: []spotsig.Block{notice}}, Doc{Blocks: []spotsig.Block{notice}})
	blocks, sigs, only := DropSharedBlocks(docs, 2)
	if only != 3 {
		t.Errorf("%d pages of shared text only, want 3", only)
	}
	if blocks != 5 || sigs != 15 {
		t.Errorf("dropped %d blocks, %d signatures; want the notice beside own text and on the page without a site: 5, 15", blocks, sigs)
	}
	for i, d := range docs[:4] {
		if !equal(d.Vec.Hashes, []uint64{uint64(10+i) * 100}) {
			t.Errorf("page %d with its own text: %v, want its own signature alone", i, d.Vec.Hashes)
		}
	}
	n1, n2, n3 := docs[4].Vec, docs[5].Vec, docs[6].Vec
	if n1.Len() != 3 || !equal(n1.Hashes, n2.Hashes) || !slices.Equal(n1.Freqs, n2.Freqs) {
		t.Errorf("two notice pages of one site: %v and %v, want one vector of 3 signatures", n1, n2)
	}
	for _, h := range n3.Hashes {
		if slices.Contains(n1.Hashes, h) || h == 20 || h == 21 {
			t.Errorf("notice page of another site: %v shares a signature with %v or the notice's", n3.Hashes, n1.Hashes)
		}
	}
	if n3.Len() != 3 || docs[7].Vec.Len() != 0 {
		t.Errorf("notice page of another site: %v; without a site: %v, want none", n3, docs[7].Vec)
	}
	for i, d := range docs {
		if d.SharedText != (i >= 4 && i <= 6) {
			t.Errorf("page %d: SharedText %v", i, d.SharedText)
		}
	}
	// Their exact-copy groups are their texts': the byte-identical page of
	// the other site joins the first (its vector differs), a page of the
	// same site with another text does not (its vector is the same).
	sk := spotsig.SketchText([]byte("the notice and nothing else"))
	for i, digest := range []string{"n", "other", "n"} {
		docs[4+i].Ref, docs[4+i].Digest, docs[4+i].Sketch = warc.Ref{File: "f", Offset: int64(i), RecordID: fmt.Sprint("r", i)}, digest, sk
	}
	repOf, _ := Collapse(docs[4:7], 0.8)
	if !slices.Equal(repOf, []int{0, 1, 0}) {
		t.Errorf("exact-copy groups of the notice pages: %v, want [0 1 0]", repOf)
	}
}

// A page is reported in the language of its main content once its
// shared blocks are dropped: an English notice that is the
// largest block, and the layout's main content, of a short German page
// reports the page as English only until the notice is known to be
// shared; the page's own blocks then say German, main content first.
func TestLanguageAfterSharedBlocks(t *testing.T) {
	notice := spotsig.Block{Hash: 2, Main: true, Lang: "en", Vec: vec(20, 21, 22, 23)}
	menu := spotsig.Block{Hash: 3, Lang: "de", Vec: vec(30)}
	para := spotsig.Block{Hash: 4, Lang: "de", Vec: vec(40, 41)}
	quote := spotsig.Block{Hash: 5, Main: true, Lang: "fr", Vec: vec(50)}
	none := func(uint64) bool { return false }
	isNotice := func(h uint64) bool { return h == notice.Hash }
	for _, c := range []struct {
		blocks []spotsig.Block
		shared func(uint64) bool
		want   string
	}{
		{[]spotsig.Block{notice, menu, para}, none, "en"},                        // the notice is the main content
		{[]spotsig.Block{notice, menu, para}, isNotice, "de"},                    // until it is shared
		{[]spotsig.Block{notice, quote, menu, para}, isNotice, "fr"},             // main content first, however short
		{[]spotsig.Block{notice}, isNotice, ""},                                  // nothing left
		{[]spotsig.Block{{Hash: 6, Lang: "nl", Vec: vec(60)}, menu}, none, "de"}, // a tie: the smaller code
		{nil, none, ""},
	} {
		if got := Language(c.blocks, c.shared); got != c.want {
			t.Errorf("Language(%v) = %q, want %q", c.blocks, got, c.want)
		}
	}
	d, _, _, _ := ResolveBlocks(Doc{Lang: "en", Blocks: []spotsig.Block{notice, menu, para}}, isNotice, isNotice)
	if d.Lang != "de" {
		t.Errorf("ResolveBlocks: Lang %q, want de", d.Lang)
	}
	if d, _, _, _ := ResolveBlocks(Doc{Lang: "en", Vec: vec(1)}, none, none); d.Lang != "en" {
		t.Errorf("ResolveBlocks without blocks: Lang %q, want the signer's en", d.Lang)
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

// A post shown in full on many pages beside other posts (a blog's post
// page, its print version, tag and archive pages) keeps the paragraphs
// that have the same neighbours wherever it is shown; a two-paragraph
// notice inserted on as many pages, whose neighbours change from page to
// page, is dropped, also where it is the main content.
func TestSharedBlocksNeighbours(t *testing.T) {
	// The post: paragraphs 1001..1005 in order; other posts: paragraphs
	// 10i and 10i+1 (smaller hashes, so a listing's context is another
	// post's).
	para := func(h, prev, next uint64) spotsig.Block {
		return spotsig.Block{Hash: h, Main: true, Prev: prev, Next: next, Vec: vec(h*10, h*10+1)}
	}
	post := func(prev, next uint64) []spotsig.Block {
		return []spotsig.Block{para(1001, prev, 1002), para(1002, 1001, 1003), para(1003, 1002, 1004), para(1004, 1003, 1005), para(1005, 1004, next)}
	}
	docs := []Doc{{Page: Page{Ref: warc.Ref{RecordID: "post"}}, Blocks: post(0, 0)}, {Page: Page{Ref: warc.Ref{RecordID: "print"}}, Blocks: post(0, 0)}}
	for i := uint64(1); i <= 6; i++ {
		// A listing: the post, then another post of two paragraphs.
		other := []spotsig.Block{para(10*i, 1005, 10*i+1), para(10*i+1, 10*i, 0)}
		docs = append(docs, Doc{Page: Page{Ref: warc.Ref{RecordID: fmt.Sprint("tag", i)}}, Blocks: append(post(0, 10*i), other...)})
	}
	// A notice of two paragraphs after each page's own paragraph.
	for i := uint64(1); i <= 6; i++ {
		docs = append(docs, Doc{Page: Page{Ref: warc.Ref{RecordID: fmt.Sprint("page", i)}},
			Blocks: []spotsig.Block{para(100+i, 0, 900), para(900, 100+i, 901), para(901, 900, 0)}})
	}
	counts := BlockCounts(docs)
	for h, want := range map[uint64]bool{1001: true, 1002: false, 1003: false, 1004: false, 1005: true, 900: true, 901: true, 10: false} {
		if got := counts[h].Shared(2); got != want {
			t.Errorf("block %d (%+v): shared %v, want %v", h, counts[h], got, want)
		}
	}
	DropSharedBlocks(docs, 2)
	if !equal(docs[0].Vec.Hashes, []uint64{10020, 10021, 10030, 10031, 10040, 10041}) || !equal(docs[1].Vec.Hashes, docs[0].Vec.Hashes) {
		t.Errorf("post %v, print %v: want the inner paragraphs", docs[0].Vec.Hashes, docs[1].Vec.Hashes)
	}
	if last := docs[len(docs)-1]; !equal(last.Vec.Hashes, []uint64{1060, 1061}) {
		t.Errorf("page with the notice: %v, want its own paragraph only", last.Vec.Hashes)
	}
}

// BlockCount.Add is associative and commutative and keeps the smallest
// distinct contexts, so any combining order gives the same verdict; Merge
// (in place) gives what Add gives.
func TestBlockCountAdd(t *testing.T) {
	var parts []BlockCount
	for i := range 200 {
		parts = append(parts, BlockCount{Periphery: 1, Contexts: []uint64{uint64((i * 7919) % 150)}})
	}
	var fwd, rev, merged BlockCount
	for i := range parts {
		fwd = fwd.Add(parts[i])
		rev = parts[i].Add(rev)
		merged.Merge(parts[i])
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
	for _, c := range []BlockCount{rev, tree[0], merged} {
		if c.Periphery != 200 || !equal(c.Contexts, fwd.Contexts) {
			t.Fatalf("orders differ: %+v vs %+v", c, fwd)
		}
	}
	if len(fwd.Contexts) != config.MaxSharedBlockPages || fwd.Contexts[0] != 0 || fwd.Contexts[config.MaxSharedBlockPages-1] != config.MaxSharedBlockPages-1 {
		t.Errorf("contexts %v: want the %d smallest of 0..149", fwd.Contexts, config.MaxSharedBlockPages)
	}
}

// Contexts.Of equals the direct definition (the smallest other main block,
// else the smallest other block, else 0) for every block.
func TestContextsOf(t *testing.T) {
	for _, blocks := range [][]spotsig.Block{
		nil,
		{{Hash: 5}},
		{{Hash: 5, Main: true}},
		{{Hash: 9, Main: true}, {Hash: 3}, {Hash: 7, Main: true}, {Hash: 1}},
		{{Hash: 9}, {Hash: 3}, {Hash: 7}},
		{{Hash: 2, Main: true}, {Hash: 8}},
	} {
		c := NewContexts(blocks)
		for _, x := range append(blocks, spotsig.Block{Hash: 100}) {
			var want uint64
			found := false
			for _, main := range []bool{true, false} {
				for _, b := range blocks {
					if b.Hash != x.Hash && (b.Main || !main) && (!found || b.Hash < want) {
						want, found = b.Hash, true
					}
				}
				if found {
					break
				}
			}
			if got := c.Of(x.Hash); got != want {
				t.Errorf("blocks %v: context apart from %d = %d, want %d", blocks, x.Hash, got, want)
			}
		}
	}
}

// TestWholeTextLessSharedBoilerplate runs the job in process on the real
// bitchmagazine.org pages of eval/realpages. A post captured without the
// site's chrome and the tag pages that print it whole inside the chrome
// (navigation, a subscription form, recent comments, on 11 of the 63
// captured pages) are one document by the set's labels. Their whole texts
// share about 0.2; with the blocks and short lines the corpus rule finds
// shared left out of the whole-text sketch (spotsig.Sketch.LessShared)
// the pair verifies, and each tag page is dropped for the post. With the
// shared-block rule off the whole text keeps its chrome and the pair
// fails verification.
func TestWholeTextLessSharedBoilerplate(t *testing.T) {
	const post = "http://bitchmagazine.org/post/on-our-radar-todays-feminist-news-roundup-35"
	tags := []string{"http://bitchmagazine.org/tag/femen", "http://bitchmagazine.org/tag/homonationalism", "http://bitchmagazine.org/tag/immigration-reform-0"}
	file := filepath.Join("..", "eval", "realpages", "warcs", "ipwb__sample-1.warc.gz")
	verified := func(p config.Params) map[string]Verification {
		res, err := Run(t.Context(), p, []string{file})
		if err != nil {
			t.Fatal(err)
		}
		// The verification of the candidate pair of the post and each
		// tag page's representative (tag pages that are exact copies of
		// each other are one group).
		rep := map[string]string{}
		for i, d := range res.Docs {
			rep[d.URI] = res.Docs[res.RepOf[i]].URI
		}
		out := map[string]Verification{}
		for i, c := range res.Candidates {
			a, b := res.Docs[c.A].URI, res.Docs[c.B].URI
			for _, tag := range tags {
				if (a == post && b == rep[tag]) || (b == post && a == rep[tag]) {
					out[tag] = res.Verified[i]
				}
			}
		}
		if p.SharedBlockPages > 0 {
			for _, d := range res.Decisions {
				if slices.Contains(tags, d.URI) && (d.Keep || d.KeptByURI != post) {
					t.Errorf("%s: kept %v, kept by %s; want dropped for the post", d.URI, d.Keep, d.KeptByURI)
				}
			}
		}
		return out
	}
	on := verified(config.DefaultParams())
	off := config.DefaultParams()
	off.SharedBlockPages = 0
	without := verified(off)
	for _, tag := range tags {
		v, ok := on[tag]
		if !ok || !v.OK {
			t.Errorf("%s: %+v (a candidate: %v), want verified", tag, v, ok)
		}
		if w, ok := without[tag]; ok && w.OK {
			t.Errorf("%s with the shared-block rule off: %+v, want not verified", tag, w)
		}
		t.Logf("%s: shares %.3f/%.3f; with the rule off %.3f/%.3f", tag, v.ShareA, v.ShareB, without[tag].ShareA, without[tag].ShareB)
	}
}
