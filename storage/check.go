package storage

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Checks of input paths before anything opens them: regular files only, and
// the identity of the file a path reaches, so one file named twice is read
// once.

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
