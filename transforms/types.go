package transforms

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

func init() {
	beam.RegisterCoder(reflect.TypeOf((*Doc)(nil)).Elem(), EncodeDoc, DecodeDoc)
	beam.RegisterType(reflect.TypeOf((*Reject)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*PairRecord)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Candidate)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Posting)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Entry)(nil)).Elem())
}

// Doc is one document on its way through the job: its record's identity
// (warc.Ref) and its multiset of signatures (spotsig.Vector, paper §4.1.2). Guest is set on
// the copy of a document that KeyByGroup sends to a neighbouring partition as
// a guest (§4.2); it is false everywhere else.
//
// Between Extract and DropSharedBlocks, with config.Params.SharedBlockPages
// > 0, Vec is empty and Blocks holds the signatures per text block
// (dedup.Doc); everywhere else Blocks is nil. From CollapseExact on, Site
// is the site of the document's exact-copy group (dedup.Head), for the
// same-site rule of matching (match.SiteRule); before it, match.NoSite.
type Doc struct {
	warc.Ref
	Guest  bool
	Site   match.Site
	Vec    spotsig.Vector
	Blocks []spotsig.Block
}

// docCoderVersion is the first byte of every encoded Doc, so a worker of
// another build fails loudly instead of misreading the bytes.
const docCoderVersion = 5

// EncodeDoc is Doc's Beam coder: a version byte, then RecordID, URI, File as
// uvarint length + bytes, Offset and Inner as zig-zag varints, Guest as one
// byte, Site as 8 bytes little-endian, the vector (the number of distinct signatures n as a uvarint, the n ascending
// hashes as uvarint deltas from the previous hash (the first from 0), and
// the n frequencies as uvarints), then the number of blocks as a uvarint
// and per block its hash (8 bytes, little-endian), Main as one byte, Prev
// and Next (8 bytes each), Lang as uvarint length + bytes and its vector.
// A vector of n signatures thus costs at most 10n + 5n bytes, in
// practice about 10 (8–9 for a random 64-bit hash delta, 1 for the
// frequency).
func EncodeDoc(d Doc) []byte {
	n := len(d.Vec.Hashes)
	buf := make([]byte, 0, 1+3*binary.MaxVarintLen32+len(d.RecordID)+len(d.URI)+len(d.File)+
		2*binary.MaxVarintLen64+1+n*(binary.MaxVarintLen64+2))
	buf = append(buf, docCoderVersion)
	buf = appendString(buf, d.RecordID)
	buf = appendString(buf, d.URI)
	buf = appendString(buf, d.File)
	buf = binary.AppendVarint(buf, d.Offset)
	buf = binary.AppendVarint(buf, d.Inner)
	if d.Guest {
		buf = append(buf, 1)
	} else {
		buf = append(buf, 0)
	}
	buf = binary.LittleEndian.AppendUint64(buf, uint64(d.Site))
	buf = appendVector(buf, d.Vec)
	buf = binary.AppendUvarint(buf, uint64(len(d.Blocks)))
	for _, b := range d.Blocks {
		buf = binary.LittleEndian.AppendUint64(buf, b.Hash)
		if b.Main {
			buf = append(buf, 1)
		} else {
			buf = append(buf, 0)
		}
		buf = binary.LittleEndian.AppendUint64(buf, b.Prev)
		buf = binary.LittleEndian.AppendUint64(buf, b.Next)
		buf = appendString(buf, b.Lang)
		buf = appendVector(buf, b.Vec)
	}
	return buf
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
// (so every Doc has exactly one encoding), hashes that are not
// strictly ascending or a frequency of 0 or above 2^32-1; it never allocates
// more than the input can describe.
func DecodeDoc(b []byte) (Doc, error) {
	var d Doc
	if len(b) == 0 || b[0] != docCoderVersion {
		return d, fmt.Errorf("transforms: Doc encoding version %v, want %d", head(b), docCoderVersion)
	}
	r := decoder{b: b[1:]}
	d.RecordID = r.string()
	d.URI = r.string()
	d.File = r.string()
	d.Offset = r.varint()
	d.Inner = r.varint()
	switch g := r.byte(); g {
	case 0:
	case 1:
		d.Guest = true
	default:
		if r.err == nil {
			r.err = fmt.Errorf("transforms: Doc guest flag %d", g)
		}
	}
	d.Site = match.Site(r.uint64())
	d.Vec = r.vector()
	nb := r.uvarint()
	if r.err == nil && nb > uint64(len(r.b))/27 { // every block needs >= 27 bytes
		r.err = errShortDoc
	}
	if r.err == nil && nb > 0 {
		d.Blocks = make([]spotsig.Block, nb)
		for i := range d.Blocks {
			if len(r.b) < 8 {
				r.err = errShortDoc
				break
			}
			d.Blocks[i].Hash = binary.LittleEndian.Uint64(r.b)
			r.b = r.b[8:]
			switch m := r.byte(); m {
			case 0:
			case 1:
				d.Blocks[i].Main = true
			default:
				if r.err == nil {
					r.err = fmt.Errorf("transforms: Doc block main flag %d", m)
				}
			}
			d.Blocks[i].Prev, d.Blocks[i].Next = r.uint64(), r.uint64()
			d.Blocks[i].Lang = r.string()
			d.Blocks[i].Vec = r.vector()
			if r.err != nil {
				break
			}
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("transforms: %d trailing bytes after Doc", len(r.b))
	}
	if r.err != nil {
		return Doc{}, r.err
	}
	return d, nil
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

// Reject is one line of rejects-*.jsonl (dedup.Reject).
type Reject = dedup.Reject

// Posting is one entry of a signature's inverted list during the IDF join:
// the document (by its fixed-size warc.Ref.ID) and the signature's frequency
// in it.
type Posting struct {
	DocID string
	Freq  uint32
}

// Entry is one (signature hash, frequency) component of a document vector
// while the vector is being rebuilt after the IDF filter.
type Entry struct {
	Hash uint64
	Freq uint32
}

// PairRecord is one line of pairs-*.jsonl (dedup.PairRecord).
type PairRecord = dedup.PairRecord

// NewPairRecord returns the pair of documents x and y with similarity j in
// canonical order (dedup.NewPairRecord).
func NewPairRecord(x, y Doc, j float64) PairRecord {
	return dedup.NewPairRecord(x.Ref, x.Vec, y.Ref, y.Vec, j)
}
