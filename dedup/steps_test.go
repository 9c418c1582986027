package dedup

import (
	"bytes"
	"errors"
	"testing"

	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/warc"
)

// ReadWARC accounts for a file that gives no record: 0 bytes is one
// empty-file reject, a failed open one unreadable-file reject, each at
// offset -1.
func TestReadWARCFileWithoutRecords(t *testing.T) {
	for _, tc := range []struct {
		name    string
		openErr error
		want    string
	}{
		{"empty", nil, ReasonEmptyFile},
		{"unopened", errors.New("permission denied"), ReasonUnreadableFile},
	} {
		var rejects []output.Reject
		ReadFile(tc.name, bytes.NewReader(nil), tc.openErr, warc.Options{}, func(c Candidate) {
			t.Errorf("%s: candidate %+v", tc.name, c.Ref)
		}, func(r output.Reject) { rejects = append(rejects, r) })
		if len(rejects) != 1 || rejects[0].Reason != tc.want || rejects[0].Offset != -1 || rejects[0].File != tc.name {
			t.Errorf("%s: rejects %+v, want one %s at offset -1", tc.name, rejects, tc.want)
		}
	}
}
