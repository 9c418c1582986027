// Package httpfs is a read-only Beam filesystem for http:// and https://
// URLs, registered with Beam's filesystem registry (filesystem.Register)
// when imported, so that the job reads WARC files (and input lists) from a
// web server, e.g. https://data.commoncrawl.org/.
//
// A URL is one file: List returns the URL itself (there is no globbing over
// HTTP), OpenRead issues a GET and Size a HEAD request. Every request is
// bounded in time (Options): connecting, the TLS handshake and waiting for
// the response header each have a timeout, and a body that sends no byte
// for Options.IdleTimeout fails the read, so a stalled server never hangs
// the job. A response with a status outside 200–299 is an error naming the
// status. Writing, removing and renaming are not supported.
package httpfs

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

func init() {
	filesystem.Register("http", New)
	filesystem.Register("https", New)
}

// Options are the time limits and TLS settings of the filesystem's HTTP
// client.
type Options struct {
	// ConnectTimeout bounds connecting to the server (TCP), and separately
	// the TLS handshake.
	ConnectTimeout time.Duration
	// HeaderTimeout bounds the wait for the response header after the
	// request is sent.
	HeaderTimeout time.Duration
	// IdleTimeout bounds the wait for the next bytes of a response body;
	// a body may take any time in all as long as bytes keep coming.
	IdleTimeout time.Duration
	// TLS is the client's TLS configuration; nil uses the system's roots.
	TLS *tls.Config
}

// DefaultOptions are the limits used unless Configure changes them.
var DefaultOptions = Options{ConnectTimeout: 10 * time.Second, HeaderTimeout: 30 * time.Second, IdleTimeout: 60 * time.Second}

var (
	mu     sync.Mutex
	opts   = DefaultOptions
	client = newClient(DefaultOptions)
)

// Configure sets the options of every filesystem New returns from now on
// (for tests: short timeouts, a test server's certificate).
func Configure(o Options) {
	mu.Lock()
	defer mu.Unlock()
	opts, client = o, newClient(o)
}

func newClient(o Options) *http.Client {
	d := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   o.ConnectTimeout,
		ResponseHeaderTimeout: o.HeaderTimeout,
		TLSClientConfig:       o.TLS,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
	}}
}

type fs struct {
	client *http.Client
	idle   time.Duration
}

// New returns the http(s) filesystem with the options of Configure
// (DefaultOptions unless changed).
func New(context.Context) filesystem.Interface {
	mu.Lock()
	defer mu.Unlock()
	return &fs{client: client, idle: opts.IdleTimeout}
}

// Close does nothing: the client is shared.
func (*fs) Close() error { return nil }

// List returns the URL itself: a URL names one file, and is never
// expanded as a pattern.
func (*fs) List(_ context.Context, glob string) ([]string, error) {
	return []string{glob}, nil
}

// OpenRead GETs url and returns its body. A status outside 200–299 is an
// error ("GET URL: HTTP 404 Not Found"); so are the timeouts of Options. A
// read that waits longer than the idle timeout for bytes fails with an
// error naming it.
func (f *fs) OpenRead(ctx context.Context, url string) (io.ReadCloser, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	resp, err := f.do(ctx, http.MethodGet, url)
	if err != nil {
		cancel(nil)
		return nil, err
	}
	b := &idleBody{ctx: ctx, body: resp.Body, cancel: cancel, idle: f.idle, url: url}
	b.timer = time.AfterFunc(f.idle, b.expire)
	return b, nil
}

// Size is the Content-Length of a HEAD request; an error when the server
// gives none.
func (f *fs) Size(ctx context.Context, url string) (int64, error) {
	resp, err := f.do(ctx, http.MethodHead, url)
	if err != nil {
		return -1, err
	}
	resp.Body.Close()
	if resp.ContentLength < 0 {
		return -1, fmt.Errorf("HEAD %s: no Content-Length", url)
	}
	return resp.ContentLength, nil
}

// OpenWrite is not supported: the filesystem is read-only.
func (*fs) OpenWrite(_ context.Context, url string) (io.WriteCloser, error) {
	return nil, fmt.Errorf("%s: http(s) is read-only: write outputs to a local directory, gs:// or s3://", url)
}

// do sends a request and checks its status.
func (f *fs) do(ctx context.Context, method, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, url, err)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, err // *url.Error: "Get \"URL\": cause"
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
		return nil, &StatusError{URL: url, Method: method, Code: resp.StatusCode, Status: resp.Status}
	}
	return resp, nil
}

// StatusError is a response with a status outside 200–299.
type StatusError struct {
	URL, Method string
	Code        int    // e.g. 404
	Status      string // e.g. "404 Not Found"
}

func (e *StatusError) Error() string {
	s := e.Status
	if s == "" {
		s = strconv.Itoa(e.Code)
	}
	return fmt.Sprintf("%s %s: HTTP %s", e.Method, e.URL, s)
}

// ErrIdle is the cause of a read that got no bytes for the idle timeout.
var ErrIdle = errors.New("no data received within the idle timeout")

// idleBody is a response body whose request is cancelled when no byte
// arrives for idle.
type idleBody struct {
	ctx    context.Context
	body   io.ReadCloser
	cancel context.CancelCauseFunc
	timer  *time.Timer
	idle   time.Duration
	url    string
}

func (b *idleBody) expire() {
	b.cancel(fmt.Errorf("GET %s: %w (%v)", b.url, ErrIdle, b.idle))
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if n > 0 {
		b.timer.Reset(b.idle)
	}
	if err != nil && err != io.EOF {
		if cause := context.Cause(b.ctx); cause != nil && errors.Is(cause, ErrIdle) {
			return n, cause
		}
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.timer.Stop()
	err := b.body.Close()
	b.cancel(nil)
	return err
}
