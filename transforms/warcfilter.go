package transforms

import (
	"bufio"
	"context"
	"crypto/sha1"
	"fmt"
	"hash/fnv"
	"path"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/storage"
	"github.com/ndd-beam/ndd-beam/warc"
)

// Filtered WARC files (--write_warc): for each input file read, a copy
// without its dropped pages and the records that belong to them
// (warc.PlanFilter), opened by a warcinfo record saying what was removed
// and why, plus a manifest of every removed record. The directory is
// committed as the output is (temporary names, then renames, then
// _SUCCESS), and the output's commit waits for it.

func init() {
	registerDoFn(&dropKeyFn{})
	registerDoFn(&filterFileFn{})
	registerDoFn(&warcCommitFn{})
	beam.RegisterType(reflect.TypeOf(pageDrop{}))
	register.Function1x2[string, string, int](fileKey)
	register.Emitter2[string, pageDrop]()
	register.Iter1[pageDrop]()
	register.Iter1[int]()
}

// WARCManifest is the prefix of the filtered directory's manifest,
// manifest-00000-of-00001.jsonl: one line per input file (ManifestLine).
const WARCManifest = "manifest"

// WARCFilter says where FilterWARC writes and what its warcinfo records
// say.
type WARCFilter struct {
	// Dir is the directory (local path, gs:// or s3:// prefix) of the
	// filtered files; RunID names their temporary files; Replace lets the
	// commit replace an earlier run's filtered files (--overwrite).
	Dir     string
	RunID   string
	Replace bool
	// Options are the reading options the pages were found with, so
	// offsets agree.
	Options warc.Options
	// Date is the run's start (each warcinfo's WARC-Date); Fields are the
	// warcinfo fields every file shares (software, run ID, parameters),
	// after which each file's own follow.
	Date   time.Time
	Fields [][2]string
}

// ManifestLine is the manifest's line of one input file: where its
// filtered copy is, its counts (Records = Kept + Removed, Removed = Pages +
// Linked; Shared are records that would go, pages or linked, but stay
// with their gzip member), its bytes, and every removed record with the page it belongs to
// and the page that page was dropped for.
type ManifestLine struct {
	File     string `json:"file"`
	WARC     string `json:"warc"`
	Records  int    `json:"records"`
	Kept     int    `json:"kept"`
	Removed  int    `json:"removed"`
	Pages    int    `json:"pages_dropped"`
	Linked   int    `json:"linked_removed"`
	Shared   int    `json:"kept_in_shared_member"`
	BytesIn  int64  `json:"bytes_in"`
	BytesOut int64  `json:"bytes_out"`
	// RemovedRecords are in file order.
	RemovedRecords []RemovedRecord `json:"removed_records"`
}

// RemovedRecord is one removed record: its place and identity
// (warc.Removed), the dropped page it belongs to (PageOffset, PageURI;
// the record itself for link "page") and the page kept instead.
type RemovedRecord struct {
	warc.Removed
	PageOffset    int64   `json:"page_offset"`
	PageInner     int64   `json:"page_inner_offset"`
	PageURI       string  `json:"page_uri"`
	KeptByURI     string  `json:"kept_by_uri"`
	KeptByFile    string  `json:"kept_by_file,omitempty"`
	KeptByOffset  *int64  `json:"kept_by_offset,omitempty"`
	KeptBySegment string  `json:"kept_by_segment,omitempty"`
	Jaccard       float64 `json:"jaccard"`
	Method        string  `json:"method"`
}

// pageDrop is what the filter needs of a dropped page's decision.
type pageDrop struct {
	Offset, Inner int64
	URI           string
	KeptByURI     string
	KeptByFile    string
	KeptByOffset  int64
	HasOffset     bool
	KeptBySegment string
	Jaccard       float64
	Method        string
}

// FilterWARC writes, into f.Dir, the filtered copy of every file in files
// (the paths read, ReadWARC) without the pages decisions (decidedPage) drop
// and their records (warc.PlanFilter), and the manifest; and commits the
// directory. It returns the commit's completion, for Outputs.After. Each
// file is read twice more (once to plan, once to copy). A copy is named
// as its input file, or "<8 hex digits of the path's FNV-1a>-<name>" when
// two inputs share a name (or the name starts with '.' or '_', or is the
// manifest's).
func FilterWARC(s beam.Scope, f WARCFilter, files, decisions beam.PCollection) beam.PCollection {
	s = s.Scope("FilterWARC")
	drops := beam.ParDo(s, &dropKeyFn{}, decisions)
	joined := beam.CoGroupByKey(s, beam.ParDo(s, fileKey, files), drops)
	written, lines := beam.ParDo2(s, &filterFileFn{F: f}, joined, beam.SideInput{Input: files})
	manifest := &Outputs{Dir: f.Dir, Shards: 1, RunID: f.RunID}
	WriteLines(s, manifest, WARCManifest, lines)
	return beam.ParDo(s, &warcCommitFn{Dir: f.Dir, RunID: f.RunID, Replace: f.Replace, Want: manifest.expect},
		beam.Impulse(s), beam.SideInput{Input: written}, beam.SideInput{Input: beam.Flatten(s, manifest.written...)})
}

