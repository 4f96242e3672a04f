#!/usr/bin/env bash
# The browser test of `retrograde serve`'s page (tests/browser/): the
# release binary built, then the page driven in headless Chromium. Needs
# scripts/install-browser.sh first; CI runs both (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
mkdir -p results/serve
RETROGRADE=target/release/retrograde SCREENSHOT=results/serve/page-7x6.png \
    node tests/browser/page.test.mjs
