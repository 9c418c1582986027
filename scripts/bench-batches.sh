#!/usr/bin/env bash
# bench-batches.sh: scheduled batches over a month (docs/benchmarks.md,
# "30 daily batches"). ndd-eval batches writes $DAYS daily batches of $PAGES
# pages of a recurring crawl (each day re-captures earlier days' pages at
# their URIs, byte-identical or lightly edited, beside new articles,
# soft-404s, copies and mirrors); the job runs them one after the other,
# day 1 with --write_index=IX, day K > 1 with --against=IX --write_index=IX,
# each under /usr/bin/time (CPU = user + sys, wall, peak RSS), then each day
# of $ALONE (default: the last) alone, without the index. Each day's
# segment is labelled dayKK (--index_label). With COMPACT_EVERY=N the index
# is compacted (ndd-eval index compact, timed) after every N-th day. After
# each day: the index's pages, bytes and segments (ndd-eval index IX) and
# Parquet files; from its summary.json the pages, kept, dropped, dropped
# for index pages and the index pages the batch reached. Prints a line per
# run as it goes, then a markdown table and the ratios of the issue's
# targets. Direct runner, default parameters. A single run of each day
# varies by 10-20 % on a shared machine, so the first and last days then
# run again in $ROUNDS interleaved rounds (default 3): day 1 writing its
# segment into an empty directory, and the last day against the index as
# it was before that day (a copy kept for this) writing into another; the
# ratio of their median CPU is printed beside the sequence's.
# Usage: scripts/bench-batches.sh
#   DAYS=30 PAGES=36000 ALONE="30" COMPACT_EVERY= ROUNDS=3 BENCH_DIR=/tmp/ndd-batches GOLDSET=../shared/data/goldset
# The batches are written once into $BENCH_DIR/batches-dDAYS-pPAGES and
# reused; the index and outputs are written again on every run.
set -euo pipefail
cd "$(dirname "$0")/.."
days=${DAYS:-30}
pages=${PAGES:-36000}
alone=${ALONE:-$days}
dir=${BENCH_DIR:-/tmp/ndd-batches}
gold=${GOLDSET:-../shared/data/goldset}
bin=bin/ndd-beam
mkdir -p "$dir"
make --no-print-directory build BIN="$bin"
go build -o "$dir/ndd-eval" ./cmd/ndd-eval

gen="$dir/batches-d$days-p$pages"
if [ ! -f "$gen/batches.json" ]; then
  echo "# writing $days batches of $pages pages into $gen"
  /usr/bin/time -f "# written in %e s wall, %U user %S sys CPU-s" "$dir/ndd-eval" batches --out "$gen" --gold "$gold" --days "$days" --pages "$pages"
fi
day() { printf '%s/day-%0*d/crawl.warc.gz' "$gen" "$(( ${#days} > 2 ? ${#days} : 2 ))" "$1"; }

ix="$dir/index"
last_ix="$dir/index-before-last" # the index as the last day found it, for the rounds
rows="$dir/rows.tsv"
rounds=${ROUNDS:-3}
rm -rf "$ix" "$last_ix" "$dir"/out-* "$dir"/alone-* "$dir"/round-*
: > "$rows"
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +modified)"

# sumstat OUT KEY: the integer KEY of OUT/summary.json, or - when absent
sumstat() { grep -o "\"$2\": *[0-9]*" "$1/summary.json" | head -1 | grep -o '[0-9]*$' || echo -; }

# index: pages, bytes and segments of the index (ndd-eval index's total line; 0 0 0 before day 1), and its Parquet files
index() {
  if [ -d "$ix" ]; then
    "$dir/ndd-eval" index "$ix" | awk '$1 == "total" {printf "%s %s %s", $2, $3, $(NF - 1)}'
    echo " $(find "$ix" -name '*.parquet' | wc -l)"
  else
    echo 0 0 0 0
  fi
}

# run NAME OUT FLAGS...: the direct job on a batch into OUT, timed; prints CPU-s, peak RSS KB, wall s
run() {
  local name=$1 out=$2; shift 2
  /usr/bin/time -f "%U %S %M %e" -o "$dir/time" "$bin" --runner=direct --output="$out/" "$@" > "$dir/$name.out" 2> "$dir/$name.err" ||
    { cat "$dir/$name.err" >&2; exit 1; }
  awk '{printf "%.2f %d %.1f", $1 + $2, $3, $4}' "$dir/time"
}

# one row per run: kind day pages kept dropped for_index index_read reached cpu rss_kb wall ix_pages ix_bytes ix_segments ix_files
for k in $(seq "$days"); do
  read -r before _ <<< "$(index)"
  flags=(--input="$(day "$k")" --write_index="$ix" --index_label="$(printf 'day%02d' "$k")")
  [ "$k" -gt 1 ] && flags+=(--against="$ix")
  [ "$k" -eq "$days" ] && [ "$k" -gt 1 ] && [ "$rounds" -gt 0 ] && cp -a "$ix" "$last_ix"
  out="$dir/out-$k"
  t=$(run "day-$k" "$out" "${flags[@]}")
  echo "batch $k $(sumstat "$out" pages) $(sumstat "$out" kept) $(sumstat "$out" dropped) $(sumstat "$out" dropped_for_index) $before $(sumstat "$out" index_pages_reached) $t $(index)" | tee -a "$rows"
  if [ -n "${COMPACT_EVERY:-}" ] && [ $((k % COMPACT_EVERY)) -eq 0 ] && [ "$k" -lt "$days" ]; then
    /usr/bin/time -f "%U %S %M %e" -o "$dir/time" "$dir/ndd-eval" index compact "$ix" > "$dir/compact-$k.out" 2>&1 ||
      { cat "$dir/compact-$k.out" >&2; exit 1; }
    echo "compact $k - - - - - - $(awk '{printf "%.2f %d %.1f", $1 + $2, $3, $4}' "$dir/time") $(index)" | tee -a "$rows"
  fi
