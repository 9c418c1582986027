package dedup

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/spotsig"
	"github.com/ndd-beam/ndd-beam/warc"
)

// Caps of the "spotsigs" scheme, as a Signer reports them (Page.Capped,
// summary.json "capped", counters "extract/capped-<cap>").
const (
	CapInputBytes = "input-bytes" // --max_input_bytes: payload parsed only in part
	CapTextBytes  = "text-bytes"  // --max_text_bytes: text cut
	CapTokens     = "tokens"      // --max_tokens: tokens after the cap ignored
	CapSignatures = "signatures"  // --max_signatures: extraction stopped early
)

// A Signer turns the HTTP payload of a WARC response record into a
// document's signatures: a Signed whose Doc holds Vec or Blocks, Lang and,
// in Doc.Page, the text's Digest and the caps that applied, with
// TextBytes; or a Signed whose Reject has the reason (ReasonBadText, or the
// reader's warc.SkipNotHTML or warc.SkipBinaryPayload) and detail of a
// payload that did not become text. Identity and rank are Sign's.
// Implementations must be safe for concurrent use and deterministic.
type Signer interface {
	Sign(ctx context.Context, payload []byte, contentType string) Signed
}

// methods is the one table of signature schemes: the name --method takes
// (config.Method*: config holds the names only), what --help says of it,
// and its constructor. NewSigner builds a scheme from it and CheckMethod
// validates --method with it; a new scheme is a name in config/params.go
// and a row here (docs/design.md, "Where to add").
var methods = []struct {
	name, help string
	build      func(config.Params) (Signer, error)
}{
	{config.MethodSpotSigs, "spot signatures, §3", func(p config.Params) (Signer, error) { return newSpotSigner(p) }},
	{config.MethodShingles, "word k-grams, k = --shingle_k; the paper's competitor, docs/quality.md", func(p config.Params) (Signer, error) { return newShingleSigner(p) }},
}

// NewSigner returns the signature scheme named by p.Method
// (config.Params.SignatureMethod) with the options of p; it is the one
// place where schemes are chosen (methods). "spotsigs": spot signatures
// (§3) with the options of p (config.Params.SpotSigOptions); "shingles":
// word p.ShingleK-grams. Errors: an unknown method or options the scheme
// refuses (CheckMethod reports the same as a --method error).
func NewSigner(p config.Params) (Signer, error) {
	name := p.SignatureMethod()
	for _, m := range methods {
		if m.name == name {
			return m.build(p)
		}
	}
	names := make([]string, len(methods))
	for i, m := range methods {
		names[i] = strconv.Quote(m.name)
	}
	return nil, fmt.Errorf("unknown method %q (want %s)", p.Method, orList(names))
}

// CheckMethod checks p.Method and the options its scheme is built with by
// building it (NewSigner); the error is a *config.ParamError naming
// --method.
func CheckMethod(p config.Params) error {
	if _, err := NewSigner(p); err != nil {
		return config.ParamErrorf(config.LayoutIsQuoted, "--method", p.Method, "%w", err)
	}
	return nil
}

// MethodHelp is the --method flag's list of schemes: "name (help)" of each,
// joined by ", " and a last " or ".
func MethodHelp() string {
	parts := make([]string, len(methods))
	for i, m := range methods {
		parts[i] = m.name + " (" + m.help + ")"
	}
	return orList(parts)
}

// orList joins "a", "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// spotSigner is the "spotsigs" scheme: Extractor.ExtractPayload (markup
// removal, charset decoding, binary check, then spot signatures, §3) with
// the caps of Params. Caps that applied are counted ("extract/capped-*"); the
// document is kept with what was read.
type spotSigner struct {
	ex     *spotsig.Extractor
	blocks bool // peripheral blocks apart (Params.SharedBlockPages > 0)
}

func newSpotSigner(p config.Params) (*spotSigner, error) {
	ex, err := spotsig.NewExtractor(p.SpotSigOptions()...)
	if err != nil {
		return nil, err
	}
	return &spotSigner{ex: ex, blocks: p.SharedBlockPages > 0}, nil
}

