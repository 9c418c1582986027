package spotsig

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// From payload to text, the input of §3: PayloadText's dispatch on the
// media type, and the markup pass that writes a page's text, one line per
// block and the boilerplate elements dropped (HTMLToText). What a payload
// is (kind, charset, binary) is sniff.go; the lexer the pass reads markup
// with is htmllex.go, the main content it records layout.go.

// ErrBinary is returned by HTMLToText and PayloadText when the payload
// looks like binary data (a NUL byte, too many control bytes, or the magic
// number of a common binary format in its first bytes) whatever its label.
// The job rejects such a payload as warc.SkipBinaryPayload ("binary-payload").
var ErrBinary = errors.New("spotsig: binary payload")

// ErrNotText is returned by PayloadText for a content type that is neither
// HTML nor plain text (e.g. image/png, application/pdf, text/css).
// The job rejects such a payload as warc.SkipNotHTML ("not-html").
var ErrNotText = errors.New("spotsig: content type is not HTML or plain text")

// TextStats describes one payload-to-text conversion; every cap that
// applied is reported so a caller can count it.
type TextStats struct {
	Kind           string // "html" or "text": how the payload was read
	Charset        string // WHATWG name of the encoding used, e.g. "utf-8", "windows-1252", "big5"
	CharsetSource  string // where it came from: "bom", "header", "meta", "sniff" (valid UTF-8) or "default"
	InputBytes     int    // payload length
	ParsedBytes    int    // payload bytes read (InputBytes capped by the max-input-bytes cap)
	InputTruncated bool   // the max-input-bytes cap applied
	TextBytes      int    // bytes of text produced
	TextTruncated  bool   // the max-text-bytes cap applied
	Replaced       int    // invalid UTF-8 bytes replaced by U+FFFD (UTF-8 input; other charsets' decoders substitute U+FFFD uncounted)
	// BoilerplateRegions counts the elements marked as boilerplate whose
	// text was dropped (WithMarkupBoilerplate).
	BoilerplateRegions int
}

// Kinds of payload, as TextStats.Kind reports them.
const (
	KindHTML = "html"
	KindText = "text"
)

// PayloadText returns the plain text of an HTTP payload, dispatching on its
// media type: text/html, application/xhtml+xml (and
// application/vnd.wap.xhtml+xml) are read as HTML (HTMLToText); text/plain
// as plain text (charset decoding only); an empty content type is sniffed
// (a first non-blank byte '<' means HTML, anything else plain text). Any
// other type returns ErrNotText; binary data returns ErrBinary (whatever
// the label). Bad options return an error wrapping ErrBadOption.
//
// The text is valid UTF-8: undecodable bytes become U+FFFD (counted in
// TextStats.Replaced), never an error. Runs of ASCII white space are
// collapsed to one space, or to one '\n' at a block boundary: every
// block-level element boundary of HTML (HTMLToText) and every blank line of
// plain text (a single line break is hard wrapping, not a block boundary).
// Extract confines spot-signature chains to these lines (WithMinBlockTokens).
// The returned slice is newly allocated and owned by the caller.
func PayloadText(payload []byte, contentType string, opts ...Option) ([]byte, TextStats, error) {
	cfg, err := newSettings(opts)
	if err != nil {
		return nil, TextStats{}, err
	}
	kind, err := payloadKind(payload, contentType)
	if err != nil {
		return nil, TextStats{InputBytes: len(payload)}, err
	}
	var st TextStats
	text, err := appendPayloadText(nil, payload, contentType, kind, &cfg, &st, nil)
	return text, st, err
}

