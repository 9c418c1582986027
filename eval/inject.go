package eval

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"math"
)

// An Injection inserts one shared block of boilerplate HTML into a share of
// a gold set's pages: the same ~120 words on many unrelated
// pages, as cookie notices, archive replay banners and licence footers are
// on a real crawl. A page is chosen when the FNV-1a 64 hash of Seed and its
// record ID, read as a fraction of 2^64, is below Fraction, so the choice
// is deterministic, independent of the WARC order, and the pages chosen at
// 5 % are among those chosen at 30 %. The block goes right before the last
// "</body>" (ASCII, any case) of the payload, or with AfterFirstP right
// after its first "</p>", where a real notice often sits: often inside
// the page's main content, after its first paragraph, or in its header. A
// payload without that tag (a UTF-16 page; for "</body>" none in the gold
// sets) is left alone and not counted as injected.
type Injection struct {
	Name        string  // table row, e.g. "en marked, 30 %"
	Fraction    float64 // share of pages, in [0, 1]
	Seed        uint64
	HTML        string // the block, e.g. BoilerplateMarked
	Lang        string // language of the block's text (ISO 639-1), e.g. "en"
	AfterFirstP bool   // after the first </p> instead of before </body>
}

// DefaultInjectionSeed is the seed of the boilerplate table of make eval.
const DefaultInjectionSeed = 20260110

// The injected texts, written for this harness (not taken from any site):
// a cookie notice and an archive replay banner, 121 words in two
// paragraphs of natural language full of antecedents (the, a, is, are,
// have, will, can, …), so each yields spot signatures like an article
// paragraph does; and the same two paragraphs in German, the
// non-English notice an English page carries on a German or Swiss site
// (languages per block).
const (
	cookieText = `We use cookies and similar technologies on this website to give you the best possible experience. ` +
		`Some of them are essential for the site to work, while others help us to understand how the pages are used, ` +
		`to remember your choices and to show you content that is relevant to you. You can change your settings at any ` +
		`time, and you will find more details in the privacy policy.`
	archiveText = `This page is a capture of a web page as it was seen by an archive crawler on the date shown above. ` +
		`The archive has been preserving copies of public web pages since the late nineties, and the captures are ` +
		`added to the collection after an embargo period. Links on this page will take you to other captures where ` +
		`they are available.`
	cookieTextDE = `Wir verwenden Cookies und ähnliche Technologien auf dieser Website, um Ihnen das bestmögliche ` +
		`Erlebnis zu bieten. Einige davon sind für den Betrieb der Seite notwendig, während andere uns helfen zu ` +
		`verstehen, wie die Seiten genutzt werden, Ihre Auswahl zu speichern und Ihnen Inhalte zu zeigen, die für Sie ` +
		`relevant sind. Sie können Ihre Einstellungen jederzeit ändern und finden weitere Informationen in unserer ` +
		`Datenschutzerklärung.`
	archiveTextDE = `Diese Seite ist eine Aufnahme einer Webseite, wie sie ein Archiv-Crawler an dem oben angegebenen ` +
		`Datum gesehen hat. Das Archiv bewahrt seit den späten neunziger Jahren Kopien öffentlicher Webseiten auf, und ` +
		`die Aufnahmen werden nach einer Sperrfrist in die Sammlung aufgenommen. Links auf dieser Seite führen Sie zu ` +
		`anderen Aufnahmen, sofern diese verfügbar sind.`
)

// BoilerplateMarked is the shared block as such blocks are published: a
// cookie-consent dialog in the markup of a widely used consent library
// (role="dialog", aria-label, class names of its own) with its buttons,
// and a replay banner in a positioned div with an id of its own.
const BoilerplateMarked = `<div role="dialog" aria-live="polite" aria-label="cookieconsent" class="cc-window cc-banner cc-type-opt-in">` +
	`<span class="cc-message">` + cookieText + `</span>` +
	`<div class="cc-compliance"><a class="cc-btn cc-deny">Decline</a><a class="cc-btn cc-allow">Allow cookies</a></div></div>` + "\n" +
	`<div id="replay-toolbar" style="position:fixed;top:0;left:0;width:100%"><div class="toolbar-about">` + archiveText + `</div></div>` + "\n"

// BoilerplatePlain is the same text with no markup cue at all: two
// paragraphs in an anonymous div, indistinguishable by markup from an
// article's paragraphs. Only corpus statistics could tell it apart.
const BoilerplatePlain = "<div><p>" + cookieText + "</p>\n<p>" + archiveText + "</p></div>\n"

