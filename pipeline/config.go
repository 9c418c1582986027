package pipeline

import (
	"context"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/storage" // registers local, gs://, s3://, http(s)://
)

// Validate is config.Config.ValidateValues and CheckPlaces plus the checks that need Beam's
// filesystem registry: each input glob must match at least one file (an
// http(s) URL is taken as it is, unfetched), each local directory hold at
// least one WARC file (storage.WARCFilesIn) and each input list "@LIST"
// must be readable and name at least one path (its entries are not looked
// at: a missing or bad one is a reject at run time); the
// output directory must hold no file this job does not write, and none
// it writes (output.IsJobFile: an earlier run's outputs, _SUCCESS or
// temporary files) unless c.Overwrite; and it must be
// writable (checkOutput: a probe file is created and removed, locally or
// through the output's filesystem). Errors are *config.ParamError (they
// wrap config.ErrConfig). Validate changes nothing but creating a missing
// local output directory; Launch takes the locks, and --overwrite replaces
// the earlier run's files only at the commit (transforms.Outputs.Replace).
func Validate(ctx context.Context, c *config.Config) error {
	if err := ValidateValues(c); err != nil {
		return err
	}
	if err := checkInput(ctx, c.Input, c.InputPrefix); err != nil {
		return err
	}
	if err := c.CheckPlaces(); err != nil {
		return err
	}
	if err := checkAgainst(ctx, c); err != nil {
		return err
	}
	if storage.IsHTTP(c.Output) {
		return config.ParamErrorf(config.LayoutQuoted, "--output", c.Output, "http(s) is read-only; write to a local directory, gs:// or s3://")
	}
	if _, err := usedOutput(ctx, c.Output, c.Overwrite); err != nil {
		return err
	}
	if err := checkOutput(ctx, c.Output, c.RunID); err != nil {
		return err
	}
	return checkWARCDir(ctx, c)
}

// ValidateValues checks every value of c without touching any filesystem:
// c.ValidateValues, then the signature method by building its scheme
// (dedup.CheckMethod, which config cannot). Errors are *config.ParamError.
func ValidateValues(c *config.Config) error {
	if err := c.ValidateValues(); err != nil {
		return err
	}
	return dedup.CheckMethod(c.Params)
}

// usedOutput lists the output directory and returns the paths of the files
// this job writes found there. It is an error to find files the job does
// not write (with overwrite all listed, else the first few), and to find
// the job's unless overwrite. A missing local directory is empty.
func usedOutput(ctx context.Context, out string, overwrite bool) ([]string, error) {
	fs, err := storage.New(ctx, out)
	if err != nil {
		return nil, config.ParamErrorf(config.LayoutQuoted, "--output", out, "%w", err)
	}
	defer fs.Close()
	all, err := fs.List(ctx, output.JoinPath(out, "*"))
	if err != nil {
		return nil, config.ParamErrorf(config.LayoutQuoted, "--output", out, "listing it: %w", err)
	}
	var ours, foreign []string
	for _, p := range all {
		if name := path.Base(p); strings.HasPrefix(name, storage.LockFile) {
			continue // the lock and its temporary files are the lock's business (Launch)
		}
		if output.IsJobFile(path.Base(p)) {
			ours = append(ours, p)
		} else {
			foreign = append(foreign, path.Base(p))
		}
	}
	sort.Strings(ours)
	sort.Strings(foreign)
	switch {
	case len(foreign) > 0 && !overwrite:
		return nil, config.ParamErrorf(config.LayoutQuotedIs, "--output", out, "holds files the job did not write (%s): the outputs would be mixed in with them; choose an empty or new directory", abbreviate(foreign))
	case len(ours) > 0 && !overwrite:
		names := make([]string, len(ours))
		for i, p := range ours {
			names[i] = path.Base(p)
		}
		return nil, config.ParamErrorf(config.LayoutQuotedIs, "--output", out, "holds files of an earlier run (%s): pass --overwrite to replace them, or choose another directory", abbreviate(names))
	case overwrite && len(foreign) > 0:
		return nil, config.ParamErrorf(config.LayoutQuoted, "--output", out, "--overwrite removes only files this job writes, and the directory holds others too: %s; move them or choose another directory", strings.Join(foreign, ", "))
	}
	return ours, nil
}

