// Package output is the job's output contract in plain Go: the names of
// the files the job writes into its output directory (sharded JSON lines,
// summary.json, _SUCCESS, temporary names), which names are the job's
// (IsJobFile, what --overwrite removes), summary.json's Summary with its
// statistics table, and the run info it records (RunInfo, BuildVersion).
//
// The sharded outputs: their rows (PairRecord, Reject, Decision, Cluster,
// records.go), their formats (Format: JSON lines, plain or gzip, and
// Parquet; an Encoder writes a shard, a Decoder reads one), their names
// (Format.ShardName, Glob) and the one reader every consumer uses (Read,
// Decode). Every field and column is documented in docs/outputs.md. The
// Beam stages that write these files are transforms' (WriteLines,
// WriteSummary, Outputs.Commit).
//
// Commit protocol: every output file is first written under a temporary
// name in the output directory, TempPrefix + run ID + "-" + its final name
// (a dot file that no pairs-* glob matches), and renamed to its
// final name once every one is written; SuccessFile is written last. A
// run that dies before the commit leaves only temporary names and no
// SuccessFile; a reader trusts a directory only when SuccessFile is there.
package output

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
)

// SummaryFile is the name of the summary under the output directory.
const SummaryFile = "summary.json"

// SuccessFile is written last into the output directory, empty, once every
// other output has its final name.
const SuccessFile = "_SUCCESS"

// TempPrefix starts the temporary name of every output file.
const TempPrefix = ".ndd-beam-tmp-"

// ProbeFile is the file the launch-time check writes and removes to check
// that the output directory is writable, followed by "-" and the run ID
// (two runs starting together do not trip over each other's probe).
const ProbeFile = ".ndd-beam-write-probe"

// The sharded outputs (<prefix>-SSSSS-of-NNNNN<suffix>, the suffix of
// their Format).
const (
	Pairs     = "pairs"
	Rejects   = "rejects"
	Decisions = "decisions"
	Clusters  = "clusters"
)

// Sharded lists the sharded outputs.
var Sharded = []string{Pairs, Rejects, Decisions, Clusters}

// ShardName is the name of shard i of n of the output called prefix in
// format f: "<prefix>-SSSSS-of-NNNNN<f.Suffix>" (shards numbered from 0,
// five digits).
func (f *Format) ShardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d%s", prefix, i, n, f.Suffix)
}

// Glob is the glob (filepath.Match syntax, also for gs:// and s3://
// listings) of the shards of the output called prefix in dir, in every
// format: dir/<prefix>-*-of-*. Read takes it.
func Glob(dir, prefix string) string { return JoinPath(dir, prefix+"-*-of-*") }

var shardRE = regexp.MustCompile(`^(` + strings.Join(Sharded, "|") + `)-[0-9]{5}-of-[0-9]{5}(` + suffixAlternatives() + `)$`)

func suffixAlternatives() string {
	var alt []string
	for _, f := range formats {
		alt = append(alt, regexp.QuoteMeta(f.Suffix))
	}
	return strings.Join(alt, "|")
}

// IsJobFile reports whether name (a file name, no directory) is one this
// job writes into its output directory: a shard of any --shards, summary.json,
// _SUCCESS, a temporary name or the write probe. --overwrite removes exactly
// these.
func IsJobFile(name string) bool {
	return shardRE.MatchString(name) || name == SummaryFile || name == SuccessFile ||
		strings.HasPrefix(name, TempPrefix) || strings.HasPrefix(name, ProbeFile)
}

// JoinPath joins a directory (local path or gs:// prefix, with or without a
// trailing slash) and a file name with "/".
func JoinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// TempPath is the temporary path in dir of the output file name of the run
// runID.
func TempPath(dir, runID, name string) string {
	return JoinPath(dir, TempPrefix+runID+"-"+name)
}

// NewRunID returns a fresh random run ID (16 hex digits), which names the
// run's temporary files.
func NewRunID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
