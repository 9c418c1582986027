package eval

import (
	"fmt"
	"strings"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
)

// DecisionRecord is one row of a decisions output (the job's contract,
// output.Decision): a page kept, or dropped as a copy of the kept page
// KeptBy.
type DecisionRecord = output.Decision

// ClusterRecord is one row of a clusters output (output.Cluster).
type ClusterRecord = output.Cluster

// DropResult scores keep/drop decisions against a truth file's clusters.
//
// A drop is correct when the dropped page and the page that dropped it
// (kept_by) share a true cluster. DropPrecision = correct drops / drops;
// DropRecall = correct drops / Σ over true clusters of (size − 1), the drops
// a perfect dedup makes (it keeps one page per cluster). Precision is 1
// when nothing was dropped; recall 0 when the truth has no cluster of two.
// UniqueDropped counts the dropped pages that are alone in their true
// cluster, of Unique such pages: the distinct pages a dedup must keep.
type DropResult struct {
	Decisions     int      `json:"decisions"`
	Dropped       int      `json:"dropped"`
	CorrectDrops  int      `json:"correct_drops"`
	PossibleDrops int      `json:"possible_drops"`
	DropPrecision float64  `json:"drop_precision"`
	DropRecall    float64  `json:"drop_recall"`
	Unique        int      `json:"unique"`
	UniqueDropped int      `json:"unique_dropped"`
	Unknown       []string `json:"unknown,omitempty"` // record IDs of lines the truth does not know (page or kept_by)
}

// EvaluateDrops scores decisions against t. Pages are found by record ID,
// falling back to a unique target URI (Truth.Lookup).
func EvaluateDrops(t *Truth, ds []DecisionRecord) DropResult {
	r := DropResult{Decisions: len(ds)}
	for _, m := range t.clusters {
		r.PossibleDrops += len(m) - 1
		if len(m) == 1 {
			r.Unique++
		}
	}
	for _, d := range ds {
		if d.Keep {
			continue
		}
		r.Dropped++
		i, okA := t.Lookup(d.RecordID, d.URI)
		j, okB := t.Lookup(d.KeptBy, d.KeptByURI)
		if okA && len(t.clusters[t.Records[i].Cluster]) == 1 {
			r.UniqueDropped++
		}
		if !okA || !okB {
			r.Unknown = append(r.Unknown, d.RecordID)
			continue
		}
		if t.Same(i, j) {
			r.CorrectDrops++
		}
	}
	r.DropPrecision, r.DropRecall = rates(r.CorrectDrops, r.Dropped, r.PossibleDrops)
	return r
}

// CheckDecisions checks the guarantees of the decisions output
// (docs/outputs.md) against the pairs and clusters of the same run with
// parameters p (its τ and same-site τ), and returns every violation found
// (none: nil):
//   - one line per page (record location), kept or dropped;
//   - a kept page names no kept_by; a dropped page's kept_by (its location
//     kept_by_file/offset/inner_offset, and record ID and URI) is a kept
//     page, and either the two are a pair of the pairs output with that
//     Jaccard, >= tau, and >= same_site_tau when their exact-copy groups
//     lie on one site (match.SiteRule), or both were decided by exact text
//     (dedup.DecideExactText) at Jaccard 1;
//   - no near-duplicate pair (a NearDuplicate or Exact line; candidates
//     that verification rejected are not pairs) joins two kept pages, and
//     every paired page was decided on its pairs (its method is neither
//     exact-text nor no-text), but for the text-copy lines
//     (dedup.TextCopyRecord), whose pages were both decided by their text;
//   - the clusters list exactly the dropped pages under their kept page,
//     with size 1 + dropped.
func CheckDecisions(ds []DecisionRecord, clusters []ClusterRecord, pairs []PairRecord, p config.Params) []error {
	return CheckDecisionsAgainst(ds, clusters, pairs, p, nil)
}

