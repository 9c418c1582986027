package spotsig

import (
	"math/bits"
	"slices"
)

// A host's template in the verification measure. On the pages of one
// site the layout's main content (layout.go) is not always what the page
// is about: on a listing it can be a sidebar widget or a teaser, and the
// text around it is the site's own navigation, which every page repeats.
// The real sets' labelling guide reads a page as what is left once that
// template is set aside. So a pair of one host is also verified on its
// whole texts less the elements (word#occurrence, sketch.go) that the
// host's template puts on most of its pages (a template belongs to a host,
// the content system that serves it: dedup.HostOf). The template is found
// from the sketches the pages already carry: an element is the host's
// when it is in the whole-text sketch of at least TemplateShare of the
// sampled pages whose sketch would hold it, and of at least
// TemplateMinURLs of them, where at least TemplateMinPages such pages
// are. Measured on every real set's judged pairs: docs/quality.md,
// "Verification on the main text" (ndd-eval verify).

const (
	// TemplateSample is how many distinct URLs of a host its template is
	// found from: those of the smallest URL hashes (a uniform sample,
	// the same on every runner). An element on half the host's pages is
	// on half of 64 within about ±0.06.
	TemplateSample = 64
	// TemplateShare is the share of a host's sampled pages an element
	// must be on to be its template's.
	TemplateShare = 0.5
	// TemplateMinURLs is the fewest distinct URLs an element of the
	// template is on.
	TemplateMinURLs = 3
	// TemplateMinPages is the fewest sampled pages that must be able to
	// show an element (their sketch would hold it) for it to be judged:
	// a host with fewer URLs has no template.
	TemplateMinPages = 6
)

// HostTemplate is a host's template: the elements of its pages'
// whole-text sketches (Sketch.WholeMin, or Min without periphery) that
// its template puts on most of them; ascending, distinct. Nil: none.
type HostTemplate []uint32

// has reports whether e is in t.
func (t HostTemplate) has(e uint32) bool {
	_, ok := slices.BinarySearch(t, e)
	return ok
}

// TemplateOf returns the template of a host from the sketches of its
// sampled pages, one per distinct URL (at most TemplateSample): each
// element in the whole-text sketches of at least TemplateMinURLs of them
// and of at least TemplateShare of the n pages whose sketch would hold it
// (a sketch holds every element at or below its largest; a complete one
// every element), where n is at least TemplateMinPages. The result does
// not depend on the order of pages.
func TemplateOf(pages []Sketch) HostTemplate {
	if len(pages) < TemplateMinPages {
		return nil
	}
	limits := make([]uint64, 0, len(pages))
	count := map[uint32]int{}
	for _, p := range pages {
		w, m := p.whole()
		if w == 0 {
			continue
		}
		limits = append(limits, limitOf(w, m))
		for _, e := range m {
			count[e]++
		}
	}
	slices.Sort(limits)
	var t HostTemplate
	for e, n := range count {
		if n < TemplateMinURLs {
			continue
		}
		below, _ := slices.BinarySearch(limits, uint64(e))
		if can := len(limits) - below; can >= TemplateMinPages && float64(n) >= TemplateShare*float64(can) {
			t = append(t, e)
		}
	}
	slices.Sort(t)
	return t
}

// Whole returns the sketch of s's whole text alone: Words and Min are
// WholeWords and WholeMin, or Words and Min without periphery.
func (s Sketch) Whole() Sketch {
	w, m := s.whole()
	return Sketch{Words: w, Min: m}
}

// MarkTemplate records in s which of its whole-text elements are in the
// template t of host (Template, TemplateHost: a nonzero name of the
// template). Only pages marked against one template compare with it
// (HostShares).
func (s *Sketch) MarkTemplate(host uint64, t HostTemplate) {
	s.Template, s.TemplateHost = [2]uint64{}, host
	_, m := s.whole()
	for i, e := range m {
		if t.has(e) {
			s.Template[i/64] |= 1 << (i % 64)
		}
	}
}

// MarksValid reports whether Template marks only elements the whole-text
// sketch has (a decoder's check).
func (s Sketch) MarksValid() bool {
	_, m := s.whole()
	for i := len(m); i < 128; i++ {
		if s.Template[i/64]&(1<<(i%64)) != 0 {
			return false
		}
	}
	return true
}

// HostShares estimates the share of a's whole text less its host's
// template found in b's, and of b's in a's: of the elements of a's
// whole-text sketch that the template does not mark, at or below the
// smaller of the two sketches' limits (where both sketches hold every
// element of their texts), the share that b's sketch holds too, and the
// same of b's (a containment estimate from the bottom-k sample; exact
// when both sketches are complete). Unlike Shares it does not scale a
// Jaccard by the texts' sizes: the sizes less the template would be
// estimates too, and the two errors add up (docs/quality.md,
// "Verification less the host's template"). ok is false when the pages
// were not marked against one template (MarkTemplate) or either sketch
// holds no element outside it in the common range, where the layout's
// shares stand alone: a page with nothing of its own there gives no
// share to estimate (on a small host whose pages mostly show one post,
// the post's page less the site's shared boilerplate is its main text,
// all of it the host's template; the shares of its whole text less that
// boilerplate then decide, docs/quality.md "The whole text less shared
// boilerplate").
func HostShares(a, b Sketch) (ab, ba float64, ok bool) {
	if a.TemplateHost == 0 || a.TemplateHost != b.TemplateHost {
		return 0, 0, false
	}
	aw, am := a.whole()
	bw, bm := b.whole()
	if a.marks() == len(am) && b.marks() == len(bm) {
		return 0, 0, false
	}
	// One merge of the two sketches' unmarked elements at or below t (an
	// element of the template is marked in both), without allocating:
	// this runs for every candidate pair of a host.
	t := min(limitOf(aw, am), limitOf(bw, bm))
	na, nb, both := 0, 0, 0
	i, j := a.unmarked(0), b.unmarked(0)
	for {
		inA := i < len(am) && uint64(am[i]) <= t
		inB := j < len(bm) && uint64(bm[j]) <= t
		switch {
		case !inA && !inB:
			if na == 0 || nb == 0 {
				return 0, 0, false
			}
			return float64(both) / float64(na), float64(both) / float64(nb), true
		case inA && (!inB || am[i] < bm[j]):
			na, i = na+1, a.unmarked(i+1)
		case inB && (!inA || bm[j] < am[i]):
			nb, j = nb+1, b.unmarked(j+1)
		default: // am[i] == bm[j]
			na, nb, both = na+1, nb+1, both+1
			i, j = a.unmarked(i+1), b.unmarked(j+1)
		}
	}
}

// marks is the number of elements Template marks.
func (s Sketch) marks() int {
	return bits.OnesCount64(s.Template[0]) + bits.OnesCount64(s.Template[1])
}

// unmarked returns the index of the first element of the whole-text
// sketch at or after i that Template does not mark (its length if none).
func (s Sketch) unmarked(i int) int {
	_, m := s.whole()
	for i < len(m) && s.Template[i/64]&(1<<(i%64)) != 0 {
		i++
	}
	return i
}

// limitOf is the largest element a text of w words with sketch m
// certainly holds in m if it has it: all (2^32) when m is complete.
func limitOf(w uint32, m []uint32) uint64 {
	if complete(w, m) {
		return 1 << 32
	}
	return uint64(m[len(m)-1])
}
