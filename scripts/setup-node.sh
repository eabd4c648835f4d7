#!/bin/sh
# setup-node.sh installs the repository's Node tooling (axe-core for the
# browser tests, wrangler for the edge worker, inkjs for the benchmarks) with
# `npm ci`, only when node_modules is missing or was installed from a different
# package-lock.json. Idempotent; the Makefile calls it before tests that need
# Node packages.
set -eu

cd "$(dirname "$0")/.."

stamp=node_modules/.storyloom-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	exit 0
fi

echo "setup-node: npm ci" >&2
npm ci --no-audit --no-fund
echo "$want" >"$stamp"
