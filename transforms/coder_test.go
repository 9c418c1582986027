package transforms

import (
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// randomDoc builds a document with n distinct signatures, including the
// extreme hash values 0 and 2^64-1 and large frequencies.
func randomDoc(r *rand.Rand, n int) doc {
	hashes := make([]uint64, 0, n+2)
	for range n {
		hashes = append(hashes, r.Uint64())
	}
	hashes = append(hashes, 0, ^uint64(0), ^uint64(0))
	v := spotsig.NewVector(hashes)
	v.Freqs[0] = 1<<32 - 1
	return doc{
		Doc: dedup.Doc{
			Page: dedup.Page{Ref: warc.Ref{
				RecordID: "urn:uuid:1d66b0fd-aed4-4e9c-8bf3-660ae81ec115",
				URI:      "http://example.org/ä?x=1&y=2",
				File:     "gs://bucket/crawl/file-00001.warc.gz",
				Offset:   r.Int64N(1 << 40),
				Inner:    r.Int64N(1 << 20),
			}, Rank: "00ff17", Digest: "sha1:abc", Capped: []string{"tokens"}},
			Site: match.SiteOf("example.org", ""),
			Vec:  v,
		},
		Batch: "batch-1",
		Guest: r.IntN(2) == 1,
	}
}

func TestDocCoderRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	docs := []doc{{}, {Doc: dedup.Doc{Page: dedup.Page{Ref: warc.Ref{Offset: -1}}}}, randomDoc(r, 0), randomDoc(r, 1), randomDoc(r, 1000)}
	grouped := randomDoc(r, 3)
	grouped.Group = dedup.Group{Size: 7, Best: &dedup.Page{Ref: warc.Ref{File: "other", RecordID: "urn:x"}, Rank: "00aa"}}
	docs = append(docs, grouped)
	withBlocks := randomDoc(r, 0)
	withBlocks.Vec = spotsig.Vector{}
	withBlocks.Blocks = []spotsig.Block{
		{Hash: 7, Main: true, Next: ^uint64(0), Lang: "de", Vec: randomDoc(r, 20).Vec},
		{Hash: ^uint64(0), Prev: 7, Lang: "en", Vec: randomDoc(r, 3).Vec},
	}
	docs = append(docs, withBlocks)
	for i, d := range docs {
		b := encodeDoc(d)
		got, err := decodeDoc(b)
		if err != nil {
			t.Fatalf("doc %d: decode: %v", i, err)
		}
		if len(d.Vec.Hashes) == 0 {
			d.Vec = spotsig.Vector{} // nil and empty slices encode alike
		}
		if !reflect.DeepEqual(got, d) {
			t.Errorf("doc %d: round trip changed the document:\n got %+v\nwant %+v", i, got, d)
		}
	}
}

// The coder must be compact: on 1000 random 64-bit hashes (the worst case
// for delta coding, since real hashes are just as random) it must stay below
// the 12 bytes per signature of a fixed-width (uint64 + uint32) encoding.
func TestDocCoderCompact(t *testing.T) {
	d := randomDoc(rand.New(rand.NewPCG(3, 4)), 1000)
	d.Vec.Freqs[0] = 1
	n := len(d.Vec.Hashes)
	if got := len(encodeDoc(d)); got >= 12*n {
		t.Errorf("encoded %d signatures in %d bytes, want < %d", n, got, 12*n)
	}
}

