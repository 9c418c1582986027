package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/nlnwa/gowarc"
)

// ReadFile reads the WARC file r (plain or gzip-compressed, told apart by
// its first bytes) and calls emit once per WARC record and once per
// unreadable stretch, in file order; name only fills Record.File. It never
// seeks.
//
// Malformed input is never an error: it is reported through emit with a skip
// reason (see [Reasons]) and reading resumes at the next record. The records
// of a gzip member are emitted when the member's CRC-32 and length have
// been checked (at most Options.MaxPayloadBytes of their payload is held
// until then), as [SkipGzipCRC] rejects when the check fails. ReadFile
// returns an error only when emit does (reading stops at once and that error
// is returned) or when r fails with an I/O error other than io.EOF (records
// read up to that point have been emitted; the error says where it
// stopped). It reads every input to the end or to the I/O error, in time
// linear in the file size (gzip members capped at opts.MaxMemberBytes) and
// memory bounded by opts; see [Options].
func ReadFile(r io.Reader, name string, opts Options, emit func(Record) error) error {
	rd := &fileReader{
		name: name,
		opts: opts.withDefaults(),
		emit: emit,
		in:   newFileCounter(r),
		s:    &stream{br: bufio.NewReaderSize(nil, streamBufSize)},
		hp:   newHeaderParser(),
	}
	if m, _ := rd.in.br.Peek(2); len(m) == 2 && m[0] == 0x1f && m[1] == 0x8b {
		rd.readGzip()
	} else {
		rd.readPlain()
	}
	rd.flush()
	if rd.emitErr != nil {
		return rd.emitErr
	}
	if rd.in.err != nil {
		return fmt.Errorf("warc: reading %s: I/O error after byte %d: %w", name, rd.in.pos(), rd.in.err)
	}
	return nil
}

// fileReader holds the state of one ReadFile call.
type fileReader struct {
	name    string
	opts    Options
	emit    func(Record) error
	emitErr error
	in      *fileCounter
	s       *stream
	hp      *headerParser
	// pending is the unreadable stretch being accumulated: consecutive
	// failures (a bad header, the garbage after it, a bad gzip member) are
	// one stretch, emitted once before the next good record.
	pending *Record
	hdrBuf  []byte // reused WARC and HTTP header buffer
	bodyBuf []byte // reused raw body buffer
	// Records of the gzip member being read are held until its CRC-32 and
	// size are checked (holdMember), so a member that fails the check
	// decides none of them: held, their payload bytes heldBytes, and
	// released, the records of the member passed on before its end because
	// holding them would have gone over Options.MaxPayloadBytes.
	holding   bool
	held      []Record
	heldBytes int64
	released  int
}

func (rd *fileReader) stopped() bool { return rd.emitErr != nil || rd.in.err != nil }

// put emits rec after any pending stretch.
func (rd *fileReader) put(rec Record) {
	rd.flush()
	rd.out(rec)
}

// out emits rec, or holds it while a gzip member is read.
func (rd *fileReader) out(rec Record) {
	if rd.emitErr != nil {
		return
	}
	if !rd.holding {
		rd.emitErr = rd.emit(rec)
		return
	}
	if n := int64(len(rec.Payload)); len(rd.held) > 0 && rd.heldBytes+n > rd.opts.MaxPayloadBytes {
		rd.released += len(rd.held)
		rd.releaseHeld(false, 0)
	}
	rd.held = append(rd.held, rec)
	rd.heldBytes += int64(len(rec.Payload))
}

// releaseHeld emits the held records. When crcFailed, each record of the
// member at offset member becomes a SkipGzipCRC reject instead.
func (rd *fileReader) releaseHeld(crcFailed bool, member int64) {
	for i := range rd.held {
		rec := rd.held[i]
		rd.held[i] = Record{} // the payload is the caller's now
		if crcFailed && rec.Offset == member {
			was := rec.Skip
			if was == "" {
				was = "a document candidate"
			}
			rec.Skip, rec.Payload, rec.HTTPStatus = SkipGzipCRC, nil, 0
			rec.Detail = "gzip member fails its CRC-32 or length check (RFC 1952 §2.3.1); read as " + was + " from unverified bytes"
		}
		if rd.emitErr == nil {
			rd.emitErr = rd.emit(rec)
		}
	}
	rd.held, rd.heldBytes = rd.held[:0], 0
}

