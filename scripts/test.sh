#!/usr/bin/env bash
# Every test of the project, as the README's test command and CI run it:
# the formatting and lint gates, the documentation (its links and
# examples), every Rust test in the release profile, then the Python
# package: its environment made or brought up to date (scripts/python-env.sh),
# its linter and its tests.
#
# Usage: scripts/test.sh        (from anywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all --check
# public docs that link to private or missing items are errors
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet
cargo clippy --release --workspace --all-targets --quiet -- -D warnings
cargo test --release
scripts/python-env.sh
.venv/bin/ruff check python examples/python
.venv/bin/ruff format --check python examples/python
.venv/bin/python -m pytest -q python/tests
