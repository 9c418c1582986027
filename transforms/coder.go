package transforms

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/internal/hashx"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// The hand-written binary coder of the documents that cross every shuffle up
// to matching (doc, docBatch, docPart): varints and deltas, one encoding
// per value, and a decoder that refuses anything else without allocating
// more than its input can describe.

func init() {
	beam.RegisterCoder(reflect.TypeOf((*doc)(nil)).Elem(), encodeDoc, decodeDoc)
	beam.RegisterCoder(reflect.TypeOf((*docBatch)(nil)).Elem(), encodeBatch, decodeBatch)
	beam.RegisterCoder(reflect.TypeOf((*docPart)(nil)).Elem(), encodePart, decodePart)
}

// docCoderVersion is the first byte of every encoded doc, docBatch and
// docPart, and of the shared-block stage's parts (appendBlockPart), so a
// worker of another build fails loudly instead of misreading the bytes.
const docCoderVersion = 15

// encodeDoc is doc's Beam coder: a version byte, then the document
// (appendDoc).
func encodeDoc(d doc) []byte {
	return appendDoc(append(make([]byte, 0, 64+len(d.RecordID)+len(d.URI)+len(d.File)+12*len(d.Vec.Hashes)), docCoderVersion), d)
}

// appendDoc appends d: its page (appendPage), Batch as uvarint length +
// bytes, Guest and SharedText as one byte each, Site (appendSite), Group (Size as a
// uvarint, then one byte 1 and Best's page, or 0), the vector (the number
// of distinct signatures n as a uvarint, the n ascending hashes as uvarint
// deltas from the previous hash (the first from 0), and the n frequencies
// as uvarints), then the number of blocks as a uvarint and per block its
// hash (8 bytes, little-endian), Main as one byte, Prev and Next (8 bytes
// each), Lang as uvarint length + bytes and its vector, then the text
// sketches (appendSketch), the periphery (appendPeriphery), and last the
// document's Lang as uvarint length + bytes. A vector of n
// signatures thus costs at most 10n + 5n bytes, in practice about 10 (8–9
// for a random 64-bit hash delta, 1 for the frequency).
func appendDoc(buf []byte, d doc) []byte {
	buf = appendPage(buf, d.Page)
	buf = appendString(buf, d.Batch)
	buf = appendBool(buf, d.Guest)
	buf = appendBool(buf, d.SharedText)
	buf = appendSite(buf, d.Site)
	buf = appendGroup(buf, d.Group)
	buf = appendVector(buf, d.Vec)
	buf = binary.AppendUvarint(buf, uint64(len(d.Blocks)))
	for _, b := range d.Blocks {
		buf = binary.LittleEndian.AppendUint64(buf, b.Hash)
		buf = appendBool(buf, b.Main)
		buf = binary.LittleEndian.AppendUint64(buf, b.Prev)
		buf = binary.LittleEndian.AppendUint64(buf, b.Next)
		buf = appendString(buf, b.Lang)
		buf = appendVector(buf, b.Vec)
	}
	buf = appendSketch(buf, d.Sketch)
	buf = appendPeriphery(buf, d.Periphery)
	return appendString(buf, d.Lang)
}

// appendPeriphery appends a document's spotsig.Periphery: the number of
// lines as a uvarint and per line its hash (8 bytes, little-endian) and
// Main (one byte); the
// number of word counts (0, or one per block and line) and each as a
// uvarint; the number of Ext hashes as a uvarint and each, 4 bytes
// little-endian; the number of Units (0, or as many as the whole-text
// sketch and Ext hold together) as a uvarint and each as a uvarint.
func appendPeriphery(buf []byte, p spotsig.Periphery) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(p.Lines)))
	for _, l := range p.Lines {
		buf = appendBool(binary.LittleEndian.AppendUint64(buf, l.Hash), l.Main)
	}
	buf = binary.AppendUvarint(buf, uint64(len(p.Words)))
	for _, n := range p.Words {
		buf = binary.AppendUvarint(buf, uint64(n))
	}
	buf = binary.AppendUvarint(buf, uint64(len(p.Ext)))
	for _, h := range p.Ext {
		buf = binary.LittleEndian.AppendUint32(buf, h)
	}
	buf = binary.AppendUvarint(buf, uint64(len(p.Units)))
	for _, u := range p.Units {
		buf = binary.AppendUvarint(buf, uint64(u))
	}
	return buf
}