// bad starts an unreadable stretch at rec's offset, or extends the pending
// one (which keeps its offset, reason and detail).
func (rd *fileReader) bad(rec Record) {
	if rd.pending == nil {
		rec.File = rd.name
		rd.pending = &rec
	}
}

func (rd *fileReader) flush() {
	if rd.pending != nil && rd.emitErr == nil {
		p := *rd.pending
		rd.pending = nil
		rd.out(p)
	}
}

// readPlain reads an uncompressed WARC file as one stream.
func (rd *fileReader) readPlain() {
	rd.s.reset(&source{r: rd.in.br, limit: math.MaxInt64})
	rd.readStream(-1)
}

// readGzip reads a .warc.gz member by member (RFC 1952 §2.2; WARC 1.1
// Annex D: one record per member is recommended, not required).
func (rd *fileReader) readGzip() {
	z := new(gzip.Reader)
	for !rd.stopped() {
		off := rd.in.pos()
		m, _ := rd.in.br.Peek(2)
		if len(m) == 0 {
			return
		}
		if len(m) < 2 || m[0] != 0x1f || m[1] != 0x8b {
			rd.bad(Record{Offset: off, Skip: SkipUnreadable, Detail: "bytes that are not a gzip member"})
			if !rd.in.scanGzipHeader() {
				return
			}
			continue
		}
		if err := z.Reset(rd.in.br); err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				rd.bad(Record{Offset: off, Skip: SkipTruncated, Detail: "file ends inside a gzip header"})
				return
			}
			rd.bad(Record{Offset: off, Skip: SkipUnreadable, Detail: "gzip header: " + err.Error()})
			if rd.in.pos() == off {
				rd.in.discard(1)
			}
			if !rd.in.scanGzipHeader() {
				return
			}
			continue
		}
		z.Multistream(false)
		src := &source{r: z, limit: rd.opts.MaxMemberBytes}
		rd.s.reset(src)
		rd.holding, rd.released = true, 0
		rd.readStream(off)
		rd.holding = false
		crcFailed := src.err == gzip.ErrChecksum
		rd.releaseHeld(crcFailed, off)
		if crcFailed && rd.released > 0 {
			// Records passed on before the check cannot be taken back:
			// the member's end, where the check failed, is one more
			// reject that says so.
			rd.flush()
			rd.out(Record{File: rd.name, Offset: off, InnerOffset: rd.s.pos, Skip: SkipGzipCRC,
				Detail: fmt.Sprintf("gzip member fails its CRC-32 or length check (RFC 1952 §2.3.1); its first %d records were passed on before the check (more than %d payload bytes to hold)", rd.released, rd.opts.MaxPayloadBytes)})
		}
		switch {
		case src.err == io.EOF || crcFailed:
			// Member done.
		case src.err == io.ErrUnexpectedEOF, rd.stopped():
			return
		default: // corrupt deflate data or member over the cap
			if !rd.in.scanGzipHeader() {
				return
			}
		}
	}
}

// locate returns Offset and InnerOffset of stream position pos: in a gzip
// member (member >= 0) the member's offset and pos; in a plain file pos.
func locate(member, pos int64) (int64, int64) {
	if member >= 0 {
		return member, pos
	}
	return pos, 0
}

// endReason maps the error that ended a stream while a record was in
// progress to a skip reason.
func (rd *fileReader) endReason(member int64) (string, string) {
	err := rd.s.src.err
	switch {
	case err == errMemberTooLarge:
		return SkipMemberTooLarge, fmt.Sprintf("gzip member decompresses to more than %d bytes", rd.opts.MaxMemberBytes)
	case err == io.ErrUnexpectedEOF:
		return SkipTruncated, "file ends inside a gzip member"
	case err == io.EOF && member < 0:
		return SkipTruncated, "file ends inside the record"
	case err == io.EOF || err == gzip.ErrChecksum:
		return SkipUnreadable, "record runs past the end of its gzip member (Content-Length too large?)"
	}
	var ce flate.CorruptInputError
	if errors.As(err, &ce) {
		return SkipUnreadable, "corrupt gzip data: " + err.Error()
	}
	if err == nil {
		return SkipUnreadable, "unexpected end of record"
	}
	return SkipUnreadable, err.Error()
}

