package storage

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ndd-beam/ndd-beam/dedup"
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
// entries only (Common Crawl's warc.paths.gz lists relative paths).
func TestReadList(t *testing.T) {
	dir := t.TempDir()
	text := "# Common Crawl style\n\ncrawl-data/a.warc.gz\r\n  crawl-data/b.warc.gz  \n/abs/c.warc\ngs://bucket/d.warc.gz\nhttps://example.org/e.warc.gz\n#last\n"
	writeFile(t, filepath.Join(dir, "list.txt"), []byte(text))
	writeFile(t, filepath.Join(dir, "list.txt.gz"), gz(t, text))
	for _, tc := range []struct{ prefix, first string }{
		{"", "crawl-data/a.warc.gz"},
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

// Irregular paths are refused from lstat/stat alone (a FIFO or /dev/zero
// is never opened: Check returns at once), with the reason and what the
// path is; paths that reach one file (symbolic link, "./a" and "a", hard
// link) have one ID; distinct files distinct IDs.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.warc")
	writeFile(t, a, []byte("WARC/1.0\r\n"))
	writeFile(t, filepath.Join(dir, "b.warc"), []byte("WARC/1.0\r\n"))
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink("a.warc", filepath.Join(dir, "link.warc")))
	must(os.Link(a, filepath.Join(dir, "hard.warc")))
	must(os.Symlink("gone.warc", filepath.Join(dir, "dangling.warc")))
	must(os.Symlink("loop2.warc", filepath.Join(dir, "loop1.warc")))
	must(os.Symlink("loop1.warc", filepath.Join(dir, "loop2.warc")))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo.warc"), 0o644))
	must(os.Symlink("/dev/zero", filepath.Join(dir, "zero.warc")))
	must(os.Mkdir(filepath.Join(dir, "sub.warc"), 0o755))

	for name, want := range map[string]string{
		"dangling.warc": "dangling symbolic link",
		"loop1.warc":    "symbolic link loop",
		"fifo.warc":     "FIFO",
		"zero.warc":     "character device",
		"sub.warc":      "directory",
	} {
		st := Check(filepath.Join(dir, name))
		if st.Reason != dedup.ReasonIrregularFile || !strings.Contains(st.Detail, want) {
			t.Errorf("%s: %+v, want %s with %q", name, st, dedup.ReasonIrregularFile, want)
		}
	}
	if st := Check(filepath.Join(dir, "missing.warc")); st.Reason != dedup.ReasonUnreadableFile {
		t.Errorf("missing file: %+v", st)
	}

	idA := Check(a)
	if idA.Reason != "" || !strings.HasPrefix(idA.ID, "file:") {
		t.Fatalf("regular file: %+v", idA)
	}
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	must(os.Chdir(dir))
	for _, p := range []string{"link.warc", "hard.warc", "./a.warc", "a.warc", "sub.warc/../a.warc"} {
		if st := Check(p); st.ID != idA.ID || st.Reason != "" {
			t.Errorf("%s: %+v, want the ID of a.warc %s", p, st, idA.ID)
		}
	}
	if st := Check("b.warc"); st.ID == idA.ID {
		t.Errorf("two files with one ID %s", st.ID)
	}
}

// Open refuses a FIFO without waiting for a writer, and reads a regular
// file.
func TestOpenLocal(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		rc, err := Open(context.Background(), fifo)
		if err == nil {
			rc.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("Open(FIFO) = %v, want an error naming a FIFO", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Open(FIFO) blocked")
	}
	p := filepath.Join(dir, "f")
	writeFile(t, p, []byte("hello"))
	rc, err := Open(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(rc); err != nil || b.String() != "hello" {
		t.Errorf("read %q, %v", b.String(), err)
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
