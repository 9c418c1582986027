package dedup_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/eval"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/warc"
)

// Decide over hand-made pages: a chain of matched pages A~B~C (A≁C) keeps A
// and C; unmatched pages with the same text keep the higher-priority one;
// an empty text is kept as no-text; clusters list the drops.
func TestDecidePages(t *testing.T) {
	page := func(id, rank, digest string) dedup.Page {
		return dedup.Page{Ref: warc.Ref{File: "f", Offset: int64(len(rank)*100 + int(rank[0])), RecordID: id, URI: "u:" + id}, Rank: rank, Digest: digest}
	}
	pages := []dedup.Page{page("c", "3", "x"), page("a", "1", "x"), page("s2", "5", "t"), page("b", "2", "x"), page("s1", "4", "t"), page("e", "6", "")}
	docs := []dedup.Doc{{Page: dedup.Page{Ref: pages[1].Ref}}, {Page: dedup.Page{Ref: pages[3].Ref}}, {Page: dedup.Page{Ref: pages[0].Ref}}} // a, b, c
	pairs := []match.Pair{{A: 0, B: 1, Jaccard: 0.5}, {A: 1, B: 2, Jaccard: 0.6}}
	ds, cs, err := dedup.Decide(pages, docs, []int{0, 1, 2}, pairs, "spotsigs")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "keep spotsigs", "b": "drop by a spotsigs", "c": "keep spotsigs", "s1": "keep exact-text", "s2": "drop by s1 exact-text", "e": "keep no-text"}
	for _, d := range ds {
		got := "keep " + d.Method
		if !d.Keep {
			got = "drop by " + d.KeptBy + " " + d.Method
		}
		if got != want[d.RecordID] {
			t.Errorf("%s: %s, want %s", d.RecordID, got, want[d.RecordID])
		}
	}
	if len(cs) != 2 || cs[0].RecordID != "a" || cs[0].Size != 2 || cs[1].RecordID != "s1" || cs[1].Dropped[0] != "s2" {
		t.Errorf("clusters %+v", cs)
	}
	if _, _, err := dedup.Decide(pages[:1], docs, []int{0, 1, 2}, nil, "spotsigs"); err == nil {
		t.Error("a document that is not a page: no error")
	}
}

// Collapsed exact copies are decided as the full pair graph decides them:
// on random graphs of random exact-copy groups (ranks independent of the
// representative's record order), Decide with the groups collapsed equals
// Decide over every pair the collapsed lines stand for.
func TestDecideExactGroupsEqualFullGraph(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 0))
	for trial := range 300 {
		n := 2 + r.IntN(14)
		pages := make([]dedup.Page, n)
		docs := make([]dedup.Doc, n)
		perm := r.Perm(n)
		for i := range n {
			ref := warc.Ref{File: "f", Offset: int64(i), RecordID: fmt.Sprintf("r%02d", i), URI: fmt.Sprintf("u%02d", i)}
			pages[i] = dedup.Page{Ref: ref, Rank: fmt.Sprintf("%02d", perm[i]), Digest: "d"}
			docs[i] = dedup.Doc{Page: dedup.Page{Ref: ref}}
		}
		// Groups: each document joins an earlier one's group with p = 0.3;
		// the representative is the group's first document (Ref order).
		repOf := make([]int, n)
		for i := range n {
			repOf[i] = i
			if i > 0 && r.IntN(10) < 3 {
				repOf[i] = repOf[r.IntN(i)]
			}
		}
		var reps []int
		for i, rep := range repOf {
			if rep == i {
				reps = append(reps, i)
			}
		}
		var pairs, full []match.Pair
		for x := range reps {
			for y := x + 1; y < len(reps); y++ {
				if r.IntN(3) == 0 {
					pairs = append(pairs, match.Pair{A: reps[x], B: reps[y], Jaccard: float64(1+r.IntN(9)) / 10})
				}
			}
		}
		identity := make([]int, n)
		for i := range n {
			identity[i] = i
			for j := i + 1; j < n; j++ {
				if repOf[i] == repOf[j] {
					full = append(full, match.Pair{A: i, B: j, Jaccard: 1})
				}
			}
		}
		for _, p := range pairs {
			for i := range n {
				for j := range n {
					if repOf[i] == p.A && repOf[j] == p.B {
						full = append(full, match.Pair{A: min(i, j), B: max(i, j), Jaccard: p.Jaccard})
					}
				}
			}
		}
		got, _, err := dedup.Decide(pages, docs, repOf, pairs, "spotsigs")
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := dedup.Decide(pages, docs, identity, full, "spotsigs")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: repOf %v pairs %v\ncollapsed %+v\nfull      %+v", trial, repOf, pairs, got, want)
		}
	}
}

