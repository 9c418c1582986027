package transforms

import (
	"context"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/index"
)

// Reading the index of --against: its segments listed and their Parquet
// files read when the job runs, one file per element.

func init() {
	beam.RegisterType(reflect.TypeOf(indexFile{}))
	registerDoFn(&listIndexFn{})
	register.Emitter1[indexFile]()
	registerDoFn(&readIndexFileFn{})
	register.Emitter1[dedup.Prior]()
}

// indexFile is one Parquet file of an index segment.
type indexFile struct {
	Dir  string // the segment's directory
	File string
	Meta index.Meta
}

// ReadIndex returns the pages (dedup.Prior) of the committed segments of
// the index directories dirs, listed (index.List) and read
// (index.ReadPages, one Parquet file per element) when the job runs, as
// Beam's file sources list their globs. pipeline.Launch has checked the
// segments (their parameters, files and inputs); one committed since
// whose parameters disagree with p's (index.Check) fails the job. No
// dirs: the zero PCollection, a run without an index, which ExactAgainst
// passes through.
func ReadIndex(s beam.Scope, dirs []string, p config.Params) beam.PCollection {
	if len(dirs) == 0 {
		return beam.PCollection{}
	}
	s = s.Scope("ReadIndex")
	files := beam.ParDo(s, &listIndexFn{Agreement: index.AgreementOf(p)}, beam.CreateList(s, dirs))
	return beam.ParDo(s, &readIndexFileFn{}, beam.Reshuffle(s, files))
}

// listIndexFn emits the Parquet files of the segments of one index
// directory, each segment checked against the run's Agreement.
type listIndexFn struct {
	Agreement index.Agreement
}

func (fn *listIndexFn) ProcessElement(ctx context.Context, dir string, emit func(indexFile)) error {
	infos, err := index.List(ctx, []string{dir})
	if err != nil {
		return err
	}
	for _, in := range infos {
		if err := index.Check(fn.Agreement, in.Meta); err != nil {
			return err
		}
		for _, f := range in.Meta.Files {
			m := in.Meta
			m.Files = []string{f}
			emit(indexFile{Dir: in.Dir, File: f, Meta: m})
		}
	}
	return nil
}

type readIndexFileFn struct{}

func (*readIndexFileFn) ProcessElement(ctx context.Context, f indexFile, emit func(dedup.Prior)) error {
	return index.ReadPages(ctx, f.Dir, f.Meta, func(p dedup.Prior) error {
		againstPriors.Inc(ctx, 1)
		emit(p)
		return nil
	})
}
