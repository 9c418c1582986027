package storage

import (
	"context"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// Opening an input file for reading, never blocking on a FIFO.

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