func TestDocCoderRejectsCorruptInput(t *testing.T) {
	good := encodeDoc(randomDoc(rand.New(rand.NewPCG(5, 6)), 20))
	for cut := 0; cut < len(good); cut++ {
		if _, err := decodeDoc(good[:cut]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", cut, len(good))
		}
	}
	if _, err := decodeDoc(append(append([]byte{}, good...), 0)); err == nil {
		t.Error("trailing byte: no error")
	}
	bad := append([]byte{}, good...)
	bad[0] = 99
	if _, err := decodeDoc(bad); err == nil {
		t.Error("wrong version: no error")
	}
	// Two equal hashes (delta 0 after the first) violate "ascending, unique".
	dup := encodeDoc(doc{Doc: dedup.Doc{Vec: spotsig.Vector{Hashes: []uint64{5, 5}, Freqs: []uint32{1, 1}}}})
	if _, err := decodeDoc(dup); err == nil {
		t.Error("repeated hash: no error")
	}
	// An overlong varint (0 as 0x80 0x00) would give a second encoding.
	if _, err := decodeDoc([]byte{docCoderVersion, 0x80, 0x00, 0, 0, 0, 0, 0, 0}); err == nil {
		t.Error("non-minimal varint: no error")
	}
	// A huge signature count must fail before allocating.
	huge := append(append([]byte{docCoderVersion}, make([]byte, 20)...), 0xff, 0xff, 0xff, 0xff, 0x0f)
	if _, err := decodeDoc(huge); err == nil {
		t.Error("signature count beyond the input: no error")
	}
}

// A page whose Rank ends with its record ID and location, as every page
// dedup.Sign makes does (match.Policy.Rank), is written without them and
// read back whole; a whole Rank that ends with them is refused, so that a
// page has one encoding.
func TestPageCoderLeavesOutTheRankTail(t *testing.T) {
	ref := warc.Ref{RecordID: "urn:uuid:1d66b0fd-aed4-4e9c-8bf3-660ae81ec115", URI: "http://example.org/a", File: "gs://bucket/crawl/file-00001.warc.gz", Offset: 123456789, Inner: 7}
	pol, err := match.ParsePolicy("earliest")
	if err != nil {
		t.Fatal(err)
	}
	signed := dedup.Page{Ref: ref, Rank: pol.Rank(match.PageInfo{Date: "2026-11-28T00:00:00Z", RecordID: ref.RecordID, Location: ref.Key()}), Digest: "sha1:X", Date: "2026-11-28T00:00:00Z"}
	other := signed
	other.Rank = "00ff17"
	for _, p := range []dedup.Page{signed, other, {Ref: ref, Rank: string(rankTail(nil, ref))}} {
		b := appendPage(nil, p)
		r := &decoder{b: b}
		if got := r.page(); r.err != nil || len(r.b) != 0 || !reflect.DeepEqual(got, p) {
			t.Fatalf("page with Rank %q: read %+v (%v), wrote %+v", p.Rank, got, r.err, p)
		}
	}
	if b := string(appendPage(nil, signed)); strings.Count(b, ref.RecordID) != 1 || strings.Count(b, ref.File) != 1 {
		t.Fatalf("the record ID or file written twice: the Rank's tail was not left out")
	}
	// So on the pages dedup.Sign makes of a real file, at the job's policy.
	name := filepath.Join("..", "testdata", "dolma__sample-0000.warc.gz")
	pages := 0
	signPages(t, name, func(_ dedup.Candidate, s dedup.Signed) {
		pages++
		b := appendPage(nil, s.Doc.Page)
		if strings.Count(string(b), s.Doc.RecordID) != 1 {
			t.Fatalf("%s: the Rank's tail was not left out", s.Doc.Key())
		}
		if got := (&decoder{b: b}).page(); got.Rank != s.Doc.Rank {
			t.Fatalf("%s: Rank %q read back as %q", s.Doc.Key(), s.Doc.Rank, got.Rank)
		}
	})
	if pages == 0 {
		t.Fatalf("%s: no page", name)
	}
	// The same page with its whole Rank after a 0 flag.
	head := binary.AppendVarint(binary.AppendVarint(appendString(appendString(appendString(nil, ref.RecordID), ref.URI), ref.File), ref.Offset), ref.Inner)
	good := appendPage(nil, signed)
	rest := good[len(head)+1+len(appendString(nil, signed.Rank[:len(signed.Rank)-len(rankTail(nil, ref))])):]
	bad := append(appendString(append(slices.Clone(head), 0), signed.Rank), rest...)
	if r := (&decoder{b: bad}); r.page().Rank != "" || r.err == nil {
		t.Fatal("a whole Rank that ends with its tail: no error")
	}
}

