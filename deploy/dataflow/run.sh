#!/usr/bin/env bash
# Runs ndd-beam on Google Cloud Dataflow, after checking every input.
#
#   make build worker
#   PROJECT=my-project REGION=europe-west1 BUCKET=gs://my-bucket \
#   INPUT='gs://my-bucket/crawl/*.warc.gz' deploy/dataflow/run.sh [--dry_run] [ndd-beam flags]
#
# Variables (each checked; every problem is one line on stderr, exit 2,
# before anything is submitted):
#   PROJECT   Google Cloud project ID (required)
#   REGION    Dataflow region, e.g. europe-west1 (required)
#   INPUT     comma-separated gs:// WARC globs (required)
#   BUCKET    gs://BUCKET, the default home of the three below
#   OUTPUT    gs:// output prefix (default $BUCKET/ndd-beam/<UTC time>/)
#   STAGING   gs:// staging location (default $BUCKET/staging)
#   TEMP      gs:// temp location (default $BUCKET/tmp)
#   WORKER    static linux/amd64 worker binary (default bin/ndd-beam-worker, from make worker)
#   NDD_BEAM  the command that submits (default bin/ndd-beam, from make build, else go run ./cmd/ndd-beam,
#             which turns every failing exit status into 1)
#
# It builds nothing: make worker builds the worker binary, make build the launcher.
#
# --dry_run: check all of the above, then let ndd-beam check every job flag
# and build and translate the Dataflow job without credentials or submitting.
set -uo pipefail
cd "$(dirname "$0")/../.."

errors=0
problem() { echo "run.sh: $*" >&2; errors=$((errors + 1)); }

# gcs VAR VALUE: VALUE is gs://BUCKET/... with a valid bucket name.
gcs() {
  if [[ -z "$2" ]]; then
    problem "$1 is not set (want gs://BUCKET/PATH)"
  elif [[ ! "$2" =~ ^gs://[a-z0-9][a-z0-9._-]{1,221}[a-z0-9](/.*)?$ ]]; then
    problem "$1=$2: want gs://BUCKET/PATH (Dataflow workers cannot read or write local paths)"
  fi
}

BUCKET="${BUCKET:-}"
BUCKET="${BUCKET%/}"
if [[ -n "$BUCKET" ]]; then
  gcs BUCKET "$BUCKET"
  OUTPUT="${OUTPUT:-$BUCKET/ndd-beam/$(date -u +%Y%m%dT%H%M%SZ)/}"
  STAGING="${STAGING:-$BUCKET/staging}"
  TEMP="${TEMP:-$BUCKET/tmp}"
fi

PROJECT="${PROJECT:-}"
if [[ -z "$PROJECT" ]]; then
  problem "PROJECT is not set (the Google Cloud project ID)"
elif [[ ! "$PROJECT" =~ ^([a-z0-9.-]+:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$ ]]; then
  problem "PROJECT=$PROJECT: not a project ID (6-30 lowercase letters, digits, hyphens; starts with a letter)"
fi
REGION="${REGION:-}"
if [[ -z "$REGION" ]]; then
  problem "REGION is not set (a Dataflow region, e.g. europe-west1)"
elif [[ ! "$REGION" =~ ^[a-z]+-[a-z]+[0-9]+$ ]]; then
  problem "REGION=$REGION: not a region (e.g. europe-west1, us-central1; a zone like us-central1-a is not a region)"
fi

INPUT="${INPUT:-}"
if [[ -z "$INPUT" ]]; then
  problem "INPUT is not set (comma-separated gs:// WARC globs)"
else
  IFS=',' read -ra globs <<<"$INPUT"
  for g in "${globs[@]}"; do
    gcs INPUT "$g"
  done
fi
gcs OUTPUT "${OUTPUT:-}"
gcs STAGING "${STAGING:-}"
gcs TEMP "${TEMP:-}"

WORKER="${WORKER:-bin/ndd-beam-worker}"
if [[ ! -f "$WORKER" ]]; then
  problem "WORKER=$WORKER: no such file (build it with make worker)"
elif [[ "$(od -An -tx1 -N20 "$WORKER" | tr -d ' \n')" != 7f454c4602* ]] ||
  [[ "$(od -An -tx1 -j18 -N2 "$WORKER" | tr -d ' \n')" != 3e00 ]]; then
  problem "WORKER=$WORKER: not a linux/amd64 ELF executable (build it with make worker)"
fi

if ((errors > 0)); then
  exit 2
fi

default_launcher="go run ./cmd/ndd-beam"
if [[ -x bin/ndd-beam ]]; then
  default_launcher=bin/ndd-beam
fi
read -ra launcher <<<"${NDD_BEAM:-$default_launcher}"
"${launcher[@]}" \
  --runner=dataflow \
  --project="$PROJECT" \
  --region="$REGION" \
  --staging_location="$STAGING" \
  --temp_location="$TEMP" \
  --worker_binary="$WORKER" \
  --input="$INPUT" \
  --output="$OUTPUT" \
  "$@"
status=$?
if ((status == 0)) && [[ " $* " != *" --dry_run "* ]]; then
  echo "run.sh: output: $OUTPUT" >&2
fi
exit $status
