package main

import (
	"encoding/json"
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
)

// Every job flag comes from the one registry (registerFlags): --help lists
// exactly its flags as job flags (grouped by task, helpGroups), and metadata.json exactly
// those that are not the launcher's. Every other flag --help lists is one
// of Beam's runner flags: a flag defined by the packages the command
// imports, which this test process imports too without running
// registerFlags; so a job flag defined on flag.CommandLine outside the
// registry would be listed as a runner flag and fail here.
func TestEveryJobFlagInHelpAndMetadata(t *testing.T) {
	cfg := config.DefaultConfig()
	j := newJobFlagSet()
	registerFlags(j, &cfg)
	var all []string
	j.set.VisitAll(func(f *flag.Flag) { all = append(all, f.Name) })
	if sorted := slices.Sorted(slices.Values(j.names)); !slices.Equal(sorted, all) {
		t.Fatalf("registry names %q, flags defined %q", sorted, all)
	}

	code, help, stderr := cli(t, "--help")
	if code != 0 {
		t.Fatalf("--help: exit %d, %s", code, stderr)
	}
	jobPart, runnerPart, ok := strings.Cut(help, "\nRunner flags")
	if !ok {
		t.Fatalf("--help without runner flags:\n%s", help)
	}
	var helpJob []string
	for _, l := range strings.Split(jobPart, "\n") {
		if name, ok := strings.CutPrefix(l, "  --"); ok {
			name, _, _ = strings.Cut(name, "=")
			helpJob = append(helpJob, name)
		}
	}
	if got, want := slices.Sorted(slices.Values(helpJob)), slices.Sorted(slices.Values(j.names)); !slices.Equal(got, want) {
		t.Errorf("--help job flags:\n%q\nregistry:\n%q", got, want)
	}
	var beamFlags []string
	flag.VisitAll(func(f *flag.Flag) { beamFlags = append(beamFlags, "--"+f.Name) })
	var listed []string
	for _, l := range strings.Split(runnerPart, "\n")[1:] {
		if !strings.HasPrefix(l, "  --") {
			break
		}
		listed = append(listed, strings.Fields(l)...)
	}
	if strings.Join(listed, " ") != strings.Join(beamFlags, " ") {
		t.Errorf("--help runner flags are not exactly the flags Beam's packages define:\n got %.3000s\nwant %s", strings.Join(listed, " "), strings.Join(beamFlags, " "))
	}

	_, stdout, _ := cli(t, "--"+printTemplateMetadataFlag)
	var meta struct{ Parameters []templateParameter }
	if err := json.Unmarshal([]byte(stdout), &meta); err != nil {
		t.Fatal(err)
	}
	var params, want []string
	for _, p := range meta.Parameters {
		params = append(params, p.Name)
	}
	for _, n := range j.names {
		if !j.launcher[n] {
			want = append(want, n)
		}
	}
	if !slices.Equal(params, want) {
		t.Errorf("metadata parameters:\n%q\nwant the job flags but the launcher's:\n%q", params, want)
	}
	for _, n := range []string{"keep_markup_boilerplate", "input_prefix", "same_site_tau", "max_group_signatures"} {
		if !slices.Contains(params, n) || !slices.Contains(helpJob, n) {
			t.Errorf("--%s missing from --help or metadata.json", n)
		}
	}
}
