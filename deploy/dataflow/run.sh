#!/usr/bin/env bash
# Runs ndd-beam on Google Cloud Dataflow.
#
#   PROJECT=my-project REGION=europe-west1 BUCKET=gs://my-bucket \
#   INPUT='gs://my-bucket/crawl/*.warc.gz' deploy/dataflow/run.sh [extra ndd-beam flags]
#
# Builds the cross-compiled Linux worker (make worker) and submits the job.
# Pass --dry_run to check the job graph without submitting.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PROJECT:?set PROJECT}" "${REGION:?set REGION}" "${BUCKET:?set BUCKET (gs://...)}" "${INPUT:?set INPUT (gs:// glob)}"
OUTPUT="${OUTPUT:-$BUCKET/ndd-beam/$(date -u +%Y%m%dT%H%M%SZ)/}"

make worker
go run ./cmd/ndd-beam \
  --runner=dataflow \
  --project="$PROJECT" \
  --region="$REGION" \
  --staging_location="$BUCKET/staging" \
  --temp_location="$BUCKET/tmp" \
  --worker_binary=bin/ndd-beam-worker \
  --input="$INPUT" \
  --output="$OUTPUT" \
  "$@"
echo "output: $OUTPUT"
