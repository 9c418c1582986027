package warc_test

import (
	"fmt"
	"os"

	"github.com/ndd-beam/ndd-beam/warc"
)

// Read a WARC file with junk between its two records: both records are
// document candidates, the junk is one unreadable stretch at its own offset.
func ExampleReadFile() {
	f, err := os.Open("../testdata/warc-crafted/garbage-between-records.warc")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	err = warc.ReadFile(f, f.Name(), warc.Options{}, func(r warc.Record) error {
		if r.Skip != "" {
			fmt.Printf("%d skipped: %s (%s)\n", r.Offset, r.Skip, r.Detail)
			return nil
		}
		fmt.Printf("%d %s %s %s, %d payload bytes\n", r.Offset, r.RecordID, r.TargetURI, r.ContentType, len(r.Payload))
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// 0 urn:uuid:00000000-0000-4000-8000-000000000001 http://example.com/ text/html, 112 payload bytes
	// 421 skipped: unreadable (bytes that are not a WARC record)
	// 488 urn:uuid:00000000-0000-4000-8000-000000000002 http://example.com/ text/html, 112 payload bytes
}
