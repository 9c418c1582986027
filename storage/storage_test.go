package storage

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A list, plain or gzipped, gives its entries in order: blank lines and #
// comments skipped, white space trimmed, the prefix before relative
// entries only (Common Crawl's warc.paths.gz lists relative paths), and
// without a prefix the relative entries of a local list beside the list.
func TestReadList(t *testing.T) {
	dir := t.TempDir()
	text := "# Common Crawl style\n\ncrawl-data/a.warc.gz\r\n  crawl-data/b.warc.gz  \n/abs/c.warc\ngs://bucket/d.warc.gz\nhttps://example.org/e.warc.gz\n#last\n"
	writeFile(t, filepath.Join(dir, "list.txt"), []byte(text))
	writeFile(t, filepath.Join(dir, "list.txt.gz"), gz(t, text))
	for _, tc := range []struct{ prefix, first string }{
		{"", filepath.Join(dir, "crawl-data/a.warc.gz")},
		{"https://data.commoncrawl.org/", "https://data.commoncrawl.org/crawl-data/a.warc.gz"},
		{"s3://commoncrawl", "s3://commoncrawl/crawl-data/a.warc.gz"},
	} {
		for _, name := range []string{"list.txt", "list.txt.gz"} {
			got, err := ReadList(context.Background(), filepath.Join(dir, name), tc.prefix)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			second := strings.Replace(tc.first, "/a.", "/b.", 1)
			want := []string{tc.first, second, "/abs/c.warc", "gs://bucket/d.warc.gz", "https://example.org/e.warc.gz"}
			if !slices.Equal(got, want) {
				t.Errorf("%s prefix %q:\n got %q\nwant %q", name, tc.prefix, got, want)
			}
		}
	}
}

// A bad list is one error line naming the list: missing, not gzip, binary
// data, a line too long, no entries.
func TestReadListErrors(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{
		"notgzip.txt.gz": []byte("plain text\n"),
		"binary.txt":     {'W', 'A', 'R', 'C', 0, 1, 2, '\n'},
		"long.txt":       bytes.Repeat([]byte("a"), MaxListLine+1),
		"comments.txt":   []byte("# nothing\n\n   \n"),
		"empty.txt.gz":   gz(t, ""),
	}
	for name, b := range files {
		writeFile(t, filepath.Join(dir, name), b)
	}
	for _, tc := range []struct{ name, want string }{
		{"missing.txt", "no such file"},
		{"notgzip.txt.gz", "not gzip"},
		{"binary.txt", "line 1"},
		{"long.txt", "longer than"},
		{"comments.txt", "lists no path"},
		{"empty.txt.gz", "lists no path"},
	} {
		p := filepath.Join(dir, tc.name)
		_, err := ReadList(context.Background(), p, "")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line naming the list and %q", tc.name, err, tc.want)
		}
	}
}

func TestCanonicalURL(t *testing.T) {
	for in, want := range map[string]string{
		"HTTPS://Example.ORG:443/a/./b/../c.warc.gz#frag": "https://example.org/a/c.warc.gz",
		"http://example.org:80/x.warc?y=1":                "http://example.org/x.warc?y=1",
		"http://example.org:8080/dir/":                    "http://example.org:8080/dir/",
		"gs://bucket/a/./b.warc":                          "gs://bucket/a/./b.warc",
	} {
		if got := CanonicalURL(in); got != want {
			t.Errorf("CanonicalURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// A filesystem that panics while starting (Beam's s3 filesystem with an
// AWS profile that does not exist) is an error, not a crash.
func TestNewS3BadConfig(t *testing.T) {
	t.Setenv("AWS_CONFIG_FILE", "/dev/null")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
	t.Setenv("AWS_PROFILE", "ndd-beam-no-such-profile")
	fs, err := New(context.Background(), "s3://bucket/x.warc.gz")
	if err == nil || !strings.Contains(err.Error(), "s3 filesystem") || !strings.Contains(err.Error(), "ndd-beam-no-such-profile") || strings.Contains(err.Error(), "\n") {
		t.Errorf("New = %v, %v; want one error line naming s3 and the profile", fs, err)
	}
}

func TestHasGlob(t *testing.T) {
	for p, want := range map[string]bool{
		"testdata/*.warc.gz":                   true,
		"gs://b/crawl/*/x.warc":                true,
		"testdata/a.warc.gz":                   false,
		"https://example.org/x.warc.gz?sig=a*": false,
	} {
		if HasGlob(p) != want {
			t.Errorf("HasGlob(%q) = %v", p, !want)
		}
	}
}

func TestIsClean(t *testing.T) {
	for p, want := range map[string]bool{
		"a.warc": true, "d/a.warc": true, "./a.warc": false, "d/../a.warc": false,
		"https://h/a.warc": true, "https://h/./a.warc": false, "HTTPS://h/a.warc": false, "gs://b/./a": true,
	} {
		if IsClean(p) != want {
			t.Errorf("IsClean(%q) = %v", p, !want)
		}
	}
}

// A directory input holds the *.warc and *.warc.gz files directly in it
// (any case), not its subdirectories, dot files or other names; anything
// but a local directory is not one.
func TestWARCFilesIn(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.warc.gz", "a.WARC", "c.arc.gz", "d.warc.gz.tmp", ".e.warc", "sub/f.warc.gz", "notes.txt"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		writeFile(t, filepath.Join(dir, name), []byte("x"))
	}
	os.Mkdir(filepath.Join(dir, "g.warc"), 0o755)
	got, isDir, err := WARCFilesIn(dir)
	if want := []string{filepath.Join(dir, "a.WARC"), filepath.Join(dir, "b.warc.gz")}; err != nil || !isDir || !slices.Equal(got, want) {
		t.Errorf("WARCFilesIn(dir) = %q, %v, %v; want %q", got, isDir, err, want)
	}
	for _, p := range []string{filepath.Join(dir, "b.warc.gz"), filepath.Join(dir, "*"), filepath.Join(dir, "none"), "gs://bucket/dir/"} {
		if got, isDir, err := WARCFilesIn(p); isDir || got != nil || err != nil {
			t.Errorf("WARCFilesIn(%q) = %q, %v, %v; want not a directory", p, got, isDir, err)
		}
	}
}
