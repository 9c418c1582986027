package dedup

import (
	"fmt"
	"slices"

	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/warc"
)

// Methods a decision line names (Decision.Method) besides the signature
// scheme (config.Params.Method) of pages decided on their near-duplicate
// pairs.
const (
	// DecideExactText: the page has no or too few signatures to be matched;
	// it is dropped iff another such page of higher priority has exactly the
	// same extracted text (match.DecideExact).
	DecideExactText = "exact-text"
	// DecideNoText: the page's extracted text is empty (white space only);
	// there is nothing to compare, so it is kept.
	DecideNoText = "no-text"
)

// Page is a WARC record whose payload became text (it passed the page
// policy), with or without enough signatures to be matched: what the
// decisions keep or drop. Rank is its rank under the keep policy
// (match.Policy.Rank: smaller is kept first, distinct for distinct
// records); Digest is spotsig.TextDigest of its text ("" for an empty
// text); Capped names the extraction caps that applied to it
// (CapInputBytes, …; nil when none did), reported on its decision.
type Page struct {
	warc.Ref
	Rank   string
	Digest string
	Capped []string
	// Date is the record's WARC-Date as written (for the index of kept
	// pages, docs/design.md "Scheduled batches").
	Date string
}

// Decision is one line of decisions-*.jsonl: a page kept, or dropped as a
// near-duplicate of the kept page KeptBy (its record ID; KeptByURI its
// target URI; KeptByFile, KeptByOffset and KeptByInner its location, since
// record IDs repeat across real archives) at weighted Jaccard Jaccard (1
// for an exact-text copy). Method says how the page was decided: the
// signature scheme (e.g. "spotsigs") for a page that reached matching,
// DecideExactText or DecideNoText for the others. The field order is the
// line's; docs/outputs.md documents it. The kept-by fields are absent on a
// kept page's line (the offsets are pointers so that offset 0 is written
// on a dropped page's line).
type Decision struct {
	warc.Ref
	Keep         bool   `json:"keep"`
	KeptBy       string `json:"kept_by,omitempty"`
	KeptByURI    string `json:"kept_by_uri,omitempty"`
	KeptByFile   string `json:"kept_by_file,omitempty"`
	KeptByOffset *int64 `json:"kept_by_offset,omitempty"`
	KeptByInner  *int64 `json:"kept_by_inner_offset,omitempty"`
	// KeptBySegment names the index segment (package index) that holds
	// the kept page when it is a page an earlier run kept (--against);
	// absent otherwise.
	KeptBySegment string  `json:"kept_by_segment,omitempty"`
	Jaccard       float64 `json:"jaccard,omitempty"`
	Method        string  `json:"method"`
	// Capped names the extraction caps that applied to the page (its text
	// or signatures were cut there; docs/robustness.md), absent when none.
	Capped []string `json:"capped,omitempty"`
}

// DropFor marks the decision dropped for the kept page k at weighted
// Jaccard j.
func (d *Decision) DropFor(k warc.Ref, j float64) {
	off, inner := k.Offset, k.Inner
	d.Keep, d.Jaccard = false, j
	d.KeptBy, d.KeptByURI, d.KeptByFile, d.KeptByOffset, d.KeptByInner = k.RecordID, k.URI, k.File, &off, &inner
}

// TextCopyRecord is the pairs line of a page dropped as an exact copy of
// another page's text (Method DecideExactText): the two pages at Jaccard 1,
// both shares 1, with Exact set and 0 signatures on both sides (what tells
// it from an exact-copy line of equal vectors), so that every such drop
// has its pairs line and ExpandPairs counts the pages of one text as one
// group. ok is false for any other decision, and for a page dropped for a
// page of the index (KeptBySegment: the pairs output holds the pairs among
// the run's own pages; the decision line names the index page).
func TextCopyRecord(d Decision) (p PairRecord, ok bool) {
	if d.Keep || d.Method != DecideExactText || d.KeptBySegment != "" {
		return PairRecord{}, false
	}
	p = NewPairRecord(d.Ref, 0, d.Keeper(), 0, 1, Verification{ShareA: 1, ShareB: 1, OK: true})
	p.Exact = true
	return p, true
}

// IsTextCopy reports whether p is a TextCopyRecord line.
func (p PairRecord) IsTextCopy() bool { return p.Exact && p.ASignatures == 0 && p.BSignatures == 0 }

// Keeper is the identity of the kept page a dropped page names (its
// record ID, URI and location; the zero Ref for a kept page).
func (d Decision) Keeper() warc.Ref {
	k := warc.Ref{RecordID: d.KeptBy, URI: d.KeptByURI, File: d.KeptByFile}
	if d.KeptByOffset != nil {
		k.Offset = *d.KeptByOffset
	}
	if d.KeptByInner != nil {
		k.Inner = *d.KeptByInner
	}
	return k
}

// Cluster is one line of clusters-*.jsonl: a kept page (its identity) that
// dropped other pages, the record IDs of those (sorted), the cluster size
// 1 + len(Dropped) and, for a page of an earlier run's index, its
// Segment.
type Cluster struct {
	warc.Ref
	Dropped []string `json:"dropped"`
	Size    int      `json:"size"`
	// Segment names the index segment that holds the kept page when an
	// earlier run kept it (--against); absent otherwise.
	Segment string `json:"segment,omitempty"`
}

