#!/usr/bin/env bash
# Makes the 7×6 Connect Four opening book (issue 87): every position in
# play with at most PLIES stones (default 8), its exact score, by
# `retrograde search connect --make-book`. Resumable: the scores are
# journaled to OUT.partial as they are proved; run the same command again
# after an interruption and it searches only what the journal lacks.
#
#   scripts/make-book-7x6.sh [PLIES] [OUT] [MAX_MEMORY]
#
# Cost measured on the 2-core VM: results/serve/BOOK.md.
set -euo pipefail
cd "$(dirname "$0")/.."
plies=${1:-8}
out=${2:-books/connect-7x6.book}
memory=${3:-8GiB}
bin=${RETROGRADE:-target/release/retrograde}
if [ -z "${RETROGRADE:-}" ]; then cargo build --release --quiet; fi
mkdir -p "$(dirname "$out")"
exec nice -n "${NICE:-10}" "$bin" search connect --cols 7 --rows 6 \
    --make-book "$plies" --out "$out" --max-memory "$memory" --threads 2 --json
