package spotsig

import (
	"unicode"
	"unicode/utf8"
)

// Tokenize splits UTF-8 text into lower-cased words and calls fn for each,
// in text order. This is the token stream of §3 ("a single pass over an
// incoming token stream").
//
// A word is a maximal run of Unicode letters (L*) and decimal digits (Nd);
// combining marks (M*) inside a word stay in it. Everything else separates
// words. Words are lower-cased with unicode.ToLower, rune by rune.
//
// Apostrophes: U+0027 ('), U+2019 (’) and U+02BC (ʼ) between two word
// characters stay inside the word and are written as U+0027, so "Don’t" and
// "don't" are the same token "don't" (a SMART stopword); an apostrophe at
// the start or end of a word, or doubled, separates words ("'90s" -> "90s",
// "players'" -> "players").
// Words are lower-cased with the simple case mapping (İ -> i).
//
// The soft hyphen U+00AD is ignored ("infor\u00admation" is one word);
// zero-width (non-)joiners U+200C/U+200D inside a word stay in it.
//
// Hyphens (and every other dash) separate words: "week-long" -> "week",
// "long". Invalid UTF-8 bytes separate words like U+FFFD does.
//
// fn receives a slice into a buffer that Tokenize reuses for the next word:
// fn must not retain it (copy it if needed). Tokenize allocates only that one
// buffer per call, never per token.
func Tokenize(text []byte, fn func(tok []byte)) {
	t := tokenizer{text: text, buf: make([]byte, 0, 64)}
	for {
		tok, ok := t.next()
		if !ok {
			return
		}
		fn(tok)
	}
}

// ASCII character classes for the tokenizer's fast path.
const (
	clsSep   = 0
	clsUpper = 1
	clsWord  = 2 // lower-case letter or digit
	clsApos  = 3
)

var asciiClass = func() (t [128]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = clsWord
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = clsWord
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = clsUpper
	}
	t['\''] = clsApos
	return t
}()

// tokenizer is the pull form of Tokenize: next returns the next word in buf.
type tokenizer struct {
	text []byte
	pos  int
	buf  []byte
}

func isApostrophe(r rune) bool { return r == '\u2019' || r == '\u02bc' }

// next returns the next lower-cased word (valid until the following call)
// and true, or nil and false at the end of the text.
func (t *tokenizer) next() ([]byte, bool) {
	text := t.text
	buf := t.buf[:0]
	apos := false // an apostrophe is pending after buf's last word character
	i := t.pos
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			switch asciiClass[c] {
			case clsWord:
				if apos {
					buf = append(buf, '\'')
					apos = false
				}
				buf = append(buf, c)
				i++
				continue
			case clsUpper:
				if apos {
					buf = append(buf, '\'')
					apos = false
				}
				buf = append(buf, c+('a'-'A'))
				i++
				continue
			case clsApos:
				i++
				if len(buf) > 0 && !apos {
					apos = true
					continue
				}
			default:
				i++
			}
			// Separator (or an apostrophe that cannot be inside a word).
			if len(buf) > 0 {
				t.pos, t.buf = i, buf
				return buf, true
			}
			apos = false
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			// invalid byte: separator
		case r == '\u00ad': // soft hyphen: invisible, not a break
			i += size
			continue
		case (r == '\u200c' || r == '\u200d') && len(buf) > 0 && !apos: // ZWNJ, ZWJ join inside a word
			buf = utf8.AppendRune(buf, r)
			i += size
			continue
		case isApostrophe(r): // before IsLetter: U+02BC is a letter (Lm)
			if len(buf) > 0 && !apos {
				apos = true
				i += size
				continue
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if apos {
				buf = append(buf, '\'')
				apos = false
			}
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			i += size
			continue
		case unicode.IsMark(r) && len(buf) > 0 && !apos:
			buf = utf8.AppendRune(buf, r)
			i += size
			continue
		}
		i += size
		if len(buf) > 0 {
			t.pos, t.buf = i, buf
			return buf, true
		}
		apos = false
	}
	t.pos, t.buf = i, buf
	if len(buf) > 0 {
		return buf, true
	}
	return nil, false
}
