package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/transforms"
)

// Progress lines: on a local run, one line on stderr every
// --progress_interval with the totals the DoFns in this process have
// counted (transforms.ReadProgress), and one last line when the job
// succeeded, whose figures are the job's (its records equal summary.json's).
// A plain ticker, not a progress-bar library: the job's size is not known in
// advance (no bar to fill), and the lines must read well in a log or a pipe,
// where bar libraries such as mpb redraw one line with terminal escapes.

// progressFlag is --progress: a bool flag (--progress alone is true) that
// also takes "auto".
type progressFlag struct{ v *string }

func (f progressFlag) String() string {
	if f.v == nil {
		return ""
	}
	return *f.v
}

func (f progressFlag) Set(s string) error {
	if strings.EqualFold(s, config.ProgressAuto) {
		*f.v = config.ProgressAuto
		return nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true, false or %s", config.ProgressAuto)
	}
	*f.v = strconv.FormatBool(b)
	return nil
}

func (f progressFlag) IsBoolFlag() bool { return true }

func (f progressFlag) Get() any { return *f.v }

// progressWanted reports whether progress lines are printed for runner:
// mode is config.ProgressOn, or ProgressAuto with stderr a terminal; and the
// DoFns run in this process, so that its counts are the job's: the direct
// runner, prism started here (no --endpoint), or any job server with
// --environment_type=LOOPBACK.
func progressWanted(mode, runner string, stderr *os.File) bool {
	switch mode {
	case config.ProgressOff:
		return false
	case config.ProgressAuto:
		st, err := stderr.Stat()
		if err != nil || st.Mode()&os.ModeCharDevice == 0 {
			return false
		}
	}
	switch {
	case runner == "direct" || runner == "DirectRunner":
		return true
	case (runner == "prism" || runner == "PrismRunner") && *jobopts.Endpoint == "":
		return true
	}
	return strings.EqualFold(*jobopts.EnvironmentType, "LOOPBACK")
}

// progressPrinter prints progress lines to w from its own goroutine.
type progressPrinter struct {
	w     io.Writer
	start time.Time
	stop  chan struct{}
	done  sync.WaitGroup
}

// startProgress resets the process's counts and prints a line to w every
// interval until finish.
func startProgress(w io.Writer, interval time.Duration) *progressPrinter {
	transforms.ResetProgress()
	p := &progressPrinter{w: w, start: time.Now(), stop: make(chan struct{})}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				fmt.Fprintln(p.w, progressLine(transforms.ReadProgress(), time.Since(p.start)))
			}
		}
	}()
	return p
}

// finish stops the ticker; with last it prints one more line, the final
// figures.
func (p *progressPrinter) finish(last bool) {
	if p == nil {
		return
	}
	close(p.stop)
	p.done.Wait()
	if last {
		fmt.Fprintln(p.w, progressLine(transforms.ReadProgress(), time.Since(p.start)))
	}
}

// progressLine formats one progress line, e.g.
//
//	ndd-beam: progress: 1234 records, 56.7 MB read (11.3 MB/s), 890 documents, 12 pairs, 5s elapsed
//
// MB are 10^6 bytes of the input files as stored (compressed); elapsed is
// rounded to the second.
func progressLine(c transforms.Progress, elapsed time.Duration) string {
	mb := float64(c.Bytes) / 1e6
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = mb / s
	}
	return fmt.Sprintf("ndd-beam: progress: %d records, %.1f MB read (%.1f MB/s), %d documents, %d pairs, %s elapsed",
		c.Records, mb, rate, c.Documents, c.Pairs, elapsed.Round(time.Second))
}
