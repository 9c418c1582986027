package spotsig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/warc"
)

// The markup rule of boilerplate.go on hand-made pages: text in boilerplate
// elements is dropped, a long text in an element whose class only looks
// like boilerplate (a layout modifier) is kept, nesting and unclosed
// regions end where a browser would end them, and the option turns it off.
func TestMarkupBoilerplate(t *testing.T) {
	article := strings.Repeat("the quick brown fox jumps over the lazy dog ", 30) // 270 words
	// own is a page's own text beside its boilerplate: a page left with
	// fewer than minScoreWords words is read with strong cues only (the
	// last cases).
	own := "<p>a paragraph of the page itself, long enough to be its own content</p>"
	cases := []struct {
		name, html string
		want       []string // substrings of the text
		not        []string // substrings that must be gone
	}{
		{"cookie dialog", `<body><p>keep me</p><div role="dialog" aria-label="cookieconsent"><span>We use cookies</span></div></body>`,
			[]string{"keep me"}, []string{"cookies"}},
		{"replay toolbar (strong, any length)", `<div id="wm-ipp-base"><div>` + article + `</div></div><p>page text</p>`,
			[]string{"page text"}, []string{"fox"}},
		{"nav footer aside", `<nav>Home News</nav><p>body</p>` + own + `<aside>Related</aside><footer>Licence text</footer>`,
			[]string{"body"}, []string{"Home", "Related", "Licence"}},
		{"camelCase and words", `<div class="CookieBar">accept all</div><div id="share-tools">Tweet this</div><p>x</p>` + own,
			[]string{"x"}, []string{"accept", "Tweet"}},
		{"layout class holding the article", `<div class="content-with-sidebar-wrap"><p>` + article + `</p><div class="sidebar">Most read</div></div>`,
			[]string{"quick brown fox", "\n"}, []string{"Most read"}},
		{"nested same tag", `<div class="comments"><div>one</div><div>two</div></div><div>after</div>` + own,
			[]string{"after"}, []string{"one", "two"}},
		{"unclosed region ends at the end of the input", own + `<p>before</p><div class="newsletter"><p>sign up`,
			[]string{"before"}, []string{"sign up"}},
		{"not a container", `<p class="footer">a paragraph</p><li class="menu">an item</li>`,
			[]string{"a paragraph", "an item"}, nil},
		{"words stay apart", own + `alpha<span class="share">x</span>beta`, []string{"alpha beta"}, []string{"x"}},
		{"layout cues on a short page (bitchmagazine.org tag pages: body \"one-sidebar\", column \"with-navbar\")",
			`<body class="one-sidebar"><div class="with-navbar"><p>a short post</p></div><div class="cookie-notice">we use cookies</div></body>`,
			[]string{"a short post"}, []string{"cookies"}},
		{"nothing but boilerplate", `<nav>Home News</nav><div class="sidebar">Most read</div>`,
			[]string{"Home News", "Most read"}, nil},
	}
	for _, c := range cases {
		text, st, err := HTMLToText([]byte(c.html), "text/html")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(text), w) {
				t.Errorf("%s: %q not in %q", c.name, w, text)
			}
		}
		for _, w := range c.not {
			if strings.Contains(string(text), w) {
				t.Errorf("%s: %q still in %q", c.name, w, text)
			}
		}
		if len(c.not) > 0 && st.BoilerplateRegions == 0 {
			t.Errorf("%s: no boilerplate region counted", c.name)
		}
		off, _, _ := HTMLToText([]byte(c.html), "text/html", WithMarkupBoilerplate(false))
		for _, w := range c.not {
			if !strings.Contains(string(off), w) {
				t.Errorf("%s, rule off: %q not in %q", c.name, w, off)
			}
		}
	}
}

// The layout-cue rule on real pages: bitchmagazine.org's tag pages
// (eval/realpages, ipwb's sample WARC) name their body "one-sidebar
// sidebar-first" and the column holding their one post "with-navbar";
// with every weak region dropped nothing but the title was left, so the
// tag pages that print a whole post were "identical texts". They keep the
// post, and the sidebars are still dropped where the page has text
// besides them.
func TestLayoutCuesRealTagPages(t *testing.T) {
	name := filepath.Join("..", "eval", "realpages", "warcs", "ipwb__sample-1.warc.gz")
	f, err := os.Open(name)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	want := map[string]string{
		"http://bitchmagazine.org/tag/femen":         "Doesn’t look like FEMEN consulted",
		"http://bitchmagazine.org/tag/cyberbullying": "Rise and shine!",
	}
	found := 0
	err = warc.ReadFile(f, name, warc.Options{}, func(r warc.Record) error {
		w, ok := want[r.TargetURI]
		if !ok || r.Skip != "" {
			return nil
		}
		found++
		text, st, err := PayloadText(r.Payload, r.ContentType)
		if err != nil || !strings.Contains(string(text), w) {
			t.Errorf("%s: %q not in its text (%d bytes, %v)", r.TargetURI, w, len(text), err)
		}
		// The sidebar (its subscription form) is kept only where the page
		// has nothing else.
		alone := r.TargetURI == "http://bitchmagazine.org/tag/femen"
		sidebar := strings.Contains(string(text), "Armed Forces Africa")
		if sidebar != alone || (st.BoilerplateRegions == 0) != alone {
			t.Errorf("%s: sidebar form in the text %v, %d regions dropped", r.TargetURI, sidebar, st.BoilerplateRegions)
		}
		return nil
	})
	if err != nil || found != len(want) {
		t.Fatalf("%d of %d pages found: %v", found, len(want), err)
	}
}
