package eval

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/output"
)

// RunReport summarizes one job output directory for a person: what was
// read and skipped, what was kept and dropped, four distributions and a
// sample of drops. It is built by streaming the output files once (memory:
// one entry per host, cluster size and reject reason, and 2×Samples
// dropped decision lines), so it stays cheap on a large run; WriteHTML
// writes it as one self-contained HTML page.
type RunReport struct {
	Dir    string
	Params config.Params // summary.json "parameters"
	Tau    float64
	Start  string // summary.json run.start
	// From summary.json: WARC records read, pages that reached matching,
	// rejects per reason, pairs lines, documents collapsed into an exact
	// copy's representative.
	Records     int
	Documents   int
	Skipped     map[string]int
	Pairs       int
	ExactCopies int
	// From the decision lines: pages kept and dropped; the dropped split
	// into exact copies (Jaccard 1: the same spot signatures, or for
	// exact-text the same text) and near-duplicates (Jaccard below 1).
	Kept, Dropped             int
	DroppedExact, DroppedNear int
	ByMethod                  map[string][2]int // decision method -> kept, dropped
	ClusterSizes              map[int]int       // cluster size -> clusters (clusters lines)
	JaccardLo                 float64           // start of the first Jaccard bin (τ rounded down to 0.05)
	JaccardBins               []int             // pairs lines per Jaccard bin of width 0.05 from JaccardLo
	DroppedByHost             map[string]int    // host of a dropped page -> dropped pages
	Samples                   []DropSample      // set by LoadSamples
	candidates                dropCandidates
	// WorkingDirectory is summary.json run.working_directory: relative
	// WARC paths of the decision lines are resolved against it
	// (output.ResolvePath), so the report reads them from any directory.
	WorkingDirectory string
	// Committed is false when the directory has no _SUCCESS: the run did
	// not finish, and its files may be incomplete.
	Committed bool
	// With --against: the index directories read, the pages dropped for
	// pages of earlier runs (summary.json dropped_for_index), and the
	// segment this run wrote (with --write_index, "" otherwise).
	Against         []string
	DroppedForIndex int
	Segment         string
	// Unreadable counts the sample pages whose text could not be read
	// (LoadSamples); FirstUnreadable is the first one's reason.
	Unreadable      int
	FirstUnreadable string
}

// LoadRunReport reads summary.json, the pairs, decisions and clusters of
// the job output directory dir (in any format: output.Read),
// and keeps up to samples dropped decisions for LoadSamples.
func LoadRunReport(dir string, samples int) (*RunReport, error) {
	b, err := os.ReadFile(filepath.Join(dir, output.SummaryFile))
	if err != nil {
		return nil, err
	}
	var sum output.Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		return nil, fmt.Errorf("%s: %w", output.SummaryFile, err)
	}
	var start string
	if !sum.Run.Start.IsZero() {
		start = sum.Run.Start.Format(time.RFC3339Nano)
	}
	r := &RunReport{Dir: dir, Params: sum.Parameters, Tau: sum.Parameters.Tau, Start: start,
		Records: sum.Records, Documents: sum.Documents, Skipped: sum.Skipped,
		Pairs: sum.Pairs, ExactCopies: sum.ExactCopies,
		ByMethod: map[string][2]int{}, ClusterSizes: map[int]int{}, DroppedByHost: map[string]int{},
		candidates: dropCandidates{n: 4 * samples}, WorkingDirectory: sum.Run.WorkingDirectory,
		Against: sum.Against, DroppedForIndex: sum.DroppedForIndex}
	if sum.IndexSegment != "" {
		r.Segment = output.JoinPath(sum.IndexDir, sum.IndexSegment)
	}
	if _, err := os.Stat(filepath.Join(dir, output.SuccessFile)); err == nil {
		r.Committed = true
	}
	if r.Skipped == nil {
		r.Skipped = map[string]int{}
	}
	r.JaccardLo = max(0, float64(int(r.Tau*20+1e-9))/20)
	r.JaccardBins = make([]int, max(1, int((1-r.JaccardLo)/0.05+0.5)))
	pairs := 0
	_, err = output.Read(output.Glob(dir, output.Pairs), func(p PairRecord) error {
		pairs++
		n := len(r.JaccardBins)
		r.JaccardBins[min(n-1, max(0, int((p.Jaccard-r.JaccardLo)/0.05+1e-9)))]++
		return nil
	})
	if err != nil {
		return nil, err
	}
	if pairs != r.Pairs {
		return nil, fmt.Errorf("%s: summary.json counts %d pairs, the pairs files hold %d rows", dir, r.Pairs, pairs)
	}
	_, err = output.Read(output.Glob(dir, output.Decisions), func(d DecisionRecord) error {
		c := r.ByMethod[d.Method]
		if d.Keep {
			r.Kept++
			c[0]++
		} else {
			r.Dropped++
			c[1]++
			if d.Jaccard >= 1 {
				r.DroppedExact++
			} else {
				r.DroppedNear++
			}
			r.DroppedByHost[host(d.URI)]++
			r.candidates.add(d)
		}
		r.ByMethod[d.Method] = c
		return nil
	})
	if err != nil {
		return nil, err
	}
	if r.Kept != sum.Kept || r.Dropped != sum.Dropped {
		return nil, fmt.Errorf("%s: summary.json counts %d kept and %d dropped, the decisions files %d and %d", dir, sum.Kept, sum.Dropped, r.Kept, r.Dropped)
	}
	_, err = output.Read(output.Glob(dir, output.Clusters), func(c ClusterRecord) error { r.ClusterSizes[c.Size]++; return nil })
	return r, err
}

// LoadSamples picks up to n dropped pages (lowest Jaccard first, one per
// kept page while there are others) and loads them with their kept pages
// (LoadDropSamples).
func (r *RunReport) LoadSamples(n int) error {
	s, err := LoadDropSamples(r.candidates.pick(n), r.Params, r.WorkingDirectory)
	r.Samples = s
	r.Unreadable, r.FirstUnreadable = 0, ""
	for _, x := range s {
		for _, pg := range []SamplePage{x.Dropped, x.Kept} {
			if pg.Err != "" {
				if r.Unreadable == 0 {
					r.FirstUnreadable = pg.Err
				}
				r.Unreadable++
			}
		}
	}
	return err
}

// host is the host name of a target URI ("(none)" when it has none).
func host(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Hostname() != "" {
		return strings.ToLower(u.Hostname())
	}
	return "(none)"
}

func sumValues[K comparable](m map[K]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// sortedByCount returns the keys of m by descending count, then name.
func sortedByCount(m map[string]int) []string {
	ks := sortedKeys(m)
	sort.SliceStable(ks, func(i, j int) bool { return m[ks[i]] > m[ks[j]] })
	return ks
}
