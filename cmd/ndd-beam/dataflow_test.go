package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const (
	runScript    = "../../deploy/dataflow/run.sh"
	metadataFile = "../../deploy/dataflow/metadata.json"
)

// metadata.json is what the flags say: regenerate it with
// make template-metadata when a job flag changes.
func TestTemplateMetadataMatchesFlags(t *testing.T) {
	code, stdout, stderr := cli(t, "--"+printTemplateMetadataFlag)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != string(readFileT(t, metadataFile)) {
		t.Fatalf("%s is stale: run make template-metadata", metadataFile)
	}
	var meta struct{ Parameters []templateParameter }
	if err := json.Unmarshal([]byte(stdout), &meta); err != nil {
		t.Fatal(err)
	}
	_, help, _ := cli(t, "--help")
	for _, p := range meta.Parameters {
		if p.HelpText == "" || p.Label == "" {
			t.Errorf("parameter %s without help or label", p.Name)
		}
		if !strings.Contains(help, "  --"+p.Name+"\n") && !strings.Contains(help, "  --"+p.Name+"=") {
			t.Errorf("parameter %s is not a job flag in --help", p.Name)
		}
	}
	for _, want := range []string{"input", "output", "tau", "rho", "matcher", "max_record_bytes"} {
		if !strings.Contains(stdout, `"name": "`+want+`"`) {
			t.Errorf("metadata lacks parameter %s", want)
		}
	}
}

// The flex template launcher passes each template parameter as a flag: the
// command accepts every parameter of metadata.json at its default value (and
// gs:// input and output) in a Dataflow dry run.
func TestTemplateParametersDryRun(t *testing.T) {
	var meta struct{ Parameters []templateParameter }
	if err := json.Unmarshal(readFileT(t, metadataFile), &meta); err != nil {
		t.Fatal(err)
	}
	args := []string{"--runner=dataflow", "--dry_run", "--project=my-project", "--region=europe-west1",
		"--staging_location=gs://my-bucket/staging", "--temp_location=gs://my-bucket/tmp"}
	for _, p := range meta.Parameters {
		v := p.DefaultValue
		switch p.Name {
		case "input":
			v = "gs://my-bucket/crawl/*.warc.gz"
		case "output":
			v = "gs://my-bucket/out/"
		}
		args = append(args, "--"+p.Name+"="+v)
	}
	if code, _, stderr := cli(t, args...); code != 0 || !strings.Contains(stderr, "dry run: job built") {
		t.Fatalf("exit %d, stderr:\n%.2000s", code, stderr)
	}
}

