// Command testsum runs go test -json with the given arguments and prints
// what go test prints without -json (a line per package, the output of
// each failed test), then the tests skipped with their reason and one
// closing line counting the tests (and subtests) passed, skipped and
// failed. Its exit status is go test's. `make test` runs it:
//
//	go run ./scripts/testsum -count=1 ./...
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

func main() {
	cmd := exec.Command("go", append([]string{"test", "-json"}, os.Args[1:]...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsum:", err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testsum:", err)
		os.Exit(2)
	}
	counts := map[string]int{}
	buf := map[string][]string{} // output of each running test
	var skipped []string
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			fmt.Println(sc.Text()) // not an event: pass it on
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "build-output":
			fmt.Print(e.Output)
		case e.Test == "" && e.Action == "fail":
			// A test binary that died (a timeout, a crash) leaves tests that
			// never ended: their output, the panic included, goes out here.
			for _, k := range sortedKeys(buf) {
				if strings.HasPrefix(k, e.Package+" ") {
					fmt.Print(strings.Join(buf[k], ""))
					delete(buf, k)
					counts["fail"]++
				}
			}
		case e.Test == "" && e.Action == "output" && e.Output == "PASS\n": // go test without -v does not print it
		case e.Test == "" && e.Action == "output":
			fmt.Print(e.Output) // ok/FAIL lines of packages, and what a package prints outside tests
		case e.Test == "":
		case e.Action == "output":
			buf[key] = append(buf[key], e.Output)
		case e.Action == "pass" || e.Action == "fail" || e.Action == "skip":
			counts[e.Action]++
			if e.Action == "fail" {
				fmt.Print(strings.Join(buf[key], ""))
			}
			if e.Action == "skip" {
				skipped = append(skipped, fmt.Sprintf("  %s %s: %s", e.Package, e.Test, skipReason(buf[key])))
			}
			delete(buf, key)
		}
	}
	err = cmd.Wait()
	sort.Strings(skipped)
	if len(skipped) > 0 {
		fmt.Printf("skipped:\n%s\n", strings.Join(skipped, "\n"))
	}
	fmt.Printf("tests: %d passed, %d skipped, %d failed (tests and subtests)\n", counts["pass"], counts["skip"], counts["fail"])
	if err != nil {
		if x, ok := err.(*exec.ExitError); ok {
			os.Exit(x.ExitCode())
		}
		fmt.Fprintln(os.Stderr, "testsum:", err)
		os.Exit(2)
	}
}

func sortedKeys(m map[string][]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// skipReason is the last line a skipped test printed (t.Skip's message),
// without the file:line prefix and the --- SKIP line.
func skipReason(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "--- SKIP") || strings.HasPrefix(l, "=== ") {
			continue
		}
		if _, rest, ok := strings.Cut(l, ".go:"); ok {
			if _, msg, ok := strings.Cut(rest, ": "); ok {
				return msg
			}
		}
		return l
	}
	return "(no reason given)"
}
