package transforms

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
)

// goldWARC is the dev gold set: real pages of many sites (../shared/data).
const goldWARC = "../../shared/data/goldset/gold.warc.gz"

// DropSharedBlocks keeps exactly the blocks dedup.DropSharedBlocks keeps,
// on the real pages of testdata signed per block, and reports the
// signatures it dropped and the documents per language of their main
// content once they are dropped (dedup.Language).
func TestDropSharedBlocksComposite(t *testing.T) {
	files, err := filepath.Glob("../testdata/*.warc*")
	if err != nil || len(files) == 0 {
		t.Fatalf("testdata WARC files: %v %v", files, err)
	}
	// A merge limit of 1 flushes after every batch: a block's counts and
	// batch IDs then reach its shard in many parts.
	defer func(l int) { mergeLimit = l }(mergeLimit)
	for _, limit := range []int{1, 0} {
		mergeLimit = limit
		checkDropSharedBlocks(t, files, 0)
	}
}

// The same on the first 600 real pages of the gold set (../shared/data).
func TestDropSharedBlocksGoldSet(t *testing.T) {
	if _, err := os.Stat(goldWARC); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	checkDropSharedBlocks(t, []string{goldWARC}, 600)
}

// checkDropSharedBlocks compares DropSharedBlocks with
// dedup.DropSharedBlocks on the pages of files (at most limit of them, 0:
// all).
func checkDropSharedBlocks(t *testing.T, files []string, limit int) {
	p := config.DefaultParams()
	ddocs := signedDocs(t, files, p, limit)
	docs := make([]doc, len(ddocs))
	for i, d := range ddocs {
		docs[i] = doc{Doc: dedup.Doc{Page: dedup.Page{Ref: d.Ref}, Site: d.Site, Vec: d.Vec, Blocks: d.Blocks}}
	}
	_, droppedSigs, sharedOnly := dedup.DropSharedBlocks(ddocs, p.SharedBlockPages)
	if droppedSigs == 0 || sharedOnly == 0 && limit == 0 {
		// testdata has both: the check would cover neither without them
		t.Fatalf("%d shared signatures, %d pages of shared text only among %d pages", droppedSigs, sharedOnly, len(docs))
	}
	var want []string
	langs := map[string]int{}
	for _, d := range ddocs {
		want = append(want, docSummary(doc{Doc: dedup.Doc{Page: dedup.Page{Ref: d.Ref}, Vec: d.Vec}}))
		if d.Lang != "" {
			langs[d.Lang]++
		}
	}
	stats := []string{fmt.Sprintf("%s=%d", output.StatSharedSignatures, droppedSigs)}
	if sharedOnly > 0 {
		stats = append(stats, fmt.Sprintf("%s=%d", output.StatSharedTextPages, sharedOnly))
	}
	for l, n := range langs {
		stats = append(stats, fmt.Sprintf("%s%s=%d", output.StatLanguagePrefix, l, n))
	}
	pl, s := beam.NewPipelineWithRoot()
	st := &Stats{}
	out := DropSharedBlocks(s, st, beam.CreateList(s, inBatches(docs, 50)), p)
	passert.Equals(s, beam.ParDo(s, docSummary, docsOf(s, out)), strs(want)...)
	passert.Equals(s, beam.ParDo(s, statLine, st.Collection(s)), strs(stats)...)
	ptest.RunAndValidate(t, pl)
}

// blockShardsFn's encoded parts, decoded and summed per hash, are the
// counts dedup.BlockCounts makes of the same real pages (their blocks and
// short lines), each with the IDs of exactly the batches that have it:
// flushed once per bundle, and after every batch (limit 1) so that a
// hash's counts reach its shard in many parts.
func TestBlockPartsCarryTheCounts(t *testing.T) {
	docs := testdataDocs(t)
	var ddocs []dedup.Doc
	for _, d := range docs {
		ddocs = append(ddocs, d.Doc)
	}
	want := dedup.BlockCounts(ddocs)
	batches := inBatches(docs, 7)
	wantIDs := map[uint64]map[string]bool{}
	lines := 0
	for _, b := range batches {
		for _, d := range b.Docs {
			hs := []uint64{}
			for _, bl := range d.Blocks {
				hs = append(hs, bl.Hash)
			}
			for _, l := range d.Periphery.Lines {
				hs = append(hs, l.Hash)
				lines++
			}
			for _, h := range hs {
				if wantIDs[h] == nil {
					wantIDs[h] = map[string]bool{}
				}
				wantIDs[h][b.ID] = true
			}
		}
	}
	if lines == 0 {
		t.Fatal("no short lines on the testdata pages: the check would not cover them")
	}
	for _, limit := range []int{0, 1} {
		fn := &blockShardsFn{Limit: limit}
		got := map[uint64]dedup.BlockCount{}
		gotIDs := map[uint64]map[string]bool{}
		parts := 0
		emit := func(shard int, enc []byte) {
			parts++
			part, err := decodeBlockPart(enc)
			if err != nil {
				t.Fatalf("limit %d: %v", limit, err)
			}
			for _, e := range part {
				if keyShard(e.Hash) != shard {
					t.Fatalf("hash %x of shard %d in a part of shard %d", e.Hash, keyShard(e.Hash), shard)
				}
				got[e.Hash] = got[e.Hash].Add(e.Count)
				if gotIDs[e.Hash] == nil {
					gotIDs[e.Hash] = map[string]bool{}
				}
				for _, id := range e.Batches {
					gotIDs[e.Hash][id] = true
				}
			}
		}
		fn.StartBundle(emit)
		for _, b := range batches {
			fn.ProcessElement(b, emit)
		}
		fn.FinishBundle(emit)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotIDs, wantIDs) {
			t.Fatalf("limit %d: the parts' counts or batch IDs differ from dedup.BlockCounts (%d hashes, want %d)", limit, len(got), len(want))
		}
		if limit == 1 && parts < 2*len(batches) {
			t.Fatalf("limit 1: %d parts for %d batches: not flushed after every batch", parts, len(batches))
		}
	}
}