// deploy/dataflow/run.sh checks every variable before submitting: each bad
// one is a line naming it and exit 2 without running ndd-beam; with good
// ones --dry_run reaches ndd-beam's own Dataflow dry run, which checks the
// job flags.
func TestDataflowRunScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	good := map[string]string{
		"PROJECT": "my-project-1", "REGION": "europe-west1", "BUCKET": "gs://my-bucket",
		"INPUT": "gs://my-bucket/crawl/*.warc.gz,gs://other-bucket/x/*.warc", "WORKER": "",
		"OUTPUT": "", "STAGING": "", "TEMP": "",
	}
	notELF := filepath.Join(t.TempDir(), "worker")
	os.WriteFile(notELF, []byte("#!/bin/sh\n"), 0o755)
	run := func(t *testing.T, edit map[string]string, args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(bash, append([]string{runScript}, args...)...)
		// The test binary stands in for ndd-beam (TestMain) and, being a
		// linux ELF file, for the worker binary.
		env := []string{"NDD_BEAM=" + os.Args[0], "NDD_BEAM_AS_CLI=1", "PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
		for k, v := range good {
			if e, ok := edit[k]; ok {
				v = e
			}
			if k == "WORKER" && v == "" {
				v = os.Args[0]
			}
			env = append(env, k+"="+v)
		}
		cmd.Env = env
		code, _, stderr := runCmd(t, cmd)
		return code, stderr
	}

	t.Run("dry run", func(t *testing.T) {
		code, stderr := run(t, nil, "--dry_run")
		if code != 0 || !strings.Contains(stderr, "ndd-beam: dry run: job built, not submitted") {
			t.Fatalf("exit %d, stderr:\n%.2000s", code, stderr)
		}
	})
	t.Run("bad job flag", func(t *testing.T) {
		code, stderr := run(t, nil, "--dry_run", "--tau=2")
		if code != 2 || !strings.Contains(stderr, "--tau") {
			t.Fatalf("exit %d, stderr:\n%s", code, stderr)
		}
	})
	cases := []struct {
		name string
		edit map[string]string
		want string
	}{
		{"no project", map[string]string{"PROJECT": ""}, "PROJECT is not set"},
		{"bad project", map[string]string{"PROJECT": "My_Project"}, "PROJECT=My_Project"},
		{"no region", map[string]string{"REGION": ""}, "REGION is not set"},
		{"zone for region", map[string]string{"REGION": "us-central1-a"}, "REGION=us-central1-a"},
		{"no input", map[string]string{"INPUT": ""}, "INPUT is not set"},
		{"local input", map[string]string{"INPUT": "gs://my-bucket/a.warc.gz,/data/crawl/*.warc.gz"}, "INPUT=/data/crawl/*.warc.gz"},
		{"local output", map[string]string{"OUTPUT": "out/"}, "OUTPUT=out/"},
		{"no bucket, no output", map[string]string{"BUCKET": ""}, "OUTPUT is not set"},
		{"no bucket, no staging", map[string]string{"BUCKET": ""}, "STAGING is not set"},
		{"no bucket, no temp", map[string]string{"BUCKET": ""}, "TEMP is not set"},
		{"local staging", map[string]string{"STAGING": "/tmp/staging"}, "STAGING=/tmp/staging"},
		{"local temp", map[string]string{"TEMP": "tmp/"}, "TEMP=tmp/"},
		{"bad bucket", map[string]string{"BUCKET": "gs://My Bucket"}, "BUCKET=gs://My Bucket"},
		{"missing worker", map[string]string{"WORKER": "bin/none"}, "WORKER=bin/none: no such file"},
		{"worker not ELF", map[string]string{"WORKER": notELF}, "WORKER=" + notELF + ": not a linux/amd64 ELF"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stderr := run(t, tc.edit, "--dry_run")
			if code != 2 || !strings.Contains(stderr, "run.sh: "+tc.want) {
				t.Errorf("exit %d, want 2 and a line with %q; stderr:\n%s", code, tc.want, stderr)
			}
			if strings.Contains(stderr, "ndd-beam:") {
				t.Errorf("ndd-beam ran despite the bad variable:\n%s", stderr)
			}
			for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
				if !strings.HasPrefix(l, "run.sh: ") {
					t.Errorf("not a one-line problem report: %q", l)
				}
			}
		})
	}
}

// A Dataflow dry run prints one line: Beam's warnings about the staging
// and temp buckets it cannot check (without credentials: one long warning
// per location) are dropped, and a missing credential is said in the line.
func TestDataflowDryRunIsOneLine(t *testing.T) {
	cmd := exec.Command(os.Args[0], "--runner=dataflow", "--dry_run", "--project=my-project", "--region=europe-west1",
		"--staging_location=gs://my-bucket/staging", "--temp_location=gs://my-bucket/tmp",
		"--input=gs://my-bucket/crawl/*.warc.gz", "--output=gs://my-bucket/out/")
	// No credentials: an empty HOME and no GOOGLE_APPLICATION_CREDENTIALS.
	cmd.Env = []string{"NDD_BEAM_AS_CLI=1", "PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	code, stdout, stderr := runCmd(t, cmd)
	if code != 0 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "ndd-beam: dry run: job built, not submitted") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}
