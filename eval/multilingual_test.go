package eval

import (
	"strings"
	"testing"
)

// ByLanguage on a hand-checked truth: cluster A (de: a1, a2, a3), cluster
// B (fr: b1, b2) and fr singleton f1 which is a translation of a1.
// Predicted: a1-a2 TP (de), a1-f1 FP across languages, b1-f1 FP (fr).
// de: TP 1, FP 0, FN 2 (a1-a3, a2-a3): P 1, R 1/3, F1 0.5.
// fr: TP 0, FP 1, FN 1 (b1-b2): F1 0.
func TestByLanguageHandChecked(t *testing.T) {
	truth, err := ReadTruth(strings.NewReader(`{"record_id":"a1","uri":"u:a1","cluster":"A","lang":"de"}
{"record_id":"a2","uri":"u:a2","cluster":"A","lang":"de"}
{"record_id":"a3","uri":"u:a3","cluster":"A","lang":"de"}
{"record_id":"b1","uri":"u:b1","cluster":"B","lang":"fr"}
{"record_id":"b2","uri":"u:b2","cluster":"B","lang":"fr"}
{"record_id":"f1","uri":"u:f1","cluster":"single-f1","lang":"fr"}
`))
	if err != nil {
		t.Fatal(err)
	}
	r := EvaluateIndex(truth, []IndexPair{{0, 1}, {0, 5}, {3, 5}})
	rows, cross := ByLanguage(truth, r)
	if cross != 1 {
		t.Errorf("cross-language FP = %d, want 1", cross)
	}
	if len(rows) != 2 || rows[0].Lang != "de" || rows[1].Lang != "fr" {
		t.Fatalf("rows %+v, want de and fr", rows)
	}
	de, fr := rows[0], rows[1]
	if de.Pages != 3 || de.TruePositives != 1 || de.FalsePositives != 0 || de.FalseNegatives != 2 || de.F1 != 0.5 {
		t.Errorf("de %+v, want 3 pages, TP 1 FP 0 FN 2, F1 0.5", de)
	}
	if fr.Pages != 3 || fr.TruePositives != 0 || fr.FalsePositives != 1 || fr.FalseNegatives != 1 || fr.F1 != 0 {
		t.Errorf("fr %+v, want 3 pages, TP 0 FP 1 FN 1, F1 0", fr)
	}
}
