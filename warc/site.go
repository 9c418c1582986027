package warc

import (
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// Site returns the site of a target URI: the registrable domain (eTLD+1,
// by the Public Suffix List as golang.org/x/net/publicsuffix holds it) of
// its host, lower-case, without a trailing dot; the host itself for an IP
// address or a host that is a public suffix; "" when the URI has no host
// (metadata:, urn:, a relative or malformed URI). "www.bbc.co.uk" and
// "news.bbc.co.uk" are the site "bbc.co.uk"; "a.blogspot.com" and
// "b.blogspot.com" are two sites. A Wayback replay URI
// (http://web.archive.org/web/…/http://example.com/) is the site
// "archive.org": its pages are served in the archive's own template.
func Site(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return ""
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" || net.ParseIP(host) != nil {
		return host
	}
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return host
}

// Site is Site of the record's target URI.
func (r Ref) Site() string { return Site(r.URI) }