// Decide keeps or drops every page, the reference of the Beam job's Decide
// stage. docs are the pages that reached matching (each must be among
// pages, by warc.Ref.ID), repOf their exact-copy representatives (Collapse)
// and pairs the near-duplicate pairs of representatives (indices into
// docs). Matched pages are decided by match.DecideSequential over the pairs
// in rank order (the lexicographically-first maximal independent set),
// each exact-copy group one node ranked as its best-ranked member: that
// member is kept or dropped as the group is, and every other member is
// dropped by the group's kept member (Jaccard 1) or by the page that drops
// the group — the decisions the full pair graph gives;
// the other pages by match.DecideExact on their text digest, or kept when
// their text is empty. method names the signature scheme on the lines of
// matched pages. It returns one Decision per page (in the order of pages)
// and the clusters (in the order of their kept pages in pages). Errors: a
// doc that is not a page, or a pair outside docs.
func Decide(pages []Page, docs []Doc, repOf []int, pairs []match.Pair, method string) ([]Decision, []Cluster, error) {
	index := make(map[string]int, len(pages))
	for i, p := range pages {
		index[p.ID()] = i
	}
	if len(repOf) != len(docs) {
		return nil, nil, fmt.Errorf("dedup: %d representatives for %d documents", len(repOf), len(docs))
	}
	// Matched pages, by their index in docs; each exact-copy group is one
	// node of the pair graph with its best-ranked member's rank.
	matched := make([]int, len(docs))
	isMatched := make([]bool, len(pages))
	best := make(map[int]int) // representative -> best-ranked member (indices into docs)
	for i, d := range docs {
		j, ok := index[d.ID()]
		if !ok {
			return nil, nil, fmt.Errorf("dedup: document %s is not a page", d.Key())
		}
		matched[i], isMatched[j] = j, true
	}
	node := make(map[int]int) // representative -> node of the pair graph
	var reps []int
	for i, r := range repOf {
		if b, ok := best[r]; !ok || pages[matched[i]].Rank < pages[matched[b]].Rank {
			best[r] = i
		}
		if r == i {
			node[i] = len(reps)
			reps = append(reps, i)
		}
	}
	ranks := make([]string, len(reps))
	for k, r := range reps {
		ranks[k] = pages[matched[best[r]]].Rank
	}
	nodePairs := make([]match.Pair, len(pairs))
	for i, p := range pairs {
		a, okA := node[p.A]
		b, okB := node[p.B]
		if !okA || !okB {
			return nil, nil, fmt.Errorf("dedup: pair (%d, %d) of a document that is not a representative", p.A, p.B)
		}
		nodePairs[i] = match.NewPair(a, b, p.Jaccard)
	}
	byPairs, err := match.DecideSequential(ranks, nodePairs)
	if err != nil {
		return nil, nil, err
	}
	// The others, by text digest.
	var other []int
	var otherRanks, digests []string
	for j, p := range pages {
		if !isMatched[j] {
			other = append(other, j)
			otherRanks, digests = append(otherRanks, p.Rank), append(digests, p.Digest)
		}
	}
	byText := match.DecideExact(otherRanks, digests)

	out := make([]Decision, len(pages))
	keptBy := make([]int, len(pages))
	set := func(j int, d match.Decision, keeper int, method string) {
		out[j] = Decision{Ref: pages[j].Ref, Keep: d.Keep, Method: method, Capped: pages[j].Capped}
		keptBy[j] = -1
		if !d.Keep {
			out[j].DropFor(pages[keeper].Ref, d.Jaccard)
			keptBy[j] = keeper
		}
	}
	for i, r := range repOf {
		d, b := byPairs[node[r]], best[r]
		keeper := -1
		switch {
		case !d.Keep:
			keeper = matched[best[reps[d.KeptBy]]]
		case i != b:
			d, keeper = match.Decision{Keep: false, KeptBy: -1, Jaccard: 1}, matched[b]
		}
		set(matched[i], d, keeper, method)
	}
	for i, d := range byText {
		j, m := other[i], DecideExactText
		if pages[j].Digest == "" {
			m = DecideNoText
		}
		keeper := -1
		if !d.Keep {
			keeper = other[d.KeptBy]
		}
		set(j, d, keeper, m)
	}
	return out, Clusters(pages, out, keptBy), nil
}

// Clusters forms the clusters of decisions ds of pages: keptBy[j] is the
// index of the page that dropped page j (-1 when kept). Clusters come in
// the order of their kept pages, dropped record IDs sorted.
func Clusters(pages []Page, ds []Decision, keptBy []int) []Cluster {
	members := map[int][]string{}
	for j, k := range keptBy {
		if k >= 0 {
			members[k] = append(members[k], ds[j].RecordID)
		}
	}
	var cs []Cluster
	for k := range pages {
		if m, ok := members[k]; ok {
			slices.Sort(m)
			cs = append(cs, Cluster{Ref: pages[k].Ref, Dropped: m, Size: 1 + len(m)})
		}
	}
	return cs
}