// The guarantees of the decisions (eval.CheckDecisions) on dedup.Run's
// output for every real WARC in ../shared and for the dev gold set, and one
// decision per page: every document plus every page skipped for no or too
// few signatures.
func TestRunDecisionsGuarantees(t *testing.T) {
	shared := filepath.Join("..", "..", "shared", "data")
	warcs, _ := filepath.Glob(filepath.Join(shared, "warc", "*.warc*"))
	if len(warcs) == 0 {
		t.Skipf("%s absent", shared)
	}
	sets := map[string][]string{"shared WARCs": warcs}
	if gold := filepath.Join(shared, "goldset", "gold.warc.gz"); !testing.Short() {
		if _, err := os.Stat(gold); err == nil {
			sets["dev gold set"] = []string{gold}
		}
	}
	for name, files := range sets {
		t.Run(name, func(t *testing.T) {
			p := config.DefaultParams()
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			res, err := dedup.Run(context.Background(), p, files)
			if err != nil {
				t.Fatal(err)
			}
			pages := len(res.Docs)
			for _, r := range res.Rejects {
				if output.IsPageReason(r.Reason) {
					pages++
				}
			}
			if len(res.Decisions) != pages || len(res.Pages) != pages {
				t.Errorf("%d decisions, %d pages; want %d (documents + no/too few signatures)", len(res.Decisions), len(res.Pages), pages)
			}
			for _, err := range eval.CheckDecisions(res.Decisions, res.Clusters, res.PairRecords(), p) {
				t.Error(err)
			}
			dropped := 0
			for _, d := range res.Decisions {
				if !d.Keep {
					dropped++
				}
			}
			if len(res.Pairs) > 0 && dropped == 0 {
				t.Errorf("%d pairs and nothing dropped", len(res.Pairs))
			}
			t.Logf("%d pages, %d dropped, %d clusters, %d pairs", pages, dropped, len(res.Clusters), len(res.Pairs))
		})
	}
}

// The caps that applied while a page was signed reach its decision line:
// a page cut at --max_tokens says "capped": ["tokens"]; an uncut page has
// no capped field.
func TestDecisionReportsCaps(t *testing.T) {
	p := config.DefaultParams()
	p.MaxTokens = 30
	signer, err := dedup.NewSigner(p)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := p.Policy()
	if err != nil {
		t.Fatal(err)
	}
	text := "<html><body><p>" + strings.Repeat("the cat sat on the mat and the dog lay by the door of the house. ", 20) + "</p></body></html>"
	short := "<html><body><p>the cat sat on the mat and the dog lay by the door.</p></body></html>"
	var pages []dedup.Page
	var docs []dedup.Doc
	for i, payload := range []string{text, short} {
		c := dedup.Candidate{Ref: warc.Ref{File: "f", Offset: int64(i), RecordID: fmt.Sprint("r", i)}, ContentType: "text/html", Payload: []byte(payload)}
		s := dedup.Sign(context.Background(), signer, pol, c)
		if !s.HasPage {
			t.Fatalf("candidate %d: no page", i)
		}
		pages = append(pages, s.Doc.Page)
		if s.IsDoc() {
			docs = append(docs, s.Doc)
		}
	}
	repOf, _ := dedup.Collapse(docs, p.VerifyShare)
	ds, _, err := dedup.Decide(pages, docs, repOf, nil, "spotsigs")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ds[0].Capped, []string{dedup.CapTokens}) || ds[1].Capped != nil {
		t.Fatalf("capped: %q and %q, want [tokens] and none", ds[0].Capped, ds[1].Capped)
	}
	line, _ := json.Marshal(ds[0])
	if !strings.Contains(string(line), `"capped":["tokens"]`) {
		t.Errorf("decision line %s", line)
	}
	if line, _ := json.Marshal(ds[1]); strings.Contains(string(line), "capped") {
		t.Errorf("uncapped decision line %s", line)
	}
}

// Two captures of one URL are versions of one page, not template siblings:
// the same-site τ does not apply to them, verification does. The shared
// WARC of the UK Web Archive's wget test crawl holds archive.org's home
// page captured twice, 3 s apart, its rotating featured items changed
// (weighted Jaccard 0.70, below the same-site τ; the realset's cluster
// r0023). The later capture is dropped for the earlier one; the pages of
// the site at other URLs keep the same-site τ.
func TestRecaptureOfOneURL(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "data", "warc", "ukwa-discovery__IAH-urls-wget.warc.gz")
	if _, err := os.Stat(path); err != nil {
		t.Skip(err)
	}
	p := config.DefaultParams()
	res, err := dedup.Run(context.Background(), p, []string{path})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for i, c := range res.Candidates {
		a, b := res.Docs[c.A].Ref, res.Docs[c.B].Ref
		same := warc.URLKey(a.URI) == warc.URLKey(b.URI)
		if c.Jaccard < p.SameSiteTau && a.Site() == b.Site() && !same {
			t.Errorf("%s and %s: one site, Jaccard %.2f, different URLs, yet a candidate", a.URI, b.URI, c.Jaccard)
		}
		if a.URI == "https://archive.org/" && b.URI == a.URI {
			found = true
			if c.Jaccard >= p.SameSiteTau || !res.Verified[i].OK {
				t.Errorf("the two captures: Jaccard %.2f, verification %+v", c.Jaccard, res.Verified[i])
			}
		}
	}
	if !found {
		t.Fatal("the two captures of https://archive.org/ are not a candidate pair")
	}
	dropped := 0
	for _, d := range res.Decisions {
		if d.URI == "https://archive.org/" && !d.Keep && d.KeptByURI == "https://archive.org/" {
			dropped++
		}
	}
	if dropped != 1 {
		t.Errorf("%d captures of https://archive.org/ dropped for the other, want 1", dropped)
	}
}

