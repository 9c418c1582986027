package warc

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"slices"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

var errPayloadTooLarge = errors.New("payload larger than MaxPayloadBytes")

// classify sets rec.Skip (and, for a candidate, rec.Payload) from the record
// type, the block b and the WARC Content-Type wct. It may leave part of b
// unread.
func (rd *fileReader) classify(rec *Record, b *blockReader, wct string) {
	if !IsDocumentType(rec.Type) {
		switch rec.Type {
		case "warcinfo", "request", "metadata", "revisit", "continuation":
			rec.Skip = rec.Type
		default:
			rec.Skip = SkipUnknownType
			rec.Detail = fmt.Sprintf("WARC-Type %q", rec.Type)
		}
		return
	}
	if rec.Type == "response" && (strings.HasPrefix(mediaType(wct), "application/http") || bytes.HasPrefix(b.peek(5), []byte("HTTP/"))) {
		rd.readHTTP(rec, b)
	} else {
		// resource and conversion records; a response that is not HTTP,
		// e.g. text/dns, or a bare document
		rd.readBlockPayload(rec, b, wct)
	}
}

// readBlockPayload handles a block that is itself the payload (resource and
// conversion records, WARC 1.1 §6.4, §6.6), typed by the WARC Content-Type.
func (rd *fileReader) readBlockPayload(rec *Record, b *blockReader, wct string) {
	rec.ContentType, rec.Charset = mediaType(wct), charsetParam(wct)
	if rec.ContentType == "" {
		rec.ContentType = mediaType(http.DetectContentType(b.peek(512)))
	}
	if !slices.Contains(rd.opts.BlockMediaTypes, rec.ContentType) {
		rec.Skip = SkipNotHTML
		return
	}
	rd.readBody(rec, b, "", "")
}

// readHTTP parses the block of a response record as an HTTP response (RFC
// 9112 §2: status line, header fields, empty line), leniently: bare LF line
// endings, header lines without a colon (ignored), no empty line before the
// end of the block (no body). It does not use net/http.ReadResponse, which
// rejects such headers and would cut the body at an HTTP Content-Length that
// archived responses often get wrong.
func (rd *fileReader) readHTTP(rec *Record, b *blockReader) {
	hdr, err := b.readHeader(rd.hdrBuf[:0], rd.opts.MaxHeaderBytes)
	rd.hdrBuf = hdr[:0]
	switch err {
	case nil, errHeaderUnterminated:
	case errHeaderTooLarge:
		rec.Skip, rec.Detail = SkipHTTPMalformed, fmt.Sprintf("HTTP header longer than %d bytes", rd.opts.MaxHeaderBytes)
		return
	default:
		return // stream ended; the caller reports it
	}
	h, ok := parseHTTPHeader(hdr)
	if h.protocolTwice {
		rec.Quirks = append(rec.Quirks, QuirkHTTPProtocolTwice)
	}
	if !ok {
		line, _, _ := bytes.Cut(hdr, []byte("\n"))
		if len(line) > 80 {
			line = line[:80]
		}
		rec.Skip, rec.Detail = SkipHTTPMalformed, fmt.Sprintf("no HTTP status line: %q", line)
		return
	}
	rec.HTTPStatus = h.status
	rec.ContentType, rec.Charset = mediaType(h.contentType), charsetParam(h.contentType)
	if h.status < 200 || h.status > 299 {
		rec.Skip = SkipHTTPStatus
		return
	}
	if rec.ContentType == "" && h.contentEncoding == "" && !isChunked(h.transferEncoding) {
		rec.ContentType = mediaType(http.DetectContentType(b.peek(512)))
	}
	if !slices.Contains(rd.opts.MediaTypes, rec.ContentType) {
		rec.Skip = SkipNotHTML
		return
	}
	rd.readBody(rec, b, h.transferEncoding, h.contentEncoding)
}

