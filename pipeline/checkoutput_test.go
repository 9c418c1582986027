package pipeline

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/output"
)

// objectStore is a filesystem registered with Beam under the scheme
// "objtest://", standing in for gs:// or s3://: the launch-time check uses
// only Beam's filesystem registry. It records the files written and
// removed; with readOnly every write fails when it is committed (Close), as
// an object store's does for a bucket without write access.
type objectStore struct {
	mu       sync.Mutex
	files    map[string][]byte
	written  []string
	removed  []string
	readOnly bool
}

var store = &objectStore{files: map[string][]byte{}}

func init() {
	filesystem.Register("objtest", func(context.Context) filesystem.Interface { return store })
}

func (s *objectStore) Close() error { return nil }

func (s *objectStore) List(_ context.Context, glob string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for k := range s.files {
		if ok, _ := filepath.Match(glob, k); ok {
			out = append(out, k)
		}
	}
	return out, nil
}

func (s *objectStore) OpenRead(_ context.Context, name string) (io.ReadCloser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.files[name]
	if !ok {
		return nil, errors.New("no such object")
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

type objectWriter struct {
	s    *objectStore
	name string
	buf  bytes.Buffer
}

func (w *objectWriter) Write(p []byte) (int, error) { return w.buf.Write(p) }

func (w *objectWriter) Close() error {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	if w.s.readOnly {
		return errors.New("403 Forbidden: caller does not have storage.objects.create access")
	}
	w.s.files[w.name] = w.buf.Bytes()
	w.s.written = append(w.s.written, w.name)
	return nil
}

func (s *objectStore) OpenWrite(_ context.Context, name string) (io.WriteCloser, error) {
	return &objectWriter{s: s, name: name}, nil
}

func (s *objectStore) Size(_ context.Context, name string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(len(s.files[name])), nil
}

func (s *objectStore) Remove(_ context.Context, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.files, name)
	s.removed = append(s.removed, name)
	return nil
}

// An object-store output is probed at launch through Beam's filesystem
// registry: a writable one gets the probe written and removed (nothing
// left); a read-only one is a configuration error naming --output, before
// any input is read, with nothing written.
func TestValidateProbesObjectStoreOutput(t *testing.T) {
	ctx := context.Background()
	cfg := testConfig(testdataGlobs(t))
	cfg.Output = "objtest://bucket/out/"
	probe := output.JoinPath(cfg.Output, output.ProbeFile)

	if err := Validate(ctx, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(store.written) != 1 || store.written[0] != probe || len(store.removed) != 1 || len(store.files) != 0 {
		t.Errorf("writable store: written %q, removed %q, left %d files; want the probe written and removed", store.written, store.removed, len(store.files))
	}

	store.readOnly, store.written, store.removed = true, nil, nil
	defer func() { store.readOnly = false }()
	err := Validate(ctx, &cfg)
	if !errors.Is(err, config.ErrConfig) || !strings.Contains(err.Error(), `--output "objtest://bucket/out/" is not writable`) || !strings.Contains(err.Error(), "403") {
		t.Errorf("read-only store: %v", err)
	}
	if len(store.files) != 0 || len(store.written) != 0 {
		t.Errorf("read-only store: %d files written", len(store.written))
	}
}
