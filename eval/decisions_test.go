package eval

import (
	"strings"
	"testing"
)

func TestEvaluateDrops(t *testing.T) {
	truth, err := ReadTruth(strings.NewReader(`{"record_id":"a","uri":"u:a","cluster":"x"}
{"record_id":"b","uri":"u:b","cluster":"x"}
{"record_id":"c","uri":"u:c","cluster":"x"}
{"record_id":"d","uri":"u:d","cluster":"y"}
{"record_id":"e","uri":"u:e","cluster":"z"}
`))
	if err != nil {
		t.Fatal(err)
	}
	// b correctly dropped by a; d wrongly dropped by a; c kept (a missed drop).
	r := EvaluateDrops(truth, []DecisionRecord{
		dec("a", true, ""), dec("b", false, "a"), dec("c", true, ""),
		dec("d", false, "a"), dec("e", true, ""), dec("q", false, "a"),
	})
	if r.Dropped != 3 || r.CorrectDrops != 1 || r.PossibleDrops != 2 || len(r.Unknown) != 1 {
		t.Fatalf("%+v", r)
	}
	if r.Unique != 2 || r.UniqueDropped != 1 { // d dropped, e kept
		t.Errorf("unique pages dropped %d of %d, want 1 of 2", r.UniqueDropped, r.Unique)
	}
	if r.DropPrecision != 1.0/3 || r.DropRecall != 0.5 {
		t.Errorf("precision %v recall %v, want 1/3 and 1/2", r.DropPrecision, r.DropRecall)
	}
}

func dec(id string, keep bool, keptBy string) DecisionRecord {
	d := DecisionRecord{Keep: keep, KeptBy: keptBy}
	d.RecordID = id
	return d
}
