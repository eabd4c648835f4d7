#!/usr/bin/env bash
# Runs every fuzz target of the project (every `func FuzzXxx` in a _test.go
# file) for a short budget each. Inputs a fuzzer finds failing are written
# by `go test` under the package's testdata/fuzz/<FuzzXxx>/ and kept there as
# regression cases, which plain `go test` then always runs.
set -euo pipefail
cd "$(dirname "$0")/.."
# A count budget (N inputs) rather than a duration: a duration's deadline can
# end a run with a spurious "context deadline exceeded" while workers are
# mid-exchange, which is a failure of the tool, not of the code.
fuzztime="${FUZZTIME:-10000x}"
grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r file; do
	pkg="./$(dirname "${file#./}")"
	for name in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | cut -d' ' -f2); do
		echo "fuzz $pkg $name ($fuzztime)"
		if ! out=$(go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" 2>&1); then
			echo "$out"
			# Only an input the fuzzer wrote down is a finding; anything
			# else (the engine's own deadline) gets one more run.
			if grep -q 'Failing input written' <<<"$out"; then exit 1; fi
			echo "fuzz: retrying $name once"
			go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime"
		else
			echo "$out" | tail -1
		fi
	done
done
