package spotsig

import (
	"slices"

	"github.com/ndd-beam/ndd-beam/internal/hashx"
)

// The main-text sketch: what verification of a candidate pair reads of a
// page. Spot signatures are a sample of the text (chains after
// antecedents, §3): they find candidates robustly, but they do not see
// the names, figures and table cells that tell two template siblings
// apart. A pair is verified on the share of each page's main text that
// the other holds, the labelling guide of the real-page sets ("about 80 %
// of each page's main-text words are found in the other, both ways").
//
// The main text is the text of the page's main content (layout.go: the
// readability container and its siblings; all of a plain-text payload),
// every word kept: stopwords, numbers, names, short lines and cells. Its
// words are taken as a multiset (each word with its occurrence number:
// "the#1", "the#2"), so a share counts repeated words as often as they
// occur, the way an alignment of the two texts counts them.
//
// A page carries a bottom-k sketch of that multiset (Broder 1997; Cohen and
// Kaplan, "Summarizing data using bottom-k sketches", PODC 2007): the
// SketchSize smallest 32-bit hashes of its elements and the number of
// elements. Below the smaller of the two sketches' largest hashes, both
// sketches hold every element of their pages, so the elements there are a
// uniform sample of the union, and the share of the sample in both pages
// estimates the Jaccard J of the two multisets; with the sizes, the
// intersection is J/(1+J)·(|A|+|B|) (Shares). A page of at most SketchSize
// words is held whole, and the shares of two such pages are exact.

// SketchSize is k of the bottom-k main-text sketch: 128 hashes of 4 bytes,
// 516 bytes a page with Words. The standard error of a Jaccard estimated
// from it is about sqrt(J(1−J)/k) ≈ 0.04 near shares of 0.8; the error
// measured on the smaller share of real pairs is smaller (docs/quality.md,
// "Verification").
const SketchSize = 128

// Sketch is the bottom-k sketch of a page's main-text words (a multiset,
// each word with its occurrence number): Words is the multiset's size,
// Min its min(Words, SketchSize) smallest element hashes, ascending and
// distinct. The zero Sketch is a page without main-text words.
type Sketch struct {
	Words uint32
	Min   []uint32
}

// Complete reports whether the sketch holds every element of its page.
func (s Sketch) Complete() bool { return int(s.Words) <= len(s.Min) }

// Bytes is the sketch's size in memory, less the slice header.
func (s Sketch) Bytes() int { return 4 + 4*len(s.Min) }

// SketchText returns the Sketch of the words of text (Tokenize's words,
// lower-cased), as a multiset.
func SketchText(text []byte) Sketch {
	var sk sketcher
	return sketchMain(&sk, text, nil)
}

// sketchMain is SketchText of the text outside periphery (ascending,
// disjoint spans of text), with the working memory of sk (reused across
// calls; its buffers stay with the caller's scratch).
func sketchMain(sk *sketcher, text []byte, periphery []span) Sketch {
	sk.words, sk.el = sk.words[:0], sk.el[:0]
	t := tokenizer{buf: sk.tok[:0]}
	at := 0
	each := func(part []byte) {
		t.text, t.pos = part, 0
		for {
			tok, ok := t.next()
			if !ok {
				return
			}
			sk.add(tok)
		}
	}
	for _, p := range periphery {
		each(text[at:p.start])
		at = p.end
	}
	each(text[at:])
	sk.tok = t.buf
	return sk.sketch()
}

// sketcher gathers the word hashes of one text; its buffers are reused.
type sketcher struct {
	words []uint64
	el    []uint32
	tok   []byte
}

func (k *sketcher) add(tok []byte) { k.words = append(k.words, hashx.FNVAdd(hashx.FNVOffset, tok)) }

// sketch numbers each word's occurrences (the multiset's elements), hashes
// them to 32 bits and keeps the SketchSize smallest.
func (k *sketcher) sketch() Sketch {
	if len(k.words) == 0 {
		return Sketch{}
	}
	slices.Sort(k.words)
	if cap(k.el) < len(k.words) {
		k.el = make([]uint32, len(k.words))
	}
	el := k.el[:len(k.words)]
	// Occurrence numbers: the i-th element of a run of equal words is
	// word#(i - start of the run).
	start := 0
	for i, w := range k.words {
		if i > 0 && w != k.words[i-1] {
			start = i
		}
		el[i] = uint32(hashx.Mix64(w^hashx.Mix64(uint64(i-start)+1)) >> 32)
	}
	slices.Sort(el)
	el = slices.Compact(el)
	n := min(len(el), SketchSize)
	return Sketch{Words: uint32(len(k.words)), Min: slices.Clone(el[:n])}
}

// Shares estimates the share of a's main text found in b (ab) and of b's
// in a (ba), each in [0, 1]: |A∩B|/|A| and |A∩B|/|B| of the two word
// multisets, from their sketches as the comment above says; exact when
// both sketches are complete. A page without words shares nothing.
func Shares(a, b Sketch) (ab, ba float64) {
	if a.Words == 0 || b.Words == 0 {
		return 0, 0
	}
	// limit: every element of a page at or below it is in its sketch.
	limit := func(s Sketch) uint64 {
		if s.Complete() {
			return 1 << 32
		}
		return uint64(s.Min[len(s.Min)-1])
	}
	t := min(limit(a), limit(b))
	union, both := 0, 0
	i, j := 0, 0
	for {
		var x, y uint64 = 1 << 33, 1 << 33
		if i < len(a.Min) {
			x = uint64(a.Min[i])
		}
		if j < len(b.Min) {
			y = uint64(b.Min[j])
		}
		v := min(x, y)
		if v > t {
			break
		}
		union++
		if x == y {
			both++
			i++
			j++
		} else if x < y {
			i++
		} else {
			j++
		}
	}
	if union == 0 || both == 0 {
		return 0, 0
	}
	jac := float64(both) / float64(union)
	inter := jac / (1 + jac) * float64(a.Words+b.Words)
	return min(1, inter/float64(a.Words)), min(1, inter/float64(b.Words))
}

// MainText returns the main text of a payload, the text Sketch is taken
// from (the text outside the periphery, layout.go), for evaluation and
// reports. Errors are PayloadText's.
func (e *Extractor) MainText(payload []byte, contentType string) ([]byte, error) {
	s := e.scratch.Get().(*scratch)
	defer e.release(s)
	var st PayloadStats
	periphery, err := e.payloadText(s, payload, contentType, &st)
	if err != nil {
		return nil, err
	}
	var out []byte
	at := 0
	for _, p := range periphery {
		out = append(out, s.text[at:p.start]...)
		out = append(out, '\n')
		at = p.end
	}
	return append(out, s.text[at:]...), nil
}
