package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// Run locks: one run at a time in a directory (an output directory, an
// index). The lock is a small JSON file, LockFile, in the directory,
// created exclusively and removed when the run ends. Its holder rewrites
// its time every LockHeartbeat, so a lock whose time is older than
// LockStale belongs to a run that is gone, on whatever host it ran; on the
// holder's own host a lock whose process no longer exists is stale at once.
//
// Local paths: created with O_CREATE|O_EXCL, which is atomic on local
// filesystems (and on NFS v3 and later). gs:// and s3://: Beam's
// filesystem interface has no conditional create, so the lock is checked
// and then written, and two runs starting within the same second may both
// take it; docs/deploy.md ("Scheduled batches") says which conditional
// write of each store closes the gap.

// LockFile is the name of a directory's lock file.
const LockFile = ".ndd-beam-lock"

// LockHeartbeat is how often the holder of a lock rewrites its time.
const LockHeartbeat = 30 * time.Second

// LockStale is the age of a lock's time after which it is stale.
const LockStale = 10 * LockHeartbeat

// ErrLocked is wrapped by the error of Lock for a directory in use by
// another run, live or stale.
var ErrLocked = errors.New("in use by another run")

// LockInfo is the content of a lock file: which run holds it.
type LockInfo struct {
	Host  string    `json:"host"`
	PID   int       `json:"pid"`
	Start time.Time `json:"start"` // when the run took the lock (UTC)
	Beat  time.Time `json:"beat"`  // when its holder last rewrote it (UTC)
	RunID string    `json:"run_id"`
}

// String is "host H, pid P, started T".
func (l LockInfo) String() string {
	return fmt.Sprintf("host %s, pid %d, started %s", l.Host, l.PID, l.Start.Format(time.RFC3339))
}

// Lock is a lock held on a directory.
type Lock struct {
	Path string // the lock file
	Info LockInfo
	// Stale is the lock of a run that is gone which this one replaced; zero
	// when there was none.
	Stale LockInfo

	stop chan struct{}
	done sync.WaitGroup
}

// TakeLock takes the lock of dir (LockFile in it; a missing local dir is
// created) for the run runID of this process. A lock held by a live run is
// an error wrapping ErrLocked that names it (host, pid, start) and the lock
// file. A stale lock (its process gone on this host, or its time older
// than LockStale) is replaced, and reported in Lock.Stale. Release the
// lock with Release.
func TakeLock(ctx context.Context, dir, runID string) (*Lock, error) {
	host, _ := os.Hostname()
	now := time.Now().UTC().Truncate(time.Second)
	l := &Lock{Path: joinDir(dir, LockFile), Info: LockInfo{Host: host, PID: os.Getpid(), Start: now, Beat: now, RunID: runID}}
	b := l.Info.bytes()
	for attempt := 0; ; attempt++ {
		err := createExclusive(ctx, dir, l.Path, b)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("its lock cannot be written: %w", err)
		}
		other, rerr := readLock(ctx, l.Path)
		if rerr != nil {
			if errors.Is(rerr, os.ErrNotExist) {
				continue // released meanwhile
			}
			return nil, fmt.Errorf("%w (lock %s unreadable: %v; remove it if no run uses the directory)", ErrLocked, l.Path, rerr)
		}
		if !lockStale(other, host) || attempt > 1 {
			return nil, fmt.Errorf("%w (%s; lock %s)", ErrLocked, other, l.Path)
		}
		// Another run may have replaced the stale lock meanwhile: remove
		// only the lock read above.
		if again, err := readLock(ctx, l.Path); err != nil || again != other {
			continue
		}
		if err := removePath(ctx, l.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: stale lock %s (%s) cannot be removed: %v", ErrLocked, l.Path, other, err)
		}
		l.Stale = other
	}
	l.stop = make(chan struct{})
	l.done.Add(1)
	go l.heartbeat()
	return l, nil
}

func (l LockInfo) bytes() []byte {
	b, _ := json.Marshal(l)
	return append(b, '\n')
}

// heartbeat rewrites the lock file's Beat every LockHeartbeat (locally
// through a temporary file and a rename, so a reader never sees half a
// lock).
func (l *Lock) heartbeat() {
	defer l.done.Done()
	t := time.NewTicker(LockHeartbeat)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case now := <-t.C:
			info := l.Info
			info.Beat = now.UTC().Truncate(time.Second)
			overwrite(l.Path, info.bytes())
		}
	}
}