// HTMLToText returns the visible text of an HTML payload: markup removed;
// the content of script, style, noscript, template, iframe, noembed,
// noframes, svg and math elements and all comments dropped, except on a
// script application's shell, whose noscript elements hold more text than
// the rest of the page: it is read as a browser without scripts reads it,
// noscript as markup (HTML Living Standard §4.12.2) (an unclosed svg
// or math element ends at the next HTML start tag of the breakout list of
// the HTML Living Standard §13.2.6.5 — p, div, b, br, li, h1–h6, table, … —
// as in a browser); entities
// decoded; a line break at every block-level boundary (p, div, td, li, br,
// h1–h6, tr, …) so that words of adjacent cells do not glue together. The
// character set comes from the BOM, the charset parameter of contentType,
// a <meta> declaration in the first 1024 bytes (WHATWG rules, via
// golang.org/x/net/html/charset), else UTF-8 if the payload is valid UTF-8,
// else windows-1252. One deliberate deviation from the WHATWG rules: a
// payload labelled (or defaulting to) windows-1252/iso-8859-1 whose
// non-ASCII bytes are nearly all valid UTF-8 sequences (at most one invalid
// byte per 20) is read as UTF-8 (mislabelled pages are common; real Latin-1
// text almost never forms valid UTF-8).
//
// It reads the markup in one pass with the lexer of
// github.com/tdewolff/parse/v2/html, and with the golang.org/x/net/html
// tokenizer on the pages the two would read differently (htmllex.go:
// the text is x/net's on every page), so deep nesting and unterminated
// markup cost no more than their bytes. Caps: at most the
// max-input-bytes cap of the payload is read and at most the max-text-bytes
// cap of text produced (reported in TextStats). Errors: ErrBinary,
// ErrBadOption; undecodable bytes are never an error (see PayloadText).
func HTMLToText(payload []byte, contentType string, opts ...Option) ([]byte, TextStats, error) {
	cfg, err := newSettings(opts)
	if err != nil {
		return nil, TextStats{}, err
	}
	var st TextStats
	text, err := appendPayloadText(nil, payload, contentType, KindHTML, &cfg, &st, nil)
	return text, st, err
}

// appendPayloadText appends the text of payload to dst.
// With lay non-nil (HTML only) the text's periphery is recorded in it
// (layout.go).
func appendPayloadText(dst, payload []byte, contentType, kind string, cfg *settings, st *TextStats, lay *layout) ([]byte, error) {
	payload, err := decodePayload(payload, contentType, kind, cfg, st)
	if err != nil {
		return dst, err
	}
	w := textWriter{dst: dst, start: len(dst), max: cfg.maxText, boiler: !cfg.keepBoiler}
	read := func(payload []byte) {
		if kind == KindHTML && lay != nil {
			lay.reset()
			lay.segStart = len(dst)
			w.lay = lay
		}
		switch {
		case kind == KindText:
			w.paras = true
			w.write(payload)
		case cfg.stdMarkup:
			w.htmlStd(payload)
		default:
			w.html(payload)
		}
	}
	read(payload)
	if w.weakRegions > 0 && countWords(w.dst[w.start:], minScoreWords) < minScoreWords {
		// Next to nothing is left once the regions that weak cues
		// opened are dropped: the cues named the page's layout
		// ("one-sidebar" on body, "with-navbar" on the column holding a
		// short post), not boilerplate, which a page has only beside
		// its content. Read it with strong cues only.
		w = textWriter{dst: dst, start: len(dst), max: cfg.maxText, boiler: !cfg.keepBoiler, keepWeak: true}
		read(payload)
	}
	if w.hidden > len(w.dst)-w.start && !w.full {
		// A script application's shell: its noscript elements hold more
		// visible characters than the rest of the page has bytes of text
		// (a Discourse forum's posts in <noscript data-path=…>, a
		// single-page app's server rendering). Read it as a browser
		// without scripts does, its noscript elements as markup.
		w = textWriter{dst: dst, start: len(dst), max: cfg.maxText, boiler: !cfg.keepBoiler, keepWeak: w.keepWeak}
		read(showNoscript(payload))
	}
	st.TextBytes = len(w.dst) - w.start
	st.TextTruncated = w.full
	st.Replaced = w.replaced
	st.BoilerplateRegions = w.boilerRegions
	return w.dst, nil
}

