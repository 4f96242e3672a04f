#!/usr/bin/env bash
# The browser tests (tests/browser/) of `retrograde serve`'s page and of
# a game of one's own served (the example mnk_rules): the release binary
# and the example built, then each page driven in headless Chromium, the
# screenshots saved in results/serve. Needs scripts/install-browser.sh
# first; CI runs both (.ci/run). CARGO_TARGET_DIR and RETROGRADE are kept
# when set.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
cargo build --release --quiet --example mnk_rules
mkdir -p results/serve
target=${CARGO_TARGET_DIR:-target}/release
RETROGRADE=${RETROGRADE:-$target/retrograde} SCREENSHOTS=results/serve \
    node tests/browser/page.test.mjs
RETROGRADE=${RETROGRADE:-$target/retrograde} OWN_GAME=$target/examples/mnk_rules SCREENSHOTS=results/serve \
    node tests/browser/own.test.mjs
