package transforms

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/warc"
)

// TestSortDocsIsCanonical holds sortDocs to a plain sort by warc.Ref.Compare
// on the records of the bundled WARC files (real record IDs, of several
// forms), shuffled, and on IDs that defeat its 16-byte keys: IDs that are
// prefixes of others or end in NUL bytes, IDs shorter than the prefix the
// others share, and one ID in several files and offsets.
func TestSortDocsIsCanonical(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.warc*"))
	if len(files) == 0 {
		t.Fatal("no WARC file in testdata")
	}
	var refs []warc.Ref
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		err = warc.ReadFile(f, name, config.DefaultParams().WARCOptions(), func(r warc.Record) error {
			refs = append(refs, r.Ref())
			return nil
		})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(refs) < 1000 {
		t.Fatalf("%d records read, want the bundled files' thousands", len(refs))
	}
	uuid := "urn:uuid:0f9b3c1e-1111-4a2b-9c3d-"
	edge := []warc.Ref{
		{RecordID: uuid + "000000000001", File: "b", Offset: 2},
		{RecordID: uuid + "000000000001", File: "a", Offset: 9},
		{RecordID: uuid + "000000000001", File: "a", Offset: 9, Inner: 1},
		{RecordID: uuid + "000000000001", File: "a", Offset: 3},
		{RecordID: uuid + "0000000000010", File: "a"},
		{RecordID: uuid + "000000000001\x00", File: "a"},
		{RecordID: uuid + "000000000001\x00\x00", File: "a"},
		{RecordID: uuid, File: "a"},
		{RecordID: "urn:uuid:", File: "a"},
		{RecordID: "", File: "a", Offset: 1},
		{RecordID: "", File: "a"},
	}
	for _, set := range [][]warc.Ref{refs, edge, append(slices.Clone(edge), refs...), edge[:5], edge[:8]} {
		docs := make([]*matchDoc, len(set))
		for i, r := range set {
			docs[i] = &matchDoc{matchBody: &matchBody{Ref: r}}
		}
		// A fixed shuffle: reversed, then every other element moved to the end.
		slices.Reverse(docs)
		var odd, even []*matchDoc
		for i, d := range docs {
			if i%2 == 0 {
				even = append(even, d)
			} else {
				odd = append(odd, d)
			}
		}
		docs = append(even, odd...)
		want := slices.Clone(docs)
		slices.SortFunc(want, func(x, y *matchDoc) int { return x.Compare(y.Ref) })
		sortDocs(docs)
		for i := range docs {
			if docs[i] != want[i] {
				t.Fatalf("set of %d: position %d holds %+v, want %+v", len(set), i, docs[i].Ref, want[i].Ref)
			}
		}
	}
	for i := range edge {
		for j := range edge {
			a, b := edge[i], edge[j]
			if c := a.Compare(b); (c < 0) != a.Less(b) || (c > 0) != b.Less(a) {
				t.Errorf("Compare(%q, %q) = %d, Less says %v / %v", a.RecordID, b.RecordID, c, a.Less(b), b.Less(a))
			}
		}
	}
}
