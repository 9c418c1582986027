package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Parquet (--output_format=parquet): each shard one Parquet file of the
// output's row type (records.go: its parquet tags name the columns and
// their encodings), zstd (parquetCodec), in row groups of at most ParquetRowGroupRows rows, with SchemaVersion
// (the outputs' one schema version, that of summary.json) in the file's
// key-value metadata under SchemaVersionKey. Written by
// github.com/parquet-go/parquet-go, the library of the index segments.

// SchemaVersionKey is the key of SchemaVersion in each Parquet file's
// key-value metadata.
const SchemaVersionKey = "ndd-beam.schema_version"

// ParquetRowGroupRows bounds the rows of one row group: a writer holds one
// row group's columns in memory (about 400 bytes a pairs row), and a
// reader reads row groups in parallel. The job's shards are small files
// (a 108,000-page crawl: one shard of each output under 20 MB), so most
// are one row group; a 1M-page crawl's decisions on one shard are 16.
const ParquetRowGroupRows = 1 << 16

// parquetBatch is how many rows the encoder hands the writer at once.
const parquetBatch = 256

// parquetEncoders makes the encoder of each output's row type.
var parquetEncoders = map[string]func(io.Writer, ...parquet.WriterOption) Encoder{
	Pairs:     newParquetRows[PairRecord],
	Rejects:   newParquetRows[Reject],
	Decisions: newParquetRows[Decision],
	Clusters:  newParquetRows[Cluster],
}

// parquetNoBounds are the columns of each output written without min/max
// bounds (in the footer and the page index): record IDs, URIs and free
// text, whose bounds span nearly all values in every row group and so
// let a reader skip nothing. The columns rows are sorted by (the first of
// each row: pairs' a_record_id, the others' file and offset) and the
// numbers keep theirs.
var parquetNoBounds = map[string][]string{
	Pairs:     {"a_uri", "b_record_id", "b_uri"},
	Rejects:   {"record_id", "uri", "detail"},
	Decisions: {"record_id", "uri", "kept_by", "kept_by_uri"},
	Clusters:  {"record_id", "uri", "dropped.list.element"},
}

// parquetCodec compresses every column: zstd at its "better" level, which
// on the job's outputs gives 3-8 % smaller files than the default level
// (docs/benchmarks.md, "Output formats"), at a cost lost in the job's.
var parquetCodec = &zstd.Codec{Level: zstd.SpeedBetterCompression}

func newParquetEncoder(w io.Writer, prefix string) (Encoder, error) {
	enc, ok := parquetEncoders[prefix]
	if !ok {
		return nil, fmt.Errorf("parquet: no row type for output %q", prefix)
	}
	opts := []parquet.WriterOption{parquet.Compression(parquetCodec),
		parquet.MaxRowsPerRowGroup(ParquetRowGroupRows), parquet.KeyValueMetadata(SchemaVersionKey, strconv.Itoa(SchemaVersion))}
	for _, c := range parquetNoBounds[prefix] {
		opts = append(opts, parquet.SkipPageBounds(strings.Split(c, ".")...))
	}
	return enc(w, opts...), nil
}

// parquetRows decodes each JSON line into a T and writes it.
type parquetRows[T any] struct {
	w   *parquet.GenericWriter[T]
	buf []T
}

func newParquetRows[T any](w io.Writer, opts ...parquet.WriterOption) Encoder {
	return &parquetRows[T]{w: parquet.NewGenericWriter[T](w, opts...), buf: make([]T, 0, parquetBatch)}
}

func (e *parquetRows[T]) Encode(line string) error {
	e.buf = e.buf[:len(e.buf)+1]
	row := &e.buf[len(e.buf)-1]
	var zero T
	*row = zero
	if err := json.Unmarshal([]byte(line), row); err != nil {
		return err
	}
	if len(e.buf) == cap(e.buf) {
		return e.flush()
	}
	return nil
}

func (e *parquetRows[T]) flush() error {
	_, err := e.w.Write(e.buf)
	e.buf = e.buf[:0]
	return err
}

func (e *parquetRows[T]) Close() error {
	if err := e.flush(); err != nil {
		return err
	}
	return e.w.Close()
}

// parquetDecoder reads the rows of one Parquet file.
type parquetDecoder struct {
	r   *parquet.Reader
	row int
}

// newParquetDecoder opens a Parquet file: r is read in place when it is a
// local file, into memory otherwise.
func newParquetDecoder(r io.Reader) (Decoder, error) {
	var ra io.ReaderAt
	var size int64
	if f, ok := r.(*os.File); ok {
		st, err := f.Stat()
		if err != nil {
			return nil, err
		}
		ra, size = f, st.Size()
	} else {
		b, err := io.ReadAll(r)
		if err != nil {
			return nil, err
		}
		ra, size = bytes.NewReader(b), int64(len(b))
	}
	pf, err := parquet.OpenFile(ra, size)
	if err != nil {
		return nil, err
	}
	return &parquetDecoder{r: parquet.NewReader(pf)}, nil
}

func (d *parquetDecoder) Decode(v any) error {
	if err := d.r.Read(v); err != nil {
		if err == io.EOF {
			return err
		}
		return &RowError{Row: d.row + 1, Err: err}
	}
	d.row++
	return nil
}
