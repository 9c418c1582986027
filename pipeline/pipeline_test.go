package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/direct"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// TestMain initializes Beam so that prism's in-process loopback worker can
// run the job's DoFns.
func TestMain(m *testing.M) {
	ptest.MainWithDefault(m, "direct")
}

const testdata = "../testdata"

// testdataGlobs are the real WARC files bundled with the repository.
func testdataGlobs(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(testdata, "*.warc*"))
	if len(files) == 0 {
		t.Fatalf("no WARC files in %s", testdata)
	}
	return []string{filepath.Join(testdata, "*.warc.gz"), filepath.Join(testdata, "*.warc")}
}

// runJob runs the whole job for cfg on runner and returns the output dir.
func runJob(t *testing.T, runner string, cfg config.Config) string {
	t.Helper()
	if cfg.Output == "" {
		cfg.Output = t.TempDir()
	}
	cfg.Runner = runner
	if err := Validate(context.Background(), &cfg); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	p, s := beam.NewPipelineWithRoot()
	if err := Build(context.Background(), s, cfg); err != nil {
		t.Fatalf("Build: %v", err)
	}
	if _, err := beam.Run(context.Background(), runner, p); err != nil {
		t.Fatalf("%s run: %v", runner, err)
	}
	return cfg.Output
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readSummary(t *testing.T, dir string) output.Summary {
	t.Helper()
	var s output.Summary
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, output.SummaryFile))), &s); err != nil {
		t.Fatalf("summary.json: %v", err)
	}
	return s
}

// readLines returns the JSON lines of every shard of an output, after
// checking that exactly the expected shard files exist.
func readLines(t *testing.T, dir, prefix string, shards int) []string {
	t.Helper()
	got, _ := filepath.Glob(filepath.Join(dir, prefix+"-*.jsonl"))
	if len(got) != shards {
		t.Fatalf("%s: %d shard files, want %d: %v", prefix, len(got), shards, got)
	}
	var lines []string
	for i := range shards {
		text := readFile(t, filepath.Join(dir, output.JSONLines.ShardName(prefix, i, shards)))
		if text != "" && !strings.HasSuffix(text, "\n") {
			t.Fatalf("%s shard %d does not end in a newline", prefix, i)
		}
		shard := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if text == "" {
			shard = nil
		}
		if !sort.StringsAreSorted(shard) {
			t.Errorf("%s shard %d is not sorted", prefix, i)
		}
		lines = append(lines, shard...)
	}
	return lines
}

// pairKey identifies a pair independently of the output format: the two
// documents' "file@offset+inner" keys in canonical order and the Jaccard.
type pairKey struct {
	A, B    string
	Jaccard float64
}

func readPairs(t *testing.T, dir string, shards int) map[pairKey]bool {
	t.Helper()
	out := map[pairKey]bool{}
	for _, l := range readLines(t, dir, "pairs", shards) {
		var p output.PairRecord
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatalf("pairs line %q: %v", l, err)
		}
		if p.ARecordID > p.BRecordID {
			t.Errorf("pair not in canonical order: %s", l)
		}
		if p.Jaccard < 0 || p.Jaccard > 1 {
			t.Errorf("jaccard outside [0,1]: %s", l)
		}
		k := pairKey{p.A().Key(), p.B().Key(), p.Jaccard}
		if out[k] {
			t.Errorf("pair written twice: %s", l)
		}
		out[k] = true
	}
	return out
}

// checkAccounting checks records == documents + Σ skipped and that the
// rejects files hold exactly the skipped records, reason by reason.
func checkAccounting(t *testing.T, dir string, shards int) output.Summary {
	t.Helper()
	sum := readSummary(t, dir)
	if sum.Records != sum.Documents+sum.SkippedTotal() {
		t.Errorf("records %d != documents %d + skipped %d (%v)", sum.Records, sum.Documents, sum.SkippedTotal(), sum.Skipped)
	}
	byReason := map[string]int{}
	for _, l := range readLines(t, dir, "rejects", shards) {
		var r output.Reject
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("rejects line %q: %v", l, err)
		}
		if r.File == "" || r.Reason == "" {
			t.Errorf("reject without file or reason: %s", l)
		}
		byReason[r.Reason]++
	}
	if fmt.Sprint(byReason) != fmt.Sprint(sum.Skipped) {
		t.Errorf("rejects files %v != summary skipped %v", byReason, sum.Skipped)
	}
	return sum
}

