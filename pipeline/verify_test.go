package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// regionTable is a table of n rows of names and figures, as regional result
// pages print under one introduction: every cell is far too short for a
// spot signature (blocks under 20 tokens give none), so it changes a page's
// main text and not its vector. seed picks the names and figures.
func regionTable(seed, n int) string {
	var b strings.Builder
	b.WriteString("<table>")
	for i := range n {
		fmt.Fprintf(&b, "<tr><td>Ward %c%d Hollins</td><td>%d votes</td><td>%d.%d%%</td></tr>", 'A'+rune((seed+i)%26), seed*1000+i, 97*seed+13*i, (seed+i)%100, i%10)
	}
	b.WriteString("</table>")
	return b.String()
}

// withTable returns a real page's bytes with table inserted after the end
// of its longest paragraph, inside the container that holds it (the page's
// main content, layout.go).
func withTable(t *testing.T, page, table string) string {
	t.Helper()
	best, at := 0, -1
	for _, m := range regexp.MustCompile(`(?s)<p[ >].*?</p>`).FindAllStringIndex(page, -1) {
		if n := len(strings.Fields(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page[m[0]:m[1]], " "))); n > best {
			best, at = n, m[1]
		}
	}
	if best < 10 {
		t.Fatal("no paragraph of 10 words")
	}
	return page[:at] + table + page[at:]
}