// readBody reads the rest of b as the body of a candidate, decodes it and
// sets rec.Payload or rec.Skip.
func (rd *fileReader) readBody(rec *Record, b *blockReader, te, ce string) {
	if b.n == 0 {
		rec.Skip = SkipEmptyPayload
		return
	}
	if b.n > rd.opts.MaxRecordBytes {
		rec.Skip, rec.Detail = SkipRecordTooLarge, fmt.Sprintf("body of %d bytes, cap %d", b.n, rd.opts.MaxRecordBytes)
		return
	}
	// A body without codings is the payload itself: one of up to
	// freshBodyMax declared bytes is read into a buffer of its own, which
	// the record keeps, instead of into the reused one and then copied out.
	fresh := te == "" && ce == "" && b.n <= freshBodyMax
	buf := rd.bodyBuf[:0]
	if fresh {
		buf = make([]byte, 0, b.n)
	}
	raw, err := readGrowing(buf, b)
	if !fresh {
		rd.bodyBuf = raw[:0]
	}
	if err != nil {
		return // stream ended; the caller reports it
	}
	payload, skip, detail := decodeBody(raw, te, ce, rd.opts.MaxPayloadBytes)
	rec.Detail = detail
	if skip != "" {
		rec.Skip = skip
		return
	}
	if len(payload) == 0 {
		rec.Skip = SkipEmptyPayload
		return
	}
	if sniffed, bin := looksBinary(payload); bin {
		rec.Skip, rec.Detail = SkipBinaryPayload, fmt.Sprintf("labelled %s, sniffed %s", rec.ContentType, sniffed)
		return
	}
	if !fresh && &payload[0] == &raw[0] {
		payload = bytes.Clone(payload) // raw is reused for the next record
	}
	rec.Payload = payload
}

// freshBodyMax is the largest declared body without codings that is read
// into a buffer of its own (readBody): a Content-Length beyond the bytes
// that follow costs at most this much.
const freshBodyMax = 1 << 20

// bodyChunk is the first allocation of a body buffer and the most it grows
// by before the bytes already read justify doubling.
const bodyChunk = 64 << 10

// readGrowing appends the rest of b (b.n bytes) to buf and returns it. The
// buffer grows with the bytes actually read, by at most doubling and never
// beyond what b still declares, so a Content-Length far beyond the real
// body costs no memory. The error is io.ErrUnexpectedEOF (or the stream's)
// when the stream ends first.
func readGrowing(buf []byte, b *blockReader) ([]byte, error) {
	for b.n > 0 {
		if len(buf) == cap(buf) {
			grow := min(max(int64(len(buf)), bodyChunk), b.n)
			buf = slices.Grow(buf, int(grow))
		}
		k, err := b.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err != nil && b.n > 0 {
			return buf, err
		}
	}
	return buf, nil
}

// httpHeader holds the HTTP header fields the reader uses.
type httpHeader struct {
	status                                         int
	contentType, transferEncoding, contentEncoding string
	// protocolTwice is set when the status line names its protocol twice
	// (QuirkHTTPProtocolTwice).
	protocolTwice bool
}

// parseHTTPHeader parses a status line "HTTP/x.y NNN reason" (RFC 9112
// §4) and the header fields after it; ok is false without a status line.
// A status line that repeats its protocol ("HTTP/1.1 HTTP/1.1 200 OK", as
// some archives write every response) is read with the status it carries
// and flagged in h.protocolTwice.
func parseHTTPHeader(hdr []byte) (h httpHeader, ok bool) {
	line, rest, _ := bytes.Cut(hdr, []byte("\n"))
	line = bytes.TrimSpace(line)
	if !bytes.HasPrefix(line, []byte("HTTP/")) {
		return h, false
	}
	f := bytes.Fields(line)
	if len(f) >= 3 && bytes.HasPrefix(f[1], []byte("HTTP/")) {
		f = f[1:]
		h.protocolTwice = true
	}
	if len(f) < 2 || len(f[1]) != 3 {
		return h, false
	}
	st, err := strconv.Atoi(string(f[1]))
	if err != nil || st < 100 {
		return h, false
	}
	h.status = st
	for len(rest) > 0 {
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		name, value, found := bytes.Cut(line, []byte(":"))
		if !found {
			continue
		}
		name = bytes.TrimSpace(name)
		v := string(bytes.TrimSpace(value))
		switch {
		case bytes.EqualFold(name, []byte("Content-Type")):
			if h.contentType == "" {
				h.contentType = v
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			h.transferEncoding = joinField(h.transferEncoding, v)
		case bytes.EqualFold(name, []byte("Content-Encoding")):
			h.contentEncoding = joinField(h.contentEncoding, v)
		}
	}
	return h, true
}

func joinField(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + ", " + b
}

// charsetParam returns the lower-cased charset parameter of a Content-Type
// value ("text/html; Charset=\"UTF-8\"" -> "utf-8"), "" when absent. It is
// lenient where mime.ParseMediaType is strict: other malformed parameters
// do not hide the charset.
func charsetParam(ct string) string {
	_, params, _ := strings.Cut(ct, ";")
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		k, v, ok := strings.Cut(p, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "charset") {
			return strings.ToLower(strings.Trim(strings.TrimSpace(v), `"'`))
		}
	}
	return ""
}

