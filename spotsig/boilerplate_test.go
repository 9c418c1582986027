package spotsig

import (
	"strings"
	"testing"
)

// The markup rule of boilerplate.go on hand-made pages: text in boilerplate
// elements is dropped, a long text in an element whose class only looks
// like boilerplate (a layout modifier) is kept, nesting and unclosed
// regions end where a browser would end them, and the option turns it off.
func TestMarkupBoilerplate(t *testing.T) {
	article := strings.Repeat("the quick brown fox jumps over the lazy dog ", 30) // 270 words
	cases := []struct {
		name, html string
		want       []string // substrings of the text
		not        []string // substrings that must be gone
	}{
		{"cookie dialog", `<body><p>keep me</p><div role="dialog" aria-label="cookieconsent"><span>We use cookies</span></div></body>`,
			[]string{"keep me"}, []string{"cookies"}},
		{"replay toolbar (strong, any length)", `<div id="wm-ipp-base"><div>` + article + `</div></div><p>page text</p>`,
			[]string{"page text"}, []string{"fox"}},
		{"nav footer aside", `<nav>Home News</nav><p>body</p><aside>Related</aside><footer>Licence text</footer>`,
			[]string{"body"}, []string{"Home", "Related", "Licence"}},
		{"camelCase and words", `<div class="CookieBar">accept all</div><div id="share-tools">Tweet this</div><p>x</p>`,
			[]string{"x"}, []string{"accept", "Tweet"}},
		{"layout class holding the article", `<div class="content-with-sidebar-wrap"><p>` + article + `</p><div class="sidebar">Most read</div></div>`,
			[]string{"quick brown fox", "\n"}, []string{"Most read"}},
		{"nested same tag", `<div class="comments"><div>one</div><div>two</div></div><div>after</div>`,
			[]string{"after"}, []string{"one", "two"}},
		{"unclosed region ends at the end of the input", `<p>before</p><div class="newsletter"><p>sign up`,
			[]string{"before"}, []string{"sign up"}},
		{"not a container", `<p class="footer">a paragraph</p><li class="menu">an item</li>`,
			[]string{"a paragraph", "an item"}, nil},
		{"words stay apart", `alpha<span class="share">x</span>beta`, []string{"alpha beta"}, []string{"x"}},
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