// periphery reads a Periphery written by appendPeriphery for a document
// of blocks blocks and whole-text sketch s. Lines not strictly ascending,
// word counts of another length or beyond the whole text's words, Ext
// hashes not strictly ascending after s's whole-text hashes or more than
// spotsig.WholeWaitSize of them in all, and Units of another length or
// past the blocks and lines are errors (errPeriphery).
func (r *decoder) periphery(s spotsig.Sketch, blocks int) spotsig.Periphery {
	var p spotsig.Periphery
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b))/9 { // every line needs 9 bytes
		r.err = errShortDoc
	}
	if r.err == nil && n > 0 {
		p.Lines = make([]spotsig.Line, n)
		for i := range p.Lines {
			p.Lines[i] = spotsig.Line{Hash: r.uint64(), Main: r.bool()}
			if r.err == nil && i > 0 && p.Lines[i].Hash <= p.Lines[i-1].Hash {
				r.err = errPeriphery
			}
			if r.err != nil {
				return spotsig.Periphery{}
			}
		}
	}
	n = r.uvarint()
	if r.err == nil && n != 0 && (n != uint64(blocks+len(p.Lines)) || n > uint64(len(r.b))) {
		r.err = errPeriphery
	}
	if r.err == nil && n > 0 {
		p.Words = make([]uint32, n)
		sum := uint64(0)
		for i := range p.Words {
			w := r.uvarint()
			if sum += w; r.err == nil && sum > uint64(s.WholeWords) {
				r.err = errPeriphery
			}
			if r.err != nil {
				return spotsig.Periphery{}
			}
			p.Words[i] = uint32(w)
		}
	}
	whole := s.Whole().Min
	n = r.uvarint()
	if r.err == nil && (n > uint64(len(r.b))/4 || int(n)+len(whole) > spotsig.WholeWaitSize) {
		r.err = errPeriphery
	}
	if r.err == nil && n > 0 {
		p.Ext = make([]uint32, n)
		for i := range p.Ext {
			p.Ext[i] = binary.LittleEndian.Uint32(r.b)
			r.b = r.b[4:]
		}
		if !ascending(p.Ext) || (len(whole) > 0 && p.Ext[0] <= whole[len(whole)-1]) {
			r.err = errPeriphery
		}
	}
	n = r.uvarint()
	if r.err == nil && n != 0 && (n != uint64(len(whole)+len(p.Ext)) || n > uint64(len(r.b))) {
		r.err = errPeriphery
	}
	if r.err == nil && n > 0 {
		p.Units = make([]uint16, n)
		for i := range p.Units {
			u := r.uvarint()
			if r.err == nil && (u > uint64(len(p.Words)) || u > 1<<16-1) {
				r.err = errPeriphery
			}
			if r.err != nil {
				return spotsig.Periphery{}
			}
			p.Units[i] = uint16(u)
		}
	}
	if r.err != nil {
		return spotsig.Periphery{}
	}
	return p
}

// appendGroup appends a Group: Size as a uvarint, then one byte 1 and
// Best's page, or 0.
func appendGroup(buf []byte, g dedup.Group) []byte {
	buf = binary.AppendUvarint(buf, uint64(g.Size))
	buf = appendBool(buf, g.Best != nil)
	if g.Best != nil {
		buf = appendPage(buf, *g.Best)
	}
	return buf
}

