#!/usr/bin/env bash
# Free-style gomoku (15,15,5) after 1.h8, one class of White's reply at a
# time: the threat prover (`prove mnk --method threats --after "h8 REPLY"`)
# with a certificate, then the tests' independent checker replaying it.
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
# time limit, and deleted once the class is proved). Certificates go to
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
# disproofs, never under a narrower one).
#
# A class may be given as REPLY:MOVE (say i8:i9): the prover then proves
# the position after h8 REPLY MOVE, Black's third move chosen by hand as in
# Allis's proof (the prover's own search of the class spreads its work
# over every third move), and the class's certificate is that proof with
# the root moved up to h8 REPLY and a `move` entry for MOVE put first: the
# checker replays it from the class's position. Its files are named
# REPLY-MOVE (results/gomoku/REPLY-MOVE.json, the prover's with "class" and
# "third_move" added; h8-REPLY-MOVE.checkpoint), so that one third move
# not proved never stops another from running; a class with a third move's
# JSON the checker accepted is proved, and skipped when given as REPLY.
#
# A third move's open White fourth moves may each be proved apart, with
# the whole table, as REPLY:MOVE:FOURTH (say i9:i8:j8): the prover proves
# the position after h8 REPLY MOVE FOURTH and the checker replays that
# proof's own certificate (it is not the class's); its files are named
# REPLY-MOVE-FOURTH, and its checkpoint is kept, with the proof, once the
# checker accepts it. A REPLY:MOVE run then merges the checkpoint of every
# fourth move so proved (`--merge-checkpoint`), so that the class's proof
# and certificate are put together from them; those checkpoints are
# deleted with the class's once its certificate is accepted.
#
# Usage: results/gomoku.sh [REPLY[:MOVE[:FOURTH]] ...]   (default: every class, in
#        order; from anywhere). The binaries are built once at the start and
#        copied aside, so editing the sources during a run changes nothing.
set -euo pipefail
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
mkdir -p "$out" "$certificates" "$checkpoints"

