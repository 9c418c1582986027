package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// helpGroups orders --help by task, the flags most runs need first. Every
// job flag of the registry (jobFlagSet) is in exactly one group
// (TestHelpGroupsEveryFlag); a flag defined but not listed here still
// shows, under "Other".
var helpGroups = []struct {
	title string
	flags []string
}{
	{"Input", []string{"input", "input_prefix"}},
	{"Output", []string{"output", "overwrite", "write_warc", "output_format", "compression", "shards"}},
	{"Scheduled batches (crawl after crawl)", []string{"against", "write_index", "index_label"}},
	{"Decisions", []string{"tau", "verify_share", "same_site_tau", "keep", "lang", "method", "matcher", "shingle_k"}},
	{"Tuning (the defaults are measured; docs/quality.md)", []string{"min_signatures", "min_block_tokens", "keep_markup_boilerplate",
		"shared_block_pages", "idf_min", "idf_max", "idf_keep_shared", "antecedents", "rho", "max_group_signatures", "decide_rounds",
		"max_header_bytes", "max_record_bytes", "max_payload_bytes", "max_member_bytes", "max_uri_bytes", "max_record_id_bytes",
		"max_input_bytes", "max_text_bytes", "max_tokens", "max_signatures"}},
	{"Runner and command", []string{"memory_limit", "progress", "progress_interval", "log_level", "version", printTemplateMetadataFlag}},
}

// helpWidth is the width --help is wrapped at.
const helpWidth = 80

// usage writes --help: the job flags of j by task (helpGroups), each as
// "--name=DEFAULT" and its help wrapped at helpWidth columns, then the
// names of the runner flags (fs's flags not in j).
func usage(w io.Writer, j *jobFlagSet, fs *flag.FlagSet) {
	fmt.Fprintln(w, "Usage: ndd-beam --input=DIR|GLOB|URL|@LIST[,…] --output=DIR [flags]")
	fmt.Fprintln(w)
	fmt.Fprint(w, wrap("Find near-duplicate web pages in WARC files with SpotSigs (SIGIR 2008) on Apache Beam, and decide which to keep. README.md has the commands; docs/outputs.md every output.", 0))
	seen := map[string]bool{}
	group := func(title string, names []string) {
		var shown []string
		for _, n := range names {
			if j.Lookup(n) != nil && !seen[n] {
				shown = append(shown, n)
			}
		}
		if len(shown) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		for _, n := range shown {
			seen[n] = true
			f := j.Lookup(n)
			head := "  --" + f.Name
			if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); !isBool && f.DefValue != "" {
				head += "=" + f.DefValue
			}
			fmt.Fprintln(w, head)
			fmt.Fprint(w, wrap(f.Usage, 6))
		}
	}
	for _, g := range helpGroups {
		group(g.title, g.flags)
	}
	group("Other", j.names)
	fmt.Fprintln(w, "\nRunner flags (Apache Beam; --runner defaults to direct here):")
	var beamFlags []string
	fs.VisitAll(func(f *flag.Flag) {
		if j.Lookup(f.Name) == nil {
			beamFlags = append(beamFlags, "--"+f.Name)
		}
	})
	sort.Strings(beamFlags)
	fmt.Fprint(w, wrap(strings.Join(beamFlags, " "), 2))
	fmt.Fprint(w, wrap("e.g. --runner=prism | --runner=dataflow --project=P --region=R --staging_location=gs://B/staging --worker_binary=bin/ndd-beam-worker [--dry_run] | --runner=flink --endpoint=HOST:8099", 2))
}

// wrap breaks s into lines of at most helpWidth columns (a word longer
// than a line stands alone), each indented by indent spaces and ended by
// a newline.
func wrap(s string, indent int) string {
	var b strings.Builder
	pad := strings.Repeat(" ", indent)
	line := 0
	for _, word := range strings.Fields(s) {
		n := len([]rune(word))
		switch {
		case line == 0:
			b.WriteString(pad)
			line = indent
		case line+1+n > helpWidth:
			b.WriteString("\n" + pad)
			line = indent
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += n
	}
	if line > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

// suggestFlag returns the flag of fs nearest to name (Levenshtein
// distance at most 2, or name a prefix of it), "" when none is.
func suggestFlag(fs *flag.FlagSet, name string) string {
	best, bestD := "", 3
	fs.VisitAll(func(f *flag.Flag) {
		d := editDistance(name, f.Name)
		if strings.HasPrefix(f.Name, name) && len(name) >= 3 && d > 1 {
			d = 2
		}
		if d < bestD || d == bestD && f.Name < best {
			best, bestD = f.Name, d
		}
	})
	return best
}

// editDistance is the Levenshtein distance of a and b, with a swap of
// two neighbouring letters counted as one edit (Damerau).
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// unknownFlag turns the flag package's "flag provided but not defined:
// -x" into one line that suggests the nearest flag; other errors as they
// are.
func unknownFlag(err error, fs *flag.FlagSet) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: ")
	if !ok {
		return err.Error()
	}
	name = strings.TrimLeft(name, "-")
	if s := suggestFlag(fs, name); s != "" {
		return fmt.Sprintf("unknown flag --%s; did you mean --%s?", name, s)
	}
	return fmt.Sprintf("unknown flag --%s", name)
}
