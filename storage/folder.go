package storage

import (
	"os"
	"path/filepath"
	"strings"
)

// Folder inputs: a local directory given as an input reads the WARC files
// directly in it.

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
