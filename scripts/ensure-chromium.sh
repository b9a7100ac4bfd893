#!/usr/bin/env sh
# Installs Chromium from Debian's packages when it is missing.
# The browser tests of the console run this; it needs root (or sudo) and Debian's package index.
set -e
command -v chromium >/dev/null 2>&1 && exit 0
SUDO=""
[ "$(id -u)" = "0" ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q --no-install-recommends chromium >/dev/null; }
command -v chromium >/dev/null 2>&1
