package spotsig

import "bytes"

// Main content and periphery. Text a page shares with many
// unrelated pages without any markup cue (a plain cookie paragraph, a
// licence footer, a banner a replay system injects before </body>) cannot
// be told from a syndicated article by corpus counts alone: both are
// repeated on many pages of many sites. What differs is where they sit on
// the page: a syndicated article is the page's main content, the repeated
// notice is beside it. HTMLToText therefore finds the main content the
// way readability does (Arc90's readability.js, grabArticle): every line
// of text of at least minScoreWords words credits its words to the element
// that directly contains it and half of them to that element's parent;
// the element with the highest score holds the main content (ties go to
// the outer element), together with its siblings that score at least
// siblingShare of it. Words inside links (<a>) credit nothing: readability
// scales each candidate's score by 1 − its link density, so that a river of
// linked headlines and teasers, often longer than the article beside it,
// does not win over the article. The lines outside it are the page's periphery.
// Extractor.ExtractPayloadBlocks returns the spot signatures of each
// peripheral block apart, with a hash of the block's words, so that the
// job can drop a peripheral block only if the same block is peripheral on
// other pages too (a corpus statistic, computed by the job: dedup and
// transforms). A peripheral block that is not repeated keeps its
// signatures, so a wrong main-content guess costs nothing on its own.
//
// Containers are the elements whose end tag is never implied (div,
// section, article, …; not p, li or td, whose end tags pages omit), so the
// streaming tokenizer can keep an exact stack of them: an end tag closes
// the innermost open container of its name and every container opened
// inside it; an end tag without an open container of that name is ignored.

// minScoreWords is the shortest line, in words, that counts towards an
// element's main-content score (readability counts paragraphs of at least
// 25 characters; link lists and menus are many short lines).
const minScoreWords = 10

// siblingShare is readability's sibling score threshold (0.2 of the top
// container's score).
const siblingShare = 0.2

// maxLayoutDepth bounds the open containers tracked and maxLayoutElems the
// containers recorded, so hostile nesting costs O(1) per tag: deeper or
// later containers are not opened, their text belongs to the innermost
// open one.
const (
	maxLayoutDepth = 256
	maxLayoutElems = 1 << 16
)

// layoutContainers are the elements tracked.
var layoutContainers = map[string]bool{
	"body": true, "div": true, "section": true, "article": true, "main": true, "blockquote": true,
	"form": true, "header": true, "table": true, "ul": true, "ol": true, "dl": true, "center": true,
	"figure": true, "details": true, "fieldset": true,
}

// span is a byte range [start, end) of the text.
type span struct{ start, end int }

// segment is text directly inside one container.
type segment struct {
	span
	elem int32
}

// layout records, while HTMLToText writes the text, which container each
// piece of text sits in. Element 0 is the document itself.
type layout struct {
	parent   []int32 // parent[e]: the container e was opened in (-1 for the document)
	open     []openContainer
	segs     []segment
	segStart int
	links    []span // text inside <a> elements, ascending and disjoint
	linkAt   int    // start of the open <a> element's text (-1: none open)
}

type openContainer struct {
	name string
	elem int32
}

func (l *layout) reset() {
	l.parent = append(l.parent[:0], -1)
	l.open, l.segs, l.segStart = l.open[:0], l.segs[:0], 0
	l.links, l.linkAt = l.links[:0], -1
}

// link opens (open) or closes an <a> element at text offset at. Links do
// not nest in HTML: an <a> opened inside another closes it first.
func (l *layout) link(open bool, at int) {
	if l.linkAt >= 0 && at > l.linkAt {
		l.links = append(l.links, span{l.linkAt, at})
	}
	l.linkAt = -1
	if open {
		l.linkAt = at
	}
}

// top is the innermost open container (0: the document).
func (l *layout) top() int32 {
	if len(l.open) == 0 {
		return 0
	}
	return l.open[len(l.open)-1].elem
}

// flush ends the current segment at offset end of the text.
func (l *layout) flush(end int) {
	if end > l.segStart {
		l.segs = append(l.segs, segment{span{l.segStart, end}, l.top()})
	}
	l.segStart = end
}

