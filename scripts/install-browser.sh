#!/usr/bin/env bash
# Installs what the browser test of `retrograde serve`'s page needs on a
# Debian machine: Debian's chromium (headless), Node.js and npm where there
# are none, then
# playwright-core (the driver alone, no browsers of its own) into
# tests/browser/node_modules. Idempotent: does nothing that is done.
# Needs root or sudo for the packages.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(chromium)
# Node.js and npm: any install will do (nodesource's nodejs brings its own
# npm, which Debian's npm package conflicts with)
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        sudo=()
    elif command -v sudo >/dev/null; then
        sudo=(sudo)
    else
        echo "install-browser: needs root or sudo to install: ${missing[*]}" >&2
        exit 2
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
    echo "install-browser: installed ${missing[*]}"
fi
if [ ! -d tests/browser/node_modules/playwright-core ]; then
    (cd tests/browser && npm install --no-audit --no-fund --silent)
    echo "install-browser: installed playwright-core"
fi
