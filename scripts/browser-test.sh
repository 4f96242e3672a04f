#!/usr/bin/env bash
# The browser test of `retrograde serve`'s page (tests/browser/): the
# release binary built, then the page driven in headless Chromium, its
# screenshots saved in results/serve. Needs scripts/install-browser.sh
# first; CI runs both (.ci/run). CARGO_TARGET_DIR and RETROGRADE are kept
# when set.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
mkdir -p results/serve
RETROGRADE=${RETROGRADE:-${CARGO_TARGET_DIR:-target}/release/retrograde} SCREENSHOTS=results/serve \
    node tests/browser/page.test.mjs
