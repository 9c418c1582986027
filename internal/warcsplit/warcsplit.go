// Package warcsplit splits a WARC file whose records are each their own
// gzip member into two files of alternate records: the two batches of the
// scheduled-batch tests (docs/design.md, "Scheduled batches").
package warcsplit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ndd-beam/ndd-beam/warc"
)

// Alternate writes the records of src alternately into dir/batch1.warc.gz
// and dir/batch2.warc.gz (gzip members concatenate into valid files) and
// returns their paths. Errors: src unreadable or unparseable, two records
// in one gzip member, write errors.
func Alternate(src, dir string) (string, string, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return "", "", err
	}
	var offs []int64
	err = warc.ReadFile(bytes.NewReader(data), src, warc.DefaultOptions(), func(r warc.Record) error {
		if r.InnerOffset != 0 {
			return fmt.Errorf("%s: record at %d+%d shares a gzip member", src, r.Offset, r.InnerOffset)
		}
		if len(offs) == 0 || offs[len(offs)-1] != r.Offset {
			offs = append(offs, r.Offset)
		}
		return nil
	})
	if err != nil {
		return "", "", err
	}
	var parts [2][]byte
	for i, off := range offs {
		end := int64(len(data))
		if i+1 < len(offs) {
			end = offs[i+1]
		}
		parts[i%2] = append(parts[i%2], data[off:end]...)
	}
	a, b := filepath.Join(dir, "batch1.warc.gz"), filepath.Join(dir, "batch2.warc.gz")
	for i, name := range []string{a, b} {
		if err := os.WriteFile(name, parts[i], 0o644); err != nil {
			return "", "", err
		}
	}
	return a, b, nil
}

// Files deals files (sorted by name) alternately into two batches.
func Files(files []string) (one, two []string) {
	files = slices.Sorted(slices.Values(files))
	for i, f := range files {
		if i%2 == 0 {
			one = append(one, f)
		} else {
			two = append(two, f)
		}
	}
	return one, two
}

// GoldBatches is Alternate of the dev gold set (../../shared/data/goldset,
// from a package directory of this module) into dir, for a test; the test
// is skipped when the set is absent.
func GoldBatches(t testing.TB, dir string) (string, string) {
	t.Helper()
	gold := filepath.Join("..", "..", "shared", "data", "goldset", "gold.warc.gz")
	if _, err := os.Stat(gold); err != nil {
		t.Skipf("%s absent: %v", gold, err)
	}
	a, b, err := Alternate(gold, dir)
	if err != nil {
		t.Fatal(err)
	}
	return a, b
}

// SharedBatches is Files of the shared real WARC files
// (../../shared/data/warc, the realset's pages), for a test; the test is
// skipped when they are absent.
func SharedBatches(t testing.TB) (one, two []string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "data", "warc", "*.warc*"))
	if len(files) < 2 {
		t.Skip("../shared/data/warc absent")
	}
	return Files(files)
}
