package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/ndd-beam/ndd-beam/config"
)

// Format is one encoding of the sharded outputs, the seam a new format
// plugs into: its shard files end in Suffix, an Encoder writes one and a
// Decoder reads one. Every format holds the same rows in the same order:
// the job shards and sorts each output by its rows' JSON lines (the
// canonical form; transforms.WriteLines), and an Encoder gets them in that
// order. A new format is a file with its encoder and decoder, a row of
// formats, its name in config.OutputFormats and its schema in
// docs/outputs.md.
type Format struct {
	// Name is the format's value of --output_format (config.OutputFormats).
	Name string
	// Compression is the value of --compression it is written with
	// (config.CompressionNone, or config.CompressionGzip for JSON lines).
	Compression string
	// Suffix ends the name of each of its shards (".jsonl").
	Suffix string
	// newEncoder returns the Encoder of one shard of the output called
	// prefix, writing to w.
	newEncoder func(w io.Writer, prefix string) (Encoder, error)
	// newDecoder returns the Decoder of one shard read from r.
	newDecoder func(r io.Reader) (Decoder, error)
}

// Encoder writes the rows of one shard file. Encode takes each row as its
// JSON line (no newline), in the order the file holds them; Close ends
// the file (it does not close the writer).
type Encoder interface {
	Encode(line string) error
	Close() error
}

// Decoder reads the rows of one shard file. Decode stores the next row in
// v, a pointer to the output's row type (PairRecord, Reject, Decision,
// Cluster), and returns io.EOF after the last.
type Decoder interface {
	Decode(v any) error
}

// The formats of the sharded outputs.
var (
	// JSONLines: one JSON object a line (encoding/json, no HTML
	// escaping), the default.
	JSONLines = &Format{Name: config.OutputFormatJSONL, Compression: config.CompressionNone, Suffix: ".jsonl",
		newEncoder: newJSONLEncoder(false), newDecoder: newJSONLDecoder(false)}
	// GzipJSONLines: the same lines in one gzip member (default level, no
	// name or time in its header), --compression=gzip.
	GzipJSONLines = &Format{Name: config.OutputFormatJSONL, Compression: config.CompressionGzip, Suffix: ".jsonl.gz",
		newEncoder: newJSONLEncoder(true), newDecoder: newJSONLDecoder(true)}
	// Parquet: the same rows as typed columns, zstd (parquet.go).
	Parquet = &Format{Name: config.OutputFormatParquet, Compression: config.CompressionNone, Suffix: ".parquet",
		newEncoder: newParquetEncoder, newDecoder: newParquetDecoder}
)

// formats lists every Format, each suffix once.
var formats = []*Format{JSONLines, GzipJSONLines, Parquet}

// FormatOf returns the Format of --output_format name and --compression
// compression (values config.ValidateValues accepts). Error: a pair no
// format has.
func FormatOf(name, compression string) (*Format, error) {
	for _, f := range formats {
		if f.Name == name && f.Compression == compression {
			return f, nil
		}
	}
	return nil, fmt.Errorf("no output format %q with compression %q", name, compression)
}

// FormatOfFile returns the Format whose suffix ends the file name, the
// longest that does; false when none does.
func FormatOfFile(name string) (*Format, bool) {
	var best *Format
	for _, f := range formats {
		if strings.HasSuffix(name, f.Suffix) && (best == nil || len(f.Suffix) > len(best.Suffix)) {
			best = f
		}
	}
	return best, best != nil
}

// NewEncoder returns the Encoder of one shard of the output called prefix
// (Pairs, Rejects, Decisions, Clusters), writing to w.
func (f *Format) NewEncoder(w io.Writer, prefix string) (Encoder, error) {
	return f.newEncoder(w, prefix)
}
