package index

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"

	"github.com/ndd-beam/ndd-beam/dedup"
)

// Reading a segment's rows: column by column through parquet-go's page
// values, not its reflection-based row reader (15× slower on the 60,000
// pages of docs/benchmarks.md "Crawl after crawl"), so that a run against
// an index reads the text digest and vector of every row and builds the
// rest of a row only for the rows it keeps.

// ReadPages reads every page of segment seg (whose meta is m), each named
// by the segment's name, and hands them to fn in file and row order.
// Memory: one Parquet file's bytes (for a local file only its footer)
// and the columns of one row group (RowGroupRows rows).
func ReadPages(ctx context.Context, seg string, m Meta, fn func(dedup.Prior) error) error {
	return ReadPagesWhere(ctx, seg, m, nil, fn)
}

// ReadPagesWhere is ReadPages for the rows want accepts (nil: every row):
// want is called on every row, in order, with a page that holds only its
// text digest, target URI and vector, and must not keep the vector; only
// the rows it accepts are built in full. Errors name the segment and the file; a damaged file is an error,
// never a panic.
func ReadPagesWhere(ctx context.Context, seg string, m Meta, want func(dedup.Prior) bool, fn func(dedup.Prior) error) error {
	var rowWant func(*Row) bool
	if want != nil {
		rowWant = func(r *Row) bool { return want(r.Prior(m.Segment)) }
	}
	for _, f := range m.Files {
		if err := readFileRows(ctx, seg, f, rowWant, func(r *Row) error { return fn(r.Prior(m.Segment)) }); err != nil {
			return err
		}
	}
	return nil
}

func readFileRows(ctx context.Context, seg, f string, want func(*Row) bool, fn func(*Row) error) (err error) {
	pf, closeFile, err := openParquet(ctx, Join(seg, f))
	if err != nil {
		return fmt.Errorf("index segment %s: %s is not a whole Parquet file (%v)", seg, f, err)
	}
	defer closeFile()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("index segment %s: %s: %v", seg, f, r)
		}
	}()
	cols, err := rowColumns(pf.Schema())
	if err != nil {
		return fmt.Errorf("index segment %s: %s: %v", seg, f, err)
	}
	var rg rowGroupReader
	for _, g := range pf.RowGroups() {
		if err := rg.read(g, cols, want, fn); err != nil {
			return fmt.Errorf("index segment %s: %s: %v", seg, f, err)
		}
	}
	return nil
}

// column is one leaf column of Row: its index in the file and how a value
// sets it (set), or how a row's list elements set it (list, once per row
// with its elements, numbers only); a null, an empty list, sets nothing.
type column struct {
	index  int
	maxDef int // the leaf's maximum definition level: a list element's level
	set    func(r *Row, v parquet.Value)
	list   func(r *Row, vs []uint64)
}