done
for k in $alone; do
  out="$dir/alone-$k"
  t=$(run "alone-$k" "$out" --input="$(day "$k")")
  echo "alone $k $(sumstat "$out" pages) $(sumstat "$out" kept) $(sumstat "$out" dropped) - 0 - $t 0 0 0 0" | tee -a "$rows"
done
# rounds: day 1 and the last day again, interleaved, each writing its segment into an empty directory
if [ "$days" -gt 1 ]; then
  for r in $(seq "$rounds"); do
    rm -rf "$dir/round-ix1" "$dir/round-ixN" "$dir"/round-out-*
    t=$(run "round-$r-1" "$dir/round-out-1" --input="$(day 1)" --write_index="$dir/round-ix1" --index_label=day01)
    echo "round 1 - - - - - - $t 0 0 0 0" | tee -a "$rows"
    t=$(run "round-$r-$days" "$dir/round-out-$days" --input="$(day "$days")" --against="$last_ix" --write_index="$dir/round-ixN" --index_label=last)
    echo "round $days - - - - - - $t 0 0 0 0" | tee -a "$rows"
  done
fi
echo "# $(date -u +%FT%TZ) done, load $(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "| batch | pages | kept | dropped (for index pages) | index pages read | reached | CPU-s | wall | peak RSS | index after: pages | MB | segments | Parquet files |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
awk 'function c(n,  s) {if (n !~ /^[0-9]+$/) return n; s = ""; while (n >= 1000) {s = sprintf(",%03d", n % 1000) s; n = int(n / 1000)} return n s}
  $1 == "batch" {printf "| %s | %s | %s | %s (%s) | %s | %s | %.1f | %.1f s | %s MB | %s | %.1f | %d | %d |\n", $2, c($3), c($4), c($5), c($6), c($7), c($8), $9, $11, c(int($10 / 1024 + 0.5)), c($12), $13 / 1e6, $14, $15}
  $1 == "compact" {printf "| compacted after %s | – | – | – | – | – | %.1f | %.1f s | %s MB | %s | %.1f | %d | %d |\n", $2, $9, $11, c(int($10 / 1024 + 0.5)), c($12), $13 / 1e6, $14, $15}
  $1 == "alone" {printf "| %s alone | %s | %s | %s | – | – | %.1f | %.1f s | %s MB | – | – | – | – |\n", $2, c($3), c($4), c($5), $9, $11, c(int($10 / 1024 + 0.5))}' "$rows"
echo
awk -v last="$days" -v alone="$alone" '$1 == "batch" {cpu[$2] = $9; rss[$2] = $10; read[$2] = $7; if ($10 > peak) {peak = $10; at = $2}}
  $1 == "alone" {acpu[$2] = $9; arss[$2] = $10}
  END {printf "batch %d / batch 1 CPU: %.2f / %.2f = %.2f (target <= 1.5)\n", last, cpu[last], cpu[1], cpu[last] / cpu[1]
    n = split(alone, ks, " ")
    for (i = 1; i <= n; i++) {
      k = ks[i]
      printf "batch %d in sequence / alone: CPU %.2f / %.2f = %.2f; peak RSS %d / %d MB", k, cpu[k], acpu[k], cpu[k] / acpu[k], rss[k] / 1024, arss[k] / 1024
      if (read[k] > 0) printf "; (peak - peak alone) / index pages read = %.0f bytes a page (target <= 1024)", (rss[k] - arss[k]) * 1024 / read[k]
      printf "\n"}
    printf "largest peak RSS: %d MB, batch %d (target <= 2048 MB every batch)\n", peak / 1024, at}' "$rows"
# median of a day's round CPU-s
median() { awk -v d="$1" '$1 == "round" && $2 == d {print $9}' "$rows" | sort -g | awk '{v[NR] = $1} END {if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
if [ "$days" -gt 1 ] && [ "$rounds" -gt 0 ]; then
  m1=$(median 1) mn=$(median "$days")
  echo "rounds (CPU-s): day 1 $(awk '$1 == "round" && $2 == 1 {printf "%s ", $9}' "$rows")| day $days $(awk -v d="$days" '$1 == "round" && $2 == d {printf "%s ", $9}' "$rows")"
  awk -v a="$mn" -v b="$m1" -v d="$days" -v n="$rounds" 'BEGIN {printf "batch %d / batch 1 CPU, medians of %d interleaved rounds: %.2f / %.2f = %.2f (target <= 1.5)\n", d, n, a, b, a / b}'
fi
