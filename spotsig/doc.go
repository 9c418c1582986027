// Package spotsig extracts spot signatures from web pages (Theobald,
// Siddharth, Paepcke: "SpotSigs: Robust and Efficient Near Duplicate
// Detection in Large Web Collections", SIGIR 2008, §3) and filters them by
// normalized IDF (§5.1). It does not import Beam; the pipeline's transforms
// wrap it.
//
// # From payload to text
//
// PayloadText turns an HTTP payload into plain UTF-8 text, dispatching on
// the media type: HTML (HTMLToText: markup, scripts, styles and comments
// dropped, entities decoded, a line break at block boundaries) or plain
// text. The character set comes from the BOM, the Content-Type charset, a
// <meta> declaration or UTF-8 sniffing; undecodable bytes become U+FFFD,
// never an error. Binary payloads return ErrBinary, other media types
// ErrNotText. Caps on the bytes parsed and the text produced are options
// and are reported in TextStats.
//
// # From text to tokens
//
// Tokenize yields lower-cased Unicode words (letters and digits;
// apostrophes inside a word kept, hyphens split), without allocating per
// token.
//
// # From tokens to spot signatures
//
// An Extractor holds a spot set A = {a_j(d_j, c_j)} of antecedents with
// their spot distance d and chain length c (§3.1; ParseSpotSet reads
// "the(2,3),a(2,3),is(3,1)" or "@file"), and a stopword list that chains
// skip. The defaults are the paper's best (§5.3.2): articles and the
// flexions of be, can, will, have, do as antecedents, d = 2, c = 3, and the
// SMART stopword list, read from the embedded data files lang/<code>/
// (Languages, DefaultSpotSet, Stopwords). Adding a language is adding a
// folder.
//
// Extract makes one pass over the tokens (slide 12 of the talk): at every
// antecedent it chains the next non-stopwords at spot distance d, up to c of
// them, cut at the end of the text once one is found; chains may overlap.
// A signature "the:south:carolina" is identified by SignatureHash, FNV-1a
// 64 of that string, the same on every machine. The result is a Vector, the
// multiset of §4.1.2 (sorted hashes and their frequencies). Signatures is
// the debug twin returning the strings. ExtractPayload runs the whole path
// from payload to Vector. An Extractor is safe for concurrent use.
//
// # IDF filtering
//
// NormalizedIDF is log(N/df)/log(N) (§5.1). An IDFRange keeps the
// signatures whose idf lies in [Min, Max]; FilterIDF applies it to a
// collection in memory, the reference for the pipeline's IDF stage (which
// may skip the stage when IDFRange.KeepsAll). The paper's plain upper bound
// drops signatures shared by only two documents of a large corpus;
// IDFRange.KeepShared avoids that. DefaultIDFRange keeps every signature,
// which scored best on the gold set (see its doc).
package spotsig