// Two pages of one site with identical spot-signature vectors but
// different main texts (regional result pages: one introduction, different
// names and figures) are not copies: both are kept, and their pair says why
// (near_duplicate false, shares below --verify_share). A third page with
// the first one's table but one figure changed is a copy. Built from a real
// page of testdata, bytes unchanged but for the tables. Without
// verification (--verify_share=0, the paper's rule) the regional pages are
// one exact-copy group and one of them is dropped.
func TestIdenticalVectorsDifferentTextsKept(t *testing.T) {
	pages := payloads(t, "dolma__sample-0000.warc.gz")
	var uris []string
	for u, p := range pages {
		if strings.Count(p, "<p") >= 3 {
			uris = append(uris, u)
		}
	}
	sort.Strings(uris)
	t1, t2 := regionTable(1, 120), regionTable(2, 120)
	// The first page (in URI order) where the table lands in the main
	// content.
	ex, err := spotsig.NewExtractor(testConfig(nil).SpotSigOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	base := ""
	for _, u := range uris {
		if m, err := ex.MainText([]byte(withTable(t, pages[u], t1)), "text/html"); err == nil && strings.Contains(string(m), "Hollins") {
			base = pages[u]
			break
		}
	}
	if base == "" {
		t.Fatal("no page of the file takes the table into its main content")
	}
	near := strings.Replace(t1, ">97 votes<", ">98 votes<", 1)
	if near == t1 {
		t.Fatal("the figure to change is not in the table")
	}
	bodies := []string{withTable(t, base, t1), withTable(t, base, t2), withTable(t, base, near)}
	names := []string{"http://results.example.org/region/north", "http://results.example.org/region/south", "http://www.results.example.org/region/north?print=1"}

	// The premise: equal vectors, main texts that share little.
	cfg := testConfig(nil)
	signer, err := dedup.NewSigner(cfg.Params)
	if err != nil {
		t.Fatal(err)
	}
	pol, _ := cfg.Params.Policy()
	var signed []dedup.Signed
	for i, b := range bodies {
		s := dedup.Sign(context.Background(), signer, pol, dedup.Candidate{ContentType: "text/html", Payload: []byte(b)})
		s.Doc.URI = names[i]
		signed = append(signed, s)
	}
	merged := func(s dedup.Signed) spotsig.Vector { return spotsig.MergeBlocks(s.Doc.Vec, s.Doc.Blocks, nil) }
	if dedup.ExactKey(merged(signed[0])) != dedup.ExactKey(merged(signed[1])) || merged(signed[0]).Len() == 0 {
		t.Fatalf("the regional pages' vectors differ (%d, %d signatures): the test cannot see verification", merged(signed[0]).Len(), merged(signed[1]).Len())
	}
	if a, b := spotsig.Shares(signed[0].Doc.Sketch, signed[1].Doc.Sketch); min(a, b) >= cfg.VerifyShare {
		t.Fatalf("the regional pages' main texts share %.2f / %.2f: the table is not in the main text", a, b)
	}

	path := filepath.Join(t.TempDir(), "regions.warc.gz")
	writeWARC(t, path, names, []string{"2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z", "2026-01-01T00:00:02Z"}, bodies)
	res, err := dedup.Run(context.Background(), cfg.Params, []string{path})
	if err != nil {
		t.Fatal(err)
	}
	byURI := map[string]output.Decision{}
	for _, d := range res.Decisions {
		byURI[d.URI] = d
	}
	if !byURI[names[0]].Keep || !byURI[names[1]].Keep {
		t.Errorf("regional pages: north kept %v, south kept %v (dropped for %s); want both kept", byURI[names[0]].Keep, byURI[names[1]].Keep, byURI[names[1]].KeptByURI)
	}
	if d := byURI[names[2]]; d.Keep || d.KeptByURI != names[0] {
		t.Errorf("the copy with one figure changed: kept %v, kept by %q; want dropped for %s", d.Keep, d.KeptByURI, names[0])
	}
	var rejected int
	for _, pr := range res.PairRecords() {
		if (pr.AURI == names[1] || pr.BURI == names[1]) && !pr.NearDuplicate && pr.Jaccard == 1 && min(pr.AShare, pr.BShare) < cfg.VerifyShare {
			rejected++
		}
	}
	if rejected == 0 {
		t.Errorf("no pairs line says why the south page is kept: %+v", res.PairRecords())
	}

	p0 := cfg.Params
	p0.VerifyShare = 0
	res0, err := dedup.Run(context.Background(), p0, []string{path})
	if err != nil {
		t.Fatal(err)
	}
	if d := res0.Decisions; d[0].Keep == d[1].Keep {
		t.Errorf("without verification: north kept %v, south kept %v; want one dropped", d[0].Keep, d[1].Keep)
	}
}

// A browser-rendering record's page is a page of the site it renders: two
// real pages of one site (Wayback captures, all on archive.org, whose pair
// has a weighted Jaccard between τ and the same-site τ) stay apart when one
// of them is a render record of its page (target URI "onreadydom:http://…"),
// as they do as plain captures; were the render record a site of its own,
// the pair would be across sites and one page would be dropped for the
// other (checked: a render record of another site is dropped).
func TestRenderRecordIsItsPagesSite(t *testing.T) {
	const file = "copycat__snapshot-wayback-topic-02.warc.gz" // UTF-8 pages, as writeWARC labels them
	cfg := testConfig(nil)
	p0 := cfg.Params
	p0.SameSiteTau, p0.VerifyShare = 0, 0
	res, err := dedup.Run(context.Background(), p0, []string{filepath.Join(testdata, file)})
	if err != nil {
		t.Fatal(err)
	}
	pages := payloads(t, file)
	// Two pages are too few for the shared-block statistic (a block beside
	// the main content of both would be dropped from both): the default
	// parameters less that rule.
	pp := cfg.Params
	pp.SharedBlockPages = 0
	// run returns the decision of the page that is dropped, or of b when
	// both are kept.
	run := func(a, b, uriB string) output.Decision {
		path := filepath.Join(t.TempDir(), "render.warc.gz")
		writeWARC(t, path, []string{a, uriB}, []string{"2009-01-01T00:00:00Z", "2009-01-01T00:00:01Z"}, []string{pages[a], pages[b]})
		res, err := dedup.Run(context.Background(), pp, []string{path})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Decisions) != 2 {
			t.Fatalf("%d decisions, want 2", len(res.Decisions))
		}
		if !res.Decisions[0].Keep {
			return res.Decisions[0]
		}
		return res.Decisions[1]
	}
	// A pair of siblings that, on two sites, would be a near-duplicate: the
	// most similar first.
	prs := res.PairRecords()
	sort.Slice(prs, func(i, j int) bool { return prs[i].Jaccard > prs[j].Jaccard })
	var a, b string
	for _, pr := range prs {
		if !pr.Exact && pr.Jaccard < cfg.SameSiteTau && !run(pr.AURI, pr.BURI, "onreadydom:http://other-shop.example/item").Keep {
			a, b = pr.AURI, pr.BURI
			break
		}
	}
	if a == "" {
		t.Fatal("no pair of template siblings that one site's rules keep apart and two sites' do not")
	}
	if d := run(a, b, b); !d.Keep {
		t.Fatalf("plain captures: %s dropped for %s at %.2f", d.URI, d.KeptByURI, d.Jaccard)
	}
	if d := run(a, b, "onreadydom:"+b); !d.Keep {
		t.Errorf("with a render record of %s: %s dropped for %s at %.2f: not seen as the shop's page", b, d.URI, d.KeptByURI, d.Jaccard)
	}
}