// group reads a Group written by appendGroup.
func (r *decoder) group() dedup.Group {
	g := dedup.Group{Size: int(r.uvarint())}
	if r.bool() {
		best := r.page()
		g.Best = &best
	}
	return g
}

// appendNodes appends what Decide needs of a batch of representatives
// (packNodesFn): a version byte, the number of documents as a uvarint,
// and per document its page (appendPage) and Group (appendGroup).
func appendNodes(buf []byte, b docBatch) []byte {
	buf = append(buf, docCoderVersion)
	buf = binary.AppendUvarint(buf, uint64(len(b.Docs)))
	for _, d := range b.Docs {
		buf = appendPage(buf, d.Page)
		buf = appendGroup(buf, d.Group)
	}
	return buf
}

// decodeNodes decodes the bytes written by appendNodes into documents
// with their Page and Group set, with decodeDoc's checks.
func decodeNodes(b []byte) ([]dedup.Doc, error) {
	r, err := start(b, "Nodes")
	if err != nil {
		return nil, err
	}
	n := r.count(8) // every document needs >= 8 bytes
	var out []dedup.Doc
	if n > 0 {
		out = make([]dedup.Doc, n)
		for i := range out {
			out[i].Page = r.page()
			out[i].Group = r.group()
			if r.err != nil {
				break
			}
		}
	}
	if err := r.end("Nodes"); err != nil {
		return nil, err
	}
	return out, nil
}

// start starts decoding b, an encoding of what: it checks the version
// byte and returns a decoder past it.
func start(b []byte, what string) (*decoder, error) {
	if len(b) == 0 || b[0] != docCoderVersion {
		return nil, fmt.Errorf("transforms: %s encoding version %v, want %d", what, head(b), docCoderVersion)
	}
	return &decoder{b: b[1:]}, nil
}

// count reads the number of documents that follow as a uvarint, each at
// least size bytes: more than the rest of the input can hold is an error
// (errShortDoc), so that no decoder allocates more than its input can
// describe. It returns 0 on error.
func (r *decoder) count(size uint64) int {
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b))/size {
		r.err = errShortDoc
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

// end returns r's first error, or an error when bytes are left after the
// end of what.
func (r *decoder) end(what string) error {
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("transforms: %d trailing bytes after %s", len(r.b), what)
	}
	return r.err
}

// appendSite appends a Site: its Name and URL, 8 bytes little-endian each.
func appendSite(buf []byte, s match.Site) []byte {
	return binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(buf, s.Name), s.URL)
}

// site reads a Site written by appendSite.
func (r *decoder) site() match.Site {
	n := r.uint64()
	return match.Site{Name: n, URL: r.uint64()}
}

// appendSketch appends a text sketch: its main text (appendHashes), then
// its whole text as the number c of the main text's first hashes that it
// holds (a uvarint) and its words and other hashes (appendHashes). The
// whole text's smallest hashes are the main text's smallest below some
// bound and the periphery's (spotsig.Sketch), so the main text's usually
// are its first c: on the 108,000-page crawl 52 of its 64 hashes, and a
// page's sketches take 560 bytes instead of 768 (TestEncodedSizes).
func appendSketch(buf []byte, s spotsig.Sketch) []byte {
	buf = appendHashes(buf, s.Words, s.Min)
	c := 0 // the longest prefix of Min that WholeMin holds
	for _, h := range s.WholeMin {
		if c == len(s.Min) || h < s.Min[c] {
			continue
		}
		if h > s.Min[c] {
			break
		}
		c++
	}
	buf = binary.AppendUvarint(buf, uint64(c))
	// The rest as appendHashes writes it: Min[:c] are in WholeMin, in order.
	buf = binary.AppendUvarint(buf, uint64(s.WholeWords))
	buf = binary.AppendUvarint(buf, uint64(len(s.WholeMin)-c))
	j := 0
	for _, h := range s.WholeMin {
		if j < c && h == s.Min[j] {
			j++
			continue
		}
		buf = binary.LittleEndian.AppendUint32(buf, h)
	}
	// The host template's marks (spotsig.Sketch.MarkTemplate): a byte 0,
	// or 1, the template's host and the two mask words.
	if s.TemplateHost == 0 {
		return append(buf, 0)
	}
	buf = binary.LittleEndian.AppendUint64(append(buf, 1), s.TemplateHost)
	buf = binary.LittleEndian.AppendUint64(buf, s.Template[0])
	return binary.LittleEndian.AppendUint64(buf, s.Template[1])
}

