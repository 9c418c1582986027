package match

import (
	"math/rand/v2"
	"testing"
)

// TestGridEveryPairOnce cuts random groups (random sides, sizes and hashes)
// with random bounds, maxSigs <= 0 included, and checks that every A–B pair
// and, with self pairs, every A–A pair is compared in exactly one task, and
// no other pair in any: the property that keeps the split job exact.
func TestGridEveryPairOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 1))
	type doc struct {
		b    bool
		sigs int
		h    uint64
	}
	type member struct {
		doc    int
		second bool
	}
	split := 0
	for trial := range 400 {
		docs := make([]doc, rng.IntN(60))
		var aSigs, bSigs int
		for i := range docs {
			docs[i] = doc{b: rng.IntN(3) == 0, sigs: 1 + rng.IntN(40), h: rng.Uint64()}
			if docs[i].b {
				bSigs += docs[i].sigs
			} else {
				aSigs += docs[i].sigs
			}
		}
		maxSigs := []int{-1, 0, 1, 2, 30, 100, 400, 1000, 1 << 30}[rng.IntN(9)]
		self := rng.IntN(2) == 0
		g := NewGrid(aSigs, bSigs, maxSigs, self)
		if na, _ := g.Blocks(); na > 0 {
			split++
		}
		tasks := map[Task][]member{}
		for i, d := range docs {
			g.Tasks(d.b, d.h, func(task Task, second bool) {
				tasks[task] = append(tasks[task], member{i, second})
			})
		}
		met := map[[2]int]int{}
		for task, ms := range tasks {
			for x := range ms {
				for y := x + 1; y < len(ms); y++ {
					p, q := ms[x], ms[y]
					var compared bool
					switch task.Kind {
					case TaskWhole:
						// with self pairs MatchGroup(A, B): all but B–B; without, A × B
						compared = !(docs[p.doc].b && docs[q.doc].b) && (self || docs[p.doc].b != docs[q.doc].b)
					case TaskSelf:
						compared = true
						if docs[p.doc].b || docs[q.doc].b || p.second || q.second {
							t.Fatalf("trial %d: self task %v holds a B document or a second block", trial, task)
						}
					case TaskCross:
						compared = p.second != q.second
					}
					if compared {
						a, b := min(p.doc, q.doc), max(p.doc, q.doc)
						met[[2]int{a, b}]++
					}
				}
			}
		}
		for a := range docs {
			for b := a + 1; b < len(docs); b++ {
				want := 0
				if docs[a].b != docs[b].b || (self && !docs[a].b && !docs[b].b) {
					want = 1
				}
				if got := met[[2]int{a, b}]; got != want {
					t.Fatalf("trial %d (maxSigs %d, self %v, A %d, B %d signatures, grid %+v): pair (%d B=%v, %d B=%v) met %d times, want %d",
						trial, maxSigs, self, aSigs, bSigs, g, a, docs[a].b, b, docs[b].b, got, want)
				}
			}
		}
	}
	if split < 100 {
		t.Fatalf("only %d of 400 groups were cut into blocks", split)
	}
}

// TestGridBlocks checks the block counts: one task up to the bound or
// without one, else ⌈signatures / 0.4·maxSigs⌉ blocks per side, at least
// one A block.
func TestGridBlocks(t *testing.T) {
	for _, c := range []struct {
		a, b, max, na, nb int
	}{
		{1000, 500, 0, 0, 0},
		{1000, 500, -5, 0, 0},
		{1000, 500, 1500, 0, 0},
		{1000, 500, 1499, 2, 1}, // b = 599
		{10000, 0, 1000, 25, 0}, // b = 400
		{0, 10000, 1000, 1, 25},
		{7, 7, 2, 7, 7}, // b = max(1, 0) = 1
	} {
		na, nb := NewGrid(c.a, c.b, c.max, true).Blocks()
		if na != c.na || nb != c.nb {
			t.Errorf("NewGrid(%d, %d, %d): %d, %d blocks, want %d, %d", c.a, c.b, c.max, na, nb, c.na, c.nb)
		}
	}
}
