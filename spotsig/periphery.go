package spotsig

import (
	"cmp"
	"math"
	"slices"
)

// The whole text less its shared boilerplate. Verification reads the whole
// text beside the main content (Shares) to tell apart listings whose
// layout took a teaser or a footer for their main content; but a page's
// whole text also holds what the site prints around every page it serves
// on some of them (navigation, a subscription box, a list of recent
// comments), and a capture without it (a print or mobile version, a
// capture of the article alone) shares little of the whole text of the
// same article in full chrome. The real sets' labelling guide reads a page
// as the text it has of its own. So the whole-text sketch leaves out the
// words of shared boilerplate: the blocks, and the lines too short to be
// blocks (a menu item, "Subscribe now!": Line), that the corpus rule
// reports shared and that are the main content of no page
// (dedup.BlockCount.Boilerplate; a post shown on listings beside other
// posts is the main content of its own page, and stays).
// Which blocks are shared is known only once the whole corpus is read, so
// a page carries, until then, a larger sample of its whole text and which
// block each of its periphery words in that sample comes from
// (Periphery); dedup.ResolveBlocks then cuts the sketch down
// (LessShared). Measured on every real set: docs/quality.md, "The whole
// text less shared boilerplate".

// Line is a text block shorter than the minimum of tokens
// (WithMinBlockTokens: a menu item, "Subscribe now!"): it has no
// signatures, so it is no Block, but the shared-boilerplate rule counts it
// too (dedup.CountLine). Hash is its BlockHash, Main
// whether it lies inside the page's main content (any of its
// occurrences).
type Line struct {
	Hash uint64
	Main bool
}

// Periphery is what a page carries from ExtractPayloadBlocks until its
// shared boilerplate is known (LessShared). Its units are the page's
// Blocks followed by its Lines:
//   - Lines, the page's short lines, ascending by Hash and distinct;
//   - Words, for each unit, how many of the page's words outside the main
//     content it holds (nil when none does; 0 for a unit inside it);
//   - Ext, the whole text's next smallest elements after Sketch.WholeMin:
//     as many as LessShared can need, up to WholeWaitSize in all
//     (enough that WholeSketchSize are left whichever units are removed);
//   - Units, for each element of WholeMin followed by Ext, the unit
//     holding the word it comes from when that word lies outside the main
//     content: 0 for none, i+1 for unit i; nil when all are 0.
//
// A page without periphery has Lines only; the zero Periphery is a page
// without short lines, or one whose shared boilerplate is resolved.
type Periphery struct {
	Lines []Line
	Words []uint32
	Ext   []uint32
	Units []uint16
}