// appendHashes appends one text's sketch: its words as a uvarint, the
// number of hashes n as a uvarint and the n hashes, 4 bytes little-endian
// each.
func appendHashes(buf []byte, words uint32, hs []uint32) []byte {
	buf = binary.AppendUvarint(buf, uint64(words))
	buf = binary.AppendUvarint(buf, uint64(len(hs)))
	for _, h := range hs {
		buf = binary.LittleEndian.AppendUint32(buf, h)
	}
	return buf
}

// sketch reads a sketch written by appendSketch. Hashes that are not
// strictly ascending, or a whole text whose c is not the longest prefix
// of the main text's hashes it holds, are errors (one encoding per
// sketch).
func (r *decoder) sketch() spotsig.Sketch {
	var s spotsig.Sketch
	s.Words, s.Min = r.hashes()
	c := r.uvarint()
	var rest []uint32
	s.WholeWords, rest = r.hashes()
	if r.err != nil {
		return spotsig.Sketch{}
	}
	if c > uint64(len(s.Min)) || !ascending(s.Min) || !ascending(rest) {
		r.err = errSketch
		return spotsig.Sketch{}
	}
	// Merged: a hash in both parts would come out once, shortening it.
	n := int(c) + len(rest)
	s.WholeMin = hashx.UniteSmallest(s.Min[:c], rest, n)
	longer := false // rest holds Min[c]: c was not the longest prefix
	if int(c) < len(s.Min) {
		_, longer = slices.BinarySearch(rest, s.Min[c])
	}
	if longer || len(s.WholeMin) != n || n > min(spotsig.SketchSize, int(s.WholeWords)) {
		r.err = errSketch
		return spotsig.Sketch{}
	}
	switch r.uvarint() {
	case 0:
	case 1:
		s.TemplateHost = r.uint64()
		s.Template = [2]uint64{r.uint64(), r.uint64()}
		if s.TemplateHost == 0 || !s.MarksValid() {
			r.err = errSketch
		}
	default:
		r.err = errSketch
	}
	if r.err != nil {
		return spotsig.Sketch{}
	}
	return s
}

// ascending reports whether hs is strictly ascending.
func ascending(hs []uint32) bool {
	for i := 1; i < len(hs); i++ {
		if hs[i] <= hs[i-1] {
			return false
		}
	}
	return true
}

// hashes reads one text's sketch written by appendHashes.
func (r *decoder) hashes() (uint32, []uint32) {
	w := r.uvarint()
	n := r.uvarint()
	if r.err == nil && (w > 1<<32-1 || n > uint64(spotsig.SketchSize) || n > w || n > uint64(len(r.b))/4) {
		r.err = errShortDoc
	}
	if r.err != nil || n == 0 {
		return uint32(w), nil
	}
	hs := make([]uint32, n)
	for i := range hs {
		hs[i] = binary.LittleEndian.Uint32(r.b)
		r.b = r.b[4:]
	}
	return uint32(w), hs
}

