#!/usr/bin/env bash
# The symbolic engine's kill-and-resume measurement on boards larger than
# the test's (tests/cli/symbolic.rs kills a small solve twice): each run is
# made once without a checkpoint, then again with one, killed with SIGKILL
# when a given checkpoint file appears (each kill waits for its own file),
# then run to the end; the two JSON reports, timing keys removed, must be
# identical. Appends one line a run to results/symbolic/RUNS.log.
#
# Usage: scripts/symbolic-kill-resume.sh      (from anywhere; builds the
#        release binary; scratch in $SCRATCH, default a temporary directory)
#
# Runs (name: command line after `retrograde`: the files to kill at):
#   count-6x5: the 6×5 count, killed once its ply 20 is written
#   solve-6x4: the 6×4 solve, killed in the forward pass (ply 15 written)
#              and again in the backward pass (ply 12's won set written)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
rg=$PWD/target/release/retrograde
scratch=${SCRATCH:-$(mktemp -d)}
mkdir -p "$scratch"
strip() { jq -S 'del(.seconds, .states_per_second, .threads, .loaded)' "$1"; }

# measure NAME "ARGS" FILE...: plain run, killed runs (one a FILE), resumed run
measure() {
  local name=$1 args=$2
  shift 2
  local dir="$scratch/$name"
  rm -rf "$dir"
  "$rg" $args --json -q > "$scratch/$name-plain.json"
  local killed=() verdict
  for file in "$@"; do
    "$rg" $args --json -q --checkpoint "$dir" > /dev/null 2>&1 &
    local pid=$!
    while [ ! -e "$dir/$file" ]; do
      kill -0 "$pid" 2> /dev/null || { echo "$name finished before $file" >&2; exit 1; }
      sleep 0.2
    done
    kill -9 "$pid"
    wait "$pid" 2> /dev/null || true
    killed+=("$file")
  done
  "$rg" $args --json -q --checkpoint "$dir" > "$scratch/$name-resumed.json"
  if cmp -s <(strip "$scratch/$name-plain.json") <(strip "$scratch/$name-resumed.json"); then
    verdict="identical JSON"
  else
    verdict="JSON DIFFERS"
  fi
  echo "$(date -u +%F) kill-resume $name: retrograde $args, killed (SIGKILL) at ${killed[*]}, resumed: $verdict" \
    | tee -a results/symbolic/RUNS.log
  [ "$verdict" = "identical JSON" ]
}

measure count-6x5 "connect --cols 6 --rows 5 --engine symbolic --count-only --threads 1" reach-020.bdd
measure solve-6x4 "connect --cols 6 --rows 4 --engine symbolic --threads 1" reach-015.bdd won-012.bdd
