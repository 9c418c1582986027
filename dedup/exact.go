package dedup

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// Exact copies. Documents whose IDF-filtered signature vectors
// are equal (the same multiset of spot signatures) have weighted Jaccard 1
// (eq. 4) with each other and the same similarity to every other document:
// the matcher cannot tell them apart. They are collapsed before
// partitioning into one representative, the member whose record comes
// first in warc.Ref order, and only the representative is matched. The
// pairs output then has one line per other member and its representative,
// with "exact": true and Jaccard 1, instead of the n(n−1)/2 lines of the
// copies and n lines per pair of the representative; ExpandPairs gives
// back the full set. Collapsing by vector rather than by extracted text
// is what makes it exact: two pages with the same text have the same
// vector, but pages whose texts differ only outside their signatures (a
// session ID, a date line, a shared block dropped as boilerplate) have it
// too, and the matcher would have paired them at Jaccard 1 anyway.

// ExactKey is the key of a vector's exact-copy group: the first 16 bytes of
// the SHA-256 of its hashes and frequencies (as little-endian uint64 and
// uint32). Equal vectors have equal keys; two different vectors share one
// with probability 2^-128.
func ExactKey(v spotsig.Vector) string {
	h := sha256.New()
	var buf [12]byte
	for i, x := range v.Hashes {
		binary.LittleEndian.PutUint64(buf[:8], x)
		binary.LittleEndian.PutUint32(buf[8:], v.Freqs[i])
		h.Write(buf[:])
	}
	return string(h.Sum(nil)[:16])
}

// ExactGroupKey is the key of d's exact-copy group: ExactKey of its vector,
// or for a page of shared text only (Doc.SharedText) "text:" and its text
// digest. Such a page's signatures are hashed with its site
// (ResolveBlocks), so byte-identical copies of it on two sites have
// different vectors; its digest still groups them, as the exact-text
// fallback did before such pages kept their signatures.
func ExactGroupKey(d Doc) string {
	if d.SharedText && d.Digest != "" {
		return "text:" + d.Digest
	}
	return ExactKey(d.Vec)
}

// ExactCopy is a document collapsed into the representative of its exact
// copies: the member's identity, the representative's, the vector length
// |d| both have and the verification of the member's main text against
// the representative's (Verified.ShareA is the member's share; OK always).
type ExactCopy struct {
	Member, Rep warc.Ref
	Signatures  int
	Verified    Verification
}

// PairRecord returns the copy's line of the pairs output (Exact, Jaccard 1).
func (c ExactCopy) PairRecord() output.PairRecord {
	p := NewPairRecord(c.Member, c.Signatures, c.Rep, c.Signatures, 1, c.Verified)
	p.Exact = true
	return p
}

// FirstRef is the representative of two members of an exact-copy group:
// the one first in warc.Ref order.
func FirstRef(a, b warc.Ref) warc.Ref {
	if b.Less(a) {
		return b
	}
	return a
}

// Collapse returns, for each document, the index of its exact-copy group's
// representative (itself for a representative) and the group's site
// (match.MergeSites of its members' sites): documents with equal vectors
// (ExactGroupKey; equal texts for pages of shared text only) are
// represented by the one first in warc.Ref order, and a document belongs
// to that group only when its main text verifies against the
// representative's at share (Verify); one that does not is a group of its
// own (and meets the representative in matching, at Jaccard 1).
func Collapse(docs []Doc, share float64) (repOf []int, sites []match.Site) {
	keys := make([]string, len(docs))
	own := make([]match.Site, len(docs)) // each document's own site
	first := make(map[string]warc.Ref, len(docs))
	for i, d := range docs {
		keys[i], own[i] = ExactGroupKey(d), SiteOf(d.Ref)
		if r, ok := first[keys[i]]; ok {
			first[keys[i]] = FirstRef(r, d.Ref)
		} else {
			first[keys[i]] = d.Ref
		}
	}
	index := make(map[string]int, len(docs))
	for i, d := range docs {
		index[d.ID()] = i
	}
	repOf = make([]int, len(docs))
	sites = make([]match.Site, len(docs))
	groupSite := map[int]match.Site{}
	for i, k := range keys {
		rep := index[first[k].ID()]
		if rep != i && !Verify(docs[i].Sketch, docs[rep].Sketch, own[i], own[rep], Weak(docs[i].Vec.Len(), docs[rep].Vec.Len()), share).OK {
			rep = i
		}
		repOf[i] = rep
		s := own[i]
		if g, ok := groupSite[rep]; ok {
			s = match.MergeSites(g, s)
		}
		groupSite[rep] = s
	}
	for i, rep := range repOf {
		sites[i] = groupSite[rep]
	}
	return repOf, sites
}

// ExpandPairs returns the near-duplicate pairs the lines ps stand for:
// every pair of two members of an exact-copy group (the connected parts of
// the Exact lines) at Jaccard 1, and for every other NearDuplicate line
// (candidates verification rejected are left out) every member of the one side's
// group with every member of the other's, at that line's Jaccard; each
// unordered pair once, in canonical order, Exact false. Its size is
// quadratic in the group sizes: for evaluation on small sets, not for a
// crawl (PairIndex answers single questions in constant space).
func ExpandPairs(ps []output.PairRecord) []output.PairRecord {
	ix := NewPairIndex(ps)
	var out []output.PairRecord
	for _, g := range ix.groups {
		for i := range g {
			for j := i + 1; j < len(g); j++ {
				sigs := ix.sigs[g[i].Key()]
				out = append(out, NewPairRecord(g[i], sigs, g[j], sigs, 1, Verification{ShareA: 1, ShareB: 1, OK: true}))
			}
		}
	}
	for _, p := range ps {
		if p.Exact || !p.NearDuplicate {
			continue
		}
		for _, a := range ix.members(p.A()) {
			for _, b := range ix.members(p.B()) {
				out = append(out, NewPairRecord(a, ix.sigs[a.Key()], b, ix.sigs[b.Key()], p.Jaccard, Verification{ShareA: p.AShare, ShareB: p.BShare, OK: true}))
			}
		}
	}
	return out
}

