package transforms

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*dedup.ExactCopy)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*groupHead)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*member)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*mark)(nil)).Elem())
	registerDoFn(&exactShardsFn{})
	registerDoFn(&collapseFn{})
	registerDoFn(&applyMarksFn{})
	register.Emitter2[int, []member]()
	register.Emitter2[int, []groupHead]()
	register.Emitter2[string, []mark]()
	register.Emitter1[dedup.ExactCopy]()
	register.Iter1[[]member]()
	register.Iter1[[]groupHead]()
	register.Iter1[[]mark]()
	register.Function1x1[dedup.ExactCopy, output.PairRecord](exactPairRecord)
}

var exactCopies = beam.NewCounter("exact", "copies")

// Collapsed is what CollapseExact returns.
type Collapsed struct {
	// Reps are the batches with the representatives only, each with its
	// group's Site and Group (a document without copies: its own site,
	// Size 1).
	Reps beam.PCollection
	// Copies are the other members (ExactCopy).
	Copies beam.PCollection
	// Members are the pages of the groups of more than one member, but
	// their best-ranked one, keyed by their representative's
	// warc.Ref.ID (KV<string, dedup.Page>): Decide writes their decisions once
	// it knows their group's.
	Members beam.PCollection
}

// CollapseExact collapses exact copies before partitioning (docs/design.md,
// "Crawl-scale matching"): of the documents with the same vector
// (dedup.ExactKey), only the representative (the first in warc.Ref order,
// dedup.FirstRef) goes on to matching, carrying its group's site, size and
// best-ranked page; each other one becomes an ExactCopy. A group's head
// (representative, best-ranked page, size) is merged per 16-byte key where
// the documents are, and the heads and the members are shuffled in parts
// under the key's shard (bundlemerge.go, "Sharded shuffles"); the worker
// of a shard merges the heads of its keys, then streams the members, so
// no worker holds a group's members; the groups of more than one member
// send the batches of their members what to change (a join on the batch
// ID). The number of
// copies is added to st as exact_copies and to the counter exact/copies.
// A document is a copy only when its main text verifies against the
// representative's at p.VerifyShare (dedup.Verify); one that does not is a
// group of its own, and the group's site, size and best-ranked page are
// those of the members that verify. The representatives equal
// dedup.Collapse's.
func CollapseExact(s beam.Scope, st *Stats, batches beam.PCollection, p config.Params) Collapsed {
	s = s.Scope("CollapseExact")
	keyed, heads := beam.ParDo2(s, &exactShardsFn{Limit: mergeLimit}, batches)
	marks, copies, members := beam.ParDo3(s, &collapseFn{Share: p.VerifyShare}, beam.CoGroupByKey(s, keyed, heads))
	reps := beam.ParDo(s, &applyMarksFn{}, beam.CoGroupByKey(s, beam.ParDo(s, keyBatch, batches), marks))
	st.Count(s, output.StatExactCopies, copies)
	return Collapsed{Reps: reps, Copies: copies, Members: members}
}

// groupHead is what is known of the documents of an exact-copy key Key
// as a whole: their representative (dedup.FirstRef of them), its site and
// main-text sketch, and their number. mergeGroupHeads combines it; the
// group's site, size and best page are those of the members that verify
// against the representative (collapseFn).
type groupHead struct {
	Key     string
	Rep     warc.Ref
	RepSite match.Site
	Sketch  spotsig.Sketch
	Size    int
}

func mergeGroupHeads(a, b groupHead) groupHead {
	if dedup.FirstRef(a.Rep, b.Rep) != a.Rep {
		a, b = b, a
	}
	a.Size += b.Size
	return a
}

// member is one document of the exact-copy key Key: where it is (batch and
// index), its page, site, vector length and main-text sketch.
type member struct {
	Key        string
	Batch      string
	Doc        int
	Page       dedup.Page
	Site       match.Site
	Signatures int
	Sketch     spotsig.Sketch
}

// mark tells a batch what collapsing changes for its document Doc: drop it
// (a copy), or set its group's Site and Group (a representative of more
// than one member).
type mark struct {
	Doc   int
	Drop  bool
	Site  match.Site
	Group dedup.Group
}

