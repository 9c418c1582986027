// Package index is the index of the pages a run kept, so that a later run
// can deduplicate a new crawl against them without reading them again
// (docs/design.md, "Scheduled batches").
//
// # Layout
//
// An index is a directory (local path, gs:// or s3:// prefix: package
// storage) of segments; each run that writes the index adds one segment
// and never changes another:
//
//	DIR/segment-<label>/pages-SSSSS-of-NNNNN.parquet   one row per kept page (Row)
//	DIR/segment-<label>/segment.json                    Meta: schema, parameters, counts, output, inputs
//	DIR/segment-<label>/_SUCCESS                        written last
//
// The label is the run's (--index_label), by default its start time
// (LabelOf: 20261125T031500.000Z), so names sort by time.
//
// # Compaction
//
// Compact (ndd-eval index compact) merges segments into one,
// segment-<last label>~<compaction time>, whose rows are theirs, each
// naming the run segment it was kept into (Row.Segment), and whose
// segment.json names the segments it replaces (Meta.Replaces) and the run
// segments it holds (Meta.Merged, Meta.Runs). Once it is committed, Scan
// calls the segments it replaces partial ("replaced"), and they are
// removed.
//
// # Commit
//
// A segment is committed when it has _SUCCESS and the run that wrote it
// committed too: the job writes the segment's _SUCCESS just before its
// output's _SUCCESS (transforms.Outputs.Commit), so a run killed between
// the two leaves a segment whose output (Meta.Output) has a summary.json
// naming the segment and no _SUCCESS. Scan calls such a segment partial,
// as it does one without _SUCCESS and one that a committed compacted
// segment replaces; a reader never reads a partial segment, and
// RemovePartial (the next run writing the index, the next compaction, or
// ndd-eval index --remove_partial) removes them. An output that is gone
// (moved or deleted), whose summary.json now names another segment (the
// day was rerun into it), or that holds another run's files and none of
// the segment's run (Meta.RunID: deleted and taken by a later run) does
// not make its segment partial; a compacted segment has no output: its
// _SUCCESS commits it.
//
// # Rows
//
// Parquet (github.com/parquet-go/parquet-go), zstd, row groups of at most
// RowGroupRows rows, readable by any data tool (DuckDB, pyarrow, Spark). A
// row holds the page's identity (record ID, URI, WARC file, offsets,
// WARC-Date), its language, its vector as it was matched (after the shared
// blocks, the IDF filter and the minimum; empty for a page decided by its
// text) with its length |d|, its rank under the keep policy and its text
// digest; in a compacted segment, the run segment it was kept into.
//
// # Parameters
//
// Meta.Params are the parameters a later run must share (Agreement); Check
// names the first that differs. The index holds no corpus statistics: see
// docs/design.md for why none are needed at the settings --against
// accepts (dedup.CheckAgainst).
package index

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/storage"
	"github.com/ndd-beam/ndd-beam/warc"
)

// SchemaVersion is the version of Row and Meta this build writes; a
// segment of a version outside MinSchemaVersion..SchemaVersion is refused
// (ReadMeta). 2: the main-text sketch (verification). 3: a row's segment
// column and Meta.Replaces, Meta.Merged (compacted segments, Compact); a
// build that reads only 2 refuses a segment of 3 instead of naming its
// pages by the wrong segment. 4: the whole-text sketch (whole_words,
// whole_sketch); a page of an older segment is verified with its main
// text standing for its whole text (spotsig.Sketch).
const SchemaVersion = 4

// MinSchemaVersion is the oldest version this build reads: a segment of
// version 2 has no segment column (every page is the segment's own) and
// its vectors are those of version 3, so the two agree (Check).
const MinSchemaVersion = 2

// RowGroupRows bounds the rows of one Parquet row group, so a reader holds
// at most that many pages' columns at once.
const RowGroupRows = 10000

