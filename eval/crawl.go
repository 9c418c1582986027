package eval

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"maps"
	"math"
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

	// A recurring crawl: with Day ≥ 1 the crawl is the batch of day Day of
	// a crawl of the same sites captured once a day (see WriteShortCrawl),
	// and the counts above are each day's.
	Day        int     // 0: one crawl; K ≥ 1: day K's batch
	Recaptures int     // pages of days 1 to K−1 captured again on day K at their URIs (day 1: as many more new articles)
	Edited     float64 // share of the re-captures with one word changed
	Extended   float64 // share of the re-captures with a paragraph added; the rest are byte-identical
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
//
// With c.Day = K ≥ 1 it writes day K of a crawl captured once a day
// instead, in capture order shuffled: the same sites and templates every
// day (they depend on the seed alone); c.Distinct new articles (day 1:
// c.Distinct + c.Recaptures), each at a URI of its own under the day's
// date; c.Recaptures pages of earlier days captured again at their URIs,
// half of them from the last 7 days and half from any earlier day, of
// which c.Edited have one word changed, c.Extended a paragraph added at
// the end and the rest are byte-identical; c.SoftNotFound soft-404 pages
// (half of their URIs also captured the day before); c.Copies
// byte-identical copies of the day's first article at session-ID URIs on
// its site; and c.Variants one-word variants of its second article on
// mirror sites. An article is a function of the seed, its day and its
// number, so day K rebuilds any page of an earlier day without writing
// the days between; its truth cluster is "article/DAY/N" on every day it
// is captured (re-captures, copies and variants included), and the
// soft-404 pages are "soft404". Record IDs differ between days.
//
// Errors: fewer than 100 sentences, write errors.
func WriteShortCrawl(w, truth io.Writer, c ShortCrawl, texts []string) error {
	sentences := splitSentences(texts)
	if len(sentences) < 100 {
		return fmt.Errorf("short crawl: %d sentences, need 100", len(sentences))
	}
	r := rand.New(rand.NewPCG(c.Seed, 0x5eed))
	t := newSiteTemplates(r, sentences, c.Sites)
	if c.Day > 0 {
		return writeCrawlDay(w, truth, c, sentences, t)
	}
	gw := &skewWriter{w: w, truth: json.NewEncoder(truth), date: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	for i := range c.SoftNotFound {
		gw.record(fmt.Sprintf("https://site%d.example.com/item/%d", i%len(t), i), "soft404", "utf-8", []byte(softNotFound))
	}
	copyBody := shortArticle(r, sentences)
	for i := range c.Copies {
		gw.record(fmt.Sprintf("https://site0.example.com/story?sessionid=%08x", uint32(i)*2654435761), "copies", "utf-8", t.page(0, articleTitle(copyBody), copyBody))
	}
	variantBody := shortArticle(r, sentences)
	words := strings.Fields(variantBody)
	slots := untaggedWords(words)
	for i := range c.Variants {
		v := slices.Clone(words)
		v[slots[i%len(slots)]] = fmt.Sprintf("variant%d", i)
		body := strings.Join(v, " ")
		gw.record(fmt.Sprintf("https://mirror%d.example.net/article", i), "variants", "utf-8", t.page(1+i, articleTitle(variantBody), body))
	}
	for i := range c.Distinct {
		body := shortArticle(r, sentences)
		site := r.IntN(len(t))
		gw.record(fmt.Sprintf("https://site%d.example.com/%d/article-%d.html", site, 2000+i%25, i), fmt.Sprint("article/", i), "utf-8", t.page(site, articleTitle(body), body))
	}
	return gw.err
}

// The random streams of a recurring crawl, beside the templates' 0x5eed:
// an article's is day << 32 | its number; a day's own choices (which pages
// it re-captures, the capture order) dayStream | day; the edit of the
// day's j-th capture editStream | day << 32 | j.
const (
	dayStream  = 0xda7 << 48
	editStream = 0xed1 << 48
)

// dayCapture is one record of a recurring crawl's day, before it is
// written: an article (Day, N) captured as published (edit 0), with one
// word changed ('w'), with a paragraph added ('p'), as a session-ID copy
// ('c') or as a mirror's one-word variant ('m'); or a soft-404 page (Day
// 0, N its item number). K is the copy's or the variant's number.
type dayCapture struct {
	Day, N, K int
	Edit      byte
}

// writeCrawlDay writes day c.Day of a recurring crawl (WriteShortCrawl).
func writeCrawlDay(w, truth io.Writer, c ShortCrawl, sentences []string, t siteTemplates) error {
	day := c.Day
	r := rand.New(rand.NewPCG(c.Seed, dayStream|uint64(day)))
	var caps []dayCapture
	for i := range newArticles(c, day) {
		caps = append(caps, dayCapture{Day: day, N: i})
	}
	if day > 1 {
		edited := int(math.Round(c.Edited * float64(c.Recaptures)))
		extended := int(math.Round(c.Extended * float64(c.Recaptures)))
		for j := range c.Recaptures {
			d := 1 + r.IntN(day-1) // any earlier day
			if j%2 == 0 {
				d = day - 1 - r.IntN(min(7, day-1)) // one of the last 7
			}
			rc := dayCapture{Day: d, N: r.IntN(newArticles(c, d))}
			switch {
			case j < edited:
				rc.Edit = 'w'
			case j < edited+extended:
				rc.Edit = 'p'
			}
			caps = append(caps, rc)
		}
	}
	for j := range c.SoftNotFound {
		caps = append(caps, dayCapture{N: (day-1)*c.SoftNotFound/2 + j})
	}
	for k := range c.Copies {
		caps = append(caps, dayCapture{Day: day, N: 0, K: k, Edit: 'c'})
	}
	for k := range c.Variants {
		caps = append(caps, dayCapture{Day: day, N: 1, K: k, Edit: 'm'})
	}
	r.Shuffle(len(caps), func(i, j int) { caps[i], caps[j] = caps[j], caps[i] })
	gw := &skewWriter{w: w, truth: json.NewEncoder(truth), date: dayDate(day), salt: fmt.Sprint(" day ", day)}
	for j, rc := range caps {
		if rc.Day == 0 {
			gw.record(fmt.Sprintf("https://site%d.example.com/item/%d", rc.N%len(t), rc.N), "soft404", "utf-8", []byte(softNotFound))
			continue
		}
		site, body := dayArticle(c.Seed, sentences, len(t), rc.Day, rc.N)
		title := articleTitle(body)
		uri := fmt.Sprintf("https://site%d.example.com/%s/article-%d.html", site, dayDate(rc.Day).Format("2006/01/02"), rc.N)
		er := rand.New(rand.NewPCG(c.Seed, editStream|uint64(day)<<32|uint64(j)))
		switch rc.Edit {
		case 'w':
			spans := wordSpans(body)
			sp := spans[er.IntN(len(spans))]
			for _, nw := range strings.Fields(html.EscapeString(sentences[er.IntN(len(sentences))])) {
				if nw != body[sp[0]:sp[1]] && !strings.ContainsAny(nw, "<>") {
					body = body[:sp[0]] + nw + body[sp[1]:]
					break
				}
			}
		case 'p':
			body += shortParagraph(er, sentences)
		case 'c':
			uri += fmt.Sprintf("?sessionid=%08x", uint32(day<<20+rc.K)*2654435761)
		case 'm':
			spans := wordSpans(body)
			sp := spans[rc.K%len(spans)]
			body = body[:sp[0]] + fmt.Sprintf("variant%d", rc.K) + body[sp[1]:]
			uri = fmt.Sprintf("https://mirror%d.example.net/%s/article", rc.K, dayDate(day).Format("2006/01/02"))
			site += 1 + rc.K
		}
		gw.record(uri, fmt.Sprintf("article/%d/%d", rc.Day, rc.N), "utf-8", t.page(site, title, body))
	}
	return gw.err
}

// newArticles is the number of articles first published on day d of the
// recurring crawl c.
func newArticles(c ShortCrawl, d int) int {
	if d == 1 {
		return c.Distinct + c.Recaptures
	}
	return c.Distinct
}

// dayDate is the midnight (UTC) that starts day d of a recurring crawl.
func dayDate(d int) time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, d-1) }

