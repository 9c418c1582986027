package output

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkEncode writes the JSON-lines outputs of a run (the directory in
// NDD_BENCH_OUTPUT, e.g. scripts/bench-job.sh formats' out-crawl-jsonl)
// in each format to io.Discard: the cost of writing each format alone,
// without the job around it. It reports the process CPU per op
// (cpu-ms/op: user + system, getrusage) besides the wall time.
func BenchmarkEncode(b *testing.B) {
	dir := os.Getenv("NDD_BENCH_OUTPUT")
	if dir == "" {
		b.Skip("NDD_BENCH_OUTPUT not set: the JSON-lines output directory of a run")
	}
	lines := map[string][]string{}
	for _, o := range Sharded {
		files, _ := filepath.Glob(filepath.Join(dir, o+"-*.jsonl"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			if s := strings.TrimSuffix(string(data), "\n"); s != "" {
				lines[o] = append(lines[o], strings.Split(s, "\n")...)
			}
		}
	}
	if len(lines[Decisions]) == 0 {
		b.Fatalf("%s: no decisions lines", dir)
	}
	for _, f := range formats {
		b.Run(strings.TrimPrefix(f.Suffix, "."), func(b *testing.B) {
			start, _ := processCPU()
			for range b.N {
				for _, o := range Sharded {
					w := bufio.NewWriterSize(io.Discard, 1<<16)
					enc, err := f.NewEncoder(w, o)
					if err != nil {
						b.Fatal(err)
					}
					for _, l := range lines[o] {
						if err := enc.Encode(l); err != nil {
							b.Fatal(err)
						}
					}
					if err := enc.Close(); err != nil {
						b.Fatal(err)
					}
				}
			}
			end, _ := processCPU()
			b.ReportMetric(float64((end-start).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}