// File names inside a segment.
const (
	MetaFile    = "segment.json"
	SuccessFile = "_SUCCESS"
	segPrefix   = "segment-"
)

// Row is one kept page in a segment's Parquet files.
type Row struct {
	RecordID   string   `parquet:"record_id"`
	URI        string   `parquet:"uri"`
	File       string   `parquet:"warc_file,dict"`
	Offset     int64    `parquet:"offset"`
	Inner      int64    `parquet:"inner_offset"`
	Date       string   `parquet:"warc_date"`
	Lang       string   `parquet:"lang,dict"`
	Length     int64    `parquet:"length"`
	Rank       []byte   `parquet:"rank"`
	TextDigest string   `parquet:"text_digest"`
	Hashes     []uint64 `parquet:"hashes,list"`
	Freqs      []uint32 `parquet:"freqs,list"`
	// SketchWords and Sketch are the page's main-text sketch
	// (spotsig.Sketch: words, and up to 128 ascending 32-bit hashes), what
	// verification of a pair with the page reads.
	SketchWords int64    `parquet:"sketch_words"`
	Sketch      []uint32 `parquet:"sketch,list"`
	// WholeWords and Whole are the sketch of its whole text
	// (spotsig.Sketch's WholeWords and WholeMin: 0 and empty when it is
	// the main text). Absent in segments of schema 3 and older.
	WholeWords int64    `parquet:"whole_words"`
	Whole      []uint32 `parquet:"whole_sketch,list"`
	// Segment is the segment the page was kept into, in a compacted
	// segment (Compact); "" (null) in a run's own segment, whose pages are
	// all its own. Absent in segments of schema 2.
	Segment string `parquet:"segment,optional,dict"`
}

// RowOf is the row of a kept page.
func RowOf(p dedup.Prior) Row {
	return Row{RecordID: p.RecordID, URI: p.URI, File: p.File, Offset: p.Offset, Inner: p.Inner,
		Date: p.Date, Lang: p.Lang, Length: int64(p.Vec.Len()), Rank: []byte(p.Rank), TextDigest: p.Digest,
		Hashes: p.Vec.Hashes, Freqs: p.Vec.Freqs, SketchWords: int64(p.Sketch.Words), Sketch: p.Sketch.Min,
		WholeWords: int64(p.Sketch.WholeWords), Whole: p.Sketch.WholeMin}
}

// Prior is the kept page of a row of segment: named by r.Segment when the
// row has one (a compacted segment), else by segment.
func (r Row) Prior(segment string) dedup.Prior {
	if r.Segment != "" {
		segment = r.Segment
	}
	return dedup.Prior{
		Page: dedup.Page{Ref: warc.Ref{File: r.File, Offset: r.Offset, Inner: r.Inner, RecordID: r.RecordID, URI: r.URI},
			Rank: string(r.Rank), Digest: r.TextDigest, Date: r.Date},
		Lang: r.Lang, Vec: spotsig.Vector{Hashes: r.Hashes, Freqs: r.Freqs}, Segment: segment,
		Sketch: spotsig.Sketch{Words: uint32(r.SketchWords), Min: nilIfEmpty(r.Sketch),
			WholeWords: uint32(r.WholeWords), WholeMin: nilIfEmpty(r.Whole)},
	}
}

// nilIfEmpty is s, or nil when it is empty (as a page without words has
// it before it is written).
func nilIfEmpty(s []uint32) []uint32 {
	if len(s) == 0 {
		return nil
	}
	return s
}

