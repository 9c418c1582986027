package dedup

import (
	"os"
	"strings"
	"testing"
)

// Every reject reason is listed once and documented in docs/robustness.md.
func TestReasonsListedAndDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/robustness.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range Reasons {
		if r == "" || seen[r] {
			t.Errorf("reason %q empty or listed twice", r)
		}
		seen[r] = true
		if !strings.Contains(string(doc), "`"+r+"`") {
			t.Errorf("reason %q not in docs/robustness.md", r)
		}
	}
}
