package dedup

import (
	"context"
	"os"
	"runtime"
	"sync"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Result is what Run computes, the in-process counterpart of the Beam job's
// outputs: Records == len(Docs) + len(Rejects) always holds.
type Result struct {
	Records int             // WARC records read, incl. unreadable stretches and files
	Docs    []Doc           // documents that reached matching, in file and record order, IDF-filtered vectors
	Rejects []output.Reject // every other record, in file and record order
	// Capped counts, per cap name (Cap*), the documents a cap applied
	// to (kept with what was read).
	Capped map[string]int
	// Languages counts, per language, the documents with >= 1 signature
	// after the shared blocks are dropped (DropSharedBlocks), before the
	// IDF filter, each in the language of its main content then
	// (Language; without the shared-block rule the Signer's Lang);
	// empty for a scheme without languages.
	Languages map[string]int
	// SharedBlocks and SharedBlockSignatures count the peripheral blocks
	// dropped as shared boilerplate (DropSharedBlocks; over all documents,
	// with repeats) and their signatures.
	SharedBlocks, SharedBlockSignatures int
	// SharedTextPages counts the pages of shared text only, which keep
	// their blocks' signatures hashed with their site (ResolveBlocks).
	SharedTextPages int
	// SignaturesBeforeIDF and SignaturesAfterIDF are Σ|d| over the
	// documents with >= 1 signature, before and after the IDF filter
	// (before: after DropSharedBlocks).
	SignaturesBeforeIDF, SignaturesAfterIDF int
	// RepOf gives, for each of Docs, the index of the representative of
	// its exact-copy group (Collapse; RepOf[i] == i for a representative).
	// Only representatives are matched.
	RepOf []int
	// Candidates are the candidate pairs of representatives, indices into
	// Docs, A < B, sorted by (A, B), Jaccard as match.WeightedJaccard
	// computes it: the pairs of the Grouping that the same-site rule
	// (config.Params.SiteRule) keeps; Verified[i] is the verification of
	// Candidates[i] on the two main texts (Verify).
	Candidates []match.Pair
	Verified   []Verification
	// Pairs are the near-duplicate pairs: the Candidates that verify.
	Pairs []match.Pair
	// Pages are the records that became text (Docs and the rejects for no
	// or too few signatures), in file and record order; Decisions has one
	// keep/drop decision per page, in the same order (Decide), and Clusters
	// each kept page that dropped others.
	Pages     []Page
	Decisions []output.Decision
	Clusters  []output.Cluster
	// DroppedForPrior counts the pages dropped for a page of the index a
	// run was matched against (RunAgainst; 0 otherwise).
	DroppedForPrior int
}

// PairRecords returns the lines of the pairs output, unsorted: the
// Candidates with their verification, then one Exact line per document
// that is not its group's representative, then one line per page dropped
// as an exact copy of another page's text (TextCopyRecord).
func (r *Result) PairRecords() []output.PairRecord {
	out := make([]output.PairRecord, len(r.Candidates), len(r.Candidates)+len(r.Docs))
	for i, p := range r.Candidates {
		a, b := r.Docs[p.A], r.Docs[p.B]
		out[i] = NewPairRecord(a.Ref, a.Vec.Len(), b.Ref, b.Vec.Len(), p.Jaccard, r.Verified[i])
	}
	for i, rep := range r.RepOf {
		if rep != i {
			m, g := r.Docs[i], r.Docs[rep]
			v := Verify(m.Sketch, g.Sketch, m.Site, g.Site, false, 0)
			v.OK = true
			out = append(out, ExactCopy{Member: m.Ref, Rep: g.Ref, Signatures: m.Vec.Len(), Verified: v}.PairRecord())
		}
	}
	for _, d := range r.Decisions {
		if p, ok := TextCopyRecord(d); ok {
			out = append(out, p)
		}
	}
	return out
}

// Run is the whole job in process on the local files, in the given order:
// each file read by ReadWARC, candidates signed by Sign on all cores with
// the signer of p (NewSigner), blocks outside the main content of
// at least p.SharedBlockPages pages dropped (DropSharedBlocks), the IDF
// filter of §5.1
// (spotsig.FilterIDF over the documents with >= 1 signature, skipped when
// the range keeps all), documents below p.MinSignatures rejected, exact
// copies collapsed (Collapse), and the representatives matched by the
// Grouping of p (config.NewGrouping) as match.RunGrouping runs it, pairs of
// one site kept only at p.SameSiteTau (match.SiteRule); then every page is
// kept or dropped (Decide, with the keep policy of p). p must be valid (config.Params.Validate). Errors: only a bad
// configuration; unreadable files are Rejects. Memory: the documents'
// vectors and, while they are signed, the payloads of up to 4 × GOMAXPROCS
// candidates.
func Run(ctx context.Context, p config.Params, files []string) (*Result, error) {
	return RunEdited(ctx, p, files, nil)
}

// RunEdited is Run with edit, when non-nil, called on each candidate before
// it is signed, from several goroutines at once: it may replace the
// candidate's payload (the quality harness injects boilerplate with it,
// eval.Injection).
func RunEdited(ctx context.Context, p config.Params, files []string, edit func(*Candidate)) (*Result, error) {
	slots, err := SignFiles(ctx, p, files, edit)
	if err != nil {
		return nil, err
	}
	return finish(p, slots, nil)
}

// RunAgainst is Run for a batch matched against the pages earlier runs
// kept (prior, read from their index segments; docs/design.md, "Scheduled
// batches"): every index page ranks before every page of files and is
// kept; a page that copies an index page exactly (its text digest or its
// vector, ExactPrior) is dropped for it without matching; the others are
// matched among themselves and with the index pages (AgainstPairs; index
// pages never with each other) and decided together with them. Result
// holds the new pages only (Decisions; RepOf and Pairs: the exact copies
// and pairs among the new documents that are not copies of index pages);
// a decision dropped for an index page names its Segment, and
// DroppedForPrior counts those. The statistics of the shared-block rule
// are the batch's own. Errors: a bad configuration, or one CheckAgainst
// refuses.
func RunAgainst(ctx context.Context, p config.Params, files []string, prior []Prior) (*Result, error) {
	if err := CheckAgainst(p); err != nil {
		return nil, err
	}
	slots, err := SignFiles(ctx, p, files, nil)
	if err != nil {
		return nil, err
	}
	if prior == nil {
		prior = []Prior{}
	}
	return finish(p, slots, prior)
}

// finish is Run after SignFiles: shared blocks, IDF, minimum, exact
// copies, matching and decisions over the signed records slots, against
// the index pages prior when prior is non-nil (RunAgainst).
func finish(p config.Params, slots []*Signed, prior []Prior) (*Result, error) {
	grouping, err := config.NewGrouping(p)
	if err != nil {
		return nil, err
	}
	res := &Result{Capped: map[string]int{}, Languages: map[string]int{}}
	res.Records = len(slots)
	var docs []Doc
	for _, s := range slots {
		if s.HasPage {
			res.Pages = append(res.Pages, s.Doc.Page)
		}
		if !s.IsDoc() {
			res.Rejects = append(res.Rejects, s.Reject)
			continue
		}
		for _, c := range s.Doc.Capped {
			res.Capped[c]++
		}
		docs = append(docs, s.Doc)
	}
	res.SharedBlocks, res.SharedBlockSignatures, res.SharedTextPages = DropSharedBlocks(docs, p.SharedBlockPages)
	if p.VerifyShare > 0 { // without verification, as the job: no marks
		MarkTemplates(docs)
	}
	for _, d := range docs {
		if d.Lang != "" {
			res.Languages[d.Lang]++
		}
	}
	vecs := make([]spotsig.Vector, len(docs))
	for i, d := range docs {
		vecs[i] = d.Vec
		res.SignaturesBeforeIDF += d.Vec.Len()
	}
	if r := p.IDFRange(); !r.KeepsAll() {
		vecs = spotsig.FilterIDF(vecs, r)
	}
	for i, d := range docs {
		d.Vec = vecs[i]
		res.SignaturesAfterIDF += d.Vec.Len()
		if rej, ok := CheckMinSignatures(d, p.MinSignatures); !ok {
			res.Rejects = append(res.Rejects, rej)
			continue
		}
		res.Docs = append(res.Docs, d)
	}
	var sites []match.Site
	res.RepOf, sites = Collapse(res.Docs, p.VerifyShare)
	var reps []int
	var kept []spotsig.Vector
	var keptSites []match.Site
	for i, r := range res.RepOf {
		if r == i {
			reps = append(reps, i)
			kept = append(kept, res.Docs[i].Vec)
			keptSites = append(keptSites, sites[i])
		}
	}
	res.Pairs = match.RunGrouping(grouping, kept)
	res.Pairs = p.SiteRule().Filter(res.Pairs, keptSites)
	res.Candidates, res.Pairs = res.Pairs, nil
	for i, c := range res.Candidates {
		c.A, c.B = reps[c.A], reps[c.B]
		res.Candidates[i] = c
		v := Verify(res.Docs[c.A].Sketch, res.Docs[c.B].Sketch, sites[c.A], sites[c.B], Weak(res.Docs[c.A].Vec.Len(), res.Docs[c.B].Vec.Len()), p.VerifyShare)
		res.Verified = append(res.Verified, v)
		if v.OK {
			res.Pairs = append(res.Pairs, c)
		}
	}
	if prior != nil {
		err = decideAgainst(res, prior, p, grouping, p.SignatureMethod())
	} else {
		res.Decisions, res.Clusters, err = Decide(res.Pages, res.Docs, res.RepOf, res.Pairs, p.SignatureMethod())
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// SignFiles is Run's first phase: every record of the local files, in file
// and record order, read by ReadWARC and, for candidates, signed by Sign on
// all cores with the signer and keep policy of p (edit, when non-nil, first
// changes each candidate; it is called from several goroutines at once).
// Errors: only a bad configuration.
func SignFiles(ctx context.Context, p config.Params, files []string, edit func(*Candidate)) ([]*Signed, error) {
	signer, err := NewSigner(p)
	if err != nil {
		return nil, err
	}
	policy, err := p.Policy()
	if err != nil {
		return nil, err
	}
	// Records keep their read order: each gets a slot, filled by a worker.
	var slots []*Signed
	type job struct {
		c Candidate
		s *Signed
	}
	jobs := make(chan job, 4*runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if edit != nil {
					edit(&j.c)
				}
				*j.s = Sign(ctx, signer, policy, j.c)
			}
		}()
	}
	for _, name := range files {
		f, err := os.Open(name)
		ReadFile(name, f, err, p.WARCOptions(), func(c Candidate) {
			s := &Signed{}
			slots = append(slots, s)
			jobs <- job{c, s}
		}, func(r output.Reject) {
			slots = append(slots, &Signed{Reject: r})
		})
		if err == nil {
			f.Close()
		}
	}
	close(jobs)
	wg.Wait()
	return slots, nil
}
