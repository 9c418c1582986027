package warc

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// streamBufSize is the read buffer of a decompressed stream; a resync scan
// and a header line longer than this are handled in pieces.
const streamBufSize = 64 << 10

var (
	errMemberTooLarge     = errors.New("gzip member decompresses to more than MaxMemberBytes")
	errHeaderTooLarge     = errors.New("header longer than MaxHeaderBytes")
	errHeaderUnterminated = errors.New("header runs to the end of the block without a blank line")
)

// fileCounter counts the bytes of the file consumed through br, so the
// offset of each gzip member is known without Seek: the bytes read from the
// file less those still buffered. The gzip decoder reads br (a
// *bufio.Reader, which compress/flate reads byte by byte on its fast path)
// directly and never reads past the end of a member.
type fileCounter struct {
	br   *bufio.Reader
	read int64 // bytes read from the file into br
	err  error // first I/O error of the underlying reader (not io.EOF)
}

type errRecorder struct {
	r io.Reader
	c *fileCounter
}

func (e errRecorder) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	e.c.read += int64(n)
	if err != nil && err != io.EOF && e.c.err == nil {
		e.c.err = err
	}
	return n, err
}

func newFileCounter(r io.Reader) *fileCounter {
	c := &fileCounter{}
	c.br = bufio.NewReaderSize(errRecorder{r: r, c: c}, streamBufSize)
	return c
}

// pos is the file offset of the next byte br returns.
func (c *fileCounter) pos() int64 { return c.read - int64(c.br.Buffered()) }

func (c *fileCounter) discard(n int) { _, _ = c.br.Discard(n) }

// scanGzipHeader discards bytes up to the next gzip member header
// (1f 8b 08) and reports whether one was found before the end of the file.
func (c *fileCounter) scanGzipHeader() bool {
	magic := []byte{0x1f, 0x8b, 0x08}
	for {
		buf, err := c.br.Peek(streamBufSize)
		if i := bytes.Index(buf, magic); i >= 0 {
			c.discard(i)
			return true
		}
		if err != nil || len(buf) < len(magic) {
			c.discard(len(buf))
			return false
		}
		c.discard(len(buf) - (len(magic) - 1))
	}
}

// source is the decompressed byte source of one stream (a gzip member, or a
// whole plain file). It stops at limit bytes with errMemberTooLarge and
// remembers the error that ended it.
type source struct {
	r     io.Reader
	limit int64
	err   error
}

func (s *source) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.limit <= 0 {
		s.err = errMemberTooLarge
		return 0, s.err
	}
	if int64(len(p)) > s.limit {
		p = p[:s.limit]
	}
	n, err := s.r.Read(p)
	s.limit -= int64(n)
	if err != nil {
		s.err = err
	}
	return n, err
}

// stream reads WARC records from one decompressed source and tracks the
// position consumed in it.
type stream struct {
	br  *bufio.Reader
	src *source
	pos int64
	// endAccounted is set when the end of the source was reported as the
	// skip reason of a record, so it is not reported again.
	endAccounted bool
	// in is what br reads: src, or after a resync the bytes kept by tap
	// followed by src. Every byte br reads passes tap.
	in  tapReader
	tap recordTap
}

func (s *stream) reset(src *source) {
	s.src = src
	s.in = tapReader{r: src, t: &s.tap}
	s.br.Reset(&s.in)
	s.pos = 0
	s.endAccounted = false
	s.tap.stop()
}

// tapReader passes what it reads to a recordTap.
type tapReader struct {
	r io.Reader
	t *recordTap
}

func (r *tapReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 && r.t.on {
		r.t.write(p[:n])
	}
	return n, err
}

// recordTap watches the bytes of a block as the stream reads them and
// keeps a copy from the first line inside the block that starts
// "WARC/<digit>", at most max bytes. When the block's Content-Length runs
// past the end of the stream, the records after that line are read again
// from the copy (stream.resync) instead of being lost in one truncated
// reject. The bytes are seen as br reads them; read-ahead past the
// block's declared end is ignored (a stream that gets there has read the
// block whole), so a well-formed record costs a search of its block and
// no copy. A copy that would pass max is dropped and the search starts
// again.
type recordTap struct {
	on    bool
	max   int64
	end   int64  // stream position just past the block as declared
	next  int64  // stream position of the next byte write sees
	carry []byte // the last bytes seen while searching, up to len(recordLine)
	found int64  // stream position of the "W" of the kept line; -1 while searching
	buf   []byte // the bytes from found on
}

