#!/usr/bin/env bash
# Runs every fuzz target of the project (every `func FuzzXxx` in a _test.go
# file) for a short budget each. Inputs a fuzzer finds failing are written
# by `go test` under the package's testdata/fuzz/<FuzzXxx>/ and kept there as
# regression cases, which plain `go test` then always runs.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-4s}"
grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r file; do
	pkg="./$(dirname "${file#./}")"
	for name in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | cut -d' ' -f2); do
		echo "fuzz $pkg $name ($fuzztime)"
		go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime"
	done
done