// Sign extracts the spot signatures of one payload.
func (s *spotSigner) Sign(ctx context.Context, payload []byte, contentType string) Signed {
	var out Signed
	var st spotsig.PayloadStats
	var err error
	if s.blocks {
		out.Doc.Blocks, st, err = s.ex.ExtractPayloadBlocks(payload, contentType)
	} else {
		out.Doc.Vec, st, err = s.ex.ExtractPayload(payload, contentType)
	}
	if err != nil {
		return textError(err, contentType)
	}
	out.Doc.Capped = textCaps(st.Text)
	if st.Extract.TokensTruncated {
		out.Doc.Capped = append(out.Doc.Capped, CapTokens)
	}
	if st.Extract.SignaturesTruncated {
		out.Doc.Capped = append(out.Doc.Capped, CapSignatures)
	}
	out.TextBytes, out.Doc.Digest, out.Doc.Sketch = st.Text.TextBytes, st.Digest, st.Sketch
	out.Doc.Periphery, out.Doc.Lang = st.Periphery, st.Extract.Lang
	return out
}

// shingleSigner is the "shingles" scheme: the same payload-to-text step as
// spot signatures, then word ShingleK-grams (spotsig.Shingles), the
// Shingling competitor of §5.3.1.
type shingleSigner struct {
	opts []spotsig.Option
	sh   *spotsig.Shingler
}

func newShingleSigner(p config.Params) (*shingleSigner, error) {
	sh, err := spotsig.NewShingler(p.ShingleK)
	if err != nil {
		return nil, err
	}
	return &shingleSigner{opts: p.SpotSigOptions(), sh: sh}, nil
}

// Sign extracts the word k-gram multiset of one payload.
func (s *shingleSigner) Sign(_ context.Context, payload []byte, contentType string) Signed {
	text, st, err := spotsig.PayloadText(payload, contentType, s.opts...)
	if err != nil {
		return textError(err, contentType)
	}
	var out Signed
	out.Doc.Vec, out.Doc.Capped = s.sh.Extract(text), textCaps(st)
	out.TextBytes, out.Doc.Digest, out.Doc.Sketch = len(text), spotsig.TextDigest(text), spotsig.SketchText(text)
	return out
}

// Signed is one record after signing: first what a Signer makes of its
// payload, then what Sign makes of the record, and in SignFiles a reader's
// Reject too. The record is a document (IsDoc) or a Reject.
type Signed struct {
	// Doc is the document: from the Signer its signatures (Vec, or Blocks
	// when config.Params.SharedBlockPages > 0; DropSharedBlocks merges the
	// blocks that are not shared boilerplate into Vec), Lang (the language
	// whose data signed it, spotsig.ExtractStats.Lang: a code or
	// spotsig.LanguageUnknown; "" for a scheme without languages) and, in
	// Page, the text's Digest (spotsig.TextDigest) and the caps that
	// applied (Cap*: the document is kept with what was read within them);
	// from Sign the rest of Page (identity, date, rank) and Site.
	Doc Doc
	// TextBytes is the length of the extracted text in bytes (the keep
	// policy ranks by it, match.PageInfo.TextBytes).
	TextBytes int
	// Reject holds the reason and detail when the record is not a
	// document (Reason "" otherwise).
	Reject output.Reject
	// HasPage reports that the payload became text, so Doc.Page is a page
	// the decisions keep or drop (Decide), signed or not.
	HasPage bool
}

// IsDoc reports whether the record became a document.
func (s Signed) IsDoc() bool { return s.Reject.Reason == "" }

// textError is the Signed of a payload that did not become text (err !=
// nil): its reject with TextReason's reason and detail.
func textError(err error, contentType string) Signed {
	reason, detail := TextReason(err, contentType)
	return Signed{Reject: output.Reject{Reason: reason, Detail: detail}}
}

// TextReason maps a spotsig payload-to-text error to the reject reason and
// detail the job gives it: warc.SkipNotHTML or warc.SkipBinaryPayload
// (with the media type) for the payloads the reader refuses too, else
// ReasonBadText (with the error); "" for no error.
func TextReason(err error, contentType string) (reason, detail string) {
	switch {
	case err == nil:
		return "", ""
	case errors.Is(err, spotsig.ErrNotText):
		return warc.SkipNotHTML, contentType
	case errors.Is(err, spotsig.ErrBinary):
		return warc.SkipBinaryPayload, contentType
	default:
		return ReasonBadText, err.Error()
	}
}

// textCaps names the byte caps that applied while a payload became text.
func textCaps(st spotsig.TextStats) []string {
	var capped []string
	if st.InputTruncated {
		capped = append(capped, CapInputBytes)
	}
	if st.TextTruncated {
		capped = append(capped, CapTextBytes)
	}
	return capped
}
