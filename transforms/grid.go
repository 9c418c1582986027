package transforms

import (
	"encoding/binary"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ndd-beam/ndd-beam/internal/hashx"
	"github.com/ndd-beam/ndd-beam/match"
)

// The task grid in Beam: the signatures of each group's two sides summed
// by a combiner (gridSize, a small side input: one record per group), a
// document's tasks from match.Grid, and the tasks' shuffle keys. Used by
// MatchGroups (home and guest documents, matchTasks) and MatchAgainst
// (index and new documents).

func init() {
	beam.RegisterType(reflect.TypeOf((*gridSize)(nil)).Elem())
	register.Function2x1[gridSize, gridSize, gridSize](addGridSizes)
	register.Function2x1[uint64, gridSize, gridSize](withGridKey)
	register.Iter1[gridSize]()
}

// gridSize is the signatures (Σ|d|) of one group's side A and side B
// (match.Grid), Key the group's.
type gridSize struct {
	Key  uint64
	A, B int
}

func addGridSizes(x, y gridSize) gridSize { return gridSize{A: x.A + y.A, B: x.B + y.B} }

func withGridKey(k uint64, g gridSize) gridSize { g.Key = k; return g }

// gridSizes reads the side input of group sizes once per DoFn instance.
func gridSizes(m *map[uint64]gridSize, sizes func(*gridSize) bool) map[uint64]gridSize {
	if *m == nil {
		*m = map[uint64]gridSize{}
		var g gridSize
		for sizes(&g) {
			(*m)[g.Key] = g
		}
	}
	return *m
}

// taskKinds are the letters of match.TaskKind in a task key.
var taskKinds = [...]string{match.TaskWhole: "w", match.TaskSelf: "s", match.TaskCross: "x"}

// taskKey is the shuffle key of task t of group: "group/kind/I/J".
func taskKey(group uint64, t match.Task) string {
	return strconv.FormatUint(group, 10) + "/" + taskKinds[t.Kind] + "/" + strconv.Itoa(t.I) + "/" + strconv.Itoa(t.J)
}

// isCrossTask says whether key, made by taskKey, is a match.TaskCross.
func isCrossTask(key string) bool {
	_, rest, _ := strings.Cut(key, "/")
	kind, _, _ := strings.Cut(rest, "/")
	return kind == taskKinds[match.TaskCross]
}

// blockHash mixes a document's 16-byte warc.Ref.ID into 64 well-spread bits
// (SplitMix64's finalizer of the halves' XOR; FNV's high bits change
// little between records of one file): the hash match.Grid takes its block
// from.
func blockHash(id string) uint64 {
	return hashx.Mix64(binary.BigEndian.Uint64([]byte(id[:8])) ^ binary.BigEndian.Uint64([]byte(id[8:16])))
}
