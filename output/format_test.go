package output

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/warc"
)

// writeShard writes rows as the job does (their JSON lines, through the
// format's encoder) to the shard file of prefix in dir.
func writeShard[T Row](t *testing.T, f *Format, dir, prefix string, rows []T) string {
	t.Helper()
	path := filepath.Join(dir, f.ShardName(prefix, 0, 1))
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := f.NewEncoder(file, prefix)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := enc.Encode(string(b)); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	if err := file.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// Every format gives back the rows written, field for field: offset 0 of
// a kept-by page stays 0 (not null), a kept page's kept-by fields stay
// absent, caps and dropped lists keep their order, text keeps its tabs,
// newlines and non-ASCII letters.
func TestFormatsRoundTrip(t *testing.T) {
	zero, one := int64(0), int64(1)
	ref := func(i int64) warc.Ref {
		return warc.Ref{File: "crawl/a.warc.gz", Offset: i * 1000, Inner: i % 2, RecordID: "urn:uuid:" + string(rune('a'+i)), URI: "http://ex.ample/ü?a=1&b=" + string(rune('a'+i))}
	}
	decisions := []Decision{
		{Ref: ref(0), Keep: true, Method: "spotsigs"},
		{Ref: ref(1), Keep: false, KeptBy: "urn:uuid:a", KeptByURI: "http://ex.ample/", KeptByFile: "crawl/a.warc.gz", KeptByOffset: &zero, KeptByInner: &one, Jaccard: 0.8125, Method: "spotsigs", Capped: []string{"input-bytes", "tokens"}},
		{Ref: ref(2), Keep: false, KeptBy: "urn:uuid:x", KeptByOffset: &one, KeptByInner: &zero, KeptBySegment: "segment-20261126", Jaccard: 1, Method: "exact-text"},
	}
	pairs := []PairRecord{
		{ARecordID: "urn:uuid:a", AURI: "http://ex.ample/a", BRecordID: "urn:uuid:b", Jaccard: 0.9166666666666666, AFile: "a.warc", BFile: "b.warc", BOffset: 7, ASignatures: 12, BSignatures: 13, AShare: 0.95, BShare: 1, NearDuplicate: true},
		{ARecordID: "urn:uuid:c", BRecordID: "urn:uuid:d", Jaccard: 1, Exact: true, NearDuplicate: true, AShare: 1, BShare: 1},
	}
	clusters := []Cluster{{Ref: ref(0), Dropped: []string{"urn:uuid:b", "urn:uuid:c"}, Size: 3}, {Ref: ref(3), Dropped: []string{"urn:uuid:z"}, Size: 2, Segment: "segment-1"}}
	rejects := []Reject{{Ref: warc.Ref{File: "gone.warc", Offset: -1}, Reason: "unreadable-file", Detail: "open gone.warc:\tno such file\nor directory"}, {Ref: ref(4), Reason: "not-html", Detail: "image/png"}}
	for _, f := range formats {
		t.Run(strings.TrimPrefix(f.Suffix, "."), func(t *testing.T) {
			dir := t.TempDir()
			roundTrip(t, f, dir, Decisions, decisions)
			roundTrip(t, f, dir, Pairs, pairs)
			roundTrip(t, f, dir, Clusters, clusters)
			roundTrip(t, f, dir, Rejects, rejects)
			roundTrip(t, f, t.TempDir(), Pairs, []PairRecord(nil)) // an empty shard
		})
	}
}

func roundTrip[T Row](t *testing.T, f *Format, dir, prefix string, rows []T) {
	t.Helper()
	writeShard(t, f, dir, prefix, rows)
	got, files, err := ReadAll[T](Glob(dir, prefix))
	if err != nil || len(files) != 1 {
		t.Fatalf("%s: %v, files %q", prefix, err, files)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("%s in %s:\n%+v\nwant\n%+v", prefix, f.Suffix, got, rows)
	}
}

// The reader refuses what is not one run's outputs, naming the file and
// the row.
func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Read(Glob(dir, Pairs), func(PairRecord) error { return nil }); err == nil || !strings.Contains(err.Error(), "no file matches") {
		t.Errorf("no shard: %v", err)
	}
	ok := Decision{Ref: warc.Ref{File: "a", RecordID: "urn:1"}, Keep: true, Method: "spotsigs"}
	writeShard(t, JSONLines, dir, Decisions, []Decision{ok, {Ref: warc.Ref{File: "a", Offset: 9, RecordID: "urn:2"}, Method: "spotsigs"}})
	_, err := Read(Glob(dir, Decisions), func(Decision) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "decisions-00000-of-00001.jsonl: row 2: dropped without kept_by") {
		t.Errorf("dropped without kept_by: %v", err)
	}
	writeShard(t, Parquet, dir, Decisions, []Decision{ok})
	if _, err := Read(Glob(dir, Decisions), func(Decision) error { return nil }); err == nil || !strings.Contains(err.Error(), "two formats") {
		t.Errorf("two formats: %v", err)
	}
	bad := filepath.Join(dir, "pairs-00000-of-00001.jsonl")
	os.WriteFile(bad, []byte(`{"a_record_id":"x","b_record_id":"y"}`+"\n\n"+`{"a_record_id":`+"\n"), 0o644)
	if _, err := Read(bad, func(PairRecord) error { return nil }); err == nil || !strings.Contains(err.Error(), bad+": row 3:") {
		t.Errorf("malformed line: %v", err)
	}
	os.WriteFile(bad, []byte("PAR1 not really"), 0o644)
	if _, err := Read(filepath.Join(dir, "pairs-*.parquet"), func(PairRecord) error { return nil }); err == nil {
		t.Error("a damaged Parquet file read")
	}
	if err := Decode("pairs.csv", strings.NewReader(""), func(PairRecord) error { return nil }); err == nil || !strings.Contains(err.Error(), "not a file of the job's formats") {
		t.Errorf("unknown suffix: %v", err)
	}
}

func TestFormatOf(t *testing.T) {
	for _, c := range []struct {
		name, compression string
		want              *Format
	}{{"jsonl", "none", JSONLines}, {"jsonl", "gzip", GzipJSONLines}, {"parquet", "none", Parquet}, {"parquet", "gzip", nil}, {"csv", "none", nil}} {
		f, err := FormatOf(c.name, c.compression)
		if f != c.want || (err == nil) != (c.want != nil) {
			t.Errorf("FormatOf(%q, %q) = %v, %v", c.name, c.compression, f, err)
		}
	}
	for name, want := range map[string]*Format{"a/pairs-00000-of-00001.jsonl.gz": GzipJSONLines, "x.jsonl": JSONLines, "p.parquet": Parquet, "p.json": nil} {
		if f, _ := FormatOfFile(name); f != want {
			t.Errorf("FormatOfFile(%q) = %v", name, f)
		}
	}
}
