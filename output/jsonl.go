package output

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"strings"
)

// JSON lines (JSONLines, GzipJSONLines): each row one JSON object and a
// newline, as transforms.WriteLines made it.

// Line is the JSON line of a row (no newline): encoding/json without HTML
// escaping (URIs keep their '&'). The job shards and sorts every output by
// these lines (transforms.WriteLines), whatever its format.
func Line(row any) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(row); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// jsonlEncoder writes lines, through one gzip member when gz is set.
type jsonlEncoder struct {
	w  *bufio.Writer
	gz *gzip.Writer
}

func newJSONLEncoder(gzipped bool) func(io.Writer, string) (Encoder, error) {
	return func(w io.Writer, _ string) (Encoder, error) {
		if !gzipped {
			bw, ok := w.(*bufio.Writer)
			if !ok {
				bw = bufio.NewWriterSize(w, 1<<16)
			}
			return &jsonlEncoder{w: bw}, nil
		}
		gz := gzip.NewWriter(w)
		return &jsonlEncoder{w: bufio.NewWriterSize(gz, 1<<16), gz: gz}, nil
	}
}

func (e *jsonlEncoder) Encode(line string) error {
	e.w.WriteString(line)
	return e.w.WriteByte('\n')
}

func (e *jsonlEncoder) Close() error {
	if err := e.w.Flush(); err != nil || e.gz == nil {
		return err
	}
	return e.gz.Close()
}

// jsonlDecoder reads one JSON object a line; blank lines are skipped.
type jsonlDecoder struct {
	r    *bufio.Reader
	line int
}

func newJSONLDecoder(gzipped bool) func(io.Reader) (Decoder, error) {
	return func(r io.Reader) (Decoder, error) {
		if !gzipped {
			return &jsonlDecoder{r: bufio.NewReaderSize(r, 1<<16)}, nil
		}
		gz, err := gzip.NewReader(r)
		if err != nil {
			return nil, err
		}
		return &jsonlDecoder{r: bufio.NewReaderSize(gz, 1<<16)}, nil
	}
}

func (d *jsonlDecoder) Decode(v any) error {
	for {
		b, err := d.r.ReadBytes('\n')
		if len(b) == 0 && err == io.EOF {
			return io.EOF // gzip.Reader has checked the member's trailer
		}
		if err != nil && err != io.EOF {
			return err
		}
		d.line++
		if b = bytes.TrimSpace(b); len(b) == 0 {
			continue
		}
		if err := json.Unmarshal(b, v); err != nil {
			return &RowError{Row: d.line, Err: err}
		}
		return nil
	}
}
