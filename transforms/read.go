package transforms

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/storage"
	"github.com/ndd-beam/ndd-beam/warc"
)

func init() {
	registerDoFn(&readWARCFn{})
	registerDoFn(&expandListFn{})
	registerDoFn(&locateFn{})
	registerDoFn(&pickPathFn{})
	register.Emitter1[dedup.Candidate]()
	register.Emitter1[output.Reject]()
	register.Emitter1[string]()
	register.Emitter2[string, string]()
	register.Function2x0[output.Reject, func(string)](fileProblem)
	register.Iter1[string]()
}

var (
	readFiles      = beam.NewCounter("read", "files")
	readRecords    = beam.NewCounter("read", "records")
	readCandidates = beam.NewCounter("read", "candidates")
	readSkipped    = beam.NewCounter("read", "skipped")
)

// ReadWARC reads the WARC files named by inputs and returns three
// PCollections: the document candidates (dedup.Candidate, one per HTML response
// record with its payload), the rejects (output.Reject) and the paths of the files
// read (string: each file opened, once, under the path it was read by).
//
// Each input is a path, URL or glob on any filesystem of package storage
// (local, gs://, s3://, http(s):// URLs, which are never globbed), or
// "@LIST": an input list (storage.ReadList) whose entries, under prefix
// when relative, are such paths or globs. A local list is read here, with
// ctx, when the job is built (an error makes Build fail), so it need not
// exist on remote workers; a list elsewhere is read by a worker.
//
// An input (or list entry) that names a local directory reads the WARC
// files directly in it (storage.WARCFilesIn: *.warc, *.warc.gz, not
// recursive); a directory matched by a glob is not entered. Every path is
// checked before it is opened (storage.Check): one that is not a regular
// file (directory, FIFO, device, broken symbolic link) is a
// output.Reject with dedup.ReasonIrregularFile, one that cannot be stat'ed or a
// glob that matches nothing one with dedup.ReasonUnreadableFile. Paths that
// reach the same file (same device and inode, or the same canonical URL)
// are read once, under one of them (pickPathFn); each other one is a
// output.Reject with dedup.ReasonDuplicateFile (the same path given twice is read
// once without a reject). Files are spread over workers by a Reshuffle and
// read by readWARCFn. Rejects of paths count as one record each, so every
// record and every path not read is counted in "read/records" and exactly
// one of "read/candidates" or "read/skipped" (plus
// "read/skipped-<reason>"), and added to st as output.StatRecords; the bytes
// read from the files are counted in "read/bytes". Records and bytes also
// go to this process's Progress.
func ReadWARC(ctx context.Context, s beam.Scope, st *Stats, inputs []string, prefix string, p config.Params) (candidates, rejects, files beam.PCollection, err error) {
	s = s.Scope("ReadWARC")
	var patterns, lists []string
	for _, in := range inputs {
		list, ok := strings.CutPrefix(in, "@")
		switch {
		case !ok:
			patterns = append(patterns, in)
		case storage.IsLocal(list):
			entries, err := storage.ReadList(ctx, list, prefix)
			if err != nil {
				return candidates, rejects, files, err
			}
			patterns = append(patterns, entries...)
		default:
			lists = append(lists, list)
		}
	}
	all := []beam.PCollection{}
	if len(patterns) > 0 {
		all = append(all, beam.CreateList(s, patterns))
	}
	if len(lists) > 0 {
		all = append(all, beam.ParDo(s, &expandListFn{Prefix: prefix}, beam.CreateList(s, lists)))
	}
	if len(all) == 0 {
		return candidates, rejects, files, fmt.Errorf("ReadWARC: no input")
	}
	located, pathRejects := beam.ParDo2(s, &locateFn{}, beam.Reshuffle(s, beam.Flatten(s, all...)))
	unique, dupRejects := beam.ParDo2(s, &pickPathFn{}, beam.GroupByKey(s, located))
	candidates, readRejects, files, quirks := beam.ParDo4(s, &readWARCFn{Options: p.WARCOptions()}, beam.Reshuffle(s, unique))
	rejects = beam.Flatten(s, pathRejects, dupRejects, readRejects)
	st.Count(s, output.StatRecords, candidates)
	st.Count(s, output.StatRecords, rejects)
	st.Add(nameStats(s, beam.Flatten(s, quirks, beam.ParDo(s, fileProblem, rejects))))
	return candidates, rejects, files, nil
}

