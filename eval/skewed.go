package eval

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// SkewedCrawl is the shape of the skewed crawl (docs/benchmarks.md): what one real
// crawl throws at a deduplicator at once. Every count is a number of WARC
// response records.
type SkewedCrawl struct {
	SoftNotFound int // byte-identical short "page not found" pages (soft 404s) at distinct URIs
	Copies       int // byte-identical copies of one full article at distinct URIs (session-id variants)
	Variants     int // one-word variants of another article: variant i has word i mod n of its n candidates replaced by "variant<i>"
	Distinct     int // distinct articles: one page of each true cluster of the source gold sets
}

// DefaultSkewedCrawl is the skewed-crawl benchmark.
var DefaultSkewedCrawl = SkewedCrawl{SoftNotFound: 20000, Copies: 10000, Variants: 1500, Distinct: 2000}

// softNotFound is the soft-404 page: a 200 response whose text says the
// page does not exist, as shops and CMSs serve for every unknown path.
const softNotFound = `<!DOCTYPE html><html><head><title>Page not found</title></head>` +
	`<body><h1>Page not found</h1><p>Sorry, the page you are looking for does not exist.</p>` +
	`<p><a href="/">Back to the home page</a></p></body></html>`

// sourcePage is one response record of a gold set with its true cluster.
type sourcePage struct {
	uri, cluster, charset string
	payload               []byte
}

