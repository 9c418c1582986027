package eval

import (
	"strings"
	"testing"
)

// The report's sections come out in their fixed order, each once.
func TestWriteMarkdownSections(t *testing.T) {
	rep := &Report{Command: "make eval", Corpus: &Corpus{Truth: &Truth{}}, Default: "SpotSigs",
		Defaults: []string{"τ 0.20"}, Notes: "closing notes"}
	var b strings.Builder
	if err := rep.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	last := -1
	for _, h := range []string{"# Quality on the gold set", "## Summary", "## F1 against τ", "## Chosen defaults", "- τ 0.20", "closing notes"} {
		i := strings.Index(out, h)
		if i < 0 || i < last || strings.Count(out, h) != 1 {
			t.Fatalf("section %q at %d (after %d, %d times) in:\n%s", h, i, last, strings.Count(out, h), out)
		}
		last = i
	}
}
