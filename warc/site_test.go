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
