package transforms

import (
	"bufio"
	"container/heap"
	"fmt"
	"io"
	"os"
	"slices"
)

// spillBytes is how many bytes of lines a shard writer holds in memory
// before it sorts them and spills them to a temporary file (lineSorter).
const spillBytes = 64 << 20

// lineSorter sorts the lines of one output shard in bounded memory: lines
// are gathered until they exceed spillBytes, then sorted and written as a
// run to a temporary file under os.TempDir(); Each merges the runs and the
// lines still in memory (a k-way merge), so a shard of any size is written
// sorted while at most spillBytes of its lines, plus one line and a 64 KiB
// buffer per run, are in memory. Lines must not contain '\n'.
type lineSorter struct {
	mem    []string
	size   int
	runs   []*os.File
	limit  int
	closed bool
}

// Add adds a line.
func (s *lineSorter) Add(l string) error {
	s.mem = append(s.mem, l)
	s.size += len(l) + 16
	if s.size < s.limit {
		return nil
	}
	return s.spill()
}

func (s *lineSorter) spill() error {
	slices.Sort(s.mem)
	f, err := os.CreateTemp("", "ndd-beam-sort-*")
	if err != nil {
		return fmt.Errorf("sorting lines: %w", err)
	}
	s.runs = append(s.runs, f)
	w := bufio.NewWriterSize(f, 1<<16)
	for _, l := range s.mem {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("sorting lines: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("sorting lines: %w", err)
	}
	s.mem, s.size = s.mem[:0], 0
	return nil
}

// Each calls fn with every line added, in bytewise order, then removes the
// temporary files. It returns the number of lines.
func (s *lineSorter) Each(fn func(string) error) (int, error) {
	defer s.Close()
	slices.Sort(s.mem)
	if len(s.runs) == 0 {
		for _, l := range s.mem {
			if err := fn(l); err != nil {
				return 0, err
			}
		}
		return len(s.mem), nil
	}
	h := &runHeap{}
	for _, f := range s.runs {
		r := &run{rd: bufio.NewReaderSize(f, 1<<16)}
		if ok, err := r.next(); err != nil {
			return 0, err
		} else if ok {
			heap.Push(h, r)
		}
	}
	if len(s.mem) > 0 {
		heap.Push(h, &run{mem: s.mem[1:], line: s.mem[0]})
	}
	n := 0
	for h.Len() > 0 {
		r := (*h)[0]
		if err := fn(r.line); err != nil {
			return n, err
		}
		n++
		ok, err := r.next()
		if err != nil {
			return n, err
		}
		if ok {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return n, nil
}

// Close removes the temporary files.
func (s *lineSorter) Close() {
	if s.closed {
		return
	}
	s.closed = true
	for _, f := range s.runs {
		f.Close()
		os.Remove(f.Name())
	}
}

// run is one sorted run being merged: a spilled file or the lines in memory.
type run struct {
	rd   *bufio.Reader
	mem  []string
	line string
}

// next moves to the run's next line; false at its end.
func (r *run) next() (bool, error) {
	if r.rd == nil {
		if len(r.mem) == 0 {
			return false, nil
		}
		r.line, r.mem = r.mem[0], r.mem[1:]
		return true, nil
	}
	l, err := r.rd.ReadString('\n')
	if err == io.EOF && l == "" {
		return false, nil
	}
	if err != nil && err != io.EOF {
		return false, fmt.Errorf("sorting lines: %w", err)
	}
	r.line = l[:len(l)-1]
	return true, nil
}

type runHeap []*run

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return h[i].line < h[j].line }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*run)) }
func (h *runHeap) Pop() any {
	old := *h
	r := old[len(old)-1]
	*h = old[:len(old)-1]
	return r
}
