package dedup

import (
	"cmp"
	"slices"
	"strings"

	"github.com/ndd-beam/ndd-beam/internal/hashx"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// Host templates for verification (spotsig.TemplateOf, Verify). A
// template is a host's: its content system puts the same navigation,
// sidebars and footers on its pages, while the hosts of one site (a
// registrable domain: mirrors, editions, blogs) often have templates of
// their own, and a page copied onto many of them would look like their
// one site's template. Each host's template is found from a sample of its
// pages, the same on every runner, and every page of the host is marked
// against it before exact copies are collapsed (MarkTemplates; the job's
// transforms.MarkTemplates).

// HostOf returns the name of the host of the URL a page captures
// (warc.URLKey's host: lower case, without "www." and a default port),
// hashed; 0 for a page without one (no http(s) URL), which has no
// template.
func HostOf(p Page) uint64 {
	key := warc.URLKey(p.URI)
	if key == "" {
		return 0
	}
	host, _, _ := strings.Cut(key, "/")
	host, _, _ = strings.Cut(host, "?")
	return hashx.Mix64(hashx.FNVAdd(hashx.FNVOffset, []byte(host))) | 1
}

// HostPage is one page of a host's sample: the URL it captures, as
// hashx.Mix64 of its match.Site.URL (FNV-1a alone keeps URLs that differ
// in their last bytes, item/4234 … item/4251, next to each other), its
// text digest (Page.Digest) and its whole-text sketch
// (spotsig.Sketch.Whole: Words and Min). Of two pages of one URL the
// sample keeps the first in compareSample's order.
type HostPage struct {
	URL    uint64
	Digest string
	Words  uint32
	Min    []uint32
}

// HostSample is the sample of a host's pages its template is found from:
// one page per URL, those of the spotsig.TemplateSample smallest URL
// keys (a uniform sample), ascending. Add merges two samples of one host,
// associative and commutative, so any merge order gives the same sample.
type HostSample []HostPage

// PageOf is document d as a page of its host's sample.
func PageOf(d Doc) HostPage {
	w := d.Sketch.Whole()
	return HostPage{URL: hashx.Mix64(d.Site.URL), Digest: d.Digest, Words: w.Words, Min: w.Min}
}

// Add returns the merge of s and o: their pages by ascending URL key, for
// a URL its first page in compareSample's order, the first
// spotsig.TemplateSample. s and o are not changed.
func (s HostSample) Add(o HostSample) HostSample {
	out := make(HostSample, 0, min(len(s)+len(o), spotsig.TemplateSample))
	i, j := 0, 0
	for len(out) < spotsig.TemplateSample && (i < len(s) || j < len(o)) {
		var p HostPage
		if j == len(o) || i < len(s) && compareSample(s[i], o[j]) < 0 {
			p, i = s[i], i+1
		} else {
			p, j = o[j], j+1
		}
		if n := len(out); n > 0 && out[n-1].URL == p.URL {
			continue // the URL's first page is in
		}
		out = append(out, p)
	}
	return out
}

// AddPage returns s with page p merged in, as s.Add(HostSample{p}) does,
// reusing s's array: the caller gives up s. Most pages of a large host
// fall after a full sample and cost one comparison.
func (s HostSample) AddPage(p HostPage) HostSample {
	if len(s) == spotsig.TemplateSample && compareSample(p, s[len(s)-1]) >= 0 {
		return s
	}
	i, _ := slices.BinarySearchFunc(s, p, compareSample) // s[i] is the first at or after p
	switch {
	case i < len(s) && s[i].URL == p.URL: // p comes first (or is s[i])
		s[i] = p
		return s
	case i > 0 && s[i-1].URL == p.URL: // s[i-1] comes first
		return s
	}
	s = slices.Insert(s, i, p)
	return s[:min(len(s), spotsig.TemplateSample)]
}

// compareSample orders sample pages by URL key, then digest, then
// sketch: a total order, so that of two pages of one URL every merge
// order keeps the same one (a capture of the same text whose layout found
// no periphery has another whole-text sketch).
func compareSample(a, b HostPage) int {
	return cmp.Or(cmp.Compare(a.URL, b.URL), strings.Compare(a.Digest, b.Digest),
		cmp.Compare(a.Words, b.Words), slices.Compare(a.Min, b.Min))
}

// Template is the template of the sampled host (spotsig.TemplateOf).
func (s HostSample) Template() spotsig.HostTemplate {
	sks := make([]spotsig.Sketch, len(s))
	for i, p := range s {
		sks[i] = spotsig.Sketch{Words: p.Words, Min: p.Min}
	}
	return spotsig.TemplateOf(sks)
}

// MarkTemplates marks every document of a host whose template is not
// empty against it (spotsig.Sketch.MarkTemplate) and returns the number
// of such hosts.
func MarkTemplates(docs []Doc) int {
	hosts := make([]uint64, len(docs))
	samples := map[uint64]HostSample{}
	for i, d := range docs {
		if hosts[i] = HostOf(d.Page); hosts[i] != 0 {
			samples[hosts[i]] = samples[hosts[i]].AddPage(PageOf(d))
		}
	}
	tpls := map[uint64]spotsig.HostTemplate{}
	for h, s := range samples {
		if t := s.Template(); len(t) > 0 {
			tpls[h] = t
		}
	}
	for i, h := range hosts {
		if t, ok := tpls[h]; ok {
			docs[i].Sketch.MarkTemplate(h, t)
		}
	}
	return len(tpls)
}