func fileKey(file string) (string, int) { return file, 1 }

// dropKeyFn keys each dropped page's decision by its file.
type dropKeyFn struct{}

func (*dropKeyFn) ProcessElement(d decidedPage, emit func(string, pageDrop)) {
	l := d.Line
	if l.Keep {
		return
	}
	pd := pageDrop{Offset: l.Offset, Inner: l.Inner, URI: l.URI, KeptByURI: l.KeptByURI, KeptByFile: l.KeptByFile,
		KeptBySegment: l.KeptBySegment, Jaccard: l.Jaccard, Method: l.Method}
	if l.KeptByOffset != nil {
		pd.KeptByOffset, pd.HasOffset = *l.KeptByOffset, true
	}
	emit(l.File, pd)
}

// filterFileFn filters one file: plans (warc.PlanFilter), writes the
// warcinfo record and the copy under the temporary name, emits the final
// name and the manifest line.
type filterFileFn struct {
	F WARCFilter
}

func (fn *filterFileFn) ProcessElement(ctx context.Context, file string, opened func(*int) bool, dropIter func(*pageDrop) bool,
	all func(*string) bool, written func(string), line func(string)) error {
	var one int
	if !opened(&one) {
		return fmt.Errorf("filter %s: pages of a file that was not read", file)
	}
	pages := map[warc.Pos]pageDrop{}
	var d pageDrop
	for dropIter(&d) {
		pages[warc.Pos{Offset: d.Offset, Inner: d.Inner}] = d
	}
	var names []string
	var n string
	for all(&n) {
		names = append(names, n)
	}
	name := filteredName(file, names)
	set := make(map[warc.Pos]bool, len(pages))
	for p := range pages {
		set[p] = true
	}
	rc, err := storage.Open(ctx, file)
	if err != nil {
		return fmt.Errorf("filter: %w", err)
	}
	plan, err := warc.PlanFilter(rc, file, fn.F.Options, set)
	rc.Close()
	if err != nil {
		return fmt.Errorf("filter: %w", err)
	}
	ml := ManifestLine{File: file, WARC: name, Records: plan.Records, Removed: len(plan.Removed),
		Shared: len(plan.Shared), BytesIn: plan.Size}
	for _, r := range plan.Removed {
		if r.Link == warc.LinkPage {
			ml.Pages++
		}
	}
	ml.Kept, ml.Linked = ml.Records-ml.Removed, ml.Removed-ml.Pages
	ml.RemovedRecords = make([]RemovedRecord, 0, len(plan.Removed))
	for _, r := range plan.Removed {
		pd := pages[r.Page]
		rr := RemovedRecord{Removed: r, PageOffset: r.Page.Offset, PageInner: r.Page.Inner, PageURI: pd.URI,
			KeptByURI: pd.KeptByURI, KeptByFile: pd.KeptByFile, KeptBySegment: pd.KeptBySegment, Jaccard: pd.Jaccard, Method: pd.Method}
		if pd.HasOffset {
			off := pd.KeptByOffset
			rr.KeptByOffset = &off
		}
		ml.RemovedRecords = append(ml.RemovedRecords, rr)
	}
	fields := slices.Clone(fn.F.Fields)
	fields = append(fields,
		[2]string{"ndd-beam-input", file},
		[2]string{"ndd-beam-removed", fmt.Sprintf("%d of %d records: %d dropped pages and %d records that belong to them (request, metadata, revisit: WARC-Concurrent-To, WARC-Refers-To, or the page's WARC-Target-URI and WARC-Date); every other record is a byte-for-byte copy of the input, its gzip member unchanged; each removed record and its page are in %s",
			ml.Removed, ml.Records, ml.Pages, ml.Linked, output.JSONLines.ShardName(WARCManifest, 0, 1))})
	sum := sha1.Sum([]byte(fn.F.RunID + "\x00" + file))
	info := warc.Warcinfo(uuidURN(sum[:16]), fn.F.Date, name, fields, plan.Gzip)
	err = writeFile(ctx, output.TempPath(fn.F.Dir, fn.F.RunID, name), func(w *bufio.Writer) error {
		if _, err := w.Write(info); err != nil {
			return err
		}
		rc, err := storage.Open(ctx, file)
		if err != nil {
			return err
		}
		defer rc.Close()
		ml.BytesOut, err = plan.Copy(w, rc)
		ml.BytesOut += int64(len(info))
		return err
	})
	if err != nil {
		return fmt.Errorf("filter %s: %w", file, err)
	}
	beam.NewCounter("warc", "files").Inc(ctx, 1)
	beam.NewCounter("warc", "removed_records").Inc(ctx, int64(ml.Removed))
	beam.NewCounter("warc", "removed_bytes").Inc(ctx, plan.RemovedBytes())
	l, err := output.Line(ml)
	if err != nil {
		return err
	}
	written(name)
	line(l)
	return nil
}