// A batch of documents round-trips, and a corrupt one is refused.
func TestBatchCoderRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	b := docBatch{ID: "batch-7", Docs: []doc{randomDoc(r, 3), randomDoc(r, 0), randomDoc(r, 50)}}
	enc := encodeBatch(b)
	got, err := decodeBatch(enc)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, b) {
		t.Errorf("round trip changed the batch:\n got %+v\nwant %+v", got, b)
	}
	for cut := 0; cut < len(enc); cut += 7 {
		if _, err := decodeBatch(enc[:cut]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", cut, len(enc))
		}
	}
	if e, err := decodeBatch(encodeBatch(docBatch{ID: "empty"})); err != nil || e.ID != "empty" || len(e.Docs) != 0 {
		t.Errorf("empty batch: %+v, %v", e, err)
	}
}

// The documents of a decoded batch share one string for their file, batch
// ID and language: they repeat from document to document, and a copy each
// costs every page its file's path again (docs/benchmarks.md, "Decide's
// join without vectors and sketches").
func TestBatchCoderSharesRepeatedStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	b := docBatch{ID: "batch-7", Docs: []doc{randomDoc(r, 3), randomDoc(r, 5), randomDoc(r, 8)}}
	for i := range b.Docs {
		b.Docs[i].Batch, b.Docs[i].Lang = b.ID, "de"
	}
	b.Docs[2].File = "gs://bucket/crawl/file-00002.warc.gz"
	got, err := decodeBatch(encodeBatch(b))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, b) {
		t.Fatalf("round trip changed the batch:\n got %+v\nwant %+v", got, b)
	}
	same := func(x, y string) bool { return unsafe.StringData(x) == unsafe.StringData(y) }
	d := got.Docs
	if !same(d[0].File, d[1].File) || !same(d[0].Batch, d[2].Batch) || !same(d[0].Lang, d[2].Lang) {
		t.Error("equal file, batch ID or language decoded into separate strings")
	}
	if d[2].File != b.Docs[2].File || d[1].File != b.Docs[1].File {
		t.Errorf("files %q, %q: want %q, %q", d[1].File, d[2].File, b.Docs[1].File, b.Docs[2].File)
	}
}

// What Decide's join holds of a batch (appendNodes) is each document's
// page and group, and nothing else; corrupt input is refused.
func TestNodesCoderRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	b := docBatch{ID: "batch-9", Docs: []doc{randomDoc(r, 3), randomDoc(r, 0), randomDoc(r, 40)}}
	b.Docs[1].Group = dedup.Group{Size: 1}
	b.Docs[2].Group = dedup.Group{Size: 4, Best: &dedup.Page{Ref: warc.Ref{File: "other", RecordID: "urn:x", Offset: 9}, Rank: "00aa", Date: "2024-01-02T03:04:05Z"}}
	b.Docs[2].Sketch = spotsig.SketchText([]byte("a sketch that the nodes leave behind"))
	enc := appendNodes(nil, b)
	got, err := decodeNodes(enc)
	if err != nil {
		t.Fatal(err)
	}
	var want []dedup.Doc
	for _, d := range b.Docs {
		want = append(want, dedup.Doc{Page: d.Page, Group: d.Group})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
	}
	if len(enc) >= len(encodeBatch(b)) {
		t.Errorf("nodes take %d bytes, the batch %d: want fewer", len(enc), len(encodeBatch(b)))
	}
	for cut := 0; cut < len(enc); cut++ {
		if _, err := decodeNodes(enc[:cut]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", cut, len(enc))
		}
	}
	if _, err := decodeNodes(append(enc, 0)); err == nil {
		t.Error("a trailing byte: no error")
	}
}

