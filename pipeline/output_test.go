package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/output"
)

// dirNames lists a directory's entries.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// The output commit on a whole job: a symlink planted at an output's name
// is replaced, never followed; the directory then holds exactly the outputs
// and _SUCCESS, no temporary file. A second run into it is refused (nothing
// touched); --overwrite with a foreign file there is refused, naming it;
// --overwrite alone removes the earlier run's files, and only those.
func TestOutputCommitAndOverwrite(t *testing.T) {
	ctx := context.Background()
	out := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pairs-00000-of-00001.jsonl", output.SummaryFile, output.SuccessFile} {
		if err := os.Symlink(victim, filepath.Join(out, name)); err != nil {
			t.Fatal(err)
		}
	}
	cfg := testConfig([]string{filepath.Join(testdata, "commoncrawl-whirlwind__whirlwind.warc.gz")})
	cfg.Output = out

	err := Validate(ctx, &cfg)
	if err == nil || !errors.Is(err, config.ErrConfig) || !strings.Contains(err.Error(), "--overwrite") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("symlinks at output names: Validate = %v, want a one-line ErrConfig naming --overwrite", err)
	}
	cfg.Overwrite = true
	dir := runJob(t, "direct", cfg)
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("a symlink in the output directory was followed: its target holds %q", b)
	}
	want := []string{output.SuccessFile, "clusters-00000-of-00001.jsonl", "decisions-00000-of-00001.jsonl",
		"pairs-00000-of-00001.jsonl", "rejects-00000-of-00001.jsonl", output.SummaryFile}
	if got := dirNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("output directory holds %q, want %q", got, want)
	}
	for _, name := range want {
		if st, err := os.Lstat(filepath.Join(dir, name)); err != nil || !st.Mode().IsRegular() {
			t.Errorf("%s is not a regular file: %v", name, err)
		}
	}
	checkAccounting(t, dir, 1)

	// A used directory without --overwrite: refused, nothing touched.
	again := cfg
	again.Overwrite = false
	again.Shards = 3
	if err := Validate(ctx, &again); err == nil || !strings.Contains(err.Error(), "earlier run") || !strings.Contains(err.Error(), output.SuccessFile) {
		t.Errorf("used directory: Validate = %v", err)
	}
	if got := dirNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("refused run touched the directory: %q", got)
	}

	// --overwrite with a foreign file: refused, the file named, nothing removed.
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	again.Overwrite = true
	if err := Validate(ctx, &again); err == nil || !strings.Contains(err.Error(), "notes.txt") {
		t.Errorf("--overwrite with a foreign file: Validate = %v, want it named", err)
	}
	if got := dirNames(t, dir); len(got) != len(want)+1 {
		t.Errorf("refused --overwrite touched the directory: %q", got)
	}

	// --overwrite alone: a 3-shard run replaces the earlier run's files at
	// its commit, and removes those it does not replace and a killed run's
	// temporary file.
	os.Remove(filepath.Join(dir, "notes.txt"))
	os.WriteFile(filepath.Join(dir, output.TempPrefix+"0123456789abcdef-pairs-00000-of-00001.jsonl"), []byte("killed run"), 0o644)
	if err := Validate(ctx, &again); err != nil {
		t.Fatal(err)
	}
	runJob(t, "direct", again)
	if got := dirNames(t, dir); len(got) != 4*3+2 || !slices.Contains(got, output.SuccessFile) {
		t.Errorf("3-shard run over a 1-shard run: %q", got)
	}
}
