package spotsig

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func loadCoreTexts(t testing.TB) map[string]string {
	f, err := os.Open(filepath.Join(sharedDir, "goldset", "core_texts.jsonl.gz"))
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(zr)
	m := map[string]string{}
	for dec.More() {
		var r struct {
			RecordID string `json:"record_id"`
			CoreText string `json:"core_text"`
		}
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		m[r.RecordID] = r.CoreText
	}
	return m
}

// coverage returns the fraction of core's distinct tokens (only those with
// non-ASCII letters when there are at least 5 of them) that occur inside
// the concatenation of text's tokens.
func coverage(core string, text []byte) (float64, int) {
	var sb strings.Builder
	Tokenize(text, func(tok []byte) { sb.Write(tok) })
	all := sb.String()
	seen := map[string]bool{}
	var toks, wide []string
	Tokenize([]byte(core), func(tok []byte) {
		s := string(tok)
		if seen[s] {
			return
		}
		seen[s] = true
		toks = append(toks, s)
		if utf8.RuneCountInString(s) != len(s) {
			wide = append(wide, s)
		}
	})
	if len(wide) >= 5 {
		toks = wide
	}
	if len(toks) == 0 {
		return 1, 0
	}
	hit := 0
	for _, s := range toks {
		if strings.Contains(all, s) {
			hit++
		}
	}
	return float64(hit) / float64(len(toks)), len(toks)
}

// TestGoldCharsets reads real pages of the gold set in every charset it
// has (utf-8, iso-8859-1, windows-1252, macintosh, big5, gb2312,
// windows-874; labels in the HTTP header, README "charsets in HTTP
// headers") and checks the decoded text against the page's human core text
// (core_texts.jsonl.gz): the gold set's builder verified that text is
// visible on the page, so nearly all of its words must be found in ours.
// Measured on this data: at least 0.966 of a page's core words for every
// non-UTF-8 page. A control decodes the CJK pages as windows-1252 and must
// lose most words, so the check is sensitive to the charset.
func TestGoldCharsets(t *testing.T) {
	core := loadCoreTexts(t)
	utf8Seen := 0
	pages := readGoldPages(t, 0, func(p page) bool {
		if strings.Contains(strings.ToLower(p.ContentType), "utf-8") {
			utf8Seen++
			return utf8Seen%20 == 0 || wideTokens(core[p.RecordID]) >= 5
		}
		return true
	})
	want := map[string]string{ // label -> WHATWG encoding name
		"utf-8": "utf-8", "iso-8859-1": "windows-1252", "windows-1252": "windows-1252",
		"macintosh": "macintosh", "big5": "big5", "gb2312": "gbk", "windows-874": "windows-874",
	}
	perCharset := map[string]int{}
	controls, lowUTF8 := 0, 0
	for _, p := range pages {
		_, label, _ := strings.Cut(strings.ToLower(p.ContentType), "charset=")
		text, st, err := PayloadText(p.Body, p.ContentType)
		if err != nil {
			t.Errorf("%s: %v", p.URI, err)
			continue
		}
		if st.Charset != want[label] || (st.CharsetSource != "header" && st.CharsetSource != "bom") {
			t.Errorf("%s: charset %s from %s, want %s from the header", p.URI, st.Charset, st.CharsetSource, want[label])
		}
		perCharset[label]++
		c, n := coverage(core[p.RecordID], text)
		if n == 0 {
			t.Errorf("%s: no core text for %s", p.URI, p.RecordID)
		}
		if c < 0.95 {
			if label != "utf-8" {
				t.Errorf("%s (%s): only %.3f of %d core words found in the text", p.URI, label, c, n)
			}
			// A few gold core texts do not match their page (one is about
			// another article, some are mojibake): UTF-8 pages are judged
			// in aggregate.
			t.Logf("%s (%s): only %.3f of %d core words found in the text", p.URI, label, c, n)
			lowUTF8++
			continue
		}
		// Control: with a wrong charset the non-ASCII words must be lost.
		if wide := wideTokens(core[p.RecordID]); wide >= 5 && st.CharsetSource != "bom" {
			wrongLabel := "utf-8"
			if label == "utf-8" {
				wrongLabel = "iso-8859-2"
			}
			wrong, _, _ := PayloadText(p.Body, "text/html; charset="+wrongLabel)
			cw, _ := coverage(core[p.RecordID], wrong)
			controls++
			if cw > 0.5 {
				t.Errorf("%s: decoding %s as %s still finds %.3f of its %d non-ASCII core words; the check is blind", p.URI, label, wrongLabel, cw, wide)
			}
		}
	}
	for label := range want {
		if perCharset[label] == 0 {
			t.Errorf("no %s page checked", label)
		}
	}
	if lowUTF8*20 > perCharset["utf-8"] {
		t.Errorf("%d of %d UTF-8 pages have under 0.95 of their core words", lowUTF8, perCharset["utf-8"])
	}
	if controls == 0 {
		t.Error("no page with non-ASCII core words: the wrong-charset control never ran")
	}
	t.Logf("pages checked per charset: %v; wrong-charset controls: %d", perCharset, controls)
}

func wideTokens(text string) int {
	seen := map[string]bool{}
	Tokenize([]byte(text), func(tok []byte) {
		if utf8.RuneCount(tok) != len(tok) {
			seen[string(tok)] = true
		}
	})
	return len(seen)
}