// reference is the job's result computed in process by dedup.Run: the
// pairs by document key, and the number of records and documents.
func reference(t *testing.T, cfg config.Config, files []string) (pairs map[pairKey]bool, records, documents int, res *dedup.Result) {
	t.Helper()
	res, err := dedup.Run(context.Background(), cfg.Params, files)
	if err != nil {
		t.Fatal(err)
	}
	return pairKeys(res), res.Records, len(res.Docs), res
}

// pairKeys are the lines of the in-process pairs output (exact-copy lines
// included) by document key.
func pairKeys(res *dedup.Result) map[pairKey]bool {
	pairs := map[pairKey]bool{}
	for _, p := range res.PairRecords() {
		pairs[pairKey{p.A().Key(), p.B().Key(), p.Jaccard}] = true
	}
	return pairs
}

// samePairs compares pair sets ignoring the order of the two documents.
func samePairs(t *testing.T, what string, got, want map[pairKey]bool) {
	t.Helper()
	norm := func(m map[pairKey]bool) map[pairKey]bool {
		out := map[pairKey]bool{}
		for k := range m {
			if k.A > k.B {
				k.A, k.B = k.B, k.A
			}
			out[k] = true
		}
		return out
	}
	g, w := norm(got), norm(want)
	missing, extra := 0, 0
	for k := range w {
		if !g[k] {
			if missing < 5 {
				t.Errorf("%s: missing pair %v", what, k)
			}
			missing++
		}
	}
	for k := range g {
		if !w[k] {
			if extra < 5 {
				t.Errorf("%s: unexpected pair %v", what, k)
			}
			extra++
		}
	}
	if missing+extra > 0 {
		t.Errorf("%s: %d pairs, want %d (%d missing, %d unexpected)", what, len(g), len(w), missing, extra)
	}
}

func testConfig(input []string) config.Config {
	cfg := config.DefaultConfig()
	cfg.Input = input
	return cfg
}

