package dedup

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// The job's own reject reasons (warc.ReadFile gives the others, see
// warc.Reasons and docs/robustness.md).
const (
	// ReasonUnreadableFile: the WARC file could not be opened, or reading it
	// failed with an I/O error (not a format error, which warc.ReadFile
	// reports per record). It counts as one record at offset -1 (open) or
	// at the offset reached.
	ReasonUnreadableFile = "unreadable-file"
	// ReasonIrregularFile: the input path is not a regular file and is not
	// opened: a directory, a FIFO, a device (/dev/zero), a socket, a
	// dangling symbolic link or a symbolic link loop. One record at offset
	// -1; the detail says which.
	ReasonIrregularFile = "irregular-file"
	// ReasonEmptyFile: the input file holds 0 bytes. One record at offset
	// -1.
	ReasonEmptyFile = "empty-file"
	// ReasonDuplicateFile: the input path reaches a file that another input
	// path reaches too (a symbolic link, a hard link, "./a" and "a", the
	// same URL spelt twice), which is read once under the other path, named
	// in the detail. One record at offset -1 for the path not read.
	ReasonDuplicateFile = "duplicate-file"
	// ReasonNoSignatures: the document's text yields no signature at all
	// with the configured scheme (e.g. no antecedent occurs), so it takes
	// no part in IDF statistics or matching.
	ReasonNoSignatures = "no-signatures"
	// ReasonTooFewSignatures: after the IDF filter the document's vector
	// length |d| is below config.Params.MinSignatures.
	ReasonTooFewSignatures = "too-few-signatures"
)

// Candidate is a WARC record that may be a document: its identity, its
// WARC-Date as written (warc.Record.Date, for the keep policy), its
// payload's media type (with charset, warc.Record.MIMEType) and payload.
type Candidate struct {
	warc.Ref
	Date        string
	ContentType string
	Payload     []byte
}

// Doc is a document with its signature vector (§4.1.2) and the language
// whose data signed it ("" for a scheme without languages, see
// config.Signed). Between Sign and DropSharedBlocks, Vec holds the
// signatures of the page's main content and Blocks those of each text block
// outside it (config.Signed); afterwards Blocks is nil.
type Doc struct {
	warc.Ref
	Vec    spotsig.Vector
	Blocks []spotsig.Block
	Lang   string
}

// Classify is the step after warc.ReadFile: a record it did not skip is a
// Candidate, any other a Reject with the reader's reason. ok reports which.
func Classify(r warc.Record) (c Candidate, rej Reject, ok bool) {
	if r.Skip != "" {
		return Candidate{}, Reject{Ref: r.Ref(), Reason: r.Skip, Detail: r.Detail}, false
	}
	return Candidate{Ref: r.Ref(), Date: r.Date, ContentType: r.MIMEType(), Payload: r.Payload}, Reject{}, true
}

// Sign turns a candidate into a document with signer (config.NewSigner), or
// a Reject: the signer's own reason, or ReasonNoSignatures for an empty
// vector. capped names the caps that applied to a kept document. page is
// the candidate as a Page ranked by pol when its payload became text (the
// page policy), with or without signatures; nil otherwise.
func Sign(ctx context.Context, signer config.Signer, pol match.Policy, c Candidate) (d Doc, rej Reject, capped []string, page *Page, ok bool) {
	s, reason, detail := signer.Sign(ctx, c.Payload, c.ContentType)
	if reason == "" {
		page = &Page{Ref: c.Ref, Digest: s.Text.Digest, Capped: s.Capped, Date: c.Date,
			Rank: pol.Rank(match.PageInfo{Date: c.Date, TextBytes: s.Text.Bytes, URI: c.URI, RecordID: c.RecordID, Location: c.Key()})}
	}
	if reason == "" && len(s.Vec.Hashes) == 0 && len(s.Blocks) == 0 {
		reason = ReasonNoSignatures
	}
	if reason != "" {
		return Doc{}, Reject{Ref: c.Ref, Reason: reason, Detail: detail}, nil, page, false
	}
	return Doc{Ref: c.Ref, Vec: s.Vec, Blocks: s.Blocks, Lang: s.Lang}, Reject{}, s.Capped, page, true
}

// CheckMinSignatures rejects a document whose vector length |d| after the
// IDF filter is below min (or 0), with ReasonTooFewSignatures.
func CheckMinSignatures(d Doc, min int) (Reject, bool) {
	l := d.Vec.Len()
	if l < min || l == 0 {
		return Reject{Ref: d.Ref, Reason: ReasonTooFewSignatures,
			Detail: itoa(l) + " signatures after the IDF filter, minimum " + itoa(min)}, false
	}
	return Reject{}, true
}

// ReadWARC reads one WARC file with warc.ReadFile under opts and hands each
// record on as a Candidate or a Reject (Classify). openErr is the error of
// opening the file (r is then ignored): the file becomes one Reject with
// ReasonUnreadableFile at offset -1. A file of 0 bytes becomes one Reject
// with ReasonEmptyFile at offset -1. An I/O error while reading becomes one
// more Reject with ReasonUnreadableFile at the last offset reached. Every
// record read, and every such failure, reaches exactly one callback.
func ReadWARC(name string, r io.Reader, openErr error, opts warc.Options, candidate func(Candidate), reject func(Reject)) {
	if openErr != nil {
		reject(Reject{Ref: warc.Ref{File: name, Offset: -1}, Reason: ReasonUnreadableFile, Detail: openErr.Error()})
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
		reject(Reject{Ref: warc.Ref{File: name, Offset: last}, Reason: ReasonUnreadableFile,
			Detail: fmt.Sprintf("reading stopped after offset %d: %v", last, err)})
	case cr.N == 0:
		reject(Reject{Ref: warc.Ref{File: name, Offset: -1}, Reason: ReasonEmptyFile, Detail: "the file holds 0 bytes"})
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