// PairIndex answers which pairs a pairs output stands for (ExpandPairs)
// without expanding them: memory is linear in the lines.
type PairIndex struct {
	rep    map[string]warc.Ref   // member location (warc.Ref.Key) -> representative
	groups map[string][]warc.Ref // representative location -> members, representative first
	lines  map[[2]string]float64 // representative locations (both orders) -> Jaccard
	sigs   map[string]int        // location -> |d|
}

// NewPairIndex indexes the lines ps: an exact-copy group is a connected
// part of the Exact lines, represented by its member first in record order
// (warc.Ref.Less), as Collapse chooses it.
func NewPairIndex(ps []output.PairRecord) *PairIndex {
	ix := &PairIndex{rep: map[string]warc.Ref{}, groups: map[string][]warc.Ref{},
		lines: map[[2]string]float64{}, sigs: map[string]int{}}
	parent := map[string]string{}
	refs := map[string]warc.Ref{}
	var find func(string) string
	find = func(k string) string {
		p, ok := parent[k]
		if !ok || p == k {
			return k
		}
		r := find(p)
		parent[k] = r
		return r
	}
	for _, p := range ps {
		a, b := p.A(), p.B()
		ka, kb := a.Key(), b.Key()
		refs[ka], refs[kb] = a, b
		ix.sigs[ka], ix.sigs[kb] = p.ASignatures, p.BSignatures
		if p.Exact {
			if _, ok := parent[ka]; !ok {
				parent[ka] = ka
			}
			if _, ok := parent[kb]; !ok {
				parent[kb] = kb
			}
			ra, rb := find(ka), find(kb)
			if ra != rb {
				parent[ra] = rb
			}
		}
	}
	byRoot := map[string][]warc.Ref{}
	for k := range parent {
		r := find(k)
		byRoot[r] = append(byRoot[r], refs[k])
	}
	for _, g := range byRoot {
		first := g[0]
		for _, m := range g[1:] {
			first = FirstRef(first, m)
		}
		sorted := []warc.Ref{first}
		for _, m := range g {
			ix.rep[m.Key()] = first
			if m != first {
				sorted = append(sorted, m)
			}
		}
		ix.groups[first.Key()] = sorted
	}
	for _, p := range ps {
		if !p.Exact && p.NearDuplicate {
			a, b := ix.repKey(p.A()), ix.repKey(p.B())
			ix.lines[[2]string{a, b}], ix.lines[[2]string{b, a}] = p.Jaccard, p.Jaccard
		}
	}
	return ix
}

func (ix *PairIndex) repKey(r warc.Ref) string {
	if rep, ok := ix.rep[r.Key()]; ok {
		return rep.Key()
	}
	return r.Key()
}

func (ix *PairIndex) members(r warc.Ref) []warc.Ref {
	if g, ok := ix.groups[ix.repKey(r)]; ok {
		return g
	}
	return []warc.Ref{r}
}

// Group returns the location (warc.Ref.Key) of the representative of the
// exact-copy group of the document at location loc (loc itself when it is
// in none).
func (ix *PairIndex) Group(loc string) string {
	if rep, ok := ix.rep[loc]; ok {
		return rep.Key()
	}
	return loc
}

// Site returns the site of r's exact-copy group for the same-site rule
// (Head.Site: match.MergeSites of its members' warc.Site), r's own when it
// is in no group.
func (ix *PairIndex) Site(r warc.Ref) match.Site {
	g, ok := ix.groups[ix.repKey(r)]
	if !ok {
		return SiteOf(r)
	}
	s := SiteOf(g[0])
	for _, m := range g[1:] {
		s = match.MergeSites(s, SiteOf(m))
	}
	return s
}

// Jaccard returns the similarity of the documents at locations a and b and
// whether the output pairs them (a ≠ b).
func (ix *PairIndex) Jaccard(a, b string) (float64, bool) {
	ga, gb := ix.Group(a), ix.Group(b)
	if a == b {
		return 0, false
	}
	if ga == gb {
		return 1, true
	}
	j, ok := ix.lines[[2]string{ga, gb}]
	return j, ok
}

// BruteForcePairs is the reference of the near-duplicate pairs the job's
// lines stand for (ExpandPairs of its output), page by page: every two
// documents whose weighted Jaccard reaches tau (match.BruteForce), that
// rule keeps with the sites of their exact-copy groups (Collapse at
// share), and that are members of one group (at Jaccard 1) or whose
// groups' representatives verify at share (Verify: a group stands for its
// members). Indices into docs, A < B, sorted. O(n²): for tests.
func BruteForcePairs(docs []Doc, tau float64, rule match.SiteRule, share float64) []match.Pair {
	vecs := make([]spotsig.Vector, len(docs))
	for i, d := range docs {
		vecs[i] = d.Vec
	}
	repOf, sites := Collapse(docs, share)
	var out []match.Pair
	for _, p := range rule.Filter(match.BruteForce(vecs, tau), sites) {
		ra, rb := repOf[p.A], repOf[p.B]
		if ra == rb || Verify(docs[ra].Sketch, docs[rb].Sketch, sites[p.A], sites[p.B], Weak(docs[ra].Vec.Len(), docs[rb].Vec.Len()), share).OK {
			out = append(out, p)
		}
	}
	return out
}
