package transforms

import (
	"context"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/index"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Reading the index of --against: its segments listed and their Parquet
// files read when the job runs, one file per element, and only the index
// pages the new batch can reach passed on (dedup.Reach).

func init() {
	beam.RegisterType(reflect.TypeOf(indexFile{}))
	registerDoFn(&listIndexFn{})
	register.Emitter1[indexFile]()
	registerDoFn(&readIndexFileFn{})
	register.Emitter1[dedup.Prior]()
	beam.RegisterType(reflect.TypeOf(siteVector{}))
	register.Function2x0[docBatch, func(siteVector)](batchVectors)
	register.Function2x0[docBatch, func(string)](batchDigests)
	register.Function2x0[dedup.Page, func(string)](pageDigest)
	register.Emitter1[siteVector]()
	register.Iter1[siteVector]()
	register.Iter1[string]()
}

// indexFile is one Parquet file of an index segment.
type indexFile struct {
	Dir  string // the segment's directory
	File string
	Meta index.Meta
}

// ReadIndex returns the index pages (dedup.Prior) that the new batch can
// reach (dedup.Reach): those sharing a text digest with a page of kept
// (docBatch, the documents after the IDF filter) or unsigned (dedup.Page,
// the pages decided by their text), or a vector with a document of kept,
// or whose vector pairs with one's (τ, and the same-site τ for pages of
// one site). The committed segments of the index
// directories dirs are listed (index.List) and read (index.ReadPagesWhere, one
// Parquet file per element) when the job runs, as Beam's file sources
// list their globs, and streamed past the batch, a side input: memory
// holds the batch and one file's row group, and the pages passed on,
// whatever the size of the index. pipeline.Launch has checked the
// segments (their parameters, files and inputs); one committed since
// whose parameters disagree with p's (index.Check) fails the job. No
// dirs: the zero PCollection, a run without an index, which ExactAgainst
// passes through.
func ReadIndex(s beam.Scope, dirs []string, kept, unsigned beam.PCollection, p config.Params) beam.PCollection {
	if len(dirs) == 0 {
		return beam.PCollection{}
	}
	s = s.Scope("ReadIndex")
	files := beam.ParDo(s, &listIndexFn{Agreement: index.AgreementOf(p)}, beam.CreateList(s, dirs))
	vecs := beam.ParDo(s, batchVectors, kept)
	digests := beam.Flatten(s, beam.ParDo(s, batchDigests, kept), beam.ParDo(s, pageDigest, unsigned))
	return beam.ParDo(s, &readIndexFileFn{Tau: p.Tau, SameSiteTau: p.SameSiteTau}, beam.Reshuffle(s, files),
		beam.SideInput{Input: vecs}, beam.SideInput{Input: digests})
}

// siteVector is what the index reader learns of a new document: its
// vector and site.
type siteVector struct {
	Vec  spotsig.Vector
	Site match.Site
}

func batchVectors(b docBatch, emit func(siteVector)) {
	for _, d := range b.Docs {
		emit(siteVector{Vec: d.Vec, Site: d.Site})
	}
}

func batchDigests(b docBatch, emit func(string)) {
	for _, d := range b.Docs {
		if d.Digest != "" {
			emit(d.Digest)
		}
	}
}

func pageDigest(p dedup.Page, emit func(string)) {
	if p.Digest != "" {
		emit(p.Digest)
	}
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

// readIndexFileFn reads one Parquet file of the index and emits the pages
// the batch (its side inputs: vectors with sites, and text digests)
// reaches; the batch is indexed once per DoFn instance (dedup.NewReach).
type readIndexFileFn struct {
	Tau, SameSiteTau float64

	reach *dedup.Reach
}

func (fn *readIndexFileFn) ProcessElement(ctx context.Context, f indexFile, vecs func(*siteVector) bool, digests func(*string) bool, emit func(dedup.Prior)) error {
	if fn.reach == nil {
		var vs []spotsig.Vector
		var sites []match.Site
		var v siteVector
		for vecs(&v) {
			vs, sites = append(vs, v.Vec), append(sites, v.Site)
			v = siteVector{}
		}
		var ds []string
		var d string
		for digests(&d) {
			ds = append(ds, d)
		}
		fn.reach = dedup.NewReach(vs, sites, ds, fn.Tau, match.SiteRule{SameSiteTau: fn.SameSiteTau})
	}
	read, reached := int64(0), int64(0) // counted per file, not per row
	err := index.ReadPagesWhere(ctx, f.Dir, f.Meta, func(p dedup.Prior) bool {
		read++
		return fn.reach.Holds(p)
	}, func(p dedup.Prior) error {
		reached++
		emit(p)
		return nil
	})
	againstPriors.Inc(ctx, read)
	againstReached.Inc(ctx, reached)
	return err
}
