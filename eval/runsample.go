package eval

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// DropSample is one dropped page beside the page it was dropped for, as the
// run report shows it: both texts, extracted as the job extracts them, with
// what they share marked.
type DropSample struct {
	Dropped, Kept SamplePage
	Jaccard       float64 // of the decision line
	Method        string  // of the decision line
	// SharedSignatures is the size of the multiset intersection of the two
	// pages' spot signatures (Extractor.Signatures of each text: before
	// the job drops shared boilerplate blocks and applies the IDF range,
	// so it can exceed what the job's Jaccard counted); TopShared are up to
	// sampleTopShared of them, most repeated first.
	SharedSignatures int
	TopShared        []string
	// DroppedShare and KeptShare are the share of the dropped page's
	// main-text words found in the kept page, and of the kept page's in
	// the dropped page (spotsig.Shares of their sketches, what
	// verification reads; dedup.Verify).
	DroppedShare, KeptShare float64
}

// SamplePage is one page of a DropSample.
type SamplePage struct {
	warc.Ref
	Text       string   // the page's text (spotsig.PayloadText), cut at sampleTextBytes
	Cut        bool     // Text was cut
	Shared     [][2]int // byte ranges of Text in a run of at least SharedRunWords words the other page has too, ascending
	Signatures int      // spot signatures of the whole text
	Err        string   // why there is no text ("" when there is)
}

const (
	// SharedRunWords is the shortest run of words two texts must have in
	// common for the report to mark it: short enough to catch a sentence
	// that survived an edit, long enough that "one of the" is not marked.
	SharedRunWords = 5
	// sampleTextBytes caps the text shown per page.
	sampleTextBytes = 16 << 10
	// sampleTopShared is how many shared signatures a sample lists.
	sampleTopShared = 12
)

// dropCandidates keeps the n dropped decisions of lowest Jaccard (ties in
// record order) out of a stream, in memory bounded by 2n.
type dropCandidates struct {
	n  int
	ds []DecisionRecord
}

func (c *dropCandidates) add(d DecisionRecord) {
	if c.n <= 0 {
		return
	}
	c.ds = append(c.ds, d)
	if len(c.ds) >= 2*c.n {
		c.trim()
	}
}

func (c *dropCandidates) trim() {
	slices.SortFunc(c.ds, func(a, b DecisionRecord) int {
		if a.Jaccard != b.Jaccard {
			return cmp.Compare(a.Jaccard, b.Jaccard)
		}
		return a.Ref.Compare(b.Ref)
	})
	c.ds = c.ds[:min(len(c.ds), c.n)]
}

// pick returns up to k of the candidates, lowest Jaccard first (the drops
// nearest τ, where a wrong drop is likeliest), at most one per kept page
// while there are others: a cluster of ten copies shows once.
func (c *dropCandidates) pick(k int) []DecisionRecord {
	c.trim()
	var out, rest []DecisionRecord
	seen := map[string]bool{}
	for _, d := range c.ds {
		key := d.Keeper().Key()
		if seen[key] || len(out) == k {
			rest = append(rest, d)
			continue
		}
		seen[key] = true
		out = append(out, d)
	}
	for _, d := range rest {
		if len(out) == k {
			break
		}
		out = append(out, d)
	}
	return out
}

// LoadDropSamples reads the WARC records of the dropped pages ds and of the
// pages they were dropped for, from the files their decision lines name
// (local paths; relative ones resolved against wd, the run's working
// directory, output.ResolvePath; "" leaves them relative to this
// process's), extracts their text
// and signatures with the job's options p, and marks what each pair
// shares. A record that cannot be read leaves an Err on its page, not an
// error: the report still shows the rest.
func LoadDropSamples(ds []DecisionRecord, p config.Params, wd string) ([]DropSample, error) {
	opts := p.SpotSigOptions()
	ex, err := spotsig.NewExtractor(opts...)
	if err != nil {
		return nil, err
	}
	var out []DropSample
	for _, d := range ds {
		s := DropSample{Jaccard: d.Jaccard, Method: d.Method}
		s.Dropped.Ref, s.Kept.Ref = d.Ref, d.Keeper()
		a, ska := loadSamplePage(&s.Dropped, wd, p, opts, ex)
		b, skb := loadSamplePage(&s.Kept, wd, p, opts, ex)
		if a != nil && b != nil {
			s.DroppedShare, s.KeptShare = spotsig.Shares(ska, skb)
			s.Dropped.Shared, s.Kept.Shared = sharedRuns(s.Dropped.Text, s.Kept.Text, SharedRunWords)
			sa, sb := ex.Signatures(a), ex.Signatures(b)
			s.Dropped.Signatures, s.Kept.Signatures = len(sa), len(sb)
			s.SharedSignatures, s.TopShared = sharedSignatures(sa, sb, sampleTopShared)
		}
		out = append(out, s)
	}
	return out, nil
}

