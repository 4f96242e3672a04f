#!/usr/bin/env bash
# Installs the Debian packages given that are not installed yet, as root or
# through sudo (the project's install scripts share it). Idempotent: says
# so and does nothing when every package is there.
#
# Usage: scripts/apt-install.sh NAME PACKAGE...   (NAME prefixes its lines)
set -euo pipefail
name=$1
shift
missing=()
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "$name: already installed: $*"
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null; then
    sudo=(sudo)
else
    echo "$name: needs root or sudo to install: ${missing[*]}" >&2
    exit 2
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "$name: installed ${missing[*]}"