// mediaType returns the lower-cased media type of a Content-Type value
// without parameters ("text/html; charset=utf-8" -> "text/html").
func mediaType(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

func isChunked(te string) bool { return strings.Contains(strings.ToLower(te), "chunked") }

// looksChunked reports whether body starts like chunked transfer coding
// (RFC 9112 §7.1): hex digits, optional extensions, line end.
func looksChunked(body []byte) bool {
	i := 0
	for i < len(body) && i < 16 && isHex(body[i]) {
		i++
	}
	if i == 0 || i == len(body) {
		return false
	}
	switch body[i] {
	case '\r', '\n', ';', ' ', '\t':
		return true
	}
	return false
}

func isHex(b byte) bool { return isDigit(b) || (b|0x20 >= 'a' && b|0x20 <= 'f') }

// looksLikeMarkup reports whether data, ignoring leading white space and a
// UTF-8 BOM, starts with '<': a body that is already decoded although its
// header still names a Content-Encoding.
func looksLikeMarkup(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	data = bytes.TrimLeft(data, " \t\r\n")
	return len(data) > 0 && data[0] == '<'
}

// decodeBody undoes the transfer coding te and content codings ce of an HTTP
// body (RFC 9110 §8.4, RFC 9112 §7). Archives often store a body already
// decoded while keeping the header, so a coding whose data does not look
// encoded (no gzip/zstd magic, or a failing decoder on data that starts like
// markup) is taken as already undone. The result is at most max bytes, else
// skip is "payload-too-large"; undecodable data gives "decode-error". The
// result may alias raw.
func decodeBody(raw []byte, te, ce string, max int64) (out []byte, skip, detail string) {
	defer func() {
		if p := recover(); p != nil { // a decoder library failing on hostile data
			out, skip, detail = nil, SkipDecodeError, fmt.Sprintf("decoder panicked: %v", p)
		}
	}()
	data := raw
	if int64(len(data)) > max && ce == "" && !isChunked(te) {
		return nil, SkipPayloadTooLarge, fmt.Sprintf("payload over %d bytes", max)
	}
	if isChunked(te) && looksChunked(data) {
		dec, err := readCapped(httputil.NewChunkedReader(bytes.NewReader(data)), max)
		switch {
		case err == errPayloadTooLarge:
			return nil, SkipPayloadTooLarge, fmt.Sprintf("de-chunked payload over %d bytes", max)
		case err == io.ErrUnexpectedEOF && len(dec) > 0:
			detail = "chunked body ends without its last chunk"
		case err != nil:
			return nil, SkipDecodeError, "chunked: " + err.Error()
		}
		data = dec
	}
	codings := strings.Split(strings.ToLower(ce), ",")
	for i := len(codings) - 1; i >= 0; i-- {
		c := strings.TrimSpace(codings[i])
		var r io.Reader
		var err error
		switch c {
		case "", "identity", "none":
			continue
		case "gzip", "x-gzip":
			if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
				detail = "Content-Encoding gzip on a body that is not gzip: used as is"
				continue
			}
			r, err = gzip.NewReader(bytes.NewReader(data))
		case "deflate":
			if len(data) >= 2 && data[0]&0x0f == 8 && (uint16(data[0])<<8|uint16(data[1]))%31 == 0 {
				r, err = zlib.NewReader(bytes.NewReader(data)) // RFC 1950, what "deflate" means
			} else {
				r = flate.NewReader(bytes.NewReader(data)) // raw RFC 1951, what some servers send
			}
		case "br":
			r = brotli.NewReader(bytes.NewReader(data))
		case "zstd":
			if !bytes.HasPrefix(data, []byte{0x28, 0xb5, 0x2f, 0xfd}) {
				detail = "Content-Encoding zstd on a body that is not zstd: used as is"
				continue
			}
			var zr *zstd.Decoder
			zr, err = zstd.NewReader(bytes.NewReader(data), zstd.WithDecoderConcurrency(1),
				zstd.WithDecoderMaxMemory(uint64(max)), zstd.WithDecoderMaxWindow(zstdWindow(max)))
			if err == nil {
				defer zr.Close()
				r = zr
			}
		default:
			if looksLikeMarkup(data) {
				detail = fmt.Sprintf("unknown Content-Encoding %q on markup: used as is", c)
				continue
			}
			return nil, SkipDecodeError, fmt.Sprintf("unsupported Content-Encoding %q", c)
		}
		var dec []byte
		if err == nil {
			dec, err = readCapped(r, max)
		}
		switch {
		case err == errPayloadTooLarge:
			return nil, SkipPayloadTooLarge, fmt.Sprintf("Content-Encoding %s decodes to over %d bytes", c, max)
		case err == nil:
			data = dec
		case err == io.ErrUnexpectedEOF && len(dec) > 0:
			data = dec
			detail = fmt.Sprintf("Content-Encoding %s data ends early: kept %d decoded bytes", c, len(dec))
		case looksLikeMarkup(data):
			detail = fmt.Sprintf("Content-Encoding %s on a body that is not encoded: used as is", c)
		default:
			return nil, SkipDecodeError, fmt.Sprintf("Content-Encoding %s: %v", c, err)
		}
	}
	if int64(len(data)) > max {
		return nil, SkipPayloadTooLarge, fmt.Sprintf("payload over %d bytes", max)
	}
	return data, "", detail
}

