package spotsig

import (
	"bufio"
	"bytes"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/warc"
)

// Tests of the languages (langid.go): the embedded data, tokens and
// signatures per language, a page's language and each block's.

// Every embedded language builds: its antecedents are single tokens and
// its lists parse.
func TestEveryLanguageBuilds(t *testing.T) {
	langs := Languages()
	if len(langs) < 30 {
		t.Fatalf("Languages() = %d codes %v, want >= 30", len(langs), langs)
	}
	for _, code := range langs {
		e, err := NewExtractor(WithLanguage(code))
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		if n := len(e.SpotSet()); n < 10 {
			t.Errorf("%s: %d antecedents, want >= 10", code, n)
		}
	}
	if _, err := NewExtractor(WithLanguage(LanguageUnknown)); err == nil {
		t.Errorf("WithLanguage(%q) accepted, want an error (not a language with data)", LanguageUnknown)
	}
}

// Han and kana are one token per character; Latin words around them stay
// words.
func TestTokenizeIdeographs(t *testing.T) {
	var got []string
	Tokenize([]byte("日本語の本をGo言語で読む・カタカナ"), func(tok []byte) { got = append(got, string(tok)) })
	want := []string{"日", "本", "語", "の", "本", "を", "go", "言", "語", "で", "読", "む", "カ", "タ", "カ", "ナ"}
	if !slices.Equal(got, want) {
		t.Fatalf("tokens %q, want %q", got, want)
	}
}

// A page and its translation share English fragments (commands, names);
// with the language in the hash they share no signature, while with one
// forced language they do.
func TestTranslationsShareNoSignature(t *testing.T) {
	en := "Use the command apt-get install the package to install the software on the system, then run the installer from the menu and read the manual for the details of the installation process on your computer.\n"
	de := "Verwenden Sie den Befehl, um die Software auf dem System zu installieren; die Meldung lautet: then run the installer from the menu and read the manual for the details of the installation process on your computer. Lesen Sie das Handbuch für die Einzelheiten der Installation auf Ihrem Rechner.\n"
	e := mustExtractor(t)
	ve, se := e.Extract([]byte(en))
	vd, sd := e.Extract([]byte(de))
	if se.Lang != "en" || sd.Lang != "de" {
		t.Fatalf("languages %q, %q; want en, de", se.Lang, sd.Lang)
	}
	if len(ve.Hashes) == 0 || len(vd.Hashes) == 0 {
		t.Fatalf("no signatures: en %d, de %d", len(ve.Hashes), len(vd.Hashes))
	}
	for _, h := range vd.Hashes {
		if _, ok := slices.BinarySearch(ve.Hashes, h); ok {
			t.Fatalf("translation shares signature %#x", h)
		}
	}
	forced := mustExtractor(t, WithLanguage("en"))
	fe, _ := forced.Extract([]byte(en))
	fd, _ := forced.Extract([]byte(de))
	shared := 0
	for _, h := range fd.Hashes {
		if _, ok := slices.BinarySearch(fe.Hashes, h); ok {
			shared++
		}
	}
	if shared == 0 {
		t.Fatalf("with English forced the two texts share no signature; the test text does not show the problem")
	}
}

// Text without letters, or of a language without data, gets the
// documented fallback and no crash.
func TestUnknownLanguageFallback(t *testing.T) {
	e := mustExtractor(t)
	for _, text := range []string{"", "12345 67890 — ... !!!", strings.Repeat("\xff\xfe", 100)} {
		_, st := e.Extract([]byte(text))
		if st.Lang != LanguageUnknown {
			t.Errorf("Extract(%q).Lang = %q, want %q", text, st.Lang, LanguageUnknown)
		}
	}
	// Korean has no embedded data: English data, tagged und.
	ko := strings.Repeat("대한민국은 민주공화국이다. 대한민국의 주권은 국민에게 있고, 모든 권력은 국민으로부터 나온다.\n", 3)
	if _, st := e.Extract([]byte(ko)); st.Lang != LanguageUnknown {
		t.Errorf("Korean text: Lang = %q, want %q", st.Lang, LanguageUnknown)
	}
}