// Agreement are the parameters a run and the segments it is matched
// against must share: those that decide a page's vector, which pairs are
// near-duplicates, and the order of ranks. Field order is the order Check
// compares them in.
type Agreement struct {
	Schema                int     `json:"schema"`
	Method                string  `json:"method"`
	Matcher               string  `json:"matcher"`
	Tau                   float64 `json:"tau"`
	SameSiteTau           float64 `json:"same_site_tau"`
	VerifyShare           float64 `json:"verify_share"`
	Lang                  string  `json:"lang"`
	Antecedents           string  `json:"antecedents"`
	ShingleK              int     `json:"shingle_k"`
	IDFMin                float64 `json:"idf_min"`
	IDFMax                float64 `json:"idf_max"`
	IDFKeepShared         bool    `json:"idf_keep_shared"`
	MinSignatures         int     `json:"min_signatures"`
	MinBlockTokens        int     `json:"min_block_tokens"`
	KeepMarkupBoilerplate bool    `json:"keep_markup_boilerplate"`
	SharedBlockPages      int     `json:"shared_block_pages"`
	Keep                  string  `json:"keep"`
	// The extraction caps decide which signatures a capped page has.
	// Segments written before they were recorded read as the defaults.
	MaxInputBytes int `json:"max_input_bytes"`
	MaxTextBytes  int `json:"max_text_bytes"`
	MaxTokens     int `json:"max_tokens"`
	MaxSignatures int `json:"max_signatures"`
}

// AgreementOf is the agreement of a run with parameters p, empty names
// replaced by their defaults.
func AgreementOf(p config.Params) Agreement {
	a := Agreement{Schema: SchemaVersion, Method: p.Method, Matcher: p.Matcher, Tau: p.Tau,
		SameSiteTau: p.SameSiteTau, VerifyShare: p.VerifyShare, Lang: p.Lang, Antecedents: p.Antecedents, ShingleK: p.ShingleK,
		IDFMin: p.IDFMin, IDFMax: p.IDFMax, IDFKeepShared: p.IDFKeepShared, MinSignatures: p.MinSignatures,
		MinBlockTokens: p.MinBlockTokens, KeepMarkupBoilerplate: p.KeepMarkupBoilerplate,
		SharedBlockPages: p.SharedBlockPages, Keep: p.Keep,
		MaxInputBytes: p.MaxInputBytes, MaxTextBytes: p.MaxTextBytes, MaxTokens: p.MaxTokens, MaxSignatures: p.MaxSignatures}
	a.defaultCaps()
	if a.Method == "" {
		a.Method = config.MethodSpotSigs
	}
	if a.Matcher == "" {
		a.Matcher = config.MatcherSpotSigs
	}
	if a.Lang == "" {
		a.Lang = spotsig.DefaultLanguageMode
	}
	if a.Keep == "" {
		a.Keep = config.DefaultParams().Keep
	}
	return a
}

// defaultCaps sets the extraction caps that are 0 (not recorded, or the
// spotsig default) to spotsig's defaults.
func (a *Agreement) defaultCaps() {
	for _, c := range []struct {
		v   *int
		def int
	}{{&a.MaxInputBytes, spotsig.DefaultMaxInputBytes}, {&a.MaxTextBytes, spotsig.DefaultMaxTextBytes},
		{&a.MaxTokens, spotsig.DefaultMaxTokens}, {&a.MaxSignatures, spotsig.DefaultMaxSignatures}} {
		if *c.v == 0 {
			*c.v = c.def
		}
	}
}

// Meta is a segment's segment.json.
type Meta struct {
	// Segment is the segment's name (its directory's base name).
	Segment string `json:"segment"`
	// Created is when the run that wrote it started (RFC 3339, UTC).
	Created string `json:"created"`
	// Pages is the number of rows; Files the Parquet files holding them,
	// FileBytes their sizes (absent in segments written before sizes were
	// recorded).
	Pages     int              `json:"pages"`
	Files     []string         `json:"files"`
	FileBytes map[string]int64 `json:"file_bytes,omitempty"`
	// Params must agree with a run that reads the segment (Check).
	Params Agreement `json:"params"`
	// Output is the output directory of the run that wrote the segment
	// (absolute when local), whose commit commits the segment (Scan); ""
	// for a segment written outside the job (WriteSegment).
	Output string `json:"output,omitempty"`
	// RunID is the run ID of the run that wrote the segment (its temporary
	// files in Output are named by it: output.TempPath); "" in segments
	// written before it was recorded.
	RunID string `json:"run_id,omitempty"`
	// Inputs are the WARC files the run read (absolute when local), so that
	// a run of the same files against the index is refused.
	Inputs []string `json:"inputs,omitempty"`
	// Replaces are the names of the segments a compacted segment was
	// merged from (Compact): once it is committed, Scan calls each of them
	// replaced (partial), so that no page is read twice while they are
	// being removed. Empty for a run's own segment.
	Replaces []string `json:"replaces,omitempty"`
	// Merged are the run segments whose pages a compacted segment holds
	// (those of the segments it replaces, flattened), in name order: what
	// a later run checks its label and inputs against. Empty for a run's
	// own segment (Runs).
	Merged []RunSegment `json:"merged,omitempty"`
}

