package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
)

// maxErrorLine bounds the error line printed for a failed job, bytes.
const maxErrorLine = 400

// doFnFailed is how Beam's exec package (doFnError) names a failed DoFn:
// "DoFn[UID:316, PID:fileio.matchFn, Name: …] failed:".
var doFnFailed = regexp.MustCompile(`DoFn\[UID:[^,]*, PID:[^,]*, Name: ([^\]]*)\] failed:`)

// jobError reduces the error of a failed Beam job to one line: its root
// cause, without the execution plan, the wrapping contexts or a stack trace
// that Beam's runners put around it (the direct runner's error for one
// unreadable input file is some 20 KB). The cause is the innermost wrapped
// error (Beam's errors unwrap to it), and in a runner's error text (prism,
// job servers) the part after the last "caused by:"; a failed DoFn is named
// by its short name; only the first line of the cause is kept (a panic's
// message, not its stack), cut to maxErrorLine bytes.
func jobError(err error) string {
	e := err
	for u := errors.Unwrap(e); u != nil; u = errors.Unwrap(e) {
		e = u
	}
	msg := e.Error()
	if i := strings.LastIndex(msg, "caused by:"); i >= 0 {
		msg = msg[i+len("caused by:"):]
	}
	where := ""
	if m := doFnFailed.FindStringSubmatchIndex(msg); m != nil {
		name := msg[m[2]:m[3]]
		where = "in " + name[strings.LastIndex(name, "/")+1:] + ": "
		msg = msg[m[1]:]
	}
	line := ""
	for _, l := range strings.Split(msg, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			line = l
			break
		}
	}
	if line == "" {
		line = fmt.Sprintf("%T", err)
	}
	line = where + line
	if len(line) > maxErrorLine {
		line = line[:maxErrorLine] + "…"
	}
	return line
}

// heldErrors is a slog.Handler that passes records below slog.LevelWarn to
// next and holds the rest back: Beam's runners log a failed bundle at ERROR
// level with the whole execution plan (prism: some 8 KB per failure, four
// times), and prism's data channel warns as it closes under a failing job
// ("EOF on send; fetching real error", "context canceled"), all of which
// the job's own error line replaces. Held records are printed by flush (the
// job succeeded: they did not make it fail) or dropped.
type heldErrors struct {
	next slog.Handler
	mu   *sync.Mutex
	held *[]slog.Record
}

// holdErrorLogs wraps slog's default handler in a heldErrors.
func holdErrorLogs() heldErrors {
	h := heldErrors{next: slog.Default().Handler(), mu: &sync.Mutex{}, held: &[]slog.Record{}}
	slog.SetDefault(slog.New(h))
	return h
}

func (h heldErrors) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn || h.next.Enabled(ctx, l)
}

func (h heldErrors) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelWarn {
		return h.next.Handle(ctx, r)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(*h.held) < 100 {
		*h.held = append(*h.held, r.Clone())
	}
	return nil
}

func (h heldErrors) WithAttrs(as []slog.Attr) slog.Handler {
	return heldErrors{next: h.next.WithAttrs(as), mu: h.mu, held: h.held}
}

func (h heldErrors) WithGroup(name string) slog.Handler {
	return heldErrors{next: h.next.WithGroup(name), mu: h.mu, held: h.held}
}

// flush prints the held records.
func (h heldErrors) flush() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range *h.held {
		h.next.Handle(context.Background(), r)
	}
	*h.held = nil
}

// dryRunNoise is a slog.Handler that drops the warnings Beam's Dataflow
// runner logs while it builds a job about Cloud Storage buckets it cannot
// look at (its soft-delete check of the staging and temp locations): on a
// dry run nothing is staged, and each warning is a long line, printed once
// per location. Whether one of them said that no Google Cloud credentials
// were found is kept for the dry run's closing line.
type dryRunNoise struct {
	next    slog.Handler
	noCreds *bool
}

// dryRunNoiseMessages start the messages dryRunNoise drops
// (runners/dataflow.checkSoftDeletePolicyEnabled in Beam v2.77.0).
var dryRunNoiseMessages = []string{"Error creating GCS client", "Error checking SoftDeletePolicy", "Error parsing bucket name"}

// quietDryRun wraps slog's default handler in a dryRunNoise.
func quietDryRun() dryRunNoise {
	h := dryRunNoise{next: slog.Default().Handler(), noCreds: new(bool)}
	slog.SetDefault(slog.New(h))
	return h
}

func (h dryRunNoise) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h dryRunNoise) Handle(ctx context.Context, r slog.Record) error {
	for _, m := range dryRunNoiseMessages {
		if strings.HasPrefix(r.Message, m) {
			if strings.Contains(r.Message, "could not find default credentials") {
				*h.noCreds = true
			}
			return nil
		}
	}
	return h.next.Handle(ctx, r)
}

func (h dryRunNoise) WithAttrs(as []slog.Attr) slog.Handler {
	return dryRunNoise{next: h.next.WithAttrs(as), noCreds: h.noCreds}
}

func (h dryRunNoise) WithGroup(name string) slog.Handler {
	return dryRunNoise{next: h.next.WithGroup(name), noCreds: h.noCreds}
}