// BoilerplateMarkedDE and BoilerplatePlainDE are BoilerplateMarked and
// BoilerplatePlain with the German text.
const (
	BoilerplateMarkedDE = `<div role="dialog" aria-live="polite" aria-label="cookieconsent" class="cc-window cc-banner cc-type-opt-in">` +
		`<span class="cc-message">` + cookieTextDE + `</span>` +
		`<div class="cc-compliance"><a class="cc-btn cc-deny">Ablehnen</a><a class="cc-btn cc-allow">Cookies erlauben</a></div></div>` + "\n" +
		`<div id="replay-toolbar" style="position:fixed;top:0;left:0;width:100%"><div class="toolbar-about">` + archiveTextDE + `</div></div>` + "\n"
	BoilerplatePlainDE = "<div><p>" + cookieTextDE + "</p>\n<p>" + archiveTextDE + "</p></div>\n"
)

// boilerplateBlocks are the marked and the plain block by the language of
// their text.
var boilerplateBlocks = map[string][2]string{
	"en": {BoilerplateMarked, BoilerplatePlain},
	"de": {BoilerplateMarkedDE, BoilerplatePlainDE},
}

// BoilerplateLanguages are the languages BoilerplateInjections has blocks
// in.
func BoilerplateLanguages() []string { return []string{"en", "de"} }

// chosen reports whether the page with this record ID gets the block.
func (in Injection) chosen(recordID string) bool {
	if in.Fraction >= 1 {
		return true
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s", in.Seed, recordID)
	return float64(h.Sum64()) < in.Fraction*math.Exp2(64)
}

var bodyEnd, paraEnd = []byte("</body>"), []byte("</p>")

// apply returns payload with the block inserted before its last </body>,
// and whether it was inserted. payload is not modified.
func (in Injection) apply(recordID string, payload []byte) ([]byte, bool) {
	if in.HTML == "" || !in.chosen(recordID) {
		return payload, false
	}
	i := lastIndexFold(payload, bodyEnd)
	if in.AfterFirstP {
		if i = indexFold(payload, paraEnd); i >= 0 {
			i += len(paraEnd)
		}
	}
	if i < 0 {
		return payload, false
	}
	out := make([]byte, 0, len(payload)+len(in.HTML))
	out = append(out, payload[:i]...)
	out = append(out, in.HTML...)
	return append(out, payload[i:]...), true
}

// indexFold is bytes.Index with ASCII case folding for an ASCII
// lower-case sep that starts with '<'.
func indexFold(s, sep []byte) int {
	for i := 0; i+len(sep) <= len(s); i++ {
		if s[i] == '<' && bytes.EqualFold(s[i:i+len(sep)], sep) {
			return i
		}
	}
	return -1
}

// lastIndexFold is bytes.LastIndex with ASCII case folding for an ASCII
// lower-case sep.
func lastIndexFold(s, sep []byte) int {
	for i := len(s) - len(sep); i >= 0; i-- {
		if s[i] == '<' && bytes.EqualFold(s[i:i+len(sep)], sep) {
			return i
		}
	}
	return -1
}

// BoilerplateInjections are the rows of the boilerplate table for blocks
// in the given languages (BoilerplateLanguages; an unknown one is an
// error): for each, the marked block in 100 %, 30 % and 5 % of the pages
// (the shared-boilerplate targets), the plain block at the same shares (what markup
// cues cannot see), and the plain block after the first </p> at the same
// shares (where a notice often sits). Rows are named "<lang> marked, 30 %",
// "<lang> plain after the first </p>, 30 %".
func BoilerplateInjections(langs ...string) ([]Injection, error) {
	var out []Injection
	for _, l := range langs {
		b, ok := boilerplateBlocks[l]
		if !ok {
			return nil, fmt.Errorf("no boilerplate block in language %q (have %v)", l, BoilerplateLanguages())
		}
		for _, k := range []struct {
			kind, html string
			afterP     bool
		}{{"marked", b[0], false}, {"plain", b[1], false}, {"plain after the first </p>", b[1], true}} {
			for _, f := range []float64{1, 0.30, 0.05} {
				out = append(out, Injection{Name: fmt.Sprintf("%s %s, %.0f %%", l, k.kind, 100*f), Fraction: f,
					Seed: DefaultInjectionSeed, HTML: k.html, Lang: l, AfterFirstP: k.afterP})
			}
		}
	}
	return out, nil
}
