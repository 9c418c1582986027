// Package storage is where the job's inputs and outputs live. It wraps
// Beam's filesystem registry (local paths, gs://, s3://, and http:// and
// https:// through package httpfs, all registered by importing this
// package) and adds what the job needs on top of it:
//
//   - New opens a path's filesystem and turns a filesystem's panic (Beam's
//     s3 filesystem panics when the AWS configuration cannot load) into an
//     error;
//   - ReadList reads an input list (--input=@list.txt or @list.txt.gz: one
//     path or URL a line, blank lines and # comments ignored, relative
//     entries under a prefix or, in a local list without one, beside the
//     list);
//   - WARCFilesIn lists the WARC files of a local directory given as an
//     input;
//   - Check decides whether an input path is a file to read (a regular
//     file, not a directory, FIFO, device, socket or broken symbolic link,
//     checked with lstat/stat before anything opens it) and gives the
//     identity of the file it reaches, so that one file reached by two
//     paths is read once;
//   - Open opens an input file for reading, never blocking on a FIFO.
//
// No Beam pipeline code: transforms.ReadWARC wires it into the job.
package storage

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"   // gs://
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"    // s3://

	_ "github.com/ndd-beam/ndd-beam/storage/httpfs" // http://, https://
)

// MaxListLine is the longest line of an input list, bytes; a longer line
// makes the list an error.
const MaxListLine = 64 << 10

// IsLocal reports whether p is a local path (no "scheme://").
func IsLocal(p string) bool { return !strings.Contains(p, "://") }

// IsHTTP reports whether p is an http:// or https:// URL.
func IsHTTP(p string) bool {
	l := strings.ToLower(p)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// HasGlob reports whether p is a pattern to list rather than one file's
// path: it holds *, ? or [ and is not an http(s) URL (URLs are never
// globbed: '?' starts their query).
func HasGlob(p string) bool {
	return !IsHTTP(p) && strings.ContainsAny(p, "*?[")
}

// New returns the filesystem of p's scheme (filesystem.New). A filesystem
// that panics while starting (Beam's s3 filesystem when the AWS
// configuration cannot load; gcs when no client can be made) gives an error
// that names the scheme and the cause, on one line.
func New(ctx context.Context, p string) (fs filesystem.Interface, err error) {
	defer func() {
		if r := recover(); r != nil {
			scheme, _, ok := strings.Cut(p, "://")
			if !ok {
				scheme = "local"
			}
			fs, err = nil, fmt.Errorf("%s filesystem: %s", scheme, oneLine(fmt.Sprint(r)))
		}
	}()
	return filesystem.New(ctx, p)
}

// oneLine joins the lines of s with spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

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

// WARCSuffixes are the endings (any case) of the names of the files a
// directory input reads: the formats package warc reads (ARC files are not
// among them).
var WARCSuffixes = []string{".warc", ".warc.gz"}

// IsWARCName reports whether a file name ends in one of WARCSuffixes.
func IsWARCName(name string) bool {
	l := strings.ToLower(name)
	for _, s := range WARCSuffixes {
		if strings.HasSuffix(l, s) {
			return true
		}
	}
	return false
}

// WARCFilesIn returns the paths (dir joined with the name, sorted) of the
// entries directly in the local directory dir whose names are WARC names
// (IsWARCName) and do not start with "." (as a glob * skips them); it does
// not enter subdirectories. isDir is false, and nothing is listed, when
// dir is not a local path that reaches a directory.
func WARCFilesIn(dir string) (paths []string, isDir bool, err error) {
	if !IsLocal(dir) || HasGlob(dir) {
		return nil, false, nil
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, false, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, true, err
	}
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && !strings.HasPrefix(n, ".") && IsWARCName(n) {
			paths = append(paths, filepath.Join(dir, n))
		}
	}
	return paths, true, nil
}

// IsClean reports whether p is written in its canonical form: a local
// path equal to filepath.Clean(p) ("a", not "./a" or "d/../a"), a URL equal
// to CanonicalURL(p).
func IsClean(p string) bool {
	if IsLocal(p) {
		return filepath.Clean(p) == p
	}
	return CanonicalURL(p) == p
}

// Status is the verdict of Check on one input path.
type Status struct {
	// ID identifies the file the path reaches: "file:<device>:<inode>"
	// for a local file, else the canonical form of the path (CanonicalURL).
	// Two paths with the same ID are the same file.
	ID string
	// Err is nil when the path is to be read, else why not: it wraps
	// ErrIrregular or ErrUnreadable and says why in words.
	Err error
}

