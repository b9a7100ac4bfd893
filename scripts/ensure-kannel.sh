#!/usr/bin/env sh
# Installs Kannel (bearerbox + smsbox) from Debian's packages when it is missing.
# The Kannel end-to-end test runs this; it needs root (or sudo) and Debian's package index.
set -e
command -v bearerbox >/dev/null 2>&1 && command -v smsbox >/dev/null 2>&1 && exit 0
SUDO=""
[ "$(id -u)" = "0" ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y -q kannel >/dev/null 2>&1 || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q kannel >/dev/null; }
command -v bearerbox >/dev/null 2>&1
