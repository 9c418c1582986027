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
//	DIR/segment-<run ID>/pages-SSSSS-of-NNNNN.parquet   one row per kept page (Row)
//	DIR/segment-<run ID>/segment.json                    Meta: schema, parameters, counts
//	DIR/segment-<run ID>/_SUCCESS                        written last
//
// A reader trusts a segment only with _SUCCESS, so a run that failed half
// way leaves nothing a later run reads.
//
// # Rows
//
// Parquet (github.com/parquet-go/parquet-go), zstd, row groups of at most
// RowGroupRows rows, readable by any data tool (DuckDB, pyarrow, Spark). A
// row holds the page's identity (record ID, URI, WARC file, offsets,
// WARC-Date), its language, its vector as it was matched (after the shared
// blocks, the IDF filter and the minimum; empty for a page decided by its
// text) with its length |d|, its rank under the keep policy and its text
// digest.
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
	"path"
	"reflect"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/storage"
	"github.com/ndd-beam/ndd-beam/warc"
)

// SchemaVersion is the version of Row and Meta; a segment of another
// version is refused (Check). 2: the main-text sketch (verification).
const SchemaVersion = 2

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
}

// RowOf is the row of a kept page.
func RowOf(p dedup.Prior) Row {
	return Row{RecordID: p.RecordID, URI: p.URI, File: p.File, Offset: p.Offset, Inner: p.Inner,
		Date: p.Date, Lang: p.Lang, Length: int64(p.Vec.Len()), Rank: []byte(p.Rank), TextDigest: p.Digest,
		Hashes: p.Vec.Hashes, Freqs: p.Vec.Freqs, SketchWords: int64(p.Sketch.Words), Sketch: p.Sketch.Min}
}

// Prior is the kept page of a row of segment.
func (r Row) Prior(segment string) dedup.Prior {
	return dedup.Prior{
		Page: dedup.Page{Ref: warc.Ref{File: r.File, Offset: r.Offset, Inner: r.Inner, RecordID: r.RecordID, URI: r.URI},
			Rank: string(r.Rank), Digest: r.TextDigest, Date: r.Date},
		Lang: r.Lang, Vec: spotsig.Vector{Hashes: r.Hashes, Freqs: r.Freqs}, Segment: segment,
		Sketch: spotsig.Sketch{Words: uint32(r.SketchWords), Min: nilIfEmpty(r.Sketch)},
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
}

// AgreementOf is the agreement of a run with parameters p, empty names
// replaced by their defaults.
func AgreementOf(p config.Params) Agreement {
	a := Agreement{Schema: SchemaVersion, Method: p.Method, Matcher: p.Matcher, Tau: p.Tau,
		SameSiteTau: p.SameSiteTau, VerifyShare: p.VerifyShare, Lang: p.Lang, Antecedents: p.Antecedents, ShingleK: p.ShingleK,
		IDFMin: p.IDFMin, IDFMax: p.IDFMax, IDFKeepShared: p.IDFKeepShared, MinSignatures: p.MinSignatures,
		MinBlockTokens: p.MinBlockTokens, KeepMarkupBoilerplate: p.KeepMarkupBoilerplate,
		SharedBlockPages: p.SharedBlockPages, Keep: p.Keep}
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

// Meta is a segment's segment.json.
type Meta struct {
	// Segment is the segment's name (its directory's base name).
	Segment string `json:"segment"`
	// Created is when the run that wrote it started (RFC 3339, UTC).
	Created string `json:"created"`
	// Pages is the number of rows; Files the Parquet files holding them.
	Pages int      `json:"pages"`
	Files []string `json:"files"`
	// Params must agree with a run that reads the segment (Check).
	Params Agreement `json:"params"`
}

// Check returns an error naming the first parameter in which a run with
// agreement run differs from segment m, or nil.
func Check(run Agreement, m Meta) error {
	rv, mv := reflect.ValueOf(run), reflect.ValueOf(m.Params)
	for i := range rv.NumField() {
		if x, y := rv.Field(i).Interface(), mv.Field(i).Interface(); x != y {
			name, _, _ := strings.Cut(rv.Type().Field(i).Tag.Get("json"), ",")
			return fmt.Errorf("index segment %s was written with %s=%s, this run has %s=%s", m.Segment, name, jsonValue(y), name, jsonValue(x))
		}
	}
	return nil
}

func jsonValue(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// SegmentName is the name of the segment a run with run ID id writes.
func SegmentName(id string) string { return segPrefix + id }

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
// groups of at most RowGroupRows rows). rows is called with a function
// that writes one page; its error is returned.
func WriteRows(w io.Writer, rows func(write func(dedup.Prior) error) error) (n int, err error) {
	pw := parquet.NewGenericWriter[Row](w, parquet.Compression(&zstd.Codec{}), parquet.MaxRowsPerRowGroup(RowGroupRows))
	buf := make([]Row, 0, 256)
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		_, err := pw.Write(buf)
		buf = buf[:0]
		return err
	}
	err = rows(func(p dedup.Prior) error {
		buf = append(buf, RowOf(p))
		n++
		if len(buf) == cap(buf) {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if cerr := pw.Close(); err == nil {
		err = cerr
	}
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
	_, err = WriteRows(w, func(write func(dedup.Prior) error) error {
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
	return Commit(ctx, seg, Meta{Segment: name, Created: created, Pages: len(pages), Files: []string{file}, Params: AgreementOf(p)})
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

// Segments returns the committed segments dir names, in name order: dir
// itself when it is a segment (it holds segment.json), else its
// subdirectories segment-*. Segments without _SUCCESS are left out.
func Segments(ctx context.Context, dir string) ([]string, error) {
	fs, err := storage.New(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	if ok, _ := exists(ctx, fs, Join(dir, SuccessFile)); ok {
		return []string{strings.TrimSuffix(dir, "/")}, nil
	}
	found, err := fs.List(ctx, Join(Join(dir, segPrefix+"*"), SuccessFile))
	if err != nil {
		return nil, fmt.Errorf("index %s: %v", dir, err)
	}
	var segs []string
	for _, f := range found {
		segs = append(segs, strings.TrimSuffix(strings.TrimSuffix(f, SuccessFile), "/"))
	}
	slices.Sort(segs)
	return segs, nil
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
	if m.Params.Schema != SchemaVersion {
		return m, fmt.Errorf("index segment %s has schema version %d, this build reads %d", seg, m.Params.Schema, SchemaVersion)
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

// ReadPages reads every page of segment seg (whose meta is m), each named
// by the segment's name, and hands them to fn in file and row order.
// Memory: one Parquet file's bytes and RowGroupRows rows.
func ReadPages(ctx context.Context, seg string, m Meta, fn func(dedup.Prior) error) error {
	for _, f := range m.Files {
		b, err := readAll(ctx, Join(seg, f))
		if err != nil {
			return err
		}
		r := parquet.NewGenericReader[Row](bytes.NewReader(b))
		rows := make([]Row, 256)
		for {
			n, err := r.Read(rows)
			for _, row := range rows[:n] {
				if ferr := fn(row.Prior(m.Segment)); ferr != nil {
					r.Close()
					return ferr
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				r.Close()
				return fmt.Errorf("index %s: %v", Join(seg, f), err)
			}
		}
		if err := r.Close(); err != nil {
			return err
		}
	}
	return nil
}

// Info describes one segment for listing (ndd-beam --list_index).
type Info struct {
	Dir   string
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
			info := Info{Dir: seg, Meta: m}
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
