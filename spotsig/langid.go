package spotsig

import (
	"bytes"
	"sync"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
)

// Language modes besides a language code (WithLanguage).
const (
	// LanguageAuto identifies each document's language from its text
	// (DetectLanguage) and takes that language's stopwords and spot set.
	// The default.
	LanguageAuto = "auto"
	// LanguageUnknown is the language reported for a document whose
	// language is not identified, or is one without embedded data: its
	// spot signatures are taken with the data of DefaultLanguage and tagged
	// "und", so they only match other such documents.
	LanguageUnknown = "und"
)

// Sampling for DetectLanguage. Lines shorter than langMinLine bytes
// (menus, buttons, bylines) are passed over; at most langScanBytes bytes of
// lines are looked at, and at most langSampleBytes bytes of the lines in the
// dominant script go to the identifier, so the cost per document is bounded
// whatever its length.
const (
	langMinLine     = 64
	langScanBytes   = 16 << 10
	langSampleBytes = 1 << 10
)

// Script classes DetectLanguage weighs by letter bytes.
const (
	scriptNone = iota
	scriptLatin
	scriptCyrillic
	scriptGreek
	scriptArabic
	scriptHebrew
	scriptDevanagari
	scriptCJK // Han, kana
	scriptHangul
	scriptThai
	scriptOther
	numScripts
)

func scriptOf(r rune) int {
	switch {
	case r < 0x80:
		if r|0x20 >= 'a' && r|0x20 <= 'z' {
			return scriptLatin
		}
		return scriptNone
	case r >= 0xc0 && r <= 0x24f && r != 0xd7 && r != 0xf7:
		return scriptLatin
	case r >= 0x370 && r <= 0x3ff:
		return scriptGreek
	case r >= 0x400 && r <= 0x52f:
		return scriptCyrillic
	case r >= 0x590 && r <= 0x5ff:
		return scriptHebrew
	case r >= 0x600 && r <= 0x6ff || r >= 0x750 && r <= 0x77f:
		return scriptArabic
	case r >= 0x900 && r <= 0x97f:
		return scriptDevanagari
	case r >= 0xe00 && r <= 0xe7f:
		return scriptThai
	case r >= 0x1100 && r <= 0x11ff || r >= 0xac00 && r <= 0xd7af:
		return scriptHangul
	case isIdeographic(r):
		return scriptCJK
	case r < 0x2000 || r >= 0x2c00:
		return scriptOther
	}
	return scriptNone // punctuation, symbols
}

// dominantScript returns the script class of line with the most letter
// bytes (UTF-8 bytes, so a kanji weighs three Latin letters, about a word's
// share of text), and that byte count.
func dominantScript(line []byte) (int, int) {
	var n [numScripts]int
	for i := 0; i < len(line); {
		c := line[i]
		if c < utf8.RuneSelf {
			n[scriptOf(rune(c))]++
			i++
			continue
		}
		r, size := utf8.DecodeRune(line[i:])
		n[scriptOf(r)] += size
		i += size
	}
	best := scriptNone
	for s := scriptLatin; s < numScripts; s++ {
		if n[s] > n[best] || best == scriptNone && n[s] > 0 {
			best = s
		}
	}
	return best, n[best]
}

var (
	langIDOnce    sync.Once
	langIDOptions whatlanggo.Options
)

// whatlangCode maps whatlanggo's ISO 639-1 codes to the folder names of
// spotsig/lang where they differ (Norwegian Bokmål is "no" there).
var whatlangCode = map[string]string{"nb": "no"}

func langIDWhitelist() whatlanggo.Options {
	langIDOnce.Do(func() {
		have := map[string]bool{}
		for _, c := range Languages() {
			have[c] = true
		}
		langIDOptions.Whitelist = map[whatlanggo.Lang]bool{}
		for l := range whatlanggo.Langs {
			c := l.Iso6391()
			if m, ok := whatlangCode[c]; ok {
				c = m
			}
			if have[c] {
				langIDOptions.Whitelist[l] = true
			}
		}
	})
	return langIDOptions
}

// DetectLanguage identifies the language of a document's text and returns
// the ISO 639-1 code of one of Languages(), or LanguageUnknown. The text is
// sampled (lines of at least 64 bytes, the first 16 KiB of them): the
// script with the most letter bytes over those lines wins, and up to 1 KiB
// of the lines written mainly in it go to the trigram identifier of
// github.com/abadojack/whatlanggo, restricted to the languages that have
// embedded data (Han without kana is Chinese, with kana Japanese). A text
// without such lines is sampled from its start. Pages that mix scripts (a
// Japanese manual quoting English commands) so get the language of their
// prose. Cost is bounded per document (docs/benchmarks.md).
func DetectLanguage(text []byte) string {
	var bytesOf [numScripts]int
	scanned := 0
	forEachLine(text, func(line []byte) bool {
		if len(line) < langMinLine {
			return true
		}
		s, n := dominantScript(line)
		bytesOf[s] += n
		scanned += len(line)
		return scanned < langScanBytes
	})
	var sample []byte
	if scanned == 0 {
		sample = text[:min(len(text), langSampleBytes)]
	} else {
		best := scriptNone
		for s := scriptLatin; s < numScripts; s++ {
			if bytesOf[s] > bytesOf[best] {
				best = s
			}
		}
		sample = make([]byte, 0, langSampleBytes+256)
		forEachLine(text, func(line []byte) bool {
			if len(line) < langMinLine {
				return true
			}
			if s, _ := dominantScript(line); s == best {
				sample = append(sample, line...)
				sample = append(sample, '\n')
			}
			return len(sample) < langSampleBytes
		})
	}
	info := whatlanggo.DetectWithOptions(string(sample), langIDWhitelist())
	if info.Lang < 0 {
		return LanguageUnknown
	}
	c := info.Lang.Iso6391()
	if m, ok := whatlangCode[c]; ok {
		c = m
	}
	if c == "" {
		return LanguageUnknown
	}
	return c
}

// forEachLine calls fn for each '\n'-separated line of text until fn
// returns false.
func forEachLine(text []byte, fn func(line []byte) bool) {
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			fn(text)
			return
		}
		if !fn(text[:i]) {
			return
		}
		text = text[i+1:]
	}
}
