package eval

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The skewed crawl's distinct articles are distinct: no two of them carry
// the same core article, though the two gold sets hold some articles under
// different source keys (La Nación's Mapuche column is readability/la-nacion
// in the dev set and go-readability/la-nacion, transplanted into an Ubuntu
// guide page, in goldset-ml; likewise a Chinese story of Guangming Daily).
func TestSkewedCrawlArticlesDistinct(t *testing.T) {
	mlDir := filepath.Join(goldDir, "..", "goldset-ml")
	sources := [][2]string{
		{filepath.Join(goldDir, "gold.warc.gz"), filepath.Join(goldDir, "truth.jsonl")},
		{filepath.Join(mlDir, "gold.warc.gz"), filepath.Join(mlDir, "truth.jsonl")},
	}
	for _, s := range sources {
		if _, err := os.Stat(s[0]); err != nil {
			t.Skip("gold sets not present:", err)
		}
	}
	var truthBuf bytes.Buffer
	c := DefaultSkewedCrawl
	c.SoftNotFound, c.Copies, c.Variants = 0, 0, 0
	if err := WriteSkewedCrawl(io.Discard, &truthBuf, c, sources); err != nil {
		t.Fatal(err)
	}
	truth, err := ReadTruth(&truthBuf)
	if err != nil {
		t.Fatal(err)
	}
	if len(truth.Records) != c.Distinct {
		t.Fatalf("%d articles, want %d", len(truth.Records), c.Distinct)
	}
	uris := map[string]bool{}
	for _, r := range truth.Records {
		uris[r.URI] = true
	}
	for _, c := range []struct{ what, dev, ml string }{
		{"La Nación's column", "http://www.lanacion.com.ar/2089096-una-solucion-no-violenta-para-la-cuestion-mapuche",
			"https://packaging.ubuntu.com/html/es/una-solucion-no-violenta-para-la-cuestion-mapuche-828351.html"},
		{"Guangming Daily's story (Chinese, no spaces)", "http://gmw.readability.invalid/",
			"https://lilypond.org/doc/v2.24/Documentation/web/story-402491.html"},
	} {
		if !uris[c.dev] || uris[c.ml] {
			t.Errorf("%s: dev-set page taken %v, goldset-ml transplant taken %v; want only the first", c.what, uris[c.dev], uris[c.ml])
		}
	}

	// Every pair of taken articles, by the core texts of both sets.
	core := map[string]string{}
	for _, s := range sources {
		m, err := loadCoreTexts(filepath.Join(filepath.Dir(s[1]), "core_texts.jsonl.gz"))
		if err != nil || len(m) == 0 {
			t.Fatalf("core texts of %s: %d, %v", s[1], len(m), err)
		}
		full, err := LoadTruth(s[1])
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range full.Records {
			if uris[r.URI] {
				core[r.URI] = m[r.RecordID]
			}
		}
	}
	seen := map[string]string{}
	for uri, text := range core {
		key := strings.Join(strings.Fields(strings.ToLower(text)), " ")
		if len(key) < 200 {
			continue
		}
		if other, ok := seen[key]; ok {
			t.Errorf("%s and %s carry the same core text", uri, other)
		}
		seen[key] = uri
	}
	if len(seen) < c.Distinct/2 {
		t.Errorf("only %d of %d articles have a core text of 200 bytes", len(seen), c.Distinct)
	}
}

// takenArticles counts a page as a repeat by its URI without query, its
// source key, or a core text sharing ≥ 0.2 of its word 5-shingles with a
// taken one, and as new otherwise.
func TestTakenArticles(t *testing.T) {
	a := &takenArticles{keys: map[string]bool{}, shingles: map[uint64][]int{}}
	text := "Abdullah Ocalan, the Kurdish leader, landed in Italy in November 1998 and asked for political asylum while Turkey sought his arrest"
	for _, c := range []struct {
		uri, source, core string
		want              bool
	}{
		{"http://a.example/x?s=1", "suite/a", text, true},
		{"http://a.example/x?s=2", "other/b", "unrelated words here and there in a row for sure", false}, // same URI
		{"http://b.example/y", "suite/a", "", false},                                                     // same source key
		{"http://c.example/z", "other-suite/a", "Breaking: " + text + " (agencies)", false},              // same core text
		{"http://d.example/w", "suite/d", "The harbour authority closed the old pier after engineers found a crack in its pillars on Monday", true},
		{"http://e.example/v", "suite/e", "", true},
		{"http://f.example/zh", "suite/f", "光明日报记者今天报道，新的高速铁路线路正式开通运营，沿线城市居民出行更加方便。", true},
		{"http://g.example/zh", "other-suite/f", "新的高速铁路线路正式开通运营，沿线城市居民出行更加方便。", false}, // same clauses, no spaces
	} {
		if got := a.take(c.uri, c.source, c.core); got != c.want {
			t.Errorf("take(%s, %s): %v, want %v", c.uri, c.source, got, c.want)
		}
	}
}
