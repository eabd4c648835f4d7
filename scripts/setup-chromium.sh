#!/bin/sh
# setup-chromium.sh installs Debian's chromium for the browser tests when it is
# not already on PATH. Idempotent: it does nothing when chromium is found.
# The Makefile calls it before the browser tests.
set -eu

if command -v chromium >/dev/null 2>&1; then
	exit 0
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
fi

echo "setup-chromium: installing Debian chromium" >&2
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core
command -v chromium >/dev/null 2>&1