// periphery returns the Periphery of the page just scanned and sketched
// (sk, with whole: sketcher.sketch with wait), whose signed blocks are
// blocks (ascending by Hash).
func (e *Extractor) periphery(s *scratch, blocks []Block, sk Sketch, whole []uint32) Periphery {
	var p Periphery
	// The short blocks, distinct by hash: line[i] is the index in p.Lines
	// of s.shorts[i].
	order := s.order[:0]
	for i := range s.shorts {
		order = append(order, int32(i))
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(s.shorts[a].hash, s.shorts[b].hash) })
	line := s.line32[:0]
	for range s.shorts {
		line = append(line, 0)
	}
	s.order, s.line32 = order, line
	for _, i := range order {
		sh := s.shorts[i]
		if n := len(p.Lines); n == 0 || p.Lines[n-1].Hash != sh.hash {
			p.Lines = append(p.Lines, Line{Hash: sh.hash})
		}
		n := len(p.Lines) - 1
		p.Lines[n].Main = p.Lines[n].Main || sh.main
		line[i] = int32(n)
	}
	if sk.WholeWords == 0 {
		return p // no periphery: its lines count as main content
	}
	all := whole // WholeMin, then what Ext can come from
	if len(all) == 0 {
		all = sk.WholeMin
	}
	// unit[b]: the unit of kept block b, its index in blocks plus 1 (0:
	// inside the main content or unsigned; -1: not looked up yet).
	unit := s.unit[:0]
	for range s.blocks {
		unit = append(unit, -1)
	}
	s.unit = unit
	units := s.units[:0]
	for range all {
		units = append(units, 0)
	}
	s.units = units
	// The periphery's words, in text order, against the kept blocks and
	// the short ones, in text order too: the block of a word is the last
	// one starting before its end, up to s.stop (words past the token cap
	// are in none).
	top := uint32(0)
	if len(all) > 0 {
		top = all[len(all)-1]
	}
	b, sh := -1, -1
	for k, end := range s.sk.sideEnd {
		if end > s.stop {
			break
		}
		for b+1 < len(s.blocks) && s.blocks[b+1].start < end {
			b++
		}
		for sh+1 < len(s.shorts) && s.shorts[sh+1].start < end {
			sh++
		}
		u := int32(0)
		switch {
		case b >= 0 && (sh < 0 || s.blocks[b].start > s.shorts[sh].start):
			if s.blocks[b].main {
				continue
			}
			if unit[b] < 0 {
				unit[b] = 0
				h := e.blockHash(s, b)
				if i, ok := slices.BinarySearchFunc(blocks, h, func(x Block, h uint64) int { return cmp.Compare(x.Hash, h) }); ok {
					unit[b] = int32(i) + 1
				}
			}
			u = unit[b]
		case sh >= 0:
			if p.Lines[line[sh]].Main {
				continue // inside the main content here
			}
			u = int32(len(blocks)) + line[sh] + 1
		}
		if u <= 0 || u > math.MaxUint16 {
			continue
		}
		if p.Words == nil {
			p.Words = make([]uint32, len(blocks)+len(p.Lines))
		}
		p.Words[u-1]++
		if el := s.sk.sideEl[k]; el <= top {
			if j, ok := slices.BinarySearch(all, el); ok {
				units[j] = uint16(u)
			}
		}
	}
	// Only the smallest elements up to the WholeSketchSize-th outside every
	// unit can be needed: that many are left whichever units are shared.
	n, free := len(all), 0
	for i, u := range units {
		if u == 0 {
			if free++; free == WholeSketchSize {
				n = i + 1
				break
			}
		}
	}
	if n > len(sk.WholeMin) {
		p.Ext = slices.Clone(all[len(sk.WholeMin):n])
	}
	if slices.ContainsFunc(units[:n], func(u uint16) bool { return u != 0 }) {
		p.Units = slices.Clone(units[:n])
	}
	return p
}

// LessShared returns s with its whole-text sketch (WholeWords, WholeMin)
// that of its whole text less the words of its shared boilerplate: the
// units (blocks, then p.Lines) whose hash boiler reports. Their words
// (p.Words) leave WholeWords, exactly, and their elements (p.Units) leave
// WholeMin and p.Ext, of which the WholeSketchSize smallest others are
// kept. When nothing but the main text is left, the whole text is the main
// text (WholeWords 0). Without shared units, or with a Periphery of
// another page (units out of range), s is returned as it is.
func (s Sketch) LessShared(blocks []Block, p Periphery, boiler func(hash uint64) bool) Sketch {
	if s.WholeWords == 0 || len(p.Words) == 0 || len(p.Words) != len(blocks)+len(p.Lines) ||
		(p.Units != nil && len(p.Units) != len(s.WholeMin)+len(p.Ext)) ||
		slices.ContainsFunc(p.Units, func(u uint16) bool { return int(u) > len(p.Words) }) {
		return s
	}
	all := append(slices.Clip(s.WholeMin), p.Ext...)
	gone := make([]bool, len(p.Words))
	removed := uint32(0)
	for u, n := range p.Words {
		var h uint64
		if u < len(blocks) {
			h = blocks[u].Hash
		} else {
			h = p.Lines[u-len(blocks)].Hash
		}
		if n > 0 && boiler(h) {
			gone[u], removed = true, removed+n
		}
	}
	if removed == 0 || removed > s.WholeWords {
		return s
	}
	keep := make([]uint32, 0, min(len(all), WholeSketchSize))
	for i, e := range all {
		if len(keep) == WholeSketchSize {
			break
		}
		if p.Units != nil && p.Units[i] > 0 && gone[p.Units[i]-1] {
			continue
		}
		keep = append(keep, e)
	}
	if words := s.WholeWords - removed; words > s.Words && len(keep) > 0 {
		s.WholeWords, s.WholeMin = words, keep
		return s
	}
	s.WholeWords, s.WholeMin = 0, nil
	return s
}
