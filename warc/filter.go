package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Filtering a WARC file: the records of dropped pages, and the records
// that belong to them, taken out; every other byte copied as it is.
//
// A record belongs to a dropped page P when it is a request, metadata or
// revisit record of the same file (WARC 1.1 §6.4, §6.6, §6.7; never a
// page, never a record of a type that can hold one) and
//
//   - its WARC-Concurrent-To names P's WARC-Record-ID, or P's
//     WARC-Concurrent-To names its record ID (§5.7: records of one
//     capture event), LinkConcurrentTo;
//   - its WARC-Refers-To names P's record ID (§5.8: a revisit or
//     metadata record about P), LinkRefersTo;
//   - or it has P's WARC-Target-URI and WARC-Date, both non-empty
//     (writers that do not link a request to its response),
//     LinkURIDate;
//
// and it belongs by the same rules to no response, resource or conversion
// record of the file that is not dropped (a kept page, or a record that is
// no page such as an image response): such a record is kept. Links across
// files are not followed. The unit removed is the record's bytes: its gzip
// member in a .warc.gz, from its "WARC/" line to the next record's in a
// plain .warc. A gzip member that holds a record that stays (ClueWeb09
// compresses a whole file as one member) is kept whole, its records
// counted in Plan.Shared, since a member is never re-compressed.

// Pos is the place of a record in its file: Record.Offset and
// Record.InnerOffset.
type Pos struct {
	Offset, Inner int64
}

// The links by which a removed record belongs to its dropped page.
const (
	LinkPage         = "page" // the dropped page itself
	LinkConcurrentTo = "concurrent-to"
	LinkRefersTo     = "refers-to"
	LinkURIDate      = "uri-date"
)

// Removed is one record a Plan removes (or, in Plan.Shared, would remove
// but keeps with its gzip member).
type Removed struct {
	Offset   int64  `json:"offset"`
	Inner    int64  `json:"inner_offset"`
	Type     string `json:"type"`
	RecordID string `json:"record_id"`
	URI      string `json:"uri"`
	Date     string `json:"date"`
	// Page is the dropped page the record belongs to (the record itself
	// for LinkPage), Link how.
	Page Pos    `json:"-"`
	Link string `json:"link"`
}

// Plan is what filtering one WARC file removes, from one reading of it
// (PlanFilter); Copy writes the filtered file.
type Plan struct {
	// Records is the number of records and unreadable stretches read
	// (every item ReadFile emitted).
	Records int
	// Removed are the records removed, in file order; Shared those that
	// belong to a dropped page but stay, as their gzip member holds a
	// record that stays.
	Removed, Shared []Removed
	// Gzip is true for a gzip-compressed file (it starts with a gzip
	// member); Size is the file's length in bytes.
	Gzip bool
	Size int64
	// cut are the byte ranges [from, to) removed, ascending, disjoint.
	cut [][2]int64
}

// linkInfo is what PlanFilter keeps of a record.
type linkInfo struct {
	pos        Pos
	typ        string
	id, uri    string
	date       string
	concurrent []string
	refersTo   string
}

