package transforms

import (
	"fmt"
	"os"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
)

// goldWARC is the dev gold set: real pages of many sites (../shared/data).
const goldWARC = "../../shared/data/goldset/gold.warc.gz"

// DropSharedBlocks keeps exactly the blocks dedup.DropSharedBlocks keeps,
// on the first 600 real pages of the gold set signed per block, and
// reports the signatures it dropped and the documents per language of
// their main content once they are dropped (dedup.Language).
func TestDropSharedBlocksComposite(t *testing.T) {
	p := config.DefaultParams()
	signer, err := dedup.NewSigner(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(goldWARC)
	if err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	defer f.Close()
	var docs []Doc
	var ddocs []dedup.Doc
	dedup.ReadWARC(goldWARC, f, nil, p.WARCOptions(), func(c dedup.Candidate) {
		if len(docs) >= 600 {
			return
		}
		s := dedup.Sign(t.Context(), signer, nil, c)
		if !s.IsDoc() {
			return
		}
		d := s.Doc
		docs = append(docs, Doc{Doc: dedup.Doc{Page: Page{Ref: d.Ref}, Vec: d.Vec, Blocks: d.Blocks}})
		ddocs = append(ddocs, d)
	}, func(dedup.Reject) {})
	_, droppedSigs := dedup.DropSharedBlocks(ddocs, p.SharedBlockPages)
	if droppedSigs == 0 {
		t.Fatalf("no shared block among %d pages", len(docs))
	}
	var want []string
	langs := map[string]int{}
	for _, d := range ddocs {
		want = append(want, docSummary(Doc{Doc: dedup.Doc{Page: Page{Ref: d.Ref}, Vec: d.Vec}}))
		if d.Lang != "" {
			langs[d.Lang]++
		}
	}
	stats := []string{fmt.Sprintf("%s=%d", StatSharedSignatures, droppedSigs)}
	for l, n := range langs {
		stats = append(stats, fmt.Sprintf("%s%s=%d", statLanguagePrefix, l, n))
	}
	pl, s := beam.NewPipelineWithRoot()
	st := &Stats{}
	out := DropSharedBlocks(s, st, beam.CreateList(s, inBatches(docs, 50)), p)
	passert.Equals(s, beam.ParDo(s, docSummary, docsOf(s, out)), strs(want)...)
	passert.Equals(s, beam.ParDo(s, statLine, st.Collection(s)), strs(stats)...)
	ptest.RunAndValidate(t, pl)
}
