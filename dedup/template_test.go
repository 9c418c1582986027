package dedup

import (
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// A capture's host is that of the URL it captures: replay-system and
// render-record URIs of one page, with and without "www." and a default
// port, are one host; another host of the same site is not.
func TestHostOf(t *testing.T) {
	host := func(uri string) uint64 { return HostOf(Page{Ref: warc.Ref{URI: uri}}) }
	same := []string{
		"http://en.wikipedia.org/wiki/French_Lick",
		"http://web.archive.org/web/20120122050356/http://en.wikipedia.org:80/wiki/French_Lick,_Indiana",
		"onreadydom:http://en.wikipedia.org/wiki/West_Baden",
		"https://en.wikipedia.org/",
	}
	for _, u := range same[1:] {
		if host(u) != host(same[0]) || host(u) == 0 {
			t.Errorf("%s: host %x, want %x", u, host(u), host(same[0]))
		}
	}
	if host("http://www.uraharajuku.st/shopdetail/1/") != host("http://uraharajuku.st/") {
		t.Error("www. makes another host")
	}
	if host("http://de.wikipedia.org/wiki/X") == host(same[0]) {
		t.Error("two hosts of one site are one host")
	}
	if host("dns:example.org") != 0 || host("") != 0 {
		t.Error("a URI without an http(s) URL has a host")
	}
}

// testdataResult is Run at the defaults on testdata's real WARC files.
func testdataResult(t *testing.T) *Result {
	t.Helper()
	files, err := filepath.Glob("../testdata/*.warc*")
	if err != nil || len(files) == 0 {
		t.Fatalf("testdata WARC files: %v %v", files, err)
	}
	res, err := Run(t.Context(), config.DefaultParams(), files)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A host's sample is the same whatever the order and grouping in which
// its pages' samples are merged (the job merges them per bundle, then per
// host): on the real pages of testdata, one page per URL (of two the
// first in compareSample's order), the spotsig.TemplateSample smallest URL
// keys.
func TestHostSampleMerge(t *testing.T) {
	res := testdataResult(t)
	docs := res.Docs
	if len(docs) < 2*spotsig.TemplateSample {
		t.Fatalf("%d documents: too few to fill a sample", len(docs))
	}
	// All documents as one sample (Add does not look at hosts): the
	// expected pages, by URL.
	best := map[uint64]HostPage{}
	for _, d := range docs {
		p := PageOf(d)
		if b, ok := best[p.URL]; !ok || compareSample(p, b) < 0 {
			best[p.URL] = p
		}
	}
	urls := slices.Sorted(maps.Keys(best))
	if len(urls) <= spotsig.TemplateSample || len(urls) == len(docs) {
		t.Fatalf("%d URLs of %d documents: want more than a sample, and URLs of several captures", len(urls), len(docs))
	}
	var want HostSample
	for _, u := range urls[:spotsig.TemplateSample] {
		want = append(want, best[u])
	}
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 5 {
		order := r.Perm(len(docs))
		var parts []HostSample
		for i := 0; i < len(order); {
			n := 1 + r.IntN(20)
			var part HostSample
			for _, j := range order[i:min(i+n, len(order))] {
				part = part.Add(HostSample{PageOf(docs[j])})
			}
			parts = append(parts, part)
			i += n
		}
		var got HostSample
		for _, k := range r.Perm(len(parts)) {
			got = parts[k].Add(got)
		}
		if !slices.EqualFunc(got, want, func(a, b HostPage) bool { return compareSample(a, b) == 0 }) {
			t.Fatalf("round %d: the merged sample differs from the %d smallest URLs", round, spotsig.TemplateSample)
		}
		var one HostSample // page by page, as the job's bundles merge
		for _, j := range order {
			one = one.AddPage(PageOf(docs[j]))
		}
		if !slices.EqualFunc(one, want, func(a, b HostPage) bool { return compareSample(a, b) == 0 }) {
			t.Fatalf("round %d: the sample added page by page differs from the %d smallest URLs", round, spotsig.TemplateSample)
		}
	}
}

// A host's template does not depend on the order of its sample and is
// found on the Wikipedia captures of testdata (one host, many articles,
// some under several URLs), and verification at 0.8 with the template
// left out still accepts every pair of one article by the realset's
// labels (../shared/data/realset), and no other: a template that took an
// article's own text would lose its copies under other URLs.
func TestTemplateOfWikipedia(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "shared", "data", "realset", "truth.tsv"))
	if err != nil {
		t.Skipf("realset truth absent: %v", err)
	}
	cluster := map[string]string{} // as eval.LoadRealTruth reads it (eval imports dedup)
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		f := strings.Split(line, "\t")
		cluster[f[0]+"@"+f[1]+"+"+f[2]] = f[5]
	}
	res := testdataResult(t)
	wiki := HostOf(Page{Ref: warc.Ref{URI: "http://en.wikipedia.org/"}})
	var sample HostSample
	var docs []Doc
	for _, d := range res.Docs {
		if HostOf(d.Page) == wiki {
			sample = sample.Add(HostSample{PageOf(d)})
			docs = append(docs, d)
		}
	}
	tpl := sample.Template()
	if len(sample) < spotsig.TemplateMinPages || len(tpl) == 0 {
		t.Fatalf("%d sampled Wikipedia pages, template of %d elements: want a template", len(sample), len(tpl))
	}
	rev := slices.Clone(sample)
	slices.Reverse(rev)
	sks := make([]spotsig.Sketch, len(rev))
	for i, p := range rev {
		sks[i] = spotsig.Sketch{Words: p.Words, Min: p.Min}
	}
	if got := spotsig.TemplateOf(sks); !slices.Equal(got, tpl) {
		t.Errorf("reversed sample: template of %d elements, want %d", len(got), len(tpl))
	}
	key := func(d Doc) string {
		return filepath.Base(d.File) + "@" + strconv.FormatInt(d.Offset, 10) + "+" + strconv.FormatInt(d.Inner, 10)
	}
	same, accepted, taken := 0, 0, 0
	for i, a := range docs {
		if a.Sketch.TemplateHost != wiki {
			t.Fatalf("%s: not marked against its host's template", a.URI)
		}
		for _, b := range docs[i+1:] {
			ca, cb := cluster[key(a)], cluster[key(b)]
			if ca == "" || cb == "" {
				t.Fatalf("%s or %s is not in the realset", key(a), key(b))
			}
			if ca == cb {
				same++
			}
			with := Verify(a.Sketch, b.Sketch, a.Site, b.Site, false, 0.8)
			plain, plainB := a.Sketch, b.Sketch
			plain.TemplateHost, plainB.TemplateHost = 0, 0
			without := Verify(plain, plainB, a.Site, b.Site, false, 0.8)
			if with.OK {
				accepted++
				if ca != cb {
					t.Errorf("%s, %s: different articles verified at %.2f/%.2f", a.URI, b.URI, with.ShareA, with.ShareB)
				}
			}
			if without.OK && !with.OK {
				taken++
			}
		}
	}
	if same == 0 || accepted != same {
		t.Errorf("%d pairs of one article, %d pairs verified: want all of them, and some", same, accepted)
	}
	t.Logf("%d Wikipedia pages, template of %d elements: %d pairs of one article, %d verified, %d more verified without the template", len(docs), len(tpl), same, accepted, taken)
}
