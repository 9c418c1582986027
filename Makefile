# ndd-beam: common tasks. Every target works on a fresh clone with Go >= 1.26.
GO      ?= go
INPUT   ?= testdata/*.warc*
OUTPUT  ?= out/
BENCH   ?= .
GOLDSET ?= ../shared/data/goldset
GOLDSET_ML ?= ../shared/data/goldset-ml
SHARED  ?= ../shared/data/warc
REALSET ?= ../shared/data/realset
# REALPAGES: the WARC files of eval/realpages (two small public WARCs of single sites, origins in its README)
REALPAGES ?= eval/realpages/warcs
# REALSETS_WARCS: the WARC files of each eval/realsets/NAME/ in REALSETS_WARCS/NAME/ (public files named with their origin
# and sha256 in each set's README; fetched data stays out of this repository)
REALSETS_WARCS ?= ../shared/data/realsets

# VERSION, REVISION: stamped into the binaries by make build and make worker (ndd-beam --version, summary.json
# run.version and run.revision): the latest v* tag or a Go pseudo-version, and the commit (+modified: uncommitted changes)
VERSION  ?= $(shell git describe --tags --match 'v*' 2>/dev/null || TZ=UTC git log -1 --abbrev=12 --format=v0.0.0-%cd-%h --date=format-local:%Y%m%d%H%M%S 2>/dev/null)
REVISION ?= $(shell r=$$(git rev-parse HEAD 2>/dev/null) && { git diff --quiet HEAD 2>/dev/null || r="$$r+modified"; echo "$$r"; })
LDFLAGS  := -X github.com/ndd-beam/ndd-beam/output.linkVersion=$(VERSION) -X github.com/ndd-beam/ndd-beam/output.linkRevision=$(REVISION)
.DEFAULT_GOAL := build

# need: a recipe line that stops the target with one line saying which data it needs and where, when $(1) is missing
need = @test -e '$(1)' || { echo "make $@: needs $(2) at $(1), missing. It is the project's data folder ../shared/data beside the clone (not in the repository; tests that need it skip without it); set $(3)=PATH to use a copy elsewhere" >&2; exit 2; }

# BIN: where make build writes the job's binary
BIN      ?= bin/ndd-beam

.PHONY: help warc-check warc-check-deps build run test bench bench-go bench-job bench-batches worker lint eval fuzz clean template template-metadata report report-browser-check check-decisions duckdb

## help: this list: every target and what it does, one line each
help:
	@awk '/^## [a-z-]+:/ { t = $$2; sub(/:$$/, "", t); d = $$0; sub(/^## [a-z-]+: /, "", d); printf "  %-21s %s\n", t, d }' $(firstword $(MAKEFILE_LIST))

## build: the job's binary in BIN (bin/ndd-beam), stamped with VERSION and REVISION
## On cold caches it downloads ~1.2 GB of modules and compiles Apache Beam (minutes; README, "Your own crawl"): it then
## says so and prints a line per 100 packages compiled; a rebuild prints nothing. go build's own errors pass through.
build: SHELL := /bin/bash
build: .SHELLFLAGS := -o pipefail -c
build:
	@$(GO) build -v -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/ndd-beam 2>&1 | awk -v out='$(BIN)' '\
		/^[A-Za-z0-9._~\/-]+$$/ { if (n++ == 0) print "make build: compiling " out " and the packages it imports (the first build compiles Apache Beam: minutes)" > "/dev/stderr"; \
			if (n % 100 == 0) print "make build: " n " packages compiled" > "/dev/stderr"; next } { print > "/dev/stderr" }'

## run: the job on the bundled real WARC files (testdata/) into OUTPUT (out/), replacing an earlier run there
## Direct runner, default parameters; the built binary, so its exit status is the job's
run: build
	$(BIN) --runner=direct --input='$(INPUT)' --output=$(OUTPUT) --overwrite

## test: the whole test suite (the command CI runs), ending with the tests passed, skipped (with why) and failed
## (scripts/testsum over go test -json; -count=1 because the test cache does not see ../shared/data)
test:
	@$(GO) build -o bin/testsum ./scripts/testsum
	bin/testsum -count=1 ./...

## duckdb: installs DuckDB from npm (scripts/duckdb), the test's independent Parquet reader
## (npm @duckdb/node-api, pinned in scripts/duckdb/package-lock.json) for the test that opens the Parquet outputs with it (cmd/ndd-beam TestOutputsInDuckDB, skipped without it; .ci/run installs it)
duckdb:
	npm ci --prefix scripts/duckdb --no-audit --no-fund

## bench: bench-go, then bench-job (numbers go to docs/benchmarks.md)
bench: bench-go bench-job

## bench-go: the Go benchmarks of extraction and matching
bench-go:
	$(GO) test -run='^$$' -bench='$(BENCH)' -benchmem ./spotsig/ ./match/

## bench-job: the job's cost on the gold sets (needs ../shared/data), a skewed crawl and 108,000 short pages
## Details: both gold sets against gunzip and the in-process runner, the skewed crawl and a crawl of 108,000 short
## pages (direct and prism; CRAWL_SCALE=10 for 1,080,000)
## (JOBS="gold skewed crawl scaled" adds the 16x perturbed gold set; ROUNDS=N repeats the gold-set and crawl rounds and
## prints their means; scripts/bench-job.sh)
JOBS ?= gold skewed crawl
bench-job:
	$(if $(filter gold scaled,$(JOBS)),$(call need,$(GOLDSET)/gold.warc.gz,the dev gold set,GOLDSET))
	scripts/bench-job.sh $(JOBS)

## bench-batches: 30 daily batches of a recurring crawl, each run against the index of the days before (needs ../shared/data)
## Details: ndd-eval batches writes DAYS (30) batches of PAGES (36,000) pages, each day re-capturing earlier days' pages;
## bin/ndd-beam runs them in sequence, day 1 with --write_index, day K > 1 with --against and --write_index on the same
## index, then the days of ALONE (default: the last) alone; CPU, wall, peak RSS and the index's size per day as a
## markdown table (scripts/bench-batches.sh; batches and outputs under BENCH_DIR, default /tmp/ndd-batches;
## COMPACT_EVERY=N compacts the index after every N-th day with ndd-eval index compact); then day 1 and the last day
## again in ROUNDS (3) interleaved rounds, and the ratio of their median CPU (single runs vary by 10-20 %)
DAYS  ?= 30
PAGES ?= 36000
bench-batches:
	$(call need,$(GOLDSET)/core_texts.jsonl.gz,the dev gold set's core texts,GOLDSET)
	DAYS=$(DAYS) PAGES=$(PAGES) GOLDSET=$(GOLDSET) scripts/bench-batches.sh

## worker: bin/ndd-beam-worker, the static linux/amd64 binary Dataflow and Flink workers run
## (--worker_binary=bin/ndd-beam-worker). It rebuilds everything for CGO_ENABLED=0 GOOS=linux -trimpath: on a warm
## cache about as long as a first make build (docs/deploy.md)
worker:
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/ndd-beam-worker ./cmd/ndd-beam

## template-metadata: deploy/dataflow/metadata.json from the job's flags (a test checks it is current)
template-metadata:
	$(GO) run ./cmd/ndd-beam --print_template_metadata > deploy/dataflow/metadata.json.tmp
	mv deploy/dataflow/metadata.json.tmp deploy/dataflow/metadata.json

## template: the Dataflow flex template: launcher image built and pushed, spec written (needs Docker and gcloud)
## Image from deploy/dataflow/Dockerfile (needs Docker, gcloud and a Google Cloud project; IMAGE=REGION-docker.pkg.dev/PROJECT/REPO/ndd-beam:TAG TEMPLATE=gs://BUCKET/templates/ndd-beam.json)
template:
	@if [ -z "$(IMAGE)" ] || [ -z "$(TEMPLATE)" ]; then echo "make template: set IMAGE=REGION-docker.pkg.dev/PROJECT/REPO/ndd-beam:TAG and TEMPLATE=gs://BUCKET/templates/ndd-beam.json" >&2; exit 2; fi
	docker build -f deploy/dataflow/Dockerfile -t $(IMAGE) .
	docker push $(IMAGE)
	gcloud dataflow flex-template build $(TEMPLATE) --image=$(IMAGE) --sdk-language=GO --metadata-file=deploy/dataflow/metadata.json

## warc-check-deps: installs warcio.js from npm (scripts/warccheck, ~10 MB), the test's independent WARC reader
## With it the --write_warc test reads every filtered record with warcio.js instead of skipping that part
warc-check-deps:
	npm ci --prefix scripts/warccheck --no-audit --no-fund

## warc-check: reads every record of FILES (default out-warc/*.warc*) with warcio.js: lengths and digests checked
## One JSON line per record (scripts/warccheck/check.mjs)
FILES ?= out-warc/*.warc*
warc-check: warc-check-deps
	node scripts/warccheck/check.mjs $(FILES)

## lint: go vet (also of the Windows build) and gofmt
lint:
	$(GO) vet ./...
	GOOS=windows $(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## eval: keep/drop precision and recall on the labelled sets of ../shared/data; writes docs/quality.md and its plot
## Details: the job's decisions on the real-page sets (realset; eval/realpages when its WARC files are in REALPAGES;
## every eval/realsets/NAME/ whose WARC files are in REALSETS_WARCS/NAME/) and the gold sets, every method on the gold
## set over a sweep of tau, SpotSigs per language on the multilingual gold set, and the job on both gold sets with
## injected shared boilerplate
eval:
	$(call need,$(GOLDSET)/gold.warc.gz,the dev gold set,GOLDSET)
	$(call need,$(GOLDSET_ML)/gold.warc.gz,the multilingual gold set,GOLDSET_ML)
	$(call need,$(REALSET)/truth.tsv,the labelled real pages,REALSET)
	$(call need,$(SHARED),the shared WARC files,SHARED)
	$(GO) run ./cmd/ndd-eval sweep --warc $(GOLDSET)/gold.warc.gz --truth $(GOLDSET)/truth.jsonl --out docs/ \
		--real '$(REALSET)/truth.tsv:$(SHARED)/*.warc.gz,$(SHARED)/*.warc' \
		$(if $(wildcard $(REALPAGES)/*.warc*),--real 'eval/realpages/truth.tsv:$(REALPAGES)/*.warc*') \
		$(foreach t,$(wildcard eval/realsets/*/truth.tsv),$(if $(wildcard $(REALSETS_WARCS)/$(notdir $(patsubst %/,%,$(dir $(t))))/*.warc*),--real '$(t):$(REALSETS_WARCS)/$(notdir $(patsubst %/,%,$(dir $(t))))/*.warc*')) \
		--ml-warc $(GOLDSET_ML)/gold.warc.gz --ml-truth $(GOLDSET_ML)/truth.jsonl \
		--boilerplate-warc $(GOLDSET_ML)/gold.warc.gz --boilerplate-truth $(GOLDSET_ML)/truth.jsonl

## report: the run report of OUTPUT (default out/): one self-contained HTML file beside it, out.report.html
## (docs/outputs.md): summary, plots, dropped pages beside their kept pages
report:
	$(GO) run ./cmd/ndd-eval report $(OUTPUT)

## report-browser-check: the run report of the job on testdata checked in headless Chromium (apt: chromium)
## CHROMIUM names the browser (Debian packages chromium and chromium-driver); fails on a broken image, a plot without bars, a bar past its axes, a cut-off
## label, a sample without text or marks. REPORT=FILE checks that report instead; SCREENSHOT=FILE.png saves a screenshot
CHROMIUM ?= /usr/bin/chromium
report-browser-check:
	NDD_CHROMIUM=$(CHROMIUM) NDD_REPORT_HTML=$(REPORT) NDD_REPORT_SCREENSHOT=$(SCREENSHOT) \
		$(GO) test -count=1 -v -run '^TestRunReportInBrowser$$' ./eval/

## check-decisions: the guarantees of the decisions on the gold set and the shared WARC files (needs ../shared/data)
## The job on the dev gold set and on every shared WARC, the guarantees checked from the outputs; drop precision and
## recall on the gold set
check-decisions:
	$(call need,$(GOLDSET)/gold.warc.gz,the dev gold set,GOLDSET)
	$(GO) run ./cmd/ndd-beam --runner=direct --input=$(GOLDSET)/gold.warc.gz --output=out-check/gold/ --overwrite
	$(GO) run ./cmd/ndd-beam --runner=direct --input='$(SHARED)/*.warc.gz,$(SHARED)/*.warc' --output=out-check/shared/ --overwrite
	$(GO) run ./cmd/ndd-eval check out-check/gold/ out-check/shared/
	$(GO) run ./cmd/ndd-eval decisions --decisions 'out-check/gold/decisions-*.jsonl' --truth $(GOLDSET)/truth.jsonl

## clean: removes out/, out-check/, bin/ and out.report.html
clean:
	rm -rf out out-check bin out.report.html
