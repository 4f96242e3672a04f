#!/usr/bin/env bash
# Free-style gomoku (15,15,5) after 1.h8, one class of White's reply at a
# time: the threat prover (`prove mnk --method threats --after "h8 REPLY"`)
# with a certificate, then the independent checker replaying it
# (`retrograde check-proof FILE`).
# White's 224 replies fall into 35 classes under the symmetries that keep
# h8; each class is named by its cell with column ≥ h and row ≥ 8 and
# column − h ≥ row − 8 (o15 is the class of a1). The classes run farthest
# first.
#
# Each class leaves results/gomoku/REPLY.json (the prover's --json report,
# "checker" added: "accepted", "refused" or null when not proved) and a
# line in results/gomoku/RUNS.log. A class whose JSON exists is skipped, so
# the script resumes after a kill at the class it was in (delete a JSON to
# run its class again, e.g. with a longer TIME_LIMIT: with its checkpoint
# in $CHECKPOINTS, default /var/tmp/retrograde-gomoku, the run resumes where
# the last one stopped; a checkpoint is written every 30 minutes and at the
# time limit, and deleted once the class is proved; a deeper line's, below,
# once a run above has merged it). Certificates go to
# $CERTIFICATES (default /tmp/retrograde-gomoku; not committed: the far
# corner's is about 450 MB) and are deleted once checked unless KEEP=1.
#
# Settings: TIME_LIMIT seconds per class (default 1500), MEMORY for
# --max-memory (default 4GiB), ZONES for --zone-moves (default off: the
# prover that proved a1; a number turns relevance zones on), COVERS for
# --covers (default 3, the prover's own; a checkpoint is resumed only
# with the COVERS it was written with), REPORT_EVERY seconds between the
# prover's lines of counts on stderr (default 600), DEFENDER_RUNS on or off
# for --defender-runs (default on without zones, where it searches fewer
# positions, and off with them, where it searched more; a checkpoint
# resumes either way), MAX_STONES for --max-stones (default none: no
# horizon; several rising, as 30,36, are tried in turn; a checkpoint
# resumes at its own horizon, or under a wider one without its
# disproofs, never under a narrower one), VCT for --vct (default off: the
# threat-space search, as 3 or 3,400; a checkpoint is resumed only with
# the VCT it was written with, so give runs with it CHECKPOINTS of their
# own).
#
# A class may be given as a path of moves below it, REPLY:MOVE:...
# (say i9:i8, i9:i8:j8, i9:i8:j8:k7), the moves after h8 in turn, to
# prove one line apart with the whole table (the prover's own search of
# a position spreads its work over its moves, and df-pn keeps working on
# the reply hardest to prove, leaving the easy ones open). The prover
# proves the position the path reaches; its files are named by the path
# with dashes (results/gomoku/i9-i8-j8.json, the prover's with "class",
# "path", "third_move" and "fourth_move" added; h8-i9-i8-j8.checkpoint),
# so that one line not proved never stops another from running.
# * A path ending in a Black move (an even number of moves after h8, as
#   i9:i8): that move is chosen by hand, as in Allis's proof, and the
#   certificate is the proof with its root moved up a ply and a `move`
#   entry for the move put first: the checker replays it from the
#   position before the move. Accepted, it proves that position: a
#   class, or a path ending in a White move, is skipped once a Black move
#   below it has an accepted JSON.
# * A path ending in a White move (as i9:i8:j8, White's fourth move
#   apart): the checker replays the proof's own certificate.
# * Every run merges the checkpoint of each line below its path that the
#   checker accepted and whose checkpoint is kept (`--merge-checkpoint`),
#   so that its proof and certificate are put together from them: a
#   checkpoint written with a proof holds that proof alone. Once the run's
#   certificate is accepted and its own checkpoint written anew, the
#   checkpoints it merged are deleted (its own holds their proofs now), and
#   its own too when it proves a class (a path of one or two moves); a
#   deeper one is kept for the run above.
#   A Black move chosen by hand below the class's third must be among the
#   prover's own candidates there (its six best-scored moves) for a run
#   above to use its proof.
# scripts/gomoku-tree.py splits a line so, level by level, by itself.
#
# Usage: scripts/gomoku.sh [REPLY[:MOVE...] ...]   (default: every class, in
#        order; from anywhere). The binary is built once at the start and
#        copied aside, so editing the sources during a run changes nothing;
#        `scripts/gomoku.sh --build-into DIR` only builds it into DIR, and
#        BIN=DIR runs with the one there, built once for many calls.
#        `scripts/gomoku.sh --proved PATH` exits with 0 if the line is proved
#        (as the skip above: its JSON accepted, or a Black move below it),
#        1 if not.
#        `kill -USR1 PID` (the script's PID alone: the prover dies of it)
#        stops it once the run in progress has ended and been checked, with
#        exit status 10 (a kill stops the run where it is).
set -euo pipefail
# SIGUSR1: no new run (bash runs the trap once the run in progress ends)
stop=no
trap 'stop=yes' USR1
cd "$(dirname "$0")/.."
out=results/gomoku
certificates=${CERTIFICATES:-/tmp/retrograde-gomoku}
limit=${TIME_LIMIT:-1500}
memory=${MEMORY:-4GiB}
zones=${ZONES:-off}
covers=${COVERS:-3}
runs=${DEFENDER_RUNS:-$([ "$zones" = off ] && echo on || echo off)}
checkpoints=${CHECKPOINTS:-/var/tmp/retrograde-gomoku}
report=${REPORT_EVERY:-600}
horizon=${MAX_STONES:-}
vct=${VCT:-off}
# is_proved NAME DEPTH: the line's JSON accepted, or (White moved last) a
# Black move below it with an accepted JSON (a Black move chosen by hand
# proves the position before it)
is_proved() {
  local f
  grep -qs '"checker": "accepted"' "$out/$1.json" && return 0
  if (($2 % 2 == 1)); then
    for f in "$out/$1"-*.json; do
      [[ "$f" =~ /$1-[a-o][0-9]+\.json$ ]] &&
        grep -qs '"checker": "accepted"' "$f" && return 0
    done
  fi
  return 1
}
if [ "${1:-}" = --proved ]; then
  name=${2:-}
  name=${name,,}
  IFS=: read -r -a path <<< "$name"
  is_proved "${name//:/-}" "${#path[@]}"
  exit
