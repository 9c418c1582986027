package eval

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/warc"
)

// The short crawl has the shape asked for, deterministically: the counts
// of each kind, articles of 3–5 paragraphs of 25–45 words, one-word
// variants, and the same bytes for the same seed.
func TestWriteShortCrawl(t *testing.T) {
	var texts []string
	for i := range 300 {
		texts = append(texts, fmt.Sprintf("The committee number %d said that the new harbour plan was approved by the council on Monday. ", i))
	}
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
