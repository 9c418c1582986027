package spotsig

// The payload entry points: one call per document from an HTTP payload to
// its text (PayloadText's path, without allocating the text) and from the
// text to its spot signatures (§3).

// PayloadStats describes one ExtractPayload call.
type PayloadStats struct {
	Text    TextStats
	Extract ExtractStats
	// Digest is TextDigest of the text the signatures were taken from.
	Digest string
	// Sketch is the bottom-k sketch of the words of the page's main text
	// (sketch.go), what verification of a candidate pair reads.
	Sketch Sketch
	// Periphery is what the page carries until its shared boilerplate is
	// known (periphery.go; ExtractPayloadBlocks only).
	Periphery Periphery
}

// ExtractPayload is PayloadText followed by Extract, with the Extractor's
// options (caps included) and without allocating the intermediate text:
// the whole per-document path from an HTTP payload to its signature
// Vector. The language of an HTML page is that of its main content
// (layout.go, langid.go). Errors are PayloadText's (ErrNotText,
// ErrBinary); the Vector is then empty.
func (e *Extractor) ExtractPayload(payload []byte, contentType string) (Vector, PayloadStats, error) {
	s := e.scratch.Get().(*scratch)
	defer e.release(s)
	var st PayloadStats
	spans, err := e.payloadText(s, payload, contentType, &st)
	if err != nil {
		return Vector{}, st, err
	}
	s.sketch = true
	v := e.extract(s, s.text, spans, &st.Extract)
	st.Sketch, _ = s.sk.sketch(false)
	return v, st, nil
}

// payloadText writes the text of payload to s.text and returns the spans
// of its periphery (HTML; nil for plain text), and sets st.Text and
// st.Digest.
func (e *Extractor) payloadText(s *scratch, payload []byte, contentType string, st *PayloadStats) ([]span, error) {
	kind, err := payloadKind(payload, contentType)
	if err != nil {
		st.Text.InputBytes = len(payload)
		return nil, err
	}
	s.text, err = appendPayloadText(s.text[:0], payload, contentType, kind, &e.cfg, &st.Text, &s.lay)
	if err != nil {
		return nil, err
	}
	st.Digest = TextDigest(s.text)
	var periphery []span
	if kind == KindHTML {
		periphery = s.lay.periphery(s.text)
	}
	return periphery, nil
}
