package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// replayURI matches a Wayback-style replay URI, /web/<14-digit
// timestamp><modifier>/<original URI>, whose website is the original's.
var replayURI = regexp.MustCompile(`^/web/\d{14}[a-z_]*/(.+)$`)

// website is the site a target URI belongs to: its host without "www.",
// or the original URI's for an archive's replay URI.
func website(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return uri
	}
	if m := replayURI.FindStringSubmatch(u.Path); m != nil {
		orig := m[1]
		if !strings.Contains(orig, "://") {
			orig = "http://" + orig
		}
		if o, err := url.Parse(orig); err == nil && o.Host != "" {
			u = o
		}
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// severalSites is how many different websites make a text block "shared
// boilerplate" in TestWaybackSharedText.
const severalSites = 3

// Shared boilerplate on real data: Wayback Machine captures of 128 pages about one
// topic, where the archive put its own text into every capture ("Starting
// in 1996, Alexa Internet has been donating…") and Wikipedia its licence
// footer. Before the boilerplate rule the job found 702 pairs, 589 of them
// between different websites through that text alone. Here the job runs
// with its defaults, and for every pair it writes the test looks at the
// pages themselves: each page's visible text with nothing removed
// (WithMarkupBoilerplate(false)), split into blocks of at least the job's
// minimum length; a block is shared boilerplate when the same text is on
// pages of at least severalSites different websites (the original site of
// a replay URI). No pair may share only signatures that come from such
// blocks: at least one shared signature must come from a block of one of
// the two pages that is not shared boilerplate.
func TestWaybackSharedText(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "data", "warc", "copycat__snapshot-wayback-topic-02.warc.gz")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s absent: %v", path, err)
	}
	if testing.Short() {
		t.Skip("-short")
	}
	cfg := testConfig([]string{path})
	dir := runJob(t, "direct", cfg)

	// The pages: every block of every document, with its signatures.
	ex, err := spotsig.NewExtractor(cfg.SpotSigOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	type block struct {
		text string
		sigs map[uint64]bool
	}
	type page struct {
		uri, site string
		blocks    []block
	}
	pages := map[string]*page{} // by doc key
	sitesOf := map[string]map[string]bool{}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	err = warc.ReadFile(f, path, cfg.WARCOptions(), func(r warc.Record) error {
		if r.Skip != "" {
			return nil
		}
		text, _, err := spotsig.PayloadText(r.Payload, r.MIMEType(), spotsig.WithMarkupBoilerplate(false))
		if err != nil {
			return nil
		}
		p := &page{uri: r.TargetURI, site: website(r.TargetURI)}
		for _, line := range bytes.Split(text, []byte("\n")) {
			n := 0
			spotsig.Tokenize(line, func([]byte) { n++ })
			if n < ex.MinBlockTokens() {
				continue
			}
			v, _ := ex.Extract(line)
			b := block{text: string(line), sigs: map[uint64]bool{}}
			for _, h := range v.Hashes {
				b.sigs[h] = true
			}
			p.blocks = append(p.blocks, b)
			if sitesOf[b.text] == nil {
				sitesOf[b.text] = map[string]bool{}
			}
			sitesOf[b.text][p.site] = true
		}
		pages[r.Ref().Key()] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	shared := 0
	for _, s := range sitesOf {
		if len(s) >= severalSites {
			shared++
		}
	}
	if shared == 0 {
		t.Fatal("no text block on pages of several websites: the sample is not what this test is about")
	}

	lines := readLines(t, dir, "pairs", cfg.Shards)
	crossSite, bad := 0, 0
	for _, l := range lines {
		var pr output.PairRecord
		if err := json.Unmarshal([]byte(l), &pr); err != nil {
			t.Fatal(err)
		}
		if pr.IsTextCopy() || !pr.NearDuplicate {
			continue // pages of one text decided by it, and candidates verification rejected: not signature pairs
		}
		a := pages[pr.A().Key()]
		b := pages[pr.B().Key()]
		if a == nil || b == nil {
			t.Fatalf("pair of unknown pages: %s", l)
		}
		if a.site != b.site {
			crossSite++
		}
		// Signatures of each page, and whether a page has one outside
		// shared boilerplate.
		own := func(p *page) map[uint64]bool {
			m := map[uint64]bool{}
			for _, bl := range p.blocks {
				if len(sitesOf[bl.text]) < severalSites {
					for h := range bl.sigs {
						m[h] = true
					}
				}
			}
			return m
		}
		all := func(p *page) map[uint64]bool {
			m := map[uint64]bool{}
			for _, bl := range p.blocks {
				for h := range bl.sigs {
					m[h] = true
				}
			}
			return m
		}
		ownA, ownB, allA, allB := own(a), own(b), all(a), all(b)
		ok := false
		for h := range allA {
			if allB[h] && (ownA[h] || ownB[h]) {
				ok = true
				break
			}
		}
		if !ok {
			bad++
			if bad <= 5 {
				t.Errorf("pair %s — %s (Jaccard %.2f) shares only text found on pages of >= %d websites", a.uri, b.uri, pr.Jaccard, severalSites)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d pairs share only shared-boilerplate text", bad, len(lines))
	}
	t.Logf("%d pages, %d text blocks on pages of >= %d websites, %d pairs (%d between different websites)",
		len(pages), shared, severalSites, len(lines), crossSite)
}

// At any corpus size two identical pages are a pair: the smallest input,
// one real page served at two URIs, whose main content has fewer than
// --min_signatures signatures without the text beside it. That text is on
// both pages, but beside the same main content (one context,
// dedup.Context), so it is not shared boilerplate and the copies are one
// pair, at Jaccard 1.
func TestTwoIdenticalPagesStayAPair(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "data", "warc", "copycat__snapshot-wayback-topic-02.warc.gz")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("%s absent: %v", path, err)
	}
	defer f.Close()
	ex, err := spotsig.NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	// The first page with text both inside and beside its main content.
	var payload []byte
	errFound := errors.New("found")
	err = warc.ReadFile(f, path, warc.Options{}, func(r warc.Record) error {
		if r.Skip != "" {
			return nil
		}
		blocks, st, err := ex.ExtractPayloadBlocks(r.Payload, r.MIMEType())
		if err != nil || st.Extract.PeripheralBlocks == 0 || st.Extract.PeripheralBlocks == len(blocks) {
			return nil
		}
		payload = r.Payload
		return errFound
	})
	if payload == nil {
		t.Fatalf("no page with a periphery in %s (%v)", path, err)
	}
	var warcFile bytes.Buffer
	for i := range 2 {
		http := "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + string(payload)
		fmt.Fprintf(&warcFile, "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-00000000000%d>\r\n"+
			"WARC-Target-URI: http://site%d.example/page\r\nWARC-Date: 2026-01-0%dT00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\n"+
			"Content-Length: %d\r\n\r\n%s\r\n\r\n", i, i, i+1, len(http), http)
	}
	in := filepath.Join(t.TempDir(), "two.warc")
	if err := os.WriteFile(in, warcFile.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := runJob(t, "direct", testConfig([]string{in}))
	sum := checkAccounting(t, dir, 1)
	lines := readLines(t, dir, "pairs", 1)
	if len(lines) != 1 || !strings.Contains(lines[0], `"jaccard":1`) {
		t.Fatalf("pairs %q, want the two copies at Jaccard 1; summary %+v", lines, sum)
	}
	if sum.SharedBlockSignatures != 0 {
		t.Errorf("summary: %d shared block signatures dropped from two copies of one page", sum.SharedBlockSignatures)
	}
}
