package main

import (
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
)

// Runner preflight: what can be checked about a runner before the job is
// built, so that a wrong endpoint or environment is one line and exit
// status 2 within seconds instead of a minutes-long worker compile or a
// silent 2-minute gRPC dial inside Beam (runnerlib.Execute).

// endpointDialTimeout bounds the TCP check of --endpoint: a job server
// answers a connect on a LAN or loopback in milliseconds, and a user should
// hear about a wrong endpoint within seconds.
const endpointDialTimeout = 3 * time.Second

// jobServerRunners are the runners that submit the job to a Beam job server
// at --endpoint (Beam's universal runner under its names, and the Flink and
// Spark runners, which are the universal runner with another name).
var jobServerRunners = map[string]bool{
	"universal": true, "portable": true, "PortableRunner": true,
	"flink": true, "FlinkRunner": true,
	"spark": true, "SparkRunner": true,
}

// usesJobServer reports whether runner submits to the job server at
// --endpoint; prism does when --endpoint is given (else it starts one in
// process).
func usesJobServer(runner string) bool {
	if runner == "prism" || runner == "PrismRunner" {
		return *jobopts.Endpoint != ""
	}
	return jobServerRunners[runner]
}

// checkRunner checks the runner flags of a job-server runner: --endpoint is
// HOST:PORT and accepts a TCP connection within endpointDialTimeout,
// --environment_type is one Beam knows (Beam's Go SDK silently turns an
// unknown one into DOCKER), EXTERNAL names its worker pool, and DOCKER (the
// default) with a job server on this machine has a Docker daemon to start
// containers with. It also checks that a given --worker_binary exists. The
// error is one line naming the flag.
func checkRunner(runner string) error {
	if wb := *jobopts.WorkerBinary; wb != "" {
		if st, err := os.Stat(wb); err != nil || st.IsDir() {
			return fmt.Errorf("--worker_binary=%s: not a file (build it with make worker)", wb)
		}
	}
	if !usesJobServer(runner) {
		return nil
	}
	ep := *jobopts.Endpoint
	if ep == "" {
		return fmt.Errorf("--runner=%s needs --endpoint=HOST:PORT, the job service of a Beam job server (e.g. localhost:8099; docs/deploy.md)", runner)
	}
	host, _, err := net.SplitHostPort(ep)
	if err != nil {
		return fmt.Errorf("--endpoint=%s: want HOST:PORT (%v)", ep, err)
	}
	env := strings.ToUpper(*jobopts.EnvironmentType)
	switch env {
	case "", "DOCKER", "LOOPBACK", "PROCESS":
	case "EXTERNAL":
		if *jobopts.EnvironmentConfig == "" {
			return fmt.Errorf("--environment_type=EXTERNAL needs --environment_config=HOST:PORT of a Beam worker pool (Beam's Go boot program with --worker_pool serves on port 50000; docs/deploy.md)")
		}
	default:
		return fmt.Errorf("--environment_type=%s: want LOOPBACK, EXTERNAL, DOCKER or PROCESS", *jobopts.EnvironmentType)
	}
	if (env == "" || env == "DOCKER") && isLoopbackHost(host) {
		if where, ok := dockerDaemon(); !ok {
			return fmt.Errorf("--environment_type is DOCKER (the default), which needs a Docker daemon, and none answers at %s for the job server at %s: pass --environment_type=LOOPBACK for a job server on this machine, or EXTERNAL (docs/deploy.md)", where, ep)
		}
	}
	c, err := net.DialTimeout("tcp", ep, endpointDialTimeout)
	if err != nil {
		return fmt.Errorf("--endpoint=%s: no Beam job server answers (%v); start one (docs/deploy.md) or fix --endpoint", ep, err)
	}
	c.Close()
	return nil
}

// isDataflow reports whether runner is Beam's Dataflow runner.
func isDataflow(runner string) bool { return runner == "dataflow" || runner == "DataflowRunner" }

