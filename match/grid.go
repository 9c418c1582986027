package match

// The task grid: a group too large for one worker's memory is cut into
// blocks, and the blocks are matched in pairs, so that every pair of
// documents the group must compare meets in exactly one task. This is what
// keeps the distributed job exact when it splits a hot partition (§4.2):
// the tasks together compare the same pairs as the whole group.

// Grid is the block split of one group of documents of two sides, A and B,
// whose pairs A–B are compared and, with self pairs, A–A as well (never
// B–B). In-batch matching: A the group's home documents, B its guests
// (§4.2, guest–guest pairs belong to another group), self pairs on. A run
// against an index: A the index documents, B the new ones, self pairs off
// (index pages are never compared with each other).
//
// A group of at most maxSigs signatures (Σ|d| of both sides), or any group
// when maxSigs <= 0, is one task, TaskWhole. A larger one is cut into
// NA = ⌈aSigs/b⌉ (at least 1) blocks of side A and NB = ⌈bSigs/b⌉ blocks of
// side B of b = 0.4 × maxSigs signatures on average (a document's block is
// its hash modulo the number of blocks of its side, so no pass needs the
// whole group); its tasks are, with self pairs, each A block alone
// (TaskSelf) and each pair of A blocks, and for both kinds each A block
// with each B block (TaskCross). A task of two blocks holds 0.8 × maxSigs
// signatures on average; hashing spreads a block of n documents by about
// ±√n, so the bound is approximate for tiny blocks.
type Grid struct {
	na, nb int // blocks of side A and B; 0, 0: one whole task
	self   bool
}

// TaskKind says what a task matches.
type TaskKind uint8

const (
	// TaskWhole is the whole group: MatchGroup(A, B) with self pairs, A × B without.
	TaskWhole TaskKind = iota
	// TaskSelf is A block I alone: MatchGroup(block, nil).
	TaskSelf
	// TaskCross is block I of side A with block J: MatchCross, only pairs
	// with one document in each block. J < NA is an A block (J > I), J >=
	// NA the B block J − NA.
	TaskCross
)

// Task is one task of a grid: its kind and its blocks (0, 0 for TaskWhole;
// I, I for TaskSelf).
type Task struct {
	Kind TaskKind
	I, J int
}

// NewGrid is the grid of a group whose side A holds aSigs signatures and
// side B bSigs, with tasks of at most about maxSigs (<= 0: no bound), with
// A–A pairs when selfPairs.
func NewGrid(aSigs, bSigs, maxSigs int, selfPairs bool) Grid {
	if maxSigs <= 0 || aSigs+bSigs <= maxSigs {
		return Grid{self: selfPairs}
	}
	blk := max(1, maxSigs*2/5)
	return Grid{na: max(1, (aSigs+blk-1)/blk), nb: (bSigs + blk - 1) / blk, self: selfPairs}
}

// Blocks returns the number of blocks of side A and of side B; 0, 0 when
// the group is one task.
func (g Grid) Blocks() (a, b int) { return g.na, g.nb }

// Tasks calls emit for each task of g that a document of side A (sideB
// false) or B, with the well-spread hash h, is sent to (the job hashes its
// warc.Ref.ID). second says the document is in the task's second block
// (the B side of a TaskCross, or the higher A block of an A–A TaskCross):
// it is compared only with the documents of the first. Across all
// documents, every A–B pair and, with self pairs, every A–A pair of
// documents meets in exactly one task with one of them first and the other
// second (or both in one TaskSelf or TaskWhole), and no B–B pair is
// compared.
func (g Grid) Tasks(sideB bool, h uint64, emit func(t Task, second bool)) {
	if g.na == 0 {
		emit(Task{Kind: TaskWhole}, sideB)
		return
	}
	if sideB {
		k := g.na + int(h%uint64(max(g.nb, 1)))
		for i := range g.na {
			emit(Task{Kind: TaskCross, I: i, J: k}, true)
		}
		return
	}
	i := int(h % uint64(g.na))
	if g.self {
		emit(Task{Kind: TaskSelf, I: i, J: i}, false)
		for j := range g.na {
			switch {
			case j > i:
				emit(Task{Kind: TaskCross, I: i, J: j}, false)
			case j < i:
				emit(Task{Kind: TaskCross, I: j, J: i}, true)
			}
		}
	}
	for k := range g.nb {
		emit(Task{Kind: TaskCross, I: i, J: g.na + k}, false)
	}
}
