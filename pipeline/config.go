package pipeline

import (
	"context"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"   // gs:// inputs and outputs
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/transforms"
)

// Validate is config.Config.ValidateValues plus the checks that need Beam's
// filesystem registry: each input glob must match at least one file and the
// output directory must be writable (a local output directory is created;
// gs:// outputs are only checked for a registered filesystem). Errors wrap
// config.ErrConfig.
func Validate(ctx context.Context, c *config.Config) error {
	if err := c.ValidateValues(); err != nil {
		return err
	}
	if err := checkInput(ctx, c.Input); err != nil {
		return err
	}
	return checkOutput(ctx, c.Output)
}

func checkInput(ctx context.Context, globs []string) error {
	for _, g := range globs {
		if strings.TrimSpace(g) == "" {
			return config.Errorf("--input has an empty glob")
		}
		fs, err := filesystem.New(ctx, g)
		if err != nil {
			return config.Errorf("--input %q: %v", g, err)
		}
		files, err := fs.List(ctx, g)
		fs.Close()
		if err != nil {
			return config.Errorf("--input %q: %v", g, err)
		}
		if len(files) == 0 {
			return config.Errorf("--input %q matches no file", g)
		}
	}
	return nil
}

// checkOutput writes and removes a probe file in the output directory.
func checkOutput(ctx context.Context, out string) error {
	fs, err := filesystem.New(ctx, out)
	if err != nil {
		return config.Errorf("--output %q: %v", out, err)
	}
	defer fs.Close()
	if strings.HasPrefix(out, "gs://") {
		return nil // no write without credentials at launch; the job reports failures
	}
	probe := transforms.JoinPath(out, ".ndd-beam-write-probe")
	w, err := fs.OpenWrite(ctx, probe)
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return config.Errorf("--output %q is not writable: %v", out, err)
	}
	if r, ok := fs.(filesystem.Remover); ok {
		_ = r.Remove(ctx, probe)
	}
	return nil
}
