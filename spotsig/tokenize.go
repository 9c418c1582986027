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
// Han ideographs, hiragana and katakana (Chinese and Japanese, written
// without spaces between words) are one token per character: "日本語の本"
// is "日", "本", "語", "の", "本". Their antecedents are the one-character
// function words (particles such as の, auxiliaries such as 的), so a spot
// signature is a particle followed by a chain of characters. Other scripts
// without spaces (Thai, Khmer, Lao, Myanmar) are not segmented: a run of
// their letters is one token.
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

// countWords counts the words of text as Tokenize splits it (so a Han or
// kana character is a word, and a run of punctuation such as a menu's "│"
// separators is none), stopping at limit. It is the one word count of the
// page layout: main-content scores (layout.go) and boilerplate region
// lengths (boilerplate.go). Counting white-space separated runs instead
// made a Japanese or Chinese paragraph one word and a menu with
// separators between its links ten, so the menu won the main content.
//
// It walks the text as tokenizer.next does, without writing the words:
// inWord stands for next's non-empty buffer and apos for its pending
// apostrophe (TestCountWordsTokenizer holds the two equal). The layout
// counts every line of every page, about as many words as the scan reads.
func countWords(text []byte, limit int) int {
	n := 0
	inWord, apos := false, false
	for i := 0; i < len(text) && n < limit; {
		c := text[i]
		if c < utf8.RuneSelf {
			switch asciiClass[c] {
			case clsWord, clsUpper:
				inWord, apos = true, false
				i++
				continue
			case clsApos:
				i++
				if inWord && !apos {
					apos = true
					continue
				}
			default:
				i++
			}
			if inWord {
				n++
				inWord = false
			}
			apos = false
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		switch {
		case r == utf8.RuneError && size == 1:
		case r == '\u00ad':
			i += size
			continue
		case (r == '\u200c' || r == '\u200d') && inWord && !apos:
			i += size
			continue
		case isIdeographic(r):
			if inWord {
				n++
			}
			n++
			inWord, apos = false, false
			i += size
			continue
		case isApostrophe(r):
			if inWord && !apos {
				apos = true
				i += size
				continue
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			inWord, apos = true, false
			i += size
			continue
		case unicode.IsMark(r) && inWord && !apos:
			i += size
			continue
		}
		i += size
		if inWord {
			n++
			inWord = false
		}
		apos = false
	}
	if inWord {
		n++
	}
	return max(0, min(n, limit))
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
// end is the byte offset in text where the last word ends (past an
// apostrophe that ended it and is not part of it).
type tokenizer struct {
	text []byte
	pos  int
	end  int
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
				t.pos, t.end, t.buf = i, i-1, buf
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
		case isIdeographic(r):
			// A script written without spaces: every character is a token
			// of its own (see Tokenize), ending the word before it.
			if len(buf) > 0 {
				t.pos, t.end, t.buf = i, i, buf
				return buf, true
			}
			buf = utf8.AppendRune(buf, r)
			t.pos, t.end, t.buf = i+size, i+size, buf
			return buf, true
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
			t.pos, t.end, t.buf = i, i-size, buf
			return buf, true
		}
		apos = false
	}
	t.pos, t.end, t.buf = i, i, buf
	if len(buf) > 0 {
		return buf, true
	}
	return nil, false
}

// isIdeographic reports whether r is a Han ideograph (CJK unified
// ideographs, extension A and the supplementary planes, compatibility
// ideographs), hiragana or katakana (with the phonetic extensions and the
// half-width forms): the characters Tokenize makes one token each. An
// unassigned code point of those blocks is not one (it separates words).
func isIdeographic(r rune) bool {
	return inIdeographicBlock(r) && unicode.IsGraphic(r) // not the blocks' unassigned code points
}

func inIdeographicBlock(r rune) bool {
	switch {
	case r < 0x3040:
		return false
	case r <= 0x30ff: // hiragana, katakana (incl. the prolonged sound mark), not the punctuation ゠ ・
		return r != 0x30a0 && r != 0x30fb
	case r >= 0x31f0 && r <= 0x31ff: // katakana phonetic extensions
		return true
	case r >= 0x3400 && r <= 0x4dbf: // CJK extension A
		return true
	case r >= 0x4e00 && r <= 0x9fff: // CJK unified ideographs
		return true
	case r >= 0xf900 && r <= 0xfaff: // CJK compatibility ideographs
		return true
	case r >= 0xff66 && r <= 0xff9f: // half-width katakana
		return true
	case r >= 0x20000 && r <= 0x3134f: // CJK extensions B–G, compatibility supplement
		return true
	}
	return false
}
