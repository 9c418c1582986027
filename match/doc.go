// Package match finds near-duplicate pairs among spot signature vectors
// (spotsig.Vector): the exact SpotSigs matcher of Theobald, Siddharth and
// Paepcke (SIGIR 2008, §4), its brute-force reference and baselines, and the
// hashing competitors (LSH, I-Match, descriptive words). It never imports
// Beam; the Beam job drives it through the Grouping interface.
//
// # Similarity
//
// WeightedJaccard is the multi-set Jaccard similarity of eq. (4); it is the
// one similarity every matcher reports, so results compare with ==.
// JaccardAtLeast decides "≥ τ" with an early exit. Two empty documents have
// similarity 0: they are never near-duplicates.
//
// # Partitions (§4.2)
//
// NewPartitioning(τ, ρ) splits vector lengths into contiguous partitions so
// that a near-duplicate pair lies in one partition or two adjacent ones; a
// document lives in its Home partition and, when Guest says so, is also a
// guest of the left neighbour. For ρ = 1000 this reproduces the paper's 501,
// 41 and 3 partitions at τ = 1.0, 0.9 and 0.1 (see Partitioning for the rule
// and its derivation).
//
// # Matching (§4.3, Algorithm 1)
//
// MatchGroup runs Algorithm 1 over one group (home documents plus guests);
// Match runs partitions and groups over an in-memory corpus on all cores; a
// Matcher built by NewMatcher(τ, options…) (WithRange, WithWorkers,
// WithoutPartitions, WithoutPruning, WithLinearScan) does the same with
// ρ = DefaultRho unless told otherwise. Pruning is exact: Match
// returns exactly BruteForce's pairs, which the property tests and
// FuzzMatchEqualsBruteForce check. NoPart and NoPrune are the baselines of
// the paper's Table 2.
//
// # In the Beam job
//
// Partitioned{Tau, Rho} is the exact method as a Grouping: Keys gives the
// home partition (and the guest key), MatchGroup is Algorithm 1, and every
// pair meets in exactly one group. BruteForceGrouping puts everything in one
// group. Empty documents get no keys.
//
// # Threshold conventions
//
// Pairs are reported when their similarity is ≥ τ and > 0 (documents that
// share no signature are never pairs, which only matters for τ ≤ 0); τ > 1
// or NaN yields no pairs.
package match
