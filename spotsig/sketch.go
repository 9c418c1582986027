package spotsig

import (
	"math"
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

// WholeSketchSize is k of the whole-text sketch: 64 hashes, 260 bytes a
// page with periphery. The whole text only has to tell apart pages whose
// main contents agree (listings whose layout took one footer paragraph
// for their main content), which differ in a large share of their whole
// texts; 64 keeps a page's index row within 1.5 KB
// (index.TestGoldSetSegment), at a larger error (docs/quality.md,
// "Verification").
const WholeSketchSize = 64

// WholeWaitSize is how many of the whole text's smallest elements a page
// carries until its shared boilerplate is known (Periphery.Ext): enough to
// keep WholeSketchSize once the elements of shared blocks are left out
// (LessShared) on a page whose periphery is most of its text.
const WholeWaitSize = 256

// Sketch is the bottom-k sketch of a page's main-text words (a multiset,
// each word with its occurrence number): Words is the multiset's size,
// Min its min(Words, SketchSize) smallest element hashes, ascending and
// distinct. WholeWords and WholeMin are the same of the page's whole text
// (its main content and its periphery), both zero when the whole text is
// the main text (a page without periphery, plain text) or was not
// recorded (an index segment of schema 3 or older): Shares then reads the
// main text for both. The zero Sketch is a page without main-text words.
//
// Template and TemplateHost are the page's host's template (template.go):
// bit i of Template (Template[i/64], bit i%64) marks element i of the
// whole-text sketch (WholeMin, or Min without periphery) as the
// template's, and TemplateHost names the template it was marked against
// (MarkTemplate; 0: not marked), by the run that read the page; the index
// does not keep them.
type Sketch struct {
	Words        uint32
	Min          []uint32
	WholeWords   uint32
	WholeMin     []uint32
	Template     [2]uint64
	TemplateHost uint64
}

// Complete reports whether the sketch holds every element of its main
// text (and so its shares are exact on a page without periphery).
func (s Sketch) Complete() bool { return complete(s.Words, s.Min) }

// complete reports whether the sketch hs of a text of words words holds
// every element of it.
func complete(words uint32, hs []uint32) bool { return int(words) <= len(hs) }

// Bytes is the sketch's size in memory, less the slice headers.
func (s Sketch) Bytes() int { return 32 + 4*len(s.Min) + 4*len(s.WholeMin) }

// whole returns the size and sketch of the page's whole text.
func (s Sketch) whole() (uint32, []uint32) {
	if s.WholeWords == 0 {
		return s.Words, s.Min
	}
	return s.WholeWords, s.WholeMin
}

// SketchText returns the Sketch of the words of text (Tokenize's words,
// lower-cased), as a multiset.
func SketchText(text []byte) Sketch {
	var sk sketcher
	Tokenize(text, func(tok []byte) { sk.main = append(sk.main, wordHash(tok)) })
	out, _ := sk.sketch(false)
	return out
}

// wordHash is the hash of a word (a token) that its elements are made of.
func wordHash(tok []byte) uint64 { return hashx.FNVAdd(hashx.FNVOffset, tok) }

// add gathers word tok, whose last byte is just before byte offset end of
// the text, into main or side: side when it lies in one of periphery (the
// periphery spans not yet passed, ascending; advanced past it).
func (sk *sketcher) add(tok []byte, end int, periphery *[]span) {
	sk.addHash(wordHash(tok), end, periphery)
}

// addHash is add of a word whose wordHash is h.
func (sk *sketcher) addHash(h uint64, end int, periphery *[]span) {
	p := *periphery
	for len(p) > 0 && end > p[0].end {
		p = p[1:]
	}
	*periphery = p
	if len(p) > 0 && end > p[0].start {
		sk.side = append(sk.side, h)
		sk.sideEnd = append(sk.sideEnd, int32(end))
		return
	}
	sk.main = append(sk.main, h)
}

// sketch returns the Sketch of the words gathered in sk.main (the main
// text's, in text order) and sk.side (the periphery's), and empties them.
// The scan of a page's text (scan.go) gathers them as it tokenizes it.
// With wait and a periphery, whole holds the whole text's
// WholeWaitSize smallest elements (WholeMin is its start; Periphery.Ext
// comes from the rest), and sk.sideEl the periphery words' elements, in
// text order, until the next call.
func (sk *sketcher) sketch(wait bool) (out Sketch, whole []uint32) {
	// Each word's occurrences are numbered as they come (word#1, word#2,
	// …), the main text's first: its elements are the main text's
	// multiset, and with the periphery's after them, the whole text's.
	sk.count.reset(len(sk.main) + len(sk.side))
	sk.el = sk.el[:0]
	for _, w := range sk.main {
		sk.el = append(sk.el, element(w, sk.count.inc(w)))
	}
	out.Words, out.Min = uint32(len(sk.main)), sk.smallest(sk.el, SketchSize)
	sk.sideEl = nil
	if len(sk.side) > 0 {
		main := len(sk.el)
		for _, w := range sk.side {
			sk.el = append(sk.el, element(w, sk.count.inc(w)))
		}
		// The whole text's elements are the main text's and the
		// periphery's after them.
		out.WholeWords = uint32(len(sk.el))
		if !wait {
			// Its smallest are among the main text's smallest and the
			// periphery's.
			out.WholeMin = hashx.UniteSmallest(out.Min, sk.smallest(sk.el[main:], WholeSketchSize), WholeSketchSize)
		} else {
			whole = sk.smallest(sk.el, WholeWaitSize)
			out.WholeMin = whole
			if len(whole) > WholeSketchSize {
				out.WholeMin = slices.Clone(whole[:WholeSketchSize])
			}
			sk.sideEl = sk.el[main:]
		}
	}
	sk.main, sk.side = sk.main[:0], sk.side[:0]
	return out, whole
}

// element is the 32-bit hash of the occ-th occurrence of the word of hash
// w: an element of a text's word multiset.
func element(w uint64, occ uint32) uint32 {
	return uint32(hashx.Mix64(w^hashx.Mix64(uint64(occ))) >> 32)
}

// sketcher gathers the word hashes of one text, those of its main text
// (main) and of its periphery (side), and numbers their occurrences; its
// buffers are reused.
type sketcher struct {
	main, side []uint64
	sideEnd    []int32  // the byte offset each word of side ends at
	sideEl     []uint32 // the elements of side (sketch with wait)
	count      counter
	el, low    []uint32
	tmp        []uint32 // sortUniform's
	starts     []int32  // sortUniform's
}

// counter counts words by hash: an open-addressing table, linear probing,
// a zero count marking an empty slot; cleared and reused per text.
type counter struct {
	keys   []uint64
	counts []uint32
}

// reset empties the table, sized for n words.
func (c *counter) reset(n int) {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	if cap(c.keys) < size {
		c.keys, c.counts = make([]uint64, size), make([]uint32, size)
		return
	}
	c.keys, c.counts = c.keys[:size], c.counts[:size]
	clear(c.counts)
}

// inc counts one more occurrence of w and returns its count.
func (c *counter) inc(w uint64) uint32 {
	mask := uint64(len(c.keys) - 1)
	for i := hashx.Mix64(w) & mask; ; i = (i + 1) & mask {
		if c.counts[i] == 0 {
			c.keys[i], c.counts[i] = w, 1
			return 1
		}
		if c.keys[i] == w {
			c.counts[i]++
			return c.counts[i]
		}
	}
}

// smallest returns the size smallest distinct hashes of el, ascending.
func (k *sketcher) smallest(el []uint32, size int) []uint32 {
	if len(el) == 0 {
		return nil
	}
	// The hashes are uniform: the number of the n below a share
	// (size + 4·√size + 16)/n of the range is about binomial with mean
	// size + 4·√size + 16 and deviation about √size, so it is size or
	// more but in about 3 cases in 10⁵. Sort only those (doubling the
	// bound when too few are), not all n.
	limit := uint64(1) << 32
	want := uint64(size) + 4*uint64(math.Sqrt(float64(size))) + 16
	if n := uint64(len(el)); n > want {
		limit = want << 32 / n
	}
	for {
		low := k.low[:0]
		for _, h := range el {
			if uint64(h) < limit {
				low = append(low, h)
			}
		}
		k.low = low
		k.sortUniform(low, limit)
		low = slices.Compact(low)
		if len(low) >= size || limit >= 1<<32 {
			return slices.Clone(low[:min(len(low), size)])
		}
		limit = min(2*limit, 1<<32)
	}
}

// sortUniform sorts hs, hashes uniform on [0, limit), in expected linear
// time: a counting sort on which of len(hs) equal parts of the range each
// hash is in, then an insertion sort of the almost sorted result (each
// part holds one hash on average). Any hashes come out sorted; only the
// time needs them uniform. pdqsort took about 5 % of the job's
// CPU on a crawl of short pages, each of whose words is sorted
// (docs/benchmarks.md).
func (k *sketcher) sortUniform(hs []uint32, limit uint64) {
	n := uint64(len(hs))
	if n < 32 {
		slices.Sort(hs)
		return
	}
	scale := n << 32 / limit // part(h) ≈ h·n/limit, < n, ascending in h, without a division per hash
	part := func(h uint32) uint64 { return uint64(h) * scale >> 32 }
	k.starts = append(k.starts[:0], make([]int32, n+1)...)
	for _, h := range hs {
		k.starts[part(h)+1]++
	}
	for i := 1; i <= int(n); i++ {
		k.starts[i] += k.starts[i-1]
	}
	k.tmp = append(k.tmp[:0], hs...)
	for _, h := range k.tmp {
		p := part(h)
		hs[k.starts[p]] = h
		k.starts[p]++
	}
	for i := 1; i < len(hs); i++ {
		h, j := hs[i], i
		for ; j > 0 && hs[j-1] > h; j-- {
			hs[j] = hs[j-1]
		}
		hs[j] = h
	}
}

// Shares estimates the share of a's text found in b (ab) and of b's in a
// (ba), each in [0, 1]: the smaller of the share of its main text found
// in the other's main text and of its whole text found in the other's
// whole text, so a pair counts as one document only when both its main
// contents and its whole pages are mostly the same words (the main
// content tells template siblings apart, whose template is most of each
// page; the whole text tells apart listings whose layout picked a teaser
// or a footer paragraph as their main content). Each share is |A∩B|/|A|
// and |A∩B|/|B| of two word multisets, estimated from their sketches as
// the comment above says; exact when both sketches are complete. A page
// without words shares nothing.
func Shares(a, b Sketch) (ab, ba float64) {
	ab, ba = shares(a.Words, a.Min, b.Words, b.Min)
	aw, am := a.whole()
	bw, bm := b.whole()
	wab, wba := shares(aw, am, bw, bm)
	return min(ab, wab), min(ba, wba)
}

// shares is Shares of one text of each page: aw words sketched by am, bw
// by bm.
func shares(aw uint32, am []uint32, bw uint32, bm []uint32) (ab, ba float64) {
	if aw == 0 || bw == 0 {
		return 0, 0
	}
	t := min(limitOf(aw, am), limitOf(bw, bm)) // every element of a page at or below it is in its sketch
	union, both := 0, 0
	i, j := 0, 0
	for {
		var x, y uint64 = 1 << 33, 1 << 33
		if i < len(am) {
			x = uint64(am[i])
		}
		if j < len(bm) {
			y = uint64(bm[j])
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
	inter := jac / (1 + jac) * float64(aw+bw)
	return min(1, inter/float64(aw)), min(1, inter/float64(bw))
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
