package warc

import (
	"net"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// Site returns the site of a target URI: the registrable domain (eTLD+1,
// by the Public Suffix List as golang.org/x/net/publicsuffix holds it) of
// its host, lower-case, without a trailing dot; the host itself for an IP
// address or a host that is a public suffix; "" when the URI has no host
// (metadata:, urn:, a relative or malformed URI). "www.bbc.co.uk" and
// "news.bbc.co.uk" are the site "bbc.co.uk"; "a.blogspot.com" and
// "b.blogspot.com" are two sites. A browser-rendering record's target URI
// is the site of the URL it renders (RenderedURI:
// "onreadydom:http://example.com/" is "example.com"). A Wayback replay URI
// (http://web.archive.org/web/…/http://example.com/) is still the site
// "archive.org": CapturedURI resolves it, but without verification of
// pairs on their main text the same-site rule is what keeps two replayed
// pages of different sites that share a syndicated paragraph apart
// (docs/quality.md, "Verification").
func Site(uri string) string {
	u, err := url.Parse(RenderedURI(uri))
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

// URLKey returns the key of the URL a target URI captures (CapturedURI),
// so that two captures of one page have one key: its host lower-case
// without a trailing dot or a leading "www.", its port unless the
// scheme's default, its path (as net/url escapes it) without a trailing
// "/", and its query with the parameters sorted by key (url.Values.Encode);
// not its scheme (http and https captures of a page are one page), user
// information or fragment. "" when the URI is not an http(s) URL with a
// host (metadata:, urn:, file:, a relative or malformed URI).
// "https://www.Example.com:443/a/?b=2&a=1#top" and
// "http://example.com/a?a=1&b=2" are one key. net/url rather than a
// WHATWG parser: it costs about a tenth (the key is taken for every page).
func URLKey(uri string) string {
	u, err := url.Parse(CapturedURI(uri))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	host := strings.TrimPrefix(strings.TrimSuffix(strings.ToLower(u.Hostname()), "."), "www.")
	if host == "" {
		return ""
	}
	if port := u.Port(); port != "" && !(port == "80" && u.Scheme == "http") && !(port == "443" && u.Scheme == "https") {
		host += ":" + port
	}
	key := host + strings.TrimSuffix(u.EscapedPath(), "/")
	if u.RawQuery != "" {
		key += "?" + u.Query().Encode()
	}
	return key
}

// replayURI matches a replay system's URI of a capture (Wayback Machine,
// pywb, OpenWayback): a timestamp path segment of 4 to 14 digits,
// optionally with a modifier such as "id_" or "im_", then the captured URL
// (group 2). CapturedURI takes the URL only when it has a scheme, or when
// the timestamp is a whole one (14 digits) and the URL starts with a host
// name, so "http://example.com/2012/07/post" stays what it is.
var replayURI = regexp.MustCompile(`^https?://[^/]+/(?:[^/?#]+/)*?(\d{4,14})(?:[a-z]{2}_)?/([^/?#].*)$`)

// CapturedURI returns the URL a target URI captures: the URI itself, or the
// URL it wraps when it is a browser-rendering record's URI (a scheme of its
// own before an http(s) URL, as Heritrix and Webrecorder write
// "onreadydom:http://…", "imagemap:http://…") or a replay system's URI
// (replayURI). "http:/" (as some replay URIs fold "//") becomes "http://",
// and a replayed host without a scheme gets "http://". The result is for
// finding the site; outputs keep the target URI as written.
func CapturedURI(uri string) string {
	for range 4 { // a replay of a render record, and so on; bounded
		if r := RenderedURI(uri); r != uri {
			uri = r
			continue
		}
		m := replayURI.FindStringSubmatch(uri)
		if m == nil {
			return uri
		}
		inner := m[2]
		switch {
		case strings.HasPrefix(inner, "http://"), strings.HasPrefix(inner, "https://"):
		case strings.HasPrefix(inner, "http:/"), strings.HasPrefix(inner, "https:/"):
			s, r, _ := strings.Cut(inner, ":/")
			inner = s + "://" + r
		default:
			host, _, _ := strings.Cut(inner, "/")
			if len(m[1]) != 14 || !strings.Contains(host, ".") {
				return uri
			}
			inner = "http://" + inner
		}
		uri = inner
	}
	return uri
}

// RenderedURI returns the URL a browser-rendering record's target URI
// renders: the http(s) URL after a scheme of the record's own, as Heritrix
// and Webrecorder write "onreadydom:http://…" and "imagemap:http://…"; any
// other URI as it is.
func RenderedURI(uri string) string {
	if scheme, rest, ok := strings.Cut(uri, ":"); ok && scheme != "http" && scheme != "https" &&
		(strings.HasPrefix(rest, "http://") || strings.HasPrefix(rest, "https://")) {
		return rest
	}
	return uri
}
