package spotsig

import (
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// Tests of the extraction from text to spot signatures: the paper's
// example and chain rules (§3.1, §3.2), the spot set and its languages,
// the signature hash, the caps, concurrent use, and the text blocks
// (chains confined to them, their neighbours).

// The last sentence of both pages of the paper's Figure 1 (§3.2), with the
// true spelling "campaign" (the paper's set prints the typo "campain"; the
// talk's slide 11 prints "campaign").
const paperSentence = "At a rally to kick off a weeklong campaign for the South Carolina primary, " +
	"Obama tried to set the record straight from an attack circulating widely on the " +
	"Internet that is designed to play into prejudices against Muslims and fears of terrorism."

func TestPaperExample(t *testing.T) {
	// §3.2: antecedents {a, an, the, is}, uniform spot distance 1, chain
	// length 2, stopwords = SMART list (§5.3.2); it treats to, off, for,
	// that, from, on as stopwords, which the paper's set requires.
	e, err := NewExtractor(WithSpotSpec("a(1,2),an(1,2),the(1,2),is(1,2)"))
	if err != nil {
		t.Fatal(err)
	}
	got := e.Signatures([]byte(paperSentence))
	want := []string{
		"a:rally:kick", "a:weeklong:campaign", "the:south:carolina", "the:record:straight",
		"an:attack:circulating", "the:internet:designed", "is:designed:play",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("signatures of §3.2 sentence:\n got %q\nwant %q", got, want)
	}
	v, st := e.Extract([]byte(paperSentence))
	if v.Len() != len(want) || len(v.Hashes) != len(want) || st.Signatures != len(want) {
		t.Fatalf("vector |d|=%d distinct=%d stats=%+v, want %d distinct signatures", v.Len(), len(v.Hashes), st, len(want))
	}
	for _, s := range want {
		if _, found := slices.BinarySearch(v.Hashes, SignatureHash(st.Lang+"/"+s)); !found {
			t.Errorf("Extract lacks hash of %q", s)
		}
	}
	if st.Spots != 7 {
		t.Errorf("Spots = %d, want 7 antecedent occurrences", st.Spots)
	}
	// The sentence is one block of 48 tokens (>= DefaultMinBlockTokens), so
	// the paper's whole-document chains give the same set.
	if st.Blocks != 1 || st.BlocksSkipped != 0 {
		t.Errorf("blocks %d skipped %d, want the sentence as one block", st.Blocks, st.BlocksSkipped)
	}
	off := mustExtractor(t, WithSpotSpec("a(1,2),an(1,2),the(1,2),is(1,2)"), WithMinBlockTokens(0))
	if got := off.Signatures([]byte(paperSentence)); !slices.Equal(got, want) {
		t.Fatalf("blocks off: signatures of §3.2 sentence:\n got %q\nwant %q", got, want)
	}
}

// The default spot set is the paper's (§5.3.2): its antecedents, each at
// spot distance 2 with chain length 3.
func TestDefaultSpotSetIsPapers(t *testing.T) {
	e, err := NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	set := e.SpotSet()
	words := map[string]bool{}
	for _, a := range set {
		if a.Distance != 2 || a.Chain != 3 {
			t.Errorf("%v: want d=2, c=3 (§5.3.2)", a)
		}
		words[a.Word] = true
	}
	for _, w := range strings.Fields("a an the is are was were be been being am can could will would have has had having do does did") {
		if !words[w] {
			t.Errorf("default spot set lacks %q (§5.3.2: articles, flexions of be, can, will, have, do)", w)
		}
	}
	if words["that"] || words["of"] {
		t.Errorf("default spot set holds non-§5.3.2 words: %v", set)
	}
}

func mustExtractor(t testing.TB, opts ...Option) *Extractor {
	t.Helper()
	e, err := NewExtractor(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestChainRules checks §3.1 and slide 12 on hand-worked token streams,
// each one short line: blocks off (the paper's whole-document chains).
// English SMART stopwords; "of", "the", "is" are stopwords, Greek letter
// names are not.
func TestChainRules(t *testing.T) {
	cases := []struct {
		name, spec string
		mode       DistanceMode
		text       string
		want       []string
	}{
		// the(2,3): "the second, fourth and sixth word after the antecedent".
		{"d2 plain", "the(2,3)", DistanceTokens, "the alpha beta gamma delta epsilon zeta eta",
			[]string{"the:beta:delta:zeta"}},
		// Landing on a stopword moves on to the next non-stopword, then d
		// tokens further (slide 12: k <- k + d after the skip).
		{"d2 skip", "the(2,3)", DistanceTokens, "the alpha beta of of gamma delta epsilon",
			[]string{"the:beta:gamma:epsilon"}},
		{"d2 skip content mode", "the(2,3)", DistanceContentWords, "the alpha beta of of gamma delta epsilon",
			[]string{"the:beta:delta"}},
		// Cut at the document end once one word is found.
		{"cut", "the(2,3)", DistanceTokens, "the alpha of beta gamma delta",
			[]string{"the:beta:delta"}},
		{"cut to nothing", "the(2,3)", DistanceTokens, "alpha the beta", nil},
		{"only stopwords after", "the(1,2)", DistanceTokens, "alpha the of is", nil},
		// Overlapping chains; antecedents are skipped like stopwords.
		{"overlap", "the(1,2),is(1,2)", DistanceTokens, "the cat is the dog",
			[]string{"the:cat:dog", "is:dog", "the:dog"}},
		// Two specs for one antecedent (§3.1: is(3,1) and is(2,1)).
		{"two specs", "is(3,1),is(2,1)", DistanceTokens, "is alpha beta gamma",
			[]string{"is:gamma", "is:beta"}},
		{"empty", "the(1,2)", DistanceTokens, "", nil},
		{"stopwords only", "the(1,2)", DistanceTokens, "The of and is was; THE, an – a.", nil},
		{"case and punctuation", "the(1,2)", DistanceTokens, "THE South-Carolina, primary!",
			[]string{"the:south:carolina"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Made-up word sequences are no language: force the one the
			// spot spec is in.
			e := mustExtractor(t, WithLanguage("en"), WithSpotSpec(c.spec), WithDistanceMode(c.mode), WithMinBlockTokens(0))
			got := e.Signatures([]byte(c.text))
			if !slices.Equal(got, c.want) {
				t.Fatalf("Signatures(%q) = %q, want %q", c.text, got, c.want)
			}
			v, _ := e.Extract([]byte(c.text))
			if v.Len() != len(c.want) {
				t.Fatalf("|d| = %d, want %d", v.Len(), len(c.want))
			}
		})
	}
}

// SignatureHash must be FNV-1a 64 (fixed, process-independent).
func TestSignatureHashIsFNV1a(t *testing.T) {
	for _, s := range []string{"", "the:south:carolina", "is:designed:play", "a:ünïcödé"} {
		h := fnv.New64a()
		h.Write([]byte(s))
		if got, want := SignatureHash(s), h.Sum64(); got != want {
			t.Errorf("SignatureHash(%q) = %#x, want %#x", s, got, want)
		}
	}
}

func TestRepeatsCounted(t *testing.T) {
	e := mustExtractor(t, WithSpotSpec("the(1,1)"), WithMinBlockTokens(0))
	v, st := e.Extract([]byte("the cat and the cat and the dog"))
	if len(v.Hashes) != 2 || v.Len() != 3 {
		t.Fatalf("vector %+v: want 2 distinct signatures, |d| = 3", v)
	}
	i, _ := slices.BinarySearch(v.Hashes, SignatureHash(st.Lang+"/the:cat"))
	if v.Freqs[i] != 2 {
		t.Fatalf("freq(the:cat) = %d, want 2", v.Freqs[i])
	}
}

func TestCaps(t *testing.T) {
	text := []byte(strings.Repeat("the alpha beta ", 1000)) // 3000 tokens, 1000 spots
	e := mustExtractor(t, WithSpotSpec("the(1,1)"), WithMaxTokens(300))
	v, st := e.Extract(text)
	if !st.TokensTruncated || st.Tokens != 300 || v.Len() != 100 {
		t.Fatalf("max tokens 300: stats %+v |d|=%d, want 300 tokens, truncated, 100 signatures", st, v.Len())
	}
	e = mustExtractor(t, WithSpotSpec("the(1,1)"), WithMaxSignatures(10))
	v, st = e.Extract(text)
	if !st.SignaturesTruncated || v.Len() != 10 || st.Signatures != 10 {
		t.Fatalf("max signatures 10: stats %+v |d|=%d", st, v.Len())
	}
	if got := len(e.Signatures(text)); got != 10 {
		t.Fatalf("Signatures under cap 10 returned %d", got)
	}
	_, st = mustExtractor(t).Extract(text)
	if st.TokensTruncated || st.SignaturesTruncated {
		t.Fatalf("defaults truncated a small text: %+v", st)
	}
	for _, o := range []Option{WithMaxTokens(0), WithMaxSignatures(-1), WithMaxTextBytes(0), WithMaxInputBytes(0), WithSpotSpec("the(0,1)"), WithSpotSpec("the(1"), WithLanguage("xx"), WithMinBlockTokens(-1)} {
		if _, err := NewExtractor(o); err == nil {
			t.Errorf("NewExtractor accepted a bad option")
		}
	}
}

// A page of nothing but antecedents and stopwords: each antecedent finds
// the one non-stopword at the end (its chain walk skips stopwords in O(1);
// docs/benchmarks.md, "Hostile input", measures that the flood stays
// linear); this test holds the signatures it yields.
func TestStopwordFloodSignatures(t *testing.T) {
	text := []byte(strings.Repeat("the of is ", 300000) + "end")
	e := mustExtractor(t, WithMaxSignatures(1<<20))
	v, st := e.Extract(text)
	if st.Tokens != 900001 {
		t.Fatalf("tokens = %d", st.Tokens)
	}
	// Every "the" and "is" (both antecedents, d=2) lands on a stopword and
	// skips to the one non-stopword "end", except the last "is", whose spot
	// 2 tokens on lies past the end: 2*300000 - 1 signatures.
	if v.Len() != 599999 || len(v.Hashes) != 2 {
		t.Fatalf("|d| = %d distinct = %d, want 599999 and 2 (the:end, is:end)", v.Len(), len(v.Hashes))
	}
}

func TestConcurrentExtract(t *testing.T) {
	e := mustExtractor(t)
	texts := [][]byte{[]byte(paperSentence), []byte(strings.Repeat("the cat is on a mat and has had a nap. ", 50)), nil}
	want := make([]Vector, len(texts))
	for i, tx := range texts {
		want[i], _ = e.Extract(tx)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < 50; r++ {
				i := (g + r) % len(texts)
				v, _ := e.Extract(texts[i])
				if !slices.Equal(v.Hashes, want[i].Hashes) || !slices.Equal(v.Freqs, want[i].Freqs) {
					errs <- "concurrent Extract differs"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

func TestParseSpotSet(t *testing.T) {
	got, err := ParseSpotSet("the(2,3), a(2,3),is(3,1)\n# comment\nIS(2,1) , the(2,3),\n\nan")
	if err != nil {
		t.Fatal(err)
	}
	want := []Antecedent{{"the", 2, 3}, {"a", 2, 3}, {"is", 3, 1}, {"is", 2, 1}, {"an", DefaultDistance, DefaultChain}}
	if !slices.Equal(got, want) {
		t.Fatalf("ParseSpotSet = %v, want %v", got, want)
	}
	path := filepath.Join(t.TempDir(), "spots.txt")
	if err := os.WriteFile(path, []byte("the(1,2)\nis"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = ParseSpotSet("@" + path)
	if err != nil || !slices.Equal(got, []Antecedent{{"the", 1, 2}, {"is", DefaultDistance, DefaultChain}}) {
		t.Fatalf("ParseSpotSet(@file) = %v, %v", got, err)
	}
	for _, bad := range []string{"", "# only a comment", "the(1,2", "the(1)", "the(a,b)", "the(0,2)", "the(1,-1)", "two words", "the(1,2,3)", "@/nonexistent/file"} {
		if _, err := ParseSpotSet(bad); err == nil {
			t.Errorf("ParseSpotSet(%q) accepted", bad)
		}
	}
	if langs := Languages(); !slices.Contains(langs, "en") {
		t.Errorf("Languages() = %v, want en among them", langs)
	}
	sw, err := Stopwords("en")
	if err != nil || len(sw) != 570 { // SMART: 571 lines, "would" twice
		t.Errorf("English stopwords: %d words, %v; want the 570 distinct words of SMART's 571-line list", len(sw), err)
	}
}

// Adding a language is adding a folder lang/<code>/ with stopwords.txt and
// antecedents.txt: no code change. Shown with a German folder in a
// stand-in file system next to the embedded English one.
func TestLanguageIsAFolder(t *testing.T) {
	saved := langFS
	defer func() { langFS = saved }()
	en, _ := fs.ReadFile(saved, "lang/en/stopwords.txt")
	enA, _ := fs.ReadFile(saved, "lang/en/antecedents.txt")
	langFS = fstest.MapFS{
		"lang/en/stopwords.txt":   {Data: en},
		"lang/en/antecedents.txt": {Data: enA},
		"lang/de/stopwords.txt":   {Data: []byte("# test list\nder\ndie\ndas\nein\neine\nist\nund\nin\nzu\n")},
		"lang/de/antecedents.txt": {Data: []byte("der(1,2), die(1,2), das(1,2), ein(1,2), eine(1,2), ist(1,2)\n")},
	}
	if got := Languages(); !slices.Equal(got, []string{"de", "en"}) {
		t.Fatalf("Languages() = %v", got)
	}
	de := mustExtractor(t, WithLanguage("de"), WithMinBlockTokens(0))
	got := de.Signatures([]byte("Der Hund ist in der Küche und die Katze schläft."))
	want := []string{"der:hund:küche", "ist:küche:katze", "der:küche:katze", "die:katze:schläft"}
	if !slices.Equal(got, want) {
		t.Fatalf("German signatures %q, want %q", got, want)
	}
	if got := mustExtractor(t, WithLanguage("en"), WithMinBlockTokens(0)).Signatures([]byte("Der Hund ist in der Küche.")); len(got) != 0 {
		t.Fatalf("English extractor found %q in German text", got)
	}
}

// Blocks (WithMinBlockTokens): a '\n' ends a block, no chain crosses it,
// and blocks shorter than the minimum yield nothing. Hand-worked with
// the(1,2): the chain is the next two non-stopwords.
func TestBlocksConfineChains(t *testing.T) {
	text := []byte("the alpha\nbeta gamma the delta epsilon zeta\n\n  the eta")
	cases := []struct {
		min  int
		want []string
	}{
		// Off: one stream, "\n" is white space (§3).
		{0, []string{"the:alpha:beta", "the:delta:epsilon", "the:eta"}},
		// Confined, nothing skipped: the first chain is cut at its
		// block's end after one word (§3.1's rule at the document end).
		{1, []string{"the:alpha", "the:delta:epsilon", "the:eta"}},
		// Blocks of 2, 6 and 2 tokens: only the middle one is kept.
		{3, []string{"the:delta:epsilon"}},
		{6, []string{"the:delta:epsilon"}},
		{7, nil},
	}
	for _, c := range cases {
		e := mustExtractor(t, WithLanguage("en"), WithSpotSpec("the(1,2)"), WithMinBlockTokens(c.min))
		got := e.Signatures(text)
		if !slices.Equal(got, c.want) {
			t.Errorf("min %d: Signatures = %q, want %q", c.min, got, c.want)
		}
		v, st := e.Extract(text)
		if v.Len() != len(c.want) {
			t.Errorf("min %d: |d| = %d, want %d", c.min, v.Len(), len(c.want))
		}
		for _, s := range c.want {
			if _, ok := slices.BinarySearch(v.Hashes, SignatureHash(st.Lang+"/"+s)); !ok {
				t.Errorf("min %d: Extract lacks %q", c.min, s)
			}
		}
		if st.Tokens != 10 {
			t.Errorf("min %d: Tokens = %d, want 10 (skipped blocks count as examined)", c.min, st.Tokens)
		}
	}
	_, st := mustExtractor(t, WithSpotSpec("the(1,2)"), WithMinBlockTokens(3)).Extract(text)
	if st.Blocks != 1 || st.BlocksSkipped != 2 || st.TokensSkipped != 4 {
		t.Errorf("stats %+v, want 1 block kept, 2 skipped with 4 tokens", st)
	}
}

// The token-distance walk must not step over a block end either, and
// DistanceContentWords must not count non-stopwords of the next block.
func TestBlocksDistanceModes(t *testing.T) {
	text := []byte("x the alpha of\nbeta gamma delta\nthe of of")
	for _, m := range []DistanceMode{DistanceTokens, DistanceContentWords} {
		e := mustExtractor(t, WithSpotSpec("the(2,2)"), WithDistanceMode(m), WithMinBlockTokens(1))
		// Block 1 "x the alpha of": 2 tokens after "the" is "of", a
		// stopword, and the block ends: no chain. Block 3 has no word.
		if got := e.Signatures(text); len(got) != 0 {
			t.Errorf("mode %d: Signatures = %q, want none", m, got)
		}
		off := mustExtractor(t, WithSpotSpec("the(2,2)"), WithDistanceMode(m), WithMinBlockTokens(0))
		if got := off.Signatures(text); len(got) == 0 {
			t.Errorf("mode %d, blocks off: no signature, want a chain into the next line", m)
		}
	}
}

// The default is block-confined with DefaultMinBlockTokens, and blocks
// off reproduces the whole-document chains on text without '\n'.
func TestBlocksDefault(t *testing.T) {
	def := mustExtractor(t)
	short := []byte(strings.Repeat("the cat sat ", 6)) // 18 tokens, one block
	if got := def.Signatures(short); len(got) != 0 {
		t.Errorf("default: a block of 18 < %d tokens gave %q", DefaultMinBlockTokens, got)
	}
	long := []byte(strings.Repeat("the cat sat on a mat and has had a nap ", 20))
	multi := []byte(strings.ReplaceAll(string(long), "nap ", "nap\n"))
	off := mustExtractor(t, WithMinBlockTokens(0))
	a, b := def.Signatures(long), off.Signatures(long)
	if len(a) == 0 || !slices.Equal(a, b) {
		t.Errorf("one long line: default %d signatures, blocks off %d; want the same", len(a), len(b))
	}
	// Eleven-token lines are all skipped by default; blocks off ignores
	// the line breaks.
	if got := def.Signatures(multi); len(got) != 0 {
		t.Errorf("default on 11-token lines: %q", got)
	}
	if got := off.Signatures(multi); !slices.Equal(got, b) {
		t.Errorf("blocks off: line breaks changed the signatures")
	}
}

// Each block names the blocks just before and after it in the text (Prev,
// Next), counting every block of at least the minimum tokens, also one
// without signatures, and skipping shorter ones; 0 at either end.
func TestBlockNeighbours(t *testing.T) {
	ex, err := NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	paras := []string{
		"The council approved the plan for the harbour and the mayor said the work will begin in the spring of next year with a new pier.",
		"A short line in between",
		"Paris, Berlin, Madrid, Rome, Vienna, Prague, Warsaw, Lisbon, Dublin, Oslo, Helsinki, Athens, Budapest, Brussels, Amsterdam, Bern, Sofia, Riga, Vilnius, Tallinn, Zagreb.",
		"The engineers have found that the old bridge is safe and the trains will run again on the line when the repairs are done in May.",
	}
	page := "<html><body>"
	for _, p := range paras {
		page += "<p>" + p + "</p>"
	}
	blocks, _, err := ex.ExtractPayloadBlocks([]byte(page+"</body></html>"), "text/html")
	if err != nil {
		t.Fatal(err)
	}
	h := func(i int) uint64 { return BlockHash([]byte(paras[i])) }
	want := map[uint64][2]uint64{h(0): {0, h(2)}, h(3): {h(2), 0}} // paragraph 2 has no antecedent: no signatures, no Block
	if len(blocks) != len(want) {
		t.Fatalf("%d blocks, want %d: %+v", len(blocks), len(want), blocks)
	}
	for _, b := range blocks {
		if w := want[b.Hash]; b.Prev != w[0] || b.Next != w[1] {
			t.Errorf("block %x: prev %x next %x, want %x %x", b.Hash, b.Prev, b.Next, w[0], w[1])
		}
	}
}
