package eval

import (
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// VerifyPair is one judged pair of a real-page set as verification sees
// it: the label (Dup), the exact shares of each page found in the other
// (ExactAB, ExactBA: of the whole word multisets, the smaller of the share
// of its main-text words, spotsig.Extractor.MainText, the layout's main
// content, and of its whole text's words, as spotsig.Shares reads them)
// and their estimates from the two pages' sketches (spotsig.Shares).
type VerifyPair struct {
	A, B             string // page keys (RealKey)
	Dup              bool
	ExactAB, ExactBA float64
	EstAB, EstBA     float64
	// SiteAB, SiteBA are the exact shares with the other main text
	// measured: the whole text less its site's template lines
	// (SiteLines).
	SiteAB, SiteBA float64
	// JobAB, JobBA are the shares the job verifies the pair with
	// (dedup.Verify): EstAB, EstBA or, for a pair of one site and one
	// host, where smaller, the shares of the whole texts less the host's
	// template (spotsig.HostShares), each page's sketch marked as the job
	// marks it (dedup.MarkTemplates) on the set's pages.
	JobAB, JobBA float64
}

// SiteLines says which lines of a page's whole text are its site's
// template for the site-lines main text of MeasureVerification: a line
// found on at least max(URLs, ⌈Share × the site's URLs⌉) distinct URLs of
// the page's site (warc.Site of the URL it captures) among the set's
// pages, in a site of at least MinSiteURLs URLs (in a smaller one no line
// is). DefaultSiteLines is the crude check the verification design
// started from: lines repeated on 3 or more URLs.
type SiteLines struct {
	URLs        int
	Share       float64
	MinSiteURLs int
}

// DefaultSiteLines is SiteLines{URLs: 3}.
var DefaultSiteLines = SiteLines{URLs: 3}

// VerifyReport is MeasureVerification's result over one set's judged
// pairs with both pages read.
type VerifyReport struct {
	Set   string
	Pairs []VerifyPair
	// Missing counts judged pairs with a page that did not become text.
	Missing int
}

// MeasureVerification reads the pages of a real-page set (truth.tsv and its
// judged_pairs.tsv, WARC files matched by globs) with the extractor of p
// and returns, for every judged pair, the label and the exact and
// estimated main-text shares: the evidence docs/quality.md
// ("Verification") gives for the measure and its error; and the exact
// shares of the site-lines main text of sl. Errors: unreadable truth or
// WARC files, a glob that matches nothing.
func MeasureVerification(ctx context.Context, p config.Params, truthPath string, globs []string, sl SiteLines) (VerifyReport, error) {
	t, err := LoadRealTruth(truthPath)
	if err != nil {
		return VerifyReport{}, err
	}
	ex, err := spotsig.NewExtractor(p.SpotSigOptions()...)
	if err != nil {
		return VerifyReport{}, err
	}
	type page struct {
		exact []string // the main text's words, sorted
		whole []string // the whole text's words, sorted
		sk    spotsig.Sketch
		site  string   // site of the URL the page captures
		uri   string   // that URL
		lines []string // the whole text's lines
		doc   dedup.Doc
	}
	pages := map[string]page{}
	for _, g := range globs {
		files, err := filepath.Glob(g)
		if err != nil || len(files) == 0 {
			return VerifyReport{}, fmt.Errorf("%s: no file (%v)", g, err)
		}
		for _, name := range files {
			f, err := os.Open(name)
			if err != nil {
				return VerifyReport{}, err
			}
			err = warc.ReadFile(f, name, p.WARCOptions(), func(r warc.Record) error {
				k := RealKey(r.Ref())
				if _, ok := t.Cluster[k]; !ok || r.Skip != "" {
					return nil
				}
				main, err := ex.MainText(r.Payload, r.MIMEType())
				if err != nil {
					return nil
				}
				whole, _, err := spotsig.PayloadText(r.Payload, r.MIMEType(), p.SpotSigOptions()...)
				if err != nil {
					return nil
				}
				_, st, err := ex.ExtractPayloadBlocks(r.Payload, r.MIMEType())
				if err != nil {
					return nil
				}
				uri := warc.CapturedURI(r.TargetURI)
				pages[k] = page{exact: sortedWords(main), whole: sortedWords(whole), sk: st.Sketch, site: warc.Site(uri), uri: uri,
					lines: strings.Split(string(whole), "\n"),
					doc:   dedup.Doc{Page: dedup.Page{Ref: r.Ref(), Digest: spotsig.TextDigest(whole)}, Site: dedup.SiteOf(r.Ref()), Sketch: st.Sketch}}
				return nil
			})
			f.Close()
			if err != nil {
				return VerifyReport{}, err
			}
		}
	}
	// The site-lines main text: the whole text less its site's template
	// lines (sl).
	urls := map[[2]string]map[string]bool{}
	siteURLs := map[string]map[string]bool{}
	for _, pg := range pages {
		if siteURLs[pg.site] == nil {
			siteURLs[pg.site] = map[string]bool{}
		}
		siteURLs[pg.site][pg.uri] = true
		for _, l := range pg.lines {
			k := [2]string{pg.site, l}
			if urls[k] == nil {
				urls[k] = map[string]bool{}
			}
			urls[k][pg.uri] = true
		}
	}
	siteWords := map[string][]string{}
	for k, pg := range pages {
		var keep []string
		n := len(siteURLs[pg.site])
		bar := max(sl.URLs, int(math.Ceil(sl.Share*float64(n)-1e-9))) // 1e-9: 0.55 × 100 is 55, not 56
		if n < sl.MinSiteURLs {
			bar = math.MaxInt
		}
		for _, l := range pg.lines {
			if len(urls[[2]string{pg.site, l}]) < bar {
				keep = append(keep, l)
			}
		}
		siteWords[k] = sortedWords([]byte(strings.Join(keep, "\n")))
	}
	// The job's host templates, marked on the set's pages in key order.
	keys := slices.Sorted(maps.Keys(pages))
	docs := make([]dedup.Doc, len(keys))
	for i, k := range keys {
		docs[i] = pages[k].doc
	}
	dedup.MarkTemplates(docs)
	marked := map[string]spotsig.Sketch{}
	for i, k := range keys {
		marked[k] = docs[i].Sketch
	}
	rep := VerifyReport{Set: t.Name}
	for _, jp := range t.Judged() {
		a, okA := pages[jp.A]
		b, okB := pages[jp.B]
		if !okA || !okB {
			rep.Missing++
			continue
		}
		vp := VerifyPair{A: jp.A, B: jp.B, Dup: jp.Dup}
		vp.ExactAB, vp.ExactBA = shares(a.exact, b.exact)
		wab, wba := shares(a.whole, b.whole)
		vp.ExactAB, vp.ExactBA = min(vp.ExactAB, wab), min(vp.ExactBA, wba)
		vp.SiteAB, vp.SiteBA = shares(siteWords[jp.A], siteWords[jp.B])
		vp.EstAB, vp.EstBA = spotsig.Shares(a.sk, b.sk)
		v := dedup.Verify(marked[jp.A], marked[jp.B], a.doc.Site, b.doc.Site, false, 0)
		vp.JobAB, vp.JobBA = v.ShareA, v.ShareB
		rep.Pairs = append(rep.Pairs, vp)
	}
	return rep, nil
}

// sortedWords is the sorted multiset of text's words (spotsig.Tokenize).
func sortedWords(text []byte) []string {
	var words []string
	spotsig.Tokenize(text, func(tok []byte) { words = append(words, string(tok)) })
	slices.Sort(words)
	return words
}

// shares is the share of a's words found in b and of b's in a (sorted
// multisets); 0 for a text without words.
func shares(a, b []string) (ab, ba float64) {
	if len(a) == 0 || len(b) == 0 {
		return 0, 0
	}
	n := float64(multisetIntersection(a, b))
	return n / float64(len(a)), n / float64(len(b))
}

// multisetIntersection is |A∩B| of two sorted multisets.
func multisetIntersection(a, b []string) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			n++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return n
}

