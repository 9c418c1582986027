package warc

import (
	"os"
	"testing"
)

func TestCharsetParam(t *testing.T) {
	for ct, want := range map[string]string{
		"text/html; charset=ISO-8859-1":            "iso-8859-1",
		`text/html;Charset="UTF-8"`:                "utf-8",
		"text/html; foo=bar; charset=windows-1252": "windows-1252",
		"text/html; foo; charset='big5'":           "big5",
		"text/html":                                "",
		"":                                         "",
		"text/html; charset=":                      "",
	} {
		if got := charsetParam(ct); got != want {
			t.Errorf("charsetParam(%q) = %q, want %q", ct, got, want)
		}
	}
}

// The gold set labels every page's HTTP Content-Type with its real charset
// (its README counts them); the reader must hand that label on, since
// spotsig gives the HTTP charset precedence over <meta>.
func TestCharsetFromHTTPHeader(t *testing.T) {
	f, err := os.Open("../../shared/data/goldset/gold.warc.gz")
	if err != nil {
		t.Skip("gold set absent:", err)
	}
	defer f.Close()
	seen := map[string]int{}
	err = ReadFile(f, "gold.warc.gz", Options{}, func(r Record) error {
		if r.Skip == "" {
			seen[r.Charset]++
			if r.MIMEType() != r.ContentType+"; charset="+r.Charset {
				t.Fatalf("MIMEType() = %q for %q / %q", r.MIMEType(), r.ContentType, r.Charset)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// README: big5:2 gb2312:3 iso-8859-1:282 macintosh:3 utf-8:1969 windows-1252:53 windows-874:1
	for cs, n := range map[string]int{"big5": 2, "gb2312": 3, "iso-8859-1": 282, "macintosh": 3, "utf-8": 1969, "windows-1252": 53, "windows-874": 1} {
		if seen[cs] != n {
			t.Errorf("charset %s: %d pages, gold README says %d (all: %v)", cs, seen[cs], n, seen)
		}
	}
}
