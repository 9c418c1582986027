//go:build unix

package storage

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

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
		if !errors.Is(st.Err, ErrIrregular) || !strings.Contains(st.Err.Error(), want) {
			t.Errorf("%s: %+v, want ErrIrregular with %q", name, st, want)
		}
	}
	if st := Check(filepath.Join(dir, "missing.warc")); !errors.Is(st.Err, ErrUnreadable) {
		t.Errorf("missing file: %+v", st)
	}

	idA := Check(a)
	if idA.Err != nil || !strings.HasPrefix(idA.ID, "file:") {
		t.Fatalf("regular file: %+v", idA)
	}
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	must(os.Chdir(dir))
	for _, p := range []string{"link.warc", "hard.warc", "./a.warc", "a.warc", "sub.warc/../a.warc"} {
		if st := Check(p); st.ID != idA.ID || st.Err != nil {
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
