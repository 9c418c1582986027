package spotsig

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/ndd-beam/ndd-beam/warc"
)

// writeByteWise is textWriter.write as it was before it copied runs of
// plain bytes at once: one byte or rune at a time. TestWriteRuns holds
// write to it.
func writeByteWise(w *textWriter, text []byte) {
	if w.full {
		return
	}
	last := w.last()
	space := last == ' ' || last == '\n'
	limit := w.start + w.max
	nls := 0
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
				if !space {
					if len(w.dst)+1 > limit {
						w.full = true
						return
					}
					w.dst = append(w.dst, ' ')
					space = true
				}
				if c == '\n' && w.paras {
					if nls++; nls == 2 && len(w.dst) > w.start && w.dst[len(w.dst)-1] == ' ' {
						w.dst[len(w.dst)-1] = '\n'
					}
				}
			} else {
				nls = 0
				if len(w.dst)+1 > limit {
					w.full = true
					return
				}
				w.dst = append(w.dst, c)
				space = false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		rb := text[i : i+size]
		if r == utf8.RuneError && size == 1 {
			rb = replacementChar
		}
		if len(w.dst)+len(rb) > limit {
			w.full = true
			return
		}
		if size == 1 {
			w.replaced++
		}
		w.dst = append(w.dst, rb...)
		space, nls = false, 0
		i += size
	}
}

// TestWriteRuns checks write against writeByteWise: the same text, cap
// flag and count of replaced bytes, for pieces of real payloads (markup,
// scripts, every script and language of the real WARC files) and of
// random bytes written one after another, under caps that cut them
// anywhere, with and without paragraph breaks.
func TestWriteRuns(t *testing.T) {
	var payloads [][]byte
	eachRecord(t, realWARCs(), func(r warc.Record) { payloads = append(payloads, r.Payload) })
	if len(payloads) == 0 {
		t.Fatal("no real payloads")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		b := make([]byte, rng.IntN(300))
		const alphabet = " \n\t\r\f\vab\x00\x7f\xc3\xa9\xe4\xb8\xad\xff"
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		payloads = append(payloads, b)
	}
	cases := 0
	for i, p := range payloads {
		for _, paras := range []bool{false, true} {
			max := 1 + rng.IntN(2*len(p)+2)
			got := textWriter{dst: []byte("x"), start: 1, max: max, paras: paras}
			want := got
			want.dst = bytes.Clone(got.dst)
			for rest := p; len(rest) > 0; {
				n := min(len(rest), 1+rng.IntN(200))
				got.write(rest[:n])
				writeByteWise(&want, rest[:n])
				rest = rest[n:]
			}
			if !bytes.Equal(got.dst, want.dst) || got.full != want.full || got.replaced != want.replaced {
				t.Fatalf("payload %d (max %d, paras %v): write gave %d bytes (full %v, replaced %d), byte-wise %d (full %v, replaced %d)",
					i, max, paras, len(got.dst), got.full, got.replaced, len(want.dst), want.full, want.replaced)
			}
			cases++
		}
	}
	t.Logf("%d payloads written", cases)
}
