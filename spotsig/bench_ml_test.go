package spotsig

import (
	"path/filepath"
	"testing"
)

// mlBenchPages is the first 300 pages of the multilingual gold set
// (goldset-ml: documentation and news pages in 11 languages, Latin,
// Cyrillic and CJK scripts), where language identification has real work
// to do, and their bytes.
func mlBenchPages(b *testing.B) ([]page, int64) {
	pages := readPagesOf(b, filepath.Join(sharedDir, "goldset-ml", "gold.warc.gz"), 300, nil)
	var n int64
	for _, p := range pages {
		n += int64(len(p.Body))
	}
	return pages, n
}

// BenchmarkExtractPayloadMultilingual is BenchmarkExtractPayload on
// mlBenchPages.
func BenchmarkExtractPayloadMultilingual(b *testing.B) {
	pages, n := mlBenchPages(b)
	e := mustExtractor(b)
	b.SetBytes(n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range pages {
			if _, _, err := e.ExtractPayload(p.Body, p.ContentType); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkExtractPayloadBlocksMultilingual is the job's per-document path
// (BenchmarkExtractPayloadBlocks) on mlBenchPages.
func BenchmarkExtractPayloadBlocksMultilingual(b *testing.B) {
	pages, n := mlBenchPages(b)
	e := mustExtractor(b)
	b.SetBytes(n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range pages {
			if _, _, err := e.ExtractPayloadBlocks(p.Body, p.ContentType); err != nil {
				b.Fatal(err)
			}
		}
	}
}
