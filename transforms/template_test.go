package transforms

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
)

func init() {
	register.Function1x1[doc, string](templateSummary)
}

// templateSummary is a document's key and its host template's marks.
func templateSummary(d doc) string {
	return fmt.Sprintf("%s %x %x", d.Key(), d.Sketch.TemplateHost, d.Sketch.Template)
}

// MarkTemplates marks the real pages of testdata as dedup.MarkTemplates
// does, whether each host's sample reaches its worker in one part per
// document (merge limit 1) or per bundle. testdata has hosts with a
// template (the Wikipedia captures, the shop's product pages) and pages
// of hosts without one.
func TestMarkTemplatesEqualsInProcess(t *testing.T) {
	files, err := filepath.Glob("../testdata/*.warc*")
	if err != nil || len(files) == 0 {
		t.Fatalf("testdata WARC files: %v %v", files, err)
	}
	p := config.DefaultParams()
	ddocs := signedDocs(t, files, p, 0)
	docs := make([]doc, len(ddocs))
	for i, d := range ddocs {
		docs[i] = doc{Doc: d}
	}
	hosts := dedup.MarkTemplates(ddocs)
	var want []string
	marked := 0
	for _, d := range ddocs {
		want = append(want, templateSummary(doc{Doc: d}))
		if d.Sketch.TemplateHost != 0 {
			marked++
		}
	}
	if hosts < 2 || marked == 0 || marked == len(ddocs) {
		t.Fatalf("testdata: %d hosts with a template, %d of %d pages marked; want hosts with and without one", hosts, marked, len(ddocs))
	}
	defer func(l int) { mergeLimit = l }(mergeLimit)
	for _, limit := range []int{1, 0} {
		mergeLimit = limit
		pl, s := beam.NewPipelineWithRoot()
		out := MarkTemplates(s, beam.CreateList(s, inBatches(docs, 20)), p)
		passert.Equals(s, beam.ParDo(s, templateSummary, docsOf(s, out)), strs(want)...)
		ptest.RunAndValidate(t, pl)
	}
}
