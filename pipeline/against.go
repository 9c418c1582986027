package pipeline

import (
	"context"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/index"
)

// checkAgainst checks the index directories of --against at launch: the
// run's parameters must allow it (dedup.CheckAgainst), every directory
// must hold a committed segment, and every segment must have been written
// with the parameters that must agree (index.Check: the first that
// differs is named). Errors are *config.ParamError (they wrap config.ErrConfig).
func checkAgainst(ctx context.Context, c *config.Config) error {
	if len(c.Against) == 0 {
		return nil
	}
	if err := dedup.CheckAgainst(c.Params); err != nil {
		return config.ParamErrorf(config.LayoutCause, "--against", c.Against, "%w", err)
	}
	infos, err := index.List(ctx, c.Against)
	if err != nil {
		return config.ParamErrorf(config.LayoutFlagOf, "--against", c.Against, "%w", err)
	}
	run := index.AgreementOf(c.Params)
	for _, in := range infos {
		if err := index.Check(run, in.Meta); err != nil {
			return config.ParamErrorf(config.LayoutFlagOf, "--against", c.Against, "%w", err)
		}
	}
	return nil
}
