package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/storage"
	"github.com/ndd-beam/ndd-beam/transforms"
	"github.com/ndd-beam/ndd-beam/warc"
)

// checkFilteredDir checks a committed --write_warc directory dir (any
// filesystem): _SUCCESS, a manifest line per input file, and each filtered
// file as long as the manifest says, opening with a warcinfo record and
// holding the input's records less the removed ones (read back with the
// job's reader). It returns the records removed in all.
func checkFilteredDir(t *testing.T, dir string, files int) int {
	t.Helper()
	ctx := context.Background()
	read := func(name string) []byte {
		rc, err := storage.Open(ctx, output.JoinPath(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	read(output.SuccessFile)
	sc := bufio.NewScanner(bytes.NewReader(read(output.JSONLines.ShardName(transforms.WARCManifest, 0, 1))))
	sc.Buffer(nil, 1<<24)
	n, removed := 0, 0
	for sc.Scan() {
		n++
		var m transforms.ManifestLine
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		b := read(m.WARC)
		if int64(len(b)) != m.BytesOut {
			t.Errorf("%s: %d bytes, manifest says %d", m.WARC, len(b), m.BytesOut)
		}
		var types []string
		if err := warc.ReadFile(bytes.NewReader(b), m.WARC, warc.Options{}, func(r warc.Record) error {
			types = append(types, r.Type)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(types) == 0 || types[0] != "warcinfo" || len(types) != m.Kept+1 {
			t.Errorf("%s: %d records (first %q), want a warcinfo and the %d kept", m.WARC, len(types), types[:min(1, len(types))], m.Kept)
		}
		removed += m.Removed
	}
	if n != files {
		t.Errorf("manifest of %s: %d files, want %d", dir, n, files)
	}
	return removed
}