// rowColumnSetters are Row's leaf columns (its parquet tags) and their
// setters; text_digest, uri, hashes and freqs are read first, for want.
var rowColumnSetters = []struct {
	path []string
	set  func(r *Row, v parquet.Value)
	list func(r *Row, vs []uint64)
}{
	{[]string{"text_digest"}, func(r *Row, v parquet.Value) { r.TextDigest = string(v.ByteArray()) }, nil},
	{[]string{"uri"}, func(r *Row, v parquet.Value) { r.URI = string(v.ByteArray()) }, nil},
	{[]string{"hashes", "list", "element"}, nil, func(r *Row, vs []uint64) { r.Hashes = slices.Clone(vs) }},
	{[]string{"freqs", "list", "element"}, nil, func(r *Row, vs []uint64) { r.Freqs = uint32s(vs) }},
	{[]string{"record_id"}, func(r *Row, v parquet.Value) { r.RecordID = string(v.ByteArray()) }, nil},
	{[]string{"warc_file"}, func(r *Row, v parquet.Value) { r.File = string(v.ByteArray()) }, nil},
	{[]string{"offset"}, func(r *Row, v parquet.Value) { r.Offset = v.Int64() }, nil},
	{[]string{"inner_offset"}, func(r *Row, v parquet.Value) { r.Inner = v.Int64() }, nil},
	{[]string{"warc_date"}, func(r *Row, v parquet.Value) { r.Date = string(v.ByteArray()) }, nil},
	{[]string{"lang"}, func(r *Row, v parquet.Value) { r.Lang = string(v.ByteArray()) }, nil},
	{[]string{"length"}, func(r *Row, v parquet.Value) { r.Length = v.Int64() }, nil},
	{[]string{"rank"}, func(r *Row, v parquet.Value) { r.Rank = append([]byte{}, v.ByteArray()...) }, nil},
	{[]string{"sketch_words"}, func(r *Row, v parquet.Value) { r.SketchWords = v.Int64() }, nil},
	{[]string{"sketch", "list", "element"}, nil, func(r *Row, vs []uint64) { r.Sketch = uint32s(vs) }},
	{[]string{"segment"}, func(r *Row, v parquet.Value) { r.Segment = string(v.ByteArray()) }, nil},
	{[]string{"whole_words"}, func(r *Row, v parquet.Value) { r.WholeWords = v.Int64() }, nil},
	{[]string{"whole_sketch", "list", "element"}, nil, func(r *Row, vs []uint64) { r.Whole = uint32s(vs) }},
}

// wantColumns are the first columns of rowColumnSetters: what want reads.
const wantColumns = 4

// optionalColumns may be absent from a file, a segment of an older
// schema: their field stays empty (segment: schema 3; whole_words,
// whole_sketch: schema 4).
var optionalColumns = map[string]bool{"segment": true, "whole_words": true, "whole_sketch.list.element": true}

// rowColumns finds Row's leaf columns in schema, leaving out the optional
// ones it lacks; a missing one that is not optional is an error (not a
// segment of a readable schema).
func rowColumns(schema *parquet.Schema) ([]column, error) {
	cols := make([]column, 0, len(rowColumnSetters))
	for _, c := range rowColumnSetters {
		leaf, ok := schema.Lookup(c.path...)
		if !ok {
			if optionalColumns[strings.Join(c.path, ".")] {
				continue
			}
			return nil, fmt.Errorf("no column %v", c.path)
		}
		cols = append(cols, column{index: leaf.ColumnIndex, maxDef: leaf.MaxDefinitionLevel, set: c.set, list: c.list})
	}
	return cols, nil
}

// uint32s are a row's list elements (32-bit numbers, read as 64), in a
// slice of their own.
func uint32s(vs []uint64) []uint32 {
	out := make([]uint32, len(vs))
	for i, v := range vs {
		out[i] = uint32(v)
	}
	return out
}

// rowGroupReader reads row groups, reusing its buffers.
type rowGroupReader struct {
	values []parquet.Value
	elems  []uint64 // the current row's list elements
	rows   []Row
	keep   []bool
}

