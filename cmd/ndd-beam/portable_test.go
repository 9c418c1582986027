package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ndd-beam/ndd-beam/output"
)

// The portable path as on a cluster: Beam's prism runner built from the
// module cache and started as a standalone job server in its own process,
// the job submitted to it by the ndd-beam command through Beam's universal
// runner (--runner=universal --endpoint=localhost:PORT), its DoFns run by
// the LOOPBACK worker in the submitting process. The pairs, the rejects,
// the keep/drop decisions and the clusters are byte-identical to a direct run on the same
// inputs, given in the same path form (the paths are in the outputs), and
// so is summary.json but for its output field and the run's times, CPU
// seconds and runner.
func TestPortableUniversalOnStandalonePrism(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds and starts prism")
	}
	endpoint, prismLog := startPrism(t)
	input := "--input=" + filepath.Join(testdata, "*.warc.gz") + "," + filepath.Join(testdata, "*.warc")
	tmp := t.TempDir()
	direct, universal := filepath.Join(tmp, "direct")+"/", filepath.Join(tmp, "universal")+"/"

	code, directOut, stderr := cliTimeout(t, 3*time.Minute, input, "--output="+direct, "--runner=direct")
	if code != 0 {
		t.Fatalf("direct: exit %d:\n%s", code, stderr)
	}
	code, stdout, stderr := cliTimeout(t, 3*time.Minute, input, "--output="+universal,
		"--runner=universal", "--endpoint="+endpoint, "--environment_type=LOOPBACK")
	if code != 0 {
		t.Fatalf("universal on prism at %s: exit %d:\n%s\nprism log:\n%s", endpoint, code, stderr, prismLog())
	}
	if got := strings.ReplaceAll(stdout, universal, direct); got != directOut || directOut == "" {
		t.Errorf("closing lines differ:\ndirect    %q\nuniversal %q", directOut, stdout)
	}
	if !strings.Contains(prismLog(), "pipeline done") {
		t.Errorf("the job did not run on the standalone prism; its log:\n%s", prismLog())
	}
	for _, name := range []string{"pairs-00000-of-00001.jsonl", "rejects-00000-of-00001.jsonl", "decisions-00000-of-00001.jsonl", "clusters-00000-of-00001.jsonl"} {
		d, u := readFileT(t, filepath.Join(direct, name)), readFileT(t, filepath.Join(universal, name))
		if !bytes.Equal(d, u) {
			t.Errorf("%s differs between direct (%d bytes) and universal on prism (%d bytes)", name, len(d), len(u))
		}
		if len(d) == 0 {
			t.Errorf("%s is empty: testdata holds pairs, rejects and dropped pages", name)
		}
	}
	var ds, us output.Summary
	for _, x := range []struct {
		dir string
		sum *output.Summary
	}{{direct, &ds}, {universal, &us}} {
		if err := json.Unmarshal(readFileT(t, filepath.Join(x.dir, output.SummaryFile)), x.sum); err != nil {
			t.Fatal(err)
		}
	}
	us.Output = ds.Output
	// The run's times, CPU, runner and ID differ by nature (docs/outputs.md);
	// its version and Beam SDK must not.
	us.Run.Start, us.Run.End, us.Run.WallSeconds, us.Run.CPUSeconds, us.Run.Runner = ds.Run.Start, ds.Run.End, ds.Run.WallSeconds, ds.Run.CPUSeconds, ds.Run.Runner
	us.Run.ID = ds.Run.ID
	if a, b := mustJSON(t, ds), mustJSON(t, us); a != b {
		t.Errorf("summary.json differs:\ndirect    %s\nuniversal %s", a, b)
	}
}

func readFileT(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// cliTimeout is cli with a deadline: the command is killed after d.
func cliTimeout(t *testing.T, d time.Duration, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "NDD_BEAM_AS_CLI=1")
	code, stdout, stderr := runCmd(t, cmd)
	if ctx.Err() != nil {
		t.Fatalf("%v: killed after %v; stderr:\n%s", args, d, stderr)
	}
	return code, stdout, stderr
}

// runCmd runs cmd and returns its exit status, stdout and stderr.
func runCmd(t *testing.T, cmd *exec.Cmd) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// prism is built once per test binary into prismDir (removed by TestMain).
var (
	prismOnce sync.Once
	prismDir  string
	prismBin  string
	prismErr  string
)

// prismBinary builds Beam's prism command (github.com/apache/beam/sdks/v2/
// go/cmd/prism, the version go.mod requires) and returns its path. When it
// cannot be built (no go command, module not in the cache and no network)
// the test is skipped with the reason, or fails if NDD_BEAM_REQUIRE_PRISM=1
// (as .ci/run sets it).
func prismBinary(t *testing.T) string {
	t.Helper()
	prismOnce.Do(func() {
		gobin, err := exec.LookPath("go")
		if err != nil {
			gobin = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		dir, err := os.MkdirTemp("", "ndd-beam-prism-")
		if err != nil {
			prismErr = err.Error()
			return
		}
		prismDir = dir
		bin := filepath.Join(dir, "prism")
		out, err := exec.Command(gobin, "build", "-o", bin, "github.com/apache/beam/sdks/v2/go/cmd/prism").CombinedOutput()
		if err != nil {
			prismErr = strings.TrimSpace(err.Error() + ": " + string(out))
			return
		}
		prismBin = bin
	})
	if prismBin == "" {
		if os.Getenv("NDD_BEAM_REQUIRE_PRISM") == "1" {
			t.Fatalf("cannot build prism: %s", prismErr)
		}
		t.Skipf("cannot build prism: %s", prismErr)
	}
	return prismBin
}

var prismEndpoint = regexp.MustCompile(`Serving JobManagement.* endpoint=(\S+)`)

// startPrism starts prism as a job server on a kernel-chosen port, without
// its web UI, and returns the job service endpoint (read from its "Serving
// JobManagement endpoint=…" log line) and a function returning its log so
// far. Prism is killed and reaped when the test ends, pass or fail; should
// this test process die first, prism exits with it on Linux (Pdeathsig) and
// in any case after 5 minutes without a job (--idle_shutdown_timeout).
func startPrism(t *testing.T) (endpoint string, log func() string) {
	t.Helper()
	cmd := exec.Command(prismBinary(t), "--job_port=0", "--serve_http=false", "--log_kind=text", "--idle_shutdown_timeout=5m")
	setParentDeathSignal(cmd)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = nil
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var logBuf strings.Builder
	found := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			mu.Lock()
			logBuf.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if m := prismEndpoint.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	log = func() string {
		mu.Lock()
		defer mu.Unlock()
		return logBuf.String()
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		cmd.Wait()
	})
	select {
	case endpoint = <-found:
	case <-done:
		t.Fatalf("prism exited before serving:\n%s", log())
	case <-time.After(time.Minute):
		t.Fatalf("prism printed no JobManagement endpoint in 1 minute:\n%s", log())
	}
	return endpoint, log
}