// RunSegment is a segment as the run that wrote it committed it: its
// name, start, pages, output and inputs (Meta's fields of the same names).
type RunSegment struct {
	Segment string   `json:"segment"`
	Created string   `json:"created"`
	Pages   int      `json:"pages"`
	Output  string   `json:"output,omitempty"`
	Inputs  []string `json:"inputs,omitempty"`
}

// Runs returns the run segments whose pages segment m holds: m.Merged
// for a compacted segment, else m itself.
func (m Meta) Runs() []RunSegment {
	if len(m.Replaces) > 0 {
		return m.Merged
	}
	return []RunSegment{{Segment: m.Segment, Created: m.Created, Pages: m.Pages, Output: m.Output, Inputs: m.Inputs}}
}

// Check returns an error naming the first parameter in which a run with
// agreement run differs from segment m, or nil. Schema versions this
// build reads agree with each other (MinSchemaVersion).
func Check(run Agreement, m Meta) error {
	if name, x, y, ok := firstDifference(run, m.Params); ok {
		return fmt.Errorf("index segment %s was written with %s=%s, this run has %s=%s", m.Segment, name, y, name, x)
	}
	return nil
}

// firstDifference returns the first parameter (its JSON name) in which a
// and b differ and their values (JSON), ok false when they agree.
// Readable schema versions agree.
func firstDifference(a, b Agreement) (name, va, vb string, ok bool) {
	if readable(a.Schema) && readable(b.Schema) {
		a.Schema = b.Schema
	}
	av, bv := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := range av.NumField() {
		if x, y := av.Field(i).Interface(), bv.Field(i).Interface(); x != y {
			name, _, _ := strings.Cut(av.Type().Field(i).Tag.Get("json"), ",")
			return name, jsonValue(x), jsonValue(y), true
		}
	}
	return "", "", "", false
}

// readable reports whether this build reads segments of schema version v.
func readable(v int) bool { return v >= MinSchemaVersion && v <= SchemaVersion }

