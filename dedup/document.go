package dedup

import (
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// Doc is a document: a page that got signatures, from Sign on. It is the
// one document type of the job; the Beam graph wraps it with what only the
// graph needs (the batch it travels in, the guest flag: transforms.doc, unexported).
//
//   - Page is the page it was signed from: its record's identity
//     (warc.Ref), its rank under the keep policy, its text digest and the
//     caps that applied.
//   - Site is where the page is: its site and the URL it captures
//     (SiteOf, set by Sign); for the representative of an exact-copy group
//     in the Beam job, from CollapseExact on, the group's (Head.Site, for
//     the same-site rule match.SiteRule). Run keeps the group sites apart
//     (Collapse).
//   - Group is what a representative knows of its exact-copy group in the
//     Beam job; the zero Group elsewhere (Run keeps groups as Result.RepOf).
//   - Vec is the multiset of signatures (spotsig.Vector, paper §4.1.2):
//     between Sign and DropSharedBlocks, with
//     config.Params.SharedBlockPages > 0, it is empty and Blocks holds the
//     signatures of each text block (spotsig.ExtractPayloadBlocks); from
//     then on Blocks is nil and Vec holds the signatures of the blocks that
//     are not shared boilerplate (ResolveBlocks; on a page of shared text
//     only, SharedText, all of them hashed with its site), IDF-filtered
//     after FilterIDF.
//   - SharedText marks a page of shared text only (ResolveBlocks): its
//     exact-copy group is that of its text digest (ExactGroupKey).
//   - Sketch is the bottom-k sketch of the words of the page's main text
//     (spotsig.Sketch, from the Signer): what Verify reads of the page;
//     with Blocks, its whole-text sketch is that of the whole text less
//     the shared boilerplate from DropSharedBlocks on
//     (spotsig.Sketch.LessShared).
//   - Periphery is what the page carries beside Blocks until then (its
//     short lines, which the shared-block rule counts too, and a larger
//     sample of its whole text; spotsig.Periphery); the zero value from
//     then on.
//   - Lang is the language the page is reported in: the signer's
//     (Signed; "" for a scheme without languages), then, with blocks,
//     Language of its main content after the shared blocks are dropped
//     (of all its blocks on a page of shared text only).
type Doc struct {
	Page
	Site      match.Site
	Group     Group
	Vec       spotsig.Vector
	Blocks    []spotsig.Block
	Periphery spotsig.Periphery
	Sketch    spotsig.Sketch
	Lang      string
	// SharedText: see above.
	SharedText bool
}

// Group is what the representative of an exact-copy group knows of it:
// its Size (members, the representative included; 0 before the group is
// known) and Best, the member of highest priority (smallest rank) when that
// is not the representative itself (nil otherwise: a pointer, because every
// document carries a Group and few have a Best).
type Group struct {
	Size int
	Best *Page
}

// BestPage is the page of highest priority among the pages d stands for.
func (d Doc) BestPage() Page {
	if d.Group.Best != nil {
		return *d.Group.Best
	}
	return d.Page
}

// SiteOf returns where the page of r is for the same-site rule and
// verification (match.Site): its site (warc.Site) and the URL it captures
// (warc.URLKey).
func SiteOf(r warc.Ref) match.Site { return match.SiteOf(r.Site(), warc.URLKey(r.URI)) }
