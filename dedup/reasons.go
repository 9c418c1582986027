package dedup

import (
	"slices"

	"github.com/ndd-beam/ndd-beam/output"
	"github.com/ndd-beam/ndd-beam/warc"
)

// The job's own reject reasons, beside the reader's (warc.Skip*, which
// warc.ReadFile emits and warc keeps), and the reasons of the rejects that
// are still pages (output.ReasonNoSignatures, output.ReasonTooFewSignatures,
// output.IsPageReason). Reasons lists them all.
const (
	// ReasonUnreadableFile: the WARC file could not be opened, or reading it
	// failed with an I/O error (not a format error, which warc.ReadFile
	// reports per record). It counts as one record at offset -1 (open) or
	// at the offset reached.
	ReasonUnreadableFile = "unreadable-file"
	// ReasonIrregularFile: the input path is not a regular file and is not
	// opened: a directory, a FIFO, a device (/dev/zero), a socket, a
	// dangling symbolic link or a symbolic link loop. One record at offset
	// -1; the detail says which.
	ReasonIrregularFile = "irregular-file"
	// ReasonEmptyFile: the input file holds 0 bytes. One record at offset
	// -1.
	ReasonEmptyFile = "empty-file"
	// ReasonDuplicateFile: the input path reaches a file that another input
	// path reaches too (a symbolic link, a hard link, "./a" and "a", the
	// same URL spelt twice), which is read once under the other path, named
	// in the detail. One record at offset -1 for the path not read.
	ReasonDuplicateFile = "duplicate-file"
	// ReasonBadText: a payload-to-text error of the signer other than
	// spotsig.ErrNotText and spotsig.ErrBinary (not expected; the detail
	// has it). What is a page is decided once, by the WARC reader
	// (warc.Options media types and its binary sniffing): should spotsig's
	// own checks still refuse a payload, the reject carries the reader's
	// reason, warc.SkipNotHTML or warc.SkipBinaryPayload (TextReason), so
	// one page policy has one set of names.
	ReasonBadText = "text-error"
)

// Reasons lists every reject reason of the job, the reader's
// (warc.Reasons) first: the values of Reject.Reason, of the keys of
// summary.json's "skipped" and of the counters "<stage>/skipped-<reason>"
// (docs/robustness.md lists each).
var Reasons = slices.Concat(warc.Reasons, []string{
	ReasonUnreadableFile, ReasonIrregularFile, ReasonEmptyFile, ReasonDuplicateFile,
	ReasonBadText, output.ReasonNoSignatures, output.ReasonTooFewSignatures,
})
