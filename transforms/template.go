package transforms

import (
	"context"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*dedup.HostPage)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*hostTemplate)(nil)).Elem())
	registerDoFn(&hostSampleFn{})
	registerDoFn(&markTemplateFn{})
	register.Function4x0[context.Context, uint64, func(*[]dedup.HostPage) bool, func(hostTemplate)](hostTemplateFn)
	register.Emitter2[uint64, []dedup.HostPage]()
	register.Emitter1[hostTemplate]()
	register.Iter1[[]dedup.HostPage]()
	register.Iter1[hostTemplate]()
}

var templateHosts = beam.NewCounter("template", "hosts")

// hostTemplate is one host's template (spotsig.HostTemplate) in the side
// input of markTemplateFn.
type hostTemplate struct {
	Host     uint64
	Elements []uint32
}

// MarkTemplates marks every document of the batches against its host's
// template (dedup.MarkTemplates): each document's page of its host's sample (dedup.PageOf)
// is merged per host within a bundle, the samples of a host merged again
// after the shuffle (dedup.HostSample.Add, associative and commutative),
// and the hosts' templates, a few hundred hashes each, reach every batch
// as a side input. The result equals dedup.MarkTemplates on the same
// documents. Without verification (p.VerifyShare 0) the batches pass
// unmarked. The counter template/hosts counts the hosts with a template.
func MarkTemplates(s beam.Scope, batches beam.PCollection, p config.Params) beam.PCollection {
	if p.VerifyShare <= 0 {
		return batches
	}
	s = s.Scope("MarkTemplates")
	samples := beam.ParDo(s, &hostSampleFn{Limit: mergeLimit}, batches)
	tpls := beam.ParDo(s, hostTemplateFn, beam.GroupByKey(s, samples))
	return beam.ParDo(s, &markTemplateFn{}, batches, beam.SideInput{Input: tpls})
}

// hostSampleFn merges the samples of each host's documents within a
// bundle.
type hostSampleFn struct {
	Limit int // bytes held before a flush (bundleMerge); 0: mergeBytes
	merge bundleMerge[uint64, []dedup.HostPage]
}

func (fn *hostSampleFn) StartBundle(func(uint64, []dedup.HostPage)) { fn.merge.start(fn.Limit) }

func (fn *hostSampleFn) ProcessElement(b docBatch, emit func(uint64, []dedup.HostPage)) {
	for _, d := range b.Docs {
		h := dedup.HostOf(d.Page)
		if h == 0 {
			continue
		}
		one := dedup.PageOf(d.Doc)
		fn.merge.add(h, 4*len(one.Min)+len(one.Digest)+48, func(s *[]dedup.HostPage) {
			*s = dedup.HostSample(*s).AddPage(one)
		}, emit)
	}
}

func (fn *hostSampleFn) FinishBundle(emit func(uint64, []dedup.HostPage)) { fn.merge.flush(emit) }

// hostTemplateFn merges a host's samples and emits its template when it
// has one.
func hostTemplateFn(ctx context.Context, host uint64, parts func(*[]dedup.HostPage) bool, emit func(hostTemplate)) {
	var all dedup.HostSample
	var part []dedup.HostPage
	for parts(&part) {
		all = all.Add(part)
		part = nil
	}
	if t := all.Template(); len(t) > 0 {
		templateHosts.Inc(ctx, 1)
		emit(hostTemplate{Host: host, Elements: t})
	}
}

// markTemplateFn marks each document of a batch against its host's
// template, from the side input of every host's (read once per bundle).
// It sets the marks in the batch it is given: the batch's only other
// reader, hostSampleFn, reads the sketches' hashes, not their marks, and
// has read every batch before the side input exists.
type markTemplateFn struct {
	tpls map[uint64]spotsig.HostTemplate
}

func (fn *markTemplateFn) StartBundle(_ func(*hostTemplate) bool, _ func(docBatch)) { fn.tpls = nil }

func (fn *markTemplateFn) ProcessElement(b docBatch, tpls func(*hostTemplate) bool, emit func(docBatch)) {
	if fn.tpls == nil {
		fn.tpls = map[uint64]spotsig.HostTemplate{}
		var t hostTemplate
		for tpls(&t) {
			fn.tpls[t.Host] = t.Elements
			t = hostTemplate{}
		}
	}
	for i := range b.Docs {
		h := dedup.HostOf(b.Docs[i].Page)
		if t, ok := fn.tpls[h]; ok {
			b.Docs[i].Sketch.MarkTemplate(h, t)
		}
	}
	emit(b)
}
