package spotsig

import (
	"strings"
	"testing"
)

// benchPages is a fixed sample of real pages: the first 300 response
// records of the gold set (31.6 MB of raw HTML: 254 utf-8, 37 iso-8859-1,
// 9 windows-1252 pages).
func benchPages(b *testing.B) ([]page, int64) {
	pages := readGoldPages(b, 300, nil)
	var n int64
	for _, p := range pages {
		n += int64(len(p.Body))
	}
	return pages, n
}

// BenchmarkExtractPayload measures the whole per-document path on real
// pages: HTML to text (charset, markup), tokens and spot signatures, in MB/s
// of raw HTML on one goroutine.
func BenchmarkExtractPayload(b *testing.B) {
	pages, n := benchPages(b)
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

// BenchmarkExtractPayloadBlocks is ExtractPayload with the signatures kept
// per text block and the main content found (the job's default path, for
// the shared-block statistic).
func BenchmarkExtractPayloadBlocks(b *testing.B) {
	pages, n := benchPages(b)
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

// BenchmarkHTMLToText isolates the markup and charset step; the sub-
// benchmark std reads every page with x/net's tokenizer alone (htmlStd),
// what the lexer pass replaced (htmllex.go).
func BenchmarkHTMLToText(b *testing.B) {
	pages, n := benchPages(b)
	for _, c := range []struct {
		name string
		opts []Option
	}{{"lexer", nil}, {"std", []Option{withStdMarkup()}}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, p := range pages {
					if _, _, err := HTMLToText(p.Body, p.ContentType, c.opts...); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkExtractText isolates tokens and signatures, in MB/s of raw HTML
// (the text of the same pages is extracted once, before timing).
func BenchmarkExtractText(b *testing.B) {
	pages, n := benchPages(b)
	texts := make([][]byte, len(pages))
	for i, p := range pages {
		texts[i], _, _ = PayloadText(p.Body, p.ContentType)
	}
	e := mustExtractor(b)
	b.SetBytes(n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, t := range texts {
			e.Extract(t)
		}
	}
}

// BenchmarkExtractPayloadParallel runs ExtractPayload on all cores
// (GOMAXPROCS goroutines sharing one Extractor).
func BenchmarkExtractPayloadParallel(b *testing.B) {
	pages, n := benchPages(b)
	e := mustExtractor(b)
	b.SetBytes(n)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			for _, p := range pages {
				e.ExtractPayload(p.Body, p.ContentType)
			}
		}
	})
}

// BenchmarkExtractPayloadHostile measures time and allocation (B/op) per
// document on crafted worst cases, each 16 MiB, i.e. twice the default
// max-input-bytes cap: the caps bound both.
func BenchmarkExtractPayloadHostile(b *testing.B) {
	const n = 16 << 20
	fill := func(unit string) []byte { return []byte(strings.Repeat(unit, n/len(unit))) }
	cases := []struct {
		name, ct string
		page     []byte
	}{
		{"one-letter-tokens", "text/html", fill("a b ")},
		{"antecedent-flood", "text/plain", fill("the cat ")},
		{"latin1-high-bytes", "text/html; charset=iso-8859-1", fill("\xe9 ")},
		{"gbk", "text/html; charset=gbk", fill("\xd6\xd0")},
		{"deep-nesting", "text/html", fill("<div><span>")},
		{"attributes", "text/html", fill("<a href=x class=y id=z>")},
		{"nested-boilerplate", "text/html", fill(`<div class="nav">`)},
	}
	e := mustExtractor(b)
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.page)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				e.ExtractPayload(c.page, c.ct)
			}
		})
	}
}