// The job on the bundled real WARC files: direct and prism write
// byte-identical outputs; the pairs equal the brute-force matcher's and an
// in-process computation with warc + spotsig + match; the accounting
// identity holds and the rejects files list every skipped record.
func TestJobOnTestdata(t *testing.T) {
	cfg := testConfig(testdataGlobs(t))
	direct := runJob(t, "direct", cfg)
	sum := checkAccounting(t, direct, cfg.Shards)
	pairs := readPairs(t, direct, cfg.Shards)
	if len(pairs) == 0 {
		t.Fatal("no pairs on testdata: aut__example.warc.gz alone holds many template near-duplicates")
	}
	if sum.Pairs != len(pairs) || sum.Partitions < 1 || sum.LargestGroup < 2 {
		t.Errorf("summary pairs %d partitions %d largest_group %d; pairs file has %d", sum.Pairs, sum.Partitions, sum.LargestGroup, len(pairs))
	}
	if sum.SignaturesAfterIDF > sum.SignaturesBeforeIDF || sum.SignaturesAfterIDF == 0 {
		t.Errorf("signatures before %d after %d", sum.SignaturesBeforeIDF, sum.SignaturesAfterIDF)
	}
	files, _ := filepath.Glob(filepath.Join(testdata, "*.warc*"))
	if len(sum.Files) != len(files) {
		t.Errorf("summary lists %d files, testdata has %d", len(sum.Files), len(files))
	}

	decisions := checkDecisions(t, direct, cfg)

	t.Run("reference", func(t *testing.T) {
		want, records, documents, res := reference(t, cfg, sum.Files)
		if sum.Records != records || sum.Documents != documents {
			t.Errorf("job: %d records %d documents; in-process: %d records %d documents", sum.Records, sum.Documents, records, documents)
		}
		samePairs(t, "job vs in-process", pairs, want)
		sameDecisions(t, "job vs in-process", decisions, inProcessDecisions(t, res))
	})

	t.Run("bruteforce", func(t *testing.T) {
		bf := cfg
		bf.Matcher = config.MatcherBruteForce
		dir := runJob(t, "direct", bf)
		samePairs(t, "spotsigs vs bruteforce", pairs, readPairs(t, dir, bf.Shards))
		if got := readSummary(t, dir); got.Partitions != 1 || got.Pairs != sum.Pairs {
			t.Errorf("bruteforce: partitions %d (want 1), pairs %d (want %d)", got.Partitions, got.Pairs, sum.Pairs)
		}
	})

	// The competitors run through the same job: shingles with the exact
	// matcher equal shingles with brute force, and LSH (verified by exact
	// Jaccard on the same spot signatures) finds a subset of the exact pairs.
	t.Run("shingles", func(t *testing.T) {
		sh := cfg
		sh.Method = config.MethodShingles
		got := readPairs(t, runJob(t, "direct", sh), sh.Shards)
		sh.Matcher = config.MatcherBruteForce
		samePairs(t, "shingles: spotsigs matcher vs bruteforce", got, readPairs(t, runJob(t, "direct", sh), sh.Shards))
		if len(got) == 0 {
			t.Error("shingles: no pairs")
		}
	})
	t.Run("lsh", func(t *testing.T) {
		l := cfg
		l.Matcher = config.MatcherLSH
		dir := runJob(t, "direct", l)
		checkAccounting(t, dir, l.Shards)
		got := readPairs(t, dir, l.Shards)
		for k := range got {
			if !pairs[k] {
				t.Errorf("lsh pair %v is not an exact pair", k)
			}
		}
		if len(got) == 0 {
			t.Error("lsh: no pairs")
		}
	})

	t.Run("prism", func(t *testing.T) {
		dir := runJob(t, "prism", cfg)
		for _, name := range []string{"pairs-00000-of-00001.jsonl", "rejects-00000-of-00001.jsonl", "decisions-00000-of-00001.jsonl", "clusters-00000-of-00001.jsonl"} {
			if readFile(t, filepath.Join(direct, name)) != readFile(t, filepath.Join(dir, name)) {
				t.Errorf("%s differs between direct and prism", name)
			}
		}
		ps := readSummary(t, dir)
		ps.Output = sum.Output
		// The run's times, CPU, runner and ID differ by nature (docs/outputs.md);
		// its version and Beam SDK must not.
		ps.Run.Start, ps.Run.End, ps.Run.WallSeconds, ps.Run.CPUSeconds, ps.Run.Runner = sum.Run.Start, sum.Run.End, sum.Run.WallSeconds, sum.Run.CPUSeconds, sum.Run.Runner
		ps.Run.ID = sum.Run.ID
		if fmt.Sprintf("%+v", ps) != fmt.Sprintf("%+v", sum) {
			t.Errorf("summary differs between direct and prism:\n%+v\n%+v", ps, sum)
		}
	})

	// Parquet holds the same rows as JSON lines, in the same order, and
	// its bytes are the same on direct and prism.
	t.Run("parquet", func(t *testing.T) {
		pq := cfg
		pq.OutputFormat = config.OutputFormatParquet
		dir := runJob(t, "direct", pq)
		sameRows(t, direct, dir)
		names, _ := filepath.Glob(filepath.Join(dir, "*-of-*"))
		if len(names) != 4 || !strings.HasSuffix(names[0], ".parquet") {
			t.Fatalf("parquet run wrote %q", names)
		}
		prism := runJob(t, "prism", pq)
		for _, name := range names {
			if readFile(t, name) != readFile(t, filepath.Join(prism, filepath.Base(name))) {
				t.Errorf("%s differs between direct and prism", filepath.Base(name))
			}
		}
	})

	t.Run("shards", func(t *testing.T) {
		sh := cfg
		sh.Shards = 3
		dir := runJob(t, "direct", sh)
		samePairs(t, "3 shards vs 1", readPairs(t, dir, 3), pairs)
		checkAccounting(t, dir, 3)
		sameDecisions(t, "3 shards vs 1", checkDecisions(t, dir, sh), decisions)
	})

	// One round only: the pages still undecided go to the residual step on
	// one worker, which must give the same decisions as the rounds.
	t.Run("residual", func(t *testing.T) {
		one := cfg
		one.DecideRounds = 1
		dir := runJob(t, "direct", one)
		sameDecisions(t, "--decide_rounds=1 vs default", checkDecisions(t, dir, one), decisions)
		if got := readSummary(t, dir).DecideResidual; got == 0 {
			t.Error("no page left to the residual step after one round: the test does not exercise it")
		}
	})
}

