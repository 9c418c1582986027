#!/usr/bin/env bash
# identity.sh OLD NEW [WORK]: run two ndd-beam binaries on the same inputs and check their outputs are
# byte-identical, for a refactor that must not change what the job writes.
#
# Cases (data paths as the Makefile's: ../shared beside the clone):
#   testdata        --input='testdata/*.warc*'
#   shared          --input=../shared/data/warc/ (its .warc.gz and .warc files)
#   gold, gold-ml   ../shared/data/goldset/gold.warc.gz, ../shared/data/goldset-ml/gold.warc.gz
#   gold-grid       the gold set with --max_group_signatures=20000: hot partitions cut into task grids
#   against-shared  the first 9 shared WARC files with --write_index, the other 8 --against that index
#   against-gold    the gold set's alternate records (gzip members): batch 1 --write_index, batch 2 --against it,
#                   once unbounded and once with --max_group_signatures=20000 (the --against task grid)
#
# OLD's outputs are kept in WORK/old and reused while OLD's sha256 is the same (give WORK to rerun cheaply).
#
# Both binaries write to the same paths (a run's directory is moved aside after it), so paths in the outputs agree.
# Compared byte for byte: every file of every output and index segment, except
#   - summary.json: compared with its "run" object removed (start, end, wall_seconds, cpu_seconds, version,
#     revision, beam_sdk, runner);
#   - an index segment's segment.json: compared with "created" (the run's start time) removed.
# Index labels are fixed (--index_label), so segment names, kept_by_segment and cluster segments compare as is.
# Exit status 0 when every case is identical, 1 otherwise (the differing files are listed).
set -euo pipefail

old=$(realpath "$1")
new=$(realpath "$2")
work=${3:-$(mktemp -d /tmp/ndd-identity.XXXXXX)}
mkdir -p "$work"
shared=../shared/data
run=$work/run

# split_gold SRC DIR: alternate gzip members of SRC into DIR/batch1.warc.gz and DIR/batch2.warc.gz
split_gold() {
	python3 - "$1" "$2" <<'EOF'
import sys, zlib
src, out = sys.argv[1], sys.argv[2]
data = open(src, 'rb').read()
view = memoryview(data)
parts, off, i = [bytearray(), bytearray()], 0, 0
while off < len(data):
    d, pos = zlib.decompressobj(31), off
    while not d.eof and pos < len(data):  # the member in 64 KiB pieces, never a copy of the rest
        chunk = view[pos:pos + (1 << 16)]
        d.decompress(chunk)
        pos += len(chunk)
    end = pos - len(d.unused_data)
    parts[i % 2] += view[off:end]
    off, i = end, i + 1
for k in (0, 1):
    open(f"{out}/batch{k+1}.warc.gz", 'wb').write(parts[k])
EOF
}

mkdir -p "$work/in"
[ -f "$work/in/batch2.warc.gz" ] || split_gold "$shared/goldset/gold.warc.gz" "$work/in"
mapfile -t sharedfiles < <(ls "$shared"/warc/*.warc "$shared"/warc/*.warc.gz | sort)
half1=$(IFS=,; echo "${sharedfiles[*]:0:9}")
half2=$(IFS=,; echo "${sharedfiles[*]:9}")

# runcase BIN NAME: the runs of case NAME with BIN, everything under $run/NAME
runcase() {
	local bin=$1 name=$2 d=$run/$2
	rm -rf "$d"
	mkdir -p "$d"
	case $name in
	testdata) "$bin" --input='testdata/*.warc*' --output="$d/out" ;;
	shared) "$bin" --input="$shared/warc/" --output="$d/out" ;;
	gold) "$bin" --input="$shared/goldset/gold.warc.gz" --output="$d/out" ;;
	gold-ml) "$bin" --input="$shared/goldset-ml/gold.warc.gz" --output="$d/out" ;;
	gold-grid) "$bin" --input="$shared/goldset/gold.warc.gz" --output="$d/out" --max_group_signatures=20000 ;;
	against-shared)
		"$bin" --input="$half1" --output="$d/out1" --write_index="$d/ix" --index_label=one
		"$bin" --input="$half2" --output="$d/out2" --against="$d/ix" --write_index="$d/ix" --index_label=two ;;
	against-gold)
		"$bin" --input="$work/in/batch1.warc.gz" --output="$d/out1" --write_index="$d/ix" --index_label=one
		"$bin" --input="$work/in/batch2.warc.gz" --output="$d/out2" --against="$d/ix"
		"$bin" --input="$work/in/batch2.warc.gz" --output="$d/out3" --against="$d/ix" --max_group_signatures=20000 ;;
	esac >"$d.log" 2>&1 || { echo "identity: $name failed with $bin:"; cat "$d.log"; return 1; }
}

oldsum=$(sha256sum <"$old")
if [ "$(cat "$work/old/.sha256" 2>/dev/null)" != "$oldsum" ]; then
	rm -rf "$work/old"
	mkdir -p "$work/old"
	echo "$oldsum" >"$work/old/.sha256"
fi
cases=(testdata shared gold gold-ml gold-grid against-shared against-gold)
fail=0
for name in "${cases[@]}"; do
	for side in old new; do
		bin=$old
		[ $side = new ] && bin=$new
		if [ $side = old ] && [ -d "$work/old/$name" ] && [ "$(cat "$work/old/.sha256" 2>/dev/null)" = "$oldsum" ]; then
			continue
		fi
		runcase "$bin" "$name"
		rm -rf "$work/$side/$name"
		mkdir -p "$work/$side"
		mv "$run/$name" "$work/$side/$name"
	done
	a=$work/old/$name b=$work/new/$name bad=0
	if ! diff <(cd "$a" && find . -type f | sort) <(cd "$b" && find . -type f | sort); then
		bad=1
	fi
	while read -r f; do
		[ -f "$b/$f" ] || continue
		case $(basename "$f") in
		summary.json) cmp -s <(jq -S 'del(.run)' "$a/$f") <(jq -S 'del(.run)' "$b/$f") || { echo "differs: $name/$f"; bad=1; } ;;
		segment.json) cmp -s <(jq -S 'del(.created)' "$a/$f") <(jq -S 'del(.created)' "$b/$f") || { echo "differs: $name/$f"; bad=1; } ;;
		*) cmp -s "$a/$f" "$b/$f" || { echo "differs: $name/$f"; bad=1; } ;;
		esac
	done < <(cd "$a" && find . -type f | sort)
	n=$(cd "$a" && find . -type f | wc -l)
	if [ $bad = 0 ]; then
		echo "identical: $name ($n files)"
	else
		echo "DIFFERENT: $name"
		fail=1
	fi
done
[ $fail = 0 ] && echo "identity: all ${#cases[@]} cases identical ($work)" || echo "identity: outputs differ ($work)"
exit $fail