// PlanFilter reads the WARC file r (as ReadFile, under opts: the options
// the pages were found with, so offsets agree) and returns what filtering
// it removes: the records at the positions in pages (dropped pages;
// records of a type that cannot hold a page are refused) and the records
// that belong to them (see the rules above). It fails when r fails, or when
// a position in pages is not a record of a page type in the file (the file
// changed since it was read, or pages came from another file).
func PlanFilter(r io.Reader, name string, opts Options, pages map[Pos]bool) (*Plan, error) {
	cr := &countReader{r: bufio.NewReaderSize(r, 1<<16)}
	p := &Plan{}
	if m, _ := cr.r.Peek(2); len(m) == 2 && m[0] == 0x1f && m[1] == 0x8b {
		p.Gzip = true
	}
	var recs []linkInfo
	err := ReadFile(cr, name, opts, func(rec Record) error {
		p.Records++
		recs = append(recs, linkInfo{pos: Pos{rec.Offset, rec.InnerOffset}, typ: rec.Type, id: rec.RecordID,
			uri: rec.TargetURI, date: rec.Date, concurrent: rec.ConcurrentTo, refersTo: rec.RefersTo})
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.Size = cr.n

	// The dropped pages, and what links to the records that stay.
	found := 0
	var dropped []int
	keptIDs, keptURIDate := map[string]bool{}, map[[2]string]bool{}
	keptConcurrent := map[string]bool{}
	for i, rec := range recs {
		if pages[rec.pos] {
			if !IsDocumentType(rec.typ) {
				return nil, fmt.Errorf("warc: filtering %s: the record at offset %d (inner %d) is a %q record, not a page", name, rec.pos.Offset, rec.pos.Inner, rec.typ)
			}
			found++
			dropped = append(dropped, i)
			continue
		}
		if IsDocumentType(rec.typ) {
			if rec.id != "" {
				keptIDs[rec.id] = true
			}
			if rec.uri != "" && rec.date != "" {
				keptURIDate[[2]string{rec.uri, rec.date}] = true
			}
			for _, c := range rec.concurrent {
				keptConcurrent[c] = true
			}
		}
	}
	if found != len(pages) {
		return nil, fmt.Errorf("warc: filtering %s: %d of the %d dropped pages are not records of the file (changed since it was read?)", name, len(pages)-found, len(pages))
	}
	byID, byURIDate, byConcurrent := map[string]int{}, map[[2]string]int{}, map[string]int{}
	for _, i := range dropped {
		d := recs[i]
		if d.id != "" {
			if _, ok := byID[d.id]; !ok {
				byID[d.id] = i
			}
		}
		if d.uri != "" && d.date != "" {
			if _, ok := byURIDate[[2]string{d.uri, d.date}]; !ok {
				byURIDate[[2]string{d.uri, d.date}] = i
			}
		}
		for _, c := range d.concurrent {
			if _, ok := byConcurrent[c]; !ok {
				byConcurrent[c] = i
			}
		}
	}

	// Every record's fate; then the units (gzip members, or records of a
	// plain file) removed whole.
	remove := make([]bool, len(recs))
	removed := make([]Removed, len(recs))
	for _, i := range dropped {
		remove[i] = true
		removed[i] = toRemoved(recs[i], recs[i].pos, LinkPage)
	}
	for i, rec := range recs {
		if remove[i] || !linkable(rec.typ) {
			continue
		}
		page, link := -1, ""
		for _, c := range rec.concurrent {
			if j, ok := byID[c]; ok && page < 0 {
				page, link = j, LinkConcurrentTo
			}
		}
		if j, ok := byConcurrent[rec.id]; ok && rec.id != "" && page < 0 {
			page, link = j, LinkConcurrentTo
		}
		if j, ok := byID[rec.refersTo]; ok && rec.refersTo != "" && page < 0 {
			page, link = j, LinkRefersTo
		}
		if j, ok := byURIDate[[2]string{rec.uri, rec.date}]; ok && rec.uri != "" && rec.date != "" && page < 0 {
			page, link = j, LinkURIDate
		}
		if page < 0 || belongsToKept(rec, keptIDs, keptURIDate, keptConcurrent) {
			continue
		}
		remove[i] = true
		removed[i] = toRemoved(rec, recs[page].pos, link)
	}
	for start := 0; start < len(recs); {
		end := start + 1
		for end < len(recs) && recs[end].pos.Offset == recs[start].pos.Offset {
			end++
		}
		whole := true
		for i := start; i < end; i++ {
			whole = whole && remove[i]
		}
		for i := start; i < end; i++ {
			switch {
			case remove[i] && whole:
				p.Removed = append(p.Removed, removed[i])
			case remove[i]:
				p.Shared = append(p.Shared, removed[i])
			}
		}
		if whole {
			to := p.Size
			if end < len(recs) {
				to = recs[end].pos.Offset
			}
			if n := len(p.cut); n > 0 && p.cut[n-1][1] == recs[start].pos.Offset {
				p.cut[n-1][1] = to
			} else {
				p.cut = append(p.cut, [2]int64{recs[start].pos.Offset, to})
			}
		}
		start = end
	}
	return p, nil
}

// linkable reports whether a record of type typ can belong to a page: a
// request, metadata or revisit record.
func linkable(typ string) bool {
	return typ == "request" || typ == "metadata" || typ == "revisit"
}

// belongsToKept reports whether rec is linked by the same rules to a
// record of a page type that stays.
func belongsToKept(rec linkInfo, ids map[string]bool, uriDate map[[2]string]bool, concurrent map[string]bool) bool {
	for _, c := range rec.concurrent {
		if ids[c] {
			return true
		}
	}
	return (rec.id != "" && concurrent[rec.id]) || (rec.refersTo != "" && ids[rec.refersTo]) ||
		(rec.uri != "" && rec.date != "" && uriDate[[2]string{rec.uri, rec.date}])
}

func toRemoved(rec linkInfo, page Pos, link string) Removed {
	return Removed{Offset: rec.pos.Offset, Inner: rec.pos.Inner, Type: rec.typ, RecordID: rec.id, URI: rec.uri,
		Date: rec.date, Page: page, Link: link}
}

// Copy writes the filtered file to dst: every byte of src (the same file
// PlanFilter read) outside the removed units, in order, as it is. It fails
// when src is not Size bytes long.
func (p *Plan) Copy(dst io.Writer, src io.Reader) (int64, error) {
	var at, written int64
	for _, c := range p.cut {
		n, err := io.CopyN(dst, src, c[0]-at)
		written += n
		if err != nil {
			return written, fmt.Errorf("copying bytes %d to %d: %w", at, c[0], err)
		}
		if _, err := io.CopyN(io.Discard, src, c[1]-c[0]); err != nil {
			return written, fmt.Errorf("skipping bytes %d to %d: %w", c[0], c[1], err)
		}
		at = c[1]
	}
	n, err := io.Copy(dst, src)
	written += n
	if err != nil {
		return written, err
	}
	if at+n != p.Size {
		return written, fmt.Errorf("the file is %d bytes long, was %d when planned", at+n, p.Size)
	}
	return written, nil
}

// RemovedBytes is the number of input bytes Copy leaves out.
func (p *Plan) RemovedBytes() int64 {
	var n int64
	for _, c := range p.cut {
		n += c[1] - c[0]
	}
	return n
}

// Warcinfo returns a complete warcinfo record (WARC 1.1 §6.2): version line
// WARC/1.1, WARC-Type, WARC-Record-ID id (a URI, written in angle
// brackets), WARC-Date date (UTC, seconds), WARC-Filename filename (when
// not ""), Content-Type application/warc-fields, WARC-Block-Digest (SHA-1,
// base32) and Content-Length, then fields as "name: value" lines (values
// with CR or LF have them replaced by spaces), then the two CRLFs that end
// a record. With gz it is one gzip member of its own (WARC 1.1 Annex D),
// its header without name or time so the bytes depend on the arguments
// only.
func Warcinfo(id string, date time.Time, filename string, fields [][2]string, gz bool) []byte {
	var block bytes.Buffer
	clean := strings.NewReplacer("\r", " ", "\n", " ")
	for _, f := range fields {
		block.WriteString(f[0] + ": " + clean.Replace(f[1]) + "\r\n")
	}
	sum := sha1.Sum(block.Bytes())
	var rec bytes.Buffer
	rec.WriteString("WARC/1.1\r\nWARC-Type: warcinfo\r\n")
	rec.WriteString("WARC-Record-ID: <" + id + ">\r\n")
	rec.WriteString("WARC-Date: " + date.UTC().Format("2006-01-02T15:04:05Z") + "\r\n")
	if filename != "" {
		rec.WriteString("WARC-Filename: " + clean.Replace(filename) + "\r\n")
	}
	rec.WriteString("Content-Type: application/warc-fields\r\n")
	rec.WriteString("WARC-Block-Digest: sha1:" + base32.StdEncoding.EncodeToString(sum[:]) + "\r\n")
	rec.WriteString("Content-Length: " + strconv.Itoa(block.Len()) + "\r\n\r\n")
	rec.Write(block.Bytes())
	rec.WriteString("\r\n\r\n")
	if !gz {
		return rec.Bytes()
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(rec.Bytes())
	w.Close()
	return z.Bytes()
}

// countReader counts the bytes read through it.
type countReader struct {
	r *bufio.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
