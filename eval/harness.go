package eval

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// Doc is one labelled page of a Corpus: its truth record and its visible
// text, extracted once.
type Doc struct {
	Truth int    // index into Corpus.Truth.Records
	Text  []byte // spotsig.PayloadText of the payload; nil if none
	Skip  string // why the page has no text, a reject reason of the job (dedup.Reasons; "" if it has text)
}

// Corpus is a labelled WARC file read once: every record the truth knows of
// a type that holds a document (warc.IsDocumentType: the reader's rule), in
// WARC order, with its text. Methods and thresholds are then run
// over the cached texts (Run), so a τ sweep costs signatures and matching
// only.
type Corpus struct {
	Truth *Truth
	Docs  []Doc

	Unlabelled int      // documents in the WARC the truth does not know
	Injected   int      // pages that got an Injection's block (LoadCorpusInjected)
	Missing    []string // record IDs of truth records not found in the WARC
	ReadTime   time.Duration

	mu   sync.Mutex
	sigs map[string]rawVectors // SignKey -> unfiltered vectors
}

type rawVectors struct {
	docs []spotsig.Vector
	took time.Duration
}

// LoadCorpus reads the WARC file at path (warc.ReadFile, default caps),
// keeps the records truth knows (by record ID, falling back to target URI)
// and extracts their text with spotsig.PayloadText(opts...) on all cores. A
// record the WARC reader skips, or whose text extraction fails, stays in the
// corpus with Skip set and no text: it can then only be missed, which
// counts against recall as it would in the job.
func LoadCorpus(path string, truth *Truth, opts ...spotsig.Option) (*Corpus, error) {
	return LoadCorpusInjected(path, truth, Injection{}, opts...)
}

// LoadCorpusInjected is LoadCorpus with inj's boilerplate block inserted
// into the payloads it chooses before their text is extracted (Injection;
// the zero Injection changes nothing). Corpus.Injected counts them.
func LoadCorpusInjected(path string, truth *Truth, inj Injection, opts ...spotsig.Option) (*Corpus, error) {
	start := time.Now()
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()

	type job struct {
		i   int
		rec warc.Record
	}
	c := &Corpus{Truth: truth}
	jobs := make(chan job, 64)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				text, _, err := spotsig.PayloadText(j.rec.Payload, j.rec.MIMEType(), opts...)
				mu.Lock()
				d := &c.Docs[j.i]
				switch {
				case errors.Is(err, spotsig.ErrBadOption):
					if firstErr == nil {
						firstErr = err
					}
				case err != nil:
					d.Skip, _ = dedup.TextReason(err, j.rec.MIMEType())
				default:
					d.Text = text
				}
				mu.Unlock()
			}
		}()
	}
	seen := make([]bool, len(truth.Records))
	var pending []job
	err = warc.ReadFile(f, path, warc.Options{}, func(r warc.Record) error {
		if !warc.IsDocumentType(r.Type) {
			return nil
		}
		ti, ok := truth.Lookup(r.RecordID, r.TargetURI)
		if !ok {
			c.Unlabelled++
			return nil
		}
		if seen[ti] {
			return fmt.Errorf("%s: record %s (%s) read twice", path, r.RecordID, r.TargetURI)
		}
		seen[ti] = true
		c.Docs = append(c.Docs, Doc{Truth: ti, Skip: r.Skip})
		if r.Skip == "" {
			var ok bool
			if r.Payload, ok = inj.apply(r.RecordID, r.Payload); ok {
				c.Injected++
			}
			pending = append(pending, job{len(c.Docs) - 1, r})
		}
		return nil
	})
	// Docs is complete before any worker writes into it.
	for _, j := range pending {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if firstErr != nil {
		return nil, firstErr
	}
	for i, ok := range seen {
		if !ok {
			c.Missing = append(c.Missing, truth.Records[i].RecordID)
		}
	}
	c.ReadTime = time.Since(start)
	return c, nil
}