// appendPage appends a page: RecordID, URI, File as uvarint length +
// bytes, Offset and Inner as zig-zag varints, Rank as a flag byte and a
// string (1: the Rank less its tail, rankTail; 0: the whole Rank, which
// does not end with it), Digest as a string, Capped as a count and
// strings, and Date as a string. The tail is the record ID and location
// again, about 85 of a page's 340 bytes on the 108,000-page crawl.
func appendPage(buf []byte, p dedup.Page) []byte {
	buf = appendString(buf, p.RecordID)
	buf = appendString(buf, p.URI)
	buf = appendString(buf, p.File)
	buf = binary.AppendVarint(buf, p.Offset)
	buf = binary.AppendVarint(buf, p.Inner)
	at := len(buf)
	buf = rankTail(buf, p.Ref) // written where the rank goes, to compare
	tail := len(buf) - at
	elided := len(p.Rank) >= tail && p.Rank[len(p.Rank)-tail:] == string(buf[at:])
	buf = buf[:at]
	if elided {
		buf = appendString(append(buf, 1), p.Rank[:len(p.Rank)-tail])
	} else {
		buf = appendString(append(buf, 0), p.Rank)
	}
	buf = appendString(buf, p.Digest)
	buf = binary.AppendUvarint(buf, uint64(len(p.Capped)))
	for _, c := range p.Capped {
		buf = appendString(buf, c)
	}
	return appendString(buf, p.Date)
}

// rankTail appends what ends the Rank of every page dedup.Sign makes, the
// record ID (match.AppendSized) and the location (warc.Ref.Key) of ref.
func rankTail(b []byte, ref warc.Ref) []byte {
	return ref.AppendKey(match.AppendSized(b, ref.RecordID))
}

func appendBool(buf []byte, b bool) []byte {
	if b {
		return append(buf, 1)
	}
	return append(buf, 0)
}

// encodeBatch is docBatch's Beam coder: a version byte, ID as uvarint length +
// bytes, the number of documents as a uvarint, and each document
// (appendDoc).
func encodeBatch(b docBatch) []byte { return appendBatch(make([]byte, 0, 1024), b) }

// appendBatch appends b as encodeBatch writes it.
func appendBatch(buf []byte, b docBatch) []byte {
	buf = append(buf, docCoderVersion)
	buf = appendString(buf, b.ID)
	buf = binary.AppendUvarint(buf, uint64(len(b.Docs)))
	for _, d := range b.Docs {
		buf = appendDoc(buf, d)
	}
	return buf
}

// decodeBatch decodes the bytes written by encodeBatch, with decodeDoc's
// checks.
func decodeBatch(b []byte) (docBatch, error) {
	var out docBatch
	r, err := start(b, "Batch")
	if err != nil {
		return out, err
	}
	out.ID = r.string()
	if n := r.count(16); n > 0 { // every document needs >= 16 bytes
		out.Docs = make([]doc, n)
		for i := range out.Docs {
			out.Docs[i] = r.doc()
			if r.err != nil {
				break
			}
		}
	}
	if err := r.end("Batch"); err != nil {
		return docBatch{}, err
	}
	return out, nil
}

// encodePart is docPart's Beam coder: a version byte, the number of documents
// as a uvarint, and per document its RecordID, URI and File (uvarint length
// + bytes), Offset and Inner (zig-zag varints), Site (appendSite), the vector and the sketch (as in appendDoc), Batch
// (uvarint length + bytes) and Guest (one byte).
func encodePart(p docPart) []byte {
	buf := append(make([]byte, 0, 1024), docCoderVersion)
	buf = binary.AppendUvarint(buf, uint64(len(p.Docs)))
	for _, d := range p.Docs {
		buf = appendString(buf, d.RecordID)
		buf = appendString(buf, d.URI)
		buf = appendString(buf, d.File)
		buf = binary.AppendVarint(buf, d.Offset)
		buf = binary.AppendVarint(buf, d.Inner)
		buf = appendSite(buf, d.Site)
		buf = appendVector(buf, d.Vec)
		buf = appendSketch(buf, d.Sketch)
		buf = appendString(buf, d.Batch)
		buf = appendBool(buf, d.Guest)
	}
	return buf
}