// loadSamplePage reads pg's record and sets its text; it returns the whole
// text and the sketch of its main text (ex.MainText), or nil after setting
// pg.Err.
func loadSamplePage(pg *SamplePage, wd string, p config.Params, opts []spotsig.Option, ex *spotsig.Extractor) ([]byte, spotsig.Sketch) {
	rec, err := readRecordAt(output.ResolvePath(wd, pg.File), pg.Offset, pg.Inner, p.WARCOptions())
	switch {
	case err != nil:
	case rec.RecordID != pg.RecordID:
		err = fmt.Errorf("%s: the record at offset %d+%d is %q, not %q (was the file changed?)", pg.File, pg.Offset, pg.Inner, rec.RecordID, pg.RecordID)
	case rec.Skip != "":
		err = fmt.Errorf("the record is skipped when read here: %s", rec.Skip)
	}
	var text, main []byte
	if err == nil {
		text, _, err = spotsig.PayloadText(rec.Payload, rec.MIMEType(), opts...)
	}
	if err == nil {
		main, err = ex.MainText(rec.Payload, rec.MIMEType())
	}
	if err != nil {
		pg.Err = err.Error()
		return nil, spotsig.Sketch{}
	}
	pg.Text = string(text)
	if len(pg.Text) > sampleTextBytes {
		cut := sampleTextBytes
		for cut > 0 && !utf8.RuneStart(pg.Text[cut]) {
			cut--
		}
		pg.Text, pg.Cut = pg.Text[:cut], true
	}
	return text, spotsig.SketchText(main)
}

var errFound = errors.New("found")

// readRecordAt reads the WARC record at offset (the start of its gzip
// member, or of its record in a plain file) and inner (inside that member)
// of the local file name.
func readRecordAt(name string, offset, inner int64, opts warc.Options) (warc.Record, error) {
	if offset < 0 {
		return warc.Record{}, fmt.Errorf("%s: no record location", name)
	}
	f, err := os.Open(name)
	if err != nil {
		return warc.Record{}, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return warc.Record{}, err
	}
	var found warc.Record
	err = warc.ReadFile(f, name, opts, func(r warc.Record) error {
		if r.Offset == 0 && r.InnerOffset == inner && r.Skip != warc.SkipUnreadable {
			found = r
			return errFound
		}
		if r.Offset > 0 || r.InnerOffset > inner {
			return fmt.Errorf("%s: no record at offset %d+%d", name, offset, inner)
		}
		return nil
	})
	switch {
	case errors.Is(err, errFound):
		return found, nil
	case err == nil:
		return warc.Record{}, fmt.Errorf("%s: no record at offset %d+%d", name, offset, inner)
	}
	return warc.Record{}, err
}

// word is one word of a text: its byte range and lower-cased form.
type word struct {
	start, end int
	norm       string
}

// words splits text into words for marking shared runs: runs of letters
// and digits, each Han, Hiragana or Katakana character a word of its own
// (as spotsig.Tokenize counts them).
func words(text string) []word {
	var out []word
	start := -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, word{start, end, strings.ToLower(text[start:end])})
			start = -1
		}
	}
	for i, r := range text {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			flush(i)
			out = append(out, word{i, i + utf8.RuneLen(r), string(r)})
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(text))
	return out
}

// sharedRuns returns the byte ranges of a and of b that lie in a run of at
// least k consecutive words (case-folded) found in the other text too;
// adjacent marked words merge into one range.
func sharedRuns(a, b string, k int) (ra, rb [][2]int) {
	wa, wb := words(a), words(b)
	ga, gb := kgrams(wa, k), kgrams(wb, k)
	return markRuns(wa, ga, gb, k), markRuns(wb, gb, ga, k)
}

// kgrams returns the k-word sequences of ws, joined by a space; the i-th
// starts at word i.
func kgrams(ws []word, k int) []string {
	if len(ws) < k {
		return nil
	}
	out := make([]string, len(ws)-k+1)
	var b strings.Builder
	for i := range out {
		b.Reset()
		for j := i; j < i+k; j++ {
			if j > i {
				b.WriteByte(' ')
			}
			b.WriteString(ws[j].norm)
		}
		out[i] = b.String()
	}
	return out
}

func markRuns(ws []word, own, other []string, k int) [][2]int {
	set := make(map[string]bool, len(other))
	for _, g := range other {
		set[g] = true
	}
	marked := make([]bool, len(ws))
	for i, g := range own {
		if set[g] {
			for j := i; j < i+k; j++ {
				marked[j] = true
			}
		}
	}
	var out [][2]int
	for i, m := range marked {
		if !m {
			continue
		}
		if n := len(out); n > 0 && i > 0 && marked[i-1] {
			out[n-1][1] = ws[i].end
			continue
		}
		out = append(out, [2]int{ws[i].start, ws[i].end})
	}
	return out
}

// sharedSignatures returns the size of the multiset intersection of a and
// b and up to top of its signatures, most repeated first (then by name).
func sharedSignatures(a, b []string, top int) (int, []string) {
	ca, cb := map[string]int{}, map[string]int{}
	for _, s := range a {
		ca[s]++
	}
	for _, s := range b {
		cb[s]++
	}
	n := 0
	both := map[string]int{}
	for s, x := range ca {
		if y := cb[s]; y > 0 {
			both[s] = min(x, y)
			n += min(x, y)
		}
	}
	ks := sortedByCount(both)
	return n, ks[:min(top, len(ks))]
}
