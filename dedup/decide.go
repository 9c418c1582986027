package dedup

import (
	"fmt"
	"slices"

	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
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

// TextCopyRecord is the pairs line of a page dropped as an exact copy of
// another page's text (Method DecideExactText): the two pages at Jaccard 1,
// both shares 1, with Exact set and 0 signatures on both sides (what tells
// it from an exact-copy line of equal vectors), so that every such drop
// has its pairs line and ExpandPairs counts the pages of one text as one
// group. ok is false for any other decision, and for a page dropped for a
// page of the index (KeptBySegment: the pairs output holds the pairs among
// the run's own pages; the decision line names the index page).
func TextCopyRecord(d output.Decision) (p output.PairRecord, ok bool) {
	if d.Keep || d.Method != DecideExactText || d.KeptBySegment != "" {
		return output.PairRecord{}, false
	}
	p = NewPairRecord(d.Ref, 0, d.Keeper(), 0, 1, Verification{ShareA: 1, ShareB: 1, OK: true})
	p.Exact = true
	return p, true
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
func Decide(pages []Page, docs []Doc, repOf []int, pairs []match.Pair, method string) ([]output.Decision, []output.Cluster, error) {
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

	out := make([]output.Decision, len(pages))
	keptBy := make([]int, len(pages))
	set := func(j int, d match.Decision, keeper int, method string) {
		out[j] = output.Decision{Ref: pages[j].Ref, Keep: d.Keep, Method: method, Capped: pages[j].Capped}
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
func Clusters(pages []Page, ds []output.Decision, keptBy []int) []output.Cluster {
	members := map[int][]string{}
	for j, k := range keptBy {
		if k >= 0 {
			members[k] = append(members[k], ds[j].RecordID)
		}
	}
	var cs []output.Cluster
	for k := range pages {
		if m, ok := members[k]; ok {
			slices.Sort(m)
			cs = append(cs, output.Cluster{Ref: pages[k].Ref, Dropped: m, Size: 1 + len(m)})
		}
	}
	return cs
}