// A Part carries exactly what matching needs of each document, and
// rejects truncated input.
func TestPartCoderRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var p docPart
	for i, n := range []int{3, 0, 50} {
		d := randomDoc(r, n)
		d.Batch, d.Guest = fmt.Sprint("batch-", i), i == 1
		p.Docs = append(p.Docs, partDoc(d))
		if want := (matchDoc{matchBody: &matchBody{Ref: d.Ref, Site: d.Site, Vec: d.Vec, Batch: d.Batch}, Guest: d.Guest}); !reflect.DeepEqual(p.Docs[i], want) {
			t.Fatalf("partDoc: %+v, want %+v", p.Docs[i], want)
		}
	}
	enc := encodePart(p)
	got, err := decodePart(enc)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("round trip changed the part:\n got %+v\nwant %+v", got, p)
	}
	for cut := 0; cut < len(enc); cut += 7 {
		if _, err := decodePart(enc[:cut]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", cut, len(enc))
		}
	}
	if _, err := decodePart(append(enc, 0)); err == nil {
		t.Fatal("a trailing byte: no error")
	}
}

// TestBatcherBoundsElements: batches keep every document once, in order,
// and no encoded batch reaches the 10 MB element limit of cluster runners
// (docs/deploy.md), even when documents at --max_signatures arrive after a
// batch is nearly full.
func TestBatcherBoundsElements(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var in []doc
	for i := range 40 {
		n := r.IntN(3000)
		if i%7 == 3 {
			n = spotsig.DefaultMaxSignatures // the largest vector extraction emits
		}
		d := randomDoc(r, n)
		d.Offset = int64(i)
		d.Blocks = []spotsig.Block{{Vec: d.Vec}} // blocks repeat the vector's signatures
		in = append(in, d)
	}
	var bt batcher
	var out []docBatch
	emit := func(b docBatch) { out = append(out, b) }
	for _, d := range in {
		bt.add(d, emit)
	}
	bt.flush(emit)
	var got []int64
	for _, b := range out {
		if size := len(encodeBatch(b)); size >= 10<<20 {
			t.Errorf("batch of %d documents encodes to %d bytes", len(b.Docs), size)
		}
		est := 0
		for _, d := range b.Docs {
			est += docBytes(d)
		}
		if len(b.Docs) > 1 && est > maxBatchBytes {
			t.Errorf("batch of %d documents holds about %d bytes, more than %d", len(b.Docs), est, maxBatchBytes)
		}
		for _, d := range b.Docs {
			if d.Batch != b.ID || b.ID != b.Docs[0].ID() {
				t.Errorf("document %d in batch %q names batch %q", d.Offset, b.ID, d.Batch)
			}
			got = append(got, d.Offset)
		}
	}
	if len(got) != len(in) {
		t.Fatalf("%d documents in, %d out", len(in), len(got))
	}
	for i, o := range got {
		if o != int64(i) {
			t.Fatalf("document %d came out at position %d", o, i)
		}
	}
	if len(out) < 5 {
		t.Errorf("%d batches for %d documents of up to %d signatures: the byte bound did not cut", len(out), len(in), spotsig.DefaultMaxSignatures)
	}
}

func FuzzDecodeDoc(f *testing.F) {
	f.Add(encodeDoc(randomDoc(rand.New(rand.NewPCG(7, 8)), 5)))
	f.Add([]byte{docCoderVersion})
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := decodeDoc(b)
		if err != nil {
			return
		}
		// Whatever decodes must re-encode to the same bytes (the encoding is
		// canonical) and be a valid vector.
		if got := encodeDoc(d); string(got) != string(b) {
			t.Fatalf("re-encoding differs: %x vs %x", got, b)
		}
		for i := 1; i < len(d.Vec.Hashes); i++ {
			if d.Vec.Hashes[i] <= d.Vec.Hashes[i-1] {
				t.Fatal("hashes not ascending")
			}
		}
	})
}

