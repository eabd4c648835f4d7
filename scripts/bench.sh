#!/usr/bin/env bash
# bench.sh is `make bench`: every Go benchmark of the project natively, the
# engine's again as WASM under Node, the peer comparison against inkjs
# (bundle/bench/peer.mjs) and the browser figures (headless Chromium), then
# `bench report` (bundle/bench), which rewrites the generated section of
# docs/performance.md, the charts in docs/perf/ and bench/out/results.json.
# It installs what it needs (npm packages, chromium) idempotently. Raw
# outputs stay in bench/out/ (git-ignored); compare two runs with benchstat,
# as docs/performance.md explains.
#
# Every test binary is compiled once, up front (`go test -c`, natively and
# for js/wasm), and run from its package directory, as `go test` would.
# Steps run one after another, never side by side, so that one does not
# distort another's timings; each step's wall and CPU time go into the
# report's "This run" section.
#
# Knobs (environment): BENCH_COUNT (3), BENCH_TIME (100ms), WASM_COUNT (3),
# WASM_TIME (100ms), ROOMS_ITERS (10: bursts of 200 commands), LOBBY_ITERS
# (500: lobby commands among 1,000 rooms and 2,000 lobby connections),
# EDGE_NATIVE_ITERS (1000), EDGE_WORKER_ITERS (40), OWP_READS (2000:
# signed reads per count of each read benchmark), OWP_ROUNDS (100: rounds
# per count of the writing and weather rounds), PEER_RUNS (3),
# PEER_CHOICES (1000: choices per timed game), PEER_SAVE_AT (10000: choices
# before save/restore), BROWSER_COUNT (5).
set -uo pipefail

cd "$(dirname "$0")/.."

GO=${GO:-go}
COUNT=${BENCH_COUNT:-3}
BENCHTIME=${BENCH_TIME:-100ms}
WASM_COUNT=${WASM_COUNT:-3}
WASM_TIME=${WASM_TIME:-100ms}
ROOMS_ITERS=${ROOMS_ITERS:-10}
LOBBY_ITERS=${LOBBY_ITERS:-500}
EDGE_NATIVE_ITERS=${EDGE_NATIVE_ITERS:-1000}
OWP_READS=${OWP_READS:-2000}
OWP_ROUNDS=${OWP_ROUNDS:-100}
EDGE_WORKER_ITERS=${EDGE_WORKER_ITERS:-40}
PEER_RUNS=${PEER_RUNS:-3}
PEER_CHOICES=${PEER_CHOICES:-1000}
PEER_SAVE_AT=${PEER_SAVE_AT:-10000}
BROWSER_COUNT=${BROWSER_COUNT:-5}
OUT=bench/out
BIN=$OUT/bin
BENCHSTAT='golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da'

mkdir -p "$OUT"
rm -rf "$BIN"
mkdir -p "$BIN/wasm"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s.%N)
commands=()   # every command whose output the report uses, as run
failures=()   # steps that failed; the report says so
timings=()    # "name|wall s|CPU s" per step

# cpu sets CPU to the CPU time (user+system, in seconds) of every child
# this shell has waited for so far. It must run in this shell, not in a
# command substitution, whose `times` would see only its own children.
cpu() {
	times >"$OUT/.times"
	CPU=$(awk 'NR == 2 {
		for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + substr(t[2], 1, length(t[2]) - 1) }
		printf "%.1f\n", s
	}' "$OUT/.times")
}

now() { date +%s.%N; }

# step NAME OUTFILE CMD: runs CMD (a shell string) with its output in
# OUTFILE (and on the terminal), records the command, its wall and CPU
# time, and notes a failure.
step() {
	local name=$1 out=$2 cmd=$3
	echo "== bench: $name" >&2
	commands+=("$cmd")
	local t0 c0
	t0=$(now)
	cpu
	c0=$CPU
	if ! bash -o pipefail -c "$cmd" 2>&1 | tee "$out"; then
		failures+=("$name: \`$cmd\` failed (see $out)")
	fi
	local wall used
	wall=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
	cpu
	used=$(awk -v a="$c0" -v b="$CPU" 'BEGIN { printf "%.1f", b - a }')
	timings+=("$name|$wall|$used")
	echo "== bench: $name took ${wall} s wall, ${used} s CPU" >&2
}