// Pages with few signatures are matched, their pairs and exact copies
// verified on their texts whatever their sites (dedup.WeakSignatures).
// The archive.org crawl of testdata/aut__example.warc.gz holds the "log in
// to contribute" notice at two URLs, /contribute.php and /create/, with
// different titles: fewer than 5 signatures each, so before they were
// decided by their exact text and both kept (the realset's cluster r0004).
// Now /create/ is dropped for /contribute.php. No weak pair counts
// without its shares.
func TestShortPagesVerified(t *testing.T) {
	p := config.DefaultParams()
	res, err := dedup.Run(context.Background(), p, []string{filepath.Join("..", "testdata", "aut__example.warc.gz")})
	if err != nil {
		t.Fatal(err)
	}
	weak := 0
	for i, c := range res.Candidates {
		a, b := res.Docs[c.A], res.Docs[c.B]
		if !dedup.Weak(a.Vec.Len(), b.Vec.Len()) {
			continue
		}
		weak++
		if v := res.Verified[i]; v.OK && min(v.ShareA, v.ShareB) < p.VerifyShare {
			t.Errorf("%s and %s: %d and %d signatures, verified at shares %+v", a.URI, b.URI, a.Vec.Len(), b.Vec.Len(), v)
		}
	}
	signatures := map[string]int{}
	for _, d := range res.Docs {
		signatures[d.URI] = d.Vec.Len()
	}
	for _, u := range []string{"http://www.archive.org/create/", "http://www.archive.org/contribute.php"} {
		if n, ok := signatures[u]; !ok || n >= dedup.WeakSignatures {
			t.Errorf("%s: %d signatures (matched: %v), want a short page", u, n, ok)
		}
	}
	for _, d := range res.Decisions {
		if d.URI == "http://www.archive.org/create/" && (d.Keep || d.KeptByURI != "http://www.archive.org/contribute.php") {
			t.Errorf("/create/: %+v, want dropped for /contribute.php", d)
		}
	}
	t.Logf("%d candidate pairs with a short page", weak)
}

// Pages made only of text other pages carry (dedup.ResolveBlocks) are
// decided on their signatures, not on their exact text. bitchmagazine.org's
// tag pages in eval/realpages print one post's excerpt under the tag's
// heading; the excerpt is also on the post's page and so a shared block,
// and the one-entry tag pages kacey-musgraves and women-in-country were
// left without signatures and kept apart by their headings (the set's
// cluster r0001). Now one is dropped for the other, verified, and the post
// page, which holds the excerpt beside its own text, is kept.
func TestPagesOfSharedTextDecided(t *testing.T) {
	p := config.DefaultParams()
	res, err := dedup.Run(context.Background(), p, []string{filepath.Join("..", "eval", "realpages", "warcs", "ipwb__sample-1.warc.gz")})
	if err != nil {
		t.Fatal(err)
	}
	const a, b = "http://bitchmagazine.org/tag/kacey-musgraves", "http://bitchmagazine.org/tag/women-in-country"
	dropped := 0
	for _, d := range res.Decisions {
		switch d.URI {
		case a, b:
			if !d.Keep {
				dropped++
				if d.KeptByURI != a && d.KeptByURI != b || d.Method != config.MethodSpotSigs {
					t.Errorf("%s dropped for %s by %s, want for the other tag page by its signatures", d.URI, d.KeptByURI, d.Method)
				}
			}
		case "http://bitchmagazine.org/post/kacey-musgraves-feminist-country-music-review":
			if !d.Keep {
				t.Errorf("the post page dropped for %s", d.KeptByURI)
			}
		}
	}
	if dropped != 1 {
		t.Errorf("%d of the two one-entry tag pages dropped, want 1", dropped)
	}
	for i, c := range res.Candidates {
		x, y := res.Docs[c.A].Ref.URI, res.Docs[c.B].Ref.URI
		if (x == a || x == b) && (y == a || y == b) && !res.Verified[i].OK {
			t.Errorf("the two tag pages: verification %+v", res.Verified[i])
		}
	}
}
