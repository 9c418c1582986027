#!/usr/bin/env bash
# bench-job.sh: the job-level benchmarks (docs/benchmarks.md,
# "Job cost"), each figure from one run on this machine:
#   gold    both dev gold sets together: gunzip CPU, the direct job's CPU and
#           peak RSS, the in-process runner's (ndd-eval inprocess) CPU and RSS,
#           extraction alone; $ROUNDS interleaved rounds (default 1), then
#           the means and the issue's ratios
#   skewed  the skewed crawl (ndd-eval skewed): the direct job's wall time,
#           peak RSS and pairs, and its decisions scored (every copy group
#           keeps one page, every distinct article is kept); bytes per pairs
#           line, plain and with --compression=gzip
#   scaled  the dev gold set 16 times, 5 % of words perturbed per copy
#           (ndd-eval scaled): the direct job's CPU, RSS, largest task
#   crawl   a crawl-shaped input of short pages (ndd-eval crawl, seeded:
#           100,000 distinct articles, 5,000 soft-404s, 2,000 copies, 1,000
#           one-word variants; CRAWL_SCALE=10 for ten times as many):
#           gunzip, the in-process job and the direct job ($ROUNDS
#           interleaved rounds, default 1), then the prism job; their CPU,
#           peak RSS and wall, the ratios of the means, and the direct and
#           prism outputs compared byte for byte
#   formats the sharded outputs as JSON lines, gzip JSON lines and Parquet on
#           both dev gold sets and the crawl: the job's CPU ($ROUNDS interleaved
#           rounds, default 3: means, spread, ratios) and each output's bytes;
#           then the writing alone (output.BenchmarkEncode on the crawl's lines)
# Usage: scripts/bench-job.sh [gold|skewed|scaled|crawl|formats]... (default: gold skewed)
# Needs ../shared/data; writes under ${BENCH_DIR:-/tmp/ndd-bench}.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED:-../shared/data}
dir=${BENCH_DIR:-/tmp/ndd-bench}
mkdir -p "$dir"
trap 'rm -f "$dir/time.$$" "$dir/rounds.$$"' EXIT
go build -o "$dir/ndd-beam" ./cmd/ndd-beam
go build -o "$dir/ndd-eval" ./cmd/ndd-eval

# measure NAME CMD...: user+sys CPU seconds, peak RSS MB and wall seconds of CMD
measure() {
  local name=$1; shift
  /usr/bin/time -f "%U %S %M %e" -o "$dir/time.$$" "$@" > "$dir/$name.out" 2> "$dir/$name.err" || { cat "$dir/$name.err" >&2; return 1; }
  awk -v n="$name" '{printf "%-28s %8.2f CPU-s %8.0f MB peak RSS %8.1f s wall\n", n, $1 + $2, $3 / 1024, $4}' "$dir/time.$$" | tee -a "$dir/rounds.$$"
}

job() { # job NAME INPUT... : the direct job with default parameters (plus $JOB_FLAGS) into $dir/out-NAME
  local name=$1; shift
  local input; input=$(IFS=,; echo "$*")
  rm -rf "$dir/out-$name"
  measure "direct $name" "$dir/ndd-beam" --runner=direct --input="$input" --output="$dir/out-$name/" ${JOB_FLAGS:-}
}

# pairbytes NAME: bytes per pairs line in $dir/out-NAME (plain or .gz files)
pairbytes() {
  local lines bytes
  lines=$(grep -o '"pairs": *[0-9]*' "$dir/out-$1/summary.json" | grep -o '[0-9]*$') # every line, exact ones too
  bytes=$(cat "$dir"/out-"$1"/pairs-* | wc -c)
  echo "$1: pairs bytes $bytes, $((bytes / lines)) bytes a line"
}

echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(git rev-parse --short HEAD)"
for what in "${@:-gold skewed}"; do
  for w in $what; do
    case $w in
    gold)
      gold=("$shared/goldset/gold.warc.gz" "$shared/goldset-ml/gold.warc.gz")
      rm -f "$dir/rounds.$$"
      for _ in $(seq "${ROUNDS:-1}"); do
        measure "gunzip both gold sets" sh -c "gzip -dc ${gold[*]} > /dev/null"
        job gold "${gold[@]}"
        measure "in-process both gold sets" "$dir/ndd-eval" inprocess "${gold[@]}"
        measure "extraction only (in-process)" "$dir/ndd-eval" inprocess --extract-only "${gold[@]}"
      done
      # means over the rounds, and the targets' ratios of the means
      awk '{name = substr($0, 1, 28); sub(/ +$/, "", name); cpu[name] += $(NF - 8); n[name]++}
        END {for (k in cpu) m[k] = cpu[k] / n[k]
          g = m["gunzip both gold sets"]; d = m["direct gold"]; p = m["in-process both gold sets"]; e = m["extraction only (in-process)"]
          printf "means of %d rounds: gunzip %.2f, direct %.2f, in-process %.2f, extraction %.2f CPU-s\n", n["direct gold"], g, d, p, e
          printf "direct/gunzip %.2f (target <= 3.5), direct/in-process %.2f (<= 1.5), after extraction/extraction %.2f (<= 0.5)\n", d / g, d / p, (d - e) / e}' "$dir/rounds.$$"
      grep -o '"pairs": *[0-9]*\|"kept": *[0-9]*\|"largest_group": *[0-9]*' "$dir/out-gold/summary.json" | tr '\n' ' '; echo
      pairbytes gold
      JOB_FLAGS=--compression=gzip job gold-gzip "${gold[@]}"
      pairbytes gold-gzip
      cat "$dir/in-process both gold sets.out"
      ;;
    skewed)
      [ -f "$dir/skewed/skewed.warc.gz" ] || "$dir/ndd-eval" skewed --out "$dir/skewed" --gold "$shared/goldset" --gold-ml "$shared/goldset-ml"
      job skewed "$dir/skewed/skewed.warc.gz"
      grep -o '"pairs": *[0-9]*\|"exact_copies": *[0-9]*\|"largest_group": *[0-9]*\|"kept": *[0-9]*' "$dir/out-skewed/summary.json" | tr '\n' ' '; echo
      pairbytes skewed
      "$dir/ndd-eval" decisions --decisions "$dir/out-skewed/decisions*.jsonl" --truth "$dir/skewed/truth.jsonl" | grep -E 'drop (precision|recall)|unique pages dropped'
      JOB_FLAGS=--compression=gzip job skewed-gzip "$dir/skewed/skewed.warc.gz"
      pairbytes skewed-gzip
      ;;
    scaled)
      [ -f "$dir/scaled/scaled.warc.gz" ] || "$dir/ndd-eval" scaled --out "$dir/scaled" --warc "$shared/goldset/gold.warc.gz" --copies 16 --perturb 0.05
      job scaled "$dir/scaled/scaled.warc.gz"
      grep -o '"documents": *[0-9]*\|"pairs": *[0-9]*\|"largest_group": *[0-9]*\|"partitions": *[0-9]*' "$dir/out-scaled/summary.json" | tr '\n' ' '; echo
      ;;
    crawl)
      k=${CRAWL_SCALE:-1}
      c="$dir/crawl-x$k"
      [ -f "$c/crawl.warc.gz" ] || "$dir/ndd-eval" crawl --out "$c" --gold "$shared/goldset" \
        --distinct $((100000 * k)) --soft404 $((5000 * k)) --copies $((2000 * k)) --variants $((1000 * k))
      rm -f "$dir/rounds.$$"
      for _ in $(seq "${ROUNDS:-1}"); do
        measure "gunzip crawl" sh -c "gzip -dc $c/crawl.warc.gz > /dev/null"
        measure "in-process crawl" "$dir/ndd-eval" inprocess "$c/crawl.warc.gz"
        job crawl "$c/crawl.warc.gz"
      done
      rm -rf "$dir/out-crawl-prism"
      measure "prism crawl" "$dir/ndd-beam" --runner=prism --input="$c/crawl.warc.gz" --output="$dir/out-crawl-prism/"
      # means over the rounds, and the targets' ratios of the means
      awk '{name = substr($0, 1, 28); sub(/ +$/, "", name); cpu[name] += $(NF - 8); wall[name] += $(NF - 2); n[name]++}
        END {d = cpu["direct crawl"] / n["direct crawl"]; p = cpu["in-process crawl"] / n["in-process crawl"]; w = wall["direct crawl"] / n["direct crawl"]
          printf "means of %d rounds: in-process %.2f, direct %.2f CPU-s, direct %.1f s wall\n", n["direct crawl"], p, d, w
          printf "direct/in-process CPU %.2f (target <= 1.5), direct wall/CPU %.2f (<= 0.65 on idle cores)\n", d / p, w / d}' "$dir/rounds.$$"
      for f in pairs decisions clusters; do
        cmp -s <(cat "$dir"/out-crawl/$f-*) <(cat "$dir"/out-crawl-prism/$f-*) && echo "crawl $f: direct = prism" || echo "crawl $f: direct != prism"
      done
      grep -o '"pairs": *[0-9]*\|"kept": *[0-9]*\|"dropped": *[0-9]*\|"partitions": *[0-9]*\|"largest_group_signatures": *[0-9]*' "$dir/out-crawl/summary.json" | tr '\n' ' '; echo
      ;;
    formats)
      # each dev gold set and the crawl (as above, CRAWL_SCALE) written as JSON lines, gzip JSON lines and Parquet:
      # $ROUNDS interleaved rounds (default 3) of the three direct jobs, their CPU means and spread, the Parquet/JSON
      # lines CPU ratio, and the bytes of each output in each format (docs/benchmarks.md, "Output formats")
      k=${CRAWL_SCALE:-1}
      c="$dir/crawl-x$k"
      [ -f "$c/crawl.warc.gz" ] || "$dir/ndd-eval" crawl --out "$c" --gold "$shared/goldset" \
        --distinct $((100000 * k)) --soft404 $((5000 * k)) --copies $((2000 * k)) --variants $((1000 * k))
      for set in "gold-en:$shared/goldset/gold.warc.gz" "gold-ml:$shared/goldset-ml/gold.warc.gz" "crawl:$c/crawl.warc.gz"; do
        name=${set%%:*}
        rm -f "$dir/rounds.$$"
        for _ in $(seq "${ROUNDS:-3}"); do
          JOB_FLAGS= job "$name-jsonl" "${set#*:}"
          JOB_FLAGS=--compression=gzip job "$name-gzip" "${set#*:}"
          JOB_FLAGS=--output_format=parquet job "$name-parquet" "${set#*:}"
        done
        awk -v set="$name" '{n = $2; sub(/.*-/, "", n); v = $(NF - 8)
            s[n] += v; q[n] += v * v; c[n]++; if (!(n in lo) || v < lo[n]) lo[n] = v; if (v > hi[n]) hi[n] = v}
          END {for (f in s) {m[f] = s[f] / c[f]; sd = sqrt(q[f] / c[f] - m[f] * m[f] + 1e-12)
              printf "%s %-7s CPU-s mean %6.2f sd %5.2f min %6.2f max %6.2f (%d runs)\n", set, f, m[f], sd, lo[f], hi[f], c[f]}
            printf "%s parquet/jsonl CPU %.3f, gzip/jsonl %.3f, parquet/gzip %.3f (target parquet/jsonl <= 1.10)\n", set, m["parquet"] / m["jsonl"], m["gzip"] / m["jsonl"], m["parquet"] / m["gzip"]}' "$dir/rounds.$$"
        for o in pairs decisions clusters rejects; do
          j=$(cat "$dir/out-$name-jsonl"/$o-* | wc -c); g=$(cat "$dir/out-$name-gzip"/$o-* | wc -c); q=$(cat "$dir/out-$name-parquet"/$o-* | wc -c)
          echo "$name $o bytes: jsonl $j, gzip $g, parquet $q (parquet/gzip $(awk -v q="$q" -v g="$g" 'BEGIN {printf "%.3f", q / g}'))"
        done
        echo "$name all bytes: jsonl $(cat "$dir/out-$name-jsonl"/*-of-* | wc -c), gzip $(cat "$dir/out-$name-gzip"/*-of-* | wc -c), parquet $(cat "$dir/out-$name-parquet"/*-of-* | wc -c)"
      done
      # the writing alone: the crawl's JSON lines encoded in each format (output.BenchmarkEncode; cpu-ms/op)
      NDD_BENCH_OUTPUT="$dir/out-crawl-jsonl" go test -run='^$' -bench=Encode -benchtime=3x -count="${ROUNDS:-3}" ./output/ | grep Benchmark
      ;;
    *) echo "bench-job.sh: unknown benchmark $w (gold, skewed, scaled, crawl, formats)" >&2; exit 2 ;;
    esac
  done
done
