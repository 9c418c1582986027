package pipeline

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fsouza/fake-gcs-server/fakestorage"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/storage"
	"github.com/ndd-beam/ndd-beam/storage/httpfs"
)

// storageWARCs are the real WARC files the storage tests put on each
// storage system: one with many near-duplicate pairs, one with few.
var storageWARCs = []string{"aut__example.warc.gz", "dolma__sample-0000.warc.gz"}

// jobOutputs is what a run wrote, read back through the output's own
// filesystem: the file names, and the lines of every sharded output and
// summary.json with the input location replaced by "<IN>/" so that runs
// on different storage systems compare.
type jobOutputs struct {
	names   []string
	lines   map[string][]string // "pairs", "decisions", "clusters", "rejects" -> sorted lines
	summary output.Summary
}

func readOutputs(t *testing.T, dir, inputDir string) jobOutputs {
	t.Helper()
	ctx := context.Background()
	fs, err := storage.New(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	paths, err := fs.List(ctx, output.JoinPath(dir, "*"))
	if err != nil {
		t.Fatalf("listing %s: %v", dir, err)
	}
	out := jobOutputs{lines: map[string][]string{}}
	for _, p := range paths {
		name := path.Base(p)
		out.names = append(out.names, name)
		rc, err := fs.OpenRead(ctx, p)
		if err != nil {
			t.Fatalf("reading %s: %v", p, err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("reading %s: %v", p, err)
		}
		if strings.HasSuffix(name, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if b, err = io.ReadAll(zr); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
		}
		text := strings.ReplaceAll(string(b), strings.TrimSuffix(inputDir, "/")+"/", "<IN>/")
		switch {
		case name == output.SummaryFile:
			if err := json.Unmarshal([]byte(text), &out.summary); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
		case strings.HasSuffix(name, ".jsonl"), strings.HasSuffix(name, ".jsonl"+".gz"):
			kind, _, _ := strings.Cut(name, "-")
			for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
				if l != "" {
					out.lines[kind] = append(out.lines[kind], l)
				}
			}
		}
	}
	for _, l := range out.lines {
		slices.Sort(l)
	}
	slices.Sort(out.names)
	return out
}

// wantNames are the files of a finished run with one shard each.
var wantNames = []string{output.SuccessFile, "clusters-00000-of-00001.jsonl", "decisions-00000-of-00001.jsonl",
	"pairs-00000-of-00001.jsonl", "rejects-00000-of-00001.jsonl", output.SummaryFile}

// storageConfig is testConfig with the paper's pair rule (no same-site
// threshold), so that the 2008 archive.org crawl gives many pairs of its
// template siblings to compare across storage systems.
func storageConfig(input []string) config.Config {
	cfg := testConfig(input)
	cfg.SameSiteTau = 0
	return cfg
}

// storageInputs are the paths of storageWARCs in ../testdata.
func storageInputs() []string {
	var in []string
	for _, f := range storageWARCs {
		in = append(in, filepath.Join(testdata, f))
	}
	return in
}

// localReference runs the job on storageWARCs in ../testdata.
func localReference(t *testing.T) jobOutputs {
	t.Helper()
	dir := runJob(t, "direct", storageConfig(storageInputs()))
	ref := readOutputs(t, dir, testdata)
	if len(ref.lines["pairs"]) == 0 || len(ref.lines["decisions"]) == 0 {
		t.Fatalf("reference run: %d pairs, %d decisions; want both", len(ref.lines["pairs"]), len(ref.lines["decisions"]))
	}
	return ref
}

// sameOutputs checks that a run on another storage system wrote exactly the
// finished outputs (no temporary file) and the reference's pairs,
// decisions and clusters line for line; its rejects and counts are the
// reference's plus extra (reason -> rejects of input paths the reference
// did not have), its files the reference's plus extraFiles (opened, but
// not read to the end).
func sameOutputs(t *testing.T, got, ref jobOutputs, extra map[string]int, extraFiles ...string) {
	t.Helper()
	if !slices.Equal(got.names, wantNames) {
		t.Errorf("output holds %q, want %q", got.names, wantNames)
	}
	for _, kind := range []string{"pairs", "decisions", "clusters"} {
		if !slices.Equal(got.lines[kind], ref.lines[kind]) {
			t.Errorf("%s: %d lines differ from the local run's %d", kind, len(got.lines[kind]), len(ref.lines[kind]))
		}
	}
	wantSkipped := maps.Clone(ref.summary.Skipped)
	n := 0
	for r, k := range extra {
		wantSkipped[r] += k
		n += k
	}
	g, r := got.summary, ref.summary
	wantFiles := append(slices.Clone(r.Files), extraFiles...)
	slices.Sort(wantFiles)
	if fmt.Sprint(g.Skipped) != fmt.Sprint(wantSkipped) || g.Records != r.Records+n || g.Documents != r.Documents ||
		g.Pairs != r.Pairs || g.Kept != r.Kept || g.Dropped != r.Dropped || !slices.Equal(g.Files, wantFiles) ||
		g.Records != g.Documents+g.SkippedTotal() {
		t.Errorf("summary: records %d documents %d skipped %v pairs %d kept %d dropped %d files %q;\nwant records %d documents %d skipped %v pairs %d kept %d dropped %d files %q",
			g.Records, g.Documents, g.Skipped, g.Pairs, g.Kept, g.Dropped, g.Files,
			r.Records+n, r.Documents, wantSkipped, r.Pairs, r.Kept, r.Dropped, wantFiles)
	}
	if len(got.lines["rejects"]) != len(ref.lines["rejects"])+n {
		t.Errorf("%d reject lines, want %d + %d", len(got.lines["rejects"]), len(ref.lines["rejects"]), n)
	}
}

// upload writes the storageWARCs and a gzipped input list of their relative
// names into dir (a gs:// or s3:// prefix) through Beam's filesystem.
func upload(t *testing.T, dir string) (list string) {
	t.Helper()
	ctx := context.Background()
	fs, err := storage.New(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	put := func(name string, b []byte) {
		w, err := fs.OpenWrite(ctx, dir+name)
		if err == nil {
			_, err = w.Write(b)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			t.Fatalf("uploading %s%s: %v", dir, name, err)
		}
	}
	var text strings.Builder
	text.WriteString("# relative to --input_prefix\n\n")
	for _, f := range storageWARCs {
		b, err := os.ReadFile(filepath.Join(testdata, f))
		if err != nil {
			t.Fatal(err)
		}
		put("in/"+f, b)
		text.WriteString(f + "\n")
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(text.String()))
	zw.Close()
	put("lists/warc.paths.gz", z.Bytes())
	return dir + "lists/warc.paths.gz"
}

// fakeGCS starts fake-gcs-server for the test, with the bucket "ndd", and
// points Beam's gcs filesystem at it.
func fakeGCS(t *testing.T) {
	t.Helper()
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{Scheme: "http", Host: "127.0.0.1", PublicHost: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	t.Setenv("STORAGE_EMULATOR_HOST", srv.URL())
	srv.CreateBucket("ndd")
}

// The job reads a gs:// input list of relative paths (--input_prefix) and
// the WARC files it names from fake-gcs-server, and commits its outputs to
// gs:// (temporary names, copy-and-delete renames, _SUCCESS last): the
// outputs equal a local run's. A second run into the same prefix is
// refused, and --overwrite replaces the files.
func TestJobOnGCS(t *testing.T) {
	fakeGCS(t)
	list := upload(t, "gs://ndd/")
	ref := localReference(t)

	cfg := storageConfig([]string{"@" + list})
	cfg.InputPrefix = "gs://ndd/in"
	cfg.Output = "gs://ndd/out/"
	cfg.WriteWARC = "gs://ndd/warc/"
	runJob(t, "direct", cfg)
	sameOutputs(t, readOutputs(t, cfg.Output, "gs://ndd/in"), ref, nil)
	if checkFilteredDir(t, cfg.WriteWARC, len(storageWARCs)) == 0 {
		t.Error("--write_warc on gs:// removed no record")
	}

	if err := Validate(context.Background(), &cfg); err == nil || !strings.Contains(err.Error(), "earlier run") {
		t.Errorf("second run into %s: Validate = %v, want it refused", cfg.Output, err)
	}
	cfg.Overwrite = true
	cfg.Input = []string{"gs://ndd/in/*.warc.gz"}
	runJob(t, "direct", cfg)
	sameOutputs(t, readOutputs(t, cfg.Output, "gs://ndd/in"), ref, nil)
	checkFilteredDir(t, cfg.WriteWARC, len(storageWARCs)) // replaced by --overwrite
}

// s3Env points Beam's s3 filesystem (AWS SDK v2) at endpoint with test
// credentials and no configuration files or instance metadata.
func s3Env(t *testing.T, endpoint string) {
	t.Setenv("AWS_ENDPOINT_URL_S3", endpoint)
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_CONFIG_FILE", "/dev/null")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
	t.Setenv("AWS_PROFILE", "")
}

// The job reads s3:// inputs (a glob and an input list) from gofakes3 and
// commits its outputs to s3:// (no rename in S3: copy and delete): the
// outputs equal a local run's. The list's one missing object is a reject.
func TestJobOnS3(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("ndd"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	defer srv.Close()
	s3Env(t, srv.URL) // http://127.0.0.1:PORT: an IP literal keeps path-style addressing
	upload(t, "s3://ndd/")
	ref := localReference(t)

	listPath := filepath.Join(t.TempDir(), "paths.txt")
	if err := os.WriteFile(listPath, []byte("missing.warc.gz\n"+storageWARCs[1]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := storageConfig([]string{"s3://ndd/in/aut*.warc.gz", "@" + listPath})
	cfg.InputPrefix = "s3://ndd/in/"
	cfg.Output = "s3://ndd/out"
	cfg.WriteWARC = "s3://ndd/warc"
	runJob(t, "direct", cfg)
	if checkFilteredDir(t, cfg.WriteWARC, len(storageWARCs)) == 0 {
		t.Error("--write_warc on s3:// removed no record")
	}
	got := readOutputs(t, cfg.Output, "s3://ndd/in")
	sameOutputs(t, got, ref, map[string]int{dedup.ReasonUnreadableFile: 1})
	if !slices.ContainsFunc(got.lines["rejects"], func(l string) bool {
		return strings.Contains(l, `"file":"<IN>/missing.warc.gz"`) && strings.Contains(l, dedup.ReasonUnreadableFile)
	}) {
		t.Errorf("no %s reject for the missing object: %q", dedup.ReasonUnreadableFile, got.lines["rejects"])
	}
}

// When the AWS configuration cannot load (Beam's s3 filesystem panics),
// an s3:// input or output is one configuration error line.
func TestValidateS3BadConfig(t *testing.T) {
	s3Env(t, "http://127.0.0.1:1")
	t.Setenv("AWS_PROFILE", "ndd-beam-no-such-profile")
	in := storageConfig([]string{"s3://ndd/in/*.warc.gz"})
	in.Output = t.TempDir()
	out := storageConfig([]string{filepath.Join(testdata, storageWARCs[1])})
	out.Output = "s3://ndd/out/"
	for _, cfg := range []config.Config{in, out} {
		err := Validate(context.Background(), &cfg)
		if err == nil || !errors.Is(err, config.ErrConfig) || !strings.Contains(err.Error(), "ndd-beam-no-such-profile") || strings.Contains(err.Error(), "\n") {
			t.Errorf("input %q output %q: Validate = %v, want one ErrConfig line naming the profile", cfg.Input, cfg.Output, err)
		}
	}
}

// The job reads https:// URLs (httptest over TLS, the filesystem trusting
// its certificate) from a local list under --input_prefix and from an
// https:// list; the outputs equal a local run's. A 404, a server that
// sends no header and one whose body stalls are unreadable-file rejects
// within the timeouts, and the same URL spelt twice is read once.
func TestJobOnHTTPS(t *testing.T) {
	release := make(chan struct{})
	files := http.FileServer(http.Dir(testdata))
	var srvURL string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/silent.warc.gz":
			select {
			case <-release:
			case <-r.Context().Done():
			}
		case "/stall.warc.gz":
			w.Header().Set("Content-Length", "100000")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
		case "/list.txt":
			fmt.Fprintf(w, "%s/%s\n", srvURL, storageWARCs[1])
		default:
			files.ServeHTTP(w, r)
		}
	}))
	defer srv.Close()
	defer close(release)
	srvURL = srv.URL
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	httpfs.Configure(httpfs.Options{ConnectTimeout: 2 * time.Second, HeaderTimeout: 2 * time.Second, IdleTimeout: 2 * time.Second,
		TLS: &tls.Config{RootCAs: pool}})
	defer httpfs.Configure(httpfs.DefaultOptions)
	ref := localReference(t)

	listPath := filepath.Join(t.TempDir(), "paths.txt")
	text := storageWARCs[0] + "\n./" + storageWARCs[0] + "\nmissing.warc.gz\nsilent.warc.gz\nstall.warc.gz\n"
	if err := os.WriteFile(listPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := storageConfig([]string{"@" + listPath, "@" + srv.URL + "/list.txt"})
	cfg.InputPrefix = srv.URL
	start := time.Now()
	dir := runJob(t, "direct", cfg)
	if d := time.Since(start); d > 2*time.Minute {
		t.Errorf("the job took %v", d)
	}
	got := readOutputs(t, dir, srv.URL)
	sameOutputs(t, got, ref, map[string]int{dedup.ReasonUnreadableFile: 3, dedup.ReasonDuplicateFile: 1}, "<IN>/stall.warc.gz")
	for name, want := range map[string]string{"missing": "HTTP 404", "silent": "timeout", "stall": "idle timeout", "./aut": dedup.ReasonDuplicateFile} {
		if !slices.ContainsFunc(got.lines["rejects"], func(l string) bool {
			return strings.Contains(l, `"file":"<IN>/`+name) && strings.Contains(l, want)
		}) {
			t.Errorf("no reject of %s with %q in %q", name, want, got.lines["rejects"])
		}
	}
}

// Irregular local paths matched by a glob are rejects with their reason
// and the job goes on (never a hang on a FIFO or /dev/zero, never a failed
// job for a broken symbolic link); the one file reached by a symbolic
// link, a hard link and "./a" is read once, under its plain name. The
// pairs and decisions equal a run on that file alone.
func TestJobIrregularLocalPaths(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(testdata, storageWARCs[0]))
	if err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(dir, "a.warc.gz")
	if err := os.WriteFile(a, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ref := readOutputs(t, runJob(t, "direct", storageConfig([]string{a})), dir)

	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	at := func(name string) string { return filepath.Join(dir, name) }
	must(os.Symlink("a.warc.gz", at("link.warc.gz")))
	must(os.Link(a, at("hard.warc.gz")))
	must(os.Symlink("gone.warc.gz", at("dangling.warc.gz")))
	must(os.Symlink("loop2.warc.gz", at("loop1.warc.gz")))
	must(os.Symlink("loop1.warc.gz", at("loop2.warc.gz")))
	must(mkfifo(at("fifo.warc.gz")))
	must(os.Symlink("/dev/zero", at("zero.warc.gz")))
	must(os.Mkdir(at("dir.warc.gz"), 0o755))
	must(os.WriteFile(at("empty.warc.gz"), nil, 0o644))

	cfg := storageConfig([]string{at("*.warc.gz"), dir + "/./a.warc.gz", a})
	got := readOutputs(t, runJob(t, "direct", cfg), dir)
	sameOutputs(t, got, ref, map[string]int{dedup.ReasonDuplicateFile: 3, dedup.ReasonIrregularFile: 6, dedup.ReasonEmptyFile: 1}, "<IN>/empty.warc.gz")
	for name, want := range map[string]string{
		"link.warc.gz": dedup.ReasonDuplicateFile, "hard.warc.gz": dedup.ReasonDuplicateFile, "./a.warc.gz": dedup.ReasonDuplicateFile,
		"dangling.warc.gz": "dangling symbolic link", "loop1.warc.gz": "symbolic link loop", "fifo.warc.gz": "FIFO",
		"zero.warc.gz": "character device", "dir.warc.gz": "directory", "empty.warc.gz": dedup.ReasonEmptyFile,
	} {
		if !slices.ContainsFunc(got.lines["rejects"], func(l string) bool {
			return strings.Contains(l, `"file":"<IN>/`+name+`"`) && strings.Contains(l, want)
		}) {
			t.Errorf("no reject of %s with %q", name, want)
		}
	}
}

// --compression=gzip writes every sharded output as <name>.jsonl.gz holding
// exactly the lines of a plain run, to gs:// as to a local directory, with
// the same bytes on every run; ndd-eval's readers take the files as they
// are.
func TestJobGzipOutputs(t *testing.T) {
	fakeGCS(t)
	ref := localReference(t)
	cfg := storageConfig(storageInputs())
	cfg.Compression = config.CompressionGzip
	local, again := runJob(t, "direct", cfg), runJob(t, "direct", cfg)
	cfg.Output = "gs://ndd/out/"
	runJob(t, "direct", cfg)
	for _, dir := range []string{local, cfg.Output} {
		got := readOutputs(t, dir, testdata)
		for i, n := range got.names {
			if strings.HasSuffix(n, ".jsonl") {
				t.Errorf("%s: %s not compressed", dir, n)
			}
			got.names[i] = strings.TrimSuffix(n, ".gz")
		}
		sameOutputs(t, got, ref, nil)
	}
	shards, _ := filepath.Glob(filepath.Join(local, "*.jsonl.gz"))
	if len(shards) != 4 {
		t.Fatalf("%d .jsonl.gz files, want 4: %q", len(shards), shards)
	}
	for _, p := range shards {
		if a, b := readFile(t, p), readFile(t, filepath.Join(again, filepath.Base(p))); a != b {
			t.Errorf("%s: bytes differ between two runs", filepath.Base(p))
		}
	}
	pairs, _, err := output.ReadAll[output.PairRecord](output.Glob(local, output.Pairs))
	if err != nil || len(pairs) != len(ref.lines["pairs"]) {
		t.Errorf("output.ReadAll: %d pairs, %v; want %d", len(pairs), err, len(ref.lines["pairs"]))
	}
}
