package transforms

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// What travels through the Beam graph: documents (Doc) in batches (Batch)
// and, for matching, what matching needs of them (PartDoc) in parts (Part),
// with their coders, and the domain's records under the names the graph
// uses (Candidate, Reject, PairRecord).

func init() {
	beam.RegisterCoder(reflect.TypeOf((*Doc)(nil)).Elem(), EncodeDoc, DecodeDoc)
	beam.RegisterCoder(reflect.TypeOf((*Batch)(nil)).Elem(), EncodeBatch, DecodeBatch)
	beam.RegisterCoder(reflect.TypeOf((*Part)(nil)).Elem(), EncodePart, DecodePart)
	beam.RegisterType(reflect.TypeOf((*Reject)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*PairRecord)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Candidate)(nil)).Elem())
}

// Doc is a document (dedup.Doc: its page, site, exact-copy group,
// signatures and language) on its way through the Beam graph, with two
// fields that belong to the graph, not to the domain: Batch is the ID of
// the Batch it travels in from Extract on, and Guest is set on the copy of
// a document that KeyByGroup sends to a neighbouring partition as a guest
// (§4.2; dedup.Run matches partitions without copies), false everywhere
// else.
type Doc struct {
	dedup.Doc
	Batch string
	Guest bool
}

// Batch is up to maxBatchDocs documents, or maxBatchBytes of them, made in
// one bundle, moved and joined together: a crawl is mostly pages nothing
// else refers to, and every stage that can works on a batch at once, so the
// runner handles one element per batch rather than per page. ID is the
// warc.Ref.ID of its first document, unique in the job.
type Batch struct {
	ID   string
	Docs []Doc
}

// Batch limits: a batch holds at most maxBatchDocs documents and is closed
// once its encoded size passes maxBatchBytes, well below the 10 MB a
// shuffled element may have on Flink.
const (
	maxBatchDocs  = 1000
	maxBatchBytes = 4 << 20
)

// docCoderVersion is the first byte of every encoded Doc and Batch, so a
// worker of another build fails loudly instead of misreading the bytes.
const docCoderVersion = 8

// EncodeDoc is Doc's Beam coder: a version byte, then the document
// (appendDoc).
func EncodeDoc(d Doc) []byte {
	return appendDoc(append(make([]byte, 0, 64+len(d.RecordID)+len(d.URI)+len(d.File)+12*len(d.Vec.Hashes)), docCoderVersion), d)
}

// appendDoc appends d: its page (appendPage), Batch as uvarint length +
// bytes, Guest as one byte, Site as 8 bytes little-endian, Group (Size as a
// uvarint, then one byte 1 and Best's page, or 0), the vector (the number
// of distinct signatures n as a uvarint, the n ascending hashes as uvarint
// deltas from the previous hash (the first from 0), and the n frequencies
// as uvarints), then the number of blocks as a uvarint and per block its
// hash (8 bytes, little-endian), Main as one byte, Prev and Next (8 bytes
// each), Lang as uvarint length + bytes and its vector, then the main-text
// sketch (appendSketch), and last the document's Lang as uvarint length +
// bytes. A vector of n
// signatures thus costs at most 10n + 5n bytes, in practice about 10 (8–9
// for a random 64-bit hash delta, 1 for the frequency).
func appendDoc(buf []byte, d Doc) []byte {
	buf = appendPage(buf, d.Page)
	buf = appendString(buf, d.Batch)
	buf = appendBool(buf, d.Guest)
	buf = binary.LittleEndian.AppendUint64(buf, uint64(d.Site))
	buf = binary.AppendUvarint(buf, uint64(d.Group.Size))
	buf = appendBool(buf, d.Group.Best != nil)
	if d.Group.Best != nil {
		buf = appendPage(buf, *d.Group.Best)
	}
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
	return appendString(buf, d.Lang)
}

// appendSketch appends a main-text sketch: Words as a uvarint, the number
// of hashes n as a uvarint and the n hashes, 4 bytes little-endian each.
func appendSketch(buf []byte, s spotsig.Sketch) []byte {
	buf = binary.AppendUvarint(buf, uint64(s.Words))
	buf = binary.AppendUvarint(buf, uint64(len(s.Min)))
	for _, h := range s.Min {
		buf = binary.LittleEndian.AppendUint32(buf, h)
	}
	return buf
}