// A job whose input has no near-duplicate pair still writes an empty pairs
// file, the rejects and a summary with pairs = 0.
func TestJobEmptyResult(t *testing.T) {
	// One Common Crawl capture: a single HTML page, so no pair can exist.
	cfg := testConfig([]string{filepath.Join(testdata, "commoncrawl-whirlwind__whirlwind.warc.gz")})
	dir := runJob(t, "direct", cfg)
	if got := readFile(t, filepath.Join(dir, "pairs-00000-of-00001.jsonl")); got != "" {
		t.Errorf("pairs file not empty: %q", got)
	}
	sum := checkAccounting(t, dir, 1)
	if sum.Pairs != 0 || sum.Records != 4 {
		t.Errorf("summary: %d records (MANIFEST: 4), %d pairs (want 0)", sum.Records, sum.Pairs)
	}
}

func TestValidateErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := testConfig([]string{filepath.Join(testdata, "*.warc.gz")})
	good.Output = filepath.Join(dir, "out")
	cases := []struct {
		name string
		edit func(*config.Config)
		want string
	}{
		{"no-match glob", func(c *config.Config) { c.Input = []string{filepath.Join(dir, "nothing-*.warc.gz")} }, "matches no file"},
		{"missing file", func(c *config.Config) { c.Input = []string{filepath.Join(dir, "missing.warc")} }, "matches no file"},
		{"unwritable output", func(c *config.Config) { c.Output = filepath.Join(file, "out") }, "not writable"},
		{"unknown scheme", func(c *config.Config) { c.Input = []string{"hdfs://bucket/x.warc.gz"} }, "not registered"},
		{"tau zero", func(c *config.Config) { c.Tau = 0 }, "--tau"},
		{"tau above 1", func(c *config.Config) { c.Tau = 1.5 }, "--tau"},
		{"idf range inverted", func(c *config.Config) { c.IDFMin, c.IDFMax = 0.9, 0.1 }, "--idf_min"},
		{"min signatures", func(c *config.Config) { c.MinSignatures = 0 }, "--min_signatures"},
		{"rho", func(c *config.Config) { c.Rho = 0 }, "--rho"},
		{"shards", func(c *config.Config) { c.Shards = 0 }, "--shards"},
		{"matcher", func(c *config.Config) { c.Matcher = "lsh-typo" }, "--matcher"},
		{"method", func(c *config.Config) { c.Method = "shingles-typo" }, "--method"},
		{"shingle k", func(c *config.Config) { c.Method = config.MethodShingles; c.ShingleK = 0 }, "--method"},
		{"antecedents", func(c *config.Config) { c.Antecedents = "the(0,3)" }, "--antecedents"},
		{"antecedents file", func(c *config.Config) { c.Antecedents = "@" + filepath.Join(dir, "none.txt") }, "--antecedents"},
		{"min_block_tokens", func(c *config.Config) { c.MinBlockTokens = -1 }, "--min_block_tokens"},
		{"keep", func(c *config.Config) { c.Keep = "earliest,oldest" }, "--keep"},
		{"keep contradiction", func(c *config.Config) { c.Keep = "longest,shortest" }, "--keep"},
		{"decide rounds", func(c *config.Config) { c.DecideRounds = -1 }, "--decide_rounds"},
		{"lang", func(c *config.Config) { c.Lang = "xx" }, "--lang"},
		{"cap", func(c *config.Config) { c.MaxPayloadBytes = 0 }, "--max_payload_bytes"},
		{"no input", func(c *config.Config) { c.Input = nil }, "--input"},
		{"no output", func(c *config.Config) { c.Output = "" }, "--output"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := good
			tc.edit(&c)
			err := Validate(ctx, &c)
			if err == nil || !errors.Is(err, config.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate = %v, want an ErrConfig naming %q", err, tc.want)
			}
		})
	}
	c := good
	if err := Validate(ctx, &c); err != nil {
		t.Fatalf("good config: %v", err)
	}
	if _, err := os.Stat(filepath.Join(good.Output, ".ndd-beam-write-probe")); !os.IsNotExist(err) {
		t.Errorf("write probe left behind: %v", err)
	}
}

