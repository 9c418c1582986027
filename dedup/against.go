package dedup

import (
	"fmt"
	"slices"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Prior is a page an earlier run kept, as its index segment holds it
// (package index): its identity and WARC-Date, the language it was
// reported in, its vector as it was matched (after the shared blocks,
// the IDF filter and the minimum; empty for a page decided by its text),
// its rank under the keep policy and its text digest (spotsig.TextDigest,
// "" for an empty text). Segment names the index segment it came from.
type Prior struct {
	Page
	Lang    string
	Vec     spotsig.Vector
	Sketch  spotsig.Sketch
	Segment string
}

// Priors returns the pages r kept, in the order of r.Pages, as an index
// segment named segment holds them; a page's language and main-text
// sketch are those of its exact-copy group's representative (equal
// vectors, so nearly always its own language; a member's main text
// verified against the representative's), without its host template's
// marks, which the index does not keep (spotsig.Sketch.TemplateHost).
func Priors(r *Result, segment string) []Prior {
	docs := make(map[string]Doc, len(r.Docs))
	for i, d := range r.Docs {
		d.Lang, d.Sketch = r.Docs[r.RepOf[i]].Lang, r.Docs[r.RepOf[i]].Sketch // as the Beam job knows them: its group's
		docs[d.ID()] = d
	}
	var out []Prior
	for i, pg := range r.Pages {
		if !r.Decisions[i].Keep {
			continue
		}
		p := Prior{Page: pg, Segment: segment}
		if d, ok := docs[pg.ID()]; ok {
			p.Vec, p.Lang, p.Sketch = d.Vec, d.Lang, d.Sketch
			p.Sketch.Template, p.Sketch.TemplateHost = [2]uint64{}, 0
		}
		out = append(out, p)
	}
	return out
}

// Rank prefixes of a run against an index: every page of the index ranks
// before every new page, so no earlier decision changes, and pages of
// either kind keep their order among themselves. Ranks are byte strings
// (match.Policy.Rank), so a one-byte prefix does it.
const (
	priorRank = "\x00"
	newRank   = "\x01"
)

// CheckAgainst reports whether a run with p can be matched against an
// index: the matcher must be the exact SpotSigs one (its partitions are
// what index pages are matched through, AgainstPairs), and the IDF range
// must keep every signature, since an index holds no document frequencies
// (docs/design.md, "Scheduled batches").
func CheckAgainst(p config.Params) error {
	if p.Matcher != "" && p.Matcher != config.MatcherSpotSigs {
		return fmt.Errorf("--against needs --matcher=%s, not %q", config.MatcherSpotSigs, p.Matcher)
	}
	if !p.IDFRange().KeepsAll() {
		return fmt.Errorf("--against needs an IDF range that keeps every signature (idf_min 0, idf_max 1), not [%v, %v]", p.IDFMin, p.IDFMax)
	}
	return nil
}

// AgainstPairs returns the near-duplicate pairs of one index page and one
// new document at threshold tau: A indexes prior, B docs. Index pages are
// matched only with new documents, never with each other, through the
// partitions of §4.2 (match.Partitioning with range rho): in each group,
// the index pages at home with the new documents at home or guests, and
// the new documents at home with the index pages that are guests
// (match.MatchCross), so each pair meets once, as in match.Partitioned.
// Pairs are sorted by (A, B); Jaccard as match.WeightedJaccard computes it.
func AgainstPairs(prior, docs []spotsig.Vector, tau float64, rho int) []match.Pair {
	part := match.NewPartitioning(tau, rho)
	type group struct{ priorHome, priorGuest, newHome, newGuest []int }
	groups := map[int]*group{}
	at := func(k int) *group {
		g, ok := groups[k]
		if !ok {
			g = &group{}
			groups[k] = g
		}
		return g
	}
	place := func(v spotsig.Vector, i int, isNew bool) {
		l := v.Len()
		if l == 0 {
			return
		}
		h := at(part.Home(l))
		if isNew {
			h.newHome = append(h.newHome, i)
		} else {
			h.priorHome = append(h.priorHome, i)
		}
		if k, ok := part.Guest(l); ok {
			g := at(k)
			if isNew {
				g.newGuest = append(g.newGuest, i)
			} else {
				g.priorGuest = append(g.priorGuest, i)
			}
		}
	}
	for i, v := range prior {
		place(v, i, false)
	}
	for i, v := range docs {
		place(v, i, true)
	}
	keys := make([]int, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []match.Pair
	cross := func(pi, ni []int) {
		if len(pi) == 0 || len(ni) == 0 {
			return
		}
		a := make([]spotsig.Vector, len(pi))
		for j, i := range pi {
			a[j] = prior[i]
		}
		b := make([]spotsig.Vector, len(ni))
		for j, i := range ni {
			b[j] = docs[i]
		}
		for _, p := range match.MatchCross(a, b, tau) {
			out = append(out, match.Pair{A: pi[p.A], B: ni[p.B-len(a)], Jaccard: p.Jaccard})
		}
	}
	for _, k := range keys {
		g := groups[k]
		cross(g.priorHome, append(slices.Clip(g.newHome), g.newGuest...))
		cross(g.priorGuest, g.newHome)
	}
	slices.SortFunc(out, func(x, y match.Pair) int {
		if x.A != y.A {
			return x.A - y.A
		}
		return x.B - y.B
	})
	return out
}

// ExactPrior finds, for a new page, the index page it is an exact copy of:
// the best-ranked index page with the same text digest (never the empty
// text) or, for a document, the same vector (ExactKey) and a main text that
// verifies against it at share (Verify). Such a page is dropped without
// matching ("exact copies first").
type ExactPrior struct {
	byDigest, byVec map[string]int
	prior           []Prior
	share           float64
}

// NewExactPrior indexes prior by text digest and vector.
func NewExactPrior(prior []Prior, share float64) *ExactPrior {
	e := &ExactPrior{byDigest: map[string]int{}, byVec: map[string]int{}, prior: prior, share: share}
	better := func(m map[string]int, k string, i int) {
		if j, ok := m[k]; !ok || prior[i].Rank < prior[j].Rank {
			m[k] = i
		}
	}
	for i, p := range prior {
		if p.Digest != "" {
			better(e.byDigest, p.Digest, i)
		}
		if p.Vec.Len() > 0 {
			better(e.byVec, ExactKey(p.Vec), i)
		}
	}
	return e
}

// Find returns the index (into prior) of the index page that the page with
// text digest digest, vector vec (empty for a page that is not a document),
// main-text sketch sk and site site copies exactly, or -1.
func (e *ExactPrior) Find(digest string, vec spotsig.Vector, sk spotsig.Sketch, site match.Site) int {
	best := -1
	if i, ok := e.byDigest[digest]; ok && digest != "" {
		best = i
	}
	if vec.Len() > 0 {
		if i, ok := e.byVec[ExactKey(vec)]; ok && (best < 0 || e.prior[i].Rank < e.prior[best].Rank) &&
			Verify(sk, e.prior[i].Sketch, site, SiteOf(e.prior[i].Ref), Weak(vec.Len(), vec.Len()), e.share).OK {
			best = i
		}
	}
	return best
}

// Reach tells which index pages a new batch can reach, the only ones a
// run against an index needs to hold: a page whose text digest (never the
// empty text) or vector (ExactKey) a new page has (ExactPrior's keys), or
// whose vector pairs with a new document's (match.Probe): weighted
// Jaccard ≥ τ, and for two pages of one site ≥ the same-site τ
// (match.SiteRule; a new document's site is merged over the batch's
// documents with its vector, as Collapse merges an exact-copy group's).
// Any pair AgainstPairs finds and the same-site rule keeps has it, in
// whichever partitions; verification only removes pairs. Every other
// index page drops no new page and pairs with none, so leaving it out
// changes no decision; memory and work then grow with the batch, not with
// the index (docs/design.md, "Scheduled batches"). Holds needs its own
// Reach per goroutine.
type Reach struct {
	digests map[string]struct{}
	// vectors holds the ExactKey of each distinct vector, only when the
	// probe cannot see an identical vector itself (τ or the same-site τ
	// above 1, or NaN: Jaccard 1 does not reach them).
	vectors map[string]struct{}
	probe   *match.Probe
	scratch match.ProbeScratch
}

// NewReach indexes the new batch: the vectors of its documents (after the
// IDF filter: as they are matched) and their sites (vecs[i] is of
// sites[i]), the text digests of all its pages, for a run at τ tau with
// the same-site rule rule (config.Params.SiteRule).
func NewReach(vecs []spotsig.Vector, sites []match.Site, digests []string, tau float64, rule match.SiteRule) *Reach {
	r := &Reach{digests: map[string]struct{}{}}
	if !(tau <= 1 && rule.SameSiteTau <= 1) {
		r.vectors = map[string]struct{}{}
	}
	for _, d := range digests {
		if d != "" {
			r.digests[d] = struct{}{}
		}
	}
	// One member per distinct vector, its site merged over its copies.
	at := map[string]int{}
	var distinct []spotsig.Vector
	var merged []match.Site
	for i, v := range vecs {
		if v.Len() == 0 {
			continue
		}
		k := ExactKey(v)
		if j, ok := at[k]; ok {
			merged[j] = match.MergeSites(merged[j], sites[i])
			continue
		}
		at[k] = len(distinct)
		distinct, merged = append(distinct, v), append(merged, sites[i])
		if r.vectors != nil {
			r.vectors[k] = struct{}{}
		}
	}
	r.probe = match.NewProbe(distinct, merged, tau, rule)
	return r
}

// Holds reports whether the batch reaches index page p, of which it reads
// the text digest, the target URI (its site) and the vector.
func (r *Reach) Holds(p Prior) bool {
	if _, ok := r.digests[p.Digest]; ok && p.Digest != "" {
		return true
	}
	if p.Vec.Len() == 0 {
		return false
	}
	if r.vectors != nil {
		if _, ok := r.vectors[ExactKey(p.Vec)]; ok {
			return true
		}
	}
	return r.probe.Reaches(p.Vec, func() match.Site { return SiteOf(p.Ref) }, &r.scratch)
}

// decideAgainst decides the new pages of res against the index pages prior
// (the rule of docs/design.md, "Scheduled batches"): a page that copies an
// index page exactly (ExactPrior) is dropped for it at Jaccard 1; the other
// documents are collapsed and matched among themselves (res.RepOf and
// res.Pairs are recomputed here without the exact
// copies of index pages, which do not reach matching) and with the index
// pages (AgainstPairs; the same-site rule with an index page's site merged
// with those of its new exact copies), and every page is decided by Decide
// over index pages and new pages together, the index pages ranked first.
// It sets res.Decisions, res.Clusters and res.DroppedForPrior.
func decideAgainst(res *Result, prior []Prior, p config.Params, grouping match.Grouping, method string) error {
	exact := NewExactPrior(prior, p.VerifyShare)
	// Pages: the index pages first, then the new ones, ranks prefixed.
	pages := make([]Page, 0, len(prior)+len(res.Pages))
	for _, q := range prior {
		pg := q.Page
		pg.Rank = priorRank + pg.Rank
		pages = append(pages, pg)
	}
	vecOf := make(map[string]spotsig.Vector, len(res.Docs))
	sketchOf := make(map[string]spotsig.Sketch, len(res.Docs))
	for _, d := range res.Docs {
		vecOf[d.ID()], sketchOf[d.ID()] = d.Vec, d.Sketch
	}
	copyOf := make([]int, len(res.Pages)) // index page a new page copies, or -1
	skip := map[string]bool{}
	for i, pg := range res.Pages {
		copyOf[i] = exact.Find(pg.Digest, vecOf[pg.ID()], sketchOf[pg.ID()], SiteOf(pg.Ref))
		if copyOf[i] >= 0 {
			skip[pg.ID()] = true
			continue
		}
		pg.Rank = newRank + pg.Rank
		pages = append(pages, pg)
	}
	// Documents: the index pages with a vector, then the new ones that are
	// not exact copies of an index page.
	var docs []Doc
	var sites []match.Site
	var priorVecs []spotsig.Vector
	// An index page and the new pages with its vector are one exact-copy
	// group, whose site is theirs only when they all share it (Collapse).
	priorSite := make([]match.Site, len(prior))
	for i, q := range prior {
		priorSite[i] = SiteOf(q.Ref)
	}
	for _, d := range res.Docs {
		if i, ok := exact.byVec[ExactKey(d.Vec)]; ok && Verify(d.Sketch, prior[i].Sketch, d.Site, SiteOf(prior[i].Ref), Weak(d.Vec.Len(), d.Vec.Len()), p.VerifyShare).OK {
			priorSite[i] = match.MergeSites(priorSite[i], d.Site)
		}
	}
	for i, q := range prior {
		if q.Vec.Len() > 0 {
			docs = append(docs, Doc{Page: Page{Ref: q.Ref}, Vec: q.Vec, Sketch: q.Sketch})
			sites = append(sites, priorSite[i])
			priorVecs = append(priorVecs, q.Vec)
		}
	}
	var fresh []Doc
	var freshIdx []int // index in res.Docs of each of fresh
	for i, d := range res.Docs {
		if !skip[d.ID()] {
			fresh, freshIdx = append(fresh, d), append(freshIdx, i)
		}
	}
	repOf, freshSites := Collapse(fresh, p.VerifyShare)
	var reps []int
	var repVecs []spotsig.Vector
	var repSites []match.Site
	for i, r := range repOf {
		if r == i {
			reps, repVecs, repSites = append(reps, i), append(repVecs, fresh[i].Vec), append(repSites, freshSites[i])
		}
	}
	n0 := len(docs)
	docs = append(docs, fresh...)
	sites = append(sites, freshSites...)
	allRep := make([]int, len(docs))
	for i := range n0 {
		allRep[i] = i
	}
	for i, r := range repOf {
		allRep[n0+i] = n0 + r
	}
	rule := p.SiteRule()
	var pairs []match.Pair
	// The run's own exact copies and pairs are those of the documents that
	// reached matching: without the copies of index pages.
	for i := range res.RepOf {
		res.RepOf[i] = i
	}
	for i, r := range repOf {
		res.RepOf[freshIdx[i]] = freshIdx[r]
	}
	res.Pairs, res.Candidates, res.Verified = nil, nil, nil
	for _, q := range match.RunGrouping(grouping, repVecs) {
		if !rule.Keep(q.Jaccard, repSites[q.A], repSites[q.B]) {
			continue
		}
		c := match.Pair{A: freshIdx[reps[q.A]], B: freshIdx[reps[q.B]], Jaccard: q.Jaccard}
		v := Verify(res.Docs[c.A].Sketch, res.Docs[c.B].Sketch, repSites[q.A], repSites[q.B], Weak(res.Docs[c.A].Vec.Len(), res.Docs[c.B].Vec.Len()), p.VerifyShare)
		res.Candidates, res.Verified = append(res.Candidates, c), append(res.Verified, v)
		if v.OK {
			pairs = append(pairs, match.Pair{A: n0 + reps[q.A], B: n0 + reps[q.B], Jaccard: q.Jaccard})
			res.Pairs = append(res.Pairs, c)
		}
	}
	for _, q := range AgainstPairs(priorVecs, repVecs, p.Tau, p.Rho) {
		if rule.Keep(q.Jaccard, sites[q.A], repSites[q.B]) && Verify(docs[q.A].Sketch, fresh[reps[q.B]].Sketch, sites[q.A], repSites[q.B], Weak(docs[q.A].Vec.Len(), fresh[reps[q.B]].Vec.Len()), p.VerifyShare).OK {
			pairs = append(pairs, match.Pair{A: q.A, B: n0 + reps[q.B], Jaccard: q.Jaccard})
		}
	}
	ds, _, err := Decide(pages, docs, allRep, pairs, method)
	if err != nil {
		return err
	}
	for i := range prior {
		if !ds[i].Keep {
			return fmt.Errorf("dedup: index page %s dropped by %s", ds[i].Key(), ds[i].KeptBy)
		}
	}
	// The new pages' decisions, in their order; kept_by of an index page
	// names its segment.
	segmentOf := make(map[string]string, len(prior))
	for _, q := range prior {
		segmentOf[q.ID()] = q.Segment
	}
	all := append(slices.Clip(pages[:len(prior)]), res.Pages...)
	out := make([]output.Decision, len(res.Pages))
	keptBy := make([]int, len(all))
	index := make(map[string]int, len(all))
	for i := range all {
		keptBy[i] = -1
	}
	// Index pages win a shared ID (a record read again is its own exact
	// copy, dropped for the index page).
	for i := len(all) - 1; i >= 0; i-- {
		index[all[i].ID()] = i
	}
	all2 := make([]output.Decision, len(all))
	copy(all2, ds[:len(prior)])
	next := len(prior)
	res.DroppedForPrior = 0
	for i, pg := range res.Pages {
		var d output.Decision
		if c := copyOf[i]; c >= 0 {
			d = output.Decision{Ref: pg.Ref, Method: method, Capped: pg.Capped}
			if _, ok := vecOf[pg.ID()]; !ok {
				d.Method = DecideExactText
			}
			d.DropFor(prior[c].Ref, 1)
		} else {
			d = ds[next]
			next++
		}
		if !d.Keep {
			k := index[d.Keeper().ID()]
			keptBy[len(prior)+i] = k
			if k < len(prior) {
				d.KeptBySegment = prior[k].Segment
				res.DroppedForPrior++
			}
		}
		out[i], all2[len(prior)+i] = d, d
	}
	cs := Clusters(all, all2, keptBy)
	for i := range cs {
		cs[i].Segment = segmentOf[cs[i].ID()]
	}
	res.Decisions, res.Clusters = out, cs
	return nil
}
