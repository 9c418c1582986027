package eval

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/warc"
)

// The short crawl has the shape asked for, deterministically: the counts
// of each kind, articles of 3–5 paragraphs of 25–45 words, one-word
// variants, and the same bytes for the same seed.
func TestWriteShortCrawl(t *testing.T) {
	texts := committeeTexts()
	c := ShortCrawl{Distinct: 50, SoftNotFound: 4, Copies: 3, Variants: 5, Sites: 7, Seed: 1}
	var w1, t1, w2, t2 bytes.Buffer
	if err := WriteShortCrawl(&w1, &t1, c, texts); err != nil {
		t.Fatal(err)
	}
	if err := WriteShortCrawl(&w2, &t2, c, texts); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w1.Bytes(), w2.Bytes()) || !bytes.Equal(t1.Bytes(), t2.Bytes()) {
		t.Error("two runs with one seed differ")
	}
	truth, err := ReadTruth(&t1)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, r := range truth.Records {
		kinds[strings.SplitN(r.Cluster, "/", 2)[0]]++
	}
	if kinds["soft404"] != 4 || kinds["copies"] != 3 || kinds["variants"] != 5 || kinds["article"] != 50 {
		t.Errorf("kinds %v", kinds)
	}
	var variants []string
	err = warc.ReadFile(bytes.NewReader(w1.Bytes()), "crawl", warc.Options{}, func(r warc.Record) error {
		if r.Skip != "" {
			return fmt.Errorf("record %s skipped: %s", r.TargetURI, r.Skip)
		}
		body := string(r.Payload)
		if strings.Contains(r.TargetURI, "/article-") {
			paras := strings.Count(body, "<p>") - 3 // the template's sidebar and footer
			if paras < 3 || paras > 5 {
				t.Errorf("%s: %d paragraphs", r.TargetURI, paras)
			}
		}
		if strings.Contains(r.TargetURI, "mirror") {
			variants = append(variants, body)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a, b := strings.Fields(variants[0]), strings.Fields(variants[1])
	diff := 0
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			diff++
		}
	}
	if len(a) != len(b) || diff == 0 || diff > 6 { // one word, and the site's template
		t.Errorf("variants differ in %d of %d/%d words", diff, len(a), len(b))
	}
}

// committeeTexts are 300 sentences of 17 words for the short crawl.
func committeeTexts() []string {
	var texts []string
	for i := range 300 {
		texts = append(texts, fmt.Sprintf("The committee number %d said that the new harbour plan was approved by the council on Monday. ", i))
	}
	return texts
}

// A single crawl (Day 0) stays the bytes it was before the daily batches
// were added to the generator: the per-page cost benchmark compares runs
// on it across commits (docs/benchmarks.md). The hashes are of the WARC
// records decompressed (gzip's own bytes may change with Go) and of the
// truth, at commit 71235a0.
func TestWriteShortCrawlUnchanged(t *testing.T) {
	c := ShortCrawl{Distinct: 50, SoftNotFound: 4, Copies: 3, Variants: 5, Sites: 7, Seed: 1}
	var w, truth bytes.Buffer
	if err := WriteShortCrawl(&w, &truth, c, committeeTexts()); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(&w)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%x", sha256.Sum256(raw)); got != "d77d0bd038b7876fd8e7b0a1012024fcdaf305a9bfdb982391462d13c3070270" {
		t.Errorf("records' sha256 %s, changed", got)
	}
	if got := fmt.Sprintf("%x", sha256.Sum256(truth.Bytes())); got != "78a19672c91860a2008ce6c9c051ac34591e4026c217890da0cfe103f8d73b99" {
		t.Errorf("truth's sha256 %s, changed", got)
	}
}

// crawlPage is one record of a generated crawl, with its truth cluster.
type crawlPage struct {
	id, uri, date, cluster, payload string
}

