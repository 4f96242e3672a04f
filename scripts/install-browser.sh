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
scripts/apt-install.sh install-browser "${packages[@]}"
if [ ! -d tests/browser/node_modules/playwright-core ]; then
    (cd tests/browser && npm install --no-audit --no-fund --silent)
    echo "install-browser: installed playwright-core"
fi
