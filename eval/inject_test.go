package eval

import (
	"strings"
	"testing"
)

// An injection goes before the last </body>, or after the first </p>, in
// any case; a page without the tag is left alone.
func TestInjectionPlacement(t *testing.T) {
	page := "<HTML><BODY><P>one</P><p>two</p></BODY></HTML>"
	for _, c := range []struct {
		afterP bool
		page   string
		want   string
	}{
		{false, page, "<HTML><BODY><P>one</P><p>two</p>[X]</BODY></HTML>"},
		{true, page, "<HTML><BODY><P>one</P>[X]<p>two</p></BODY></HTML>"},
		{true, "<body>no paragraph</body>", ""},
		{false, "no body", ""},
	} {
		in := Injection{Fraction: 1, HTML: "[X]", AfterFirstP: c.afterP}
		got, ok := in.apply("id", []byte(c.page))
		if ok != (c.want != "") || ok && string(got) != c.want {
			t.Errorf("after </p> %v on %q: %q, %v; want %q", c.afterP, c.page, got, ok, c.want)
		}
	}
}

// The rows per block language: marked, plain and plain after the first
// </p>, each at 100, 30 and 5 %, the block's language recorded; pages
// chosen at 5 % are among those at 30 %.
func TestBoilerplateInjections(t *testing.T) {
	ins, err := BoilerplateInjections("en", "de")
	if err != nil || len(ins) != 18 {
		t.Fatalf("%d injections, %v; want 18", len(ins), err)
	}
	if ins[9].Name != "de marked, 100 %" || ins[9].Lang != "de" || !strings.Contains(ins[9].HTML, "Datenschutzerklärung") ||
		ins[8].Name != "en plain after the first </p>, 5 %" || !ins[8].AfterFirstP {
		t.Errorf("rows %q (%s), %q", ins[9].Name, ins[9].Lang, ins[8].Name)
	}
	if _, err := BoilerplateInjections("xx"); err == nil {
		t.Error("unknown block language accepted")
	}
	for i := range 1000 {
		id := strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strings.Repeat("y", i/26)
		if ins[2].chosen(id) && !ins[1].chosen(id) {
			t.Fatalf("%q chosen at 5 %% but not at 30 %%", id)
		}
	}
	if got := InjectedLanguages(ins); len(got) != 2 || got[0] != "en" || got[1] != "de" {
		t.Errorf("InjectedLanguages = %v", got)
	}
}
