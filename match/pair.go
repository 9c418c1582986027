package match

// Pair is one near-duplicate pair found by a matcher: A and B index the
// matcher's input (A < B) and Jaccard is their weighted Jaccard similarity
// (eq. 4), in [0, 1].
type Pair struct {
	A, B    int
	Jaccard float64
}
