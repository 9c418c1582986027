package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// ndd-eval index lists each segment with its pages and bytes, and fails on
// a directory without a committed segment.
func TestEvalIndexLists(t *testing.T) {
	dir := t.TempDir()
	p := config.DefaultParams()
	pages := []dedup.Prior{{Page: dedup.Page{Ref: warc.Ref{File: "a.warc.gz", RecordID: "r1"}, Rank: "1"}, Vec: spotsig.NewVector([]uint64{1, 2, 3})}}
	for _, name := range []string{"segment-one", "segment-two"} {
		if err := index.WriteSegment(context.Background(), dir, name, "2026-01-01T00:00:00Z", p, pages); err != nil {
			t.Fatal(err)
		}
	}
	var out, errs bytes.Buffer
	if code := runEvalIndex([]string{dir}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, want := range []string{"segment-one", "segment-two", "total", "2 segments", "Tau:0.2"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if code := runEvalIndex([]string{t.TempDir()}, &out, &errs); code != 1 {
		t.Errorf("empty directory: exit %d", code)
	}

	// A segment of a killed run (no _SUCCESS) is listed as partial, and
	// --remove_partial removes it and only it.
	os.Remove(filepath.Join(dir, "segment-two", index.SuccessFile))
	out.Reset()
	if code := runEvalIndex([]string{dir}, &out, &errs); code != 0 || !strings.Contains(out.String(), "partial "+filepath.Join(dir, "segment-two")+": no _SUCCESS") || !strings.Contains(out.String(), "1 segments") {
		t.Errorf("partial segment: exit %d\n%s", code, out.String())
	}
	out.Reset()
	if code := runEvalIndex([]string{"--remove_partial", dir}, &out, &errs); code != 0 || !strings.Contains(out.String(), "removed partial segment") {
		t.Errorf("--remove_partial: exit %d\n%s", code, out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "segment-two")); !os.IsNotExist(err) {
		t.Errorf("segment-two not removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "segment-one", index.SuccessFile)); err != nil {
		t.Errorf("segment-one touched: %v", err)
	}
}
