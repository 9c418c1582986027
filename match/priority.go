package match

import (
	"encoding/binary"
	"fmt"
	"strings"
	"time"
)

// Criteria of a keep Policy (the job's --keep flag), in the order given.
const (
	// KeepEarliest: earliest WARC-Date first. The first capture of a text is
	// the best guess for its original publication (syndicated copies and
	// mirrors appear later), and adding a later crawl to the input never
	// changes which of the earlier pages is kept.
	KeepEarliest = "earliest"
	// KeepLatest: latest WARC-Date first (the freshest capture).
	KeepLatest = "latest"
	// KeepLongest: longest extracted text (bytes) first: the most complete
	// copy (mirrors and feeds often truncate).
	KeepLongest = "longest"
	// KeepShortest: shortest extracted text first.
	KeepShortest = "shortest"
	// KeepURI: shortest WARC-Target-URI first, then bytewise smallest: the
	// canonical address tends to be the short one without session or
	// tracking parameters.
	KeepURI = "uri"
)

// DefaultKeep is the default keep policy: earliest WARC-Date, then longest
// text, then shortest URI (then, as always, record ID and record location).
const DefaultKeep = KeepEarliest + "," + KeepLongest + "," + KeepURI

// Policy is a parsed keep policy: criteria applied in order, each breaking
// the ties of the ones before. Every Policy ends with the record ID (shorter
// first, then bytewise) and the record's location (WARC file, offset, inner
// offset), so two records never tie.
type Policy []string

// ParsePolicy parses a comma-separated list of criteria (see the Keep*
// names), e.g. "earliest,longest,uri". Each criterion may appear once; the
// empty string is DefaultKeep.
func ParsePolicy(spec string) (Policy, error) {
	if strings.TrimSpace(spec) == "" {
		spec = DefaultKeep
	}
	var p Policy
	seen := map[string]bool{}
	for _, c := range strings.Split(spec, ",") {
		c = strings.TrimSpace(c)
		switch c {
		case KeepEarliest, KeepLatest, KeepLongest, KeepShortest, KeepURI:
		default:
			return nil, fmt.Errorf("keep criterion %q unknown (want %s, %s, %s, %s or %s)", c, KeepEarliest, KeepLatest, KeepLongest, KeepShortest, KeepURI)
		}
		if seen[c] {
			return nil, fmt.Errorf("keep criterion %q given twice", c)
		}
		if (c == KeepEarliest && seen[KeepLatest]) || (c == KeepLatest && seen[KeepEarliest]) ||
			(c == KeepLongest && seen[KeepShortest]) || (c == KeepShortest && seen[KeepLongest]) {
			return nil, fmt.Errorf("keep criteria %q contradict each other", spec)
		}
		seen[c] = true
		p = append(p, c)
	}
	return p, nil
}

// String is the policy as ParsePolicy reads it.
func (p Policy) String() string { return strings.Join(p, ",") }

// PageInfo is what a Policy ranks a page by.
type PageInfo struct {
	Date      string // WARC-Date as written (warc.Record.Date); "" when missing
	TextBytes int    // bytes of extracted text
	URI       string // WARC-Target-URI
	RecordID  string // WARC-Record-ID
	Location  string // unique location of the record, e.g. "file@offset+inner"
}

// Rank returns the page's rank under p: a byte string (not text: it is
// compared, never printed) whose ascending bytewise order is the priority
// order (smaller = kept
// first), distinct for distinct Locations. A missing or malformed WARC-Date sorts after every
// valid one, for "earliest" and "latest" alike (a page of unknown capture
// time never wins on time); pages without a date then tie on it and the
// next criteria decide. Dates are read by ParseWARCDate.
func (p Policy) Rank(pg PageInfo) string {
	b := make([]byte, 0, 64+len(pg.URI)+len(pg.RecordID)+len(pg.Location))
	for _, c := range p {
		switch c {
		case KeepEarliest, KeepLatest:
			t, ok := ParseWARCDate(pg.Date)
			if !ok {
				b = append(b, 1)
				b = append(b, make([]byte, 12)...)
				continue
			}
			sec := uint64(t.Unix()) ^ 1<<63 // order-preserving for negative seconds too
			nsec := uint32(t.Nanosecond())
			if c == KeepLatest {
				sec, nsec = ^sec, ^nsec
			}
			b = append(b, 0)
			b = binary.BigEndian.AppendUint64(b, sec)
			b = binary.BigEndian.AppendUint32(b, nsec)
		case KeepLongest:
			b = binary.BigEndian.AppendUint64(b, ^uint64(pg.TextBytes))
		case KeepShortest:
			b = binary.BigEndian.AppendUint64(b, uint64(pg.TextBytes))
		case KeepURI:
			b = AppendSized(b, pg.URI)
		}
	}
	b = AppendSized(b, pg.RecordID)
	return string(append(b, pg.Location...))
}

// AppendSized appends s after its length (4 bytes, big-endian), so the
// shorter string sorts first and a later field never runs into it. Every
// Rank ends with its RecordID so written and then its Location, which a
// coder can leave out of a page that carries both (transforms.appendPage).
func AppendSized(b []byte, s string) []byte {
	return append(binary.BigEndian.AppendUint32(b, uint32(len(s))), s...)
}

// dateLayouts are the WARC-Date forms ParseWARCDate accepts: W3C-ISO8601 as
// WARC/1.0 and 1.1 write it (§5.4 of the WARC 1.1 spec: seconds, optionally
// fractions of a second, UTC "Z"), the same with a numeric zone or only
// minutes or only a day, and the 14-digit form of ARC files and WARC/0.x.
var dateLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04Z07:00",
	"2006-01-02",
	"20060102150405",
}

// ParseWARCDate reads a WARC-Date; ok is false for a missing or malformed
// one.
func ParseWARCDate(s string) (t time.Time, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