// checkDataflow checks what a Dataflow job needs before anything is read or
// submitted: a project (--project, else $GOOGLE_CLOUD_PROJECT), a region
// (--region, else $CLOUDSDK_COMPUTE_REGION), --staging_location, and
// gs:// paths for every input glob (an @list file is the input helper's to
// check), --output, --staging_location and a given --temp_location: the
// workers run in Google Cloud and cannot see this machine's files. The
// error is one line naming the flag; nil for other runners.
func checkDataflow(runner string, inputs []string, output string) error {
	if !isDataflow(runner) {
		return nil
	}
	flagValue := func(name string) string {
		if f := flag.Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	if flagValue("project") == "" && os.Getenv("GOOGLE_CLOUD_PROJECT") == "" {
		return fmt.Errorf("--runner=dataflow needs --project=PROJECT_ID (or $GOOGLE_CLOUD_PROJECT)")
	}
	if flagValue("region") == "" && os.Getenv("CLOUDSDK_COMPUTE_REGION") == "" {
		return fmt.Errorf("--runner=dataflow needs --region=REGION, e.g. europe-west1 (or $CLOUDSDK_COMPUTE_REGION)")
	}
	gs := func(name, v string) error {
		if !strings.HasPrefix(v, "gs://") || len(v) <= len("gs://") {
			return fmt.Errorf("--%s=%s: --runner=dataflow needs a gs:// path (Dataflow workers cannot read or write this machine's files)", name, v)
		}
		return nil
	}
	if st := flagValue("staging_location"); st == "" {
		return fmt.Errorf("--runner=dataflow needs --staging_location=gs://BUCKET/staging")
	} else if err := gs("staging_location", st); err != nil {
		return err
	}
	if tmp := flagValue("temp_location"); tmp != "" {
		if err := gs("temp_location", tmp); err != nil {
			return err
		}
	}
	for _, in := range inputs {
		if strings.HasPrefix(in, "@") {
			continue
		}
		if err := gs("input", in); err != nil {
			return err
		}
	}
	if output != "" {
		return gs("output", output)
	}
	return nil
}

// isLoopbackHost reports whether host names this machine.
func isLoopbackHost(host string) bool {
	if host == "" || strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// dockerDaemon reports where a Docker daemon is expected (DOCKER_HOST, else
// the default socket) and whether it accepts a connection there. A
// DOCKER_HOST scheme other than unix:// or tcp:// (e.g. ssh://) is trusted.
func dockerDaemon() (string, bool) {
	where := os.Getenv("DOCKER_HOST")
	if where == "" {
		where = "unix:///var/run/docker.sock"
	}
	u, err := url.Parse(where)
	if err != nil {
		return where, false
	}
	var c net.Conn
	switch u.Scheme {
	case "unix":
		c, err = net.DialTimeout("unix", u.Path, 2*time.Second)
	case "tcp":
		c, err = net.DialTimeout("tcp", u.Host, 2*time.Second)
	default:
		return where, true
	}
	if err != nil {
		return where, false
	}
	c.Close()
	return where, true
}

// defaultWorkerBinary sets --worker_binary to this very executable when the
// runner stages a worker binary (Dataflow; a job server with a non-LOOPBACK
// environment), none is given, and this executable is one: a static
// linux/amd64 build (CGO_ENABLED=0), as make worker and the Dataflow flex
// template image build it. Beam v2.77.0 would otherwise cross-compile the
// worker from source at every submission (minutes, and impossible in the
// flex template launcher, which has no Go toolchain or source tree).
func defaultWorkerBinary(runner string) {
	if *jobopts.WorkerBinary != "" || strings.EqualFold(*jobopts.EnvironmentType, "LOOPBACK") {
		return
	}
	if runner != "dataflow" && runner != "DataflowRunner" && !usesJobServer(runner) {
		return
	}
	for _, name := range []string{"worker_machine_type", "machine_type"} {
		if f := flag.Lookup(name); f != nil && strings.HasPrefix(f.Value.String(), "t2a") {
			return // Arm workers: Beam cross-compiles for arm64
		}
	}
	if self, ok := workerCompatible(); ok {
		*jobopts.WorkerBinary = self
	}
}

// workerCompatible returns this executable's path if its build info says
// GOOS=linux, GOARCH=amd64 and CGO_ENABLED=0.
func workerCompatible() (string, bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", false
	}
	set := map[string]string{}
	for _, s := range bi.Settings {
		set[s.Key] = s.Value
	}
	if set["GOOS"] != "linux" || set["GOARCH"] != "amd64" || set["CGO_ENABLED"] != "0" {
		return "", false
	}
	self, err := os.Executable()
	if err != nil {
		return "", false
	}
	return self, true
}