// expandListFn reads an input list (storage.ReadList) and emits its
// entries. A list that cannot be read fails the bundle: its files are
// unknown, so they cannot be reported one by one.
type expandListFn struct {
	Prefix string
}

func (fn *expandListFn) ProcessElement(ctx context.Context, list string, emit func(string)) error {
	entries, err := storage.ReadList(ctx, list, fn.Prefix)
	if err != nil {
		return err
	}
	for _, e := range entries {
		emit(e)
	}
	return nil
}

// locateFn expands a glob (storage.HasGlob) into the paths it matches and
// a local directory into its WARC files (storage.WARCFilesIn; one with
// none is a output.Reject), and checks each path (storage.Check): a path to read is emitted keyed by the
// identity of its file; any other path, a glob that matches nothing and a
// glob that cannot be listed become Rejects at offset -1.
type locateFn struct{}

func (fn *locateFn) ProcessElement(ctx context.Context, pattern string, emit func(string, string), reject func(output.Reject)) error {
	paths := []string{pattern}
	if files, isDir, err := storage.WARCFilesIn(pattern); isDir {
		if err != nil || len(files) == 0 {
			detail := "a directory with no " + strings.Join(storage.WARCSuffixes, " or ") + " file in it"
			if err != nil {
				detail = "listing the directory: " + err.Error()
			}
			rejectPath(ctx, reject, pattern, dedup.ReasonIrregularFile, detail)
			return nil
		}
		paths = files
	} else if storage.HasGlob(pattern) {
		var err error
		if paths, err = list(ctx, pattern); err != nil || len(paths) == 0 {
			detail := "the glob matches no file"
			if err != nil {
				detail = "listing the glob: " + err.Error()
			}
			rejectPath(ctx, reject, pattern, dedup.ReasonUnreadableFile, detail)
			return nil
		}
	}
	for _, p := range paths {
		c := storage.Check(p)
		if c.Err != nil {
			reason := dedup.ReasonUnreadableFile
			if errors.Is(c.Err, storage.ErrIrregular) {
				reason = dedup.ReasonIrregularFile
			}
			rejectPath(ctx, reject, p, reason, c.Err.Error())
			continue
		}
		emit(c.ID, p)
	}
	return nil
}

// rejectPath rejects input path p at offset -1 and counts it as a record
// read and skipped.
func rejectPath(ctx context.Context, reject func(output.Reject), p, reason, detail string) {
	readRecords.Inc(ctx, 1)
	countReject(ctx, readSkipped, "read", reason)
	reject(output.Reject{Ref: warc.Ref{File: p, Offset: -1}, Reason: reason, Detail: detail})
}

// list lists a glob on its filesystem.
func list(ctx context.Context, glob string) ([]string, error) {
	fs, err := storage.New(ctx, glob)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	return fs.List(ctx, glob)
}

// pickPathFn keeps one path of the paths that reach one file: the bytewise
// smallest clean one (storage.IsClean: "a" before "./a"), else the
// bytewise smallest, so the choice does not depend on input order. Each
// other distinct path is a output.Reject with dedup.ReasonDuplicateFile naming the
// path read.
type pickPathFn struct{}

