package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// closedPort returns a loopback HOST:PORT on which nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// A job-server runner with an endpoint where no job server answers, a
// missing or malformed endpoint, an unknown environment or DOCKER without a
// Docker daemon: one line naming the flag, exit status 2, within 10 s, and
// before the job is built (the output directory is never created).
func TestCLIRunnerPreflight(t *testing.T) {
	closed := closedPort(t)
	in := "--input=" + filepath.Join(testdata, "*.warc.gz")
	noDocker := "DOCKER_HOST=unix://" + filepath.Join(t.TempDir(), "no-docker.sock")
	cases := []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"universal closed port", nil, []string{"--runner=universal", "--endpoint=" + closed, "--environment_type=LOOPBACK"}, "--endpoint=" + closed + ": no Beam job server answers"},
		{"flink closed port", nil, []string{"--runner=flink", "--endpoint=" + closed, "--environment_type=LOOPBACK"}, "no Beam job server answers"},
		{"portable closed port", nil, []string{"--runner=portable", "--endpoint=" + closed, "--environment_type=EXTERNAL", "--environment_config=localhost:50000"}, "no Beam job server answers"},
		{"prism closed port", nil, []string{"--runner=prism", "--endpoint=" + closed, "--environment_type=LOOPBACK"}, "no Beam job server answers"},
		// TEST-NET-1 (RFC 5737): never routed, so the dial times out or
		// fails at once, depending on the network.
		{"unroutable host", nil, []string{"--runner=flink", "--endpoint=192.0.2.1:8099", "--environment_type=LOOPBACK"}, "no Beam job server answers"},
		{"no endpoint", nil, []string{"--runner=flink"}, "--runner=flink needs --endpoint"},
		{"endpoint without port", nil, []string{"--runner=universal", "--endpoint=localhost", "--environment_type=LOOPBACK"}, "want HOST:PORT"},
		{"unknown environment", nil, []string{"--runner=universal", "--endpoint=" + closed, "--environment_type=LOOPBAK"}, "--environment_type=LOOPBAK"},
		{"external without pool", nil, []string{"--runner=universal", "--endpoint=" + closed, "--environment_type=EXTERNAL"}, "--environment_config"},
		{"default docker, no daemon", []string{noDocker}, []string{"--runner=universal", "--endpoint=" + closed}, "--environment_type is DOCKER (the default)"},
		{"missing worker binary", nil, []string{"--runner=flink", "--endpoint=" + closed, "--worker_binary=" + filepath.Join(t.TempDir(), "none")}, "--worker_binary"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			start := time.Now()
			code, _, stderr := cliEnv(t, tc.env, append([]string{in, "--output=" + out}, tc.args...)...)
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v, want < 10 s", d)
			}
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("want one error line containing %q, got:\n%s", tc.want, stderr)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("output directory touched before the runner was checked: %v", err)
			}
		})
	}
}

// cliEnv is cli with extra environment variables.
func cliEnv(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "NDD_BEAM_AS_CLI=1"), env...)
	return runCmd(t, cmd)
}