// decodePart decodes the bytes written by encodePart, with decodeDoc's
// checks.
func decodePart(b []byte) (docPart, error) {
	var out docPart
	r, err := start(b, "Part")
	if err != nil {
		return out, err
	}
	if n := r.count(16); n > 0 { // every document needs >= 16 bytes
		out.Docs = make([]matchDoc, n)
		bodies := make([]matchBody, n)
		for i := range out.Docs {
			d := &out.Docs[i]
			d.matchBody = &bodies[i]
			d.RecordID, d.URI, d.File = r.string(), r.string(), r.repeated(&r.file)
			d.Offset, d.Inner = r.varint(), r.varint()
			d.Site = r.site()
			d.Vec = r.vector()
			d.Sketch = r.sketch()
			d.Batch = r.repeated(&r.batch)
			d.Guest = r.bool()
			if r.err != nil {
				break
			}
		}
	}
	if err := r.end("Part"); err != nil {
		return docPart{}, err
	}
	return out, nil
}

func appendVector(buf []byte, v spotsig.Vector) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(v.Hashes)))
	var prev uint64
	for _, h := range v.Hashes {
		buf = binary.AppendUvarint(buf, h-prev)
		prev = h
	}
	for _, f := range v.Freqs {
		buf = binary.AppendUvarint(buf, uint64(f))
	}
	return buf
}

var (
	errShortDoc   = errors.New("transforms: truncated Doc encoding")
	errNonMinimal = errors.New("transforms: non-minimal varint in Doc encoding")
	errSketch     = errors.New("transforms: sketch hashes not ascending or not in their one encoding")
	errPeriphery  = errors.New("transforms: periphery lines or hashes not ascending, or units out of range")
)

// decodeDoc decodes the bytes written by encodeDoc. It returns an error on a
// wrong version byte, truncated input, trailing bytes, a non-minimal varint
// (so every doc has exactly one encoding), a flag byte other than 0 or 1,
// hashes that are not strictly ascending or a frequency of 0 or above
// 2^32-1, or a sketch out of order or not in its one encoding (sketch);
// it never allocates more than the input can describe.
func decodeDoc(b []byte) (doc, error) {
	r, err := start(b, "Doc")
	if err != nil {
		return doc{}, err
	}
	d := r.doc()
	if err := r.end("Doc"); err != nil {
		return doc{}, err
	}
	return d, nil
}

// doc reads a document written by appendDoc.
func (r *decoder) doc() doc {
	var d doc
	d.Page = r.page()
	d.Batch = r.repeated(&r.batch)
	d.Guest = r.bool()
	d.SharedText = r.bool()
	d.Site = r.site()
	d.Group = r.group()
	d.Vec = r.vector()
	nb := r.uvarint()
	if r.err == nil && nb > uint64(len(r.b))/27 { // every block needs >= 27 bytes
		r.err = errShortDoc
	}
	if r.err == nil && nb > 0 {
		d.Blocks = make([]spotsig.Block, nb)
		for i := range d.Blocks {
			d.Blocks[i].Hash = r.uint64()
			d.Blocks[i].Main = r.bool()
			d.Blocks[i].Prev, d.Blocks[i].Next = r.uint64(), r.uint64()
			d.Blocks[i].Lang = r.repeated(&r.lang)
			d.Blocks[i].Vec = r.vector()
			if r.err != nil {
				break
			}
		}
	}
	d.Sketch = r.sketch()
	d.Periphery = r.periphery(d.Sketch, len(d.Blocks))
	d.Lang = r.repeated(&r.lang)
	return d
}

// page reads a page written by appendPage.
func (r *decoder) page() dedup.Page {
	var p dedup.Page
	p.RecordID = r.string()
	p.URI = r.string()
	p.File = r.repeated(&r.file)
	p.Offset = r.varint()
	p.Inner = r.varint()
	p.Rank = r.rank(p.Ref)
	p.Digest = r.string()
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b)) {
		r.err = errShortDoc
	}
	for i := uint64(0); i < n && r.err == nil; i++ {
		p.Capped = append(p.Capped, r.string())
	}
	p.Date = r.string()
	return p
}