// overwrite replaces the content of the file p with b.
func overwrite(p string, b []byte) {
	ctx := context.Background()
	if IsLocal(p) {
		tmp := p + ".beat"
		if os.WriteFile(tmp, b, 0o644) == nil {
			os.Rename(tmp, p)
		}
		return
	}
	fs, err := New(ctx, p)
	if err != nil {
		return
	}
	defer fs.Close()
	if w, err := fs.OpenWrite(ctx, p); err == nil {
		w.Write(b)
		w.Close()
	}
}

// Release removes the lock file if it is still this run's. Safe on nil
// and more than once.
func (l *Lock) Release(ctx context.Context) {
	if l == nil || l.stop == nil {
		return
	}
	close(l.stop)
	l.done.Wait()
	l.stop = nil
	if cur, err := readLock(ctx, l.Path); err == nil && cur.RunID == l.Info.RunID && cur.PID == l.Info.PID {
		removePath(ctx, l.Path)
	}
}

// ReleaseNow removes the lock file without waiting, for a process about
// to exit on a signal.
func (l *Lock) ReleaseNow() {
	if l == nil {
		return
	}
	if cur, err := readLock(context.Background(), l.Path); err == nil && cur.RunID == l.Info.RunID && cur.PID == l.Info.PID {
		removePath(context.Background(), l.Path)
	}
}

// lockStale reports whether the lock info belongs to a run that is gone:
// its Beat is older than LockStale, or it ran on this host in a process
// that no longer exists.
func lockStale(info LockInfo, host string) bool {
	if time.Since(info.Beat) > LockStale {
		return true
	}
	return info.Host == host && info.PID > 0 && !processAlive(info.PID)
}

// ReadLock reads the lock file of dir; an error wrapping os.ErrNotExist
// when there is none.
func ReadLock(ctx context.Context, dir string) (LockInfo, error) {
	return readLock(ctx, joinDir(dir, LockFile))
}

// readLock reads the lock file p.
func readLock(ctx context.Context, p string) (LockInfo, error) {
	var info LockInfo
	var b []byte
	var err error
	if IsLocal(p) {
		b, err = os.ReadFile(p)
	} else {
		var r io.ReadCloser
		if r, err = Open(ctx, p); err == nil {
			b, err = io.ReadAll(io.LimitReader(r, 4096))
			r.Close()
		}
	}
	if err != nil {
		return info, err
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return info, fmt.Errorf("not a lock file: %v", err)
	}
	return info, nil
}

// createExclusive creates p with content b; an error wrapping os.ErrExist
// when p exists. Locally the content is written to a temporary file first
// and hard-linked to p (link fails when p exists, like O_EXCL), so a run
// killed while it takes the lock never leaves a lock file without its
// content, which no later run could tell from a live one; where links are
// not supported, O_CREATE|O_EXCL.
func createExclusive(ctx context.Context, dir, p string, b []byte) error {
	if IsLocal(p) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		tmp := fmt.Sprintf("%s.ndd-beam-tmp-lock-%d-%d", p, os.Getpid(), time.Now().UnixNano())
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			return err
		}
		defer os.Remove(tmp)
		err := os.Link(tmp, p)
		var le *os.LinkError
		if err == nil || errors.Is(err, os.ErrExist) || !errors.As(err, &le) {
			return err
		}
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		_, err = f.Write(b)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(p)
		}
		return err
	}
	fs, err := New(ctx, p)
	if err != nil {
		return err
	}
	defer fs.Close()
	if _, err := fs.Size(ctx, p); err == nil {
		return fmt.Errorf("%s: %w", p, os.ErrExist)
	}
	w, err := fs.OpenWrite(ctx, p)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

// removePath removes the file p (local or through its filesystem).
func removePath(ctx context.Context, p string) error {
	if IsLocal(p) {
		return os.Remove(p)
	}
	fs, err := New(ctx, p)
	if err != nil {
		return err
	}
	defer fs.Close()
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return fmt.Errorf("the filesystem of %s cannot remove files", p)
	}
	return rm.Remove(ctx, p)
}

// joinDir joins a directory (local or URL) and a name.
func joinDir(dir, name string) string {
	if IsLocal(dir) {
		return filepath.Join(dir, name)
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}