// Tag classes for HTMLToText.
const (
	tagBlock    = 1 << iota // a line break before and after the element
	tagSkip                 // the element's content is not text
	tagForeign              // svg, math: foreign content (skipped)
	tagBreakout             // a start tag that ends foreign content
	tagLayout               // a container the layout tracks (layoutContainers)
	tagCue                  // may open a boilerplate region (boilerTags, boilerContainers)
)

var tagClass = map[string]uint8{
	"script": tagSkip, "style": tagSkip, "noscript": tagSkip, "template": tagSkip,
	"iframe": tagSkip, "noembed": tagSkip, "noframes": tagSkip, "svg": tagSkip | tagForeign, "math": tagSkip | tagForeign,
	"object": tagBlock, "video": tagBlock, "audio": tagBlock, "canvas": tagBlock,
}

func init() {
	for _, t := range strings.Fields(`address article aside blockquote body br button caption
		center col colgroup dd details dialog dir div dl dt fieldset figcaption figure footer
		form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html img input label legend
		li link main menu meta nav ol optgroup option p pre section select summary table tbody
		td textarea tfoot th thead title tr ul`) {
		tagClass[t] |= tagBlock
	}
	// HTML Living Standard §13.2.6.5 ("the rules for parsing tokens in
	// foreign content"): a start tag with one of these names pops all open
	// svg/math elements (font only with color, face or size attributes;
	// left out here).
	for _, t := range strings.Fields(`b big blockquote body br center code dd div dl dt em embed
		h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta nobr ol p pre ruby s small span
		strong strike sub sup table tt u ul var`) {
		tagClass[t] |= tagBreakout
	}
	for t := range layoutContainers {
		tagClass[t] |= tagLayout
	}
	for _, m := range []map[string]bool{boilerTags, boilerContainers} {
		for t := range m {
			tagClass[t] |= tagCue
		}
	}
	if len(tagClass) > len(tagTable)/2 {
		panic("spotsig: tagTable must have more than twice as many slots as tagClass has names")
	}
	for t, c := range tagClass {
		i := tagSlot([]byte(t))
		for tagTable[i].name != "" {
			i = (i + 1) % len(tagTable)
		}
		tagTable[i].name, tagTable[i].class = t, c
	}
}

// tagTable holds tagClass for the markup pass, which looks up every tag of
// every page: open addressing over 256 slots by tagSlot, which reads a
// name's length and its first and last byte where a Go map hashes all of
// it.
var tagTable [256]struct {
	name  string
	class uint8
}

// tagSlot is the first slot of tagTable a name is looked for in.
func tagSlot(name []byte) int {
	return (len(name)*31 + int(name[0])*7 + int(name[len(name)-1])) % len(tagTable)
}

// classOf returns tagClass of a tag name (lower-case), 0 for one it does
// not name.
func classOf(name []byte) uint8 {
	if len(name) == 0 {
		return 0
	}
	for i := tagSlot(name); tagTable[i].name != ""; i = (i + 1) % len(tagTable) {
		if tagTable[i].name == string(name) {
			return tagTable[i].class
		}
	}
	return 0
}

// textWriter accumulates text into dst: valid UTF-8, ASCII white-space runs
// collapsed to one space (or one line break at block boundaries), capped at
// max bytes.
type textWriter struct {
	dst      []byte
	start    int
	max      int
	full     bool // the cap was reached
	replaced int
	paras    bool // plain text: a blank line (two or more '\n' in a white-space run) is a block boundary

	boiler        bool        // drop the text of boilerplate elements (WithMarkupBoilerplate)
	regions       regionStack // open boilerplate elements, outermost first
	boilerRegions int         // boilerplate elements whose text was dropped
	weakRegions   int         // of which opened by a weak cue
	keepWeak      bool        // drop regions of strong cues only

	lay *layout // records which container each piece of text sits in (nil: not wanted)

	hidden int // visible bytes (visibleBytes) of the raw text of noscript elements
}

