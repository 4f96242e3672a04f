#!/usr/bin/env bash
# Dōbutsu shōgi solved three ways on this machine, one after the other, each
# timed by /usr/bin/time (wall, CPU, peak memory):
#   1. the peer: clausecker/dobutsu's dedicated generator, `gentb -j 2`;
#   2. the generic engine on the example's rules by key (examples/dobutsu.rs);
#   3. the generic engine on the same rules by rank, with unmoves (--rank).
# The peer is not part of this repository: build it from its own checkout
# (`make build INTLLDLIBS=`) and pass that directory. Nothing else should run
# meanwhile (the machine's speed moves ±20%: run it twice and report ranges).
#
# Usage: scripts/dobutsu-side-by-side.sh PEER_DIR [LOG]
#   (LOG defaults to results/own/side-by-side-<date>.log; about 12 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
peer=${1:?usage: scripts/dobutsu-side-by-side.sh PEER_DIR [LOG]}
log=${2:-results/own/side-by-side-$(date +%F).log}
if [ ! -x "$peer/gentb" ]; then
    echo "dobutsu-side-by-side: $peer/gentb is not there; build the peer first" >&2
    exit 2
fi
cargo build --release --quiet --example dobutsu
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
timed() {
    local name=$1
    shift
    echo "== $name: $*" | tee -a "$log"
    /usr/bin/time -f "$name: %e s wall, %U s user, %S s sys, %M KB peak" "$@" \
        > "$scratch/out" 2> "$scratch/err" || {
        tail -3 "$scratch/err" | tee -a "$log"
        return 1
    }
    grep -E "^(solved|as published|start)" "$scratch/out" | tee -a "$log" || true
    tail -1 "$scratch/err" | tee -a "$log"
}
echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD)" | tee -a "$log"
timed gentb "$peer/gentb" -j 2 "$scratch/dobutsu.tb"
rm -f "$scratch/dobutsu.tb"
timed keys target/release/examples/dobutsu
timed rank target/release/examples/dobutsu --rank