// Signer turns a page's text into its signature vector (spot signatures,
// shingles, words). It must be safe for concurrent use.
type Signer func(text []byte) spotsig.Vector

// A Method is one near-duplicate detector of the comparison (paper §5.2): a
// signature scheme, an optional IDF filter, and a matcher.
type Method struct {
	Name   string // table row, e.g. "SpotSigs", "3-Shingles", "LSH-S"
	Params string // parameters beyond the table's columns, for the reader

	Sign Signer
	// SignKey names the signature scheme; methods with the same non-empty
	// SignKey must have the same Sign, and the corpus computes it once.
	SignKey string
	// IDF, if non-nil, filters every vector with spotsig.FilterIDF over
	// the corpus (normalised IDF, §5.1) before matching.
	IDF *spotsig.IDFRange
	// MinSignatures drops documents with fewer signatures (Len, after
	// IDF filtering) from matching; 0 keeps every non-empty document.
	MinSignatures int
	// Grouping builds the matcher for threshold tau over the filtered
	// vectors (descriptive words need the corpus). Nil means the exact
	// SpotSigs matcher match.Match with partitioning range Rho.
	Grouping func(tau float64, docs []spotsig.Vector) match.Grouping
	Rho      int // for the exact matcher; 0 means match.DefaultRho (§5.1)
	// NoTau marks methods without a similarity threshold (I-Match,
	// descriptive words): Run evaluates them once.
	NoTau bool
	K, L  int // LSH rows per band and bands, for the table (0 = n/a)
	// Memory returns the lower-bound memory of the method's data
	// structures in bytes (§5.4 accounting) from the number of documents
	// and the number of (document, distinct signature) entries. Nil means
	// the exact matcher's: vectors (4+2 bytes per entry), one 4-byte
	// inverted-list pointer per entry, 4 bytes per document id.
	Memory func(docs int, entries int64) int64
}

// Vectors is a method's signatures over a corpus, computed once and reused
// for every τ.
type Vectors struct {
	Docs       []spotsig.Vector // aligned with Corpus.Docs; empty if dropped
	Distinct   int              // distinct signatures over the corpus (#Spots)
	Entries    int64            // Σ over documents of distinct signatures
	Dropped    int              // documents below MinSignatures (or empty)
	SignTime   time.Duration    // text -> vectors, IDF filter included
	Signatures int64            // Σ |d|, signatures with repeats
}

// Sign computes m's vectors over c on all cores (once per SignKey), then
// applies the IDF filter and MinSignatures. SignTime covers both, the
// cached part at the cost of its first computation.
func (c *Corpus) Sign(m Method) Vectors {
	raw := c.raw(m)
	start := time.Now()
	docs := slices.Clone(raw.docs)
	if m.IDF != nil {
		docs = spotsig.FilterIDF(docs, *m.IDF)
	}
	v := Vectors{Docs: docs}
	distinct := map[uint64]struct{}{}
	for i, d := range docs {
		if len(d.Hashes) == 0 || d.Len() < m.MinSignatures {
			docs[i] = spotsig.Vector{}
			v.Dropped++
			continue
		}
		v.Entries += int64(len(d.Hashes))
		v.Signatures += int64(d.Len())
		for _, h := range d.Hashes {
			distinct[h] = struct{}{}
		}
	}
	v.Distinct = len(distinct)
	v.SignTime = raw.took + time.Since(start)
	return v
}

// raw returns m's unfiltered vectors, computing them unless cached.
func (c *Corpus) raw(m Method) rawVectors {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.sigs[m.SignKey]; ok && m.SignKey != "" {
		return r
	}
	start := time.Now()
	docs := make([]spotsig.Vector, len(c.Docs))
	parallel(len(c.Docs), func(i int) {
		if c.Docs[i].Text != nil {
			docs[i] = m.Sign(c.Docs[i].Text)
		}
	})
	r := rawVectors{docs: docs, took: time.Since(start)}
	if m.SignKey != "" {
		if c.sigs == nil {
			c.sigs = map[string]rawVectors{}
		}
		c.sigs[m.SignKey] = r
	}
	return r
}

