package spotsig

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndd-beam/ndd-beam/warc"
)

// An anonymous block beside the article (no markup cue) is outside the
// main content; the article's paragraphs, spread over two sibling
// containers, are inside it; a page whose text is all in one container
// has no periphery.
func TestExtractPayloadBlocksMainContent(t *testing.T) {
	e := mustExtractor(t)
	para := func(topic string) string { return reviewPara(topic, "report on the results") }
	notice := "<div><p>We use cookies on this website to give you the best experience, and you can change the settings at any time in the privacy policy of the site.</p></div>"
	page := "<html><body><div class=wrap><div class=story>" + para("the budget") + para("the harbour") +
		"</div><div class=more>" + para("the school") + "</div></div>" + notice + "</body></html>"
	blocks, _, err := e.ExtractPayloadBlocks([]byte(page), "text/html")
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint64]bool{ // block hash -> Main
		BlockHash([]byte(stripTags(para("the budget")))):  true,
		BlockHash([]byte(stripTags(para("the harbour")))): true,
		BlockHash([]byte(stripTags(para("the school")))):  true,
		BlockHash([]byte(stripTags(notice))):              false,
	}
	if len(blocks) != len(want) {
		t.Fatalf("%d blocks, want %d: %+v", len(blocks), len(want), blocks)
	}
	for _, b := range blocks {
		main, ok := want[b.Hash]
		if !ok || main != b.Main || b.Vec.Len() == 0 {
			t.Errorf("block %x: Main %v, %d signatures; want known block with Main %v", b.Hash, b.Main, b.Vec.Len(), main)
		}
	}

	flat := "<html><body>" + para("the budget") + para("the harbour") + "</body></html>"
	blocks, st, err := e.ExtractPayloadBlocks([]byte(flat), "text/html")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		if !b.Main {
			t.Errorf("flat page: block %x outside the main content", b.Hash)
		}
	}
	if st.Extract.PeripheralBlocks != 0 || len(blocks) != 2 {
		t.Errorf("flat page: %d blocks, %d peripheral", len(blocks), st.Extract.PeripheralBlocks)
	}
}

// Words inside links do not score (readability's link density): a river
// of linked teasers beside an article, longer than the article, stays
// outside the main content, and a paragraph with a link in it still scores
// its other words (nymag.com's article pages in the gold set are built like
// this; before, their shared river was their main content).
func TestExtractPayloadBlocksLinkRiver(t *testing.T) {
	e := mustExtractor(t)
	para := func(topic string) string { return reviewPara(topic, `<a href=/report>report on the results</a>`) }
	teaser := func(topic string) string {
		return "<a href=/story><p>Officials confirmed on Tuesday that " + topic + " will be discussed again at the meeting of the regional board next week.</p></a>\n"
	}
	river := ""
	for _, topic := range []string{"the bridge", "the museum", "the tram line", "the library", "the stadium", "the port"} {
		river += teaser(topic)
	}
	page := "<html><body><div class=wrap><div class=story>" + para("the budget") + para("the harbour") +
		"</div></div><div class=latest>" + river + "</div></body></html>"
	blocks, _, err := e.ExtractPayloadBlocks([]byte(page), "text/html")
	if err != nil {
		t.Fatal(err)
	}
	article := map[uint64]bool{
		BlockHash([]byte(stripTags(para("the budget")))):  true,
		BlockHash([]byte(stripTags(para("the harbour")))): true,
	}
	if len(blocks) != 2+6 {
		t.Fatalf("%d blocks, want 8", len(blocks))
	}
	for _, b := range blocks {
		if b.Main != article[b.Hash] {
			t.Errorf("block %x (%d signatures): Main %v, want %v", b.Hash, b.Vec.Len(), b.Main, article[b.Hash])
		}
	}
}

// reviewPara is a paragraph of about 30 words about topic, with report (its words
// "report on the results", plain or marked up) in the middle.
func reviewPara(topic, report string) string {
	return "<p>The committee said that " + topic + " would be reviewed by the council in the spring, " +
		"and a " + report + " of the review is expected to be published before the summer.</p>\n"
}

func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// BlockHash reads digits as 0 and ignores case and punctuation, so a
// notice that differs only in a date is the same block.
func TestBlockHashNormalises(t *testing.T) {
	a := BlockHash([]byte("Updated on 12 May 2024: we use cookies."))
	b := BlockHash([]byte("updated ON 03 may 1999 — We use cookies"))
	c := BlockHash([]byte("updated on may: we use cookies"))
	if a != b || a == c {
		t.Errorf("BlockHash: %x %x %x", a, b, c)
	}
}

