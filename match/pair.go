package match

// Pair is one near-duplicate pair found by a matcher: A and B index the
// matcher's input (A < B) and Jaccard is their weighted Jaccard similarity
// (eq. 4), in [0, 1].
type Pair struct {
	A, B    int
	Jaccard float64
}

// NewPair returns the pair of documents a and b (a ≠ b) at similarity j in
// canonical order, A < B: the one place that orders a pair's indices.
func NewPair(a, b int, j float64) Pair {
	if a > b {
		a, b = b, a
	}
	return Pair{A: a, B: b, Jaccard: j}
}