// dayArticle returns the site and body of article n of day d of a
// recurring crawl with the given seed over sites sites.
func dayArticle(seed uint64, sentences []string, sites, d, n int) (site int, body string) {
	r := rand.New(rand.NewPCG(seed, uint64(d)<<32|uint64(n)))
	body = shortArticle(r, sentences)
	return r.IntN(sites), body
}

// shortArticle returns an article of 3–5 paragraphs (shortParagraph).
func shortArticle(r *rand.Rand, sentences []string) string {
	var b strings.Builder
	for range 3 + r.IntN(3) {
		b.WriteString(shortParagraph(r, sentences))
	}
	return b.String()
}

// shortParagraph returns a paragraph ("<p>…</p>\n") of 25–45 words taken
// from the start of random sentences.
func shortParagraph(r *rand.Rand, sentences []string) string {
	want := 25 + r.IntN(21)
	var words []string
	for len(words) < want {
		words = append(words, strings.Fields(sentences[r.IntN(len(sentences))])...)
	}
	return "<p>" + html.EscapeString(strings.Join(words[:want], " ")) + "</p>\n"
}

// articleTitle is an article's headline: the first 6 words of its body.
func articleTitle(body string) string {
	f := strings.Fields(strings.TrimPrefix(body, "<p>"))
	return strings.Join(f[:min(6, len(f))], " ")
}

// untaggedWords returns the indices of the words (strings.Fields of an
// article) that hold no tag.
func untaggedWords(words []string) []int {
	var slots []int
	for k, w := range words {
		if !strings.ContainsAny(w, "<>") {
			slots = append(slots, k)
		}
	}
	return slots
}

// wordSpans returns the [start, end) byte ranges of the words (runs of
// non-space characters) of an article's body that hold no tag.
func wordSpans(body string) [][2]int {
	var spans [][2]int
	start := -1
	for i := 0; i <= len(body); i++ {
		if i < len(body) && body[i] != ' ' && body[i] != '\n' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && !strings.ContainsAny(body[start:i], "<>") {
			spans = append(spans, [2]int{start, i})
		}
		start = -1
	}
	return spans
}

// siteTemplates holds the head (with a {title} slot) and tail of each
// site's pages (siteTemplate).
type siteTemplates [][2]string

// newSiteTemplates returns the templates of max(sites, 1) sites.
func newSiteTemplates(r *rand.Rand, sentences []string, sites int) siteTemplates {
	t := make(siteTemplates, max(sites, 1))
	for i := range t {
		t[i] = siteTemplate(r, sentences, i)
	}
	return t
}

// page returns the page of an article with title and body on site (modulo
// the number of sites).
func (t siteTemplates) page(site int, title, body string) []byte {
	tm := t[site%len(t)]
	return []byte(strings.Replace(tm[0], "{title}", html.EscapeString(title), 1) + "<h1>" + html.EscapeString(title) + "</h1>\n" + body + tm[1])
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
