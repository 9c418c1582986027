package spotsig

import (
	"bytes"
	"io"
	"strings"
	"sync"

	"github.com/tdewolff/parse/v2"
	lex "github.com/tdewolff/parse/v2/html"
	"golang.org/x/net/html"
)

// The markup pass of HTMLToText reads a page with the lexer of
// github.com/tdewolff/parse/v2/html (the lexer of tdewolff/minify: it
// scans a byte slice in place; HTMLToText runs about 1.5 times as fast as
// with golang.org/x/net/html's tokenizer alone, with a tenth of the
// allocations: BenchmarkHTMLToText/lexer against /std), and gives exactly
// the text x/net's tokenizer would. Where the two read
// markup differently — the raw text of noscript, noembed and noframes
// (raw in x/net, markup in the lexer) is read here as x/net does; the
// other differences end the pass, and htmlStd reads the page again:
//
//   - a NUL byte (the lexer's end-of-input sentinel);
//   - a script whose text holds "<!--" (the HTML standard's escaped script
//     states, which the two follow differently in corner cases) and that
//     x/net's tokenizer ends elsewhere;
//   - a raw-text element (script, style, title, textarea, iframe, xmp)
//     whose text the lexer ends at an end tag that x/net does not end it at
//     ("</style1>"): only where the lexer reads that text itself, which
//     is for a script holding "<!--" and for text no end tag closes
//     (elsewhere it is moved at once to where x/net ends the text);
//   - an svg or math element that x/net's tokenizer, read with this
//     package's rules for foreign content, does not end where the lexer
//     does (self-closing, unclosed, quotes in its text, an HTML tag that
//     breaks out of it, an </a> inside it) and any <xml> element;
//   - a CDATA section, "</>", a "<!-->" comment, a start tag name holding
//     '/', an attribute whose name the lexer reads as empty (a name that
//     starts with '='), and a cue attribute value
//     holding '&' (x/net decodes attribute entities with rules of its own);
//   - an end tag the input ends in, right after raw text.
//
// TestLexerAgreesWithXNet holds the two passes equal on every page of the
// shared WARCs and both gold sets and counts the pages read again.

// lexBufs holds the private copies of payloads the lexer reads: it
// lower-cases tag and attribute names in place and writes a NUL after the
// last byte.
var lexBufs = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledLexBuf bounds the copies kept for reuse.
const maxPooledLexBuf = 4 << 20

// html writes the text of the HTML payload: htmlLex on a private copy of
// it, or htmlStd where htmlLex cannot vouch for its reading.
func (w *textWriter) html(payload []byte) {
	bp := lexBufs.Get().(*[]byte)
	buf := append(append((*bp)[:0], payload...), 0)[:len(payload)]
	ok := w.htmlLex(buf)
	if cap(buf) <= maxPooledLexBuf {
		*bp = buf[:0]
		lexBufs.Put(bp)
	}
	if ok {
		return
	}
	w.dst, w.full, w.replaced = w.dst[:w.start], false, 0
	w.regions, w.boilerRegions, w.weakRegions, w.hidden = w.regions[:0], 0, 0, 0
	if w.lay != nil {
		w.lay.reset()
		w.lay.segStart = w.start
	}
	w.htmlStd(payload)
}

var (
	cdataStart   = []byte("<![CDATA[")
	emptyEndTag  = []byte("</>")
	scriptEscape = []byte("<!--")
)