// DetectLanguage on the real pages of the multilingual gold set agrees
// with its lang.tsv labels for at least 75 % of the pages of every
// language (the first 1,000 pages; Japanese manuals quoting much English
// are the hardest, 79 % at the time of writing) (docs/quality.md has the measured shares).
func TestDetectLanguageGoldsetML(t *testing.T) {
	dir := filepath.Join(sharedDir, "goldset-ml")
	f, err := os.Open(filepath.Join(dir, "lang.tsv"))
	if err != nil {
		t.Skipf("goldset-ml not available: %v", err)
	}
	defer f.Close()
	label := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if id, l, ok := strings.Cut(sc.Text(), "\t"); ok {
			label[id] = l
		}
	}
	pages := readPagesOf(t, filepath.Join(dir, "gold.warc.gz"), 1000, nil)
	total, right := map[string]int{}, map[string]int{}
	for _, p := range pages {
		l, ok := label[p.RecordID]
		if !ok {
			continue
		}
		text, _, err := PayloadText(p.Body, p.ContentType)
		if err != nil {
			continue
		}
		total[l]++
		if DetectLanguage(text) == l {
			right[l]++
		}
	}
	if len(total) < 10 {
		t.Fatalf("labelled pages in %d languages, want the set's 11", len(total))
	}
	for l, n := range total {
		if share := float64(right[l]) / float64(n); share < 0.75 {
			t.Errorf("%s: %d of %d pages identified (%.3f), want >= 0.75", l, right[l], n, share)
		}
	}
}

// Scripts of one embedded language decide without the trigram identifier;
// Japanese is told from Chinese by its kana, also when the page quotes many
// Latin names (whatlanggo alone called such pages Latin-script languages).
func TestDetectLanguageScripts(t *testing.T) {
	cases := []struct{ text, want string }{
		{strings.Repeat("もともとこの文書は Bruce Perens, Sven Rudolph, Igor Grobman, James Treacy, Adam Di Carlo が書きました。\n", 3), "ja"},
		{strings.Repeat("中华人民共和国是工人阶级领导的、以工农联盟为基础的人民民主专政的社会主义国家。\n", 3), "zh"},
		{strings.Repeat("Η Ελλάδα είναι χώρα της νοτιοανατολικής Ευρώπης στο νότιο άκρο της Βαλκανικής χερσονήσου.\n", 3), "el"},
		{strings.Repeat("Das ist ein Satz, der in deutscher Sprache geschrieben ist und nicht in einer anderen Sprache.\n", 3), "de"},
	}
	for _, c := range cases {
		if got := DetectLanguage([]byte(c.text)); got != c.want {
			t.Errorf("DetectLanguage(%.40q…) = %q, want %q", c.text, got, c.want)
		}
	}
}

// realNotice returns a real English notice as plain markup: the cookie
// paragraph of the privacy policy in the ClueWeb09 sample of testdata
// (copycat, MIT), "A cookie is a piece of data stored on the user's
// computer …" (82 words), in an anonymous <div><p>, which no markup cue
// marks as boilerplate.
func realNotice(t testing.TB) string {
	t.Helper()
	path := filepath.Join("..", "testdata", "copycat__clueweb-09-sample-en0000-00.warc.gz")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var para string
	err = warc.ReadFile(f, path, warc.Options{}, func(r warc.Record) error {
		if r.Skip != "" || !strings.HasSuffix(r.TargetURI, "/policies/privacy/") {
			return nil
		}
		text, _, err := PayloadText(r.Payload, r.MIMEType())
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(text), "\n") {
			if strings.HasPrefix(line, "A cookie is a piece of data") {
				para = line
			}
		}
		return nil
	})
	if err != nil || para == "" {
		t.Fatalf("no cookie paragraph in %s (%v)", path, err)
	}
	return "<div><p>" + html.EscapeString(para) + "</p></div>"
}

// afterFirstP inserts block right after the first "</p>" of page after
// the first occurrence of from ("" for the page's first "</p>", where the
// issue measured an English note on the multilingual gold set).
func afterFirstP(t testing.TB, page []byte, from, block string) []byte {
	k := bytes.Index(page, []byte(from))
	i := bytes.Index(page[max(k, 0):], []byte("</p>"))
	if k < 0 || i < 0 {
		t.Fatalf("page has no </p> after %q", from)
	}
	i += k + len("</p>")
	return append(append(append([]byte{}, page[:i]...), block...), page[i:]...)
}

// blocksByHash indexes blocks by their hash.
func blocksByHash(bs []Block) map[uint64]Block {
	m := map[uint64]Block{}
	for _, b := range bs {
		m[b.Hash] = b
	}
	return m
}

