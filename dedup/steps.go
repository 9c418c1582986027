package dedup

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/warc"
)

// Candidate is a WARC record that may be a document: its identity, its
// WARC-Date as written (warc.Record.Date, for the keep policy), its
// payload's media type (with charset, warc.Record.MIMEType) and payload.
type Candidate struct {
	warc.Ref
	Date        string
	ContentType string
	Payload     []byte
	// Quirks are the reader's repairs of the record (warc.Record.Quirks),
	// for the read stage's counts; nil for most records.
	Quirks []string
}

// Classify is the step after warc.ReadFile: a record it did not skip is a
// Candidate, any other a Reject with the reader's reason. ok reports which.
func Classify(r warc.Record) (c Candidate, rej output.Reject, ok bool) {
	if r.Skip != "" {
		return Candidate{}, output.Reject{Ref: r.Ref(), Reason: r.Skip, Detail: r.Detail, Quirks: r.Quirks}, false
	}
	return Candidate{Ref: r.Ref(), Date: r.Date, ContentType: r.MIMEType(), Payload: r.Payload, Quirks: r.Quirks}, output.Reject{}, true
}

// Sign signs a candidate with signer (NewSigner) and ranks its page by
// pol (the keep policy). The result is a document (IsDoc: Doc with its
// Page, Site, signatures and language), or a Reject with the signer's
// reason, or with output.ReasonNoSignatures for a payload that became text but
// gave no signature. HasPage reports that the payload became text: Doc.Page
// is then a page the decisions keep or drop, with or without signatures.
func Sign(ctx context.Context, signer Signer, pol match.Policy, c Candidate) Signed {
	s := signer.Sign(ctx, c.Payload, c.ContentType)
	if s.Reject.Reason != "" {
		return Signed{Reject: output.Reject{Ref: c.Ref, Reason: s.Reject.Reason, Detail: s.Reject.Detail}}
	}
	s.HasPage = true
	s.Doc.Ref, s.Doc.Date = c.Ref, c.Date
	s.Doc.Rank = pol.Rank(match.PageInfo{Date: c.Date, TextBytes: s.TextBytes, URI: c.URI, RecordID: c.RecordID, Location: c.Key()})
	if len(s.Doc.Vec.Hashes) == 0 && len(s.Doc.Blocks) == 0 {
		s.Reject = output.Reject{Ref: c.Ref, Reason: output.ReasonNoSignatures}
		return s
	}
	s.Doc.Site = SiteOf(c.Ref)
	return s
}

// CheckMinSignatures rejects a document whose vector length |d| after the
// IDF filter is below min (or 0), with output.ReasonTooFewSignatures.
func CheckMinSignatures(d Doc, min int) (output.Reject, bool) {
	l := d.Vec.Len()
	if l < min || l == 0 {
		return output.Reject{Ref: d.Ref, Reason: output.ReasonTooFewSignatures,
			Detail: itoa(l) + " signatures after the IDF filter, minimum " + itoa(min)}, false
	}
	return output.Reject{}, true
}

// ReadFile reads one WARC file with warc.ReadFile under opts and hands each
// record on as a Candidate or a Reject (Classify). openErr is the error of
// opening the file (r is then ignored): the file becomes one Reject with
// ReasonUnreadableFile at offset -1. A file of 0 bytes becomes one Reject
// with ReasonEmptyFile at offset -1. An I/O error while reading becomes one
// more Reject with ReasonUnreadableFile at the last offset reached. Every
// record read, and every such failure, reaches exactly one callback.
func ReadFile(name string, r io.Reader, openErr error, opts warc.Options, candidate func(Candidate), reject func(output.Reject)) {
	if openErr != nil {
		reject(output.Reject{Ref: warc.Ref{File: name, Offset: -1}, Reason: ReasonUnreadableFile, Detail: openErr.Error()})
		return
	}
	cr := &CountingReader{R: r}
	last := int64(0)
	err := warc.ReadFile(cr, name, opts, func(rec warc.Record) error {
		last = rec.Offset
		if c, rej, ok := Classify(rec); ok {
			candidate(c)
		} else {
			reject(rej)
		}
		return nil
	})
	switch {
	case err != nil:
		reject(output.Reject{Ref: warc.Ref{File: name, Offset: last}, Reason: ReasonUnreadableFile,
			Detail: fmt.Sprintf("reading stopped after offset %d: %v", last, err)})
	case cr.N == 0:
		reject(output.Reject{Ref: warc.Ref{File: name, Offset: -1}, Reason: ReasonEmptyFile, Detail: "the file holds 0 bytes"})
	}
}

// CountingReader counts the bytes read through R in N and, when Add is
// non-nil, hands each read's byte count (> 0) to Add: ReadWARC tells an
// empty file by it, and the Beam job counts the bytes read (read/bytes).
type CountingReader struct {
	R   io.Reader
	N   int64
	Add func(n int64)
}

func (c *CountingReader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	if n > 0 {
		c.N += int64(n)
		if c.Add != nil {
			c.Add(int64(n))
		}
	}
	return n, err
}

func itoa(n int) string { return strconv.Itoa(n) }
