package config

import (
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// A forced language keeps its own spot set: validation no longer resolves
// the empty --antecedents to the English set (which signed German pages
// with 24 English antecedents), and summary.json's language data says so.
func TestForcedLanguageKeepsItsSpotSet(t *testing.T) {
	p := DefaultParams()
	p.Lang = "de"
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if p.Antecedents != "" {
		t.Fatalf("Antecedents resolved to %q, want empty (the language's own)", p.Antecedents)
	}
	de, err := spotsig.DefaultSpotSet("de")
	if err != nil {
		t.Fatal(err)
	}
	ld, err := p.Languages()
	if err != nil {
		t.Fatal(err)
	}
	if ld.Mode != "de" || ld.SpotSetSizes["de"] != len(de) || len(de) < 100 {
		t.Errorf("language data %+v, want mode de with its %d antecedents", ld, len(de))
	}
	// A given spot set replaces the forced language's and is named.
	p.Antecedents = "der(2,3),die(2,3)"
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if ld, _ = p.Languages(); ld.SpotSetSizes["de"] != 2 || !strings.HasPrefix(ld.AntecedentSource, "--antecedents (for de)") {
		t.Errorf("with --antecedents: %+v", ld)
	}
}

// An unknown --lang is a one-line configuration error naming the flag.
func TestValidateLang(t *testing.T) {
	p := DefaultParams()
	p.Lang = "xx"
	err := p.Validate()
	if err == nil || !strings.Contains(err.Error(), "--lang") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Validate(--lang=xx) = %v, want a one-line --lang error", err)
	}
}