// panicSigner is a signature scheme that panics on every payload.
type panicSigner struct{}

func (panicSigner) Sign(context.Context, []byte, string) dedup.Signed {
	panic("broken scheme")
}

// A panic while a worker goroutine signs a page is not raised there (it
// would end the process): it is kept and raised again on the DoFn's
// goroutine, where the runner reports the element's failure.
func TestExtractWorkerPanicReachesDoFn(t *testing.T) {
	fn := &extractFn{signer: panicSigner{}}
	j := &signing{c: dedup.Candidate{Ref: warc.Ref{File: "a.warc.gz", Offset: 7}, Payload: []byte("<p>x</p>")}, done: make(chan struct{})}
	fn.sign(context.Background(), j)
	<-j.done
	if j.panicked == nil || !strings.Contains(fmt.Sprint(j.panicked), "broken scheme") {
		t.Fatalf("panic not kept: %v", j.panicked)
	}
	fn.pending = []*signing{j}
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), "a.warc.gz@7") {
			t.Errorf("takeOldest did not raise the signing panic: %v", r)
		}
	}()
	fn.takeOldest(context.Background(), func(docBatch) {}, func(output.Reject) {}, func(dedup.Page) {})
}

// TestSketchCoder: the sketches of the real pages of testdata survive
// the coder, and take fewer bytes than their hashes at 4 bytes each
// (the whole text's hashes of the main text are a count); arbitrary
// ascending sketches survive too; a whole text whose count of the main
// text's hashes is not the longest prefix it holds, or hashes out of
// order, are refused.
// testdataDocs returns a document of the blocks, sketch and periphery of
// each page of testdata's real WARC files (spotsig.ExtractPayloadBlocks).
func testdataDocs(t *testing.T) []doc {
	t.Helper()
	ex, err := spotsig.NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.warc*"))
	var docs []doc
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		err = warc.ReadFile(f, name, warc.Options{}, func(r warc.Record) error {
			if blocks, st, err := ex.ExtractPayloadBlocks(r.Payload, r.ContentType); r.Skip == "" && err == nil {
				docs = append(docs, doc{Doc: dedup.Doc{Blocks: blocks, Sketch: st.Sketch, Periphery: st.Periphery}})
			}
			return nil
		})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return docs
}

