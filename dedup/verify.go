package dedup

import (
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Verification. Spot signatures find candidates; on pages of one site they
// are weak evidence, because the site's template and the text it repeats
// on its own pages give template siblings the same signatures, and pages
// with equal vectors (exact copies, dedup.Collapse) may still differ in the
// names, figures and cells that signatures do not see. So a candidate pair
// of pages of one site (match.Site: the registrable domain of the URL each
// captures) is a near-duplicate only when each page holds at least share
// of the other's main-text words (spotsig.Shares of their sketches, the
// real sets' labelling guide), on top of the same-site rule; so is an
// exact copy of one site as a member of its group. Two pages of one site
// and one host marked against the host's template (MarkTemplates) must
// also hold share of each other's whole text less that template
// (spotsig.HostShares): on a listing or a shop the layout's main content
// can be a sidebar widget or a template block that every page repeats,
// and what the labels read is the text the page has of its own. A pair
// across sites keeps the paper's rule: verifying it on the layout's main
// content loses more true copies than it saves (a copy in another site's
// template gets another container: 1,608 of the dev gold set's 4,041
// candidate lines within a cluster share under 0.8). A pair in which a
// document has fewer than WeakSignatures signatures is verified whatever
// its sites: so few signatures are weak evidence anywhere (weighted
// Jaccard moves in steps of 1/5 or more, and two short pages can share a
// chain by chance).
// docs/quality.md ("Verification on the main text") gives the measure's
// error and what it separates.

// WeakSignatures is the vector length |d| below which a document's pairs
// and exact copies are verified across sites too (Weak). It was the job's
// minimum of signatures before verification existed
// (config.DefaultMinSignatures, now 1): pages below it were decided by
// their exact text alone.
const WeakSignatures = 5

// Weak reports whether a pair of documents of la and lb signatures (|d|)
// is verified whatever its sites.
func Weak(la, lb int) bool { return min(la, lb) < WeakSignatures }

// Verification is the result of verifying one pair: the share of A's
// main-text words found in B (ShareA) and of B's in A (ShareB), and OK,
// whether the pair counts as a near-duplicate.
type Verification struct {
	ShareA, ShareB float64
	OK             bool
}

// Verify verifies the pages with sketches a and b, of sites sa and sb, at
// share (in [0, 1]); weak is Weak of their vector lengths. The shares are
// always estimated: spotsig.Shares, and for pages of one site marked
// against one host's template the smaller of that and
// spotsig.HostShares; OK when share is 0 (the paper's rule), when the pages
// are not of one site (match.Site.SameSite) and not weak, or when both
// shares reach share.
func Verify(a, b spotsig.Sketch, sa, sb match.Site, weak bool, share float64) Verification {
	x, y := spotsig.Shares(a, b)
	same := sa.SameSite(sb)
	if same {
		if tx, ty, ok := spotsig.HostShares(a, b); ok {
			x, y = min(x, tx), min(y, ty)
		}
	}
	return Verification{ShareA: x, ShareB: y, OK: share <= 0 || (!same && !weak) || min(x, y) >= share}
}
