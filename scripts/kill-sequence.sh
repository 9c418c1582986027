#!/usr/bin/env bash
# kill-sequence.sh: scheduled batches under kills and concurrent runs
# (docs/robustness.md, "Kills and concurrent runs").
#
#   kills N        N trials (default 50) of a 3-batch scheduled sequence
#                  (each batch --against=INDEX --write_index=INDEX
#                  --index_label=bK); in each trial one batch, drawn at
#                  random, is killed at a random point: one of the named
#                  points of the commit protocol (NDD_BEAM_FAULT, package
#                  internal/fault) or SIGKILL after a random delay of 0 to
#                  1.2 s. A killed batch without _SUCCESS is run again with
#                  --overwrite, as a cron retry would, and the sequence goes
#                  on. The final outputs and index must equal an unkilled
#                  sequence's byte for byte (summary.json and segment.json
#                  without their times, run info and own paths); no
#                  temporary file, partial segment or lock may be left.
#   concurrent N   N trials (default 20) of two runs started together on one
#                  --output and one index (--against and --write_index):
#                  exactly one must succeed, and the other exit 2 with one
#                  line on stderr.
#   concurrent-index N   the same with two outputs and one index; here both
#                  may also succeed one after the other (the second took
#                  the lock after the first released it): then the second
#                  must have read the first's segment, which is counted
#                  apart.
#
# Usage: scripts/kill-sequence.sh [kills [N]] [concurrent [N]] [concurrent-index [N]] (default: all three)
# Writes under ${KILL_DIR:-/tmp/ndd-kill}; prints one line per trial and the
# counts; exit 1 if any trial failed. Seed: $SEED (default: the time).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${KILL_DIR:-/tmp/ndd-kill}
seed=${SEED:-$(date +%s)}
RANDOM=$seed
rm -rf "$dir"
mkdir -p "$dir/crawl/b1" "$dir/crawl/b2" "$dir/crawl/b3"
go build -o "$dir/ndd-beam" ./cmd/ndd-beam
bin="$dir/ndd-beam"
td=$PWD/testdata
# Three batches with copies across them, so that later batches drop pages
# for the index: b2 holds a copy of b1's dolma file, b3 a copy of b2's.
cp "$td/dolma__sample-0000.warc.gz" "$td/resiliparse__warcfile.warc.gz" "$dir/crawl/b1/"
cp "$td/dolma__sample-0001.warc.gz" "$dir/crawl/b2/"
cp "$td/dolma__sample-0000.warc.gz" "$dir/crawl/b2/copy-of-b1.warc.gz"
cp "$td/commoncrawl-whirlwind__whirlwind.warc.gz" "$dir/crawl/b3/"
cp "$td/dolma__sample-0001.warc.gz" "$dir/crawl/b3/copy-of-b2.warc.gz"
points=(launched index-files index-committed output-renamed output-committed)

