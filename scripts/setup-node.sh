#!/bin/sh
# setup-node.sh installs the repository's Node tooling (axe-core for the
# browser tests, wrangler for the edge worker, inkjs for the benchmarks, Biome
# for `make lint`) with `npm ci`, only when node_modules is missing or was
# installed from a different package-lock.json or package.json. Idempotent;
# the Makefile calls it before tests that need Node packages. package.json's
# allowScripts says which install scripts run: esbuild's and workerd's
# (wrangler needs their binaries checked), not sharp's (wrangler's image
# binding, which no test uses), so that a fresh install is complete and prints
# no warning.
set -eu

cd "$(dirname "$0")/.."

stamp=node_modules/.storyloom-lock.sha256
want=$(cat package-lock.json package.json | sha256sum | cut -d' ' -f1)

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	exit 0
fi

echo "setup-node: npm ci" >&2
npm ci --no-audit --no-fund
echo "$want" >"$stamp"