// exactShardsFn merges the heads of each exact-copy key of a bundle's
// documents and gathers their members, and emits both in parts keyed by
// the key's shard.
type exactShardsFn struct {
	Limit   int // bytes held before a flush (bundleMerge); 0: mergeBytes
	heads   bundleMerge[string, groupHead]
	members shardParts[member]
}

func (fn *exactShardsFn) StartBundle(func(int, []member), func(int, []groupHead)) {
	fn.heads.start(fn.Limit)
	fn.members.start(fn.Limit)
}

func (fn *exactShardsFn) ProcessElement(b docBatch, members func(int, []member), heads func(int, []groupHead)) {
	full := false
	for i, d := range b.Docs {
		k := dedup.ExactGroupKey(d.Doc)
		h := groupHead{Key: k, Rep: d.Ref, RepSite: d.Site, Sketch: d.Sketch, Size: 1}
		full = fn.heads.put(k, headBytes(&h), func(g *groupHead) {
			if g.Size == 0 {
				*g = h
			} else {
				*g = mergeGroupHeads(*g, h)
			}
		}) || full
		m := member{Key: k, Batch: b.ID, Doc: i, Page: d.Page, Site: d.Site, Signatures: d.Vec.Len(), Sketch: d.Sketch}
		fn.members.add(exactShard(k), m, memberBytes(&m), members)
	}
	if full {
		fn.heads.flushShards(exactShard, headBytes, heads)
	}
}

func (fn *exactShardsFn) FinishBundle(members func(int, []member), heads func(int, []groupHead)) {
	fn.heads.flushShards(exactShard, headBytes, heads)
	fn.members.flush(members)
}

// exactShard is the shard of an exact-copy key.
func exactShard(key string) int {
	var h uint64
	for i := 0; i < len(key) && i < 8; i++ {
		h |= uint64(key[i]) << (8 * i)
	}
	return keyShard(h)
}

// pageBytes estimates a page's encoded size.
func pageBytes(p *dedup.Page) int {
	n := 64 + len(p.File) + len(p.RecordID) + len(p.URI) + len(p.Rank) + len(p.Digest) + len(p.Date)
	for _, c := range p.Capped {
		n += 8 + len(c)
	}
	return n
}

func headBytes(h *groupHead) int {
	return 48 + len(h.Key) + pageBytes(&dedup.Page{Ref: h.Rep}) + h.Sketch.Bytes()
}

func memberBytes(m *member) int {
	return 24 + len(m.Key) + len(m.Batch) + pageBytes(&m.Page) + m.Sketch.Bytes()
}

// collapseFn sees the heads and the members of one shard's exact-copy keys;
// for a key of more than one document it verifies each member against the
// representative (at Share, dedup.Verify), and for a group of more than
// one verified member it marks the representative and the copies in their
// batches (merged per batch within a bundle), turns every copy into an
// ExactCopy, and sends the pages but the best-ranked one to Members. It
// holds the shard's members of such keys, without their sketches, until
// all are read: a group's size, site and best page are those of its
// verified members.
type collapseFn struct {
	Share float64
	merge bundleMerge[string, []mark]
}

// verified is a member of a key of more than one document and its
// verification against the key's representative.
type verified struct {
	m member
	v dedup.Verification
}

func (fn *collapseFn) StartBundle(func(string, []mark), func(dedup.ExactCopy), func(string, dedup.Page)) {
	fn.merge.start(0)
}