fi
mkdir -p "$out" "$certificates" "$checkpoints"

# the prover and its checker (`retrograde check-proof`), copied into the
# directory $1
build_into() {
  cargo build --release --quiet
  cp target/release/retrograde "$1/retrograde"
}
if [ "${1:-}" = --build-into ]; then
  mkdir -p "$2"
  build_into "$2"
  exit 0
fi
if [ -n "${BIN:-}" ]; then
  bin=$BIN
else
  bin=$(mktemp -d)
  trap 'rm -rf "$bin"' EXIT
  build_into "$bin"
fi

# farthest first (Chebyshev distance, then the other coordinate from the
# axis out); o15 (the a1 class, proved first) last among distance 7
order=""
for dx in 7 6 5 4 3 2 1; do
  for dy in $(seq 0 "$dx"); do
    [ "$dx$dy" = 77 ] && continue
    order+="$(printf "\\x$(printf %x $((104 + dx)))")$((8 + dy)) "
  done
  [ "$dx" = 7 ] && order+="o15 "
done

for class in ${*:-$order}; do
  if [ "$stop" = yes ]; then
    echo "gomoku.sh: stopped by SIGUSR1 before $class" >&2
    exit 10
  fi
  class=${class,,}
  if ! [[ "$class" =~ ^[a-o]([1-9]|1[0-5])(:[a-o]([1-9]|1[0-5])){0,20}$ ]]; then
    echo "gomoku.sh: $class: not a cell of the board, or a path of cells (REPLY or REPLY:MOVE:..., as i8:h9)" >&2
    exit 2
  fi
  IFS=: read -r -a path <<< "$class"
  reply=${path[0]}
  depth=${#path[@]}
  # the files' name: the path with dashes (REPLY, REPLY-MOVE, ...)
  name=${class//:/-}
  file="$out/$name.json"
  [ -e "$file" ] && continue
  is_proved "$name" "$depth" && continue
  certificate="$certificates/h8-$name.txt"
  after="h8,${class//:/,}"
  # every line below proved apart, accepted, its checkpoint kept
  merges=()
  for f in "$out/$name"-*.json; do
    [[ "$f" =~ /($name(-[a-o][0-9]+)+)\.json$ ]] || continue
    below="$checkpoints/h8-${BASH_REMATCH[1]}.checkpoint"
    if grep -qs '"checker": "accepted"' "$f" && [ -e "$below" ]; then
      merges+=(--merge-checkpoint "$below")
    fi
  done
  args="prove mnk --cols 15 --rows 15 --k 5 --method threats --after $after --zone-moves $zones --covers $covers --time-limit $limit --max-memory $memory"
  if [ "$runs" = on ]; then args+=" --defender-runs"; fi
  if [ -n "$horizon" ]; then args+=" --max-stones $horizon"; fi
  if [ "$vct" != off ]; then args+=" --vct $vct"; fi
  checkpoint="$checkpoints/${after//,/-}.checkpoint"
  resumed=$([ -e "$checkpoint" ] && echo ", resumed from its checkpoint" || true)
  status=0
  # (to tell whether this run wrote its checkpoint: a failed save keeps the
  # one before)
  touch "$checkpoint.start"
  /usr/bin/time -f '%e %M' -o "$out/$name.time" \
    "$bin/retrograde" $args ${merges[@]+"${merges[@]}"} --json --proof "$certificate" \
    --checkpoint "$checkpoint" --report-every "$report" > "$file.tmp" || status=$?
  # (time writes "Command exited with non-zero status" first on a failure)
  read -r seconds kib < <(tail -n 1 "$out/$name.time")
  rm "$out/$name.time"
  verdict=null
  if [ "$status" = 0 ]; then
    if ((depth % 2 == 0)); then
      # the certificate of the position before Black's move chosen by
      # hand: the root moved up one ply, the move its first entry
      # (docs/FORMAT.md, threat certificates)
      python3 - "$certificate" "${path[depth - 1]}" <<'EOF'
import os, sys
path, move = sys.argv[1], sys.argv[2]
col, row = ord(move[0]) - ord("a"), int(move[1:]) - 1
# streamed line by line (a certificate may be hundreds of MB)
with open(path) as lines, open(path + ".tmp", "w") as out:
    for line in lines:
        if line.startswith("root "):
            rows = [list(r) for r in line[len("root "):].rstrip("\n").split("/")]
            assert rows[row][col] == "X", "the move chosen by hand is Black's stone at the root"
            rows[row][col] = "."
            parent = "/".join("".join(r) for r in rows)
            line = "root %s\nmove %s %s\n" % (parent, parent, move)
        out.write(line)
os.replace(path + ".tmp", path)
EOF
    fi
    verdict=refused
    # accepted only on the checker's own word: exit 0 and its line saying
    # so ("FILE: accepted: ...")
    "$bin/retrograde" check-proof "$certificate" > "$out/$name.check" 2>&1 &&
      grep -q ': accepted: ' "$out/$name.check" && verdict=accepted
    [ "${KEEP:-0}" = 1 ] || rm -f "$certificate"
    # (the merged proofs are in this run's checkpoint now, which is kept
    # for a run above to merge unless this run proves a class)
    if [ "$verdict" = accepted ] && { ((depth <= 2)) || [ "$checkpoint" -nt "$checkpoint.start" ]; }; then
      if ((depth <= 2)); then rm -f "$checkpoint"; fi
      for ((i = 1; i < ${#merges[@]}; i += 2)); do rm -f "${merges[i]}"; done
    fi
  elif [ "$status" != 3 ]; then
    echo "gomoku.sh: ${after//,/ }: retrograde exited with $status" >&2
    exit "$status"
  fi
  python3 - "$file.tmp" "$verdict" "${path[@]}" <<'EOF'
import json, sys
file, verdict, moves = sys.argv[1], sys.argv[2], sys.argv[3:]
report = json.load(open(file))
report["checker"] = None if verdict == "null" else verdict
if len(moves) > 1:
    report["class"], report["path"] = "h8," + moves[0], moves
    report["third_move"] = moves[1]
if len(moves) > 2:
    report["fourth_move"] = moves[2]
json.dump(report, open(file, "w"))
EOF
  mv "$file.tmp" "$file"
  rm -f "$checkpoint.start"
  replayed=$(grep -o 'accepted.*' "$out/$name.check" 2>/dev/null | head -1 || true)
  # the checker's output is kept where it did not accept
  [ "$verdict" = refused ] || rm -f "$out/$name.check"
  result=$([ "$status" = 0 ] && echo "X wins; certificate ${replayed:-$verdict}" || echo "not proved")
  line=""
  for ((i = 1; i < depth; i++)); do
    line+="${line:+, }$((i + 2)).${path[i]}$( ((i % 2 == 0)) && echo " apart" || true)"
  done
  echo "$(date -u +%F) h8 $reply${line:+ (by $line)}${merges[0]:+ (with $((${#merges[@]} / 2)) proofs below merged)}: $result; retrograde $args: ${seconds} s wall$resumed, peak resident $((kib / 1024)) MiB" >> "$out/RUNS.log"
done