// VerifySummary is the separation and error of a VerifyReport at one
// threshold: pairs with both shares ≥ Threshold by the exact and by the
// estimated shares (and by the site-lines main text, alone and with the
// exact layout shares), split by label, and
// the estimation error of the smaller share, the one a verdict reads
// (estimate − exact over every pair: mean absolute, root mean square,
// largest).
type VerifySummary struct {
	Threshold                     float64
	ExactDupAbove, ExactDiffAbove int
	EstDupAbove, EstDiffAbove     int
	SiteDupAbove, SiteDiffAbove   int
	BothDupAbove, BothDiffAbove   int // both the layout's and the site-lines shares ≥ Threshold (exact)
	JobDupAbove, JobDiffAbove     int // the job's shares (JobAB, JobBA) ≥ Threshold
	Dups, Diffs                   int
	MeanAbsErr, RMSErr, MaxAbsErr float64
	DecisionFlips                 int // pairs whose verdict at Threshold differs between exact and estimate
}

// Summarize is the VerifySummary of r at threshold th.
func (r VerifyReport) Summarize(th float64) VerifySummary {
	s := VerifySummary{Threshold: th}
	var sum, sq float64
	for _, p := range r.Pairs {
		ex := min(p.ExactAB, p.ExactBA) >= th
		es := min(p.EstAB, p.EstBA) >= th
		si := min(p.SiteAB, p.SiteBA) >= th
		jo := min(p.JobAB, p.JobBA) >= th
		if p.Dup {
			s.Dups++
			s.ExactDupAbove += b2i(ex)
			s.EstDupAbove += b2i(es)
			s.SiteDupAbove += b2i(si)
			s.BothDupAbove += b2i(ex && si)
			s.JobDupAbove += b2i(jo)
		} else {
			s.Diffs++
			s.ExactDiffAbove += b2i(ex)
			s.EstDiffAbove += b2i(es)
			s.SiteDiffAbove += b2i(si)
			s.BothDiffAbove += b2i(ex && si)
			s.JobDiffAbove += b2i(jo)
		}
		if ex != es {
			s.DecisionFlips++
		}
		d := min(p.EstAB, p.EstBA) - min(p.ExactAB, p.ExactBA)
		sum += math.Abs(d)
		sq += d * d
		s.MaxAbsErr = max(s.MaxAbsErr, math.Abs(d))
	}
	if n := float64(len(r.Pairs)); n > 0 {
		s.MeanAbsErr, s.RMSErr = sum/n, math.Sqrt(sq/n)
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// CandidateScore is a set of candidate pairs (a run's pairs output,
// expanded) verified by the job's shares (JobAB, JobBA) at one
// threshold, against the labels: a candidate that is not a judged pair is
// a different document, as the sets' READMEs define.
type CandidateScore struct {
	Pairs, Dups            int // candidates, and those judged the same document
	Verified, VerifiedDups int // candidates verified, and those judged the same document
	AllDups                int // judged duplicate pairs of the set
	Precision, Recall      float64
}

// Candidates scores the candidate pairs ps (both pages in the set) as
// verification at share th would mark them; a pair with a page whose
// shares r does not hold (not judged) counts as not verified.
func (r VerifyReport) Candidates(ps []PairRecord, th float64) CandidateScore {
	byKey := map[[2]string]VerifyPair{}
	var c CandidateScore
	for _, p := range r.Pairs {
		byKey[[2]string{p.A, p.B}] = p
		if p.Dup {
			c.AllDups++
		}
	}
	for _, p := range ps {
		a, b := RealKey(p.A()), RealKey(p.B())
		if b < a {
			a, b = b, a
		}
		c.Pairs++
		vp, ok := byKey[[2]string{a, b}]
		if ok && vp.Dup {
			c.Dups++
		}
		if ok && min(vp.JobAB, vp.JobBA) >= th {
			c.Verified++
			if vp.Dup {
				c.VerifiedDups++
			}
		}
	}
	if c.Verified > 0 {
		c.Precision = float64(c.VerifiedDups) / float64(c.Verified)
	}
	if c.AllDups > 0 {
		c.Recall = float64(c.VerifiedDups) / float64(c.AllDups)
	}
	return c
}
