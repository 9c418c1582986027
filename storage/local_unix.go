//go:build unix

package storage

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// fileID is a local file's identity, "file:<device>:<inode>".
func fileID(fi os.FileInfo) (string, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("file:%d:%d", uint64(st.Dev), uint64(st.Ino)), true
}

// isLoop reports whether err is the error of a symbolic link loop.
func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }

// openLocal opens p with O_NONBLOCK, so that opening a FIFO never waits for
// a writer, and refuses anything but a regular file (checked on the open
// file, fstat). O_NONBLOCK does not change reads of a regular file.
func openLocal(p string) (io.ReadCloser, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		if what := irregular(fi.Mode()); what != "" {
			err = fmt.Errorf("%s: %s", p, what)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// processAlive reports whether a process with this pid exists on this
// host (kill(pid, 0); EPERM: it exists, owned by another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
