package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
)

var goldDir = filepath.Join("..", "..", "shared", "data", "goldset")

// The harness on the real gold set: every labelled page is read, SpotSigs
// with the job's extraction beats the README's whole-page word-5-shingle
// baseline (best F1 0.797, measured by the set's builder with its own
// code), and LSH-S, which verifies candidates exactly, finds a subset of the
// exact matcher's pairs at the same τ.
func TestHarnessOnGoldSet(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the 55 MB gold set")
	}
	warcPath := filepath.Join(goldDir, "gold.warc.gz")
	if _, err := os.Stat(warcPath); err != nil {
		t.Skip("gold set not present:", err)
	}
	truth, err := LoadTruth(filepath.Join(goldDir, "truth.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadCorpus(warcPath, truth)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Docs) != len(truth.Records) || len(c.Missing) != 0 || c.Unlabelled != 0 {
		t.Fatalf("read %d of %d labelled pages, %d missing, %d unlabelled", len(c.Docs), len(truth.Records), len(c.Missing), c.Unlabelled)
	}
	cfg := DefaultMethodsConfig()
	cfg.ShingleK, cfg.Descriptive, cfg.PaperChains = nil, nil, false
	ms, err := Methods(cfg)
	if err != nil {
		t.Fatal(err)
	}
	spots, lsh := ms[0], ms[1]
	if spots.Name != "SpotSigs" || lsh.Name != "LSH-S" {
		t.Fatalf("methods %q %q", spots.Name, lsh.Name)
	}
	v := c.Sign(spots)
	tau := config.DefaultTau
	exact := c.Evaluate(spots, v, tau)

	// The harness's SpotSigs row is the job: at the job's defaults it finds
	// exactly the pairs of the in-process job (dedup.Run), except for the
	// shared-block statistic, which needs the pages' layout and not just
	// their text (the boilerplate table runs dedup.Run itself), and the
	// same-site rule and the verification of pairs of one site, pair rules
	// on top of every method that the sweep leaves out so that the methods
	// compare as the paper compares them.
	p := config.DefaultParams()
	p.SharedBlockPages, p.SameSiteTau, p.VerifyShare = 0, 0, 0
	res, err := dedup.Run(context.Background(), p, []string{warcPath})
	if err != nil {
		t.Fatal(err)
	}
	job := map[[2]string]float64{}
	for _, p := range dedup.ExpandPairs(res.PairRecords()) {
		job[[2]string{p.ARecordID, p.BRecordID}] = p.Jaccard
	}
	if len(job) != len(exact.Pairs) {
		t.Errorf("harness: %d pairs at τ %v, job in process: %d", len(exact.Pairs), tau, len(job))
	}
	for _, p := range exact.Pairs {
		a, b := truth.Records[c.Docs[p.A].Truth].RecordID, truth.Records[c.Docs[p.B].Truth].RecordID
		if a > b {
			a, b = b, a
		}
		if j, ok := job[[2]string{a, b}]; !ok || j != p.Jaccard {
			t.Errorf("harness pair %s %s (%v) not found by the job (%v, %v)", a, b, p.Jaccard, j, ok)
			break
		}
	}
	if exact.Result.F1 < 0.80 {
		t.Errorf("SpotSigs F1 %.3f at τ %.2f, below the whole-page shingle baseline 0.797", exact.Result.F1, tau)
	}
	approx := c.Evaluate(lsh, c.Sign(lsh), 0.5)
	at5 := c.Evaluate(spots, v, 0.5)
	in := map[match.Pair]bool{}
	for _, p := range at5.Pairs {
		in[p] = true
	}
	for _, p := range approx.Pairs {
		if !in[p] {
			t.Fatalf("LSH-S pair %v not found by the exact matcher at the same τ", p)
		}
	}
	if len(approx.Pairs) == 0 || len(approx.Pairs) > len(at5.Pairs) {
		t.Errorf("LSH-S found %d pairs, exact %d", len(approx.Pairs), len(at5.Pairs))
	}
}

// LoadCorpus reads the pages of every record type the job reads
// (warc.IsDocumentType): a labelled conversion record is a page of the
// corpus beside response and resource records, not a missing one, and
// the records of other types are not pages.
func TestLoadCorpusDocumentTypes(t *testing.T) {
	body := "<html><body><p>The council approved the plan for the new library, and a spokesperson said it was a welcome decision.</p></body></html>"
	blocks := map[string]string{
		"response":   "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + body,
		"resource":   body,
		"conversion": body,
		"metadata":   "a: b\r\n",
	}
	var warcData, truthData strings.Builder
	for i, typ := range []string{"response", "resource", "conversion", "metadata"} {
		id := fmt.Sprintf("urn:uuid:00000000-0000-4000-8000-%012d", i)
		uri := fmt.Sprintf("http://example.com/%s", typ)
		ct := "text/html"
		switch typ {
		case "response":
			ct = "application/http; msgtype=response"
		case "metadata":
			ct = "application/warc-fields"
		}
		fmt.Fprintf(&warcData, "WARC/1.1\r\nWARC-Type: %s\r\nWARC-Record-ID: <%s>\r\nWARC-Target-URI: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
			typ, id, uri, ct, len(blocks[typ]), blocks[typ])
		fmt.Fprintf(&truthData, "{\"record_id\":%q,\"uri\":%q,\"cluster\":\"c\"}\n", id, uri)
	}
	path := filepath.Join(t.TempDir(), "types.warc")
	if err := os.WriteFile(path, []byte(warcData.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	truth, err := ReadTruth(strings.NewReader(truthData.String()))
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadCorpus(path, truth)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Docs) != 3 || len(c.Missing) != 1 || c.Missing[0] != truth.Records[3].RecordID {
		t.Fatalf("%d pages, missing %q; want the response, resource and conversion records, the metadata record missing", len(c.Docs), c.Missing)
	}
	for _, d := range c.Docs {
		if d.Skip != "" || !strings.Contains(string(d.Text), "council approved") {
			t.Errorf("page %s: skip %q, text %q", truth.Records[d.Truth].URI, d.Skip, d.Text)
		}
	}
}
