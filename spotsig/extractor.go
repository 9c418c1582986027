package spotsig

import (
	"fmt"
	"slices"
	"sync"

	"github.com/ndd-beam/ndd-beam/internal/hashx"
)

// The Extractor and its per-language data: for each language the spot set
// A = {a_j(d_j, c_j)} of antecedents with their spot distance and chain
// length (§3.1), hashed once into the prefix of its signatures, and the
// stopwords that chains skip (§3), built by NewExtractor into the word
// table the scan looks tokens up in; and the accessors that report them.

// Extractor turns plain text into spot signatures (paper §3). It holds
// immutable per-language spot sets and stopword lists, so one Extractor is
// safe for concurrent use by any number of goroutines (per-call scratch
// buffers come from a sync.Pool).
type Extractor struct {
	cfg     settings
	fixed   *langData  // the forced language, or the LanguageUnknown fallback in auto mode
	table   *wordTable // every language's words; auto mode: Languages() then the fallback
	auto    bool       // LanguageAuto: languages identified per page and block
	scratch sync.Pool
}

// langData is one language's spot set and stopwords in the form the scan
// uses.
type langData struct {
	tag    string             // hashed into every signature: the language code, or LanguageUnknown
	spots  []Antecedent       // the spot set, normalized, in spec order
	words  map[string]int32   // token -> wordStop, or index into groups (antecedents)
	groups [][]antecedentSpec // per antecedent word, its (d, c) specs
}

type antecedentSpec struct {
	word     string
	distance int
	chain    int
	prefix   uint64 // FNV-1a state after hashing "<language>/<word>"
}

const (
	wordContent = -2 // not in the map: a content word (non-stopword)
	wordStop    = -1 // stopword that is not an antecedent
)

// NewExtractor returns an Extractor with the defaults: the language of
// each text block of a document identified from its words and the
// document's from its main content (LanguageAuto, langid.go), and each
// block signed with its language's embedded data lang/<code>/ (stopwords and spot set;
// for English the paper's §5.3.2 set: SMART stopwords, articles and
// flexions of be/can/will/have/do as antecedents), spot distance
// DefaultDistance and chain length DefaultChain, spot distance counted in
// tokens as on slide 12, and the caps DefaultMaxTokens and
// DefaultMaxSignatures. Options change any of these; a spot set or
// stopword list given as an option replaces the data of the forced
// language, or in auto mode that of DefaultLanguage (and the fallback).
// Antecedents always count as stopwords for chaining. The error wraps
// ErrBadOption or ErrSpotSet, or names an unknown language.
func NewExtractor(opts ...Option) (*Extractor, error) {
	cfg, err := newSettings(opts)
	if err != nil {
		return nil, err
	}
	e := &Extractor{cfg: cfg, auto: cfg.lang == LanguageAuto}
	var data []*langData
	if e.auto {
		for _, code := range Languages() {
			d, err := newLangData(&cfg, code, code)
			if err != nil {
				return nil, err
			}
			data = append(data, d)
		}
		if e.fixed, err = newLangData(&cfg, LanguageUnknown, DefaultLanguage); err != nil {
			return nil, err
		}
	} else if e.fixed, err = newLangData(&cfg, cfg.lang, cfg.lang); err != nil {
		return nil, err
	}
	e.table = newWordTable(append(data, e.fixed), e.auto)
	e.scratch.New = func() any { return new(scratch) }
	return e, nil
}

// newLangData builds the data of language code, tagged tag in the hashes;
// the options' spot set and stopwords replace code's own for the language
// they concern (see NewExtractor).
func newLangData(cfg *settings, tag, code string) (*langData, error) {
	custom := code == cfg.lang || cfg.lang == LanguageAuto && code == DefaultLanguage
	spots := cfg.spotSet
	if !custom || !cfg.spotSetSet {
		var err error
		if spots, err = DefaultSpotSet(code); err != nil {
			return nil, err
		}
	}
	if len(spots) == 0 {
		return nil, fmt.Errorf("%w: empty spot set", ErrSpotSet)
	}
	stop := cfg.stopwords
	if !custom || !cfg.stopSet {
		var err error
		if stop, err = Stopwords(code); err != nil {
			return nil, err
		}
	}
	if custom {
		stop = append(slices.Clip(stop), cfg.extraStop...)
	}
	d := &langData{tag: tag, words: map[string]int32{}}
	for _, w := range stop {
		if t, ok := singleToken(w); ok {
			d.words[t] = wordStop
		}
	}
	prefix := hashx.FNVAdd(hashx.FNVAdd(hashx.FNVOffset, []byte(tag)), []byte{'/'})
	groupOf := map[string]int32{}
	for _, a := range spots {
		if err := a.validate(); err != nil {
			return nil, err
		}
		t, ok := singleToken(a.Word)
		if !ok {
			return nil, fmt.Errorf("%w: antecedent %q (%s) is not one token", ErrSpotSet, a.Word, code)
		}
		a.Word = t
		g, ok := groupOf[t]
		if !ok {
			g = int32(len(d.groups))
			groupOf[t] = g
			d.groups = append(d.groups, nil)
			d.words[t] = g
		}
		d.groups[g] = append(d.groups[g], antecedentSpec{
			word: t, distance: a.Distance, chain: a.Chain,
			prefix: hashx.FNVAdd(prefix, []byte(t)),
		})
		d.spots = append(d.spots, a)
	}
	return d, nil
}

// singleToken returns the token form of w if Tokenize makes exactly one
// token of it.
func singleToken(w string) (string, bool) {
	t := tokenizer{text: []byte(w)}
	tok, ok := t.next()
	if !ok {
		return "", false
	}
	s := string(tok)
	if _, more := t.next(); more {
		return "", false
	}
	return s, true
}

// SpotSet returns a copy of the spot set (normalized words) of the forced
// language, or in auto mode of the fallback (DefaultLanguage's data).
func (e *Extractor) SpotSet() []Antecedent { return slices.Clone(e.fixed.spots) }

// LanguageMode returns LanguageAuto or the forced language code.
func (e *Extractor) LanguageMode() string { return e.cfg.lang }

// SpotSetSizes returns the number of antecedent specs per language the
// Extractor can use (in auto mode every embedded language and
// LanguageUnknown), for the record of a run's configuration.
func (e *Extractor) SpotSetSizes() map[string]int {
	out := map[string]int{}
	for _, d := range e.table.data {
		out[d.tag] = len(d.spots)
	}
	return out
}

// MinBlockTokens returns the minimum block length in effect
// (WithMinBlockTokens; 0 = blocks off, the paper's whole-document chains).
func (e *Extractor) MinBlockTokens() int { return e.cfg.minBlock }

// IsStopword reports whether the (lower-case, tokenized) word is skipped by
// chains of the forced language (in auto mode: of DefaultLanguage): a
// stopword or an antecedent.
func (e *Extractor) IsStopword(word string) bool {
	d := e.fixed
	if e.auto {
		d = e.table.data[e.table.lang(DefaultLanguage)]
	}
	_, ok := d.words[word]
	return ok
}