// filteredName is the name of file's filtered copy among the input files
// all: its base name, unless another input has the same or it could be
// taken for one of the directory's other files.
func filteredName(file string, all []string) string {
	base := baseName(file)
	clash := base == "" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || strings.HasPrefix(base, WARCManifest+"-")
	for _, o := range all {
		if o != file && baseName(o) == base {
			clash = true
		}
	}
	if !clash {
		return base
	}
	h := fnv.New32a()
	h.Write([]byte(file))
	return fmt.Sprintf("%08x-%s", h.Sum32(), strings.TrimLeft(base, "._"))
}

// baseName is the last element of a path or URL path, without a query.
func baseName(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if i := strings.IndexAny(p, "?#"); i >= 0 && strings.Contains(p, "://") {
		p = p[:i]
	}
	b := path.Base(p)
	if b == "/" || b == "." {
		return ""
	}
	return b
}

// uuidURN formats 16 bytes as a version-5-style "urn:uuid:…" (RFC 9562
// §5.5: name-based, SHA-1), the warcinfo's WARC-Record-ID.
func uuidURN(b []byte) string {
	u := slices.Clone(b[:16])
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("urn:uuid:%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// warcCommitFn commits the filtered directory: renames the filtered files
// and the manifest, removes the manifest's sorted runs and, with Replace,
// the earlier run's filtered files this run did not write, then writes
// _SUCCESS and emits one element (for Outputs.After). Two inputs given
// the same name fail it.
type warcCommitFn struct {
	Dir     string
	RunID   string
	Replace bool
	Want    []string // the manifest's name
}

func (fn *warcCommitFn) ProcessElement(ctx context.Context, _ []byte, written, manifest func(*string) bool, done func(string)) error {
	release, err := enterCommit(fn.RunID)
	if err != nil {
		return err
	}
	defer release()
	var names, got []string
	var n string
	for written(&n) {
		names = append(names, n)
	}
	for manifest(&n) {
		got = append(got, n)
	}
	slices.Sort(names)
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			return fmt.Errorf("commit --write_warc: two input files give the filtered file %s", names[i])
		}
	}
	if !slices.Equal(got, fn.Want) {
		return fmt.Errorf("commit --write_warc: manifest written %v, want %v", got, fn.Want)
	}
	names = append(names, got...)
	fs, err := storage.New(ctx, fn.Dir)
	if err != nil {
		return fmt.Errorf("commit --write_warc: %w", err)
	}
	defer fs.Close()
	if fn.Replace {
		if err := removeIfThere(ctx, fs, output.JoinPath(fn.Dir, output.SuccessFile)); err != nil {
			return fmt.Errorf("commit --write_warc: --overwrite: %w", err)
		}
	}
	o := &Outputs{Dir: fn.Dir, RunID: fn.RunID}
	for _, name := range names {
		if err := rename(ctx, fs, o.TempPath(name), output.JoinPath(fn.Dir, name)); err != nil {
			return fmt.Errorf("commit --write_warc: %w", err)
		}
	}
	if err := removeRuns(ctx, fs, o); err != nil {
		return fmt.Errorf("commit --write_warc: removing sorted runs: %w", err)
	}
	if fn.Replace {
		all, err := fs.List(ctx, output.JoinPath(fn.Dir, "*"))
		if err != nil {
			return fmt.Errorf("commit --write_warc: --overwrite: %w", err)
		}
		for _, p := range all {
			name := path.Base(strings.ReplaceAll(p, "\\", "/"))
			if !IsWARCDirFile(name) || slices.Contains(names, name) || strings.HasPrefix(name, output.TempPrefix+fn.RunID+"-") {
				continue
			}
			if err := removeIfThere(ctx, fs, p); err != nil {
				return fmt.Errorf("commit --write_warc: --overwrite: %w", err)
			}
		}
	}
	if err := writeFile(ctx, o.TempPath(output.SuccessFile), func(*bufio.Writer) error { return nil }); err != nil {
		return fmt.Errorf("commit --write_warc: %w", err)
	}
	if err := rename(ctx, fs, o.TempPath(output.SuccessFile), output.JoinPath(fn.Dir, output.SuccessFile)); err != nil {
		return fmt.Errorf("commit --write_warc: %w", err)
	}
	done("warc")
	return nil
}

// IsWARCDirFile reports whether name is a file FilterWARC writes into its
// directory: a .warc or .warc.gz file (any case), the manifest, _SUCCESS,
// a temporary name or the write probe. --overwrite replaces exactly these
// (the directory's lock, storage.LockFile, is the launch's business).
func IsWARCDirFile(name string) bool {
	l := strings.ToLower(name)
	return strings.HasSuffix(l, ".warc") || strings.HasSuffix(l, ".warc.gz") ||
		name == output.JSONLines.ShardName(WARCManifest, 0, 1) || name == output.SuccessFile ||
		strings.HasPrefix(name, output.TempPrefix) || strings.HasPrefix(name, output.ProbeFile)
}