func (fn *collapseFn) ProcessElement(ctx context.Context, _ int, members func(*[]member) bool, heads func(*[]groupHead) bool, marks func(string, []mark), exact func(dedup.ExactCopy), pages func(string, dedup.Page)) error {
	groups := map[string]groupHead{}
	var hs []groupHead
	for heads(&hs) {
		for _, h := range hs {
			if g, ok := groups[h.Key]; ok {
				h = mergeGroupHeads(g, h)
			}
			groups[h.Key] = h
		}
		hs = nil
	}
	byKey := map[string][]verified{}
	var ms []member
	for members(&ms) {
		for _, m := range ms {
			h, ok := groups[m.Key]
			if !ok {
				return fmt.Errorf("collapse: exact-copy key %x has no head", m.Key)
			}
			if h.Size < 2 {
				continue
			}
			v := dedup.Verify(m.Sketch, h.Sketch, m.Site, h.RepSite, dedup.Weak(m.Signatures, m.Signatures), fn.Share)
			if m.Page.Ref == h.Rep {
				v = dedup.Verification{ShareA: 1, ShareB: 1, OK: true}
			}
			if v.OK {
				m.Sketch = spotsig.Sketch{}
				byKey[m.Key] = append(byKey[m.Key], verified{m, v})
			}
		}
		ms = nil
	}
	for k, vs := range byKey {
		fn.group(ctx, groups[k].Rep, vs, marks, exact, pages)
	}
	return nil
}

// group marks the verified members vs of the group represented by rep:
// the representative gets the group's site, size and best-ranked page, the
// others become ExactCopies.
func (fn *collapseFn) group(ctx context.Context, rep warc.Ref, vs []verified, marks func(string, []mark), exact func(dedup.ExactCopy), pages func(string, dedup.Page)) {
	if len(vs) < 2 {
		return
	}
	best, site := vs[0].m.Page, vs[0].m.Site
	for _, x := range vs[1:] {
		if x.m.Page.Rank < best.Rank {
			best = x.m.Page
		}
		site = match.MergeSites(site, x.m.Site)
	}
	for _, x := range vs {
		m := x.m
		var mk mark
		if m.Page.Ref == rep {
			mk = mark{Doc: m.Doc, Site: site, Group: dedup.Group{Size: len(vs)}}
			if best.Ref != rep {
				b := best
				mk.Group.Best = &b
			}
		} else {
			mk = mark{Doc: m.Doc, Drop: true}
			exactCopies.Inc(ctx, 1)
			progress.pairs.Add(1) // a line of pairs
			exact(dedup.ExactCopy{Member: m.Page.Ref, Rep: rep, Signatures: m.Signatures, Verified: x.v})
		}
		if m.Page.Ref != best.Ref {
			pages(rep.ID(), m.Page)
		}
		fn.merge.add(m.Batch, 64, func(ms *[]mark) { *ms = append(*ms, mk) }, marks)
	}
}

func (fn *collapseFn) FinishBundle(marks func(string, []mark), _ func(dedup.ExactCopy), _ func(string, dedup.Page)) {
	fn.merge.flush(marks)
}

// applyMarksFn joins a batch with its marks: copies leave it, the
// representatives of groups of more than one member get their group's Site
// and Group, and every other document is a group of one.
type applyMarksFn struct{}

func (*applyMarksFn) ProcessElement(id string, batches func(*docBatch) bool, marks func(*[]mark) bool, emit func(docBatch)) error {
	var b docBatch
	if !batches(&b) {
		return nil // cannot happen: every mark comes from a batch
	}
	byDoc := map[int]mark{}
	var ms []mark
	for marks(&ms) {
		for _, m := range ms {
			byDoc[m.Doc] = m
		}
		ms = nil
	}
	// A new slice, not b.Docs[:0]: a DoFn must not modify its input, and
	// FilterIDF passes on the batches it drops nothing from as they are.
	docs := make([]doc, 0, len(b.Docs))
	for i, d := range b.Docs {
		m, ok := byDoc[i]
		switch {
		case !ok:
			d.Group = dedup.Group{Size: 1}
		case m.Drop:
			continue
		default:
			d.Site, d.Group = m.Site, m.Group
		}
		docs = append(docs, d)
	}
	if len(docs) == 0 {
		return nil
	}
	b.Docs = docs
	emit(b)
	return nil
}

// exactPairRecord is a copy's line of the pairs output.
func exactPairRecord(c dedup.ExactCopy) output.PairRecord { return c.PairRecord() }

// ExactPairs returns the pairs lines of the copies (output.PairRecord, Exact).
func ExactPairs(s beam.Scope, copies beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("ExactPairs"), exactPairRecord, copies)
}
