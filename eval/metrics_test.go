package eval

import (
	"math"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/output"
)

// The tiny truth file (testdata/tiny_truth.jsonl) has six documents:
//
//	cluster A: a1, a2, a3  -> labelled pairs a1-a2, a1-a3, a2-a3 (3)
//	cluster B: b1, b2      -> labelled pair  b1-b2           (1)
//	single-1:  s1          -> none
//
// so there are 4 positive pairs. The two pairs files predict, in order:
//
//	a1-a2  TP
//	a2-a3  TP
//	b1-s1  FP (different clusters)
//	a1-b1  FP
//	a2-a1  repeat of a1-a2: counted once, reported as Repeated
//	a3-a3  self pair: not scored, reported as SelfPairs
//	zz-a1  unknown record urn:zz, unknown URI: reported in Unknown
//	b1-b2  TP, b1 found by URI (empty record id), b2 by URI fallback
//	       (its record id urn:other-id is unknown, its URI is known)
//
// TP = 3, FP = 2, FN = 1 (a1-a3).
// P  = 3/(3+2) = 0.6
// R  = 3/(3+1) = 0.75
// F1 = 2·0.6·0.75/(0.6+0.75) = 0.9/1.35 = 2/3
// Cluster A recall 2/3 (a1-a2, a2-a3 of 3), cluster B recall 1/1.
func TestEvaluateTinyHandChecked(t *testing.T) {
	truth, err := LoadTruth("testdata/tiny_truth.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := truth.PositivePairs(); got != 4 {
		t.Fatalf("PositivePairs = %d, want 4", got)
	}
	pairs, files, err := output.ReadAll[PairRecord]("testdata/tiny_pairs*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || len(pairs) != 8 {
		t.Fatalf("read %d files, %d pairs; want 2 files, 8 pairs", len(files), len(pairs))
	}
	r := Evaluate(truth, pairs)
	if r.TruePositives != 3 || r.FalsePositives != 2 || r.FalseNegatives != 1 {
		t.Errorf("TP/FP/FN = %d/%d/%d, want 3/2/1", r.TruePositives, r.FalsePositives, r.FalseNegatives)
	}
	if r.Predicted != 5 || r.Positives != 4 {
		t.Errorf("Predicted/Positives = %d/%d, want 5/4", r.Predicted, r.Positives)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	if !near(r.Precision, 0.6) || !near(r.Recall, 0.75) || !near(r.F1, 2.0/3) {
		t.Errorf("P/R/F1 = %v/%v/%v, want 0.6/0.75/0.6667", r.Precision, r.Recall, r.F1)
	}
	if r.Repeated != 1 || r.SelfPairs != 1 {
		t.Errorf("Repeated/SelfPairs = %d/%d, want 1/1", r.Repeated, r.SelfPairs)
	}
	if len(r.Unknown) != 1 || r.Unknown[0].ARecordID != "urn:zz" {
		t.Errorf("Unknown = %+v, want the urn:zz pair", r.Unknown)
	}
	if len(r.Clusters) != 2 {
		t.Fatalf("Clusters = %+v, want A and B", r.Clusters)
	}
	a, b := r.Clusters[0], r.Clusters[1]
	if a.Cluster != "A" || a.Size != 3 || a.Pairs != 3 || a.Found != 2 || !near(a.Recall, 2.0/3) {
		t.Errorf("cluster A = %+v, want size 3, 2 of 3 pairs", a)
	}
	if b.Cluster != "B" || b.Found != 1 || b.Recall != 1 {
		t.Errorf("cluster B = %+v, want 1 of 1", b)
	}
	// The missed pair is a1-a3, indices 0 and 2 in file order.
	if len(r.FN) != 1 || r.FN[0] != (IndexPair{0, 2}) {
		t.Errorf("FN = %v, want [{0 2}]", r.FN)
	}
}

// Nothing predicted: P is defined as 0, R = 0, F1 = 0, and every labelled
// pair is a false negative.
func TestEvaluateEmpty(t *testing.T) {
	truth, err := LoadTruth("testdata/tiny_truth.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r := Evaluate(truth, nil)
	if r.Precision != 0 || r.Recall != 0 || r.F1 != 0 || r.FalseNegatives != 4 {
		t.Errorf("empty prediction: %+v", r)
	}
}

// A perfect prediction (every labelled pair, nothing else) scores 1/1/1.
func TestEvaluatePerfect(t *testing.T) {
	truth, err := LoadTruth("testdata/tiny_truth.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r := EvaluateIndex(truth, []IndexPair{{1, 0}, {0, 2}, {2, 1}, {3, 4}})
	if r.Precision != 1 || r.Recall != 1 || r.F1 != 1 {
		t.Errorf("perfect prediction: P/R/F1 = %v/%v/%v", r.Precision, r.Recall, r.F1)
	}
}

func TestReadTruthErrors(t *testing.T) {
	cases := map[string]string{
		"duplicate id": `{"record_id":"x","uri":"u1","cluster":"c"}` + "\n" + `{"record_id":"x","uri":"u2","cluster":"c"}`,
		"no cluster":   `{"record_id":"x","uri":"u1"}`,
		"no key":       `{"cluster":"c"}`,
		"malformed":    `{"record_id":`,
	}
	for name, in := range cases {
		if _, err := ReadTruth(strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// A URI that appears twice in the truth cannot identify a document.
func TestLookupAmbiguousURI(t *testing.T) {
	truth, err := ReadTruth(strings.NewReader(
		`{"record_id":"x","uri":"u","cluster":"c"}` + "\n" + `{"record_id":"y","uri":"u","cluster":"d"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := truth.Lookup("", "u"); ok {
		t.Error("ambiguous URI resolved")
	}
	if i, ok := truth.Lookup("y", "u"); !ok || i != 1 {
		t.Errorf("Lookup(y) = %d, %v", i, ok)
	}
}