func jsonValue(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// SegmentName is the name of the segment of label (LabelOf, or
// --index_label).
func SegmentName(label string) string { return segPrefix + label }

// LabelOf is the default label of a run started at t: its UTC time to the
// millisecond, 20060102T150405.000Z, which sorts as time does.
func LabelOf(t time.Time) string { return t.UTC().Format("20060102T150405.000Z") }

// ShardName is the name of Parquet file shard of n in a segment.
func ShardName(shard, n int) string { return fmt.Sprintf("pages-%05d-of-%05d.parquet", shard, n) }

// Join joins a directory (local or URL) and a name.
func Join(dir, name string) string {
	if storage.IsLocal(dir) {
		return path.Join(dir, name)
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}

// WriteRows writes the pages of rows as one Parquet file to w (zstd, row
// groups of at most RowGroupRows rows) and returns the rows and bytes
// written. rows is called with a function that writes one page; its error
// is returned.
func WriteRows(w io.Writer, rows func(write func(dedup.Prior) error) error) (n int, size int64, err error) {
	rw := newRowWriter(w)
	err = rows(func(p dedup.Prior) error { return rw.Write(RowOf(p)) })
	n, size, cerr := rw.Close()
	if err == nil {
		err = cerr
	}
	return n, size, err
}

// rowWriter writes rows as one Parquet file (zstd, row groups of at most
// RowGroupRows rows), a batch of rows at a time.
type rowWriter struct {
	cw  *countingWriter
	pw  *parquet.GenericWriter[Row]
	buf []Row
	n   int
}

func newRowWriter(w io.Writer) *rowWriter {
	cw := &countingWriter{w: w}
	return &rowWriter{cw: cw, buf: make([]Row, 0, 256),
		pw: parquet.NewGenericWriter[Row](cw, parquet.Compression(&zstd.Codec{}), parquet.MaxRowsPerRowGroup(RowGroupRows))}
}

// Write adds row r.
func (rw *rowWriter) Write(r Row) error {
	rw.buf = append(rw.buf, r)
	rw.n++
	if len(rw.buf) == cap(rw.buf) {
		return rw.flush()
	}
	return nil
}

func (rw *rowWriter) flush() error {
	if len(rw.buf) == 0 {
		return nil
	}
	_, err := rw.pw.Write(rw.buf)
	clear(rw.buf) // the rows' slices are not kept past the write
	rw.buf = rw.buf[:0]
	return err
}

// Close writes the file's last rows and footer (not closing the writer
// underneath) and returns the rows and bytes written.
func (rw *rowWriter) Close() (n int, size int64, err error) {
	err = rw.flush()
	if cerr := rw.pw.Close(); err == nil {
		err = cerr
	}
	return rw.n, rw.cw.n, err
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// WriteSegment writes pages as segment name of the index at dir, in one
// Parquet file, segment.json and _SUCCESS last: the in-process writer
// (dedup.Run's counterpart; the Beam job writes shards in parallel,
// transforms.WriteIndex). created is the run's start (RFC 3339).
func WriteSegment(ctx context.Context, dir, name, created string, p config.Params, pages []dedup.Prior) error {
	seg := Join(dir, name)
	fs, err := storage.New(ctx, seg)
	if err != nil {
		return err
	}
	defer fs.Close()
	file := ShardName(0, 1)
	w, err := fs.OpenWrite(ctx, Join(seg, file))
	if err != nil {
		return err
	}
	var size int64
	_, size, err = WriteRows(w, func(write func(dedup.Prior) error) error {
		for _, q := range pages {
			if err := write(q); err != nil {
				return err
			}
		}
		return nil
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("index %s: %v", seg, err)
	}
	return Commit(ctx, seg, Meta{Segment: name, Created: created, Pages: len(pages), Files: []string{file},
		FileBytes: map[string]int64{file: size}, Params: AgreementOf(p)})
}

// Commit writes segment.json of m and then _SUCCESS into segment dir seg.
func Commit(ctx context.Context, seg string, m Meta) error {
	fs, err := storage.New(ctx, seg)
	if err != nil {
		return err
	}
	defer fs.Close()
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{MetaFile, append(b, '\n')}, {SuccessFile, nil}} {
		w, err := fs.OpenWrite(ctx, Join(seg, f.name))
		if err != nil {
			return fmt.Errorf("index %s: %v", seg, err)
		}
		_, err = w.Write(f.data)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("index %s: %v", seg, err)
		}
	}
	return nil
}

// SegmentState is one segment directory of an index and whether it is
// committed.
type SegmentState struct {
	Dir  string // the segment directory
	Name string // its base name
	// Partial says why the segment is not committed; "" when it is.
	Partial string
}

// Scan returns the segments of the index dir, in name order, committed
// and partial (package doc, "Commit"): dir itself when it is a segment
// (it holds segment.json or _SUCCESS), else its subdirectories segment-*.
func Scan(ctx context.Context, dir string) ([]SegmentState, error) {
	fs, err := storage.New(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	files := map[string]map[string]bool{}
	if ok, _ := exists(ctx, fs, Join(dir, SuccessFile)); ok {
		files[strings.TrimSuffix(dir, "/")] = map[string]bool{SuccessFile: true}
	} else if ok, _ := exists(ctx, fs, Join(dir, MetaFile)); ok {
		files[strings.TrimSuffix(dir, "/")] = map[string]bool{MetaFile: true}
	} else {
		found, err := fs.List(ctx, Join(Join(dir, segPrefix+"*"), "*"))
		if err != nil {
			return nil, fmt.Errorf("index %s: %v", dir, err)
		}
		for _, f := range found {
			seg, name := dirBase(f)
			if files[seg] == nil {
				files[seg] = map[string]bool{}
			}
			files[seg][name] = true
		}
	}
	var out []SegmentState
	replaces := map[string][]string{}
	for seg, names := range files {
		_, name := dirBase(seg)
		st := SegmentState{Dir: seg, Name: name}
		if !names[SuccessFile] {
			st.Partial = "no " + SuccessFile
		} else if m, err := ReadMeta(ctx, seg); err == nil {
			st.Partial = uncommittedRun(ctx, m, name)
			replaces[seg] = m.Replaces
		}
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b SegmentState) int { return strings.Compare(a.Dir, b.Dir) })
	// A committed compacted segment replaces the segments it was merged
	// from; it sorts after each of them (Compact), so going down the names
	// decides a segment before the ones it replaces, and a compacted
	// segment that is itself replaced replaces nothing.
	replacedBy := map[string]string{}
	for i := len(out) - 1; i >= 0; i-- {
		st := &out[i]
		if st.Partial != "" {
			continue
		}
		if by, ok := replacedBy[st.Name]; ok {
			st.Partial = "replaced by the compacted segment " + by
			continue
		}
		for _, r := range replaces[st.Dir] {
			replacedBy[r] = st.Name
		}
	}
	return out, nil
}

// dirBase splits p (a local path or a URL) into its directory and base
// name.
func dirBase(p string) (string, string) {
	if storage.IsLocal(p) {
		return filepath.Dir(p), filepath.Base(p)
	}
	p = strings.TrimSuffix(p, "/")
	i := strings.LastIndex(p, "/")
	return p[:i], p[i+1:]
}

// uncommittedRun returns why the segment of meta m (named name, with
// _SUCCESS) belongs to a run that did not commit its output, or "": the
// output (Meta.Output) has no _SUCCESS, and its summary.json names the
// segment or, before the commit renamed it, the output holds other files
// (the run's temporary files). An output that is gone or empty, or whose
// summary.json names another segment, leaves the segment committed, as
// does no output at all (a segment written outside the job, or a
// compacted one: its _SUCCESS commits it).
func uncommittedRun(ctx context.Context, m Meta, name string) string {
	if m.Output == "" {
		return ""
	}
	fs, err := storage.New(ctx, m.Output)
	if err != nil {
		return ""
	}
	defer fs.Close()
	if ok, _ := exists(ctx, fs, Join(m.Output, SuccessFile)); ok {
		return ""
	}
	why := "its run did not commit (" + m.Output + " has no " + SuccessFile + ")"
	if b, err := readAll(ctx, Join(m.Output, "summary.json")); err == nil {
		var sum struct {
			IndexSegment string `json:"index_segment"`
		}
		if json.Unmarshal(b, &sum) != nil || sum.IndexSegment != name {
			return ""
		}
		return why
	}
	if files, err := fs.List(ctx, Join(m.Output, "*")); err == nil && holdsRun(files, m.RunID) {
		return why
	}
	return ""
}

// holdsRun reports whether the files of an output without summary.json
// are those of the run runID, killed before it renamed them: its
// temporary files (output.TempPrefix + runID). A directory that another
// run has taken since (its lock and temporary files, after the first was
// deleted) does not make the first run's segment partial. For a segment
// that does not record its run ID, any file does (the rule before
// RunID).
func holdsRun(files []string, runID string) bool {
	if runID == "" {
		return len(files) > 0
	}
	for _, f := range files {
		if strings.HasPrefix(path.Base(f), output.TempPrefix+runID) {
			return true
		}
	}
	return false
}

// Segments returns the committed segments of dir (Scan), in name order.
func Segments(ctx context.Context, dir string) ([]string, error) {
	all, err := Scan(ctx, dir)
	if err != nil {
		return nil, err
	}
	var segs []string
	for _, st := range all {
		if st.Partial == "" {
			segs = append(segs, st.Dir)
		}
	}
	return segs, nil
}

// RemovePartial removes the partial segments of the index dir (Scan) and
// returns them. Only a run that holds the index's lock may call it: a
// run in progress has a partial segment too.
func RemovePartial(ctx context.Context, dir string) ([]SegmentState, error) {
	all, err := Scan(ctx, dir)
	if err != nil {
		return nil, err
	}
	var removed []SegmentState
	for _, st := range all {
		if st.Partial == "" {
			continue
		}
		if err := removeSegment(ctx, st.Dir); err != nil {
			return removed, fmt.Errorf("index %s: removing partial segment: %v", st.Dir, err)
		}
		removed = append(removed, st)
	}
	return removed, nil
}

// removeSegment removes the files of segment directory seg, _SUCCESS
// first, and the directory itself when local.
func removeSegment(ctx context.Context, seg string) error {
	if storage.IsLocal(seg) {
		os.Remove(filepath.Join(seg, SuccessFile))
		return os.RemoveAll(seg)
	}
	fs, err := storage.New(ctx, seg)
	if err != nil {
		return err
	}
	defer fs.Close()
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return fmt.Errorf("its filesystem cannot remove files")
	}
	files, err := fs.List(ctx, Join(seg, "*"))
	if err != nil {
		return err
	}
	slices.SortFunc(files, func(a, b string) int { // _SUCCESS first
		return cmpBool(!strings.HasSuffix(a, "/"+SuccessFile), !strings.HasSuffix(b, "/"+SuccessFile))
	})
	for _, f := range files {
		if err := rm.Remove(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// Verify checks that the segment of info holds what its segment.json
// says: exactly the Parquet files it lists, each of the size it records
// and a whole Parquet file (footer readable), with Meta.Pages rows in all. The error names the
// segment and the file.
func Verify(ctx context.Context, info Info) error {
	fs, err := storage.New(ctx, info.Dir)
	if err != nil {
		return err
	}
	defer fs.Close()
	found, err := fs.List(ctx, Join(info.Dir, "*.parquet"))
	if err != nil {
		return fmt.Errorf("index %s: %v", info.Dir, err)
	}
	var names []string
	for _, f := range found {
		_, name := dirBase(f)
		names = append(names, name)
	}
	slices.Sort(names)
	listed := slices.Sorted(slices.Values(info.Meta.Files))
	if !slices.Equal(names, listed) {
		return fmt.Errorf("index segment %s: %s lists the files %v, the segment holds %v", info.Dir, MetaFile, listed, names)
	}
	var rows int64
	for _, f := range listed {
		pf, closeFile, err := openParquet(ctx, Join(info.Dir, f))
		if err != nil {
			return fmt.Errorf("index segment %s: %s is not a whole Parquet file (%v)", info.Dir, f, err)
		}
		if want, ok := info.Meta.FileBytes[f]; ok {
			if got, err := fs.Size(ctx, Join(info.Dir, f)); err != nil {
				closeFile()
				return fmt.Errorf("index segment %s: %s: %v", info.Dir, f, err)
			} else if got != want {
				closeFile()
				return fmt.Errorf("index segment %s: %s holds %d bytes, %s says %d: not the file this segment was written with", info.Dir, f, got, MetaFile, want)
			}
		}
		rows += pf.NumRows()
		closeFile()
	}
	if rows != int64(info.Meta.Pages) {
		return fmt.Errorf("index segment %s: %s says %d pages, its Parquet files hold %d rows", info.Dir, MetaFile, info.Meta.Pages, rows)
	}
	return nil
}

// openParquet opens the Parquet file name: a local file is read where it
// lies (only its footer at first), any other wholly into memory. Errors
// are the file's (a truncated file: "invalid magic footer"), never a panic.
func openParquet(ctx context.Context, name string) (f *parquet.File, closeFile func(), err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	if storage.IsLocal(name) {
		lf, err := os.Open(name)
		if err != nil {
			return nil, nil, err
		}
		st, err := lf.Stat()
		if err == nil {
			f, err = parquet.OpenFile(lf, st.Size())
		}
		if err != nil {
			lf.Close()
			return nil, nil, err
		}
		return f, func() { lf.Close() }, nil
	}
	b, err := readAll(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	f, err = parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, nil, err
	}
	return f, func() {}, nil
}

func exists(ctx context.Context, fs interface {
	Size(context.Context, string) (int64, error)
}, name string) (bool, error) {
	_, err := fs.Size(ctx, name)
	return err == nil, err
}

// ReadMeta reads the segment.json of segment seg.
func ReadMeta(ctx context.Context, seg string) (Meta, error) {
	var m Meta
	b, err := readAll(ctx, Join(seg, MetaFile))
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("index %s: %s: %v", seg, MetaFile, err)
	}
	m.Params.defaultCaps()
	if !readable(m.Params.Schema) {
		return m, fmt.Errorf("index segment %s has schema version %d, this build reads %d to %d", seg, m.Params.Schema, MinSchemaVersion, SchemaVersion)
	}
	return m, nil
}

func readAll(ctx context.Context, name string) ([]byte, error) {
	r, err := storage.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// Info describes one segment for listing (ndd-beam --list_index).
type Info struct {
	Dir   string
	Index string // the index directory it was listed from (List)
	Meta  Meta
	Bytes int64 // Σ size of its Parquet files
}

// List describes the segments of each of dirs (Segments).
func List(ctx context.Context, dirs []string) ([]Info, error) {
	var out []Info
	for _, dir := range dirs {
		segs, err := Segments(ctx, dir)
		if err != nil {
			return nil, err
		}
		if len(segs) == 0 {
			return nil, fmt.Errorf("index %s: no committed segment (segment-*/%s)", dir, SuccessFile)
		}
		for _, seg := range segs {
			m, err := ReadMeta(ctx, seg)
			if err != nil {
				return nil, err
			}
			info := Info{Dir: seg, Index: dir, Meta: m}
			fs, err := storage.New(ctx, seg)
			if err != nil {
				return nil, err
			}
			for _, f := range m.Files {
				n, err := fs.Size(ctx, Join(seg, f))
				if err != nil {
					fs.Close()
					return nil, fmt.Errorf("index %s: %v", Join(seg, f), err)
				}
				info.Bytes += n
			}
			fs.Close()
			out = append(out, info)
		}
	}
	return out, nil
}

// Load reads every page of the segments of dirs after checking each
// segment agrees with run (Check). Errors name the segment and, for a
// mismatch, the parameter.
func Load(ctx context.Context, dirs []string, run Agreement) ([]dedup.Prior, []Info, error) {
	infos, err := List(ctx, dirs)
	if err != nil {
		return nil, nil, err
	}
	for _, in := range infos {
		if err := Check(run, in.Meta); err != nil {
			return nil, nil, err
		}
	}
	var pages []dedup.Prior
	for _, in := range infos {
		if err := ReadPages(ctx, in.Dir, in.Meta, func(p dedup.Prior) error {
			pages = append(pages, p)
			return nil
		}); err != nil {
			return nil, nil, err
		}
	}
	return pages, infos, nil
}