// readStream reads records from rd.s until it ends. member is the offset of
// its gzip member, or -1 for a plain file.
func (rd *fileReader) readStream(member int64) {
	s := rd.s
	for !rd.stopped() {
		if !s.skipBlank() {
			break
		}
		start := s.pos
		if !s.atRecordStart() {
			off, in := locate(member, start)
			rd.bad(Record{Offset: off, InnerOffset: in, Skip: SkipUnreadable, Detail: "bytes that are not a WARC record"})
			if !s.scanRecordStart() {
				break
			}
			continue
		}
		rd.readRecord(member, start)
	}
	// The stream ended between records: report a non-clean end once.
	err := s.src.err
	if s.endAccounted || rd.stopped() || err == nil || err == io.EOF || err == gzip.ErrChecksum {
		return
	}
	reason, detail := rd.endReason(member)
	off, in := locate(member, s.pos)
	rd.bad(Record{Offset: off, InnerOffset: in, Skip: reason, Detail: detail})
}

// readRecord reads the record whose version line starts at stream position
// start and emits it (or makes it part of an unreadable stretch).
func (rd *fileReader) readRecord(member, start int64) {
	s := rd.s
	off, in := locate(member, start)
	rec := Record{File: rd.name, Offset: off, InnerOffset: in}
	hdr, _, err := s.readHeader(rd.hdrBuf[:0], -1, rd.opts.MaxHeaderBytes)
	rd.hdrBuf = hdr[:0]
	if err != nil {
		if err == errHeaderTooLarge {
			rec.Skip, rec.Detail = SkipUnreadable, fmt.Sprintf("WARC header longer than %d bytes", rd.opts.MaxHeaderBytes)
			rd.bad(rec)
			s.scanRecordStart()
			return
		}
		rec.Skip, rec.Detail = rd.endReason(member)
		rec.Detail = "in WARC header: " + rec.Detail
		s.endAccounted = true
		rd.bad(rec)
		return
	}
	wf, err := rd.hp.parse(hdr)
	if err != nil {
		rec.Skip, rec.Detail = SkipUnreadable, "WARC header: "+err.Error()
		rd.bad(rec)
		s.scanRecordStart()
		return
	}
	rec.RecordID = stripAngles(wf.Get(gowarc.WarcRecordID))
	rec.Type = strings.ToLower(strings.TrimSpace(wf.Get(gowarc.WarcType)))
	rec.TargetURI = stripAngles(wf.Get(gowarc.WarcTargetURI))
	rec.Date = strings.TrimSpace(wf.Get(gowarc.WarcDate))
	for _, v := range wf.GetAll(gowarc.WarcConcurrentTo) {
		rec.ConcurrentTo = append(rec.ConcurrentTo, EscapeInvalidUTF8(stripAngles(v)))
	}
	rec.RefersTo = EscapeInvalidUTF8(stripAngles(wf.Get(gowarc.WarcRefersTo)))
	if strings.EqualFold(rec.Date, "null") {
		rec.Date = ""
	}
	capSkip, capDetail := rd.capFields(&rec)
	cl, err := strconv.ParseInt(strings.TrimSpace(wf.Get(gowarc.ContentLength)), 10, 64)
	if err != nil || cl < 0 {
		rec.Skip, rec.Detail = SkipUnreadable, fmt.Sprintf("Content-Length %q is not a byte count", wf.Get(gowarc.ContentLength))
		rd.bad(rec)
		s.scanRecordStart()
		return
	}
	b := &blockReader{s: s, n: cl}
	s.startTap(cl, rd.opts.MaxRecordBytes)
	if capSkip != "" {
		// Not a document whatever its type: its block is discarded unread.
		rec.Skip, rec.Detail = capSkip, capDetail
	} else {
		rd.classify(&rec, b, wf.Get(gowarc.ContentType))
	}
	b.discardRest()
	if b.short && s.src.err == io.EOF {
		// Content-Length runs past the end of the file (or of its gzip
		// member): read on from the first record line inside the block,
		// so the records there are not lost with this one.
		if at, ok := s.resync(); ok {
			where := fmt.Sprintf("file; reading resumed at the WARC/ line at offset %d", at)
			if member >= 0 {
				where = fmt.Sprintf("gzip member; reading resumed at the WARC/ line at inner offset %d", at)
			}
			rec.Skip, rec.Payload, rec.HTTPStatus = SkipUnreadable, nil, 0
			rec.Detail = fmt.Sprintf("Content-Length %d runs past the end of the %s", cl, where)
			rd.put(rec)
			return
		}
	}
	s.tap.stop()
	if !b.short && !s.skipBlank() && s.src.err == io.ErrUnexpectedEOF {
		// The file ends right after this record, inside its gzip member
		// (e.g. the member trailer is cut): the truncation belongs to this
		// record rather than to a stretch of its own.
		b.short = true
	}
	if b.short {
		rec.Skip, rec.Detail = rd.endReason(member)
		rec.Payload, rec.HTTPStatus = nil, 0
		s.endAccounted = true
	}
	rd.put(rec)
}