// readCrawlDay writes day d of c and returns its records in file order.
func readCrawlDay(t *testing.T, c ShortCrawl, d int) []crawlPage {
	t.Helper()
	c.Day = d
	var w, tr bytes.Buffer
	if err := WriteShortCrawl(&w, &tr, c, committeeTexts()); err != nil {
		t.Fatal(err)
	}
	truth, err := ReadTruth(&tr)
	if err != nil {
		t.Fatal(err)
	}
	var out []crawlPage
	err = warc.ReadFile(bytes.NewReader(w.Bytes()), "day", warc.Options{}, func(r warc.Record) error {
		if r.Skip != "" {
			return fmt.Errorf("record %s skipped: %s", r.TargetURI, r.Skip)
		}
		i, ok := truth.Lookup(r.RecordID, r.TargetURI)
		if !ok {
			return fmt.Errorf("record %s not in the truth", r.RecordID)
		}
		out = append(out, crawlPage{r.RecordID, r.TargetURI, r.Date, truth.Records[i].Cluster, string(r.Payload)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The daily batches of a recurring crawl keep what WriteShortCrawl
// promises: every day the same number of pages, dated that day, with
// record IDs of their own; day K re-captures pages first captured on
// earlier days at their URIs and in their truth clusters, as many as
// asked, byte-identical, with one word changed or with a paragraph added
// in the shares asked; the copies and mirrors of the day's articles; the
// sites' templates the same every day; the same bytes for the same seed.
func TestWriteShortCrawlDays(t *testing.T) {
	c := ShortCrawl{Distinct: 30, SoftNotFound: 4, Copies: 3, Variants: 2, Sites: 5, Seed: 1, Recaptures: 20, Edited: 0.25, Extended: 0.2}
	const days = 12
	perDay := c.Distinct + c.SoftNotFound + c.Copies + c.Variants + c.Recaptures
	first := map[string]crawlPage{} // URI → its first capture
	ids := map[string]bool{}
	tails := map[string]string{} // site → the template after the article
	fromLastWeek := 0
	for d := 1; d <= days; d++ {
		pages := readCrawlDay(t, c, d)
		if len(pages) != perDay {
			t.Errorf("day %d: %d pages, want %d", d, len(pages), perDay)
		}
		date := dayDate(d).Format("2006-01-02")
		kinds := map[string]int{}
		for _, p := range pages {
			if ids[p.id] {
				t.Errorf("day %d: record ID %s again", d, p.id)
			}
			ids[p.id] = true
			if !strings.HasPrefix(p.date, date) {
				t.Errorf("day %d: %s dated %s", d, p.uri, p.date)
			}
			if site, _, ok := strings.Cut(strings.TrimPrefix(p.uri, "https://"), "/"); ok && strings.HasPrefix(site, "site") && p.cluster != "soft404" {
				tail := p.payload[strings.Index(p.payload, "</div>\n<div class=\"bottom\">"):]
				if was, ok := tails[site]; ok && was != tail {
					t.Errorf("day %d: %s's template changed", d, site)
				}
				tails[site] = tail
			}
			was, seen := first[p.uri]
			switch {
			case p.cluster == "soft404":
				kinds["soft404"]++
			case strings.Contains(p.uri, "sessionid="):
				kinds["copy"]++
			case strings.Contains(p.uri, "mirror"):
				kinds["mirror"]++
			case !seen:
				kinds["new"]++
				if p.cluster != fmt.Sprintf("article/%d/", d)+p.uri[strings.LastIndex(p.uri, "-")+1:len(p.uri)-len(".html")] {
					t.Errorf("day %d: new page %s in cluster %s", d, p.uri, p.cluster)
				}
				if !strings.Contains(p.uri, "/"+dayDate(d).Format("2006/01/02")+"/") {
					t.Errorf("day %d: new page %s not under the day's date", d, p.uri)
				}
			default:
				wd := 0
				fmt.Sscanf(was.cluster, "article/%d/", &wd)
				if wd >= d || p.cluster != was.cluster {
					t.Errorf("day %d: re-capture %s of day %d in cluster %s, first in %s", d, p.uri, wd, p.cluster, was.cluster)
				}
				if wd >= d-7 {
					fromLastWeek++
				}
				kinds[recaptureKind(was.payload, p.payload)]++
			}
			if !seen && !strings.Contains(p.uri, "sessionid=") {
				first[p.uri] = p
			}
		}
		want := map[string]int{"soft404": c.SoftNotFound, "copy": c.Copies, "mirror": c.Variants, "new": c.Distinct,
			"identical": 11, "word": 5, "paragraph": 4}
		if d == 1 {
			want["new"] += c.Recaptures
			want["identical"], want["word"], want["paragraph"] = 0, 0, 0
		}
		for k, n := range want {
			if kinds[k] != n {
				t.Errorf("day %d: %d %s pages, want %d (%v)", d, kinds[k], k, n, kinds)
			}
		}
	}
	if all := (days - 1) * c.Recaptures; fromLastWeek < all/2 || fromLastWeek == all {
		t.Errorf("%d of %d re-captures of the last 7 days, want at least half and not all", fromLastWeek, all)
	}
	a, b := readCrawlDay(t, c, 5), readCrawlDay(t, c, 5)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("day 5 written twice differs at record %d", i)
		}
	}
}

// recaptureKind says how a re-captured page differs from its first
// capture: "identical", "word" (one word replaced), "paragraph" (a
// paragraph added after the article) or "other".
func recaptureKind(first, again string) string {
	if first == again {
		return "identical"
	}
	fw, aw := strings.Fields(first), strings.Fields(again)
	if len(fw) == len(aw) {
		diff := 0
		for i := range fw {
			if fw[i] != aw[i] {
				diff++
			}
		}
		if diff == 1 {
			return "word"
		}
	}
	end := strings.Index(first, "</div>\n<div class=\"bottom\">")
	if end > 0 && strings.HasPrefix(again, first[:end]) && strings.HasSuffix(again, first[end:]) {
		if added := again[end : len(again)-len(first)+end]; strings.HasPrefix(added, "<p>") && strings.HasSuffix(added, "</p>\n") && strings.Count(added, "<p>") == 1 {
			return "paragraph"
		}
	}
	return "other"
}
