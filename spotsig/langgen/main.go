// Command gen writes the language data of package spotsig
// (spotsig/lang/<code>/stopwords.txt and antecedents.txt) from maintained
// stopword and dictionary packages, so that no list is typed by hand. Run it
// with `go generate ./spotsig/` (see spotsig/spotset.go). It is its own
// module so that its sources never become dependencies of the job.
//
// Rule (docs/quality.md, "Multilingual gold set"):
//
//   - Languages written with spaces: the language's stopword list of the
//     bleve analyzers (Lucene's lists: Snowball's function-word lists for
//     da de es fi fr hu it nl no pt ru sv, Savoy's UniNE frequent-word
//     lists for most others), or of github.com/bbalet/stopwords (UniNE and
//     Lucene lists) where bleve has none (lv, sk, th; Thai is written
//     without spaces and its words are matched only where the text has
//     spaces around them). Every word of the list is
//     both a stopword and an antecedent with the default spot distance and
//     chain length: the paper's "full stopword list" spot set (§5.3.2,
//     Fig. 6), which on the English gold set scores as well as the curated
//     set (docs/quality.md, sensitivity table).
//   - Japanese and Chinese: tokens are single characters (spotsig.Tokenize),
//     so stopwords and antecedents are the single-character function words:
//     ja the one-character entries of the Lucene Japanese list (in its
//     frequency order) of github.com/bbalet/stopwords; zh the k = 30 most
//     frequent one-character words of the gse dictionary whose part of
//     speech is a function word (u*, p, c, r, d, f), frequency from that
//     dictionary.
//   - English keeps the paper's curated spot set and the SMART list (not
//     generated).
package main

import (
	"bufio"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"os/exec"
	"regexp"

	_ "github.com/bbalet/stopwords" // its list files are read from the module
	"github.com/blevesearch/bleve/v2/analysis/lang/ar"
	"github.com/blevesearch/bleve/v2/analysis/lang/bg"
	"github.com/blevesearch/bleve/v2/analysis/lang/ca"
	"github.com/blevesearch/bleve/v2/analysis/lang/ckb"
	"github.com/blevesearch/bleve/v2/analysis/lang/cs"
	"github.com/blevesearch/bleve/v2/analysis/lang/da"
	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/el"
	"github.com/blevesearch/bleve/v2/analysis/lang/es"
	"github.com/blevesearch/bleve/v2/analysis/lang/eu"
	"github.com/blevesearch/bleve/v2/analysis/lang/fa"
	"github.com/blevesearch/bleve/v2/analysis/lang/fi"
	"github.com/blevesearch/bleve/v2/analysis/lang/fr"
	"github.com/blevesearch/bleve/v2/analysis/lang/ga"
	"github.com/blevesearch/bleve/v2/analysis/lang/gl"
	"github.com/blevesearch/bleve/v2/analysis/lang/hi"
	"github.com/blevesearch/bleve/v2/analysis/lang/hr"
	"github.com/blevesearch/bleve/v2/analysis/lang/hu"
	"github.com/blevesearch/bleve/v2/analysis/lang/hy"
	"github.com/blevesearch/bleve/v2/analysis/lang/id"
	"github.com/blevesearch/bleve/v2/analysis/lang/it"
	"github.com/blevesearch/bleve/v2/analysis/lang/nl"
	"github.com/blevesearch/bleve/v2/analysis/lang/no"
	"github.com/blevesearch/bleve/v2/analysis/lang/pl"
	"github.com/blevesearch/bleve/v2/analysis/lang/pt"
	"github.com/blevesearch/bleve/v2/analysis/lang/ro"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/bleve/v2/analysis/lang/sv"
	"github.com/blevesearch/bleve/v2/analysis/lang/tr"
	_ "github.com/go-ego/gse" // its dictionary file is read from the module
)

// zhFunctionPOS are the gse (ICTCLAS) part-of-speech tags of function
// words: auxiliaries (u, uj, ul, uz, ud, uv, ug), prepositions (p),
// conjunctions (c), pronouns (r), adverbs (d), localizers (f).
var zhFunctionPOS = map[string]bool{"u": true, "uj": true, "ul": true, "uz": true, "ud": true, "uv": true, "ug": true, "p": true, "c": true, "r": true, "d": true, "f": true}

const zhK = 30