// On real pages, the blocks of ExtractPayloadBlocks merged together are
// exactly ExtractPayload's vector, and some pages have a periphery.
func TestExtractPayloadBlocksEqualsExtractPayload(t *testing.T) {
	pages := readGoldPages(t, 300, nil)
	e, err := NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	withPeriphery := 0
	for _, p := range pages {
		v, _, err := e.ExtractPayload(p.Body, p.ContentType)
		blocks, st, err2 := e.ExtractPayloadBlocks(p.Body, p.ContentType)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("%s: errors %v and %v", p.URI, err, err2)
		}
		got := MergeBlocks(Vector{}, blocks, nil)
		if !equalVectors(got, v) {
			t.Fatalf("%s: merged blocks (%d signatures) differ from ExtractPayload (%d)", p.URI, got.Len(), v.Len())
		}
		for i := 1; i < len(blocks); i++ {
			if blocks[i-1].Hash >= blocks[i].Hash {
				t.Fatalf("%s: block hashes not ascending and distinct", p.URI)
			}
		}
		if st.Extract.PeripheralBlocks > 0 {
			withPeriphery++
		}
	}
	if withPeriphery == 0 || withPeriphery == len(pages) {
		t.Errorf("%d of %d pages have text outside their main content", withPeriphery, len(pages))
	}
	t.Logf("%d of %d pages have text outside their main content", withPeriphery, len(pages))
}

func equalVectors(a, b Vector) bool {
	if len(a.Hashes) != len(b.Hashes) {
		return false
	}
	for i := range a.Hashes {
		if a.Hashes[i] != b.Hashes[i] || a.Freqs[i] != b.Freqs[i] {
			return false
		}
	}
	return true
}

// Hostile nesting: 100,000 unclosed containers cost O(1) each and the
// text is still extracted.
func TestLayoutHostileNesting(t *testing.T) {
	e, err := NewExtractor()
	if err != nil {
		t.Fatal(err)
	}
	page := strings.Repeat("<div>", 100000) + "<p>The committee said that the budget would be reviewed by the council in the spring, and a report is expected before the summer.</p>"
	blocks, _, err := e.ExtractPayloadBlocks([]byte(page), "text/html")
	if err != nil || len(blocks) != 1 || !blocks[0].Main {
		t.Fatalf("blocks %+v, err %v", blocks, err)
	}
}

// A word is a Tokenize token in the layout too (countWords): a Japanese
// shop page's product description, written without spaces, is its main
// content, and the menus, whose only white-space separated "words" are the
// "│" separators between their links, are not. On the real ClueWeb sample
// (testdata/resiliparse__clueweb-quirk.warc.gz, 29 pages of one shop), the
// menus used to win every page's main content, so the shared-block rule
// kept them and 24 of the 29 products were dropped as near-duplicates.
func TestMainContentJapaneseShop(t *testing.T) {
	path := filepath.Join("..", "testdata", "resiliparse__clueweb-quirk.warc.gz")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e := mustExtractor(t)
	shop := 0
	err = warc.ReadFile(f, path, warc.Options{}, func(r warc.Record) error {
		if r.Skip != "" || !strings.Contains(r.TargetURI, "uraharajuku.st/shopdetail/") {
			return nil
		}
		shop++
		blocks, st, err := e.ExtractPayloadBlocks(r.Payload, r.MIMEType())
		if err != nil {
			t.Fatalf("%s: %v", r.TargetURI, err)
		}
		if st.Extract.Lang != "ja" {
			t.Errorf("%s: language %q, want ja", r.TargetURI, st.Extract.Lang)
		}
		main := map[uint64]bool{}
		for _, b := range blocks {
			main[b.Hash] = b.Main
		}
		text, _, _ := PayloadText(r.Payload, r.MIMEType())
		// The menu line, and the first line with signatures under the
		// heading "item (details) information": the description.
		var menu, detail []byte
		heading := false
		for _, line := range bytes.Split(text, []byte("\n")) {
			_, signed := main[BlockHash(line)]
			switch {
			case bytes.Contains(line, []byte("│ HOME │ 会社紹介 │")):
				menu = line
			case bytes.HasPrefix(line, []byte("アイテム")) && bytes.HasSuffix(bytes.TrimSpace(line), []byte("情報")):
				heading = true
			case heading && detail == nil && signed:
				detail = line
			}
		}
		if m, ok := main[BlockHash(menu)]; menu == nil || !ok || m {
			t.Errorf("%s: menu %q: has signatures %v, Main %v; want a block outside the main content", r.TargetURI, menu, ok, m)
		}
		if detail == nil || !main[BlockHash(detail)] {
			t.Errorf("%s: description %q: want a block of the main content", r.TargetURI, detail)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if shop != 29 {
		t.Errorf("%d shop pages, want 29", shop)
	}
}

// A Chinese article of several hundred characters inside a container with
// a weak cue (a layout-like class word) is longer than maxBoilerWords
// words and stays; a short notice with the same cue goes. Counted by
// white-space, the article was one word and was cut.
func TestBoilerRegionCountsHanCharacters(t *testing.T) {
	article := strings.Repeat("今天上午，市政府在新闻发布会上宣布，城市的公共交通系统将在明年进行全面改造，以满足日益增长的出行需求。", 8)
	notice := "本网站使用缓存文件以改善您的浏览体验。"
	page := `<html><body><div class="sidebar"><p>` + article + `</p></div><div class="sidebar"><p>` + notice + `</p></div></body></html>`
	text, st, err := HTMLToText([]byte(page), "text/html; charset=utf-8")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(text, []byte(article)) || bytes.Contains(text, []byte(notice)) || st.BoilerplateRegions != 1 {
		t.Errorf("text %q, %d regions dropped; want the article kept and the notice dropped", text, st.BoilerplateRegions)
	}
}