// An "@file" spot set is resolved to inline form at launch, so workers never
// need the file.
func TestValidateResolvesAntecedentFile(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "spots.txt")
	if err := os.WriteFile(spec, []byte("# spot set\nthe(2,3)\nis(3,1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := testConfig([]string{filepath.Join(testdata, "*.warc.gz")})
	c.Output = filepath.Join(dir, "out") // not dir: it holds spots.txt, which the job did not write
	c.Antecedents = "@" + spec
	if err := Validate(context.Background(), &c); err != nil {
		t.Fatal(err)
	}
	if c.Antecedents != "the(2,3),is(3,1)" {
		t.Errorf("Antecedents = %q, want the inline spec", c.Antecedents)
	}
}

// The job over every real WARC file in ../shared (quirky, truncated, GPL
// files that stay outside the repository) in one run: it finishes, the
// accounting identity holds and every skipped record is in the rejects file.
func TestJobOnSharedWARCs(t *testing.T) {
	shared := filepath.Join("..", "..", "shared", "data", "warc")
	if _, err := os.Stat(shared); err != nil {
		t.Skipf("%s absent: %v", shared, err)
	}
	if testing.Short() {
		t.Skip("-short")
	}
	cfg := testConfig([]string{filepath.Join(shared, "*.warc.gz"), filepath.Join(shared, "*.warc")})
	dir := runJob(t, "direct", cfg)
	sum := checkAccounting(t, dir, 1)
	all, _ := filepath.Glob(filepath.Join(shared, "*.warc*"))
	if len(sum.Files) != len(all) {
		t.Errorf("read %d files, %s has %d", len(sum.Files), shared, len(all))
	}
	want, records, documents, res := reference(t, cfg, sum.Files)
	if sum.Records != records || sum.Documents != documents {
		t.Errorf("job: %d records %d documents; in-process: %d records %d documents", sum.Records, sum.Documents, records, documents)
	}
	samePairs(t, "job vs in-process", readPairs(t, dir, 1), want)
	sameDecisions(t, "job vs in-process", checkDecisions(t, dir, cfg), inProcessDecisions(t, res))
	// Every file is accounted for in the rejects (each has at least a
	// warcinfo, request or non-HTML record), the truncated one included.
	seen := map[string]bool{}
	for _, l := range readLines(t, dir, "rejects", 1) {
		var r output.Reject
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		seen[r.File] = true
	}
	for _, f := range sum.Files {
		if !seen[f] {
			t.Errorf("no reject from %s", f)
		}
	}
	b, _ := json.Marshal(sum)
	t.Logf("summary: %s", b)
}

// The Beam job and the in-process runner (dedup.Run) agree pair for pair,
// Jaccard for Jaccard, and decision for decision on the dev gold set (2,313
// real pages); the decisions keep their guarantees (checkDecisions).
func TestJobEqualsInProcessOnGoldSet(t *testing.T) {
	gold := filepath.Join("..", "..", "shared", "data", "goldset", "gold.warc.gz")
	if _, err := os.Stat(gold); err != nil {
		t.Skipf("%s absent: %v", gold, err)
	}
	if testing.Short() {
		t.Skip("-short")
	}
	cfg := testConfig([]string{gold})
	dir := runJob(t, "direct", cfg)
	sum := checkAccounting(t, dir, 1)
	want, records, documents, res := reference(t, cfg, sum.Files)
	if sum.Records != records || sum.Documents != documents {
		t.Errorf("job: %d records %d documents; in-process: %d records %d documents", sum.Records, sum.Documents, records, documents)
	}
	if len(want) < 1000 {
		t.Errorf("in-process: %d pairs on the gold set, expected thousands", len(want))
	}
	samePairs(t, "job vs in-process on the gold set", readPairs(t, dir, 1), want)
	sameDecisions(t, "job vs in-process on the gold set", checkDecisions(t, dir, cfg), inProcessDecisions(t, res))
	if sum.DecideResidual != 0 {
		t.Errorf("%d pages decided on the residual worker at the default --decide_rounds", sum.DecideResidual)
	}
}

// On the multilingual gold set the job equals dedup.Run pair for pair and
// in its documents per language, and summary.json records the language
// configuration: auto mode, a spot set per embedded language.
func TestJobEqualsInProcessOnMultilingualGoldSet(t *testing.T) {
	gold := filepath.Join("..", "..", "shared", "data", "goldset-ml", "gold.warc.gz")
	if _, err := os.Stat(gold); err != nil {
		t.Skipf("%s absent: %v", gold, err)
	}
	if testing.Short() {
		t.Skip("-short")
	}
	cfg := testConfig([]string{gold})
	dir := runJob(t, "direct", cfg)
	sum := checkAccounting(t, dir, 1)
	res, err := dedup.Run(context.Background(), cfg.Params, sum.Files)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(sum.Languages, res.Languages) {
		t.Errorf("documents per language: job %v, in-process %v", sum.Languages, res.Languages)
	}
	if sum.SharedTextPages != res.SharedTextPages {
		t.Errorf("pages of shared text only: job %d, in-process %d", sum.SharedTextPages, res.SharedTextPages)
	}
	if len(sum.Languages) < 11 {
		t.Errorf("documents in %d languages %v, want the set's 11 at least", len(sum.Languages), sum.Languages)
	}
	ld := sum.LanguageData
	if ld.Mode != spotsig.LanguageAuto || len(ld.SpotSetSizes) != len(spotsig.Languages())+1 || ld.SpotSetSizes["pl"] < 100 {
		t.Errorf("language_data %+v: want auto mode and the spot set sizes of every language and und", ld)
	}
	samePairs(t, "job vs in-process on the multilingual gold set", readPairs(t, dir, 1), pairKeys(res))
}

// A range that drops signatures runs the IDF joins: the job's vectors (the
// a_signatures/b_signatures of every pair, signatures_after_idf) and pairs
// equal the in-process spotsig.FilterIDF. This fails for a stage that counts
// df per occurrence instead of per document, takes N from anything but the
// documents with a signature, or ignores the range.
func TestJobIDFRangeEqualsInProcess(t *testing.T) {
	for _, r := range []struct{ min, max float64 }{{0.6, 1}, {0, 0.9}} {
		t.Run(fmt.Sprintf("[%v,%v]", r.min, r.max), func(t *testing.T) {
			cfg := testConfig(testdataGlobs(t))
			cfg.IDFMin, cfg.IDFMax, cfg.IDFKeepShared = r.min, r.max, false
			dir := runJob(t, "direct", cfg)
			sum := checkAccounting(t, dir, 1)
			res, err := dedup.Run(context.Background(), cfg.Params, sum.Files)
			if err != nil {
				t.Fatal(err)
			}
			if sum.SignaturesAfterIDF != res.SignaturesAfterIDF || sum.SignaturesBeforeIDF != res.SignaturesBeforeIDF {
				t.Errorf("signatures before/after IDF: job %d/%d, in-process %d/%d",
					sum.SignaturesBeforeIDF, sum.SignaturesAfterIDF, res.SignaturesBeforeIDF, res.SignaturesAfterIDF)
			}
			if res.SignaturesAfterIDF >= res.SignaturesBeforeIDF {
				t.Fatalf("the range [%v,%v] dropped no signature: the test does not exercise the IDF stage", r.min, r.max)
			}
			want := map[output.PairRecord]bool{}
			for _, p := range res.PairRecords() {
				want[p] = true
			}
			got := readLines(t, dir, "pairs", 1)
			if len(got) != len(want) || len(got) == 0 {
				t.Errorf("job wrote %d pairs, in-process found %d", len(got), len(want))
			}
			for _, l := range got {
				var p output.PairRecord
				if err := json.Unmarshal([]byte(l), &p); err != nil {
					t.Fatal(err)
				}
				if !want[p] {
					t.Errorf("job pair not found in process: %s", l)
					break
				}
			}
		})
	}
}

// sameRows checks that the job outputs in dirs a and b (of any formats)
// hold the same rows in the same order, read through output.Read.
func sameRows(t *testing.T, a, b string) {
	t.Helper()
	sameRowsOf[output.PairRecord](t, a, b, output.Pairs)
	sameRowsOf[output.Decision](t, a, b, output.Decisions)
	sameRowsOf[output.Cluster](t, a, b, output.Clusters)
	sameRowsOf[output.Reject](t, a, b, output.Rejects)
}

func sameRowsOf[T output.Row](t *testing.T, a, b, prefix string) {
	t.Helper()
	x, _, err := output.ReadAll[T](output.Glob(a, prefix))
	if err != nil {
		t.Fatal(err)
	}
	y, _, err := output.ReadAll[T](output.Glob(b, prefix))
	if err != nil {
		t.Fatal(err)
	}
	if len(x) == 0 && prefix != output.Rejects {
		t.Errorf("%s: no rows: the test compares nothing", prefix)
	}
	if !reflect.DeepEqual(x, y) {
		t.Errorf("%s: %d rows in %s, %d in %s, not the same", prefix, len(x), a, len(y), b)
	}
}