// sketch reads a sketch written by appendSketch.
func (r *decoder) sketch() spotsig.Sketch {
	var s spotsig.Sketch
	w := r.uvarint()
	n := r.uvarint()
	if r.err == nil && (w > 1<<32-1 || n > uint64(spotsig.SketchSize) || n > w || n > uint64(len(r.b))/4) {
		r.err = errShortDoc
	}
	if r.err != nil {
		return s
	}
	s.Words = uint32(w)
	if n > 0 {
		s.Min = make([]uint32, n)
		for i := range s.Min {
			s.Min[i] = binary.LittleEndian.Uint32(r.b)
			r.b = r.b[4:]
		}
	}
	return s
}

// appendPage appends a page: RecordID, URI, File as uvarint length +
// bytes, Offset and Inner as zig-zag varints, Rank and Digest as strings,
// Capped as a count and strings, and Date as a string.
func appendPage(buf []byte, p Page) []byte {
	buf = appendString(buf, p.RecordID)
	buf = appendString(buf, p.URI)
	buf = appendString(buf, p.File)
	buf = binary.AppendVarint(buf, p.Offset)
	buf = binary.AppendVarint(buf, p.Inner)
	buf = appendString(buf, p.Rank)
	buf = appendString(buf, p.Digest)
	buf = binary.AppendUvarint(buf, uint64(len(p.Capped)))
	for _, c := range p.Capped {
		buf = appendString(buf, c)
	}
	return appendString(buf, p.Date)
}

func appendBool(buf []byte, b bool) []byte {
	if b {
		return append(buf, 1)
	}
	return append(buf, 0)
}

// EncodeBatch is Batch's Beam coder: a version byte, ID as uvarint length +
// bytes, the number of documents as a uvarint, and each document
// (appendDoc).
func EncodeBatch(b Batch) []byte {
	buf := append(make([]byte, 0, 1024), docCoderVersion)
	buf = appendString(buf, b.ID)
	buf = binary.AppendUvarint(buf, uint64(len(b.Docs)))
	for _, d := range b.Docs {
		buf = appendDoc(buf, d)
	}
	return buf
}

// DecodeBatch decodes the bytes written by EncodeBatch, with DecodeDoc's
// checks.
func DecodeBatch(b []byte) (Batch, error) {
	var out Batch
	if len(b) == 0 || b[0] != docCoderVersion {
		return out, fmt.Errorf("transforms: Batch encoding version %v, want %d", head(b), docCoderVersion)
	}
	r := decoder{b: b[1:]}
	out.ID = r.string()
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b))/16 { // every document needs >= 16 bytes
		r.err = errShortDoc
	}
	if r.err == nil && n > 0 {
		out.Docs = make([]Doc, n)
		for i := range out.Docs {
			out.Docs[i] = r.doc()
			if r.err != nil {
				break
			}
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("transforms: %d trailing bytes after Batch", len(r.b))
	}
	if r.err != nil {
		return Batch{}, r.err
	}
	return out, nil
}

// PartDoc is what matching needs of a document (KeyByGroup to
// MatchGroups): its identity, site, vector, batch ID and guest flag. A
// hot partition's documents are sent to many tasks (matchTasks), so
// matching carries this, about a third of a Doc in memory, and the page's
// other fields (rank, digest, date, exact-copy group, language) stay
// behind.
type PartDoc struct {
	warc.Ref
	Site   match.Site
	Vec    spotsig.Vector
	Sketch spotsig.Sketch
	Batch  string
	Guest  bool
}

// partDoc is d as matching needs it.
func partDoc(d Doc) PartDoc {
	return PartDoc{Ref: d.Ref, Site: d.Site, Vec: d.Vec, Sketch: d.Sketch, Batch: d.Batch, Guest: d.Guest}
}

// Part is a group's or a task's share of documents (KeyByGroup), at most
// maxBatchDocs or about maxBatchBytes.
type Part struct {
	Docs []PartDoc
}