func (w *textWriter) last() byte {
	if len(w.dst) == w.start {
		return '\n'
	}
	return w.dst[len(w.dst)-1]
}

// plainASCII marks the bytes write copies as they are: ASCII but white
// space.
var plainASCII = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = !strings.ContainsRune(" \n\t\r\f\v", rune(c))
	}
	return t
}()

// write appends text, collapsing white space and replacing invalid UTF-8,
// and stops at the cap (never cutting a rune).
func (w *textWriter) write(text []byte) {
	if w.full {
		return
	}
	room := w.max - (len(w.dst) - w.start)
	// Each input byte yields at most 3 output bytes (U+FFFD for one
	// invalid byte); below that bound no cap check is needed per byte.
	checked := len(text)*3 > room
	last := w.last()
	space := last == ' ' || last == '\n'
	dst := w.dst
	limit := w.start + w.max
	nls := 0 // '\n' bytes in the current white-space run (paras)
	for i := 0; i < len(text); {
		c := text[i]
		if plainASCII[c] {
			// A run of plain bytes, copied at once.
			j := i + 1
			for j < len(text) && plainASCII[text[j]] {
				j++
			}
			run := text[i:j]
			if checked && len(dst)+len(run) > limit {
				dst = append(dst, run[:limit-len(dst)]...)
				w.full = true
				break
			}
			dst = append(dst, run...)
			space, nls = false, 0
			i = j
			continue
		}
		if c < utf8.RuneSelf { // white space
			if !space {
				if checked && len(dst)+1 > limit {
					w.full = true
					break
				}
				dst = append(dst, ' ')
				space = true
			}
			if c == '\n' && w.paras {
				if nls++; nls == 2 && len(dst) > w.start && dst[len(dst)-1] == ' ' {
					dst[len(dst)-1] = '\n'
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		rb := text[i : i+size]
		if r == utf8.RuneError && size == 1 {
			rb = replacementChar
		}
		if checked && len(dst)+len(rb) > limit {
			w.full = true
			break
		}
		if size == 1 {
			w.replaced++
		}
		dst = append(dst, rb...)
		space, nls = false, 0
		i += size
	}
	w.dst = dst
}

var replacementChar = []byte("\uFFFD")

// lineBreak ends the current line (block boundary).
func (w *textWriter) lineBreak() {
	if w.full {
		return
	}
	switch w.last() {
	case '\n':
	case ' ':
		w.dst[len(w.dst)-1] = '\n'
	default:
		if len(w.dst)-w.start < w.max {
			w.dst = append(w.dst, '\n')
		}
	}
}

// markup is what the tag handlers know of the open elements.
type markup struct {
	skip    int // depth of open elements whose content is dropped
	foreign int // of which svg/math elements
}

// text handles a text token (entities already decoded where the HTML
// tokenizer decodes them).
func (w *textWriter) text(m *markup, t []byte) {
	if m.skip == 0 {
		w.write(t)
	}
}

// startTag handles a start tag named name (lower-case) of class c
// (classOf) with attributes attrs (only those of a cue candidate, class
// tagCue, when regions are tracked).
func (w *textWriter) startTag(m *markup, name []byte, c uint8, attrs []attr) {
	if w.boiler && m.skip == 0 {
		w.regions.start(name, c&tagCue != 0, attrs, len(w.dst))
	}
	if c&tagBreakout != 0 && m.foreign > 0 {
		// An HTML tag inside svg/math: the page forgot to close
		// them, and a browser leaves foreign content here.
		m.skip -= m.foreign
		m.foreign = 0
	}
	if c&tagSkip != 0 {
		m.skip++
		if c&tagForeign != 0 {
			m.foreign++
		}
	}
	if c&tagBlock != 0 && m.skip == 0 {
		w.lineBreak()
		if w.lay != nil && c&tagLayout != 0 {
			w.lay.push(name, len(w.dst))
		}
	}
	if w.lay != nil && m.skip == 0 && string(name) == "a" {
		w.lay.link(true, len(w.dst))
	}
}

// selfClosingTag handles a start tag of class c (classOf) that ends in
// "/>".
func (w *textWriter) selfClosingTag(m *markup, c uint8) {
	if c&tagBlock != 0 && m.skip == 0 {
		w.lineBreak()
	}
}

// endTag handles an end tag named name (lower-case).
func (w *textWriter) endTag(m *markup, name []byte) {
	if len(w.regions) > 0 && m.skip == 0 {
		w.endRegions(name)
	}
	c := classOf(name)
	if c&tagSkip != 0 && m.skip > 0 {
		m.skip--
		if c&tagForeign != 0 && m.foreign > 0 {
			m.foreign--
		}
	}
	if c&tagBlock != 0 && m.skip == 0 {
		w.lineBreak()
		if w.lay != nil && c&tagLayout != 0 {
			w.lay.pop(name, len(w.dst))
		}
	}
	if w.lay != nil && string(name) == "a" {
		w.lay.link(false, len(w.dst))
	}
}

// htmlStd streams the markup of payload through the golang.org/x/net/html
// tokenizer: the reference reading of the markup, and what html falls back
// to where the faster lexer could read a page differently (htmllex.go).
func (w *textWriter) htmlStd(payload []byte) {
	z := html.NewTokenizer(bytes.NewReader(payload))
	var m markup
	var attrs []attr
	noscript := false // the next text token is a noscript element's raw text
	for !w.full {
		switch z.Next() {
		case html.ErrorToken:
			w.endRegions(nil) // io.EOF: the tokenizer never fails otherwise on a bytes.Reader
			return
		case html.TextToken:
			if noscript {
				w.hidden += visibleBytes(z.Raw())
			}
			w.text(&m, z.Text())
		case html.StartTagToken:
			name, hasAttr := z.TagName()
			noscript = string(name) == "noscript"
			attrs = attrs[:0]
			c := classOf(name)
			if w.boiler && m.skip == 0 && c&tagCue != 0 {
				for more := hasAttr; more; {
					var key, val []byte
					key, val, more = z.TagAttr()
					attrs = append(attrs, attr{key, val})
				}
			}
			w.startTag(&m, name, c, attrs)
		case html.SelfClosingTagToken:
			name, _ := z.TagName()
			w.selfClosingTag(&m, classOf(name))
		case html.EndTagToken:
			name, _ := z.TagName()
			noscript = false
			w.endTag(&m, name)
		}
	}
	w.endRegions(nil) // the text cap stopped the loop
}

// visibleBytes counts the bytes of raw markup that are neither white space
// nor inside a tag: about the text a browser shows of it.
func visibleBytes(raw []byte) int {
	n, tag := 0, false
	for _, c := range raw {
		switch {
		case c == '<':
			tag = true
		case c == '>':
			tag = false
		case !tag && c > ' ':
			n++
		}
	}
	return n
}

// showNoscript returns a copy of payload with every noscript start and end
// tag renamed div (padded with spaces to the same length), so that their
// content is read as markup, as a browser with scripting disabled reads it
// (HTML Living Standard §4.12.2: noscript "represents its children" when
// scripting is disabled).
func showNoscript(payload []byte) []byte {
	out := slices.Clone(payload)
	for i := 0; i < len(out); {
		j := bytes.IndexByte(out[i:], '<')
		if j < 0 {
			break
		}
		i += j + 1
		end := i < len(out) && out[i] == '/'
		k := i
		if end {
			k++
		}
		if k+8 <= len(out) && bytes.EqualFold(out[k:k+8], []byte("noscript")) &&
			(k+8 == len(out) || strings.IndexByte(" \t\n\r\f/>", out[k+8]) >= 0) {
			copy(out[k:k+8], "div     ")
		}
	}
	return out
}