func TestSketchCoder(t *testing.T) {
	var sketches []spotsig.Sketch
	for _, d := range testdataDocs(t) {
		sketches = append(sketches, d.Sketch)
	}
	r := rand.New(rand.NewPCG(5, 6))
	ascendingOf := func(n int) []uint32 {
		set := map[uint32]bool{}
		for len(set) < n {
			set[r.Uint32()] = true
		}
		return slices.Sorted(maps.Keys(set))
	}
	random := 0
	for n := range 40 {
		main, whole := ascendingOf(n), ascendingOf(n%7)
		if n%3 == 0 && len(main) > 2 { // share a prefix, and one later hash
			whole = slices.Sorted(slices.Values(append(append(whole, main[:2]...), main[len(main)-1])))
			whole = slices.Compact(whole)
		}
		sketches = append(sketches, spotsig.Sketch{Words: uint32(n), Min: main, WholeWords: uint32(200 + n), WholeMin: whole})
		random++
	}
	for i := range sketches { // every other one marked against a host template of its first and last hashes
		if w := sketches[i].Whole().Min; i%2 == 0 && len(w) > 1 {
			sketches[i].MarkTemplate(uint64(i+1), spotsig.HostTemplate{w[0], w[len(w)-1]})
		}
	}
	var withWhole, bytes, raw int
	for i, s := range sketches {
		enc := appendSketch(nil, s)
		dec := decoder{b: enc}
		got := dec.sketch()
		if dec.err != nil || len(dec.b) != 0 {
			t.Fatalf("sketch %d: decode: %v, %d bytes left", i, dec.err, len(dec.b))
		}
		if got.Words != s.Words || got.WholeWords != s.WholeWords || !slices.Equal(got.Min, s.Min) || !slices.Equal(got.WholeMin, s.WholeMin) ||
			got.TemplateHost != s.TemplateHost || got.Template != s.Template {
			t.Fatalf("sketch %d: round trip changed it:\n got %+v\nwant %+v", i, got, s)
		}
		if i < len(sketches)-random && s.WholeWords > 0 {
			withWhole++
			bytes += len(enc)
			raw += 4 * (len(s.Min) + len(s.WholeMin))
		}
	}
	t.Logf("%d real sketches, %d with a whole text: %d bytes encoded, %d in hashes of 4 bytes", len(sketches)-random, withWhole, bytes, raw)
	if withWhole < 100 || bytes >= raw*9/10 {
		t.Errorf("%d sketches with a whole text in %d bytes: want >= 100, and < 0.9 of %d", withWhole, bytes, raw)
	}
	// Not the one encoding: c = 1 where Min[0:2] are both in the whole.
	s := spotsig.Sketch{Words: 3, Min: []uint32{1, 2, 3}, WholeWords: 5, WholeMin: []uint32{1, 2, 9}}
	bad := appendHashes(binary.AppendUvarint(appendHashes(nil, s.Words, s.Min), 1), s.WholeWords, []uint32{2, 9})
	unordered := appendHashes(binary.AppendUvarint(appendHashes(nil, s.Words, []uint32{2, 1, 3}), 0), 0, nil)
	twice := appendHashes(binary.AppendUvarint(appendHashes(nil, s.Words, s.Min), 2), s.WholeWords, []uint32{1, 9})
	plain := appendSketch(nil, s)
	plain = plain[:len(plain)-1] // without its mark byte 0
	marks := func(flag byte, host, mask uint64) []byte {
		b := append(slices.Clone(plain), flag)
		b = binary.LittleEndian.AppendUint64(b, host)
		return binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(b, mask), 0)
	}
	for name, b := range map[string][]byte{"short prefix": bad, "unordered": unordered, "a hash in both parts": twice,
		"a mark past the whole sketch": marks(1, 5, 1<<3), "marks without a host": marks(1, 0, 1), "a mark flag of 2": marks(2, 5, 1)} {
		if dec := (decoder{b: b}); dec.sketch().Words != 0 || dec.err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
}

// TestEncodedSizes reports what the documents of the first 20,000 pages
// of the WARC file NDD_BENCH_WARC take encoded (appendDoc), part by part,
// and how many of their whole-text sketch's hashes the coder writes as
// the main text's (appendSketch): the figures of docs/benchmarks.md
// ("Batches held encoded", "Prism's memory"). Skipped without it:
//
//	NDD_BENCH_WARC=/tmp/crawl108/crawl.warc.gz go test ./transforms -run TestEncodedSizes -v
func TestEncodedSizes(t *testing.T) {
	name := os.Getenv("NDD_BENCH_WARC")
	if name == "" {
		t.Skip("NDD_BENCH_WARC not set")
	}
	var n, total, page, blocks, sketch, batch, withWhole, whole, fromMain int
	signPages(t, name, func(c dedup.Candidate, s dedup.Signed) {
		if n >= 20000 {
			return
		}
		n++
		d := doc{Doc: s.Doc, Batch: c.ID()} // a batch is named by its first page's ID
		total += len(appendDoc(nil, d))
		page += len(appendPage(nil, d.Page))
		sketch += len(appendSketch(nil, d.Sketch))
		batch += len(appendString(nil, d.Batch))
		for _, b := range d.Blocks {
			blocks += 25 + len(appendString(nil, b.Lang)) + len(appendVector(nil, b.Vec))
		}
		if d.Sketch.WholeWords > 0 {
			withWhole++
			whole += len(d.Sketch.WholeMin)
			for _, h := range d.Sketch.WholeMin {
				if _, in := slices.BinarySearch(d.Sketch.Min, h); in {
					fromMain++
				}
			}
		}
	})
	if n == 0 {
		t.Fatalf("%s: no document", name)
	}
	t.Logf("%d documents, bytes encoded a document: %d (page %d, blocks %d, sketches %d, batch ID %d)", n, total/n, page/n, blocks/n, sketch/n, batch/n)
	if withWhole > 0 {
		t.Logf("%d with a whole-text sketch: %.1f hashes, %.1f of them the main text's", withWhole, float64(whole)/float64(withWhole), float64(fromMain)/float64(withWhole))
	}
}