# untracked NAME CMD: like step, for set-up whose output no figure uses.
untracked() {
	local name=$1 cmd=$2 t0 c0
	t0=$(now)
	cpu
	c0=$CPU
	bash -c "$cmd" || failures+=("$name failed")
	cpu
	timings+=("$name|$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')|$(awk -v a="$c0" -v b="$CPU" 'BEGIN { printf "%.1f", b - a }')")
}

# bench DIR ARGS...: the command that runs DIR's compiled benchmarks (from
# $BIN, or $BIN/wasm under Node when WASM=1) in DIR, as `go test` would,
# with RUN_ENV (e.g. "NAME=value ") before it.
bench() {
	local dir=$1
	shift
	local up exe
	up=$(echo "$dir" | sed 's|[^/][^/]*|..|g')
	exe="$up/$BIN/$(basename "$dir").test"
	if [ "${WASM:-}" = 1 ]; then
		exe="$up/$BIN/wasm/$(basename "$dir").test"
		exe="$WASMEXEC $exe"
	fi
	echo "(cd $dir && ${RUN_ENV:-}$exe -test.run '^\$' -test.benchmem $*)"
}

# What the benchmarks need beyond Go.
untracked setup-node "bash scripts/setup-node.sh"
untracked setup-chromium "bash scripts/setup-chromium.sh" || true
command -v chromium >/dev/null 2>&1 || failures+=("chromium could not be installed: no browser figures")

# WASM test binaries run under Node as go_js_wasm_exec runs them, but with
# V8 compiling the whole module to optimized code before it starts
# (eagerly, not function by function once hot): otherwise the first
# benchmarks of each process run on baseline code while the optimizing
# compiler competes with them for the two cores, which made the first
# benchmark of a package several times slower than the same benchmark
# later in the process. Steady state is what a long game in the browser
# reaches, and what the ratio to native compares.
WASMEXECJS="$($GO env GOROOT)/lib/wasm/wasm_exec.js"
WASMEXEC="node --stack-size=8192 --no-wasm-dynamic-tiering --no-wasm-lazy-compilation $($GO env GOROOT)/lib/wasm/wasm_exec_node.js"

# The packages with benchmarks. The browser ones run in step 4: bundle/bench
# (BenchmarkBrowserPlay) and bundle/browsertest (BenchmarkColdLoad).
# bundle/e2e's BenchmarkColdLoad and BenchmarkChoice measure what
# BenchmarkBrowserPlay measures (the first scene and the click latency of
# gannet-rock in Chromium) with the test suite's harness, so `make bench`
# leaves them out rather than building the site and starting Chromium a
# third time for the same figures.
mapfile -t native_dirs < <(grep -rl --include='*_test.go' '^func Benchmark' engine bundle | xargs -n1 dirname | sort -u |
	grep -v -x -e bundle/bench -e bundle/browsertest -e bundle/e2e)