// start watches the block of n bytes that starts at stream position pos;
// buffered are the bytes br already holds from pos on.
func (t *recordTap) start(pos, n, max int64, buffered []byte) {
	t.on, t.max, t.end, t.next, t.found = true, max, pos+n, pos, -1
	t.buf = t.buf[:0]
	// The header's empty line ends with "\n": a block that starts
	// "WARC/<digit>" is a line start too.
	t.carry = append(t.carry[:0], '\n')
	t.write(buffered)
}

func (t *recordTap) stop() {
	t.on = false
	if cap(t.buf) > bodyChunk {
		t.buf = nil // do not keep a large copy between records
	}
	t.buf = t.buf[:0]
}

func (t *recordTap) write(p []byte) {
	at := t.next
	t.next += int64(len(p))
	if at >= t.end {
		return
	}
	if int64(len(p)) > t.end-at {
		p = p[:t.end-at]
	}
	if t.found >= 0 {
		if int64(len(t.buf)+len(p)) > t.max {
			t.found, t.buf, t.carry = -1, t.buf[:0], t.carry[:0] // too far from the end to keep
		} else {
			t.buf = append(t.buf, p...)
		}
		return
	}
	// Search "\nWARC/<digit>" across the carried tail and p, then in p.
	var win [16]byte // 2 × len(recordLine) and more
	w := append(append(win[:0], t.carry...), p[:min(len(p), len(recordLine))]...)
	if i := lineStart(w); i >= 0 {
		c := len(t.carry)
		t.found = at - int64(c) + int64(i)
		if i < c {
			t.buf = append(append(t.buf[:0], t.carry[i:]...), p...)
		} else {
			t.buf = append(t.buf[:0], p[i-c:]...)
		}
	} else if i := lineStart(p); i >= 0 {
		t.found = at + int64(i)
		t.buf = append(t.buf[:0], p[i:]...)
	} else {
		tail := p // the last bytes seen, carried to the next write
		if len(p) < len(recordLine) {
			tail = w // (a copy of the carry, then p)
		}
		t.carry = append(t.carry[:0], tail[len(tail)-min(len(tail), len(recordLine)):]...)
		return
	}
	if int64(len(t.buf)) > t.max {
		t.found, t.buf, t.carry = -1, t.buf[:0], t.carry[:0]
	}
}

// lineStart returns the index of the "W" of the first "\nWARC/<digit>" in
// b, or -1.
func lineStart(b []byte) int {
	from := 0
	for {
		j := bytes.Index(b[from:], recordLine)
		if j < 0 || from+j+len(recordLine) >= len(b) {
			return -1
		}
		j += from
		if isDigit(b[j+len(recordLine)]) {
			return j + 1
		}
		from = j + 1
	}
}

// startTap watches the block of n bytes that starts at the current
// position for a record line (recordTap), keeping at most max bytes.
func (s *stream) startTap(n, max int64) {
	buffered, _ := s.br.Peek(s.br.Buffered())
	s.tap.start(s.pos, n, max, buffered)
}

// resync rewinds the stream to the record line the tap kept, once the
// stream has ended inside the block, and reports where that line is.
// ok is false when the tap kept none (or dropped it as too long).
func (s *stream) resync() (at int64, ok bool) {
	t := &s.tap
	if !t.on || t.found < 0 {
		s.tap.stop()
		return 0, false
	}
	kept := t.buf
	at = t.found
	t.on, t.buf = false, nil // the copy now belongs to the stream
	s.in = tapReader{r: io.MultiReader(bytes.NewReader(kept), s.src), t: t}
	s.br.Reset(&s.in)
	s.pos = at
	return at, true
}

func (s *stream) discard(n int) {
	d, _ := s.br.Discard(n)
	s.pos += int64(d)
}

func isBlank(b byte) bool { return b == '\r' || b == '\n' || b == ' ' || b == '\t' }

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// skipBlank discards white space between records and reports whether any
// byte is left in the stream.
func (s *stream) skipBlank() bool {
	for {
		if _, err := s.br.Peek(1); err != nil {
			return false
		}
		chunk, _ := s.br.Peek(s.br.Buffered())
		i := 0
		for i < len(chunk) && isBlank(chunk[i]) {
			i++
		}
		s.discard(i)
		if i < len(chunk) {
			return true
		}
	}
}