# batch ROOT K [VAR=VALUE] [FLAG...]: run batch K of the sequence in ROOT
# (with the environment variable and extra flags); prints the exit status.
batch() {
	local root=$1 k=$2 envv=${3:-NDD_BEAM_FAULT=}
	shift 2
	[ $# -gt 0 ] && shift
	env "$envv" "$bin" --input="$dir/crawl/b$k" --output="$root/out/b$k" --against="$root/index" \
		--write_index="$root/index" --index_label="b$k" "$@" >"$root/b$k.stdout" 2>"$root/b$k.stderr" && echo 0 || echo $?
}

# same REF ROOT: compare the outputs and index of two sequences; prints differences.
same() {
	python3 - "$1" "$2" <<'EOF'
import json, os, sys
ref, got = sys.argv[1], sys.argv[2]
def files(root):
    out = {}
    for d, _, fs in os.walk(root):
        for f in fs:
            p = os.path.relpath(os.path.join(d, f), root)
            if p.endswith((".stdout", ".stderr")):
                continue
            out[p] = open(os.path.join(d, f), "rb").read()
    return out
def norm(p, b, root):
    name = os.path.basename(p)
    if name == "summary.json":
        s = json.loads(b)
        for k in ("run", "output", "index_dir", "against"):
            s.pop(k, None)
        return json.dumps(s, sort_keys=True).encode()
    if name == "segment.json":
        s = json.loads(b)
        for k in ("created", "output"):
            s.pop(k, None)
        return json.dumps(s, sort_keys=True).encode()
    return b
a, b = files(ref), files(got)
for p in sorted(set(a) | set(b)):
    if p not in a:
        print("extra", p)
    elif p not in b:
        print("missing", p)
    elif norm(p, a[p], ref) != norm(p, b[p], got):
        print("differs", p)
EOF
}

kills() {
	local n=$1 ok=0 bad=0 named=0 timed=0 reruns=0
	local ref="$dir/ref"
	mkdir -p "$ref"
	for k in 1 2 3; do
		[ "$(batch "$ref" $k)" = 0 ] || { echo "reference batch $k failed: $(cat "$ref/b$k.stderr")"; exit 1; }
	done
	for i in $(seq 1 "$n"); do
		local root="$dir/trial-$i" victim=$((RANDOM % 3 + 1)) how status
		mkdir -p "$root"
		for k in 1 2 3; do
			if [ $k -eq $victim ]; then
				if [ $((RANDOM % 2)) -eq 0 ]; then
					how=${points[$((RANDOM % ${#points[@]}))]}
					named=$((named + 1))
					status=$(batch "$root" $k NDD_BEAM_FAULT="$how")
				else
					local ms=$((RANDOM % 1200))
					how="SIGKILL after ${ms} ms"
					timed=$((timed + 1))
					"$bin" --input="$dir/crawl/b$k" --output="$root/out/b$k" --against="$root/index" \
						--write_index="$root/index" --index_label="b$k" >"$root/b$k.stdout" 2>"$root/b$k.stderr" &
					local pid=$!
					sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
					kill -KILL $pid 2>/dev/null || true
					status=0
					wait $pid || status=$?
				fi
				if [ ! -e "$root/out/b$k/_SUCCESS" ]; then
					reruns=$((reruns + 1))
					status=$(batch "$root" $k NDD_BEAM_FAULT= --overwrite)
				fi
			else
				status=$(batch "$root" $k)
			fi
			if [ "$status" != 0 ] && [ ! -e "$root/out/b$k/_SUCCESS" ]; then
				echo "trial $i: batch $k failed after the kill ($how): $(cat "$root/b$k.stderr")"
			fi
		done
		local diffs
		diffs=$(same "$ref" "$root" | grep -v '\.ndd-beam-lock$' || true)
		# A lock may only be left by a run killed after its commit (the retry did not run).
		local locks
		locks=$(find "$root" -name .ndd-beam-lock | wc -l)
		if [ -z "$diffs" ] && { [ "$locks" -eq 0 ] || [ -e "$root/out/b$victim/_SUCCESS" ]; }; then
			ok=$((ok + 1))
			echo "trial $i: batch $victim killed ($how): identical"
			rm -rf "$root"
		else
			bad=$((bad + 1))
			echo "trial $i: batch $victim killed ($how): DIFFERS: $(echo "$diffs" | tr '\n' ' ') locks=$locks"
		fi
	done
	echo "kills: $n trials (seed $seed; $named at named points, $timed by SIGKILL after a delay; $reruns reruns): $ok identical, $bad differ"
	[ $bad -eq 0 ]
}

# concurrent N [SEPARATE]: two runs at once on one index and one output
# (two outputs when SEPARATE is given).
concurrent() {
	local n=$1 separate=${2:-} ok=0 bad=0 serial=0
	for i in $(seq 1 "$n"); do
		local root="$dir/conc-$i"
		local oa="$root/out" ob="$root/out"
		if [ -n "$separate" ]; then oa="$root/out-a"; ob="$root/out-b"; fi
		mkdir -p "$root"
		"$bin" --input="$dir/crawl/b1" --output="$oa" --against="$root/index" --write_index="$root/index" --index_label=a >"$root/a.stdout" 2>"$root/a.stderr" &
		local pa=$!
		"$bin" --input="$dir/crawl/b2" --output="$ob" --against="$root/index" --write_index="$root/index" --index_label=b >"$root/b.stdout" 2>"$root/b.stderr" &
		local pb=$!
		local sa=0 sb=0
		wait $pa || sa=$?
		wait $pb || sb=$?
		local loser=""
		if [ $sa -eq 0 ] && [ $sb -eq 2 ]; then loser=b; fi
		if [ $sb -eq 0 ] && [ $sa -eq 2 ]; then loser=a; fi
		# the loser's stderr: one line (the winner may print the "starts it" note)
		local winner_out=$oa
		[ "$loser" = a ] && winner_out=$ob
		if [ -n "$loser" ] && [ "$(wc -l <"$root/$loser.stderr")" -eq 1 ] && [ -e "$winner_out/_SUCCESS" ] &&
			[ "$(find "$root/index" -maxdepth 1 -name 'segment-*' | wc -l)" -eq 1 ]; then
			ok=$((ok + 1))
			echo "trial $i: one succeeded, the other exit 2: $(cat "$root/$loser.stderr")"
			rm -rf "$root"
		elif [ -n "$separate" ] && [ $sa -eq 0 ] && [ $sb -eq 0 ] &&
			[ "$(cat "$root/a.stderr" "$root/b.stderr" | grep -c 'this run starts it')" -eq 1 ] &&
			[ "$(cat "$root/a.stdout" "$root/b.stdout" | grep -c 'of them for pages of earlier runs')" -eq 1 ]; then
			serial=$((serial + 1))
			echo "trial $i: the two ran one after the other, the second against the first's segment"
			rm -rf "$root"
		else
			bad=$((bad + 1))
			echo "trial $i: FAILED: exit $sa and $sb; a: $(cat "$root/a.stderr") b: $(cat "$root/b.stderr")"
		fi
	done
	echo "concurrent${separate:+ (two outputs, one index)}: $n trials: $ok with exactly one success and one exit 2 on one line,${separate:+ $serial run one after the other (the second read the segment of the first),} $bad otherwise"
	[ $bad -eq 0 ]
}

status=0
if [ $# -eq 0 ]; then set -- kills concurrent concurrent-index; fi
while [ $# -gt 0 ]; do
	what=$1
	shift
	n=""
	if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then n=$1; shift; fi
	case $what in
	kills) kills "${n:-50}" || status=1 ;;
	concurrent) concurrent "${n:-20}" || status=1 ;;
	concurrent-index) concurrent "${n:-20}" separate || status=1 ;;
	*) echo "usage: $0 [kills [N]] [concurrent [N]] [concurrent-index [N]]" >&2; exit 2 ;;
	esac
done
exit $status