// capFields cuts a TargetURI or RecordID longer than its cap
// (Options.MaxURIBytes, MaxRecordIDBytes) to the cap, then makes both
// valid UTF-8 (EscapeInvalidUTF8: a cut field may grow up to 3 times the
// cap by it). It returns the skip reason of the first field cut and its
// detail, "" when none was.
func (rd *fileReader) capFields(rec *Record) (skip, detail string) {
	if n := len(rec.RecordID); int64(n) > rd.opts.MaxRecordIDBytes {
		rec.RecordID = cutUTF8(rec.RecordID, rd.opts.MaxRecordIDBytes)
		skip, detail = SkipRecordIDTooLong, fmt.Sprintf("WARC-Record-ID of %d bytes, cap %d", n, rd.opts.MaxRecordIDBytes)
	}
	if n := len(rec.TargetURI); int64(n) > rd.opts.MaxURIBytes {
		rec.TargetURI = cutUTF8(rec.TargetURI, rd.opts.MaxURIBytes)
		if skip == "" {
			skip, detail = SkipURITooLong, fmt.Sprintf("WARC-Target-URI of %d bytes, cap %d", n, rd.opts.MaxURIBytes)
		}
	}
	rec.TargetURI, rec.RecordID = EscapeInvalidUTF8(rec.TargetURI), EscapeInvalidUTF8(rec.RecordID)
	return skip, detail
}

// cutUTF8 returns the longest prefix of s of at most max bytes that does
// not end inside a UTF-8 sequence, as a fresh string (so the long
// original is not kept alive by the prefix).
func cutUTF8(s string, max int64) string {
	n := int(max)
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.Clone(s[:n])
}

// stripAngles removes the <> that WARC/1.0 requires around record IDs and
// some writers put around WARC-Target-URI.
func stripAngles(v string) string {
	v = strings.TrimSpace(v)
	v = strings.TrimPrefix(v, "<")
	v = strings.TrimSuffix(v, ">")
	return v
}

// headerParser parses one framed WARC header with gowarc's lenient
// Unmarshaler.
type headerParser struct {
	u  gowarc.Unmarshaler
	r  bytes.Reader
	br *bufio.Reader
}

func newHeaderParser() *headerParser {
	h := &headerParser{
		u: gowarc.NewUnmarshaler(
			gowarc.WithNoValidation(),
			gowarc.WithAddMissingRecordId(false),
			gowarc.WithAddMissingContentLength(false),
			gowarc.WithAddMissingDigest(false),
		),
	}
	h.br = bufio.NewReaderSize(&h.r, 4096)
	return h
}

// parse returns the header fields of hdr, a complete WARC header (version
// line through the empty line). gowarc sees an empty block; the block is
// read by the caller. A panic inside gowarc on hostile input is turned into
// an error.
func (h *headerParser) parse(hdr []byte) (wf *gowarc.WarcFields, err error) {
	defer func() {
		if p := recover(); p != nil {
			wf, err = nil, fmt.Errorf("gowarc panicked: %v", p)
		}
	}()
	h.r.Reset(hdr)
	h.br.Reset(&h.r)
	rec, _, _, err := h.u.Unmarshal(h.br)
	if rec == nil {
		if err == nil {
			err = errors.New("no record")
		}
		return nil, err
	}
	wf = rec.WarcHeader()
	_ = rec.Close()
	return wf, nil
}