// htmlLex is the markup pass over buf (a private copy of the payload with
// one spare byte of capacity) with the lexer. It reports false, leaving w
// in any state, where it cannot vouch for reading buf as htmlStd does.
func (w *textWriter) htmlLex(buf []byte) bool {
	if bytes.IndexByte(buf, 0) >= 0 {
		return false
	}
	var (
		m       markup
		attrs   []attr
		name    []byte // the start tag being read
		class   uint8  // its classOf
		collect bool   // its cue attributes are wanted
		raw     string // the raw-text element whose text comes next
		base    int    // offset in buf of the lexer's input
	)
	in := parse.NewInputBytes(buf)
	l := lex.NewLexer(in)
	inTag := false // the lexer is inside a start tag
	for !w.full {
		if !inTag && raw == "" {
			// The lexer reads text a byte at a time up to the next '<'
			// (buf holds no NUL, its end-of-input sentinel): move it
			// there at once; it returns that text as its next token.
			rest := buf[base+in.Offset():]
			k := bytes.IndexByte(rest, '<')
			if k < 0 {
				k = len(rest)
			}
			in.Move(k)
		}
		tt, data := l.Next()
		inTag = tt == lex.StartTagToken || tt == lex.AttributeToken
		switch tt {
		case lex.ErrorToken:
			if l.Err() != io.EOF {
				return false
			}
			w.endRegions(nil)
			return true
		case lex.TextToken:
			switch raw {
			case "":
				if bytes.HasPrefix(data, cdataStart) || bytes.Contains(data, emptyEndTag) {
					return false
				}
				w.text(&m, unescaped(data))
			case "title", "textarea":
				w.text(&m, unescaped(data))
			case "script":
				if bytes.Contains(data, scriptEscape) && !scriptEndAgrees(buf[base+in.Offset()-len(data):], len(data)) {
					return false
				}
				w.text(&m, data)
			default:
				w.text(&m, data)
			}
		case lex.StartTagToken:
			if raw != "" {
				return false // the lexer ended raw text at a start tag: never, but not vouched for
			}
			name = l.Text()
			if bytes.IndexByte(name, '/') >= 0 {
				return false
			}
			class = classOf(name)
			collect = w.boiler && m.skip == 0 && class&tagCue != 0
			attrs = attrs[:0]
		case lex.AttributeToken:
			if len(l.AttrKey()) == 0 {
				return false // "<div = class=x>": x/net reads a key "=" and then class
			}
			if !collect || !cueKey(l.AttrKey()) || attrSeen(attrs, l.AttrKey()) {
				continue
			}
			val := unquoted(l.AttrVal())
			if bytes.IndexByte(val, '&') >= 0 {
				return false
			}
			attrs = append(attrs, attr{l.AttrKey(), val})
		case lex.StartTagCloseToken, lex.StartTagVoidToken:
			if tt == lex.StartTagVoidToken {
				w.selfClosingTag(&m, class)
			} else {
				w.startTag(&m, name, class, attrs)
			}
			switch string(name) {
			case "script", "style", "title", "textarea", "iframe", "xmp", "plaintext":
				raw = rawName(name)
				// Move the lexer at once to the end tag where x/net's
				// tokenizer ends the raw text (rawTextEnd, a bytes.Index),
				// rather than let it read there byte by byte; it returns
				// the text up to there next. Not for plaintext (no end),
				// raw text no end tag follows, nor a script whose text
				// holds "<!--" (the escaped script states).
				start := base + in.Offset()
				if raw != "plaintext" {
					if end := rawTextEnd(buf, start, name); end < len(buf) && (raw != "script" || !bytes.Contains(buf[start:end], scriptEscape)) {
						in.Move(end - start)
					}
				}
			case "noscript", "noembed", "noframes":
				// Raw text in x/net, markup in the lexer: read it as raw
				// text and start the lexer again at its end tag.
				start := base + in.Offset()
				end := rawTextEnd(buf, start, name)
				if string(name) == "noscript" {
					w.hidden += visibleBytes(buf[start:end])
				}
				w.text(&m, buf[start:end])
				base = end
				in = parse.NewInputBytes(buf[end:])
				l = lex.NewLexer(in)
			}
		case lex.EndTagToken:
			if data[len(data)-1] != '>' {
				if raw != "" {
					return false // x/net reads "</title" at the end of the input as raw text
				}
				// x/net reads no token from an end tag the input ends in.
				w.endRegions(nil)
				return true
			}
			n := l.Text()
			if i := bytes.IndexAny(n, " \t\n\r\f/"); i >= 0 {
				n = n[:i]
			}
			if raw != "" && string(n) != raw {
				return false
			}
			raw = ""
			w.endTag(&m, n)
		case lex.CommentToken:
			if (bytes.HasPrefix(data, []byte("<!-->")) && len(data) > 5) ||
				(bytes.HasPrefix(data, []byte("<!--->")) && len(data) > 6) {
				return false
			}
		case lex.SVGToken, lex.MathToken:
			if raw != "" || !foreignAgrees(data) {
				return false
			}
		case lex.XMLToken:
			return false
		}
	}
	w.endRegions(nil) // the text cap stopped the loop
	return true
}

