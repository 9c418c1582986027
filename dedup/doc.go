// Package dedup is the ndd-beam job in plain Go, without Beam, and the home
// of its domain: the document (Doc, its Page and exact-copy Group), the
// signature schemes (Signer, NewSigner, Signed), every reject reason
// (Reasons), the per-record steps every runner shares (a WARC record to a
// document candidate or a reject, a candidate to a signed document or a
// reject), the output rows it makes (NewPairRecord, Decide; their types
// are package output's) and Run,
// the one in-process runner of the whole algorithm (read → spot signatures
// §3 → IDF §5.1 → partitions §4.2 → Algorithm 1 §4.3) that the tests use
// and eval is checked against. The Beam DoFns of transforms/ call the same
// steps on the same types, so the Beam job and Run cannot drift;
// pipeline's tests check they agree pair for pair.
//
// dedup imports config (parameters and their validation), output (the
// rows) and the algorithm packages (warc, spotsig, match); none of them
// imports dedup.
package dedup
