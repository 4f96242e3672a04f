#!/usr/bin/env bash
# Every test of the project, as the README's test command and CI run it:
# the formatting and lint gates, the documentation (its links and
# examples), then every Rust test in the release profile.
#
# Usage: scripts/test.sh        (from anywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --check
# public docs that link to private or missing items are errors
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet
cargo clippy --release --all-targets --quiet -- -D warnings
cargo test --release
