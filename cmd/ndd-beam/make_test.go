package main

import (
	"regexp"
	"strings"
	"testing"
)

// make help lists every target of the Makefile with one line: each rule
// has its "## name: what it does" comment, and .PHONY names them all.
func TestMakefileHelpListsEveryTarget(t *testing.T) {
	mk := string(readFileT(t, "../../Makefile"))
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^## ([a-z-]+): \S`).FindAllStringSubmatch(mk, -1) {
		documented[m[1]] = true
	}
	var phony []string
	for _, m := range regexp.MustCompile(`(?m)^\.PHONY: (.*)$`).FindAllStringSubmatch(mk, -1) {
		phony = append(phony, strings.Fields(m[1])...)
	}
	rules := regexp.MustCompile(`(?m)^([a-z-]+):(?:[^=]|$)`).FindAllStringSubmatch(mk, -1)
	if len(rules) < 10 {
		t.Fatalf("found %d rules in the Makefile", len(rules))
	}
	seen := map[string]bool{}
	for _, m := range rules {
		name := m[1]
		if seen[name] {
			continue
		}
		seen[name] = true
		if !documented[name] {
			t.Errorf("target %s has no \"## %s: …\" line, so make help does not list it", name, name)
		}
		if name != "clean" && !strings.Contains(" "+strings.Join(phony, " ")+" ", " "+name+" ") {
			t.Errorf("target %s is not .PHONY", name)
		}
	}
}