func (fn *pickPathFn) ProcessElement(ctx context.Context, _ string, paths func(*string) bool, read func(string), reject func(output.Reject)) {
	var all []string
	var p string
	for paths(&p) {
		all = append(all, p)
	}
	slices.SortFunc(all, func(a, b string) int {
		if ca, cb := storage.IsClean(a), storage.IsClean(b); ca != cb {
			if ca {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	all = slices.Compact(all)
	read(all[0])
	for _, dup := range all[1:] {
		rejectPath(ctx, reject, dup, dedup.ReasonDuplicateFile, fmt.Sprintf("the same file as %s, which is read instead", all[0]))
	}
}

// readWARCFn reads one WARC file with warc.ReadFile under the caps of Options
// and emits a dedup.Candidate for each record warc.ReadFile did not skip, a
// output.Reject for each one it did, and the file's path once it opened it. It never fails the bundle for bad input: a
// file that cannot be opened or read becomes a output.Reject with
// dedup.ReasonUnreadableFile, an empty one a output.Reject with
// dedup.ReasonEmptyFile (dedup.ReadFile).
type readWARCFn struct {
	Options warc.Options
}

// ProcessElement reads the file at path (storage.Open, dedup.ReadFile).
// Each quirk the reader repaired in a record (warc.Quirks) is emitted to
// quirk as the statistic name "quirks/<name>" and counted in
// "read/quirk-<name>"; a file opened that holds no WARC record (only
// unreadable stretches) is emitted there too, as an input problem
// (output.StatInputProblemPrefix, output.ProblemNoWARCRecord).
func (fn *readWARCFn) ProcessElement(ctx context.Context, path string, emit func(dedup.Candidate), reject func(output.Reject), opened func(string), quirk func(string)) error {
	readFiles.Inc(ctx, 1)
	rc, err := storage.Open(ctx, path)
	var in io.Reader
	if err == nil {
		defer rc.Close()
		opened(path)
		in = &dedup.CountingReader{R: rc, Add: func(n int64) { countBytes(ctx, n) }}
	}
	records, fileRejects := 0, 0
	dedup.ReadFile(path, in, err, fn.Options, func(c dedup.Candidate) {
		records++
		readRecords.Inc(ctx, 1)
		progress.records.Add(1)
		readCandidates.Inc(ctx, 1)
		countQuirks(ctx, quirk, c.Quirks)
		emit(c)
	}, func(r output.Reject) {
		switch r.Reason {
		case warc.SkipUnreadable:
		case dedup.ReasonUnreadableFile, dedup.ReasonEmptyFile:
			fileRejects++
		default:
			records++
		}
		readRecords.Inc(ctx, 1)
		progress.records.Add(1)
		countReject(ctx, readSkipped, "read", r.Reason)
		countQuirks(ctx, quirk, r.Quirks)
		reject(r)
	})
	if err == nil && records == 0 && fileRejects == 0 {
		quirk(output.StatInputProblemPrefix + path + "\t" + output.ProblemNoWARCRecord)
	}
	return nil
}

// fileProblem emits the statistic name (output.StatInputProblemPrefix) of
// a reject that is an input file not read, or read only in part: missing
// or unreadable, empty, irregular. Duplicates are read under another path.
func fileProblem(r output.Reject, emit func(string)) {
	switch r.Reason {
	case dedup.ReasonUnreadableFile, dedup.ReasonEmptyFile, dedup.ReasonIrregularFile:
		emit(output.StatInputProblemPrefix + r.File + "\t" + r.Reason)
	}
}

// countQuirks emits and counts the quirks of one record.
func countQuirks(ctx context.Context, quirk func(string), quirks []string) {
	for _, q := range quirks {
		beam.NewCounter("read", "quirk-"+q).Inc(ctx, 1)
		quirk(output.StatQuirkPrefix + q)
	}
}

// countReject increments the stage's total of rejects and its per-reason
// counter "<namespace>/skipped-<reason>".
func countReject(ctx context.Context, total beam.Counter, namespace, reason string) {
	total.Inc(ctx, 1)
	beam.NewCounter(namespace, "skipped-"+reason).Inc(ctx, 1)
}
