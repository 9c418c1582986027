package output

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// Row is a row type of the sharded outputs.
type Row interface {
	PairRecord | Reject | Decision | Cluster
}

// RowError is a row of a shard file that could not be read, by its number
// from 1 (in JSON lines its line number, blank lines counted).
type RowError struct {
	Row int
	Err error
}

func (e *RowError) Error() string { return fmt.Sprintf("row %d: %v", e.Row, e.Err) }

func (e *RowError) Unwrap() error { return e.Err }

// Read calls fn with every row of the local files matching the glob
// pattern (filepath.Match syntax; Glob(dir, Pairs) for the pairs of a run
// in dir), file after file in lexical order and row after row as each file
// holds them, each file decoded in the format its name ends in
// (FormatOfFile), and returns the files read. The one reader of the
// outputs: ndd-eval, the run report and the tests use it, and the closing
// line Decode. Errors: a pattern that matches no file (so a mistyped
// path is never read as empty); files of two formats (two runs' outputs
// mixed); and those of Decode, prefixed with the file's name.
func Read[T Row](pattern string, fn func(T) error) ([]string, error) {
	files, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no file matches %q", pattern)
	}
	sort.Strings(files)
	var first *Format
	for _, name := range files {
		f, _ := FormatOfFile(name)
		if first != nil && f != nil && f != first {
			return nil, fmt.Errorf("%q matches files of two formats, %s and %s", pattern, files[0], name)
		}
		first = f
	}
	for _, name := range files {
		if err := readFile(name, fn); err != nil {
			return nil, err
		}
	}
	return files, nil
}

func readFile[T Row](name string, fn func(T) error) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return Decode(name, f, fn)
}

// Decode calls fn with every row of the shard file called name (a path or
// URL, whose suffix says its format: FormatOfFile), read from r, and
// checks each against the contract: a pair names both documents (record
// ID or URI), a decision its page, a dropped page the page kept instead,
// a cluster its kept page. Errors name the file and the row: a name of
// no known format, a malformed row, a row that fails its check; an error
// of fn stops reading and is returned as it is.
func Decode[T Row](name string, r io.Reader, fn func(T) error) error {
	f, ok := FormatOfFile(name)
	if !ok {
		return fmt.Errorf("%s: not a file of the job's formats (%s)", name, suffixList())
	}
	dec, err := f.newDecoder(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for i := 1; ; i++ {
		var row T
		if err := dec.Decode(&row); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := check(any(&row)); err != nil {
			return fmt.Errorf("%s: %w", name, &RowError{Row: i, Err: err})
		}
		if err := fn(row); err != nil {
			return err
		}
	}
}

// check is the contract's check of one row.
func check(row any) error {
	switch r := row.(type) {
	case *PairRecord:
		if (r.ARecordID == "" && r.AURI == "") || (r.BRecordID == "" && r.BURI == "") {
			return errors.New("a pair needs a record id or uri on both sides")
		}
	case *Decision:
		if r.RecordID == "" && r.URI == "" {
			return errors.New("no record_id or uri")
		}
		if !r.Keep && r.KeptBy == "" && r.KeptByURI == "" {
			return errors.New("dropped without kept_by")
		}
		if len(r.Capped) == 0 {
			r.Capped = nil // Parquet's empty list is JSON's absent field
		}
	case *Cluster:
		if r.RecordID == "" && r.URI == "" {
			return errors.New("a cluster without record_id or uri")
		}
	}
	return nil
}

func suffixList() string {
	s := ""
	for i, f := range formats {
		if i > 0 {
			s += ", "
		}
		s += f.Suffix
	}
	return s
}

// ReadAll is Read into a slice: every row of the files matching pattern,
// and the files read.
func ReadAll[T Row](pattern string) ([]T, []string, error) {
	var rows []T
	files, err := Read(pattern, func(r T) error { rows = append(rows, r); return nil })
	if err != nil {
		return nil, nil, err
	}
	return rows, files, nil
}
