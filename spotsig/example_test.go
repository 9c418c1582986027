package spotsig_test

import (
	"fmt"

	"github.com/ndd-beam/ndd-beam/spotsig"
)

// The paper's §3.2 example: antecedents a, an, the, is with spot distance 1
// and chain length 2 over the last sentence of Figure 1's pages.
func ExampleExtractor_Signatures() {
	e, err := spotsig.NewExtractor(spotsig.WithSpotSpec("a(1,2),an(1,2),the(1,2),is(1,2)"))
	if err != nil {
		panic(err)
	}
	text := "At a rally to kick off a weeklong campaign for the South Carolina primary, " +
		"Obama tried to set the record straight from an attack circulating widely on the " +
		"Internet that is designed to play into prejudices against Muslims and fears of terrorism."
	for _, s := range e.Signatures([]byte(text)) {
		fmt.Println(s)
	}
	// Output:
	// a:rally:kick
	// a:weeklong:campaign
	// the:south:carolina
	// the:record:straight
	// an:attack:circulating
	// the:internet:designed
	// is:designed:play
}

// From an HTTP payload to the document's signature multiset with the
// paper's default spot set (§5.3.2: d = 2, c = 3).
func ExampleExtractor_ExtractPayload() {
	e, err := spotsig.NewExtractor()
	if err != nil {
		panic(err)
	}
	page := []byte(`<html><head><title>Election</title><script>var the = "ad";</script></head>
<body><table><tr><td>Home</td><td>News</td></tr></table>
<p>The senator has said that the campaign will visit the state capital on Friday.</p></body></html>`)
	v, st, err := e.ExtractPayload(page, "text/html; charset=utf-8")
	if err != nil {
		panic(err)
	}
	fmt.Println(e.Signatures([]byte("The senator has said that the campaign will visit the state capital on Friday.")))
	fmt.Println(v.Len(), st.Extract.Tokens)
	// Tokens of the sentence: the(0) senator has said that the(5) campaign
	// will(7) visit the(9) state capital on friday(13); SMART stopwords:
	// the, has, said, that, will, on. the(0): token 2 "has" is a stopword, so
	// move on to "campaign"(6), then 8 "visit", 10 "state". The script's
	// "the" is not text; the title and the cells add 3 tokens.
	// Output:
	// [the:campaign:visit:state has:campaign:visit:state the:visit:state:friday will:state:friday the:capital:friday]
	// 5 17
}
