# Storyloom. `make play` builds everything and serves it; `make test` runs
# every test, browser tests included. Both install what they need,
# idempotently: Debian's chromium for the browser tests, npm packages
# (axe-core, wrangler, inkjs, biome) into node_modules/, staticcheck into GOPATH.

GO          ?= go
GOBIN       := $(shell $(GO) env GOPATH)/bin
STATICCHECK := $(GOBIN)/staticcheck
WASMEXEC    := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
ADDR        ?= 127.0.0.1:8080
FUZZTIME    ?= 10000x
# What the go test runs of `make test` share: no cached results; no vet of
# their own (lint-go runs the whole of go vet over the same packages); no
# DWARF in the test binaries, which only a debugger reads (a panic's or a
# race report's stack comes from the binary's own tables) and which is a
# quarter of linking one.
TESTFLAGS   := -count=1 -vet=off -ldflags=-w
# Every js/wasm compile of `make test` is -trimpath, as scripts/worker.sh
# builds the edge worker (which bundle/edge runs): the flag is part of
# every package's build-cache key, so without it the worker's build would
# compile the standard library and every dependency for js/wasm a second
# time (about 60 s of CPU on a fresh clone). Go vet and staticcheck read
# the same compiled packages.
WASMGO      := GOOS=js GOARCH=wasm GOFLAGS="$(GOFLAGS) -trimpath" $(GO)

.PHONY: all play build bundle test lint lint-src lint-go tools deps test-native test-checks test-race test-wasm fuzz bench worker worker-dev

all: test

## play: build the site and serve it on http://$(ADDR)/
play: build
	$(GO) run ./bundle serve -addr $(ADDR)

## build: the WASM module and the site, into dist/
build:
	$(GO) run ./bundle build

## bundle: the single-file offline bundle, dist/storyloom-offline.html
bundle:
	$(GO) run ./bundle offline

tools: $(STATICCHECK)

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

## deps: what the tests need beyond Go: chromium (apt) and node_modules (npm).
deps:
	sh scripts/setup-chromium.sh
	sh scripts/setup-node.sh

## lint: gofmt, go vet and staticcheck, native and for the js/wasm entry
## points; Biome (biome.json) over the page's and the scripts' JavaScript:
## its formatter (`biome format --write` mends what it finds) and its
## linter, import cycles included.
lint: lint-src lint-go

# lint-src reads the sources only; lint-go needs the packages compiled.
lint-src:
	sh scripts/setup-node.sh
	node_modules/.bin/biome check
	@out=$$(gofmt -l $$(git ls-files '*.go') 2>/dev/null); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# go vet here is the whole of it, over every package and its tests,
# natively and for js/wasm: the go test runs below leave out their own
# (-vet=off), a subset of the same checks over the same packages, which
# would analyse every dependency, the standard library included, once
# more in each of their build modes.
lint-go: tools
	$(GO) vet ./...
	$(WASMGO) vet ./wasm/... ./engine/... ./bundle/hosting
	$(STATICCHECK) ./...
	GOOS=js GOARCH=wasm GOFLAGS="$(GOFLAGS) -trimpath" $(STATICCHECK) ./wasm/... ./bundle/hosting

## test: every test natively (browser tests included) and, beside them,
## lint, the concurrency tests under -race, the engine's tests again as
## WASM under Node, and short fuzzing runs of every parser.
test: deps
	$(MAKE) --no-print-directory -j2 --output-sync=target test-native test-checks

# The browser and worker tests spend most of their time waiting on Chromium
# and wrangler rather than on the CPU, so the other checks run beside them,
# one after another; each fails `make test` all the same, without holding
# every test back until it is done. go vet and staticcheck come last: they
# need the native packages that test-native compiles as it starts, and the
# Go build cache shares only what is finished, so run beside that compile
# on a fresh clone's empty cache they would compile every package again.
# By the time the js/wasm, -race and fuzzing builds (none of which
# test-native shares) are done, the cache has them.
test-checks:
	$(MAKE) --no-print-directory -j1 lint-src test-wasm test-race fuzz lint-go

# The browser tests skip without chromium unless told to require it: after
# `deps`, a missing browser is a failure, never a silent skip.
# bundle/e2e and bundle/edge are the two longest packages by far: named
# first, they start first, side by side, and with -p 3 the other packages
# run one at a time beside them instead of waiting for one of the two to
# end. The whole-package timeout is a bound on a busy 2-core machine, where
# bundle/edge alone takes several minutes.
test-native:
	STORYLOOM_REQUIRE_BROWSER=1 $(GO) test $(TESTFLAGS) -p 3 -timeout 20m ./bundle/e2e ./bundle/edge ./...

test-race:
	$(GO) test $(TESTFLAGS) -race ./engine/session/... ./engine/core/... ./bundle/hosting/... ./bundle/owp/...

# The same engine tests under Node; -short trims only the longest sweeps
# (the rooms corpus's save/restore replay, random-game counts).
test-wasm:
	$(WASMGO) build ./engine/... ./wasm/...
	$(WASMGO) test $(TESTFLAGS) -short -exec="$(WASMEXEC)" ./engine/... ./wasm/...

## fuzz: every fuzz target for $(FUZZTIME) each (scripts/fuzz.sh finds them
## and builds one instrumented test binary per package).
fuzz:
	FUZZTIME=$(FUZZTIME) bash scripts/fuzz.sh

## bench: every benchmark, native, WASM, against inkjs and in the browser;
## the figures land in docs/performance.md (scripts/bench.sh says how).
bench:
	bash scripts/bench.sh

## worker: build the edge worker; worker-dev: build the site into dist/ and run
## both under `wrangler dev` (the site as static assets).
worker:
	bash scripts/worker.sh build

worker-dev:
	bash scripts/worker.sh dev
