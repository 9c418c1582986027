//go:build !unix

package storage

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// fileID is a local file's identity: its absolute path with symbolic links
// resolved (no inode numbers on this system).
func fileID(fi os.FileInfo) (string, bool) { return "", false }

// isLoop reports whether err is the error of a symbolic link loop.
func isLoop(err error) bool { return false }

// openLocal opens p and refuses anything but a regular file.
func openLocal(p string) (io.ReadCloser, error) {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		if fi, err := os.Stat(real); err == nil && !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: %s", p, irregular(fi.Mode()))
		}
	}
	return os.Open(p)
}

// processAlive reports whether a process with this pid exists on this
// host; without a portable check, it is taken to exist, and the lock's
// age (LockStale) decides.
func processAlive(pid int) bool { return true }
