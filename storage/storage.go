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
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"   // gs://
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"    // s3://

	_ "github.com/ndd-beam/ndd-beam/storage/httpfs" // http://, https://
)

// Paths and their filesystems: local path or URL, glob or not, the
// filesystem of a path (a filesystem that cannot start is an error, not a
// panic), the absolute form of a local path. Input lists are list.go,
// folder inputs folder.go, the checks of input paths check.go, opening an
// input open.go, the locks of a run lock.go.

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