// signPages hands fn each record of WARC file name that dedup.Sign, at the
// default parameters, makes a document of, with what it made.
func signPages(t *testing.T, name string, fn func(dedup.Candidate, dedup.Signed)) {
	t.Helper()
	p := config.DefaultParams()
	signer, err := dedup.NewSigner(p)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := p.Policy()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dedup.ReadFile(name, f, nil, p.WARCOptions(), func(c dedup.Candidate) {
		if s := dedup.Sign(context.Background(), signer, pol, c); s.IsDoc() {
			fn(c, s)
		}
	}, func(output.Reject) {})
}

// A document's Periphery (spotsig.ExtractPayloadBlocks) round-trips on
// every real page of testdata, and malformed ones are refused.
func TestPeripheryCoder(t *testing.T) {
	docs := testdataDocs(t)
	var marked *doc
	for i, d := range docs {
		got, err := decodeDoc(encodeDoc(d))
		if err != nil {
			t.Fatalf("doc %d: %v", i, err)
		}
		if !reflect.DeepEqual(got.Periphery, d.Periphery) || !reflect.DeepEqual(got.Sketch, d.Sketch) {
			t.Fatalf("doc %d: periphery %+v, want %+v", i, got.Periphery, d.Periphery)
		}
		if marked == nil && len(d.Periphery.Units) > 0 && len(d.Periphery.Lines) > 1 && len(d.Periphery.Ext) > 0 {
			marked = &docs[i]
		}
	}
	if marked == nil {
		t.Fatal("no page of testdata with periphery lines, units and Ext")
	}
	bad := func(name string, change func(p *spotsig.Periphery)) {
		d := *marked
		p := spotsig.Periphery{Lines: slices.Clone(d.Periphery.Lines), Words: slices.Clone(d.Periphery.Words), Ext: slices.Clone(d.Periphery.Ext), Units: slices.Clone(d.Periphery.Units)}
		change(&p)
		d.Periphery = p
		if _, err := decodeDoc(encodeDoc(d)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	bad("lines not ascending", func(p *spotsig.Periphery) { p.Lines[0], p.Lines[1] = p.Lines[1], p.Lines[0] })
	bad("an Ext hash within the whole sketch", func(p *spotsig.Periphery) { p.Ext[0] = 0 })
	bad("units of another length", func(p *spotsig.Periphery) { p.Units = p.Units[1:] })
	bad("word counts of another length", func(p *spotsig.Periphery) { p.Words = p.Words[1:] })
	bad("more words than the whole text", func(p *spotsig.Periphery) { p.Words[0] = marked.Sketch.WholeWords + 1 })
	bad("a unit past the lines", func(p *spotsig.Periphery) {
		p.Units[0] = uint16(len(marked.Blocks) + len(p.Lines) + 1)
	})
	bad("more than WholeWaitSize hashes", func(p *spotsig.Periphery) {
		for len(p.Ext)+len(marked.Sketch.WholeMin) <= spotsig.WholeWaitSize {
			p.Ext = append(p.Ext, p.Ext[len(p.Ext)-1]+1)
		}
		p.Units = make([]uint16, len(marked.Sketch.WholeMin)+len(p.Ext))
	})
}