// noticeOnPage extracts page with and without notice and checks that the
// page is reported in lang both times, that every block it has without the
// notice is there with the notice, in the same language and with the same
// signatures, and that the notice's block is signed in English. The notice
// goes after the first "</p>" after from (afterFirstP). It returns
// the number of the page's own blocks.
func noticeOnPage(t *testing.T, e *Extractor, name string, page []byte, ct, from, notice, lang string) int {
	t.Helper()
	clean, st, err := e.ExtractPayloadBlocks(page, ct)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	with, stn, err := e.ExtractPayloadBlocks(afterFirstP(t, page, from, notice), ct)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if st.Extract.Lang != lang || stn.Extract.Lang != lang {
		t.Errorf("%s: language %q, with the English notice %q; want %q", name, st.Extract.Lang, stn.Extract.Lang, lang)
	}
	got := blocksByHash(with)
	for _, b := range clean {
		w, ok := got[b.Hash]
		switch {
		case !ok:
			t.Errorf("%s: block %x (%s) lost with the notice", name, b.Hash, b.Lang)
		case w.Lang != b.Lang || !equalVectors(w.Vec, b.Vec):
			t.Errorf("%s: block %x signed in %s (%d signatures) with the notice, in %s (%d) without", name, b.Hash, w.Lang, w.Vec.Len(), b.Lang, b.Vec.Len())
		}
		delete(got, b.Hash)
	}
	n, _, _ := PayloadText([]byte(notice), "text/html")
	if w, ok := got[BlockHash(n)]; !ok || w.Lang != "en" || len(got) != 1 {
		t.Errorf("%s: the notice's block %+v, new blocks %d; want one, signed in en", name, w, len(got))
	}
	if t.Failed() {
		return 0
	}
	return len(clean)
}

// Languages per block: a real English notice (no markup cue, realNotice) inserted
// into a real German article does not change the page's language, the
// German blocks keep their German signatures, and the notice is signed in
// English, so that it shares no signature with the article and the
// shared-block rule can drop it. The articles, from the multilingual gold
// set: the Debian Administrator's Handbook's chapter on the Apache web
// server (GPL-2+), with the notice after the page's first paragraph (where
// notices often sit); with one language per page it was identified as
// English and kept 70 of its 563 signatures. And heise.de's "1Password für Mac
// generiert Einmal-Passwörter" (its untouched original, a Mozilla
// Readability test page) with the notice after the article's first
// paragraph.
func TestEnglishNoticeOnGermanArticle(t *testing.T) {
	pages := readPagesOf(t, filepath.Join(sharedDir, "goldset-ml", "gold.warc.gz"), 0, func(p page) bool {
		return strings.HasSuffix(p.URI, "/de-DE/stable/sect.http-web-server.html") ||
			strings.Contains(p.URI, "heise.de/mac-and-i/meldung/1Password-fuer-Mac")
	})
	if len(pages) != 2 {
		t.Fatalf("%d pages, want the two articles", len(pages))
	}
	e := mustExtractor(t)
	notice := realNotice(t)
	for _, p := range pages {
		from := ""
		if strings.Contains(p.URI, "heise.de") {
			from = "<article" // the first </p> of the page is in its banner, whose text the markup rule drops
		}
		if n := noticeOnPage(t, e, p.URI, p.Body, p.ContentType, from, notice, "de"); n < 3 {
			t.Errorf("%s: %d blocks with signatures, want the article's paragraphs", p.URI, n)
		}
	}
}

// The same on a real Dutch page in testdata (a hotel page of
// catalogue.horse21.nl in the Wayback sample, copycat, MIT): its Dutch
// paragraph keeps its Dutch signatures next to the English notice.
func TestEnglishNoticeOnDutchPage(t *testing.T) {
	path := filepath.Join("..", "testdata", "copycat__snapshot-wayback-topic-02.warc.gz")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e := mustExtractor(t)
	notice := realNotice(t)
	found := 0
	err = warc.ReadFile(f, path, warc.Options{}, func(r warc.Record) error {
		if r.Skip != "" || !strings.HasSuffix(r.TargetURI, "horse21.nl/aruba+hotels/oranjestad+hotels/the+aruban+resort+and+casino") {
			return nil
		}
		found++
		if n := noticeOnPage(t, e, r.TargetURI, r.Payload, r.MIMEType(), "", notice, "nl"); n < 1 {
			t.Errorf("%s: no block with signatures", r.TargetURI)
		}
		return nil
	})
	if err != nil || found != 1 {
		t.Fatalf("%d horse21 pages (%v), want 1", found, err)
	}
}