// rawName returns the name of a raw-text element without allocating.
func rawName(name []byte) string {
	for _, r := range [...]string{"script", "style", "title", "textarea", "iframe", "xmp", "plaintext"} {
		if string(name) == r {
			return r
		}
	}
	return ""
}

// unescaped decodes the character references of text as x/net's tokenizer
// decodes those of a text token.
func unescaped(text []byte) []byte {
	if bytes.IndexByte(text, '&') < 0 {
		return text
	}
	return []byte(html.UnescapeString(string(text)))
}

// unquoted strips the quotes the lexer leaves around an attribute value.
func unquoted(v []byte) []byte {
	if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
		q := v[0]
		v = v[1:]
		if len(v) > 0 && v[len(v)-1] == q {
			v = v[:len(v)-1]
		}
	}
	return v
}

// attrSeen reports whether attrs holds key (x/net keeps the first of
// repeated attributes).
func attrSeen(attrs []attr, key []byte) bool {
	for _, a := range attrs {
		if bytes.Equal(a.key, key) {
			return true
		}
	}
	return false
}

// rawTextEnd returns the offset in buf of the end tag that ends the raw
// text of element name starting at start, as x/net's tokenizer finds it:
// "</" and name in any case followed by white space, '/' or '>'; len(buf)
// if there is none.
func rawTextEnd(buf []byte, start int, name []byte) int {
	for i := start; ; {
		j := bytes.Index(buf[i:], []byte("</"))
		if j < 0 {
			return len(buf)
		}
		k := i + j + 2
		if k+len(name) < len(buf) && bytes.EqualFold(buf[k:k+len(name)], name) {
			switch buf[k+len(name)] {
			case ' ', '\n', '\r', '\t', '\f', '/', '>':
				return i + j
			}
		}
		i = k
	}
}

// scriptEndAgrees reports whether x/net's tokenizer, reading rest as the
// text of a script element, ends that text after n bytes as the lexer did.
// It reads rest only up to the end x/net finds.
func scriptEndAgrees(rest []byte, n int) bool {
	z := html.NewTokenizer(io.MultiReader(strings.NewReader("<script>"), bytes.NewReader(rest)))
	z.Next() // the start tag
	if z.Next() != html.TextToken {
		return n == 0
	}
	return len(z.Raw()) == n
}

// foreignAgrees reports whether x/net's tokenizer, reading data (an svg or
// math element as the lexer cut it: its start tag to its end tag) with
// this package's rules for foreign content, ends the element exactly at the
// end of data, with no HTML tag breaking out of it and no </a> in it (an
// end tag htmlStd heeds inside foreign content).
func foreignAgrees(data []byte) bool {
	z := html.NewTokenizer(bytes.NewReader(data))
	var m markup
	for first := true; ; first = false {
		tt := z.Next()
		if first && tt != html.StartTagToken {
			return false // a self-closing svg is no element to x/net
		}
		switch tt {
		case html.ErrorToken:
			return false // the input ended inside the element
		case html.StartTagToken:
			name, _ := z.TagName()
			c := classOf(name)
			if first && c&tagForeign == 0 {
				return false
			}
			if c&tagBreakout != 0 && m.foreign > 0 {
				return false
			}
			if c&tagSkip != 0 {
				m.skip++
				if c&tagForeign != 0 {
					m.foreign++
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if string(name) == "a" {
				return false
			}
			c := classOf(name)
			if c&tagSkip != 0 && m.skip > 0 {
				m.skip--
				if c&tagForeign != 0 && m.foreign > 0 {
					m.foreign--
				}
			}
			if m.skip == 0 {
				return z.Next() == html.ErrorToken && z.Err() == io.EOF
			}
		}
	}
}
