package spotsig

import (
	"bytes"
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/ndd-beam/ndd-beam/warc"
)

func tokens(text string) []string {
	var out []string
	Tokenize([]byte(text), func(tok []byte) { out = append(out, string(tok)) })
	return out
}

func TestTokenize(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"   ,;!  ", nil},
		{"At a rally, Obama", []string{"at", "a", "rally", "obama"}},
		// Apostrophes inside a word stay (normalized to U+0027).
		{"Don’t don't DON'T donʼt", []string{"don't", "don't", "don't", "don't"}},
		// At the edges or doubled they separate.
		{"'90s players' rock''n", []string{"90s", "players", "rock", "n"}},
		// Hyphens and dashes separate.
		{"week-long state–of—the‐art", []string{"week", "long", "state", "of", "the", "art"}},
		// Letters and digits of any script, lower-cased rune by rune.
		{"Ünïcödé ÆTHER straße İstanbul 2008 ΣΟΦΊΑ", []string{"ünïcödé", "æther", "straße", "istanbul", "2008", "σοφία"}},
		// Combining marks stay in the word (decomposed é, Devanagari vowel sign).
		{"cafe\u0301 हिन्दी", []string{"cafe\u0301", "हिन्दी"}},
		// Non-breaking space, invalid UTF-8 and U+FFFD separate words.
		{"a\u00a0b\xffc\ufffdd", []string{"a", "b", "c", "d"}},
		// Soft hyphen is invisible; ZWNJ stays inside a (Persian) word;
		// zero-width space separates.
		{"infor\u00admation می\u200cخواهم a\u200bb", []string{"information", "می\u200cخواهم", "a", "b"}},
		{"3.5 x_y a/b", []string{"3", "5", "x", "y", "a", "b"}},
	}
	for _, c := range cases {
		if got := tokens(c.text); !slices.Equal(got, c.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestTokenizeNoAllocPerToken(t *testing.T) {
	text := []byte("The quick brown fox jumps over the lazy dog, doesn’t it? ")
	for i := 0; i < 6; i++ {
		text = append(text, text...)
	}
	n := 0
	allocs := testing.AllocsPerRun(20, func() {
		Tokenize(text, func(tok []byte) { n += len(tok) })
	})
	if allocs > 1 {
		t.Fatalf("Tokenize made %.0f allocations for %d bytes; want at most 1 (its buffer)", allocs, len(text))
	}
}

// FuzzTokenize checks the token invariants on arbitrary bytes: every token
// is non-empty valid UTF-8 made of word characters (letters, digits, marks,
// inner apostrophes, joiners, the kana voicing marks), and re-tokenizing a
// token gives itself.
func FuzzTokenize(f *testing.F) {
	f.Add([]byte(paperSentence))
	f.Add([]byte("Don’t 'quote' state-of-the-art ΣΟΦΊΑ cafe\u0301 \xff\xfe"))
	f.Fuzz(func(t *testing.T, text []byte) {
		Tokenize(text, func(tok []byte) {
			if len(tok) == 0 || !utf8.Valid(tok) || tok[0] == '\'' || tok[len(tok)-1] == '\'' {
				t.Fatalf("bad token %q", tok)
			}
			for _, r := range string(tok) {
				if !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '\'' || r == '\u200c' || r == '\u200d' || unicode.IsSymbol(r) && isIdeographic(r)) {
					t.Fatalf("token %q holds %U", tok, r)
				}
			}
			if again := tokens(string(tok)); len(again) != 1 || again[0] != string(tok) {
				t.Fatalf("Tokenize(%q) = %q, not itself", tok, again)
			}
		})
		if got, want := countWords(text, 1<<30), tokenCount(text, 1<<30); got != want {
			t.Fatalf("countWords(%q) = %d, the tokenizer's %d", text, got, want)
		}
	})
}

// tokenCount is countWords as it was: the tokenizer's words, at most
// limit.
func tokenCount(text []byte, limit int) int {
	t := tokenizer{text: text}
	n := 0
	for n < limit {
		if _, ok := t.next(); !ok {
			break
		}
		n++
	}
	return n
}

// TestCountWordsTokenizer: countWords, which walks the text without
// writing its words, counts what the tokenizer returns, whole and under
// limits, on crafted edge cases and on every line of the real pages'
// texts (testdata, eval/realpages and the shared WARCs).
func TestCountWordsTokenizer(t *testing.T) {
	check := func(what string, text []byte) {
		t.Helper()
		for _, limit := range []int{1 << 30, 0, 1, 2, 10, 11} {
			if got, want := countWords(text, limit), tokenCount(text, limit); got != want {
				t.Fatalf("%s %q, limit %d: countWords %d, tokenizer %d", what, text, limit, got, want)
			}
		}
	}
	for _, s := range []string{"", "a", " a ", "don't", "don''t", "'a'", "a'", "rock'n'roll", "l’homme", "l’’homme",
		"日本語のテキスト", "word日本", "don'日", "a\u00adb", "a\u200cb", "\u200ca", "a'\u200cb", "cafe\u0301", "\u0301a", "a'\u0301b", "a’\u0301b",
		"a\xffb", "\xff", "ΣΟΦΊΑ σοφία", "a-b_c.d", "x\u02bcy", "x\u02bc\u02bcy", "ʼa", "١٢٣ abc", "a\u30fbb", "ﾊﾝｶｸ"} {
		check("case", []byte(s))
	}
	ex := mustExtractor(t)
	lines := 0
	eachRecord(t, realWARCs(), func(r warc.Record) {
		text, err := ex.MainText(r.Payload, r.ContentType)
		if err != nil {
			return
		}
		check(r.TargetURI, text)
		for _, l := range bytes.Split(text, []byte("\n")) {
			check(r.TargetURI, l)
			lines++
		}
	})
	if lines < 10000 {
		t.Errorf("%d lines checked, want the real pages' (>= 10,000)", lines)
	}
}
