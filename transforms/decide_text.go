package transforms

import (
	"fmt"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/output"
)

// Pages that did not reach matching (no or too few signatures) are decided
// by their text: an empty text is kept (DecideNoText); among the pages with
// the same text digest the one of smallest rank is kept and the others are
// dropped for it (DecideExactText, match.DecideExact).

// byDigestFn keeps pages with an empty text (DecideNoText) and keys the
// others by their text digest.
type byDigestFn struct{}

func (*byDigestFn) ProcessElement(p dedup.Page, noText func(decidedPage), emit func(string, dedup.Page)) {
	if p.Digest == "" {
		noText(decidedPage{Line: decisionLineFor(p, dedup.DecideNoText)})
		return
	}
	emit(p.Digest, p)
}

// exactTextFn decides the pages of one text digest: the keeper (the page of
// smallest rank, from the combine) is kept, every other page dropped by it
// with Jaccard 1.
type exactTextFn struct{}

func (*exactTextFn) ProcessElement(digest string, pages func(*dedup.Page) bool, keepers func(*dedup.Page) bool, emit func(decidedPage)) error {
	var k dedup.Page
	if !keepers(&k) {
		return fmt.Errorf("decide: text digest %s has no keeper", digest)
	}
	var p dedup.Page
	for pages(&p) {
		d := decidedPage{Line: decisionLineFor(p, dedup.DecideExactText)}
		if p.Ref != k.Ref {
			d.Line.DropFor(k.Ref, 1)
			d.Keeper = k.Ref
		}
		emit(d)
	}
	return nil
}

func decisionLineFor(p dedup.Page, method string) output.Decision {
	return output.Decision{Ref: p.Ref, Keep: true, Method: method, Capped: p.Capped}
}

// pairEnds are the pairs of one page (the key) on their way to
