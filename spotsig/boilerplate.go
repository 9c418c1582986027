package spotsig

import "bytes"

// Boilerplate regions. Text that a page shares with many
// unrelated pages — cookie and consent notices, archive replay toolbars,
// licence footers, comment forms, navigation, share and newsletter boxes —
// must not give it spot signatures, or every two pages carrying the same
// notice look alike. Such text almost always sits in an element that says
// what it is, because it must be positioned, styled and dismissed apart
// from the page's content. An element opens a boilerplate region if it is
//
//   - one of the HTML elements for it (HTML Living Standard §4.3.4 aside,
//     §4.3.3 nav, §4.4.9 footer, §4.11.4 dialog);
//   - a container (boilerContainers) with an ARIA landmark or window role
//     for it (WAI-ARIA 1.2: navigation, banner — the site header —,
//     contentinfo — the site footer —, complementary, search, dialog,
//     alertdialog), aria-modal="true", the hidden attribute (§6.1: not
//     rendered), or an id or class naming it: a word of the value (split
//     at every character that is not a letter or digit and at lower-to-upper
//     case changes) in boilerWords, or one of boilerStems anywhere in it.
//
// Class names are also layout modifiers ("content-with-sidebar",
// "modal-enabled", "tone--comment" on the element holding the article, or
// an off-canvas "nav-drawer" wrapping the whole page), and on the gold set
// such names hold the main text of 89 pages. So a region is dropped only if
// it is what boilerplate is — short: at most maxBoilerWords words of text,
// counted after its own inner regions were dropped — unless a strong cue
// (a dialog, aria-modal, a cookie/consent/GDPR or replay-toolbar name)
// opened it, which never names a layout. Nor is a page all boilerplate:
// boilerplate sits beside a page's content, so when the regions of weak
// cues leave fewer than minScoreWords words of a page (bitchmagazine.org's
// tag pages name their body "one-sidebar" and the column holding their one
// short post "with-navbar"), the cues named its layout, and the page is
// read again with strong cues only. Regions nest; each ends at the end
// tag that matches its start tag (same name, same depth) or at the end of
// the input (broken markup: then only the length rule applies). Only
// elements whose end tag is never implied open regions (a p, li or td
// could otherwise end silently and leave the region open).
//
// HTMLToText drops the text of a dropped region as it drops script; its
// block boundaries stay.

// maxBoilerWords is the longest text, in words, a region opened by a weak
// cue (a layout-like class name, a landmark element) may have and still be
// dropped.
const maxBoilerWords = 200

// maxRegions bounds the open regions tracked, so that hostile nesting
// (<div class=nav> a million times) costs O(1) per tag; a region nested
// deeper is not opened, its text belongs to the open ones.
const maxRegions = 32

// boilerTags are elements whose whole content is boilerplate by definition.
var boilerTags = map[string]bool{"nav": true, "aside": true, "footer": true, "dialog": true}

// boilerContainers are the elements whose attributes are checked.
var boilerContainers = map[string]bool{
	"div": true, "section": true, "header": true, "form": true, "ul": true, "ol": true,
	"table": true, "span": true,
}

// boilerRoles are ARIA roles of boilerplate regions.
var boilerRoles = map[string]bool{
	"navigation": true, "banner": true, "contentinfo": true, "complementary": true,
	"search": true, "dialog": true, "alertdialog": true,
}

// boilerWords are whole words of an id or class that name boilerplate.
var boilerWords = map[string]bool{
	"nav": true, "navbar": true, "navigation": true, "menu": true, "breadcrumb": true, "breadcrumbs": true,
	"footer": true, "sidebar": true, "toolbar": true,
	"share": true, "sharing": true, "social": true, "newsletter": true, "subscribe": true, "subscription": true,
	"comment": true, "comments": true, "respond": true, "disqus": true,
	"popup": true, "modal": true, "overlay": true,
	"cookie": true, "cookies": true, "consent": true, "gdpr": true,
}

// boilerStems are substrings of an id or class that name boilerplate even
// inside a longer word ("cookiebar", "CookieConsent", "wm-ipp-base": the
// Wayback Machine's replay toolbar).
var boilerStems = [][]byte{[]byte("cookie"), []byte("consent"), []byte("gdpr"), []byte("wm-ipp")}

// cue kinds returned by boilerCue.
const (
	cueNone = iota
	cueWeak
	cueStrong
)

// attr is one attribute of a start tag: its key lower-cased, its value
// unquoted with entities decoded.
type attr struct{ key, val []byte }

// cueKey reports whether boilerCue reads attributes named key.
func cueKey(key []byte) bool {
	switch string(key) {
	case "id", "class", "role", "aria-modal", "hidden", "aria-label":
		return true
	}
	return false
}

