package dedup

import (
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
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

// A host's sample is the same whatever the order and grouping in which
// its pages' samples are merged (the job merges them per bundle, then per
// host): on the real pages of testdata, one page per URL (of two the one
// of the smaller digest), the spotsig.TemplateSample smallest URL hashes.
func TestHostSampleMerge(t *testing.T) {
	files, err := filepath.Glob("../testdata/*.warc*")
	if err != nil || len(files) == 0 {
		t.Fatalf("testdata WARC files: %v %v", files, err)
	}
	res, err := Run(t.Context(), config.DefaultParams(), files)
	if err != nil {
		t.Fatal(err)
	}
	docs := res.Docs
	if len(docs) < 2*spotsig.TemplateSample {
		t.Fatalf("%d documents: too few to fill a sample", len(docs))
	}
	// All documents as one sample (Add does not look at hosts): the
	// expected pages, by URL.
	best := map[uint64]HostPage{}
	for _, d := range docs {
		p := SampleOf(d)[0]
		if b, ok := best[p.URL]; !ok || p.Digest < b.Digest {
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
				part = part.Add(SampleOf(docs[j]))
			}
			parts = append(parts, part)
			i += n
		}
		var got HostSample
		for _, k := range r.Perm(len(parts)) {
			got = parts[k].Add(got)
		}
		if !slices.EqualFunc(got, want, func(a, b HostPage) bool { return a.URL == b.URL && a.Digest == b.Digest }) {
			t.Fatalf("round %d: the merged sample differs from the %d smallest URLs", round, spotsig.TemplateSample)
		}
	}
}

// A host's template does not depend on the order of its sample, holds
// elements of most of the host's pages, and a pair of its pages verified
// less it shares no more than their whole texts do; on the Wikipedia
// captures of testdata (one host, many articles).
func TestTemplateOfWikipedia(t *testing.T) {
	files, err := filepath.Glob("../testdata/*.warc*")
	if err != nil || len(files) == 0 {
		t.Fatalf("testdata WARC files: %v %v", files, err)
	}
	res, err := Run(t.Context(), config.DefaultParams(), files)
	if err != nil {
		t.Fatal(err)
	}
	wiki := HostOf(Page{Ref: warc.Ref{URI: "http://en.wikipedia.org/"}})
	var sample HostSample
	var docs []Doc
	for _, d := range res.Docs {
		if HostOf(d.Page) == wiki {
			sample = sample.Add(SampleOf(d))
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
	marked := 0
	for i, a := range docs {
		if a.Sketch.TemplateHost != wiki {
			t.Fatalf("%s: not marked against its host's template", a.URI)
		}
		if a.Sketch.Template != [2]uint64{} {
			marked++
		}
		for _, b := range docs[i+1:] {
			x, y, ok := spotsig.SiteShares(a.Sketch, b.Sketch)
			wa, wb := spotsig.Shares(a.Sketch.Whole(), b.Sketch.Whole())
			if ok && (x > wa+0.2 || y > wb+0.2) {
				t.Errorf("%s, %s: %.2f/%.2f less the template, %.2f/%.2f whole", a.URI, b.URI, x, y, wa, wb)
			}
		}
	}
	if marked < len(docs)/2 {
		t.Errorf("%d of %d Wikipedia pages have template elements in their sketch", marked, len(docs))
	}
}
