package eval

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// Real-page truth sets (../shared/data/realset, eval/realpages): every page
// the job decides on a set of real WARC files, labelled by reading both
// pages of every candidate pair (the set's README has the rule). A page is
// identified by its WARC file's base name, offset and inner offset, since
// record IDs repeat across real archives.

// RealTruth is a real-page truth: truth.tsv (columns file, offset,
// inner_offset, record_id, uri, cluster, note; a header line) and, when it
// lies beside it, judged_pairs.tsv (file_a, offset_a, file_b, offset_b,
// verdict, jaccard_job, shingle5, reason, inner_offset_a, inner_offset_b,
// …), whose reasons explain a wrong drop.
type RealTruth struct {
	Name    string            // the set's folder name
	Cluster map[string]string // page key (RealKey) -> cluster
	Note    map[string]string // cluster -> why its pages are one document ("" for singletons)
	URI     map[string]string // page key -> target URI
	Members map[string][]string
	reason  map[[2]string]string // judged pair (keys, sorted) -> reason
	verdict map[[2]string]bool   // judged pair (keys, sorted) -> same document
}

// JudgedPair is one pair of judged_pairs.tsv: page keys (RealKey, A < B)
// and whether they were judged the same document.
type JudgedPair struct {
	A, B string
	Dup  bool
}

// Judged returns the judged pairs, sorted by their keys.
func (t *RealTruth) Judged() []JudgedPair {
	out := make([]JudgedPair, 0, len(t.verdict))
	for k, dup := range t.verdict {
		out = append(out, JudgedPair{A: k[0], B: k[1], Dup: dup})
	}
	slices.SortFunc(out, func(x, y JudgedPair) int { return strings.Compare(x.A+"\x00"+x.B, y.A+"\x00"+y.B) })
	return out
}

// RealKey is the key of a page in a RealTruth: "base@offset+inner".
func RealKey(r warc.Ref) string {
	return filepath.Base(r.File) + "@" + strconv.FormatInt(r.Offset, 10) + "+" + strconv.FormatInt(r.Inner, 10)
}

