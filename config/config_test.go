package config

import (
	"errors"
	"io/fs"
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

// A bad value is a *ParamError naming its flag and value; it unwraps to
// ErrConfig and to its cause, and its message is the CLI's line.
func TestParamError(t *testing.T) {
	for _, tc := range []struct {
		edit  func(*Config)
		flag  string
		cause error
		msg   string
	}{
		{func(c *Config) { c.Tau = 0 }, "--tau", nil, "config: --tau=0: must be in (0, 1]"},
		{func(c *Config) { c.IDFMin, c.IDFMax = 0.5, 0.4 }, "--idf_min", nil, "config: --idf_min=0.5 is above --idf_max=0.4"},
		{func(c *Config) { c.Input = nil }, "--input", nil, "config: --input is required: a folder of WARC files, WARC file paths or globs, gs://, s3:// or http(s):// URLs, or @LIST files of them, comma-separated (ndd-beam --help)"},
		{func(c *Config) { c.Output = "--tau" }, "--output", nil, `config: --output="--tau" looks like a flag, not a directory (--output needs a value: --output=DIR)`},
		{func(c *Config) { c.Compression = "zip" }, "--compression", nil, `config: --compression="zip": want none or gzip`},
		{func(c *Config) { c.Antecedents = "@/nonexistent/spots" }, "--antecedents", fs.ErrNotExist, `config: --antecedents="@/nonexistent/spots": open /nonexistent/spots: no such file or directory`},
	} {
		c := DefaultConfig()
		c.Input, c.Output = []string{"in.warc.gz"}, "out"
		tc.edit(&c)
		err := c.ValidateValues()
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Flag != tc.flag || !errors.Is(err, ErrConfig) || err.Error() != tc.msg {
			t.Errorf("%s: %v (%#v)", tc.flag, err, pe)
			continue
		}
		if tc.cause != nil && !errors.Is(err, tc.cause) {
			t.Errorf("%s: %v does not unwrap to %v", tc.flag, err, tc.cause)
		}
	}
}