// Run is one evaluated configuration: a method at one τ.
type Run struct {
	Method    string
	Params    string
	IDF       *spotsig.IDFRange
	Tau       float64 // NaN for methods without a threshold
	K, L      int
	Distinct  int
	MemoryMB  float64
	SignTime  time.Duration // signatures (extraction + IDF filter)
	KeyTime   time.Duration // hashing into groups (Keys); 0 for the exact matcher
	MatchTime time.Duration // matching (grouping + MatchGroup, or match.Match)
	Pairs     []match.Pair  // indices into Corpus.Docs
	Result    Result
}

// Evaluate runs m over precomputed vectors at threshold tau and scores the
// pairs against the corpus truth.
func (c *Corpus) Evaluate(m Method, v Vectors, tau float64) Run {
	r := Run{Method: m.Name, Params: m.Params, IDF: m.IDF, Tau: tau, K: m.K, L: m.L,
		Distinct: v.Distinct, SignTime: v.SignTime}
	if m.NoTau {
		r.Tau = nanTau
	}
	mem := m.Memory
	if mem == nil {
		mem = ExactMemory
	}
	r.MemoryMB = float64(mem(len(v.Docs)-v.Dropped, v.Entries)) / (1 << 20)
	if m.Grouping == nil {
		rho := m.Rho
		if rho == 0 {
			rho = match.DefaultRho
		}
		start := time.Now()
		r.Pairs = match.Match(v.Docs, tau, rho)
		r.MatchTime = time.Since(start)
	} else {
		g := m.Grouping(tau, v.Docs)
		r.Pairs, r.KeyTime, r.MatchTime = RunGrouping(g, v.Docs)
	}
	idx := make([]IndexPair, len(r.Pairs))
	for i, p := range r.Pairs {
		idx[i] = IndexPair{c.Docs[p.A].Truth, c.Docs[p.B].Truth}
	}
	r.Result = EvaluateIndex(c.Truth, idx)
	return r
}

// ExactMemory is the §5.4 lower bound for the exact matcher: 4+2 bytes per
// (document, signature) entry for the weighted vectors, one 4-byte pointer
// per entry in the inverted lists, and a 4-byte id per document.
func ExactMemory(docs int, entries int64) int64 { return entries*(4+2+4) + int64(docs)*4 }

// LSHMemory returns the §5.4 lower bound for LSH with l bands: the weighted
// vectors (6 bytes per entry), l 4-byte band hashes per document and a
// 4-byte id per document.
func LSHMemory(l int) func(int, int64) int64 {
	return func(docs int, entries int64) int64 { return entries*6 + int64(docs)*int64(l)*4 + int64(docs)*4 }
}

// BucketMemory is the lower bound of single-key hashing (I-Match: a 20-byte
// SHA-1 digest and a 4-byte id per document).
func BucketMemory(docs int, _ int64) int64 { return int64(docs) * (20 + 4) }

// RunGrouping runs a Grouping over a whole corpus in process, the way the
// Beam job does it: every document goes to the groups Keys names, each group
// is matched by MatchGroup, indices are mapped back, pairs found in several
// groups are kept once (only legal when Repeats), and the result is sorted by
// (A, B). Empty vectors are never grouped. It returns the time spent in Keys
// and in grouping plus matching.
func RunGrouping(g match.Grouping, docs []spotsig.Vector) (pairs []match.Pair, keyTime, matchTime time.Duration) {
	start := time.Now()
	keys := match.KeyAll(g, docs)
	keyTime = time.Since(start)
	start = time.Now()
	pairs = match.MatchKeyed(g, docs, keys)
	return pairs, keyTime, time.Since(start)
}

// parallel calls fn(0..n-1) on all cores.
func parallel(n int, fn func(i int)) {
	workers := min(max(1, runtime.GOMAXPROCS(0)), n)
	var wg sync.WaitGroup
	next := make(chan int, 256)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
