package httpfs

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// tlsServer starts an HTTPS test server on loopback and configures the
// filesystem to trust it, with short timeouts.
func tlsServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewTLSServer(h)
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	Configure(Options{ConnectTimeout: 2 * time.Second, HeaderTimeout: time.Second, IdleTimeout: time.Second,
		TLS: &tls.Config{RootCAs: pool}})
	t.Cleanup(func() { Configure(DefaultOptions) })
	return srv
}

// Through Beam's registry, an https URL lists as itself and reads its
// body; its size is the Content-Length.
func TestReadThroughRegistry(t *testing.T) {
	body := strings.Repeat("WARC/1.0\r\n", 1000)
	srv := tlsServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/a.warc" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		io.WriteString(w, body)
	}))
	ctx := context.Background()
	url := srv.URL + "/a.warc"
	fs, err := filesystem.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	if got, err := fs.List(ctx, url+"?x=*"); err != nil || len(got) != 1 || got[0] != url+"?x=*" {
		t.Errorf("List = %q, %v; want the URL itself", got, err)
	}
	b, err := filesystem.Read(ctx, fs, url)
	if err != nil || string(b) != body {
		t.Errorf("read %d bytes, %v; want %d", len(b), err, len(body))
	}
	if n, err := fs.Size(ctx, url); err != nil || n != int64(len(body)) {
		t.Errorf("Size = %d, %v", n, err)
	}
	if _, err := fs.OpenWrite(ctx, url); err == nil {
		t.Error("OpenWrite succeeded on a read-only filesystem")
	}
}

// A status outside 2xx, a server that never answers and a body that stalls
// are errors within the configured timeouts, never a hang.
func TestErrorsAndTimeouts(t *testing.T) {
	release := make(chan struct{})
	srv := tlsServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing":
			http.NotFound(w, r)
		case "/error":
			http.Error(w, "boom", http.StatusInternalServerError)
		case "/silent":
			select {
			case <-release:
			case <-r.Context().Done():
			}
		case "/stall":
			w.Header().Set("Content-Length", "1000")
			io.WriteString(w, "WARC/1.0\r\n")
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
	}))
	defer close(release)
	ctx := context.Background()
	fs := New(ctx)
	for _, tc := range []struct{ path, want string }{
		{"/missing", "HTTP 404 Not Found"},
		{"/error", "HTTP 500 Internal Server Error"},
		{"/silent", "timeout awaiting response headers"},
	} {
		start := time.Now()
		_, err := fs.OpenRead(ctx, srv.URL+tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("%s: %v, want an error naming the URL and %q", tc.path, err, tc.want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v", tc.path, d)
		}
	}
	var se *StatusError
	if _, err := fs.OpenRead(ctx, srv.URL+"/missing"); !errors.As(err, &se) || se.Code != 404 {
		t.Errorf("404: %v is not a StatusError with code 404", err)
	}

	start := time.Now()
	rc, err := fs.OpenRead(ctx, srv.URL+"/stall")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if !errors.Is(err, ErrIdle) || string(b) != "WARC/1.0\r\n" {
		t.Errorf("stalled body: read %q, %v; want the first bytes and ErrIdle", b, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stalled body: took %v", d)
	}
}
