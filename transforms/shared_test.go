package transforms

import (
	"fmt"
	"os"
	"path/filepath"
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
