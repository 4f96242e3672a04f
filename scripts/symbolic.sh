#!/usr/bin/env bash
# The symbolic engine's documented runs: one JSON report per run in
# results/symbolic/ (the engine's --json, the timing keys kept) and a line
# of wall time and peak resident memory (`/usr/bin/time`) in
# results/symbolic/RUNS.log. Long runs keep a checkpoint in
# $CHECKPOINTS/NAME (default results/symbolic/checkpoints, not committed;
# point it outside the clone to keep it across fresh clones): run the
# script again after a kill and each run resumes from its last finished
# ply. MEMORY (default: the program's own default) is passed as
# --max-memory, THREADS (default: every core) as --threads. A run whose
# JSON exists is skipped (delete the file to run it again). The time of a
# resumed run is that of its last part. A solve-* run also writes its
# symbolic table to $TABLES/NAME.rgt (default: $CHECKPOINTS; not
# committed: 6x5's is about a gigabyte).
#
# Usage: scripts/symbolic.sh [RUN ...]   (default: every run below, in
#        order; from anywhere; builds the release binary)
#
# Runs (NAME: command line after `retrograde`):
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
rg=target/release/retrograde
out=results/symbolic
checkpoints=${CHECKPOINTS:-$out/checkpoints}
tables=${TABLES:-$checkpoints}
mkdir -p "$out" "$checkpoints" "$tables"
memory=()
[ -n "${MEMORY:-}" ] && memory=(--max-memory "$MEMORY")
[ -n "${THREADS:-}" ] && memory+=(--threads "$THREADS")

declare -A runs=(
  # Böck's counts with width + height ≤ 12 beyond the tests' quick ones
  [count-9x3]="connect --cols 9 --rows 3 --engine symbolic --count-only"
  [count-3x9]="connect --cols 3 --rows 9 --engine symbolic --count-only"
  [count-4x8]="connect --cols 4 --rows 8 --engine symbolic --count-only"
  [count-5x7]="connect --cols 5 --rows 7 --engine symbolic --count-only"
  [count-8x4]="connect --cols 8 --rows 4 --engine symbolic --count-only"
  [count-7x5]="connect --cols 7 --rows 5 --engine symbolic --count-only"
  [count-6x6]="connect --cols 6 --rows 6 --engine symbolic --count-only"
  # equal to the explicit engine's JSON (results/connect/)
  [solve-6x4]="connect --cols 6 --rows 4 --engine symbolic"
  [solve-5x5]="connect --cols 5 --rows 5 --engine symbolic"
  [solve-6x5]="connect --cols 6 --rows 5 --engine symbolic"
  # m,n,k 5×5, k = 4 and 5: no published count; values published as draws
  [mnk-5x5-k4]="mnk --cols 5 --rows 5 --k 4 --engine symbolic"
  [mnk-5x5-k5]="mnk --cols 5 --rows 5 --k 5 --engine symbolic"
  # the largest m,n,k boards both engines reach (20 cells), each engine
  [mnk-5x4-k3]="mnk --cols 5 --rows 4 --k 3 --engine symbolic"
  [mnk-5x4-k4]="mnk --cols 5 --rows 4 --k 4 --engine symbolic"
  [mnk-4x5-k4]="mnk --cols 4 --rows 5 --k 4 --engine symbolic"
  [explicit-mnk-5x4-k3]="mnk --cols 5 --rows 4 --k 3 --engine explicit"
  [explicit-mnk-5x4-k4]="mnk --cols 5 --rows 4 --k 4 --engine explicit"
  [explicit-mnk-4x5-k4]="mnk --cols 4 --rows 5 --k 4 --engine explicit"
  # the landmarks
  [count-7x6]="connect --cols 7 --rows 6 --engine symbolic --count-only"
  [solve-6x6]="connect --cols 6 --rows 6 --engine symbolic"
  [solve-7x5]="connect --cols 7 --rows 5 --engine symbolic"
)
order="count-9x3 count-3x9 count-4x8 count-5x7 solve-6x4 solve-5x5 solve-6x5 mnk-5x4-k3 mnk-5x4-k4 mnk-4x5-k4 explicit-mnk-5x4-k3 explicit-mnk-5x4-k4 explicit-mnk-4x5-k4 mnk-5x5-k4 mnk-5x5-k5 count-8x4 count-7x5 count-6x6 count-7x6 solve-6x6 solve-7x5"

for name in ${*:-$order}; do
  args=${runs[$name]:?unknown run $name}
  file="$out/$name.json"
  [ -e "$file" ] && continue
  checkpoint=(--checkpoint "$checkpoints/$name")
  [[ $args == *explicit* ]] && checkpoint=()
  table=()
  [[ $name == solve-* ]] && table=(--out "$tables/$name.rgt")
  /usr/bin/time -f '%e %M' -o "$out/$name.time" \
    "$rg" $args "${memory[@]}" --json -q "${checkpoint[@]}" "${table[@]}" > "$file.tmp"
  read -r seconds kib < "$out/$name.time"
  rm "$out/$name.time"
  mv "$file.tmp" "$file"
  echo "$(date -u +%F) $name: retrograde $args: ${seconds} s wall, peak resident $((kib / 1024)) MiB" >> "$out/RUNS.log"
done
