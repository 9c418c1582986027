package eval

import (
	"slices"
	"sort"

	"github.com/ndd-beam/ndd-beam/dedup"
)

// IndexPair is a predicted near-duplicate pair given as indices into
// Truth.Records. Order does not matter; I == J is a self pair.
type IndexPair struct{ I, J int }

// ClusterRecall is the recall of one positive cluster (size ≥ 2): how many of
// its Pairs = size·(size−1)/2 labelled pairs were found.
type ClusterRecall struct {
	Cluster string  `json:"cluster"`
	Size    int     `json:"size"`
	Pairs   int64   `json:"pairs"`
	Found   int64   `json:"found"`
	Recall  float64 `json:"recall"`
}

// Result is the pairwise evaluation of predicted pairs against a truth file.
//
// Precision, Recall and F1 are micro-averaged over all unordered document
// pairs, as in the paper (§5.1): TP = predicted pairs in one cluster,
// FP = predicted pairs across clusters, FN = labelled pairs not predicted.
// Precision is 0 when nothing was predicted, Recall is 0 when the truth has
// no positive pair, and F1 is 0 when both are 0.
type Result struct {
	Predicted      int64   `json:"predicted"` // distinct scored pairs = TP + FP
	TruePositives  int64   `json:"true_positives"`
	FalsePositives int64   `json:"false_positives"`
	FalseNegatives int64   `json:"false_negatives"`
	Positives      int64   `json:"positives"` // labelled pairs = TP + FN
	Precision      float64 `json:"precision"`
	Recall         float64 `json:"recall"`
	F1             float64 `json:"f1"`

	// Pairs that could not be scored, reported rather than dropped:
	// Unknown holds pairs naming a document the truth does not know (by
	// record ID, nor by unique URI); Repeated counts pairs predicted more
	// than once (scored once); SelfPairs counts pairs of a document with
	// itself (not scored).
	Unknown   []PairRecord `json:"unknown,omitempty"`
	Repeated  int64        `json:"repeated"`
	SelfPairs int64        `json:"self_pairs"`

	// Clusters holds the recall of every positive cluster, sorted by
	// cluster id.
	Clusters []ClusterRecall `json:"clusters"`

	// TP, FP and FN list the scored pairs (I < J, sorted), for Explain.
	TP, FP, FN []IndexPair `json:"-"`
}

// Evaluate scores a pairs output against t, with its exact-copy lines
// expanded into the pairs they stand for (dedup.ExpandPairs). Each pair's
// documents are found by record ID, falling back to the target URI
// (Truth.Lookup).
func Evaluate(t *Truth, pairs []PairRecord) Result {
	for _, p := range pairs {
		if p.Exact {
			pairs = dedup.ExpandPairs(pairs)
			break
		}
	}
	idx := make([]IndexPair, 0, len(pairs))
	var unknown []PairRecord
	for _, p := range pairs {
		i, okA := t.Lookup(p.ARecordID, p.AURI)
		j, okB := t.Lookup(p.BRecordID, p.BURI)
		if !okA || !okB {
			unknown = append(unknown, p)
			continue
		}
		idx = append(idx, IndexPair{i, j})
	}
	r := EvaluateIndex(t, idx)
	r.Unknown = unknown
	return r
}

// EvaluateIndex scores predicted pairs given as indices into t.Records (the
// in-process harness's form). Indices must be in range.
func EvaluateIndex(t *Truth, pairs []IndexPair) Result {
	var r Result
	seen := make(map[uint64]struct{}, len(pairs))
	for _, p := range pairs {
		i, j := p.I, p.J
		if i == j {
			r.SelfPairs++
			continue
		}
		if i > j {
			i, j = j, i
		}
		k := uint64(i)<<32 | uint64(j)
		if _, dup := seen[k]; dup {
			r.Repeated++
			continue
		}
		seen[k] = struct{}{}
		if t.Same(i, j) {
			r.TP = append(r.TP, IndexPair{i, j})
		} else {
			r.FP = append(r.FP, IndexPair{i, j})
		}
	}
	sortPairs(r.TP)
	sortPairs(r.FP)

	names := make([]string, 0, len(t.clusters))
	for c, m := range t.clusters {
		if len(m) >= 2 {
			names = append(names, c)
		}
	}
	sort.Strings(names)
	for _, c := range names {
		m := t.clusters[c]
		cr := ClusterRecall{Cluster: c, Size: len(m), Pairs: int64(len(m)) * int64(len(m)-1) / 2}
		for a := 0; a < len(m); a++ {
			for b := a + 1; b < len(m); b++ {
				if _, ok := seen[uint64(m[a])<<32|uint64(m[b])]; ok {
					cr.Found++
				} else {
					r.FN = append(r.FN, IndexPair{m[a], m[b]})
				}
			}
		}
		cr.Recall = float64(cr.Found) / float64(cr.Pairs)
		r.Clusters = append(r.Clusters, cr)
		r.Positives += cr.Pairs
	}
	sortPairs(r.FN)

	r.TruePositives = int64(len(r.TP))
	r.FalsePositives = int64(len(r.FP))
	r.FalseNegatives = int64(len(r.FN))
	r.Predicted = r.TruePositives + r.FalsePositives
	r.Precision, r.Recall, r.F1 = prf(r.TruePositives, r.FalsePositives, r.FalseNegatives)
	return r
}

// prf returns precision, recall and F1 = 2PR/(P+R) from pair counts.
func prf(tp, fp, fn int64) (p, r, f1 float64) {
	if tp+fp > 0 {
		p = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		r = float64(tp) / float64(tp+fn)
	}
	if p+r > 0 {
		f1 = 2 * p * r / (p + r)
	}
	return p, r, f1
}

// rates returns right/made (1 when nothing was made: no drop is no wrong
// drop) and right/possible (0 when nothing was possible): the precision
// and recall of drops or of predicted pairs.
func rates(right, made, possible int) (precision, recall float64) {
	precision = 1
	if made > 0 {
		precision = float64(right) / float64(made)
	}
	if possible > 0 {
		recall = float64(right) / float64(possible)
	}
	return precision, recall
}

func sortPairs(ps []IndexPair) {
	slices.SortFunc(ps, func(a, b IndexPair) int {
		if a.I != b.I {
			return a.I - b.I
		}
		return a.J - b.J
	})
}