// push opens a container named name at text offset at.
func (l *layout) push(name []byte, at int) {
	if len(l.open) >= maxLayoutDepth || len(l.parent) >= maxLayoutElems {
		return
	}
	l.flush(at)
	l.parent = append(l.parent, l.top())
	l.open = append(l.open, openContainer{name: string(name), elem: int32(len(l.parent) - 1)})
}

// pop closes the innermost open container named name, and every container
// opened inside it, at text offset at.
func (l *layout) pop(name []byte, at int) {
	for i := len(l.open) - 1; i >= 0; i-- {
		if l.open[i].name == string(name) {
			l.flush(at)
			l.open = l.open[:i]
			return
		}
	}
}

// cut forgets the text from offset at on (a boilerplate region dropped).
func (l *layout) cut(at int) {
	for len(l.segs) > 0 && l.segs[len(l.segs)-1].start >= at {
		l.segs = l.segs[:len(l.segs)-1]
	}
	if n := len(l.segs); n > 0 && l.segs[n-1].end > at {
		l.segs[n-1].end = at
	}
	l.segStart = min(l.segStart, at)
	for len(l.links) > 0 && l.links[len(l.links)-1].start >= at {
		l.links = l.links[:len(l.links)-1]
	}
	if n := len(l.links); n > 0 && l.links[n-1].end > at {
		l.links[n-1].end = at
	}
	l.linkAt = min(l.linkAt, at)
}

// periphery returns the spans of text outside the main content, ascending
// and disjoint; nil when the page has no scored line or its main content
// is the whole document. text is the text the segments index.
func (l *layout) periphery(text []byte) []span {
	l.flush(len(text))
	l.link(false, len(text))
	score := make([]float64, len(l.parent))
	links := l.links
	for _, s := range l.segs {
		w := float64(longLineWords(text, s.span, &links))
		if w == 0 {
			continue
		}
		score[s.elem] += w
		if p := l.parent[s.elem]; p >= 0 {
			score[p] += w / 2
		}
	}
	main := int32(0)
	for e := range score {
		if score[e] > score[main] {
			main = int32(e)
		}
	}
	if main == 0 {
		return nil
	}
	// Readability's sibling rule: a sibling of the top container scoring at
	// least siblingShare of its score holds main content too (an article
	// split into several containers).
	top := make([]bool, len(l.parent))
	top[main] = true
	for e := range score {
		if l.parent[e] == l.parent[main] && score[e] >= siblingShare*score[main] {
			top[e] = true
		}
	}
	// inMain[e]: 1 inside the main content, 2 outside, 0 not yet known.
	// Parents have lower indices than their children, so each walk up
	// ends at the document (-1 above it) or at a known element.
	inMain := make([]int8, len(l.parent))
	var path []int32
	within := func(e int32) bool {
		path = path[:0]
		in := false
		for {
			if e >= 0 && top[e] {
				in = true
				break
			}
			if e < 0 || inMain[e] != 0 {
				in = e >= 0 && inMain[e] == 1
				break
			}
			path = append(path, e)
			e = l.parent[e]
		}
		mark := int8(2)
		if in {
			mark = 1
		}
		for _, p := range path {
			inMain[p] = mark
		}
		return in
	}
	var out []span
	for _, s := range l.segs {
		if within(s.elem) {
			continue
		}
		if n := len(out); n > 0 && out[n-1].end == s.start {
			out[n-1].end = s.end
			continue
		}
		out = append(out, s.span)
	}
	return out
}

// longLineWords counts the words of the lines of text[s.start:s.end] that
// have at least minScoreWords words, less their words inside links.
// links are the layout's link spans not yet passed (ascending); the
// segments' spans come ascending too, so each link is passed once.
func longLineWords(text []byte, s span, links *[]span) int {
	total := 0
	for at := s.start; at < s.end; {
		end := s.end
		if i := bytes.IndexByte(text[at:s.end], '\n'); i >= 0 {
			end = at + i
		}
		if n := countWords(text[at:end], 1<<30); n >= minScoreWords {
			for len(*links) > 0 && (*links)[0].end <= at {
				*links = (*links)[1:]
			}
			for _, k := range *links {
				if k.start >= end {
					break
				}
				n -= countWords(text[max(k.start, at):min(k.end, end)], 1<<30)
			}
			total += max(n, 0)
		}
		at = end + 1
	}
	return total
}