// readCapped reads r to the end into a fresh slice of at most max bytes;
// errPayloadTooLarge when there is more.
// The slice is trimmed to its length when the buffer's doubling left much
// spare capacity, since the caller keeps it.
func readCapped(r io.Reader, max int64) ([]byte, error) {
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(r, max+1))
	if n > max {
		return nil, errPayloadTooLarge
	}
	out := buf.Bytes()
	if cap(out)-len(out) > 64<<10 && cap(out) > len(out)+len(out)/4 {
		out = bytes.Clone(out)
	}
	return out, err
}

// looksBinary reports whether a payload labelled as text is binary data:
// http.DetectContentType (the WHATWG MIME sniffing algorithm) recognises a
// binary format by its magic bytes, or more than 1 in 10 of the first 1024
// bytes are control characters other than TAB, LF, FF, CR and ESC.
func looksBinary(p []byte) (string, bool) {
	sniffed := mediaType(http.DetectContentType(p))
	switch {
	case strings.HasPrefix(sniffed, "text/"):
		return sniffed, false
	case sniffed != "application/octet-stream":
		return sniffed, true
	}
	sample := p
	if len(sample) > 1024 {
		sample = sample[:1024]
	}
	ctl := 0
	for _, c := range sample {
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\f' && c != '\r' && c != 0x1b) || c == 0x7f {
			ctl++
		}
	}
	return sniffed, ctl*10 > len(sample)
}

// zstdWindow is the largest zstd window accepted for a payload cap of
// limit bytes: limit, within zstd's bounds and at most 64 MiB.
func zstdWindow(limit int64) uint64 {
	return uint64(min(max(limit, zstd.MinWindowSize), 64<<20))
}