// rank reads a Rank written by appendPage for a page of ref. A whole Rank
// that ends with its tail is an error (errNonMinimal): appendPage would
// have left the tail out.
func (r *decoder) rank(ref warc.Ref) string {
	elided := r.bool()
	b := r.field()
	if r.err != nil {
		return ""
	}
	r.scratch = rankTail(append(r.scratch[:0], b...), ref)
	if elided {
		return string(r.scratch)
	}
	if bytes.HasSuffix(b, r.scratch[len(b):]) {
		r.err = errNonMinimal
		return ""
	}
	return string(b)
}

// bool reads one byte, 0 or 1.
func (r *decoder) bool() bool {
	switch c := r.byte(); c {
	case 0:
		return false
	case 1:
		return true
	default:
		if r.err == nil {
			r.err = fmt.Errorf("transforms: flag byte %d", c)
		}
		return false
	}
}

func head(b []byte) any {
	if len(b) == 0 {
		return "<empty>"
	}
	return b[0]
}

// uint64 reads 8 bytes little-endian.
func (r *decoder) uint64() uint64 {
	if r.err != nil {
		return 0
	}
	if len(r.b) < 8 {
		r.err = errShortDoc
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

// vector reads a vector written by appendVector.
func (r *decoder) vector() spotsig.Vector {
	var v spotsig.Vector
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b))/2 { // every signature needs >= 2 bytes
		r.err = errShortDoc
	}
	if r.err != nil || n == 0 {
		return v
	}
	v.Hashes = make([]uint64, n)
	v.Freqs = make([]uint32, n)
	var prev uint64
	for i := range v.Hashes {
		delta := r.uvarint()
		if i > 0 && (delta == 0 || prev+delta < prev) && r.err == nil {
			r.err = errors.New("transforms: Doc hashes not strictly ascending")
		}
		prev += delta
		v.Hashes[i] = prev
	}
	for i := range v.Freqs {
		f := r.uvarint()
		if (f == 0 || f > 1<<32-1) && r.err == nil {
			r.err = fmt.Errorf("transforms: Doc frequency %d out of range", f)
		}
		v.Freqs[i] = uint32(f)
	}
	return v
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// decoder reads varints from b and remembers the first error.
type decoder struct {
	b   []byte
	err error
	// The last file, batch ID and language read (repeated): the documents
	// of a batch share them.
	file, batch, lang string
	scratch           []byte // rank's
}

func (r *decoder) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if !r.consume(n) {
		return 0
	}
	return v
}

func (r *decoder) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if !r.consume(n) {
		return 0
	}
	return v
}

// consume drops a varint of n bytes (n as binary.Uvarint/Varint return it),
// refusing a truncated or overlong one so every doc has one encoding.
func (r *decoder) consume(n int) bool {
	switch {
	case n <= 0:
		r.err = errShortDoc
	case n > 1 && r.b[n-1] == 0:
		r.err = errNonMinimal
	default:
		r.b = r.b[n:]
		return true
	}
	return false
}

func (r *decoder) byte() byte {
	if r.err != nil {
		return 0
	}
	if len(r.b) == 0 {
		r.err = errShortDoc
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *decoder) string() string { return string(r.field()) }

// field reads a uvarint length and that many bytes, which it returns
// without copying them (nil on error).
func (r *decoder) field() []byte {
	n := r.uvarint()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.err = errShortDoc
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}

// repeated reads a string as string does, but returns *last, without a
// new copy, when it holds the same bytes, and keeps what it returns in
// *last: a field that repeats from one document of a batch to the next
// (its file, its batch ID, its language) then takes one string a batch,
// not one a document.
func (r *decoder) repeated(last *string) string {
	if b := r.field(); string(b) != *last {
		*last = string(b)
	}
	return *last
}
