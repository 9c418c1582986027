package warc

import (
	"slices"
	"testing"
)

// IsDocumentType is the reader's own rule: on the crafted file of every
// record kind, a candidate is always of a document type, and a readable
// record of any other type is skipped under its type's reason.
func TestIsDocumentType(t *testing.T) {
	i := slices.IndexFunc(craftedCases, func(c craftedCase) bool { return c.name == "record-kinds.warc" })
	data, _ := craftedCases[i].data()
	typeReasons := []string{SkipWarcinfo, SkipRequest, SkipMetadata, SkipRevisit, SkipContinuation, SkipUnknownType}
	kinds := map[string]bool{}
	for _, r := range readAll(t, data, Options{}) {
		if r.Skip == SkipUnreadable {
			continue
		}
		doc := IsDocumentType(r.Type)
		kinds[r.Type] = doc
		if r.Skip == "" && !doc {
			t.Errorf("candidate %s of type %q, not a document type", r.RecordID, r.Type)
		}
		if !doc && !slices.Contains(typeReasons, r.Skip) {
			t.Errorf("record %s of type %q skipped as %q, want its type's reason", r.RecordID, r.Type, r.Skip)
		}
	}
	for _, typ := range []string{"response", "resource", "conversion"} {
		if !kinds[typ] {
			t.Errorf("%q: not in the crafted file or not a document type", typ)
		}
	}
}