// EncodePart is Part's Beam coder: a version byte, the number of documents
// as a uvarint, and per document its RecordID, URI and File (uvarint length
// + bytes), Offset and Inner (zig-zag varints), Site (8 bytes
// little-endian), the vector and the sketch (as in appendDoc), Batch
// (uvarint length + bytes) and Guest (one byte).
func EncodePart(p Part) []byte {
	buf := append(make([]byte, 0, 1024), docCoderVersion)
	buf = binary.AppendUvarint(buf, uint64(len(p.Docs)))
	for _, d := range p.Docs {
		buf = appendString(buf, d.RecordID)
		buf = appendString(buf, d.URI)
		buf = appendString(buf, d.File)
		buf = binary.AppendVarint(buf, d.Offset)
		buf = binary.AppendVarint(buf, d.Inner)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(d.Site))
		buf = appendVector(buf, d.Vec)
		buf = appendSketch(buf, d.Sketch)
		buf = appendString(buf, d.Batch)
		buf = appendBool(buf, d.Guest)
	}
	return buf
}

// DecodePart decodes the bytes written by EncodePart, with DecodeDoc's
// checks.
func DecodePart(b []byte) (Part, error) {
	var out Part
	if len(b) == 0 || b[0] != docCoderVersion {
		return out, fmt.Errorf("transforms: Part encoding version %v, want %d", head(b), docCoderVersion)
	}
	r := decoder{b: b[1:]}
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b))/16 { // every document needs >= 16 bytes
		r.err = errShortDoc
	}
	if r.err == nil && n > 0 {
		out.Docs = make([]PartDoc, n)
		for i := range out.Docs {
			d := &out.Docs[i]
			d.RecordID, d.URI, d.File = r.string(), r.string(), r.string()
			d.Offset, d.Inner = r.varint(), r.varint()
			d.Site = match.Site(r.uint64())
			d.Vec = r.vector()
			d.Sketch = r.sketch()
			d.Batch = r.string()
			d.Guest = r.bool()
			if r.err != nil {
				break
			}
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("transforms: %d trailing bytes after Part", len(r.b))
	}
	if r.err != nil {
		return Part{}, r.err
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
)

// DecodeDoc decodes the bytes written by EncodeDoc. It returns an error on a
// wrong version byte, truncated input, trailing bytes, a non-minimal varint
// (so every Doc has exactly one encoding), a flag byte other than 0 or 1,
// hashes that are not strictly ascending or a frequency of 0 or above
// 2^32-1; it never allocates more than the input can describe.
func DecodeDoc(b []byte) (Doc, error) {
	if len(b) == 0 || b[0] != docCoderVersion {
		return Doc{}, fmt.Errorf("transforms: Doc encoding version %v, want %d", head(b), docCoderVersion)
	}
	r := decoder{b: b[1:]}
	d := r.doc()
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("transforms: %d trailing bytes after Doc", len(r.b))
	}
	if r.err != nil {
		return Doc{}, r.err
	}
	return d, nil
}

// doc reads a document written by appendDoc.
func (r *decoder) doc() Doc {
	var d Doc
	d.Page = r.page()
	d.Batch = r.string()
	d.Guest = r.bool()
	d.Site = match.Site(r.uint64())
	d.Group.Size = int(r.uvarint())
	if r.bool() {
		best := r.page()
		d.Group.Best = &best
	}
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
			d.Blocks[i].Lang = r.string()
			d.Blocks[i].Vec = r.vector()
			if r.err != nil {
				break
			}
		}
	}
	d.Sketch = r.sketch()
	d.Lang = r.string()
	return d
}

// page reads a page written by appendPage.
func (r *decoder) page() Page {
	var p Page
	p.RecordID = r.string()
	p.URI = r.string()
	p.File = r.string()
	p.Offset = r.varint()
	p.Inner = r.varint()
	p.Rank = r.string()
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
// refusing a truncated or overlong one so every Doc has one encoding.
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

func (r *decoder) string() string {
	n := r.uvarint()
	if r.err != nil {
		return ""
	}
	if n > uint64(len(r.b)) {
		r.err = errShortDoc
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// Candidate is a WARC record that may be a document (dedup.Candidate). It
// lives only between ReadWARC and Extract, which Beam fuses, so payloads are
// not shuffled.
type Candidate = dedup.Candidate

// Reject is one line of rejects-*.jsonl (output.Reject).
type Reject = output.Reject

// PairRecord is one line of pairs-*.jsonl (output.PairRecord).
type PairRecord = output.PairRecord