// Each block is signed in its own language when its words say so
// clearly, else in the page's (langid.go): a German page with an English
// notice paragraph signs the notice in English, exactly as the same
// paragraph alone, and its German paragraphs in German, exactly as alone;
// a line of names with one English stopword (a menu that reached the
// block length) is too weak to leave the page's language.
func TestBlockLanguages(t *testing.T) {
	de1 := "Die Stadt hat am Montag beschlossen, dass der neue Bahnhof bis zum Jahr 2030 gebaut wird, und die Bürger können ihre Meinung dazu noch bis zum Ende des Monats sagen."
	de2 := "Der Bürgermeister sagte, das Projekt sei für die Region von großer Bedeutung, weil die alten Gleise seit Jahren nicht mehr den Anforderungen des Verkehrs entsprechen."
	notice := "We use cookies on this website to give you the best possible experience, and you can change your settings at any time in the privacy policy of the site."
	menu := "Start Politik Wirtschaft Sport Kultur Wissen Reise Auto Digital Video Podcast Newsletter Abo Login Suche Archiv Impressum Datenschutz Kontakt Hilfe the"
	e := mustExtractor(t)
	page, st := e.Extract([]byte(de1 + "\n" + notice + "\n" + menu + "\n" + de2 + "\n"))
	if st.Lang != "de" || st.Blocks != 4 || st.LangBlocks != 1 {
		t.Fatalf("page: language %q, %d blocks, %d in another language; want de, 4, 1 (the notice)", st.Lang, st.Blocks, st.LangBlocks)
	}
	var union []uint64
	for _, part := range []struct{ text, lang string }{{de1, "de"}, {notice, "en"}, {de2, "de"}} {
		v, pst := e.Extract([]byte(part.text))
		if pst.Lang != part.lang || v.Len() == 0 {
			t.Fatalf("%.30q… alone: language %q, %d signatures; want %s and some", part.text, pst.Lang, v.Len(), part.lang)
		}
		if part.lang == "en" && pst.Signatures != st.LangSignatures {
			t.Errorf("notice: %d signatures alone, %d in another language on the page", pst.Signatures, st.LangSignatures)
		}
		union = append(union, v.Hashes...)
	}
	if want := NewVector(union); !slices.Equal(page.Hashes, want.Hashes) {
		t.Errorf("page signatures %d, the paragraphs' alone %d: want the same hashes", len(page.Hashes), len(want.Hashes))
	}
}

// TestLanguageDeterministic: a close call settled by whatlanggo gives the
// same language on every call. whatlanggo breaks a tie between its two
// nearest languages in map order; "e\"e" ties, and before ties fell back to
// the vote's leader it came out "en" or "es" from one call to the next.
func TestLanguageDeterministic(t *testing.T) {
	e := mustExtractor(t)
	for _, text := range []string{"e\"e", "a e o", "la de", "die la"} {
		seen := map[string]int{}
		for range 100 {
			_, st, err := e.ExtractPayloadBlocks([]byte(text), "text/html")
			if err != nil {
				t.Fatal(err)
			}
			seen[st.Extract.Lang]++
		}
		if len(seen) != 1 {
			t.Errorf("%q: languages %v over 100 calls", text, seen)
		}
	}
}

// TestWordTableFind: the scan's open-addressed lookup finds every word of
// the table with its entry (auto mode and a forced language), and no
// other token: prefixes, extensions and upper case of its words, and the
// words of a real page.
func TestWordTableFind(t *testing.T) {
	for _, e := range []*Extractor{mustExtractor(t), mustExtractor(t, WithLanguage("de"))} {
		tab := e.table
		if len(tab.words) < 100 || len(tab.fps) < 2*len(tab.words) || len(tab.slots) != len(tab.fps) {
			t.Fatalf("%d words in %d slots", len(tab.words), len(tab.fps))
		}
		check := func(w string) {
			k, ok := tab.find(wordHash([]byte(w)), []byte(w))
			wk, wok := tab.words[w]
			if ok != wok || k != wk {
				t.Fatalf("find(%q) = %d %v, the map %d %v", w, k, ok, wk, wok)
			}
		}
		for w := range tab.words {
			check(w)
			check(w[:len(w)-1])
			check(w + "s")
			check(strings.ToUpper(w))
		}
		Tokenize([]byte(paperSentence+" Die Katze und der Hund 日本語のテキスト"), func(tok []byte) { check(string(tok)) })
		check("")
	}
}
