#!/usr/bin/env bash
# Runs every fuzz target of the project (every `func FuzzXxx` in a _test.go
# file) for a short budget each. Inputs a fuzzer finds failing are written
# by the test binary under the package's testdata/fuzz/<FuzzXxx>/ and kept
# there as regression cases, which plain `go test` then always runs.
#
# Each package's instrumented test binary is built once (`go test -c
# -fuzz`), and every target of the package is fuzzed by running it from the
# package's directory with the flags `go test -fuzz` would pass: one link
# per package instead of one per target. It builds as the Makefile's
# TESTFLAGS do: -vet=off, since `make lint` runs the whole of go vet over
# the same packages and a vet here would analyse every dependency once
# more, instrumented; -ldflags=-w, no DWARF, which only a debugger reads.
#
# The budget is a count of inputs (FUZZTIME, 10000x by default) rather than a
# duration, whose deadline can end a run mid-exchange with the fuzzing
# workers. A target whose every input is costly (a whole game) names its own
# smaller count in its doc comment, as "Fuzz budget: N inputs"; it is scaled
# by the same factor as FUZZTIME against the default.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-10000x}"
count="${fuzztime%x}"
fuzzcache="$(go env GOCACHE)/fuzz"
bins=$(mktemp -d)
trap 'rm -rf "$bins"' EXIT
grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u | while read -r dir; do
	pkg="./${dir#./}"
	importpath=$(go list -f '{{.ImportPath}}' "$pkg")
	bin="$bins/$(echo "${dir#./}" | tr / _).test"
	echo "fuzz $pkg: building its instrumented test binary"
	go test -c -vet=off -ldflags=-w -fuzz=. -o "$bin" "$pkg"
	for file in $(grep -l '^func Fuzz' "$dir"/*_test.go); do
		for name in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | cut -d' ' -f2); do
			budget="$fuzztime"
			own=$(grep -B8 "^func ${name}(" "$file" | sed -n 's/^\/\/.*Fuzz budget: \([0-9]*\) inputs.*/\1/p' | tail -1)
			if [[ -n "$own" && "$count" =~ ^[0-9]+$ ]]; then
				budget="$(( (own * count + 9999) / 10000 ))x"
			fi
			echo "fuzz $pkg $name ($budget)"
			start=$SECONDS
			out=$(cd "$dir" && "$bin" -test.paniconexit0 -test.timeout=10m0s -test.run='^$' \
				-test.fuzz="^${name}\$" -test.fuzztime="$budget" -test.fuzzcachedir="$fuzzcache/$importpath" 2>&1) || {
				echo "$out" | tail -40
				echo "FAIL $importpath $name"
				exit 1
			}
			echo "ok $importpath $name $((SECONDS - start))s"
		done
	done
done
