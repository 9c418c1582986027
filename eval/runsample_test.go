package eval

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/ndd-beam/ndd-beam/warc"
)

// Runs of five words both texts hold are marked, case aside; a Han or
// kana character is a word, as spotsig.Tokenize counts them.
func TestSharedRuns(t *testing.T) {
	for _, c := range []struct {
		a, b         string
		markA, markB []string
	}{
		{"Alpha beta gamma delta epsilon. Zeta eta theta iota kappa.", "x alpha BETA gamma delta epsilon y zeta eta theta iota",
			[]string{"Alpha beta gamma delta epsilon"}, []string{"alpha BETA gamma delta epsilon"}},
		{"one two three four", "one two three four", nil, nil}, // shorter than a run
		{"東京都の天気", "今日の東京都の天気は", []string{"東京都の天気"}, []string{"東京都の天気"}},
	} {
		ra, rb := sharedRuns(c.a, c.b, 5)
		if got := cut(c.a, ra); !reflect.DeepEqual(got, c.markA) {
			t.Errorf("%q: marked %q, want %q", c.a, got, c.markA)
		}
		if got := cut(c.b, rb); !reflect.DeepEqual(got, c.markB) {
			t.Errorf("%q: marked %q, want %q", c.b, got, c.markB)
		}
	}
}

func cut(s string, rs [][2]int) []string {
	var out []string
	for _, r := range rs {
		out = append(out, s[r[0]:r[1]])
	}
	return out
}

func TestSharedSignatures(t *testing.T) {
	n, top := sharedSignatures([]string{"a:x", "a:x", "b:y", "c:z"}, []string{"a:x", "a:x", "a:x", "c:z", "d:w"}, 1)
	if n != 3 || !reflect.DeepEqual(top, []string{"a:x"}) {
		t.Errorf("shared %d, top %q; want 3, [a:x]", n, top)
	}
}

// readRecordAt finds a record by seeking to its offset: in a file of one
// gzip member per record, in a plain .warc, and inside the one gzip member
// of a ClueWeb09 file (inner offsets); it gives what reading the whole
// file gives.
func TestReadRecordAt(t *testing.T) {
	for _, name := range []string{"../testdata/aut__example.warc.gz", "../testdata/npm-warc-1.0.1__CC-MAIN-20140820021334-00006-ip-10-180-136-8.ec2.internal.warc",
		"../testdata/copycat__clueweb-09-sample-en0000-00.warc.gz"} {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		var recs []warc.Record
		err = warc.ReadFile(f, name, warc.Options{}, func(r warc.Record) error {
			if r.Skip == "" {
				recs = append(recs, r)
			}
			return nil
		})
		f.Close()
		if err != nil || len(recs) < 3 {
			t.Fatalf("%s: %d pages, %v", name, len(recs), err)
		}
		for _, want := range []warc.Record{recs[0], recs[len(recs)/2], recs[len(recs)-1]} {
			got, err := readRecordAt(name, want.Offset, want.InnerOffset, warc.Options{})
			if err != nil {
				t.Errorf("%s @ %d+%d: %v", name, want.Offset, want.InnerOffset, err)
				continue
			}
			if got.RecordID != want.RecordID || !bytes.Equal(got.Payload, want.Payload) || got.ContentType != want.ContentType {
				t.Errorf("%s @ %d+%d: read %s (%d bytes), want %s (%d bytes)", name, want.Offset, want.InnerOffset, got.RecordID, len(got.Payload), want.RecordID, len(want.Payload))
			}
		}
		if _, err := readRecordAt(name, recs[1].Offset+1, 0, warc.Options{}); err == nil {
			t.Errorf("%s: a record found one byte after a record's start", name)
		}
	}
}
