package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/storage"
)

// checkAgainst checks the index directories of --against and
// --write_index at launch. For --against: the run's parameters must allow
// it (dedup.CheckAgainst); every directory must hold a committed segment
// (except the --write_index directory, which this run may start: Launch);
// every segment must have been written with the parameters that must
// agree (index.Check: the first that differs is named), hold what its
// segment.json says (index.Verify: its files, whole Parquet files, its
// page count), and not hold pages of this run's input files (a day run
// again: the segment is named). For --write_index: its committed segments
// must agree with the run's parameters as well, and none may have the
// name this run's segment gets. Errors are *config.ParamError (they wrap
// config.ErrConfig).
func checkAgainst(ctx context.Context, c *config.Config) error {
	run := index.AgreementOf(c.Params)
	if c.WriteIndex != "" {
		segs, err := index.Segments(ctx, c.WriteIndex)
		if err != nil {
			return config.ParamErrorf(config.LayoutFlagOf, "--write_index", c.WriteIndex, "%w", err)
		}
		if len(segs) > 0 {
			infos, err := index.List(ctx, []string{c.WriteIndex})
			if err != nil {
				return config.ParamErrorf(config.LayoutFlagOf, "--write_index", c.WriteIndex, "%w", err)
			}
			for _, in := range infos {
				if err := index.Check(run, in.Meta); err != nil {
					return config.ParamErrorf(config.LayoutFlagOf, "--write_index", c.WriteIndex, "%w", err)
				}
				if c.IndexLabel == "" {
					continue
				}
				if in.Meta.Segment == index.SegmentName(c.IndexLabel) {
					return config.ParamErrorf(config.LayoutFlagOf, "--write_index", c.WriteIndex, "segment %s is there already, committed by an earlier run labelled %s: give another --index_label, or remove %s to run that day again", in.Meta.Segment, c.IndexLabel, in.Dir)
				}
				for _, r := range in.Meta.Runs() {
					if r.Segment == index.SegmentName(c.IndexLabel) {
						return config.ParamErrorf(config.LayoutFlagOf, "--write_index", c.WriteIndex, "segment %s is there already, compacted into %s: give another --index_label, or leave its pages out (ndd-eval index compact --without=%s %s) to run that day again", r.Segment, in.Meta.Segment, r.Segment, c.WriteIndex)
					}
				}
			}
		}
	}
	if len(c.Against) == 0 {
		return nil
	}
	if err := dedup.CheckAgainst(c.Params); err != nil {
		return config.ParamErrorf(config.LayoutCause, "--against", c.Against, "%w", err)
	}
	var dirs []string
	for _, a := range c.Against {
		if c.WriteIndex != "" && sameDir(a, c.WriteIndex) {
			if segs, err := index.Segments(ctx, a); err == nil && len(segs) == 0 {
				continue // this run starts the index (Launch)
			}
		}
		dirs = append(dirs, a)
	}
	if len(dirs) == 0 {
		return nil
	}
	infos, err := index.List(ctx, dirs)
	if err != nil {
		return config.ParamErrorf(config.LayoutFlagOf, "--against", c.Against, "%w", err)
	}
	for _, in := range infos {
		if err := index.Check(run, in.Meta); err != nil {
			return config.ParamErrorf(config.LayoutFlagOf, "--against", c.Against, "%w", err)
		}
		if err := index.Verify(ctx, in); err != nil {
			return config.ParamErrorf(config.LayoutFlagOf, "--against", c.Against, "%w", err)
		}
	}
	inputs, err := inputFiles(ctx, c.Input, c.InputPrefix)
	if err != nil {
		return config.ParamErrorf(config.LayoutQuoted, "--input", strings.Join(c.Input, ","), "%w", err)
	}
	for _, in := range infos {
		for _, r := range in.Meta.Runs() {
			var common []string
			for _, f := range r.Inputs {
				if _, ok := slices.BinarySearch(inputs, f); ok {
					common = append(common, f)
				}
			}
			if len(common) == 0 {
				continue
			}
			if r.Segment != in.Meta.Segment {
				return config.ParamErrorf(config.LayoutFlagOf, "--against", c.Against,
					"index segment %s (compacted into %s) already holds the pages of this run's input %s (%d of its files in common): this crawl was run against the index before; to run it again, leave its pages out first (ndd-eval index compact --without=%s %s)", r.Segment, in.Meta.Segment, common[0], len(common), r.Segment, in.Index)
			}
			return config.ParamErrorf(config.LayoutFlagOf, "--against", c.Against,
				"index segment %s already holds the pages of this run's input %s (%d of its files in common): this crawl was run against the index before; to run it again, remove that segment (%s) first", in.Meta.Segment, common[0], len(common), in.Dir)
		}
	}
	return nil
}

// inputFiles returns the files the inputs name, sorted, local paths
// absolute (storage.Absolute): globs and directories expanded, input lists
// read and their entries expanded. A glob that cannot be listed is an
// error; entries that name nothing are left out (the run rejects them).
func inputFiles(ctx context.Context, inputs []string, prefix string) ([]string, error) {
	var patterns []string
	for _, in := range inputs {
		if list, ok := strings.CutPrefix(in, "@"); ok {
			entries, err := storage.ReadList(ctx, list, prefix)
			if err != nil {
				return nil, err
			}
			patterns = append(patterns, entries...)
			continue
		}
		patterns = append(patterns, in)
	}
	var files []string
	for _, p := range patterns {
		if fs, isDir, err := storage.WARCFilesIn(p); isDir {
			if err == nil {
				files = append(files, fs...)
			}
			continue
		}
		if !storage.HasGlob(p) {
			files = append(files, p)
			continue
		}
		fs, err := storage.New(ctx, p)
		if err != nil {
			return nil, err
		}
		matched, err := fs.List(ctx, p)
		fs.Close()
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", p, err)
		}
		files = append(files, matched...)
	}
	for i, f := range files {
		files[i] = storage.Absolute(f)
	}
	slices.Sort(files)
	return slices.Compact(files), nil
}
