package match

import "hash/fnv"

// Same-site pairs. Pages of one site share its template, and sites repeat
// their own text inside what the layout calls main content: a product
// series' description on every product of the series, an author's
// biography on each of the author's books, the entries of a listing on its
// filtered views. The paper names the problem (§1: branding elements
// "deliberately replicated across the pages of individual sites, creating
// a 'noise level' of similarity among pages of the same site"), and
// Henzinger (SIGIR 2006, "Finding near-duplicate Web pages: a large-scale
// evaluation of algorithms") found both shingling and random projections
// far less precise on pairs of one site than on pairs across sites. On the
// labelled real pages of docs/quality.md ("Real sites") template siblings
// reach weighted Jaccard 0.5–0.95 while copies of a page on its own site
// (re-captures, URL aliases, identical error pages) sit at 0.95–1; copies
// across sites (syndication, with editing and different templates) sit
// anywhere from τ up. So a pair of pages of one site is a near-duplicate
// only at SameSiteTau or above, a pair across sites at τ (SiteRule).
//
// Exact copies are collapsed before matching (dedup.Collapse) and matched
// as one document, so the rule is decided per exact-copy group: a group's
// Site is its pages' site when they all share one, NoSite otherwise, and a
// pair of groups is same-site only when both lie on one and the same site.
// A near-duplicate of any page of a group is thus one of every page of it,
// as the group's pages are copies of each other.

// Site identifies where a document is: its site (warc.Site) in Name and
// the URL it captures (warc.URLKey) in URL, each an FNV-1a 64 hash, 0 for
// none; for an exact-copy group, each is its pages' when they all share
// it, 0 otherwise (MergeSites). A zero Name (NoSite: a page without a
// host, such as a metadata record, or a group spread over several sites)
// is never same-site.
type Site struct {
	Name, URL uint64
}

// NoSite is the Site of a page without a site and of a group on several.
var NoSite = Site{}

// SiteOf returns the Site of a site name and of the key of the URL a page
// captures (warc.URLKey; "" for none).
func SiteOf(name, url string) Site { return Site{Name: nameHash(name), URL: nameHash(url)} }

// nameHash is FNV-1a 64 of a name: 0 for "", and 1 should a name hash to
// 0.
func nameHash(name string) uint64 {
	if name == "" {
		return 0
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	if s := h.Sum64(); s != 0 {
		return s
	}
	return 1
}

// SameSite reports whether a and b are pages (or groups) of one site.
func (a Site) SameSite(b Site) bool { return a.Name != 0 && a.Name == b.Name }

// SameURL reports whether a and b capture one URL.
func (a Site) SameURL(b Site) bool { return a.URL != 0 && a.URL == b.URL }

// Sibling reports whether a and b are of one site and do not capture one
// URL: the pairs SiteRule asks SameSiteTau of.
func (a Site) Sibling(b Site) bool { return a.SameSite(b) && !a.SameURL(b) }

// MergeSites is the Site of the union of two groups: each of site and URL
// kept when both have the same one, else 0. It is associative and
// commutative, so a combiner may merge in any order.
func MergeSites(a, b Site) Site {
	if a.Name != b.Name {
		a.Name = 0
	}
	if a.URL != b.URL {
		a.URL = 0
	}
	return a
}

// SiteRule is the pair rule on top of a matcher's threshold τ: a pair the
// matcher found (weighted Jaccard >= τ) is kept when its documents are not
// of one site, when they capture one URL (two captures of a page are
// versions of it, not template siblings: a re-capture with edits, whose
// verification on the main text decides), or when its Jaccard reaches
// SameSiteTau. SameSiteTau <= τ (0 in particular) keeps every pair, the
// paper's rule.
type SiteRule struct {
	SameSiteTau float64
}

// Keep reports whether a pair at weighted Jaccard j of documents of sites
// a and b is a near-duplicate pair.
func (r SiteRule) Keep(j float64, a, b Site) bool {
	return j >= r.SameSiteTau || !a.Sibling(b)
}

// Filter returns the pairs of ps (indices into sites) that r keeps, in
// place.
func (r SiteRule) Filter(ps []Pair, sites []Site) []Pair {
	out := ps[:0]
	for _, p := range ps {
		if r.Keep(p.Jaccard, sites[p.A], sites[p.B]) {
			out = append(out, p)
		}
	}
	return out
}
