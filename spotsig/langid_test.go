package spotsig

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

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

// Prose written one sentence per line forms one block: its short lines are
// kept as a whole, while the same lines without sentence ends (a menu) are
// skipped as short blocks.
func TestSentenceLinesOneBlock(t *testing.T) {
	prose := "The tool checks whether the title of the document is set.\n" +
		"It checks whether the language of the document is set.\n" +
		"It checks all images for an alternative text.\n" +
		"It checks the contrast between the text and the background.\n"
	menu := strings.ReplaceAll(prose, ".\n", "\n")
	e := mustExtractor(t, WithLanguage("en"), WithMinBlockTokens(20))
	vp, sp := e.Extract([]byte(prose))
	vm, sm := e.Extract([]byte(menu))
	if vp.Len() == 0 || sp.Blocks != 1 {
		t.Errorf("prose: %d signatures in %d blocks, want some in 1 block", vp.Len(), sp.Blocks)
	}
	if vm.Len() != 0 || sm.BlocksSkipped != 4 {
		t.Errorf("menu lines: %d signatures, %d blocks skipped; want 0 and 4", vm.Len(), sm.BlocksSkipped)
	}
}
