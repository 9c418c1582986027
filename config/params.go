// Package config is the ndd-beam job's configuration in plain Go (no Beam):
// the parameters every stage needs (Params), where to read and write
// (Config), each default defined once (DefaultConfig and the Default*
// constants, which refer to spotsig's, match's and warc's own defaults),
// validation with one-line errors (Config.ValidateValues), the options
// Params selects for spotsig and warc (SpotSigOptions, WARCOptions), and
// the factory of the matching method (NewGrouping). config holds data: the
// signature schemes themselves are built from Params by dedup.NewSigner
// (dedup imports config, never the other way round). The CLI, pipeline/,
// the in-process runner, eval and the tests all start from here, so they
// cannot drift.
package config

import (
	"fmt"

	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// Names accepted by Params.Method (the signature scheme) and Params.Matcher
// (the Grouping that finds pairs).
const (
	MethodSpotSigs    = "spotsigs"   // spot signatures, paper §3
	MethodShingles    = "shingles"   // word k-gram multisets (k = Params.ShingleK), the paper's Shingling competitor §5.3.1
	MatcherSpotSigs   = "spotsigs"   // τ partitions + Algorithm 1, paper §4.2-§4.3
	MatcherBruteForce = "bruteforce" // every pair in one group, match.BruteForce: the exact reference
	MatcherLSH        = "lsh"        // MinHash LSH, k = 6 hashes per band, l = 32 bands, verified by exact Jaccard (§5.2 LSH-S)
	MatcherIMatch     = "imatch"     // one SHA-1 bucket per distinct signature set (§5.2 I-Match); no threshold
)

// Params are the parameters every stage needs, as plain data: Beam carries
// them to workers inside the DoFns (as JSON), and each worker builds its
// signer (dedup.NewSigner) and Grouping from them once, in Setup. Config embeds Params.
// Zero caps mean "the reading package's default", never "unlimited".
type Params struct {
	// Method names the signature scheme (MethodSpotSigs, MethodShingles;
	// "" is MethodSpotSigs, see SignatureMethod), built and checked by
	// dedup.NewSigner and dedup.CheckMethod (Validate cannot build it).
	Method string `json:"method"`
	// Matcher names the matching method, see NewGrouping.
	Matcher string `json:"matcher"`
	// Tau is the similarity threshold τ in (0, 1]: pairs with weighted
	// Jaccard >= Tau are near duplicates (§4).
	Tau float64 `json:"tau"`
	// SameSiteTau is the threshold, in [0, 1], of a pair of pages of one
	// site (warc.Site: the registrable domain of the target URI): such a
	// pair is a near-duplicate only when its weighted Jaccard is also >=
	// SameSiteTau (match.SiteRule), unless both pages capture one URL
	// (warc.URLKey: a page re-captured with edits). 0, or any value <=
	// Tau, treats every pair alike, as the paper does.
	SameSiteTau float64 `json:"same_site_tau"`
	// VerifyShare is the share, in [0, 1], of each page's main-text words
	// (spotsig.Sketch) that the other page must hold, both ways, for a
	// candidate pair (weighted Jaccard >= Tau, and the same-site rule) to
	// be a near-duplicate (dedup.Verify); exact copies are verified
	// against their group's representative; two pages of one host must
	// hold it of each other's whole text less the host's template too
	// (dedup.MarkTemplates). 0 takes every candidate pair, as the paper
	// does.
	VerifyShare float64 `json:"verify_share"`
	// Rho is ρ, the range of vector lengths (signatures) with regular
	// partitions (§4.2, §5.1): partitions are closed while their end is
	// <= ρ, and all longer vectors share the overflow partition, whose start
	// depends on τ too ([781, ∞) at τ = 0.2 and ρ = 1000; see
	// match.Partitioning).
	Rho int `json:"rho"`
	// Antecedents is a spot set, inline ("the(2,3),a(2,3),is(3,1)"):
	// antecedent word, spot distance, chain length (§3.1). A "@file" spec is
	// resolved to inline form before the job starts, so workers never need
	// the file. Empty (the default) means each language's own spot set
	// (spotsig.DefaultSpotSet; for English the paper's §5.3.2 set). A given
	// set replaces the spot set of the language Lang forces, or with
	// LanguageAuto that of English pages and of pages of unidentified
	// language (spotsig.WithSpotSet).
	Antecedents string `json:"antecedents"`
	// IDFMin and IDFMax bound the normalized IDF log(N/df)/log(N) of the
	// signatures kept (§5.1), both in [0, 1].
	IDFMin float64 `json:"idf_min"`
	IDFMax float64 `json:"idf_max"`
	// IDFKeepShared exempts signatures found in two or more documents from
	// IDFMax (spotsig.IDFRange.KeepShared), so copies whose shared
	// signatures are rare in the corpus are still found.
	IDFKeepShared bool `json:"idf_keep_shared"`
	// MinSignatures drops documents whose vector length |d| after the IDF
	// filter is below it (reason "too-few-signatures").
	MinSignatures int `json:"min_signatures"`

	// MaxHeaderBytes caps one WARC header and one HTTP header (warc).
	MaxHeaderBytes int64 `json:"max_header_bytes"`
	// MaxMemberBytes caps the decompressed bytes of one gzip member (warc).
	MaxMemberBytes int64 `json:"max_member_bytes"`
	// MaxRecordBytes caps the raw body of one WARC record read into memory (warc).
	MaxRecordBytes int64 `json:"max_record_bytes"`
	// MaxPayloadBytes caps the decoded HTTP body of one record (warc).
	MaxPayloadBytes int64 `json:"max_payload_bytes"`
	// MaxURIBytes caps WARC-Target-URI; a record with a longer one is
	// rejected "uri-too-long" with its URI cut (warc).
	MaxURIBytes int64 `json:"max_uri_bytes"`
	// MaxRecordIDBytes caps WARC-Record-ID; a record with a longer one is
	// rejected "record-id-too-long" with its ID cut (warc).
	MaxRecordIDBytes int64 `json:"max_record_id_bytes"`
	// MaxInputBytes caps the payload bytes parsed per document (spotsig).
	MaxInputBytes int `json:"max_input_bytes"`
	// MaxTextBytes caps the text bytes produced per document (spotsig).
	MaxTextBytes int `json:"max_text_bytes"`
	// MaxTokens caps the tokens read from one document's text (spotsig).
	MaxTokens int `json:"max_tokens"`
	// MaxSignatures caps the spot signatures extracted per document (spotsig).
	MaxSignatures int `json:"max_signatures"`
	// MinBlockTokens confines spot chains to text blocks and skips blocks of
	// fewer tokens (spotsig.WithMinBlockTokens); 0 is the paper's
	// whole-document chains (§3). Unlike the caps, 0 is applied as given.
	MinBlockTokens int `json:"min_block_tokens"`
	// KeepMarkupBoilerplate keeps the text of elements the markup marks as
	// boilerplate (nav, footer, cookie and consent notices, replay
	// toolbars, …), which spotsig drops by default
	// (spotsig.WithMarkupBoilerplate).
	KeepMarkupBoilerplate bool `json:"keep_markup_boilerplate"`
	// Lang is the language mode of spot signature extraction:
	// spotsig.LanguageAuto (identify the language of each text block of a
	// page and of the page's main content, and sign each block with its
	// language's stopwords and spot set; spotsig/langid.go) or a code of
	// spotsig.Languages() forcing that language's data for every page.
	// Default spotsig.DefaultLanguageMode ("auto").
	Lang string `json:"lang"`
	// SharedBlockPages: a text block (spotsig.BlockHash) that lies outside
	// the main content of pages about at least this many different things
	// (dedup.Context: exact copies count once), and of more pages than it
	// is the main content of, is shared boilerplate and
	// its signatures are dropped from every page that has other signed
	// blocks (a page of shared blocks only keeps them, hashed with its
	// site: dedup.ResolveBlocks) (dedup.DropSharedBlocks;
	// DefaultSharedBlockPages). 0 turns the
	// statistic off: every block keeps its signatures, as before.
	SharedBlockPages int `json:"shared_block_pages"`
	// ShingleK is the shingle length in words for Method "shingles".
	ShingleK int `json:"shingle_k,omitempty"`

	// Keep is the keep policy of the keep/drop decisions: criteria in
	// order (see match.ParsePolicy; "" is match.DefaultKeep).
	Keep string `json:"keep"`
	// DecideRounds is the number of decision rounds unrolled in the job
	// graph; pages still undecided after them are decided on one worker
	// (transforms.Decide, docs/design.md).
	DecideRounds int `json:"decide_rounds"`
	// MaxGroupSignatures bounds the signatures (Σ|d| of home and guest
	// documents) one matching task holds; a larger group of a Grouping
	// that can match blocks (match.CrossGrouping: the exact SpotSigs
	// matcher) is split into a block-pair grid of tasks
	// (transforms.MatchGroups). 0: unbounded.
	MaxGroupSignatures int `json:"max_group_signatures"`
}

// SignatureMethod is the signature scheme p names: p.Method, where ""
// means MethodSpotSigs (the one place that says so).
func (p Params) SignatureMethod() string {
	if p.Method == "" {
		return MethodSpotSigs
	}
	return p.Method
}

// SiteRule returns the same-site pair rule of p.
func (p Params) SiteRule() match.SiteRule { return match.SiteRule{SameSiteTau: p.SameSiteTau} }

// Policy is the parsed keep policy of p (match.ParsePolicy of p.Keep).
func (p Params) Policy() (match.Policy, error) { return match.ParsePolicy(p.Keep) }

// IDFRange is the IDF range of p as the spotsig type that holds the rule.
func (p Params) IDFRange() spotsig.IDFRange {
	return spotsig.IDFRange{Min: p.IDFMin, Max: p.IDFMax, KeepShared: p.IDFKeepShared}
}

// NewGrouping returns the matching method named by p.Matcher as a
// match.Grouping; it is the one place where matchers are chosen.
// "spotsigs": match.Partitioned (τ partitions of §4.2, Algorithm 1 of §4.3).
// "bruteforce": all documents in one group compared pairwise by
// match.BruteForce, the exact reference (same pairs, much slower).
func NewGrouping(p Params) (match.Grouping, error) {
	if !(p.Tau > 0 && p.Tau <= 1) {
		return nil, fmt.Errorf("tau %v outside (0, 1]", p.Tau)
	}
	switch p.Matcher {
	case MatcherSpotSigs, "":
		if p.Rho < 1 {
			return nil, fmt.Errorf("rho %d below 1", p.Rho)
		}
		return match.Partitioned{Tau: p.Tau, Rho: p.Rho}, nil
	case MatcherBruteForce:
		return match.BruteForceGrouping{Tau: p.Tau}, nil
	case MatcherLSH:
		return match.NewLSH(p.Tau), nil
	case MatcherIMatch:
		return match.IMatch{}, nil
	default:
		return nil, fmt.Errorf("unknown matcher %q (want one of %s, %s, %s, %s)", p.Matcher, MatcherSpotSigs, MatcherBruteForce, MatcherLSH, MatcherIMatch)
	}
}
