package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// TruthRecord is one labelled document of a truth file (truth.jsonl, one JSON
// object per line). RecordID, URI and Cluster are required; two documents are
// near-duplicates iff they carry the same Cluster. The other fields are
// optional descriptions used only to explain wrong pairs (see Explain).
type TruthRecord struct {
	RecordID string `json:"record_id"` // WARC-Record-ID without <>
	URI      string `json:"uri"`       // WARC-Target-URI without <>
	Cluster  string `json:"cluster"`   // cluster id; singletons have their own id

	Host          string   `json:"host,omitempty"`           // host name of the page
	HostPage      string   `json:"host_page,omitempty"`      // key of the page whose template the page uses
	SourceArticle string   `json:"source_article,omitempty"` // key of the article text the page carries
	SetOrigin     string   `json:"set_origin,omitempty"`     // data set the page bytes come from
	Kind          string   `json:"kind,omitempty"`           // "original" or "transplant"
	Edits         []string `json:"edits,omitempty"`          // syndication edits applied to the article
	Natural       bool     `json:"natural,omitempty"`        // member of a cluster found, not constructed
	CoreJaccard5  float64  `json:"core_jaccard5,omitempty"`  // word-5-shingle Jaccard of the core text to its source
	Lang          string   `json:"lang,omitempty"`           // ISO 639-1 language of the page (multilingual sets)
}

// Truth is a loaded truth file: the labelled documents in file order, indexed
// by record ID and by target URI, with the cluster sizes needed for recall.
type Truth struct {
	Records []TruthRecord

	byID     map[string]int
	byURI    map[string]int
	clusters map[string][]int // cluster id -> indices into Records, ascending
}

// ReadTruth parses a truth file from r. It returns an error naming the line
// for malformed JSON, a missing record_id/uri or cluster, or a record ID seen
// twice. A URI seen twice is allowed but then cannot be used as a fallback key
// for that URI (Lookup only falls back to URIs that are unique).
func ReadTruth(r io.Reader) (*Truth, error) {
	t := &Truth{byID: map[string]int{}, byURI: map[string]int{}, clusters: map[string][]int{}}
	err := readJSONL(r, "truth", func(line int, rec TruthRecord) error {
		if rec.Cluster == "" {
			return fmt.Errorf("truth line %d: no cluster", line)
		}
		if rec.RecordID == "" && rec.URI == "" {
			return fmt.Errorf("truth line %d: neither record_id nor uri", line)
		}
		i := len(t.Records)
		if rec.RecordID != "" {
			if _, dup := t.byID[rec.RecordID]; dup {
				return fmt.Errorf("truth line %d: record_id %q seen twice", line, rec.RecordID)
			}
			t.byID[rec.RecordID] = i
		}
		if rec.URI != "" {
			if _, dup := t.byURI[rec.URI]; dup {
				t.byURI[rec.URI] = -1 // ambiguous: never a fallback key
			} else {
				t.byURI[rec.URI] = i
			}
		}
		t.Records = append(t.Records, rec)
		t.clusters[rec.Cluster] = append(t.clusters[rec.Cluster], i)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// LoadTruth reads the truth file at path (see ReadTruth).
func LoadTruth(path string) (*Truth, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := ReadTruth(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Lookup returns the index in Records of the document with the given record
// ID or, when the ID is empty or unknown, the given target URI (only if that
// URI is unique in the truth file).
func (t *Truth) Lookup(recordID, uri string) (int, bool) {
	if recordID != "" {
		if i, ok := t.byID[recordID]; ok {
			return i, true
		}
	}
	if uri != "" {
		if i, ok := t.byURI[uri]; ok && i >= 0 {
			return i, true
		}
	}
	return -1, false
}

// Same reports whether Records[i] and Records[j] are labelled near-duplicates
// (same cluster).
func (t *Truth) Same(i, j int) bool { return t.Records[i].Cluster == t.Records[j].Cluster }

// PositivePairs returns the number of unordered labelled near-duplicate pairs,
// Σ over clusters of size·(size−1)/2.
func (t *Truth) PositivePairs() int64 {
	var n int64
	for _, m := range t.clusters {
		n += int64(len(m)) * int64(len(m)-1) / 2
	}
	return n
}

// Members returns the indices of the documents of cluster c, ascending. The
// slice is owned by t.
func (t *Truth) Members(c string) []int { return t.clusters[c] }

// readJSONL decodes one JSON object of type T per line of r (blank lines
// skipped) and calls fn with its 1-based line number. A malformed line is an
// error naming what and the line; an error from fn is returned as is.
func readJSONL[T any](r io.Reader, what string, fn func(line int, rec T) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		var rec T
		if err := json.Unmarshal(b, &rec); err != nil {
			return fmt.Errorf("%s line %d: %w", what, line, err)
		}
		if err := fn(line, rec); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s line %d: %w", what, line+1, err)
	}
	return nil
}