// abbreviate joins the first few names.
func abbreviate(names []string) string {
	const show = 3
	if len(names) <= show {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:show], ", "), len(names)-show)
}

func checkInput(ctx context.Context, globs []string, prefix string) error {
	for _, g := range globs {
		if strings.TrimSpace(g) == "" {
			return config.ParamErrorf(config.LayoutFlag, "--input", nil, "has an empty glob")
		}
		if list, ok := strings.CutPrefix(g, "@"); ok {
			if _, err := storage.ReadList(ctx, list, prefix); err != nil {
				return config.ParamErrorf(config.LayoutQuoted, "--input", g, "%w", err)
			}
			continue
		}
		if files, isDir, err := storage.WARCFilesIn(g); isDir {
			if err != nil {
				return config.ParamErrorf(config.LayoutQuoted, "--input", g, "%w", err)
			}
			if len(files) == 0 {
				return config.ParamErrorf(config.LayoutQuotedIs, "--input", g, "is a directory with no %s file in it (subdirectories are not read; give a glob such as %s)", strings.Join(storage.WARCSuffixes, " or "), output.JoinPath(g, "*/*.warc.gz"))
			}
			continue
		}
		fs, err := storage.New(ctx, g)
		if err != nil {
			return config.ParamErrorf(config.LayoutQuoted, "--input", g, "%w", err)
		}
		files, err := fs.List(ctx, g)
		fs.Close()
		if err != nil {
			return config.ParamErrorf(config.LayoutQuoted, "--input", g, "%w", err)
		}
		if len(files) == 0 {
			return config.ParamErrorf(config.LayoutQuotedIs, "--input", g, "matches no file")
		}
	}
	return nil
}

// checkOutput checks that the job can write to out before any input is
// read: a local output directory is created, and a probe file
// (output.ProbeFile and the run ID) created in it (O_EXCL, so never through a symlink)
// and removed; any other output (gs://, s3://, any scheme registered with
// Beam's filesystem registry) gets the probe written, closed (which commits
// it on object stores) and removed through its filesystem. A filesystem
// that cannot remove files is only checked for being registered, since the
// probe would be left behind.
func checkOutput(ctx context.Context, out, runID string) error {
	fs, err := storage.New(ctx, out)
	if err != nil {
		return config.ParamErrorf(config.LayoutQuoted, "--output", out, "%w", err)
	}
	defer fs.Close()
	probe := output.JoinPath(out, output.ProbeFile)
	if runID != "" {
		probe += "-" + runID
	}
	if strings.Contains(out, "://") {
		rm, ok := fs.(filesystem.Remover)
		if !ok {
			return nil
		}
		w, err := fs.OpenWrite(ctx, probe)
		if err == nil {
			err = w.Close()
			if rerr := rm.Remove(ctx, probe); err == nil {
				err = rerr
			}
		}
		if err != nil {
			return config.ParamErrorf(config.LayoutQuotedIs, "--output", out, "is not writable: %w", err)
		}
		return nil
	}
	err = os.MkdirAll(out, 0o755)
	if err == nil {
		if err = os.Remove(probe); os.IsNotExist(err) {
			err = nil
		}
	}
	var f *os.File
	if err == nil {
		f, err = os.OpenFile(probe, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	}
	if err == nil {
		err = f.Close()
		os.Remove(probe)
	}
	if err != nil {
		return config.ParamErrorf(config.LayoutQuotedIs, "--output", out, "is not writable: %w", err)
	}
	return nil
}