wasm_dirs=()
for d in "${native_dirs[@]}"; do
	case $d in engine/*) wasm_dirs+=("$d") ;; esac
done

# 0. Compile every test binary and tool once.
step compile "$OUT/compile.txt" \
	"$GO test -c -o $BIN/ $(printf './%s ' "${native_dirs[@]}")./bundle/bench ./bundle/browsertest && GOOS=js GOARCH=wasm $GO test -c -o $BIN/wasm/ $(printf './%s ' "${wasm_dirs[@]}")&& $GO build -o $BIN/ ./bundle/bench"

# 1. Every Go benchmark natively, but the browser ones (step 4), with
#    -benchtime fitted to each family: time-based for the quick ones, a
#    fixed count for the ones whose one op is a burst of network traffic,
#    and the 100,000-node tier 3 point on its own, one op per count. (The 10,000-node
#    point is the same search as BenchmarkTier3Generated10k, which is left
#    out; the Targets table reads the series point.)
native_out=()

# native_step NAME PART CMD: step "native NAME PART" (PART may be empty),
# its output in $OUT/native-NAME-PART.txt (PART's spaces as dashes), which
# joins the native results.
native_step() {
	local out="$OUT/native-$1${2:+-${2// /-}}.txt"
	step "native $1${2:+ $2}" "$out" "$3"
	native_out+=("$out")
}

for d in "${native_dirs[@]}"; do
	name=$(basename "$d")
	case $d in
	engine/kinds/story)
		native_step "$name" "" \
			"$(bench "$d" -test.bench . -test.count "$COUNT" -test.benchtime "$BENCHTIME" -test.skip "'Tier3Generated10k|Tier3AtGraphSize/nodes=100000'")"
		native_step "$name" 100k \
			"$(bench "$d" -test.bench "'Tier3AtGraphSize/nodes=100000\$'" -test.count "$COUNT" -test.benchtime 1x)"
		;;
	bundle/nativehost)
		native_step "$name" rooms \
			"$(bench "$d" -test.bench "'^BenchmarkRooms'" -test.count 1 -test.benchtime "${ROOMS_ITERS}x")"
		native_step "$name" lobby \
			"$(bench "$d" -test.bench "'^BenchmarkLobby'" -test.count 1 -test.benchtime "${LOBBY_ITERS}x")"
		native_step "$name" "" \
			"$(bench "$d" -test.bench . -test.skip "'^BenchmarkRooms|^BenchmarkLobby'" -test.count "$COUNT" -test.benchtime 2000x)"
		;;
	bundle/owp)
		native_step "$name" reads \
			"$(bench "$d" -test.bench "'^BenchmarkSignedRead'" -test.count "$COUNT" -test.benchtime "${OWP_READS}x")"
		native_step "$name" rounds \
			"$(bench "$d" -test.bench "'Round\$'" -test.count "$COUNT" -test.benchtime "${OWP_ROUNDS}x")"
		;;
	bundle/edge)
		native_step "$name" "" \
			"$(bench "$d" -test.bench "'Command/native/'" -test.count "$COUNT" -test.benchtime "${EDGE_NATIVE_ITERS}x")"
		native_step "$name" worker \
			"$(bench "$d" -test.bench . -test.skip "'Command/native/|^BenchmarkRooms'" -test.count 1 -test.benchtime "${EDGE_WORKER_ITERS}x")"
		native_step "$name" "worker rooms" \
			"$(bench "$d" -test.bench "'^BenchmarkRooms'" -test.count 1 -test.benchtime "${ROOMS_ITERS}x")"
		;;
	*)
		native_step "$name" "" \
			"$(bench "$d" -test.bench . -test.count "$COUNT" -test.benchtime "$BENCHTIME")"
		;;
	esac
done
cat "${native_out[@]}" >"$OUT/native.txt"

# 2. The engine's benchmarks again as WASM under Node (the largest growth
#    points are left out: their set-up alone takes minutes in WASM).
wasm_out=()
for d in "${wasm_dirs[@]}"; do
	name=$(basename "$d")
	step "wasm $name" "$OUT/wasm-$name.txt" \
		"$(WASM=1 bench "$d" -test.bench . -test.count "$WASM_COUNT" -test.benchtime "$WASM_TIME" -test.skip "'AtGraphSize|AtHistory/actions=10000|Tier3Generated10k'")"
	wasm_out+=("$OUT/wasm-$name.txt")
done
cat "${wasm_out[@]}" >"$OUT/wasm.txt"

# 3. Peer comparison: the same story on inkjs and on the Storyloom module,
#    built with the site's release flags (bundle/site), so that it is the
#    module a player downloads.
step peer-gen "$OUT/peer-gen.txt" "$BIN/bench gen -dir $OUT/peer -nodes 300 -seed 1 -save-choices $PEER_SAVE_AT -save-seed 7"
step peer-wasm "$OUT/peer-wasm.txt" "GOOS=js GOARCH=wasm $GO build -trimpath -ldflags='-s -w' -gcflags=all=-l -o $OUT/peer/play.wasm ./wasm/play"
step peer "$OUT/peer.txt" \
	"node bundle/bench/peer.mjs --dir $OUT/peer --wasm $OUT/peer/play.wasm --wasm-exec '$WASMEXECJS' --out $OUT/peer.json --choices $PEER_CHOICES --runs $PEER_RUNS --save-at $PEER_SAVE_AT --seed 7"

# 4. Browser figures: first playable scene and click latency, the
#    harness's cold load, each run on a fresh profile, and the card table.
step "browser play" "$OUT/browser-play.txt" \
	"$(RUN_ENV="STORYLOOM_REQUIRE_BROWSER=1 " bench bundle/bench -test.bench "'BrowserPlay'" -test.benchtime 1x -test.count "$BROWSER_COUNT")"
step "browser cold load" "$OUT/browser-cold.txt" \
	"$(RUN_ENV="STORYLOOM_REQUIRE_BROWSER=1 " bench bundle/browsertest -test.bench "'ColdLoad'" -test.benchtime 1x -test.count "$BROWSER_COUNT")"
# The card table: a four-seat view of 60 permanents arriving to the table
#    painted, and the rooms page's brotli weight. Its lines join the
#    benchmark table of the report (docs/performance.md, "The card table").
step "browser card table" "$OUT/browser-cardtable.txt" \
	"$(RUN_ENV="STORYLOOM_REQUIRE_BROWSER=1 " bench bundle/browsertest -test.bench "'CardTablePaint'" -test.benchtime 1x -test.count "$BROWSER_COUNT")"
cat "$OUT/browser-cardtable.txt" >>"$OUT/native.txt"
cat "$OUT/browser-play.txt" "$OUT/browser-cold.txt" "$OUT/browser-cardtable.txt" >"$OUT/browser.txt"
step browser-report "$OUT/browser-report.txt" "$BIN/bench browser -in $OUT/browser.txt -peer $OUT/peer.json -out $OUT/browser.json"

# 5. Every figure the issues set a target for, against its target.
step targets "$OUT/targets.txt" "$BIN/bench targets -native $OUT/native.txt -wasm $OUT/wasm.txt -peer $OUT/peer.json -browser $OUT/browser.json -out $OUT/targets.json"

# The run itself: wall and CPU time per step and in all, the load, and the
# failures, if any, as the report's "This run" section.
extra=()
for f in "$OUT/targets.json" "$OUT/peer.json" "$OUT/browser.json"; do
	[ -s "$f" ] && extra+=("$f")
done
wall=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')
cpu
{
	printf '{"title": "This run", "markdown": '
	{
		echo "Whole run: ${wall} s wall and ${CPU} s CPU (user+system of every process it waited for) on $(nproc) cores; load average $load_start at the start and $(cut -d' ' -f1-3 /proc/loadavg) at the end. CPU time is the figure to compare between runs: wall time stretches with whatever else the machine runs."
		echo
		echo "| step | wall | CPU |"
		echo "|---|---:|---:|"
		for t in "${timings[@]}"; do
			IFS='|' read -r n w c <<<"$t"
			echo "| $n | $w s | $c s |"
		done
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
$BIN/bench report -native "$OUT/native.txt" -wasm "$OUT/wasm.txt" -extra "$extras" -commands "$joined" || failures+=("benchreport failed")

cpu
echo
echo "bench: done in $(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }') s wall, ${CPU} s CPU; docs/performance.md, docs/perf/*.svg and $OUT/results.json rewritten."
echo "bench: to compare with a later run, keep this one (cp $OUT/native.txt old.txt), run again, then:"
echo "  $GO run $BENCHSTAT old.txt $OUT/native.txt"
if [ ${#failures[@]} -gt 0 ]; then
	printf 'bench: failed: %s\n' "${failures[@]}" >&2
	exit 1
fi
