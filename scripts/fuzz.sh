#!/usr/bin/env bash
# Runs every fuzz target of the project (every `func FuzzXxx` in a _test.go
# file) for a short budget each. Inputs a fuzzer finds failing are written
# by `go test` under the package's testdata/fuzz/<FuzzXxx>/ and kept there as
# regression cases, which plain `go test` then always runs.
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
grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r file; do
	pkg="./$(dirname "${file#./}")"
	for name in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | cut -d' ' -f2); do
		budget="$fuzztime"
		own=$(grep -B8 "^func ${name}(" "$file" | sed -n 's/^\/\/.*Fuzz budget: \([0-9]*\) inputs.*/\1/p' | tail -1)
		if [[ -n "$own" && "$count" =~ ^[0-9]+$ ]]; then
			budget="$(( (own * count + 9999) / 10000 ))x"
		fi
		echo "fuzz $pkg $name ($budget)"
		out=$(go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$budget" 2>&1) || {
			echo "$out" | tail -40
			exit 1
		}
		echo "$out" | tail -1
	done
done
