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
# BIN: where make build writes the job's binary
BIN      ?= bin/ndd-beam

.PHONY: warc-check warc-check-deps build run test bench bench-go bench-job worker lint eval fuzz clean template template-metadata report report-browser-check check-decisions duckdb

## build: the job's binary in BIN (bin/ndd-beam), stamped with VERSION and REVISION
build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/ndd-beam

## run: the job on the bundled real WARC files, direct runner, default parameters (the built binary: its exit status is the job's)
run: build
	$(BIN) --runner=direct --input='$(INPUT)' --output=$(OUTPUT) --overwrite

## test: the whole test suite (the command CI runs); -count=1 because the test cache does not see ../shared/data
test:
	$(GO) test -count=1 ./...

## duckdb: DuckDB (npm @duckdb/node-api, pinned in scripts/duckdb/package-lock.json) for the test that opens the
## Parquet outputs with it (cmd/ndd-beam TestOutputsInDuckDB, skipped without it; .ci/run installs it)
duckdb:
	npm ci --prefix scripts/duckdb --no-audit --no-fund

## bench: extraction and matching benchmarks, then the job-level ones (numbers go to docs/benchmarks.md)
bench: bench-go bench-job

## bench-go: the Go benchmarks of extraction and matching
bench-go:
	$(GO) test -run='^$$' -bench='$(BENCH)' -benchmem ./spotsig/ ./match/

## bench-job: the job on both gold sets against gunzip and the in-process runner, on the skewed crawl and on a
## crawl of 108,000 short pages (direct and prism; CRAWL_SCALE=10 for 1,080,000)
## (JOBS="gold skewed crawl scaled" adds the 16x perturbed gold set; ROUNDS=N repeats the gold-set and crawl rounds and
## prints their means; scripts/bench-job.sh)
JOBS ?= gold skewed crawl
bench-job:
	scripts/bench-job.sh $(JOBS)

## worker: the cross-compiled Linux worker binary for Dataflow/Flink (--worker_binary=bin/ndd-beam-worker)
worker:
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/ndd-beam-worker ./cmd/ndd-beam

## template-metadata: deploy/dataflow/metadata.json from the job's flags (a test checks it is current)
template-metadata:
	$(GO) run ./cmd/ndd-beam --print_template_metadata > deploy/dataflow/metadata.json.tmp
	mv deploy/dataflow/metadata.json.tmp deploy/dataflow/metadata.json

## template: the Dataflow flex template: launcher image (deploy/dataflow/Dockerfile) built and pushed, spec written
## (needs Docker, gcloud and a Google Cloud project; IMAGE=REGION-docker.pkg.dev/PROJECT/REPO/ndd-beam:TAG TEMPLATE=gs://BUCKET/templates/ndd-beam.json)
template:
	@if [ -z "$(IMAGE)" ] || [ -z "$(TEMPLATE)" ]; then echo "make template: set IMAGE=REGION-docker.pkg.dev/PROJECT/REPO/ndd-beam:TAG and TEMPLATE=gs://BUCKET/templates/ndd-beam.json" >&2; exit 2; fi
	docker build -f deploy/dataflow/Dockerfile -t $(IMAGE) .
	docker push $(IMAGE)
	gcloud dataflow flex-template build $(TEMPLATE) --image=$(IMAGE) --sdk-language=GO --metadata-file=deploy/dataflow/metadata.json

## warc-check-deps: installs the independent WARC reader (warcio.js from npm, scripts/warccheck/node_modules; about
## 10 MB), which the --write_warc test then uses instead of skipping
warc-check-deps:
	npm ci --prefix scripts/warccheck --no-audit --no-fund

## warc-check: reads every record of the WARC files FILES (default the filtered ones in out-warc/) with warcio.js and
## prints one JSON line each: lengths and digests checked (scripts/warccheck/check.mjs)
FILES ?= out-warc/*.warc*
warc-check: warc-check-deps
	node scripts/warccheck/check.mjs $(FILES)

## lint: go vet (also of the Windows build) and gofmt
lint:
	$(GO) vet ./...
	GOOS=windows $(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## eval: the job's keep/drop decisions on the real-page sets (realset; eval/realpages when its WARC files are in
## REALPAGES; every eval/realsets/NAME/ whose WARC files are in REALSETS_WARCS/NAME/) and the gold sets, every method on the gold set over a sweep of tau, SpotSigs per language on the
## multilingual gold set, and the job on both gold sets with injected shared boilerplate; writes docs/quality.md and its plot
eval:
	$(GO) run ./cmd/ndd-eval sweep --warc $(GOLDSET)/gold.warc.gz --truth $(GOLDSET)/truth.jsonl --out docs/ \
		--real '$(REALSET)/truth.tsv:$(SHARED)/*.warc.gz,$(SHARED)/*.warc' \
		$(if $(wildcard $(REALPAGES)/*.warc*),--real 'eval/realpages/truth.tsv:$(REALPAGES)/*.warc*') \
		$(foreach t,$(wildcard eval/realsets/*/truth.tsv),$(if $(wildcard $(REALSETS_WARCS)/$(notdir $(patsubst %/,%,$(dir $(t))))/*.warc*),--real '$(t):$(REALSETS_WARCS)/$(notdir $(patsubst %/,%,$(dir $(t))))/*.warc*')) \
		--ml-warc $(GOLDSET_ML)/gold.warc.gz --ml-truth $(GOLDSET_ML)/truth.jsonl \
		--boilerplate-warc $(GOLDSET_ML)/gold.warc.gz --boilerplate-truth $(GOLDSET_ML)/truth.jsonl

## report: the run report of the run in OUTPUT, one self-contained HTML file beside it (out/ gives out.report.html;
## docs/outputs.md): summary, plots, dropped pages beside their kept pages
report:
	$(GO) run ./cmd/ndd-eval report $(OUTPUT)

## report-browser-check: the run report of the job on testdata rendered in headless Chromium (CHROMIUM; Debian
## packages chromium and chromium-driver); fails on a broken image, a plot without bars, a bar past its axes, a cut-off
## label, a sample without text or marks. REPORT=FILE checks that report instead; SCREENSHOT=FILE.png saves a screenshot
CHROMIUM ?= /usr/bin/chromium
report-browser-check:
	NDD_CHROMIUM=$(CHROMIUM) NDD_REPORT_HTML=$(REPORT) NDD_REPORT_SCREENSHOT=$(SCREENSHOT) \
		$(GO) test -count=1 -v -run '^TestRunReportInBrowser$$' ./eval/

## check-decisions: the job on the dev gold set and on every shared WARC; the guarantees of their decisions checked from the outputs; drop precision/recall on the gold set
check-decisions:
	$(GO) run ./cmd/ndd-beam --runner=direct --input=$(GOLDSET)/gold.warc.gz --output=out-check/gold/ --overwrite
	$(GO) run ./cmd/ndd-beam --runner=direct --input='$(SHARED)/*.warc.gz,$(SHARED)/*.warc' --output=out-check/shared/ --overwrite
	$(GO) run ./cmd/ndd-eval check out-check/gold/ out-check/shared/
	$(GO) run ./cmd/ndd-eval decisions --decisions 'out-check/gold/decisions-*.jsonl' --truth $(GOLDSET)/truth.jsonl

clean:
	rm -rf out out-check bin out.report.html