func main() {
	out := "../lang"
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	bleve := map[string][]byte{
		"ar": ar.ArabicStopWords, "bg": bg.BulgarianStopWords, "ca": ca.CatalanStopWords,
		"cs": cs.CzechStopWords, "da": da.DanishStopWords, "de": de.GermanStopWords,
		"el": el.GreekStopWords, "es": es.SpanishStopWords, "fa": fa.PersianStopWords,
		"fi": fi.FinnishStopWords, "fr": fr.FrenchStopWords, "hi": hi.HindiStopWords,
		"hr": hr.CroatianStopWords, "hu": hu.HungarianStopWords, "id": id.IndonesianStopWords,
		"it": it.ItalianStopWords, "nl": nl.DutchStopWords, "no": no.NorwegianStopWords,
		"pl": pl.PolishStopWords, "pt": pt.PortugueseStopWords, "ro": ro.RomanianStopWords,
		"ru": ru.RussianStopWords, "sv": sv.SwedishStopWords, "tr": tr.TurkishStopWords,
		"ckb": ckb.SoraniStopWords, "eu": eu.BasqueStopWords, "ga": ga.IrishStopWords,
		"gl": gl.GalicianStopWords, "hy": hy.ArmenianStopWords,
	}
	for code, b := range bleve {
		write(out, code, "bleve/v2 analysis/lang/"+code+" (Lucene stopword list)", snowballWords(b))
	}
	for _, code := range []string{"lv", "sk", "th"} {
		write(out, code, "github.com/bbalet/stopwords "+code, bbalet(code))
	}
	var ja []string
	for _, w := range bbalet("ja") {
		if utf8.RuneCountInString(w) == 1 {
			ja = append(ja, w)
		}
	}
	write(out, "ja", "github.com/bbalet/stopwords ja (Lucene Japanese list), one-character entries", ja)
	write(out, "zh", fmt.Sprintf("github.com/go-ego/gse dict/zh/s_1.txt: the %d most frequent one-character function words (POS u*, p, c, r, d, f)", zhK), zhFunctionWords())
}

// snowballWords parses a Snowball/Lucene stopword file: '|' starts a
// comment, words are separated by white space.
func snowballWords(b []byte) []string {
	var words []string
	for _, line := range strings.Split(string(b), "\n") {
		if i := strings.IndexAny(line, "|#"); i >= 0 {
			line = line[:i]
		}
		for _, w := range strings.Fields(line) {
			if !strings.HasPrefix(w, "#") {
				words = append(words, strings.ToLower(w))
			}
		}
	}
	return words
}

var bbaletNames = map[string]string{"ja": "japanese", "lv": "latvian", "sk": "slovak", "th": "thai"}

var quoted = regexp.MustCompile(`^\s*"([^"]+)"\s*:`)

// bbalet returns the words of one of github.com/bbalet/stopwords's lists
// in file order. The package keeps them in unexported maps, so the list is
// read from its source file stopwords_<code>.go in the module.
func bbalet(code string) []string {
	path := filepath.Join(modDir("github.com/bbalet/stopwords"), "stopwords_"+code+".go")
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	if !strings.Contains(string(b), "var "+bbaletNames[code]+" ") {
		log.Fatalf("%s: no list %q", path, bbaletNames[code])
	}
	var words []string
	for _, line := range strings.Split(string(b), "\n") {
		if m := quoted.FindStringSubmatch(line); m != nil {
			words = append(words, strings.ToLower(m[1]))
		}
	}
	return words
}

// modDir is the module cache directory of a dependency of this module.
func modDir(mod string) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	if err != nil {
		log.Fatalf("go list -m %s: %v", mod, err)
	}
	return strings.TrimSpace(string(out))
}

func zhFunctionWords() []string {
	path := filepath.Join(modDir("github.com/go-ego/gse"), "data", "dict", "zh", "s_1.txt")
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	type wf struct {
		w string
		f int
	}
	var ws []wf
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := strings.Fields(sc.Text())
		if len(p) < 3 || utf8.RuneCountInString(p[0]) != 1 || !zhFunctionPOS[p[2]] {
			continue
		}
		n, err := strconv.Atoi(p[1])
		if err != nil {
			continue
		}
		ws = append(ws, wf{p[0], n})
	}
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].f > ws[j].f })
	var out []string
	seen := map[string]bool{}
	for _, x := range ws {
		if !seen[x.w] {
			seen[x.w] = true
			out = append(out, x.w)
		}
		if len(out) == zhK {
			break
		}
	}
	return out
}

func write(dir, code, source string, words []string) {
	seen := map[string]bool{}
	var uniq []string
	for _, w := range words {
		if w != "" && !seen[w] && oneWord(w) {
			seen[w] = true
			uniq = append(uniq, w)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, code), 0o755); err != nil {
		log.Fatal(err)
	}
	head := fmt.Sprintf("# Generated by spotsig/lang/gen from %s; do not edit.\n# %d words.\n", source, len(uniq))
	body := strings.Join(uniq, "\n") + "\n"
	for _, name := range []string{"stopwords.txt", "antecedents.txt"} {
		if err := os.WriteFile(filepath.Join(dir, code, name), []byte(head+body), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// oneWord reports whether spotsig.Tokenize makes one token of w: letters,
// digits and combining marks, with apostrophes only inside. Other entries
// (hyphenated forms, abbreviations with dots) cannot be antecedents.
func oneWord(w string) bool {
	rs := []rune(w)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
		case r == '\'' && i > 0 && i < len(rs)-1:
		default:
			return false
		}
	}
	return len(rs) > 0
}
