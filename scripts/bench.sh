#!/usr/bin/env bash
# bench.sh is `make bench`: every Go benchmark of the project natively, the
# engine's again as WASM under Node, the peer comparison against inkjs
# (bench/peer.mjs) and the browser figures (headless Chromium), then
# `bundle benchreport`, which rewrites the generated section of
# docs/performance.md, the charts in docs/perf/ and bench/out/results.json.
# It installs what it needs (npm packages, chromium) idempotently. Raw
# outputs stay in bench/out/ (git-ignored); compare two runs with benchstat,
# as docs/performance.md explains.
#
# Knobs (environment): BENCH_COUNT (3), BENCH_TIME (300ms), WASM_COUNT (3),
# WASM_TIME (300ms), PEER_RUNS (3), PEER_CHOICES (1000: choices per timed
# game), PEER_SAVE_AT (10000: choices before save/restore), BROWSER_COUNT (5).
set -uo pipefail

cd "$(dirname "$0")/.."

GO=${GO:-go}
COUNT=${BENCH_COUNT:-3}
BENCHTIME=${BENCH_TIME:-300ms}
WASM_COUNT=${WASM_COUNT:-3}
WASM_TIME=${WASM_TIME:-300ms}
PEER_RUNS=${PEER_RUNS:-3}
PEER_CHOICES=${PEER_CHOICES:-1000}
PEER_SAVE_AT=${PEER_SAVE_AT:-10000}
BROWSER_COUNT=${BROWSER_COUNT:-5}
OUT=bench/out
BENCHSTAT='golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da'

mkdir -p "$OUT"
start=$(date +%s)
commands=()   # every command whose output the report uses, as run
failures=()   # steps that failed; the report says so

# step NAME OUTFILE CMD...: runs CMD (a shell string) with its output in
# OUTFILE (and on the terminal), records the command, notes a failure.
step() {
	local name=$1 out=$2 cmd=$3
	echo "== bench: $name" >&2
	commands+=("$cmd")
	local t0=$SECONDS
	if ! bash -o pipefail -c "$cmd" 2>&1 | tee "$out"; then
		failures+=("$name: \`$cmd\` failed (see $out)")
	fi
	echo "== bench: $name took $((SECONDS - t0))s" >&2
}

# What the benchmarks need beyond Go.
bash scripts/setup-node.sh
bash scripts/setup-chromium.sh || failures+=("chromium could not be installed: no browser figures")

WASMEXEC="$($GO env GOROOT)/lib/wasm/go_js_wasm_exec"
WASMEXECJS="$($GO env GOROOT)/lib/wasm/wasm_exec.js"

# 1. Every Go benchmark natively, but the browser ones (step 4) and the
#    100,000-node tier 3 point, which runs once on its own.
step native "$OUT/native.txt" \
	"$GO test -run '^\$' -bench . -benchmem -count $COUNT -benchtime $BENCHTIME -skip 'Tier3AtGraphSize/nodes=100000' \$($GO list ./... | grep -v -e /bundle/browsertest -e /bundle/peer)"
step native-100k "$OUT/native-100k.txt" \
	"$GO test -run '^\$' -bench 'Tier3AtGraphSize/nodes=100000' -benchmem -count 1 -benchtime 1x ./engine/kinds/story"
cat "$OUT/native-100k.txt" >>"$OUT/native.txt"

# 2. The engine's benchmarks again as WASM under Node (the largest growth
#    points are left out: their set-up alone takes minutes in WASM).
step wasm "$OUT/wasm.txt" \
	"GOOS=js GOARCH=wasm $GO test -exec='$WASMEXEC' -run '^\$' -bench . -benchmem -count $WASM_COUNT -benchtime $WASM_TIME -skip 'AtGraphSize|AtHistory/actions=10000' ./engine/..."

# 3. Peer comparison: the same story on inkjs and on the Storyloom module.
step peer-gen "$OUT/peer-gen.txt" "$GO run ./bundle/peer gen -dir $OUT/peer -nodes 300 -seed 1 -save-choices $PEER_SAVE_AT -save-seed 7"
step peer-wasm "$OUT/peer-wasm.txt" "GOOS=js GOARCH=wasm $GO build -trimpath -ldflags='-s -w' -o $OUT/peer/play.wasm ./wasm/play"
step peer "$OUT/peer.txt" \
	"node bench/peer.mjs --dir $OUT/peer --wasm $OUT/peer/play.wasm --wasm-exec '$WASMEXECJS' --out $OUT/peer.json --choices $PEER_CHOICES --runs $PEER_RUNS --save-at $PEER_SAVE_AT --seed 7"

# 4. Browser figures: first playable scene and click latency, and the
#    harness's cold load, each run on a fresh profile.
step browser "$OUT/browser.txt" \
	"STORYLOOM_REQUIRE_BROWSER=1 $GO test -run '^\$' -bench 'BrowserPlay|ColdLoad' -benchtime 1x -count $BROWSER_COUNT ./bundle/peer ./bundle/browsertest"
step browser-report "$OUT/browser-report.txt" "$GO run ./bundle/peer browser -in $OUT/browser.txt -peer $OUT/peer.json -out $OUT/browser.json"

# 5. Every figure the issues set a target for, against its target.
step targets "$OUT/targets.txt" "$GO run ./bundle/peer targets -native $OUT/native.txt -wasm $OUT/wasm.txt -peer $OUT/peer.json -browser $OUT/browser.json -out $OUT/targets.json"

# Failures, if any, become a section of the report.
extra=()
for f in "$OUT/targets.json" "$OUT/peer.json" "$OUT/browser.json"; do
	[ -s "$f" ] && extra+=("$f")
done
elapsed=$(($(date +%s) - start))
{
	printf '{"title": "This run", "markdown": '
	{
		echo "Whole run: ${elapsed} s on $(nproc) cores (load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))."
		if [ ${#failures[@]} -gt 0 ]; then
			echo
			echo "Steps that failed, whose figures are missing or partial:"
			echo
			for f in "${failures[@]}"; do echo "- $f"; done
		fi
	} | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.stringify(s)))'
	printf '}\n'
} >"$OUT/run.json"
extra+=("$OUT/run.json")

joined=$(IFS=';'; echo "${commands[*]}")
IFS=','; extras="${extra[*]}"; unset IFS
$GO run ./bundle benchreport -native "$OUT/native.txt" -wasm "$OUT/wasm.txt" -extra "$extras" -commands "$joined" || failures+=("benchreport failed")

echo
echo "bench: done in $(($(date +%s) - start)) s; docs/performance.md, docs/perf/*.svg and $OUT/results.json rewritten."
echo "bench: to compare with a later run, keep this one (cp $OUT/native.txt old.txt), run again, then:"
echo "  $GO run $BENCHSTAT old.txt $OUT/native.txt"
if [ ${#failures[@]} -gt 0 ]; then
	printf 'bench: failed: %s\n' "${failures[@]}" >&2
	exit 1
fi