cargo build --release --quiet
checker=$(cargo test --release --test threat_proof --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "threat_proof" and m.get("executable"):
        print(m["executable"])')
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cp target/release/retrograde "$bin/retrograde"
cp "$checker" "$bin/checker"

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
  class=${class,,}
  if ! [[ "$class" =~ ^[a-o]([1-9]|1[0-5])(:[a-o]([1-9]|1[0-5])){0,2}$ ]]; then
    echo "gomoku.sh: $class: not a cell of the board (REPLY, REPLY:MOVE or REPLY:MOVE:FOURTH, as i8:h9)" >&2
    exit 2
  fi
  IFS=: read -r reply third fourth <<< "$class"
  # the files' name: REPLY, REPLY-MOVE for a third move chosen by hand,
  # REPLY-MOVE-FOURTH for a fourth move of White's proved apart
  name=$reply${third:+-$third}${fourth:+-$fourth}
  file="$out/$name.json"
  [ -e "$file" ] && continue
  if [ -z "$third" ]; then
    proved=no
    for f in "$out/$reply"-*.json; do
      # (a third move's JSON, not a fourth move's)
      [[ "$f" =~ /$reply-[a-o][0-9]+\.json$ ]] &&
        grep -qs '"checker": "accepted"' "$f" && proved=yes
    done
    [ "$proved" = yes ] && continue # proved through a third move
  fi
  certificate="$certificates/h8-$name.txt"
  after="h8,$reply${third:+,$third}${fourth:+,$fourth}"
  # a third move's run merges its fourth moves proved apart
  merges=()
  if [ -n "$third" ] && [ -z "$fourth" ]; then
    for f in "$out/$reply-$third"-*.json; do
      [[ "$f" =~ /$reply-$third-([a-o][0-9]+)\.json$ ]] || continue
      below="$checkpoints/h8-$reply-$third-${BASH_REMATCH[1]}.checkpoint"
      if grep -qs '"checker": "accepted"' "$f" && [ -e "$below" ]; then
        merges+=(--merge-checkpoint "$below")
      fi
    done
  fi
  args="prove mnk --cols 15 --rows 15 --k 5 --method threats --after $after --zone-moves $zones --covers $covers --time-limit $limit --max-memory $memory"
  if [ "$runs" = on ]; then args+=" --defender-runs"; fi
  if [ -n "$horizon" ]; then args+=" --max-stones $horizon"; fi
  checkpoint="$checkpoints/${after//,/-}.checkpoint"
  resumed=$([ -e "$checkpoint" ] && echo ", resumed from its checkpoint" || true)
  status=0
  /usr/bin/time -f '%e %M' -o "$out/$name.time" \
    "$bin/retrograde" $args ${merges[@]+"${merges[@]}"} --json --proof "$certificate" \
    --checkpoint "$checkpoint" --report-every "$report" > "$file.tmp" || status=$?
  # (time writes "Command exited with non-zero status" first on a failure)
  read -r seconds kib < <(tail -n 1 "$out/$name.time")
  rm "$out/$name.time"
  verdict=null
  if [ "$status" = 0 ]; then
    if [ -n "$third" ] && [ -z "$fourth" ]; then
      # the class's certificate: the root moved up one ply, the chosen
      # third move its first entry (docs/FORMAT.md, threat certificates)
      python3 - "$certificate" "$third" <<'EOF'
import os, sys
path, move = sys.argv[1], sys.argv[2]
col, row = ord(move[0]) - ord("a"), int(move[1:]) - 1
# streamed line by line (a certificate may be hundreds of MB)
with open(path) as lines, open(path + ".tmp", "w") as out:
    for line in lines:
        if line.startswith("root "):
            rows = [list(r) for r in line[len("root "):].rstrip("\n").split("/")]
            assert rows[row][col] == "X", "the third move is Black's stone at the root"
            rows[row][col] = "."
            parent = "/".join("".join(r) for r in rows)
            line = "root %s\nmove %s %s\n" % (parent, parent, move)
        out.write(line)
os.replace(path + ".tmp", path)
EOF
    fi
    verdict=refused
    # accepted only on the checker's own word (a renamed test would run
    # nothing and exit 0)
    RG_THREAT_PROOF="$certificate" "$bin/checker" a_certificate_from_the_environment \
      --exact --ignored --nocapture > "$out/$name.check" 2>&1 &&
      grep -q ': accepted, ' "$out/$name.check" && verdict=accepted
    [ "${KEEP:-0}" = 1 ] || rm -f "$certificate"
    # (a fourth move's checkpoint is kept for its third move's run to
    # merge; merged ones go with the class's)
    if [ "$verdict" = accepted ] && [ -z "$fourth" ]; then
      rm -f "$checkpoint"
      for ((i = 1; i < ${#merges[@]}; i += 2)); do rm -f "${merges[i]}"; done
    fi
  elif [ "$status" != 3 ]; then
    echo "gomoku.sh: ${after//,/ }: retrograde exited with $status" >&2
    exit "$status"
  fi
  python3 - "$file.tmp" "$verdict" "$reply" "$third" "$fourth" <<'EOF'
import json, sys
path, verdict, reply, third, fourth = sys.argv[1:6]
report = json.load(open(path))
report["checker"] = None if verdict == "null" else verdict
if third:
    report["class"], report["third_move"] = "h8," + reply, third
if fourth:
    report["fourth_move"] = fourth
json.dump(report, open(path, "w"))
EOF
  mv "$file.tmp" "$file"
  replayed=$(grep -o 'accepted.*' "$out/$name.check" 2>/dev/null | head -1 || true)
  # the checker's output is kept where it did not accept
  [ "$verdict" = refused ] || rm -f "$out/$name.check"
  result=$([ "$status" = 0 ] && echo "X wins; certificate ${replayed:-$verdict}" || echo "not proved")
  echo "$(date -u +%F) h8 $reply${third:+ (by 3.$third${fourth:+, 4.$fourth apart})}${merges[0]:+ (with $((${#merges[@]} / 2)) fourth moves merged)}: $result; retrograde $args: ${seconds} s wall$resumed, peak resident $((kib / 1024)) MiB" >> "$out/RUNS.log"
done