// WriteSkewedCrawl writes the crawl c as a gzipped WARC/1.1 file (one
// member per record) to w and its truth (record_id, uri, cluster: one
// cluster per copy group, "soft404", "copies", "variants", and one per
// distinct article) as JSON lines to truth. Articles come from the gold
// sets given as (warc, truth) path pairs: one page per true cluster, in
// file order, the first two for the copies and the variants, the next
// c.Distinct as distinct articles; a cluster is left out when its page
// repeats an article already taken (takenArticles). Everything is
// deterministic. Errors: unreadable sources, too few clusters, a variant
// article with too few words, write errors.
func WriteSkewedCrawl(w, truth io.Writer, c SkewedCrawl, sources [][2]string) error {
	if len(sources) == 0 {
		return errNoSources
	}
	var pages []sourcePage
	seen := &takenArticles{keys: map[string]bool{}, shingles: map[uint64][]int{}}
	for _, src := range sources {
		ps, err := onePerCluster(src[0], src[1], seen)
		if err != nil {
			return err
		}
		pages = append(pages, ps...)
	}
	if len(pages) < 2+c.Distinct {
		return fmt.Errorf("skewed crawl: %d source clusters, need %d", len(pages), 2+c.Distinct)
	}
	gw := &skewWriter{w: w, truth: json.NewEncoder(truth), date: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	for i := range c.SoftNotFound {
		gw.record(fmt.Sprintf("https://shop.example.com/product/%d", i), "soft404", "utf-8", []byte(softNotFound))
	}
	copies := pages[0]
	for i := range c.Copies {
		gw.record(fmt.Sprintf("https://news.example.org/story?sessionid=%08x", uint32(i)*2654435761), "copies", copies.charset, copies.payload)
	}
	variant := pages[1]
	slots := wordSlots(variant.payload)
	if c.Variants > 0 && len(slots) == 0 {
		return fmt.Errorf("skewed crawl: variant article %s has no replaceable word", variant.uri)
	}
	for i := range c.Variants {
		s := slots[i%len(slots)]
		body := make([]byte, 0, len(variant.payload)+16)
		body = append(body, variant.payload[:s[0]]...)
		body = fmt.Appendf(body, "variant%d", i)
		body = append(body, variant.payload[s[1]:]...)
		gw.record(fmt.Sprintf("https://mirror%d.example.net/article", i), "variants", variant.charset, body)
	}
	for _, p := range pages[2 : 2+c.Distinct] {
		gw.record(p.uri, "article/"+p.cluster, p.charset, p.payload)
	}
	return gw.err
}

// onePerCluster reads the response records of a gold set and returns the
// first page of each true cluster, in file order, leaving out a cluster
// whose first page repeats an article in seen, and adding the pages it
// returns to seen. Core texts are read from core_texts.jsonl.gz beside the
// truth when it is there.
func onePerCluster(warcPath, truthPath string, seen *takenArticles) ([]sourcePage, error) {
	t, err := LoadTruth(truthPath)
	if err != nil {
		return nil, err
	}
	core, err := loadCoreTexts(filepath.Join(filepath.Dir(truthPath), "core_texts.jsonl.gz"))
	if err != nil {
		return nil, err
	}
	f, err := os.Open(warcPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	clusters := map[string]bool{}
	var out []sourcePage
	err = warc.ReadFile(f, warcPath, warc.Options{}, func(r warc.Record) error {
		if r.Skip != "" {
			return nil
		}
		i, ok := t.Lookup(r.RecordID, r.TargetURI)
		if !ok || clusters[t.Records[i].Cluster] {
			return nil
		}
		clusters[t.Records[i].Cluster] = true
		if !seen.take(r.TargetURI, t.Records[i].SourceArticle, core[t.Records[i].RecordID]) {
			return nil
		}
		out = append(out, sourcePage{uri: r.TargetURI, cluster: t.Records[i].Cluster, charset: r.Charset, payload: r.Payload})
		return nil
	})
	return out, err
}

// coreDupJaccard is the word-5-shingle Jaccard of two core texts from
// which takenArticles counts them as one article: the threshold at which
// the gold sets' own core-text baseline separates their clusters without
// error (goldset README, "core" columns: P = R = 1.0 from 0.2 to 0.3).
const coreDupJaccard = 0.2

// takenArticles is what the skewed crawl's articles already hold, over all
// source sets: URIs without their query and source-article keys (the two
// gold sets share articles and hold captures of one URI in different
// clusters), and the word 5-shingles of core texts, since the sets also
// hold one article under two keys (the same fixture of two extraction test
// suites, in a cluster of each set).
type takenArticles struct {
	keys     map[string]bool
	shingles map[uint64][]int // shingle → indices of the taken core texts that hold it
	sizes    []int            // distinct shingles per taken core text
}

// take reports whether a page at uri carrying the article source (a key,
// may be empty) with the core text core (may be empty) is a new article,
// and if so adds it.
func (a *takenArticles) take(uri, source, core string) bool {
	uri, _, _ = strings.Cut(uri, "?")
	src := "source " + source
	if a.keys[uri] || (source != "" && a.keys[src]) {
		return false
	}
	sh := spotsig.Shingles([]byte(core), 5).Hashes // distinct; Han and kana characters are words (Tokenize)
	common := map[int]int{}
	for _, h := range sh {
		for _, j := range a.shingles[h] {
			common[j]++
		}
	}
	for j, n := range common {
		if float64(n) >= coreDupJaccard*float64(len(sh)+a.sizes[j]-n) {
			return false
		}
	}
	a.keys[uri], a.keys[src] = true, true
	for _, h := range sh {
		a.shingles[h] = append(a.shingles[h], len(a.sizes))
	}
	a.sizes = append(a.sizes, len(sh))
	return true
}

// loadCoreTexts reads a gold set's core_texts.jsonl.gz (record_id →
// core_text); a missing file gives none.
func loadCoreTexts(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := map[string]string{}
	dec := json.NewDecoder(zr)
	for {
		var r struct {
			RecordID string `json:"record_id"`
			CoreText string `json:"core_text"`
		}
		if err := dec.Decode(&r); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out[r.RecordID] = r.CoreText
	}
}

// wordSlots returns the [start, end) byte ranges of the words of at least 5
// ASCII letters that follow " the " in the page's text (outside tags, after
// <body), candidates for a one-word edit that changes a spot signature.
func wordSlots(html []byte) [][2]int {
	start := bytes.Index(bytes.ToLower(html), []byte("<body"))
	if start < 0 {
		start = 0
	}
	var slots [][2]int
	inTag := false
	for i := start; i < len(html); i++ {
		switch c := html[i]; {
		case c == '<':
			inTag = true
		case c == '>':
			inTag = false
		case !inTag && bytes.HasPrefix(html[i:], []byte(" the ")):
			j := i + 5
			k := j
			for k < len(html) && (html[k]|0x20) >= 'a' && (html[k]|0x20) <= 'z' {
				k++
			}
			if k-j >= 5 {
				slots = append(slots, [2]int{j, k})
			}
		}
	}
	return slots
}

// skewWriter writes WARC/1.1 response records, one gzip member each, and
// their truth lines; it keeps the first error.
type skewWriter struct {
	w     io.Writer
	truth *json.Encoder
	date  time.Time
	salt  string // added to what record IDs are hashed from: the day of a recurring crawl (WriteShortCrawl)
	n     int
	err   error
}

func (s *skewWriter) record(uri, cluster, charset string, payload []byte) {
	if s.err != nil {
		return
	}
	s.n++
	sum := sha1.Sum(fmt.Appendf(nil, "ndd-beam skewed crawl %d %s%s", s.n, uri, s.salt))
	id := fmt.Sprintf("urn:uuid:%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])
	ct := "text/html"
	if charset != "" {
		ct += "; charset=" + charset
	}
	http := fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", ct, len(payload))
	http = append(http, payload...)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	fmt.Fprintf(zw, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <%s>\r\nWARC-Date: %s\r\nWARC-Target-URI: %s\r\n"+
		"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n",
		id, s.date.Add(time.Duration(s.n)*time.Second).Format(time.RFC3339), uri, len(http))
	zw.Write(http)
	zw.Write([]byte("\r\n\r\n"))
	if err := zw.Close(); err != nil {
		s.err = err
		return
	}
	if _, err := s.w.Write(buf.Bytes()); err != nil {
		s.err = err
		return
	}
	s.err = s.truth.Encode(TruthRecord{RecordID: id, URI: uri, Cluster: cluster})
}

var errNoSources = errors.New("skewed crawl: no source gold sets")

// WriteScaledCrawl writes the gold set at warcPath copies times over, as a
// gzipped WARC/1.1 file (one member per record) to w: every response
// record of each copy with about perturb of its words (runs of ASCII
// letters outside tags) replaced by a random word of the same length, at
// the URI plus "?copy=<k>", with a record ID of its own. It is the
// "16× perturbed dev gold set" of docs/benchmarks.md: a corpus of real pages whose
// copies are near-duplicates of each other, so the partitions grow with
// it. Deterministic (seeded by copy and record). Errors: an unreadable
// source, write errors.
func WriteScaledCrawl(w io.Writer, warcPath string, copies int, perturb float64) error {
	f, err := os.Open(warcPath)
	if err != nil {
		return err
	}
	defer f.Close()
	var pages []sourcePage
	err = warc.ReadFile(f, warcPath, warc.Options{}, func(r warc.Record) error {
		if r.Skip == "" {
			pages = append(pages, sourcePage{uri: r.TargetURI, charset: r.Charset, payload: r.Payload})
		}
		return nil
	})
	if err != nil {
		return err
	}
	gw := &skewWriter{w: w, truth: json.NewEncoder(io.Discard), date: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	for k := range copies {
		for i, p := range pages {
			r := rand.New(rand.NewPCG(uint64(k), uint64(i)))
			sep := "?"
			if strings.Contains(p.uri, "?") {
				sep = "&"
			}
			gw.record(fmt.Sprintf("%s%scopy=%d", p.uri, sep, k), "", p.charset, perturbWords(p.payload, perturb, r))
		}
	}
	return gw.err
}

// perturbWords returns a copy of html with each word of ASCII letters
// outside tags replaced, with probability frac, by random lower-case
// letters of the same length.
func perturbWords(html []byte, frac float64, r *rand.Rand) []byte {
	out := bytes.Clone(html)
	inTag := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case c == '<':
			inTag = true
		case c == '>':
			inTag = false
		case !inTag && (c|0x20) >= 'a' && (c|0x20) <= 'z' && (i == 0 || !isLetter(out[i-1])):
			j := i
			for j < len(out) && isLetter(out[j]) {
				j++
			}
			if r.Float64() < frac {
				for x := i; x < j; x++ {
					out[x] = byte('a' + r.IntN(26))
				}
			}
			i = j - 1
		}
	}
	return out
}

func isLetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