// The errors of Check: a path that is not a regular file (a directory,
// FIFO, device, socket, dangling symbolic link or symbolic link loop), and
// one that cannot be looked at (missing, permission denied). The reading
// stage maps them to its reject reasons.
var (
	ErrIrregular  = errors.New("not a regular file")
	ErrUnreadable = errors.New("unreadable")
)

// checkError is a Check error: its kind (ErrIrregular, ErrUnreadable) and
// the words that say why.
type checkError struct {
	kind   error
	detail string
}

func (e checkError) Error() string { return e.detail }
func (e checkError) Unwrap() error { return e.kind }

// Check looks at input path p without opening it. A local path is
// lstat'ed and, if a symbolic link, stat'ed: a directory, FIFO, device,
// socket, dangling symbolic link or symbolic link loop is ErrIrregular, a
// path that cannot be stat'ed (missing, permission denied) ErrUnreadable;
// a regular file's ID is
// its device and inode. Other paths are not looked at (their errors come
// when they are read); their ID is CanonicalURL(p).
func Check(p string) Status {
	if !IsLocal(p) {
		return Status{ID: CanonicalURL(p)}
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	st := Status{ID: "path:" + abs}
	li, err := os.Lstat(p)
	if err != nil {
		st.Err = checkError{ErrUnreadable, err.Error()}
		return st
	}
	fi := li
	if li.Mode()&os.ModeSymlink != 0 {
		if fi, err = os.Stat(p); err != nil {
			target, _ := os.Readlink(p)
			switch {
			case isLoop(err):
				st.Err = checkError{ErrIrregular, fmt.Sprintf("symbolic link loop (link to %q)", target)}
			case os.IsNotExist(err):
				st.Err = checkError{ErrIrregular, fmt.Sprintf("dangling symbolic link (to %q, which does not exist)", target)}
			default:
				st.Err = checkError{ErrUnreadable, err.Error()}
			}
			return st
		}
	}
	if what := irregular(fi.Mode()); what != "" {
		st.Err = checkError{ErrIrregular, what}
		return st
	}
	if id, ok := fileID(fi); ok {
		st.ID = id
	}
	return st
}

// irregular names what a file of mode m is when it is not a regular file,
// or returns "".
func irregular(m os.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "a directory, not a file"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO (named pipe), not a regular file"
	case m&os.ModeCharDevice != 0:
		return "a character device, not a regular file"
	case m&os.ModeDevice != 0:
		return "a block device, not a regular file"
	case m&os.ModeSocket != 0:
		return "a socket, not a regular file"
	default:
		return fmt.Sprintf("not a regular file (mode %v)", m)
	}
}

// CanonicalURL is the form of a non-local path used to find the same
// object named twice: for http(s) URLs the scheme and host lower-cased,
// the default port dropped, "." and ".." segments resolved and the
// fragment dropped (the query is kept); other paths (gs://, s3://, whose
// object names are exact) as they are.
func CanonicalURL(p string) string {
	if !IsHTTP(p) {
		return p
	}
	u, err := url.Parse(p)
	if err != nil {
		return p
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	if h, port, ok := strings.Cut(u.Host, ":"); ok && (u.Scheme == "http" && port == "80" || u.Scheme == "https" && port == "443") {
		u.Host = h
	}
	if u.Path != "" {
		clean := path.Clean("/" + u.Path)
		if strings.HasSuffix(u.Path, "/") && clean != "/" {
			clean += "/"
		}
		u.Path, u.RawPath = clean, ""
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// Open opens input file p for reading. A local file is opened without
// blocking (a FIFO put in place after Check does not hang the reader) and
// must be a regular file; other paths are opened through their filesystem
// (New), which is closed with the returned reader.
func Open(ctx context.Context, p string) (io.ReadCloser, error) {
	if IsLocal(p) {
		return openLocal(p)
	}
	fs, err := New(ctx, p)
	if err != nil {
		return nil, err
	}
	rc, err := fs.OpenRead(ctx, p)
	if err != nil {
		fs.Close()
		return nil, err
	}
	return &fsReader{ReadCloser: rc, fs: fs}, nil
}

// fsReader closes its filesystem with the reader.
type fsReader struct {
	io.ReadCloser
	fs filesystem.Interface
}

func (r *fsReader) Close() error {
	err := r.ReadCloser.Close()
	r.fs.Close()
	return err
}

// Absolute returns p made absolute when it is a local path (and clean),
// unchanged otherwise: the form recorded where a later run in another
// working directory compares paths.
func Absolute(p string) string {
	if p == "" || !IsLocal(p) {
		return p
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