// read hands fn the rows of g that want accepts, in order.
func (b *rowGroupReader) read(g parquet.RowGroup, cols []column, want func(*Row) bool, fn func(*Row) error) error {
	n := int(g.NumRows())
	if cap(b.rows) < n {
		b.rows, b.keep = make([]Row, n), make([]bool, n)
	}
	// Cleared, so that each row's slices are its own: the pages handed to
	// fn keep them.
	b.rows, b.keep = b.rows[:n], b.keep[:n]
	clear(b.rows)
	all := func(int) bool { return true }
	first := cols
	if want != nil {
		first = cols[:wantColumns]
	}
	for _, c := range first {
		if err := b.column(g, c, all); err != nil {
			return err
		}
	}
	kept := 0
	for i := range b.rows {
		r := &b.rows[i]
		if b.keep[i] = want == nil || want(r); b.keep[i] {
			kept++
		}
	}
	if kept == 0 {
		return nil
	}
	if want != nil {
		for _, c := range cols[wantColumns:] {
			if err := b.column(g, c, func(i int) bool { return b.keep[i] }); err != nil {
				return err
			}
		}
	}
	for i := range b.rows {
		if b.keep[i] {
			if err := fn(&b.rows[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// listPage reads list column c's page p as column does, from the page's
// levels and its numbers as they are decoded (no parquet.Value per
// element: most of the cost of reading an index's vectors); ok is false,
// and nothing is read, when p's values are not plain 64- or 32-bit numbers
// (a dictionary page), which column reads value by value.
func (b *rowGroupReader) listPage(p parquet.Page, c column, row *int, take *bool, at func(int) bool, flush func()) (ok bool, err error) {
	if p.Dictionary() != nil {
		return false, nil
	}
	data := p.Data()
	var u64 []uint64
	var u32 []uint32
	wide := data.Kind() == encoding.Int64
	switch {
	case wide:
		u64 = data.Uint64()
	case data.Kind() == encoding.Int32:
		u32 = data.Uint32()
	default:
		return false, nil
	}
	reps, defs := p.RepetitionLevels(), p.DefinitionLevels()
	if len(reps) != len(defs) {
		return false, nil
	}
	k := 0 // the next number of data
	for i, r := range reps {
		if r == 0 {
			if *row >= 0 {
				flush()
			}
			if *row++; *row >= len(b.rows) {
				return true, fmt.Errorf("column %d holds more rows than its row group's %d", c.index, len(b.rows))
			}
			*take = at(*row)
		}
		if int(defs[i]) != c.maxDef {
			continue // an empty list
		}
		if k >= len(u64)+len(u32) {
			return true, fmt.Errorf("column %d: a page with fewer values than its levels", c.index)
		}
		if *take {
			if wide {
				b.elems = append(b.elems, u64[k])
			} else {
				b.elems = append(b.elems, uint64(u32[k]))
			}
		}
		k++
	}
	return true, nil
}

// column reads leaf column c of g into the rows for which at(row) holds;
// a value of repetition level 0 starts the next row.
func (b *rowGroupReader) column(g parquet.RowGroup, c column, at func(int) bool) error {
	if b.values == nil {
		b.values = make([]parquet.Value, 1024)
	}
	pages := g.ColumnChunks()[c.index].Pages()
	defer pages.Close()
	row := -1
	// A list column's elements are gathered per row (numbers, held by
	// value, so a row may span pages) and set at once (column.list):
	// one allocation of the list's size.
	b.elems = b.elems[:0]
	take := false // at(row) of the current row
	flush := func() {
		if c.list != nil && len(b.elems) > 0 {
			c.list(&b.rows[row], b.elems)
		}
		b.elems = b.elems[:0]
	}
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if c.list != nil {
			if ok, err := b.listPage(p, c, &row, &take, at, flush); ok || err != nil {
				parquet.Release(p)
				if err != nil {
					return err
				}
				continue
			}
		}
		vr := p.Values()
		for {
			n, err := vr.ReadValues(b.values)
			for _, v := range b.values[:n] {
				if v.RepetitionLevel() == 0 {
					if row >= 0 {
						flush()
					}
					if row++; row >= len(b.rows) {
						parquet.Release(p)
						return fmt.Errorf("column %d holds more rows than its row group's %d", c.index, len(b.rows))
					}
					take = at(row)
				}
				switch {
				case !take || v.IsNull():
				case c.list != nil:
					b.elems = append(b.elems, v.Uint64())
				default:
					c.set(&b.rows[row], v)
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				parquet.Release(p)
				return err
			}
		}
		parquet.Release(p)
	}
	if row >= 0 {
		flush()
	}
	if row != len(b.rows)-1 {
		return fmt.Errorf("column %d holds %d rows, its row group %d", c.index, row+1, len(b.rows))
	}
	return nil
}