// atRecordStart reports whether the stream is at "WARC/<digit>", the start
// of a WARC record's version line (WARC 1.1 §4).
func (s *stream) atRecordStart() bool {
	b, _ := s.br.Peek(6)
	return len(b) == 6 && string(b[:5]) == "WARC/" && isDigit(b[5])
}

var recordLine = []byte("\nWARC/")

// scanRecordStart discards at least one byte, then everything up to the next
// line that starts with "WARC/<digit>", and reports whether one was found
// before the end of the stream.
func (s *stream) scanRecordStart() bool {
	s.discard(1)
	for {
		buf, err := s.br.Peek(streamBufSize)
		if len(buf) == 0 {
			return false
		}
		from := 0
		for {
			j := bytes.Index(buf[from:], recordLine)
			if j < 0 {
				break
			}
			j += from
			if j+len(recordLine) >= len(buf) {
				break // version digit not buffered yet
			}
			if isDigit(buf[j+len(recordLine)]) {
				s.discard(j + 1)
				return true
			}
			from = j + 1
		}
		if err != nil {
			s.discard(len(buf))
			return false
		}
		s.discard(len(buf) - len(recordLine))
	}
}

// readHeader appends header lines to buf up to and including the first
// empty line (CRLF or bare LF), consuming at most limit bytes (limit < 0: no
// limit) and keeping len(buf) <= max. It returns the bytes consumed and
// errHeaderTooLarge, errHeaderUnterminated (limit reached), the source's
// error (stream ended), or nil.
func (s *stream) readHeader(buf []byte, limit, max int64) ([]byte, int64, error) {
	lineStart := len(buf)
	var consumed int64
	for {
		if limit >= 0 && consumed >= limit {
			return buf, consumed, errHeaderUnterminated
		}
		if _, err := s.br.Peek(1); err != nil {
			return buf, consumed, err
		}
		chunk, _ := s.br.Peek(s.br.Buffered())
		if limit >= 0 && int64(len(chunk)) > limit-consumed {
			chunk = chunk[:limit-consumed]
		}
		i := bytes.IndexByte(chunk, '\n')
		take := len(chunk)
		if i >= 0 {
			take = i + 1
		}
		if int64(len(buf)+take) > max {
			return buf, consumed, errHeaderTooLarge
		}
		buf = append(buf, chunk[:take]...)
		s.discard(take)
		consumed += int64(take)
		if i >= 0 {
			if len(bytes.Trim(buf[lineStart:], "\r\n")) == 0 {
				return buf, consumed, nil
			}
			lineStart = len(buf)
		}
	}
}

// blockReader reads the n bytes of a record's block (WARC 1.1 §5.3) from a
// stream. short is set when the stream ends first.
type blockReader struct {
	s     *stream
	n     int64
	short bool
}

func (b *blockReader) Read(p []byte) (int, error) {
	if b.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.n {
		p = p[:b.n]
	}
	k, err := b.s.br.Read(p)
	b.s.pos += int64(k)
	b.n -= int64(k)
	if err != nil && b.n > 0 {
		b.short = true
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
	}
	return k, err
}

// peek returns up to k bytes of the block without consuming them (k is at
// most the stream buffer size).
func (b *blockReader) peek(k int) []byte {
	if int64(k) > b.n {
		k = int(b.n)
	}
	buf, _ := b.s.br.Peek(k)
	return buf
}

// readHeader reads an HTTP header from the start of the block; see
// stream.readHeader.
func (b *blockReader) readHeader(buf []byte, max int64) ([]byte, error) {
	buf, k, err := b.s.readHeader(buf, b.n, max)
	b.n -= k
	if err != nil && err != errHeaderTooLarge && err != errHeaderUnterminated {
		b.short = true
	}
	return buf, err
}

// discardRest skips the unread rest of the block without buffering it.
func (b *blockReader) discardRest() {
	for b.n > 0 {
		k := b.n
		if k > 1<<30 {
			k = 1 << 30
		}
		d, err := b.s.br.Discard(int(k))
		b.s.pos += int64(d)
		b.n -= int64(d)
		if err != nil {
			b.short = true
			return
		}
	}
}
