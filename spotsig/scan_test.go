package spotsig

import (
	"strings"
	"testing"
)

// Tests of the scan's blocks (scan.go): short lines that end a sentence
// join the next line, a long line after them is a block of its own.

// Prose written one sentence per line forms one block: its short lines are
// kept as a whole, while the same lines without sentence ends (a menu) are
// skipped as short blocks.
func TestSentenceLinesOneBlock(t *testing.T) {
	prose := "The tool checks whether the title of the document is set.\n" +
		"It checks whether the language of the document is set.\n" +
		"It checks all images for an alternative text.\n" +
		"It checks the contrast between the text and the background.\n"
	menu := strings.ReplaceAll(prose, ".\n", "\n")
	e := mustExtractor(t, WithLanguage("en"), WithMinBlockTokens(20))
	vp, sp := e.Extract([]byte(prose))
	vm, sm := e.Extract([]byte(menu))
	if vp.Len() == 0 || sp.Blocks != 1 {
		t.Errorf("prose: %d signatures in %d blocks, want some in 1 block", vp.Len(), sp.Blocks)
	}
	if vm.Len() != 0 || sm.BlocksSkipped != 4 {
		t.Errorf("menu lines: %d signatures, %d blocks skipped; want 0 and 4", vm.Len(), sm.BlocksSkipped)
	}
}

// A line of block length after a short sentence line is a block of its
// own (and the short line a block of its own, skipped): a notice after a
// page's short last sentence has the same hash and signatures as alone,
// whatever that sentence is, so the shared-block rule sees one block on
// every page. Short sentence lines still join (TestSentenceLinesOneBlock).
func TestLongLineAfterSentenceIsOwnBlock(t *testing.T) {
	notice := "We use cookies and similar technologies on this website to give you the best possible experience, and you can change your settings at any time."
	e := mustExtractor(t)
	alone, _, err := e.ExtractPayloadBlocks([]byte(notice+"\n"), "text/plain")
	if err != nil || len(alone) != 1 {
		t.Fatalf("notice alone: %d blocks, %v", len(alone), err)
	}
	for _, last := range []string{"Read the next chapter.", "Thank you for reading.", "Was this page helpful? Yes."} {
		blocks, st, err := e.ExtractPayloadBlocks([]byte(last+"\n\n"+notice+"\n"), "text/plain")
		if err != nil {
			t.Fatal(err)
		}
		if len(blocks) != 1 || blocks[0].Hash != alone[0].Hash || !equalVectors(blocks[0].Vec, alone[0].Vec) || st.Extract.BlocksSkipped != 1 {
			t.Errorf("after %q: %d blocks (%d skipped), want the notice's block alone", last, len(blocks), st.Extract.BlocksSkipped)
		}
	}
	// A text that starts with a sentence mark has no block to join yet
	// (this crashed the first version with every block length).
	for _, n := range []int{1, 3, DefaultMinBlockTokens} {
		v, _ := mustExtractor(t, WithMinBlockTokens(n)).Extract([]byte("!\n" + notice + "\n"))
		if want, _ := mustExtractor(t, WithMinBlockTokens(n)).Extract([]byte(notice)); !equalVectors(v, want) {
			t.Errorf("min block %d: %d signatures after a leading \"!\", %d without", n, v.Len(), want.Len())
		}
	}
}