// CheckDecisionsAgainst is CheckDecisions for a run with --against: a page
// dropped for a page of the index (kept_by_segment set) must be dropped
// for a page of prior (the pages of the index it ran against, by
// warc.Ref.Key) in that segment, with the same record ID and URI, at a
// Jaccard >= τ (same_site_tau within a site) or as an exact-text copy
// (Jaccard 1); the index page's cluster line lists the pages dropped for
// it.
func CheckDecisionsAgainst(ds []DecisionRecord, clusters []ClusterRecord, pairs []PairRecord, p config.Params, prior map[string]dedup.Prior) []error {
	var errs []error
	bad := func(format string, args ...any) {
		if len(errs) < 50 {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	byLoc := map[string]DecisionRecord{}
	for _, d := range ds {
		loc := d.Key()
		if _, dup := byLoc[loc]; dup {
			bad("two decisions for %s", loc)
		}
		byLoc[loc] = d
	}
	// Lines stand for more pairs than they are when exact copies were
	// collapsed (dedup.ExpandPairs); the index answers without expanding.
	ix := dedup.NewPairIndex(pairs)
	keptIn := map[string][]string{} // exact-copy group -> its kept pages
	for loc, d := range byLoc {
		if d.Keep {
			g := ix.Group(loc)
			keptIn[g] = append(keptIn[g], loc)
		}
	}
	for g, k := range keptIn {
		if len(k) > 1 {
			bad("exact copies %s of group %s are all kept", strings.Join(k, ", "), g)
		}
	}
	for _, p := range pairs {
		a, b := p.A().Key(), p.B().Key()
		da, okA := byLoc[a]
		db, okB := byLoc[b]
		if !okA || !okB {
			bad("pair %s — %s: a page without a decision", a, b)
			continue
		}
		if !p.Exact && p.NearDuplicate && len(keptIn[ix.Group(a)]) > 0 && len(keptIn[ix.Group(b)]) > 0 {
			bad("pair %s — %s joins two kept pages", a, b)
		}
		for _, d := range []DecisionRecord{da, db} {
			if p.IsTextCopy() {
				if d.Method != dedup.DecideExactText {
					bad("text-copy pair %s — %s: page %s decided by %s, not by its text", a, b, d.Key(), d.Method)
				}
				continue
			}
			if d.Method == dedup.DecideExactText || d.Method == dedup.DecideNoText {
				bad("paired page %s decided by %s", d.Key(), d.Method)
			}
		}
	}
	members := map[string]int{} // kept page location -> pages it dropped
	for loc, d := range byLoc {
		if d.Keep {
			if d.KeptBy != "" || d.KeptByURI != "" || d.Jaccard != 0 {
				bad("kept page %s has kept_by %q jaccard %v", loc, d.KeptBy, d.Jaccard)
			}
			continue
		}
		keeper := d.Keeper()
		k := keeper.Key()
		if d.KeptBySegment != "" {
			q, ok := prior[k]
			switch {
			case prior == nil:
				bad("dropped page %s: kept_by_segment %s, and no index to check it against", loc, d.KeptBySegment)
			case !ok || q.Segment != d.KeptBySegment || q.RecordID != keeper.RecordID || q.URI != keeper.URI:
				bad("dropped page %s: kept_by %s (%s) at %s is not a page of index segment %s", loc, d.KeptBy, d.KeptByURI, k, d.KeptBySegment)
			default:
				min := p.Tau
				if !p.SiteRule().Keep(d.Jaccard, dedup.SiteOf(d.Ref), dedup.SiteOf(keeper)) {
					min = max(min, p.SameSiteTau)
				}
				if d.Method == dedup.DecideExactText && d.Jaccard != 1 || d.Method != dedup.DecideExactText && d.Jaccard < min {
					bad("dropped page %s (%s): kept_by %s of segment %s at jaccard %v, below %v", loc, d.Method, k, d.KeptBySegment, d.Jaccard, min)
				}
			}
			members[k]++
			continue
		}
		if kd, ok := byLoc[k]; !ok || !kd.Keep || kd.RecordID != keeper.RecordID || kd.URI != keeper.URI {
			bad("dropped page %s: kept_by %s (%s) at %s is not a kept page", loc, d.KeptBy, d.KeptByURI, k)
			continue
		}
		members[k]++
		min := p.Tau
		if !p.SiteRule().Keep(d.Jaccard, ix.Site(d.Ref), ix.Site(keeper)) {
			min = max(min, p.SameSiteTau)
		}
		ok := false
		if d.Method == dedup.DecideExactText {
			ok = d.Jaccard == 1 && byLoc[k].Method == dedup.DecideExactText
		} else if j, paired := ix.Jaccard(loc, k); paired && j == d.Jaccard && j >= min {
			ok = true
		}
		if !ok {
			bad("dropped page %s (%s): kept_by %s at jaccard %v is not a pair >= %v nor an exact-text copy", loc, d.Method, k, d.Jaccard, min)
		}
	}
	seen := map[string]bool{}
	for _, c := range clusters {
		k := c.Key()
		if seen[k] {
			bad("cluster of %s listed twice", k)
		}
		seen[k] = true
		if _, inIndex := prior[k]; inIndex {
			// a page of the index: checked by the pages that name it
		} else if d, ok := byLoc[k]; !ok || !d.Keep {
			bad("cluster of %s: not a kept page", k)
		}
		if c.Size != 1+len(c.Dropped) || len(c.Dropped) != members[k] {
			bad("cluster of %s: size %d, %d dropped, %d pages name it as kept_by", k, c.Size, len(c.Dropped), members[k])
		}
	}
	if len(seen) != len(members) {
		bad("%d clusters, %d kept pages with drops", len(seen), len(members))
	}
	return errs
}
