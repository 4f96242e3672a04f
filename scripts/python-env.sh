#!/usr/bin/env bash
# The Python side's environment, made from nothing: a virtual environment
# in .venv with the pinned tools of python/requirements-dev.txt, and the
# package built from this checkout into it (maturin develop, release
# profile, sharing cargo's target directory). Run again after a change to
# the Rust code; it installs only what is missing.
#
# Usage: scripts/python-env.sh        (from anywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r python/requirements-dev.txt
VIRTUAL_ENV="$PWD/.venv" .venv/bin/maturin develop --release --quiet
