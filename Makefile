# Storyloom. `make play` builds everything and serves it; `make test` runs
# every test. Both install what they need, idempotently.

GO        ?= go
GOBIN     := $(shell $(GO) env GOPATH)/bin
STATICCHECK := $(GOBIN)/staticcheck
WASMEXEC  := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec

.PHONY: all test lint tools bench play bundle fuzz test-native test-wasm

all: test

tools: $(STATICCHECK)

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

## lint: gofmt, go vet and staticcheck, native and for the js/wasm entry points.
lint: tools
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '^vendor/') 2>/dev/null); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...

## test: lint, then every test natively, the engine's tests again as WASM
## under Node, and short fuzzing runs.
test: lint test-native test-wasm fuzz

test-native:
	$(GO) test -count=1 ./...

test-wasm:
	GOOS=js GOARCH=wasm $(GO) build ./engine/...
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(WASMEXEC)" ./engine/...

FUZZTIME ?= 5s
fuzz:
	$(GO) test ./engine/canon -run '^$$' -fuzz '^FuzzCanonicalize$$' -fuzztime $(FUZZTIME)

bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./... | tee bench.txt