// LoadRealTruth reads a truth.tsv and the judged_pairs.tsv beside it (if
// any). Errors: unreadable files, a line with too few columns or a bad
// offset, a page listed twice.
func LoadRealTruth(path string) (*RealTruth, error) {
	t := &RealTruth{Name: filepath.Base(filepath.Dir(path)), Cluster: map[string]string{}, Note: map[string]string{},
		URI: map[string]string{}, Members: map[string][]string{}, reason: map[[2]string]string{},
		verdict: map[[2]string]bool{}}
	err := readTSV(path, 7, func(f []string) error {
		k, err := realKey(f[0], f[1], f[2])
		if err != nil {
			return err
		}
		if _, dup := t.Cluster[k]; dup {
			return fmt.Errorf("page %s listed twice", k)
		}
		t.Cluster[k], t.URI[k] = f[5], f[4]
		t.Members[f[5]] = append(t.Members[f[5]], k)
		if f[6] != "" {
			t.Note[f[5]] = f[6]
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	judged := filepath.Join(filepath.Dir(path), "judged_pairs.tsv")
	if _, err := os.Stat(judged); err != nil {
		return t, nil
	}
	err = readTSV(judged, 10, func(f []string) error {
		a, err := realKey(f[0], f[1], f[8])
		if err != nil {
			return err
		}
		b, err := realKey(f[2], f[3], f[9])
		if err != nil {
			return err
		}
		t.reason[sortedPair(a, b)] = f[7]
		t.verdict[sortedPair(a, b)] = f[4] == "dup"
		return nil
	})
	return t, err
}

// readTSV calls fn with the fields of every line of a tab-separated file
// after its header; a line of fewer than n fields is an error.
func readTSV(path string, n int, fn func([]string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		if line == 1 || sc.Text() == "" {
			continue
		}
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) < n {
			return fmt.Errorf("%s line %d: %d fields, want %d", path, line, len(fields), n)
		}
		if err := fn(fields); err != nil {
			return fmt.Errorf("%s line %d: %w", path, line, err)
		}
	}
	return sc.Err()
}

func realKey(file, offset, inner string) (string, error) {
	o, err1 := strconv.ParseInt(offset, 10, 64)
	i, err2 := strconv.ParseInt(inner, 10, 64)
	if err1 != nil || err2 != nil {
		return "", fmt.Errorf("bad offset %q or inner offset %q", offset, inner)
	}
	return RealKey(warc.Ref{File: file, Offset: o, Inner: i}), nil
}

func sortedPair(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// PossibleDrops is Σ over clusters of (size − 1): the drops of a perfect
// dedup.
func (t *RealTruth) PossibleDrops() int {
	n := 0
	for _, m := range t.Members {
		n += len(m) - 1
	}
	return n
}

// RealDrop is a wrong drop: a page dropped for a page of another cluster.
type RealDrop struct {
	URI, KeptByURI string
	Jaccard        float64
	Method         string
	Reason         string // the judged pair's reason, "" when the pair was not judged
}

// RealMiss is a missed drop: a cluster of which more than one page was
// kept.
type RealMiss struct {
	Cluster string
	URIs    []string // the kept pages, in key order
	Jaccard float64  // of the first two kept pages when known (see ScoreReal), else -1
	Note    string   // why they are one document
}

// RealScore is a run's decisions and pairs scored against a RealTruth.
type RealScore struct {
	Set            string
	Pages, Unknown int // pages scored; decision lines of pages the truth does not know
	Drops, Right   int
	Possible       int
	DropPrecision  float64 // Right / Drops (1 without drops)
	DropRecall     float64 // Right / Possible
	// Pairs: the pairs output expanded (dedup.ExpandPairs) against the
	// pairs inside the truth's clusters.
	PairsPredicted, PairsTrue, PairsRight int
	PairPrecision, PairRecall             float64
	Wrong                                 []RealDrop
	Missed                                []RealMiss
}

// ScoreReal scores decisions and pairs (a run's outputs) against t. A drop
// is right when its kept page (found by location, kept_by_file and
// offsets) is in the dropped page's cluster. jaccard, when non-nil, gives
// the weighted Jaccard of two pages by key for the missed-drop table (the
// in-process run knows every vector; an output directory only its pairs).
func ScoreReal(t *RealTruth, ds []DecisionRecord, pairs []PairRecord, jaccard func(a, b string) (float64, bool)) RealScore {
	s := RealScore{Set: t.Name, Possible: t.PossibleDrops()}
	kept := map[string][]string{} // cluster -> kept page keys
	for _, d := range ds {
		k := RealKey(d.Ref)
		c, ok := t.Cluster[k]
		if !ok {
			s.Unknown++
			continue
		}
		s.Pages++
		if d.Keep {
			kept[c] = append(kept[c], k)
			continue
		}
		s.Drops++
		if t.Cluster[RealKey(d.Keeper())] == c {
			s.Right++
			continue
		}
		s.Wrong = append(s.Wrong, RealDrop{URI: d.URI, KeptByURI: d.KeptByURI, Jaccard: d.Jaccard, Method: d.Method,
			Reason: t.reason[sortedPair(k, RealKey(d.Keeper()))]})
	}
	s.DropPrecision, s.DropRecall = rates(s.Right, s.Drops, s.Possible)
	for c, ks := range kept {
		if len(ks) < 2 {
			continue
		}
		slices.Sort(ks)
		m := RealMiss{Cluster: c, Jaccard: -1, Note: t.Note[c]}
		for _, k := range ks {
			m.URIs = append(m.URIs, t.URI[k])
		}
		if jaccard != nil {
			if j, ok := jaccard(ks[0], ks[1]); ok {
				m.Jaccard = j
			}
		}
		s.Missed = append(s.Missed, m)
	}
	slices.SortFunc(s.Missed, func(a, b RealMiss) int { return cmp.Compare(a.Cluster, b.Cluster) })
	slices.SortStableFunc(s.Wrong, func(a, b RealDrop) int { return cmp.Compare(b.Jaccard, a.Jaccard) })

	truePairs := map[[2]string]bool{}
	for _, m := range t.Members {
		for i := range m {
			for j := i + 1; j < len(m); j++ {
				truePairs[sortedPair(m[i], m[j])] = true
			}
		}
	}
	s.PairsTrue = len(truePairs)
	predicted := map[[2]string]bool{}
	for _, p := range dedup.ExpandPairs(pairs) {
		a, b := RealKey(p.A()), RealKey(p.B())
		if _, ok := t.Cluster[a]; !ok {
			continue
		}
		if _, ok := t.Cluster[b]; ok {
			predicted[sortedPair(a, b)] = true
		}
	}
	s.PairsPredicted = len(predicted)
	for p := range predicted {
		if truePairs[p] {
			s.PairsRight++
		}
	}
	s.PairPrecision, s.PairRecall = rates(s.PairsRight, s.PairsPredicted, s.PairsTrue)
	return s
}

// ScoreRealRun runs the job in process (dedup.Run with p: the decisions
// the Beam job writes) on the WARC files matched by globs and scores it
// against the truth at truthPath. The missed-drop table gets the
// Jaccard of the run's own vectors.
func ScoreRealRun(ctx context.Context, p config.Params, truthPath string, globs []string) (RealScore, error) {
	t, err := LoadRealTruth(truthPath)
	if err != nil {
		return RealScore{}, err
	}
	var files []string
	for _, g := range globs {
		m, err := filepath.Glob(g)
		if err != nil || len(m) == 0 {
			return RealScore{}, fmt.Errorf("%s: no file (%v)", g, err)
		}
		files = append(files, m...)
	}
	res, err := dedup.Run(ctx, p, files)
	if err != nil {
		return RealScore{}, err
	}
	vec := map[string]spotsig.Vector{}
	for _, d := range res.Docs {
		vec[RealKey(d.Ref)] = d.Vec
	}
	jaccard := func(a, b string) (float64, bool) {
		va, okA := vec[a]
		vb, okB := vec[b]
		return match.WeightedJaccard(va, vb), okA && okB
	}
	return ScoreReal(t, res.Decisions, res.PairRecords(), jaccard), nil
}

// DecisionRow is the job's decisions on a gold set (dedup.Run at the job's
// parameters), scored by EvaluateDrops and its pairs by Evaluate.
type DecisionRow struct {
	Set   string
	Pages int
	Drops DropResult
	Pairs Result
}

// GoldDecisions runs the job in process on a gold set and scores its
// decisions and pairs.
func GoldDecisions(ctx context.Context, p config.Params, warcPath, truthPath string) (DecisionRow, error) {
	t, err := LoadTruth(truthPath)
	if err != nil {
		return DecisionRow{}, err
	}
	res, err := dedup.Run(ctx, p, []string{warcPath})
	if err != nil {
		return DecisionRow{}, err
	}
	return DecisionRow{Set: filepath.Base(filepath.Dir(warcPath)), Pages: len(t.Records),
		Drops: EvaluateDrops(t, res.Decisions), Pairs: Evaluate(t, res.PairRecords())}, nil
}
