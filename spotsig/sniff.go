package spotsig

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// What a payload is, before its markup is read: its kind by media type
// (HTML or plain text), its character set (BOM, HTTP header, <meta>, or
// sniffed UTF-8) and whether it is binary data whatever its label; then
// its bytes decoded to UTF-8 under the max-input-bytes cap.

// payloadKind maps a Content-Type to KindHTML or KindText, or ErrNotText.
func payloadKind(payload []byte, contentType string) (string, error) {
	mt := contentType
	if i := strings.IndexByte(mt, ';'); i >= 0 {
		mt = mt[:i]
	}
	mt = strings.ToLower(strings.TrimSpace(mt))
	switch mt {
	case "text/html", "application/xhtml+xml", "application/vnd.wap.xhtml+xml", "text/xhtml":
		return KindHTML, nil
	case "text/plain":
		return KindText, nil
	case "":
		p := bytes.TrimLeft(payload, " \t\r\n\f\ufeff")
		if bytes.HasPrefix(p, []byte{0xFF, 0xFE}) || bytes.HasPrefix(p, []byte{0xFE, 0xFF}) {
			p = bytes.Trim(p[2:], "\x00") // UTF-16 BOM: look at the first character
		}
		if len(p) > 0 && p[0] == '<' {
			return KindHTML, nil
		}
		return KindText, nil
	}
	return "", fmt.Errorf("%w: %q", ErrNotText, mt)
}

// Encodings whose ASCII-only byte strings do not decode to themselves.
var notASCIICompatible = map[string]bool{
	"utf-16be": true, "utf-16le": true, "iso-2022-jp": true, "replacement": true,
}

// decodePayload caps payload at the max-input-bytes cap and decodes it to
// UTF-8 (see HTMLToText for the rules), filling the input and charset
// fields of st. Error: ErrBinary.
func decodePayload(payload []byte, contentType, kind string, cfg *settings, st *TextStats) ([]byte, error) {
	st.Kind = kind
	st.InputBytes = len(payload)
	if len(payload) > cfg.maxInput {
		payload = payload[:cfg.maxInput]
		st.InputTruncated = true
	}
	st.ParsedBytes = len(payload)

	enc, name, _ := charset.DetermineEncoding(payload, contentType)
	st.Charset, st.CharsetSource = name, charsetSource(payload, contentType, name)
	if name == "windows-1252" && st.CharsetSource != "bom" && mostlyUTF8(payload) {
		st.Charset, st.CharsetSource = "utf-8", "sniff"
	}
	if st.Charset == "utf-8" && bytes.HasPrefix(payload, utf8BOM) {
		payload = payload[len(utf8BOM):]
	}
	utf16 := strings.HasPrefix(st.Charset, "utf-16")
	if !utf16 && isBinary(payload, cfg.sniffBytes) {
		return nil, ErrBinary
	}
	if st.Charset != "utf-8" && (notASCIICompatible[st.Charset] || hasHighBit(payload)) {
		if dec, err := enc.NewDecoder().Bytes(payload); err == nil {
			payload = bytes.TrimPrefix(dec, utf8BOM) // a UTF-16 BOM decodes to U+FEFF
		}
		if utf16 && isBinary(payload, cfg.sniffBytes) {
			return nil, ErrBinary
		}
	}
	return payload, nil
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// charsetSource names where DetermineEncoding found the encoding name.
func charsetSource(payload []byte, contentType, name string) string {
	for _, bom := range [][]byte{{0xEF, 0xBB, 0xBF}, {0xFE, 0xFF}, {0xFF, 0xFE}} {
		if bytes.HasPrefix(payload, bom) {
			return "bom"
		}
	}
	if i := strings.Index(strings.ToLower(contentType), "charset="); i >= 0 {
		if e, _ := charset.Lookup(strings.Trim(contentType[i+len("charset="):], ` "';`)); e != nil {
			return "header"
		}
	}
	head := payload
	if len(head) > 1024 {
		head = head[:1024]
	}
	if bytes.Contains(bytes.ToLower(head), []byte("charset")) {
		return "meta"
	}
	if name == "utf-8" {
		return "sniff"
	}
	return "default"
}

// mostlyUTF8 reports whether b has non-ASCII text that is (nearly all)
// valid UTF-8: at least one multi-byte UTF-8 sequence and at most one
// invalid byte per 20 valid sequences. Latin-1 text almost never forms
// valid UTF-8 sequences (a letter in À–ß followed by one in 0x80–0xBF), so
// this recognises UTF-8 pages labelled (or defaulting to) windows-1252,
// including those with a few stray Latin-1 bytes.
func mostlyUTF8(b []byte) bool {
	valid, invalid := 0, 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			invalid++
		} else {
			valid++
		}
		i += size
	}
	return valid > 0 && invalid*20 <= valid
}

func hasHighBit(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// Magic numbers of binary formats that are sometimes served as text/html.
var binaryMagic = [][]byte{
	[]byte("\x1f\x8b"),          // gzip
	[]byte("\x89PNG\r\n\x1a\n"), // PNG
	[]byte("GIF87a"), []byte("GIF89a"),
	[]byte("\xff\xd8\xff"),     // JPEG
	[]byte("%PDF-"),            // PDF
	[]byte("PK\x03\x04"),       // ZIP, docx, …
	[]byte("\x28\xb5\x2f\xfd"), // zstd
	[]byte("BZh"),              // bzip2 (followed by a digit; checked below)
	[]byte("RIFF"),             // WebP, AVI, WAV
	[]byte("\x00\x00\x01\x00"), // ICO
	[]byte("wOFF"), []byte("wOF2"),
}

// isBinary reports whether the first n bytes of b look like binary data: a
// known magic number, any NUL byte, or more than 5% control bytes other
// than TAB, LF, VT, FF, CR and ESC (ESC is part of ISO-2022 text).
func isBinary(b []byte, n int) bool {
	if n == 0 || len(b) == 0 {
		return false
	}
	for _, m := range binaryMagic {
		if bytes.HasPrefix(b, m) {
			if m[0] == 'B' && (len(b) < 4 || b[3] < '1' || b[3] > '9') {
				continue
			}
			return true
		}
	}
	if len(b) > n {
		b = b[:n]
	}
	ctrl := 0
	for _, c := range b {
		if c < 0x20 {
			switch c {
			case 0:
				return true
			case '\t', '\n', '\v', '\f', '\r', 0x1b:
			default:
				ctrl++
			}
		}
	}
	return ctrl*20 > len(b)
}
