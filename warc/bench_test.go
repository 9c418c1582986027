package warc

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkReadFile reads real files end to end (gzip, framing, gowarc
// header parsing, HTTP decoding); SetBytes is the compressed file size.
func BenchmarkReadFile(b *testing.B) {
	for _, name := range []string{"aut__example.warc.gz", "copycat__snapshot-wayback-topic-02.warc.gz", "npm-warc-1.0.1__CC-MAIN-20140820021334-00006-ip-10-180-136-8.ec2.internal.warc"} {
		b.Run(name, func(b *testing.B) {
			data := realFile(b, name)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			records := 0
			for i := 0; i < b.N; i++ {
				records = 0
				if err := ReadFile(bytes.NewReader(data), name, Options{}, func(Record) error { records++; return nil }); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(records*b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// BenchmarkReadGoldSet reads the dev gold set (55 MB of gzip members, one
// record each: the gzip decoding path dominates); SetBytes is its
// compressed size.
func BenchmarkReadGoldSet(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(sharedDir, "..", "goldset", "gold.warc.gz"))
	if err != nil {
		b.Skipf("gold set not available: %v", err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := ReadFile(bytes.NewReader(data), "gold.warc.gz", Options{}, func(Record) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
