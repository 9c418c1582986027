package storage

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Input lists (--input=@LIST): one path, URL or glob a line, relative entries
// beside a local list or under a prefix.

// MaxListLine is the longest line of an input list, bytes; a longer line
// makes the list an error.
const MaxListLine = 64 << 10

// JoinPrefix prepends prefix to entry when entry is relative: not a URL
// and not an absolute local path; prefix and entry are joined by one "/"
// (a local prefix with filepath.Join). An empty prefix leaves entry as it
// is.
func JoinPrefix(prefix, entry string) string {
	if prefix == "" || !IsLocal(entry) || filepath.IsAbs(entry) {
		return entry
	}
	if IsLocal(prefix) {
		return filepath.Join(prefix, entry)
	}
	return strings.TrimSuffix(prefix, "/") + "/" + strings.TrimPrefix(entry, "/")
}

// ReadList reads the input list at list (local or any registered
// filesystem; gzip-compressed when its name ends in .gz) and returns its
// entries in order: one path, URL or glob a line, surrounding white space
// trimmed, blank lines and lines starting with # ignored. A relative entry
// (not a URL, not an absolute path) is put under prefix (JoinPrefix) or,
// when prefix is empty and the list is local, resolved against the list's
// own directory, so a list works from any working directory; relative
// entries of a remote list without a prefix are left as they are. It is an error when the list cannot be opened or
// decompressed, a line is longer than MaxListLine or holds control
// characters or invalid UTF-8 (not a text list), or no entry is left.
// Errors are one line and name the list (and the line).
func ReadList(ctx context.Context, list, prefix string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, fmt.Errorf("input list: empty name after @")
	}
	rc, err := Open(ctx, list)
	if err != nil {
		return nil, fmt.Errorf("input list %s: %v", list, oneLine(err.Error()))
	}
	defer rc.Close()
	var r io.Reader = rc
	if strings.HasSuffix(strings.ToLower(list), ".gz") {
		zr, err := gzip.NewReader(rc)
		if err != nil {
			return nil, fmt.Errorf("input list %s: not gzip: %v", list, err)
		}
		defer zr.Close()
		r = zr
	}
	if prefix == "" && IsLocal(list) {
		prefix = filepath.Dir(list)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxListLine)
	var entries []string
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !utf8.ValidString(line) || strings.ContainsFunc(line, unicode.IsControl) {
			return nil, fmt.Errorf("input list %s: line %d is not a path or URL (binary data?)", list, n)
		}
		entries = append(entries, JoinPrefix(prefix, line))
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, fmt.Errorf("input list %s: a line is longer than %d bytes (not a list of paths?)", list, MaxListLine)
		}
		return nil, fmt.Errorf("input list %s: %v", list, oneLine(err.Error()))
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("input list %s lists no path (only blank lines or # comments)", list)
	}
	return entries, nil
}