// boilerCue reports whether the start tag named name with attributes attrs
// (each key once, the first occurrence kept, as the HTML tokenizer does)
// opens a boilerplate region, and how strongly.
func boilerCue(name []byte, attrs []attr) int {
	cue := cueNone
	switch string(name) {
	case "dialog":
		return cueStrong
	case "nav", "aside", "footer":
		cue = cueWeak
	default:
		if !boilerContainers[string(name)] {
			return cueNone
		}
	}
	for _, a := range attrs {
		key, val := a.key, a.val
		c := cueNone
		switch string(key) {
		case "id", "class":
			if hasStem(val) {
				c = cueStrong
			} else if boilerName(val) {
				c = cueWeak
			}
		case "role":
			switch r := string(bytes.ToLower(bytes.TrimSpace(val))); {
			case r == "dialog" || r == "alertdialog":
				c = cueStrong
			case boilerRoles[r]:
				c = cueWeak
			}
		case "aria-modal":
			if bytes.EqualFold(bytes.TrimSpace(val), []byte("true")) {
				c = cueStrong
			}
		case "hidden":
			c = cueWeak
		case "aria-label":
			if hasStem(val) {
				c = cueStrong
			}
		}
		cue = max(cue, c)
	}
	return cue
}

// region is one open boilerplate element.
type region struct {
	name   []byte // tag name
	depth  int    // open elements of that name since the region's start, itself included
	start  int    // offset in the text where the region's text begins
	strong bool
}

// regionStack holds the open regions, outermost first.
type regionStack []region

// start opens a region if the start tag named name with attributes attrs
// is a boilerplate element (only a tag of class tagCue, candidate, can be:
// boilerCue needs the attributes of those only), and
// counts nesting of the open regions' tag names.
func (rs *regionStack) start(name []byte, candidate bool, attrs []attr, textLen int) {
	for i := range *rs {
		if bytes.Equal((*rs)[i].name, name) {
			(*rs)[i].depth++
		}
	}
	if len(*rs) >= maxRegions || !candidate {
		return // nested deeper (the text is inside an open region already), or no region
	}
	if cue := boilerCue(name, attrs); cue != cueNone {
		*rs = append(*rs, region{name: append([]byte(nil), name...), depth: 1, start: textLen, strong: cue == cueStrong})
	}
}

// endRegions counts the end tag name (nil: the end of the input, which
// ends every open region) and closes the regions it ends, innermost first:
// a region's text is cut from w if it is boilerplate (strong cue, or at
// most maxBoilerWords words).
func (w *textWriter) endRegions(name []byte) {
	rs := w.regions
	for i := range rs {
		if name == nil {
			rs[i].depth = 0
		} else if bytes.Equal(rs[i].name, name) {
			rs[i].depth--
		}
	}
	for len(rs) > 0 && rs[len(rs)-1].depth <= 0 {
		r := rs[len(rs)-1]
		rs = rs[:len(rs)-1]
		if r.start > len(w.dst) {
			continue // cannot happen: the text only grows while a region is open
		}
		// A region left open at the end of the input (broken markup) is
		// judged by its length alone: it may have swallowed the page.
		strong := r.strong && name != nil
		if strong || (!w.keepWeak && countWords(w.dst[r.start:], maxBoilerWords+1) <= maxBoilerWords) {
			if !strong {
				w.weakRegions++
			}
			w.dst = w.dst[:r.start]
			if w.lay != nil {
				w.lay.cut(r.start)
			}
			w.boilerRegions++
			if c := w.last(); c != ' ' && c != '\n' {
				w.dst = append(w.dst, ' ') // the region separated the words around it
			}
		}
	}
	w.regions = rs
}

// boilerName reports whether an id or class value names boilerplate.
func boilerName(val []byte) bool {
	if len(val) == 0 {
		return false
	}
	if hasStem(val) {
		return true
	}
	var w [32]byte
	n := 0
	flush := func() bool {
		ok := n > 0 && n <= len(w) && boilerWords[string(w[:n])]
		n = 0
		return ok
	}
	prevLower := false
	for _, c := range val {
		isUpper := c >= 'A' && c <= 'Z'
		isLower := c >= 'a' && c <= 'z'
		if !(isUpper || isLower || (c >= '0' && c <= '9')) {
			if flush() {
				return true
			}
			prevLower = false
			continue
		}
		if isUpper && prevLower && flush() { // camelCase boundary
			return true
		}
		if isUpper {
			c += 'a' - 'A'
		}
		if n < len(w) {
			w[n] = c
		}
		n++
		prevLower = isLower
	}
	return flush()
}

// hasStem reports whether val contains one of boilerStems, ignoring ASCII
// case.
func hasStem(val []byte) bool {
	var low [128]byte
	if len(val) > len(low) {
		val = val[:len(low)]
	}
	l := low[:len(val)]
	for i, c := range val {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		l[i] = c
	}
	for _, s := range boilerStems {
		if bytes.Contains(l, s) {
			return true
		}
	}
	return false
}
