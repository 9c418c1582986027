package warcfiltertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/direct"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/pipeline"
	"github.com/ndd-beam/ndd-beam/transforms"
)

const testdata = "../../testdata"

// job runs the job in this process (direct runner, default parameters) on
// inputs into out, with the index flags and --write_warc=warcDir, and
// returns its summary.
func job(t *testing.T, inputs []string, out, warcDir string, against []string, writeIndex string) output.Summary {
	t.Helper()
	cfg := config.DefaultConfig()
	cfg.Input, cfg.Output, cfg.WriteWARC, cfg.Against, cfg.WriteIndex = inputs, out, warcDir, against, writeIndex
	cfg.Runner = "direct"
	ctx := context.Background()
	l, err := pipeline.Launch(ctx, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(ctx)
	prev := slog.Default() // the direct runner logs its whole graph at INFO
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	defer slog.SetDefault(prev)
	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(ctx, s, cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := beam.Run(ctx, "direct", p); err != nil {
		t.Fatal(err)
	}
	return readSummaryFile(t, out)
}

func readSummaryFile(t *testing.T, dir string) output.Summary {
	t.Helper()
	var sum output.Summary
	if err := json.Unmarshal(readFileT(t, filepath.Join(dir, output.SummaryFile)), &sum); err != nil {
		t.Fatal(err)
	}
	return sum
}

func readFileT(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readLines decodes every JSON line of the files matching glob.
func readLines[T any](t *testing.T, glob string) []T {
	t.Helper()
	files, _ := filepath.Glob(glob)
	if len(files) == 0 {
		t.Fatalf("no file matches %s", glob)
	}
	var out []T
	for _, f := range files {
		sc := bufio.NewScanner(bytes.NewReader(readFileT(t, f)))
		sc.Buffer(nil, 1<<26)
		for sc.Scan() {
			var v T
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out = append(out, v)
		}
	}
	return out
}

// warcioDir holds the independent reader (scripts/warccheck: warcio.js from
// npm, installed by `make warc-check-deps` or CI's npm ci).
const warcioDir = "../../scripts/warccheck"

// warcioRecord is one line of scripts/warccheck/check.mjs.
type warcioRecord struct {
	File          string `json:"file"`
	Offset        int64  `json:"offset"`
	Length        int64  `json:"record_length"`
	Type          string `json:"type"`
	RecordID      string `json:"record_id"`
	URI           string `json:"uri"`
	ContentLength int64  `json:"content_length"`
	LengthOK      string `json:"length"`
	BlockDigest   string `json:"block_digest"`
	PayloadDigest string `json:"payload_digest"`
	Text          string `json:"text"` // the block of a warcinfo record
}

// readWarcio parses file with warcio.js (check.mjs) and returns its
// records; the test skips when the reader is not installed (it fails
// instead with NDD_BEAM_REQUIRE_WARCIO=1, as in CI).
func readWarcio(t *testing.T, file string) []warcioRecord {
	t.Helper()
	if _, err := os.Stat(filepath.Join(warcioDir, "node_modules", "warcio")); err != nil {
		if os.Getenv("NDD_BEAM_REQUIRE_WARCIO") == "1" {
			t.Fatalf("warcio.js is not installed in %s (npm ci --prefix scripts/warccheck)", warcioDir)
		}
		t.Skipf("warcio.js not installed: make warc-check-deps (npm ci in %s)", warcioDir)
	}
	abs, _ := filepath.Abs(file)
	cmd := exec.Command("node", "check.mjs", abs)
	cmd.Dir = warcioDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("warcio.js cannot read %s: %v\n%s", file, err, stderr.String())
	}
	var recs []warcioRecord
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r warcioRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs
}

// Filtered WARC files (--write_warc) of the shared WARC files, and of a
// scheduled batch run against an index: warcio.js reads every record of
// every filtered file; each file is its warcinfo record (lengths and
// digest right, naming the run) followed by the input's records minus the
// removed ones, each byte-identical to the input and with the same digest
// and length checks as there; the removed records are the dropped pages of
// decisions-*.jsonl plus linked request/metadata/revisit records, counted
// per file in the manifest.
func TestFilteredWARC(t *testing.T) {
	shared := "../../../shared/data/warc"
	if _, err := os.Stat(shared); err != nil {
		t.Skip("../shared/data/warc not present")
	}
	dir := t.TempDir()
	t.Run("shared", func(t *testing.T) {
		out, fw := filepath.Join(dir, "shared"), filepath.Join(dir, "shared-warc")
		job(t, []string{shared}, out, fw, nil, "")
		checkFiltered(t, out, fw, 17)
	})
	t.Run("against", func(t *testing.T) {
		ix := filepath.Join(dir, "index")
		in := []string{filepath.Join(testdata, "dolma__sample-*.warc.gz")}
		job(t, in, filepath.Join(dir, "day1"), "", nil, ix)
		// Day 2: the same crawl again plus another file, against day 1.
		day2 := filepath.Join(dir, "crawl2")
		os.MkdirAll(day2, 0o755)
		for _, name := range []string{"dolma__sample-0000.warc.gz", "dolma__sample-0001.warc.gz", "resiliparse__warcfile.warc.gz"} {
			os.WriteFile(filepath.Join(day2, name), readFileT(t, filepath.Join(testdata, name)), 0o644)
		}
		out, fw := filepath.Join(dir, "day2"), filepath.Join(dir, "day2-warc")
		sum := job(t, []string{day2}, out, fw, []string{ix}, ix)
		if sum.DroppedForIndex == 0 {
			t.Errorf("day 2 dropped no page for day 1's")
		}
		checkFiltered(t, out, fw, 3)
	})
}

// checkFiltered checks the filtered directory fw of the run in out, which
// read files WARC files.
func checkFiltered(t *testing.T, out, fw string, files int) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(fw, "_SUCCESS")); err != nil {
		t.Fatalf("no _SUCCESS in %s", fw)
	}
	sum := readSummaryFile(t, out)
	dropped := map[string][]output.Decision{}
	for _, d := range readLines[output.Decision](t, filepath.Join(out, "decisions-*.jsonl")) {
		if !d.Keep {
			dropped[d.File] = append(dropped[d.File], d)
		}
	}
	manifest := readManifest(t, fw)
	if len(manifest) != files {
		t.Fatalf("manifest: %d files, want %d", len(manifest), files)
	}
	totalLinked := 0
	for _, m := range manifest {
		// The removed records: the file's dropped pages, then the linked ones.
		var pages []string
		for _, d := range dropped[m.File] {
			pages = append(pages, fmt.Sprint(d.Offset, "+", d.Inner))
		}
		var gotPages []string
		linked := 0
		for _, r := range m.RemovedRecords {
			if r.Link == "page" {
				gotPages = append(gotPages, fmt.Sprint(r.Offset, "+", r.Inner))
				continue
			}
			linked++
			if !slices.Contains(pages, fmt.Sprint(r.PageOffset, "+", r.PageInner)) || r.KeptByURI == "" ||
				!slices.Contains([]string{"request", "metadata", "revisit"}, r.Type) {
				t.Errorf("%s: removed record %+v belongs to no dropped page", m.File, r)
			}
		}
		slices.Sort(pages)
		slices.Sort(gotPages)
		if !slices.Equal(pages, gotPages) && m.Shared == 0 {
			t.Errorf("%s: removed pages %v, decisions drop %v", m.File, gotPages, pages)
		}
		if m.Pages+m.Shared < len(dropped[m.File]) || m.Shared == 0 && m.Pages != len(dropped[m.File]) || m.Removed != len(m.RemovedRecords) || m.Linked != linked ||
			m.Kept+m.Removed != m.Records {
			t.Errorf("%s: manifest counts %+v, %d pages dropped, %d linked listed", m.File, m, len(dropped[m.File]), linked)
		}
		totalLinked += linked

		// The independent reader: the input's records less the removed,
		// after one warcinfo record, each byte-identical.
		in := readWarcio(t, m.File)
		got := readWarcio(t, filepath.Join(fw, m.WARC))
		if len(got) == 0 || got[0].Type != "warcinfo" || got[0].LengthOK != "ok" || got[0].BlockDigest != "ok" {
			t.Fatalf("%s: first record %+v, want a warcinfo with right length and digest", m.WARC, got[0])
		}
		for _, f := range []string{"software: ndd-beam ", "ndd-beam-run-id: " + sum.Run.ID, "ndd-beam-parameters: {", fmt.Sprintf("ndd-beam-removed: %d of %d records", m.Removed, m.Records)} {
			if !strings.Contains(got[0].Text, f) {
				t.Errorf("%s: warcinfo without %q:\n%s", m.WARC, f, got[0].Text)
			}
		}
		removed := map[string]int{}
		for _, r := range m.RemovedRecords {
			removed["<"+r.RecordID+">"+r.Type]++
		}
		var want []warcioRecord
		for _, r := range in {
			if k := r.RecordID + r.Type; removed[k] > 0 {
				removed[k]--
				continue
			}
			want = append(want, r)
		}
		if len(got)-1 != len(want) {
			t.Errorf("%s: %d records after the warcinfo, want %d (%d read from the input, %d removed)", m.WARC, len(got)-1, len(want), len(in), m.Removed)
			continue
		}
		inBytes, outBytes := readFileT(t, m.File), readFileT(t, filepath.Join(fw, m.WARC))
		for i, w := range want {
			g := got[i+1]
			if g.RecordID != w.RecordID || g.Type != w.Type || g.LengthOK != w.LengthOK || g.BlockDigest != w.BlockDigest ||
				g.PayloadDigest != w.PayloadDigest || g.Length != w.Length {
				t.Errorf("%s: record %d is %+v, input's %+v", m.WARC, i+1, g, w)
				continue
			}
			if !bytes.Equal(outBytes[g.Offset:g.Offset+g.Length], inBytes[w.Offset:w.Offset+w.Length]) {
				t.Errorf("%s: record %s differs from the input's bytes", m.WARC, g.RecordID)
			}
		}
	}
	if totalLinked == 0 {
		t.Errorf("no linked record removed with any dropped page")
	}
}

// readManifest reads the manifest lines of the filtered directory fw.
func readManifest(t *testing.T, fw string) []transforms.ManifestLine {
	t.Helper()
	var out []transforms.ManifestLine
	sc := bufio.NewScanner(bytes.NewReader(readFileT(t, filepath.Join(fw, "manifest-00000-of-00001.jsonl"))))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var m transforms.ManifestLine
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}
