package eval

import (
	"sort"
	"strings"
)

// KindCount is one row of a breakdown of wrong pairs.
type KindCount struct {
	Kind  string `json:"kind"`
	Count int64  `json:"count"`
	// Of is the number of pairs of the reference population that have the
	// kind (all labelled pairs for false negatives, 0 when not
	// meaningful), so Count/Of is a miss rate.
	Of int64 `json:"of,omitempty"`
}

// Breakdown explains the wrong pairs of a Result with the truth file's
// optional descriptions (host, host_page, source_article, set_origin,
// edits, natural).
type Breakdown struct {
	FalsePositives []KindCount `json:"false_positives"`
	FalseNegatives []KindCount `json:"false_negatives"`
}

// False-positive kinds, in the order they are tested (a pair counts under
// the first that applies).
const (
	FPSameTemplate = "same template (host_page)"
	FPSameSite     = "same site (host), other template"
	FPSameTopic    = "same topic (source_article stem)"
	FPSameSet      = "same source data set (set_origin)"
	FPOther        = "unrelated"
)

// Explain sorts r's false positives by what the two pages share, and counts
// r's false negatives by the syndication edits of their pages (a pair counts
// once under every edit kind either page carries: "truncate", "word_subst",
// "paragraphs", …, "verbatim" when neither page was edited, "natural" for
// natural clusters). noText reports, by truth index, pages that had no
// signatures; a false negative with such a page counts under "no
// signatures" only.
func Explain(t *Truth, r Result, noText func(truthIndex int) bool) Breakdown {
	var b Breakdown
	fp := map[string]int64{}
	for _, p := range r.FP {
		x, y := t.Records[p.I], t.Records[p.J]
		switch {
		case x.HostPage != "" && x.HostPage == y.HostPage:
			fp[FPSameTemplate]++
		case x.Host != "" && x.Host == y.Host:
			fp[FPSameSite]++
		case x.SourceArticle != "" && topicStem(x.SourceArticle) == topicStem(y.SourceArticle):
			fp[FPSameTopic]++
		case x.SetOrigin != "" && x.SetOrigin == y.SetOrigin:
			fp[FPSameSet]++
		default:
			fp[FPOther]++
		}
	}
	for _, k := range []string{FPSameTemplate, FPSameSite, FPSameTopic, FPSameSet, FPOther} {
		if fp[k] > 0 {
			b.FalsePositives = append(b.FalsePositives, KindCount{Kind: k, Count: fp[k]})
		}
	}

	missed := map[string]int64{}
	all := map[string]int64{}
	for _, c := range r.Clusters {
		m := t.Members(c.Cluster)
		for a := 0; a < len(m); a++ {
			for bb := a + 1; bb < len(m); bb++ {
				for _, k := range pairKinds(t, m[a], m[bb], nil) {
					all[k]++
				}
			}
		}
	}
	for _, p := range r.FN {
		for _, k := range pairKinds(t, p.I, p.J, noText) {
			missed[k]++
		}
	}
	for k, n := range missed {
		b.FalseNegatives = append(b.FalseNegatives, KindCount{Kind: k, Count: n, Of: all[k]})
	}
	sort.Slice(b.FalseNegatives, func(i, j int) bool {
		x, y := b.FalseNegatives[i], b.FalseNegatives[j]
		if x.Count != y.Count {
			return x.Count > y.Count
		}
		return x.Kind < y.Kind
	})
	return b
}

// pairKinds names the edit kinds of a labelled pair.
func pairKinds(t *Truth, i, j int, noText func(int) bool) []string {
	if noText != nil && (noText(i) || noText(j)) {
		return []string{"no signatures"}
	}
	x, y := t.Records[i], t.Records[j]
	var kinds []string
	if x.Natural || y.Natural {
		kinds = append(kinds, "natural")
	}
	seen := map[string]bool{}
	for _, e := range append(append([]string(nil), x.Edits...), y.Edits...) {
		k := e
		if c := strings.IndexByte(e, ':'); c >= 0 {
			k = e[:c]
			// headline:shortened, dateline:added … keep their sub-kind.
			if k == "headline" || k == "dateline" {
				sub := e[c+1:]
				if s := strings.IndexByte(sub, ' '); s >= 0 {
					sub = sub[:s]
				}
				k += ":" + sub
			}
		}
		if !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	if len(x.Edits) == 0 && len(y.Edits) == 0 && !x.Natural && !y.Natural {
		kinds = append(kinds, "verbatim")
	}
	return kinds
}

// topicStem drops a trailing "_N" from a data-set key ("msv-chaos/reef_9"
// -> "msv-chaos/reef"), so pages drawn for the same query share a stem.
// Keys without such a suffix are their own stem.
func topicStem(key string) string {
	i := strings.LastIndexByte(key, '_')
	if i < 0 || i == len(key)-1 {
		return key
	}
	for _, c := range key[i+1:] {
		if c < '0' || c > '9' {
			return key
		}
	}
	return key[:i]
}
