package eval

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ShortCrawl is the crawl-shaped input of the per-page cost benchmark: what
// most real crawls are, many short pages on templated sites, with a real
// crawl's skew. Every count is a number of WARC response records.
type ShortCrawl struct {
	Distinct     int    // distinct short articles: 3–5 paragraphs of 25–45 words each
	SoftNotFound int    // byte-identical soft-404 pages at distinct URIs
	Copies       int    // byte-identical copies of one article at distinct URIs
	Variants     int    // one-word variants of another article
	Sites        int    // sites the articles are spread over, each with its own template
	Seed         uint64 // the random choices
}

// DefaultShortCrawl is the 108,000-page crawl of the per-page cost
// benchmark (docs/benchmarks.md).
var DefaultShortCrawl = ShortCrawl{Distinct: 100000, SoftNotFound: 5000, Copies: 2000, Variants: 1000, Sites: 2000, Seed: 27}

// WriteShortCrawl writes the crawl c as a gzipped WARC/1.1 file (one member
// per record) to w and its truth (one cluster per article, "soft404",
// "copies", "variants") as JSON lines to truth. Paragraphs are cut from
// the sentences of texts (real article texts, e.g. a gold set's core texts,
// each sentence used once at most per article; sentences repeated in texts
// are kept once), so pages read like news and two articles share a
// sentence only by chance. Each site has a template of its own (a menu, a
// sidebar and a footer of words of its own). Deterministic for a seed.
// Errors: fewer than 100 sentences, write errors.
func WriteShortCrawl(w, truth io.Writer, c ShortCrawl, texts []string) error {
	sentences := splitSentences(texts)
	if len(sentences) < 100 {
		return fmt.Errorf("short crawl: %d sentences, need 100", len(sentences))
	}
	r := rand.New(rand.NewPCG(c.Seed, 0x5eed))
	sites := max(c.Sites, 1)
	templates := make([][2]string, sites)
	for i := range templates {
		templates[i] = siteTemplate(r, sentences, i)
	}
	article := func() string {
		var b strings.Builder
		for range 3 + r.IntN(3) {
			want := 25 + r.IntN(21)
			var words []string
			for len(words) < want {
				words = append(words, strings.Fields(sentences[r.IntN(len(sentences))])...)
			}
			b.WriteString("<p>" + html.EscapeString(strings.Join(words[:want], " ")) + "</p>\n")
		}
		return b.String()
	}
	page := func(site int, title, body string) []byte {
		t := templates[site%sites]
		return []byte(strings.Replace(t[0], "{title}", html.EscapeString(title), 1) + "<h1>" + html.EscapeString(title) + "</h1>\n" + body + t[1])
	}
	title := func(body string) string {
		f := strings.Fields(strings.TrimPrefix(body, "<p>"))
		return strings.Join(f[:min(6, len(f))], " ")
	}
	gw := &skewWriter{w: w, truth: json.NewEncoder(truth), date: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	for i := range c.SoftNotFound {
		gw.record(fmt.Sprintf("https://site%d.example.com/item/%d", i%sites, i), "soft404", "utf-8", []byte(softNotFound))
	}
	copyBody := article()
	for i := range c.Copies {
		gw.record(fmt.Sprintf("https://site0.example.com/story?sessionid=%08x", uint32(i)*2654435761), "copies", "utf-8", page(0, title(copyBody), copyBody))
	}
	variantBody := article()
	words := strings.Fields(variantBody)
	var slots []int // words outside tags
	for k, w := range words {
		if !strings.ContainsAny(w, "<>") {
			slots = append(slots, k)
		}
	}
	for i := range c.Variants {
		v := slices.Clone(words)
		v[slots[i%len(slots)]] = fmt.Sprintf("variant%d", i)
		body := strings.Join(v, " ")
		gw.record(fmt.Sprintf("https://mirror%d.example.net/article", i), "variants", "utf-8", page(1+i, title(variantBody), body))
	}
	for i := range c.Distinct {
		body := article()
		site := r.IntN(sites)
		gw.record(fmt.Sprintf("https://site%d.example.com/%d/article-%d.html", site, 2000+i%25, i), fmt.Sprint("article/", i), "utf-8", page(site, title(body), body))
	}
	return gw.err
}

// siteTemplate returns the head (with a {title} slot) and tail of one
// site's pages: a menu and a sidebar before the article, a footer after
// it, in words of the site's own.
func siteTemplate(r *rand.Rand, sentences []string, site int) [2]string {
	pick := func(n int) string {
		f := strings.Fields(sentences[r.IntN(len(sentences))])
		return html.EscapeString(strings.Join(f[:min(n, len(f))], " "))
	}
	var head strings.Builder
	fmt.Fprintf(&head, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{title} | Site %d</title></head><body>\n", site)
	head.WriteString("<div class=\"menu\"><ul>")
	for range 6 {
		head.WriteString("<li><a href=\"/\">" + pick(2) + "</a></li>")
	}
	head.WriteString("</ul></div>\n<div class=\"side\"><p>" + pick(30) + "</p></div>\n<div class=\"article\">\n")
	tail := "</div>\n<div class=\"bottom\"><p>" + pick(30) + "</p><p>Copyright Site " + fmt.Sprint(site) + "</p></div>\n</body></html>\n"
	return [2]string{head.String(), tail}
}

// splitSentences cuts texts into sentences (at ". ", "! ", "? " and line
// ends) of at least 6 words, each once, in first-seen order.
func splitSentences(texts []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range texts {
		for _, line := range strings.Split(t, "\n") {
			for _, s := range strings.FieldsFunc(strings.NewReplacer(". ", ".\x00", "! ", "!\x00", "? ", "?\x00").Replace(line), func(r rune) bool { return r == 0 }) {
				s = strings.TrimSpace(s)
				if len(strings.Fields(s)) >= 6 && !seen[s] {
					seen[s] = true
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// CoreTexts returns the core texts of a gold set (core_texts.jsonl.gz in
// dir) in record ID order, for WriteShortCrawl.
func CoreTexts(dir string) ([]string, error) {
	m, err := loadCoreTexts(filepath.Join(dir, "core_texts.jsonl.gz"))
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("%s: no core_texts.jsonl.gz", dir)
	}
	ids := slices.Sorted(maps.Keys(m))
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = m[id]
	}
	return out, nil
}
