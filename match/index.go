package match

import (
	"cmp"
	"math"
	"slices"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// This file builds the inverted index of one group for Algorithm 1 (§4.3):
// the group's members sorted by vector length, and per signature its
// inverted list of (document, frequency) occurrences sorted by length, in
// hash buckets. matcher.go runs the queries over it.

// groupSpec names one group's members by index into the corpus.
type groupSpec struct {
	home, guests []int32
	cross        bool // only home–guest pairs (MatchCross)
}

func (s groupSpec) size() int { return len(s.home) + len(s.guests) }

// group is one group's inverted index (§4.3), read-only once built. All
// per-document arrays are indexed by rank (descending length).
type group struct {
	tau       float64
	prune     bool
	linear    bool
	vecs      []spotsig.Vector
	lens      []int32
	pos       []int32 // corpus index
	guest     []bool
	firstHome int32   // smallest rank of a home document
	cross     bool    // only home–guest pairs are reported (MatchCross)
	firstGst  int32   // smallest rank of a guest (cross groups)
	sigOff    []int32 // rank r's signatures are termOf[sigOff[r]:sigOff[r+1]]
	termOf    []int32 // term id of each signature, in the vector's hash order
	df        []int32 // document frequency of each term within the group
	listOff   []int32 // term t's inverted list is lists[listOff[t]:listOff[t+1]]
	lists     []int32 // ranks, ascending (= descending |d|)
	sites     []Site  // by rank; nil: every candidate at tau (WithSiteRule)
	siteTau   float64 // the threshold of a candidate of one site, ≥ tau
}

// setSites gives g the sites of its documents (sites by input index, as
// WithSiteRule takes them) when the rule asks more of a pair of one site
// than tau; otherwise g checks every candidate at tau.
func (g *group) setSites(sites []Site, rule SiteRule) {
	if sites == nil || rule.SameSiteTau <= g.tau {
		return
	}
	g.sites = make([]Site, len(g.pos))
	for r, i := range g.pos {
		g.sites[r] = sites[i]
	}
	g.siteTau = rule.SameSiteTau
}

// builder holds a worker's reusable scratch for building groups.
type builder struct {
	occ   []occurrence // signature occurrences grouped by bucket
	count []int32      // per bucket
	keys  []uint64     // bucket-local open-addressing table
	vals  []int32      // local term id + 1; 0 = empty
	local []int32      // local term id of each occurrence of the bucket
	ldf   []int32      // local document frequencies
}

// bucketTarget is the number of signature occurrences per radix bucket, so
// that a bucket's dictionary (2× that many slots of 12 bytes) stays in L2.
const bucketTarget = 4096

const mixK = 0x9E3779B97F4A7C15 // Fibonacci hashing multiplier

// occurrence is one signature occurrence of a group's document during the
// build: the mixed hash, its position in group.termOf and the rank.
type occurrence struct {
	m    uint64
	p, r int32
}

type member struct {
	pos    int32
	length int32
	guest  bool
}

// build indexes one group. docs/lens are the corpus.
func (b *builder) build(docs []spotsig.Vector, lens []int, spec groupSpec, tau float64, prune bool) *group {
	n := spec.size()
	ms := make([]member, 0, n)
	for _, i := range spec.home {
		ms = append(ms, member{pos: i, length: int32(lens[i])})
	}
	for _, i := range spec.guests {
		ms = append(ms, member{pos: i, length: int32(lens[i]), guest: true})
	}
	slices.SortFunc(ms, func(a, b member) int {
		if c := cmp.Compare(b.length, a.length); c != 0 {
			return c
		}
		if a.guest != b.guest {
			if a.guest {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.pos, b.pos)
	})
	g := &group{
		tau: tau, prune: prune,
		vecs:      make([]spotsig.Vector, n),
		lens:      make([]int32, n),
		pos:       make([]int32, n),
		guest:     make([]bool, n),
		firstHome: int32(n),
		firstGst:  int32(n),
		cross:     spec.cross,
		sigOff:    make([]int32, n+1),
	}
	total := 0
	for r, m := range ms {
		g.vecs[r] = docs[m.pos]
		g.lens[r] = m.length
		g.pos[r] = m.pos
		g.guest[r] = m.guest
		if !m.guest && g.firstHome == int32(n) {
			g.firstHome = int32(r)
		}
		if m.guest && g.firstGst == int32(n) {
			g.firstGst = int32(r)
		}
		g.sigOff[r] = int32(total)
		total += len(g.vecs[r].Hashes)
	}
	if total > math.MaxInt32 {
		// Ranks, offsets and list entries are int32 to halve the index.
		panic("match: a group holds more than 2^31-1 signature occurrences")
	}
	g.sigOff[n] = int32(total)

	// Signature dictionary and inverted lists. Occurrences are radix-split
	// by the top bits of their mixed hash into buckets of ~bucketTarget
	// (a stable scatter, so each bucket keeps rank order); each bucket then
	// gets a small, cache-resident hash table that numbers its distinct
	// signatures, counts their document frequency and lays out their lists.
	// A signature lives in exactly one bucket, so term ids are bucket base +
	// local id, and every list comes out sorted by rank.
	nb := 1
	for nb*bucketTarget < total {
		nb <<= 1
	}
	bbits := uint(bitsLen(nb - 1))
	b.count = grow(b.count, nb+1)
	clear(b.count)
	for r := range n {
		for _, h := range g.vecs[r].Hashes {
			b.count[bucketOf(h, bbits)+1]++
		}
	}
	for i := 1; i <= nb; i++ {
		b.count[i] += b.count[i-1]
	}
	if cap(b.occ) < total {
		b.occ = make([]occurrence, total)
	}
	occ := b.occ[:total]
	cur := b.count[:nb] // cursors; count[i] ends as the start of bucket i+1
	for r := range n {
		off := g.sigOff[r]
		for j, h := range g.vecs[r].Hashes {
			m := h * mixK
			k := bucketOf(h, bbits)
			c := cur[k]
			occ[c] = occurrence{m, off + int32(j), int32(r)}
			cur[k] = c + 1
		}
	}
	// Now count[k] is the end of bucket k (and the start of k+1).
	g.termOf = make([]int32, total)
	g.lists = make([]int32, total)
	g.df = make([]int32, 0, total/2+16)
	g.listOff = make([]int32, 1, total/2+17)
	start := int32(0)
	for k := range nb {
		end := b.count[k]
		b.bucket(g, start, end, bbits)
		start = end
	}
	return g
}

// bucketOf returns the radix bucket of signature hash h.
func bucketOf(h uint64, bbits uint) int {
	if bbits == 0 {
		return 0
	}
	return int((h * mixK) >> (64 - bbits))
}

// bucket numbers the distinct signatures of occurrences [s, e) (one radix
// bucket, in rank order), appends their document frequencies and list
// offsets to g, and writes their term ids and inverted lists.
func (b *builder) bucket(g *group, s, e int32, bbits uint) {
	n := int(e - s)
	if n == 0 {
		return
	}
	size := 16
	for size < 2*n {
		size <<= 1
	}
	b.keys = growU(b.keys, size)
	b.vals = grow(b.vals, size)
	clear(b.vals)
	b.local = grow(b.local, n)
	b.ldf = b.ldf[:0]
	mask := uint64(size - 1)
	tshift := 64 - bbits - uint(bitsLen(size-1))
	for i := range n {
		m := b.occ[int(s)+i].m
		slot := (m >> tshift) & mask
		for {
			v := b.vals[slot]
			if v == 0 {
				b.keys[slot] = m
				b.ldf = append(b.ldf, 0)
				v = int32(len(b.ldf))
				b.vals[slot] = v
			} else if b.keys[slot] != m {
				slot = (slot + 1) & mask
				continue
			}
			b.local[i] = v - 1
			b.ldf[v-1]++
			break
		}
	}
	base := int32(len(g.df))
	g.df = append(g.df, b.ldf...)
	// Turn local df into list cursors, extending listOff.
	pos := g.listOff[len(g.listOff)-1]
	for t, c := range b.ldf {
		b.ldf[t] = pos
		pos += c
		g.listOff = append(g.listOff, pos)
	}
	for i := range n {
		t := b.local[i]
		c := b.ldf[t]
		o := &b.occ[int(s)+i]
		g.lists[c] = o.r
		b.ldf[t] = c + 1
		g.termOf[o.p] = base + t
	}
}

func grow(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

func growU(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	return s[:n]
}

func bitsLen(x int) int {
	n := 0
	for x > 0 {
		n++
		x >>= 1
	}
	return n
}