// decodeBlockPart refuses what appendBlockPart does not write: every
// truncation, trailing bytes, a list out of order, a batch index past the
// IDs, a wrong version; and a corrupted byte anywhere never panics.
func TestBlockPartRejectsCorruptInput(t *testing.T) {
	part := []blockEntry{
		{Hash: 5, Count: dedup.BlockCount{Periphery: 2, Contexts: []uint64{3, 9}, All: []uint64{3, 9}, Before: []uint64{1}, After: []uint64{2}}, Batches: []string{"b0", "b1"}},
		{Hash: 7, Count: dedup.BlockCount{Main: 1}, Batches: []string{"b1"}},
	}
	enc := appendBlockPart(nil, part)
	if got, err := decodeBlockPart(enc); err != nil || !reflect.DeepEqual(got, part) {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	for n := range len(enc) {
		if _, err := decodeBlockPart(enc[:n]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", n, len(enc))
		}
	}
	if _, err := decodeBlockPart(append(slices.Clone(enc), 0)); err == nil {
		t.Fatal("trailing byte: no error")
	}
	bad := slices.Clone(part)
	bad[0].Count.Contexts = []uint64{9, 3}
	if _, err := decodeBlockPart(appendBlockPart(nil, bad)); err != errBlockPart {
		t.Fatalf("list out of order: %v, want errBlockPart", err)
	}
	// the last byte is the second entry's batch index (1 of IDs b0, b1)
	wrong := slices.Clone(enc)
	wrong[len(wrong)-1] = 2
	if _, err := decodeBlockPart(wrong); err != errBlockPart {
		t.Fatalf("batch index past the IDs: %v, want errBlockPart", err)
	}
	wrong[0]++
	if _, err := decodeBlockPart(wrong); err == nil {
		t.Fatal("wrong version: no error")
	}
	for i := range enc {
		for _, v := range []byte{0, 0x7f, 0x80, 0xff} {
			c := slices.Clone(enc)
			c[i] = v
			if got, err := decodeBlockPart(c); err == nil {
				for _, e := range got {
					for _, l := range [][]uint64{e.Count.Contexts, e.Count.All, e.Count.Before, e.Count.After} {
						if !slices.IsSorted(l) || len(l) > config.MaxSharedBlockPages {
							t.Fatalf("byte %d set to %x: decoded a list out of order or too long: %v", i, v, l)
						}
					}
				}
			}
		}
	}
}

// decodeBlockPart never panics, and what it decodes holds its invariants:
// lists strictly ascending and at most config.MaxSharedBlockPages long,
// every batch one of the part's IDs.
func FuzzDecodeBlockPart(f *testing.F) {
	f.Add(appendBlockPart(nil, []blockEntry{
		{Hash: 5, Count: dedup.BlockCount{Periphery: 2, Contexts: []uint64{3, 9}, All: []uint64{3, 9}, Before: []uint64{1}, After: []uint64{2}}, Batches: []string{"b0", "b1"}},
		{Hash: 7, Count: dedup.BlockCount{Main: 1}, Batches: []string{"b1"}},
	}))
	f.Add([]byte{docCoderVersion})
	f.Fuzz(func(t *testing.T, b []byte) {
		part, err := decodeBlockPart(b)
		if err != nil {
			return
		}
		for _, e := range part {
			for _, l := range [][]uint64{e.Count.Contexts, e.Count.All, e.Count.Before, e.Count.After} {
				if len(l) > config.MaxSharedBlockPages {
					t.Fatalf("a list of %d values", len(l))
				}
				for i := 1; i < len(l); i++ {
					if l[i] <= l[i-1] {
						t.Fatalf("list not ascending: %v", l)
					}
				}
			}
		}
		// What decodes encodes to bytes that decode to the same entries.
		again, err := decodeBlockPart(appendBlockPart(nil, part))
		if err != nil || !reflect.DeepEqual(again, part) {
			t.Fatalf("re-encoded: %v, %v against %v", err, again, part)
		}
	})
}
