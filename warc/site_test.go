package warc

import "testing"

func TestSite(t *testing.T) {
	for _, c := range []struct{ uri, want string }{
		{"http://www.archive.org/details/webtv/2.5", "archive.org"},
		{"https://archive.org/", "archive.org"},
		{"http://web.archive.org/web/20120111012115/http://en.wikipedia.org/wiki/West_Baden_Springs", "archive.org"},
		// a render record's site is that of the page it renders
		{"onreadydom:http://www.bitchmagazine.org/post/x", "bitchmagazine.org"},
		{"imagemap:https://example.com/", "example.com"},
		{"dns:www.archive.org", ""},
		{"http://news.bbc.co.uk/2/hi/europe/7456897.stm", "bbc.co.uk"},
		{"http://WWW.Example.COM.:8080/a?b", "example.com"},
		{"https://a.blogspot.com/x", "a.blogspot.com"}, // blogspot.com is a public suffix
		{"https://b.blogspot.com/x", "b.blogspot.com"},
		{"http://10.0.0.1/page", "10.0.0.1"},
		{"http://[2001:db8::1]/page", "2001:db8::1"},
		{"http://localhost/page", "localhost"},
		{"http://uk/", "uk"}, // a public suffix alone
		{"metadata://gnu.org/software/wget/warc/wget.log", "gnu.org"},
		{"urn:uuid:1d66b0fd-aed4-4e9c-8bf3-660ae81ec115", ""},
		{"", ""},
		{"http://%zz/", ""},
	} {
		if got := Site(c.uri); got != c.want {
			t.Errorf("Site(%q) = %q, want %q", c.uri, got, c.want)
		}
	}
	if got := (Ref{URI: "http://data.gov.uk/library"}).Site(); got != "data.gov.uk" {
		t.Errorf("Ref.Site = %q", got)
	}
}

func TestCapturedURI(t *testing.T) {
	for _, c := range []struct{ uri, want string }{
		{"http://web.archive.org/web/20120111012115/http://en.wikipedia.org/wiki/West_Baden_Springs", "http://en.wikipedia.org/wiki/West_Baden_Springs"},
		{"http://web.archive.org/web/20120111012115id_/https://www.example.co.uk/a", "https://www.example.co.uk/a"},
		{"https://replay.example.net/my-coll/20140126200624/www.iana.org/domains", "http://www.iana.org/domains"},
		{"http://localhost:8080/pywb/2014/http:/example.com/", "http://example.com/"},
		{"onreadydom:http://www.bitchmagazine.org/post/x", "http://www.bitchmagazine.org/post/x"},
		{"onreadydom:http://web.archive.org/web/20120111012115/http://example.org/", "http://example.org/"},
		// not captures of another URL: a year in a path, a short timestamp before a host, other schemes
		{"http://news.example.com/2012/07/post", "http://news.example.com/2012/07/post"},
		{"http://news.example.com/2012/www.other.com/x", "http://news.example.com/2012/www.other.com/x"},
		{"dns:www.archive.org", "dns:www.archive.org"},
		{"urn:uuid:1d66b0fd-aed4-4e9c-8bf3-660ae81ec115", "urn:uuid:1d66b0fd-aed4-4e9c-8bf3-660ae81ec115"},
	} {
		if got := CapturedURI(c.uri); got != c.want {
			t.Errorf("CapturedURI(%q) = %q, want %q", c.uri, got, c.want)
		}
	}
}

// URLKey: one key for the captures of one page (scheme, www., default
// port, trailing slash, fragment and query order aside, replay and render
// wrappers resolved), different keys for different pages, none for a URI
// that is not an http(s) URL with a host.
func TestURLKey(t *testing.T) {
	same := [][]string{
		{"https://www.Example.com:443/a/?b=2&a=1#top", "http://example.com/a?a=1&b=2", "onreadydom:http://example.com/a?a=1&b=2"},
		{"https://archive.org/", "http://archive.org", "http://web.archive.org/web/20130510105357/https://archive.org/"},
	}
	for _, g := range same {
		for _, u := range g[1:] {
			if URLKey(u) != URLKey(g[0]) || URLKey(u) == "" {
				t.Errorf("URLKey(%q) = %q, URLKey(%q) = %q: want one key", u, URLKey(u), g[0], URLKey(g[0]))
			}
		}
	}
	for _, d := range [][2]string{{"http://example.com/a", "http://example.com/b"}, {"http://example.com/?p=1", "http://example.com/?p=2"},
		{"http://example.com/", "http://example.com:8080/"}, {"http://a.example.com/", "http://b.example.com/"}} {
		if URLKey(d[0]) == URLKey(d[1]) {
			t.Errorf("%q and %q: one key %q", d[0], d[1], URLKey(d[0]))
		}
	}
	for _, u := range []string{"metadata://gnu.org/software/wget/warc/wget.log", "file:///provenance-summary.html", "urn:uuid:x", "dns:example.com", "/relative", ""} {
		if k := URLKey(u); k != "" {
			t.Errorf("URLKey(%q) = %q, want none", u, k)
		}
	}
}
