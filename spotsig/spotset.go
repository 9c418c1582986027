package spotsig

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Antecedent is one spot signature specification a(d, c) of §3.1: wherever
// the word Word occurs, a signature is built from a chain of Chain
// non-stopwords at spot distance Distance after it.
type Antecedent struct {
	Word     string // lower-case antecedent, e.g. "the"
	Distance int    // spot distance d >= 1
	Chain    int    // chain length c >= 1
}

// String returns the spec form "word(d,c)".
func (a Antecedent) String() string {
	return a.Word + "(" + strconv.Itoa(a.Distance) + "," + strconv.Itoa(a.Chain) + ")"
}

// ErrSpotSet is wrapped by ParseSpotSet's errors.
var ErrSpotSet = errors.New("spotsig: bad spot set")

// ParseSpotSet parses a spot set A = {a_j(d_j, c_j)} (§3.1) from a spec such
// as "the(2,3),a(2,3),is(3,1)". Entries are separated by commas or newlines;
// a bare word ("the") takes DefaultDistance and DefaultChain; words are
// lower-cased; blank entries and lines starting with '#' are ignored. A
// spec starting with '@' names a file in that same format ("@path"). An
// entry repeated exactly is kept once; one word with different (d,c) gives
// several spot signature types for that antecedent, as in §3.1's "is(3,1)
// and is(2,1)". Errors wrap ErrSpotSet (or are the file's read error); an
// empty set is an error.
func ParseSpotSet(spec string) ([]Antecedent, error) {
	if strings.HasPrefix(spec, "@") {
		b, err := os.ReadFile(spec[1:])
		if err != nil {
			return nil, err
		}
		spec = string(b)
	}
	set, err := parseSpotSet(spec)
	if err != nil {
		return nil, err
	}
	if len(set) == 0 {
		return nil, fmt.Errorf("%w: no antecedents", ErrSpotSet)
	}
	return set, nil
}

func parseSpotSet(spec string) ([]Antecedent, error) {
	var set []Antecedent
	seen := map[Antecedent]bool{}
	for _, line := range strings.Split(spec, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		for _, entry := range splitEntries(line) {
			if entry = strings.TrimSpace(entry); entry == "" {
				continue
			}
			a, err := parseAntecedent(entry)
			if err != nil {
				return nil, err
			}
			if !seen[a] {
				seen[a] = true
				set = append(set, a)
			}
		}
	}
	return set, nil
}

// splitEntries splits a line at the commas outside parentheses.
func splitEntries(line string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, line[start:i])
				start = i + 1
			}
		}
	}
	return append(out, line[start:])
}

func parseAntecedent(entry string) (Antecedent, error) {
	a := Antecedent{Distance: DefaultDistance, Chain: DefaultChain}
	word := entry
	if i := strings.IndexByte(entry, '('); i >= 0 {
		if !strings.HasSuffix(entry, ")") {
			return a, fmt.Errorf("%w: %q: missing ')'", ErrSpotSet, entry)
		}
		word = strings.TrimSpace(entry[:i])
		args := strings.Split(entry[i+1:len(entry)-1], ",")
		if len(args) != 2 {
			return a, fmt.Errorf("%w: %q: want word(d,c)", ErrSpotSet, entry)
		}
		d, err1 := strconv.Atoi(strings.TrimSpace(args[0]))
		c, err2 := strconv.Atoi(strings.TrimSpace(args[1]))
		if err1 != nil || err2 != nil {
			return a, fmt.Errorf("%w: %q: d and c must be integers", ErrSpotSet, entry)
		}
		a.Distance, a.Chain = d, c
	}
	a.Word = strings.ToLower(word)
	if err := a.validate(); err != nil {
		return a, err
	}
	return a, nil
}

func (a Antecedent) validate() error {
	if a.Word == "" || strings.ContainsAny(a.Word, " \t(),:") {
		return fmt.Errorf("%w: antecedent %q is not a single word", ErrSpotSet, a.Word)
	}
	if a.Distance < 1 || a.Chain < 1 {
		return fmt.Errorf("%w: %s: spot distance and chain length must be >= 1", ErrSpotSet, a)
	}
	// A chain longer than this cannot be useful and bounds per-antecedent work.
	if a.Distance > 64 || a.Chain > 64 {
		return fmt.Errorf("%w: %s: spot distance and chain length must be <= 64", ErrSpotSet, a)
	}
	return nil
}

//go:generate sh -c "cd langgen && go run ."

//go:embed lang
var embeddedLang embed.FS

// langFS is where language data is read from: the embedded lang/ folder
// (a test swaps in another file system to show that a new folder is all a
// language needs).
var langFS fs.FS = embeddedLang

// Languages returns the codes of the embedded language data (the folder
// names under spotsig/lang/), sorted. A language is added by adding a folder
// with stopwords.txt and antecedents.txt; no code change is needed.
func Languages() []string {
	ents, _ := fs.ReadDir(langFS, "lang")
	var codes []string
	for _, e := range ents {
		if e.IsDir() {
			codes = append(codes, e.Name())
		}
	}
	sort.Strings(codes)
	return codes
}

// DefaultSpotSet returns the embedded default spot set of a language
// (lang/<code>/antecedents.txt; for "en" the paper's best set of §5.3.2,
// articles and flexions of be, can, will, have, do, each with
// DefaultDistance and DefaultChain). The result is a fresh slice.
func DefaultSpotSet(lang string) ([]Antecedent, error) {
	b, err := fs.ReadFile(langFS, path.Join("lang", lang, "antecedents.txt"))
	if err != nil {
		return nil, fmt.Errorf("spotsig: no antecedents for language %q (have %v)", lang, Languages())
	}
	return ParseSpotSet(string(b))
}

// Stopwords returns the embedded stopword list of a language
// (lang/<code>/stopwords.txt; for "en" the SMART list cited in §5.3.2),
// lower-cased, in file order, without duplicates.
func Stopwords(lang string) ([]string, error) {
	b, err := fs.ReadFile(langFS, path.Join("lang", lang, "stopwords.txt"))
	if err != nil {
		return nil, fmt.Errorf("spotsig: no stopwords for language %q (have %v)", lang, Languages())
	}
	return parseWordList(string(b)), nil
}

func parseWordList(s string) []string {
	var words []string
	seen := map[string]bool{}
	for _, line := range strings.Split(s, "\n") {
		w := strings.ToLower(strings.TrimSpace(line))
		if w == "" || strings.HasPrefix(w, "#") || seen[w] {
			continue
		}
		seen[w] = true
		words = append(words, w)
	}
	return words
}
