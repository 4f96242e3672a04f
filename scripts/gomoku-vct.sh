#!/usr/bin/env bash
# Issue 76: the threat prover with and without its threat-space search
# (--vct) on gomoku positions, with the same limits: those it has proved
# (line 3 of the issue) and lines still open (a path, run with VCT alone:
# RUNS=3 CHECKPOINTS=DIR).
# Each position is proved twice, without and with VCT (default 3; a
# setting such as 3,400), one run after the other; the certificate of each
# run is checked by the independent checker (`retrograde check-proof`) and
# deleted; with CHECKPOINTS (a directory) each run keeps its checkpoint
# there and resumes from it. One line per run goes to
# results/gomoku/VCT-RUNS.log: the
# positions searched and listed, the threat-space searches, seconds, the
# certificate's bytes and the checker's word.
#
# Usage: scripts/gomoku-vct.sh NAME ...   (NAME of the table below, or a
#        path as REPLY:MOVE:...;
#        two calls side by side share the two cores as the runs of
#        results/PROOFS-LOG.md did). TIME_LIMIT caps each run (default
#        1500 s): a run stopped by it is logged "not proved". RUNS="3"
#        (say) runs only those settings, "off" for none (default "off
#        $VCT").
set -euo pipefail
cd "$(dirname "$0")/.."
vct=${VCT:-3}
runs=${RUNS:-off $vct}
limit=${TIME_LIMIT:-1500}
log=results/gomoku/VCT-RUNS.log
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
zones="--zone-moves 10 --covers 3"
# NAME: the moves after which it is proved, and its limits (those it was
# proved with: results/gomoku/RUNS.log)
settings() {
  case $1 in
    o15) echo "h8,o15 $zones --max-memory 4GiB --max-stones 36" ;;
    j10) echo "h8,j10 $zones --max-memory 9GiB --max-stones 30,36" ;;
    k8) echo "h8,k8 $zones --max-memory 9GiB --max-stones 30,36" ;;
    i9-i8-j10) echo "h8,i9,i8,j10 $zones --max-memory 9GiB --max-stones 30,36" ;;
    j9-h9-h10-i8-j10) echo "h8,j9,h9,h10,i8,j10 $zones --max-memory 9GiB --max-stones 30,36" ;;
    j9-h9-h10-i8-j7-j10-i11) echo "h8,j9,h9,h10,i8,j7,j10,i11 $zones --max-memory 9GiB --max-stones 30,36" ;;
    j9-h9-h7-i8-j8-j10-g11) echo "h8,j9,h9,h7,i8,j8,j10,g11 $zones --max-memory 9GiB --max-stones 30,36" ;;
    a1-i9-a4-o15-a3) echo "h8,a1,i9,a4,o15,a3 $zones --max-memory 4GiB" ;;
    # a line still open (a path as for gomoku.sh, REPLY:MOVE:...), with the
    # settings of its runs there
    *:*) echo "h8,${1//:/,} $zones --max-memory 9GiB --max-stones 30,36" ;;
    *) echo "gomoku-vct.sh: $1: not a position of its table" >&2; return 2 ;;
  esac
}
# (a name not in the table: its message, and exit 2 before any build or run)
for name in "$@"; do settings "$name" > /dev/null || exit 2; done
cargo build --release --quiet
cp target/release/retrograde "$work/retrograde"
for name in "$@"; do
  read -r after rest < <(settings "$name")
  for with in $runs; do
    cert="$work/${name//:/-}.cert"
    args="prove mnk --cols 15 --rows 15 --k 5 --method threats --after $after $rest --time-limit $limit"
    [ "$with" = off ] || args+=" --vct $with"
    keep=()
    resumed=""
    if [ -n "${CHECKPOINTS:-}" ]; then
      mkdir -p "$CHECKPOINTS"
      keep=(--checkpoint "$CHECKPOINTS/${name//:/-}-vct-$with.checkpoint")
      [ -e "${keep[1]}" ] && resumed=" (resumed from its checkpoint)"
    fi
    status=0
    "$work/retrograde" $args ${keep[@]+"${keep[@]}"} --json --proof "$cert" > "$work/out.json" || status=$?
    if [ "$status" != 0 ] && [ "$status" != 3 ]; then
      echo "gomoku-vct.sh: $name: retrograde exited with $status" >&2
      exit "$status"
    fi
    verdict="not proved"
    bytes=0
    if [ "$status" = 0 ]; then
      bytes=$(stat -c %s "$cert")
      verdict=refused
      "$work/retrograde" check-proof "$cert" > "$work/check" 2>&1 &&
        grep -q ': accepted: ' "$work/check" && verdict=accepted
      rm -f "$cert"
    fi
    python3 - "$work/out.json" "$name" "$with" "$verdict" "$bytes" "$args$resumed" >> "$log" <<'PY'
import json, sys
out, name, vct, verdict, size, args = sys.argv[1:]
r = json.load(open(out))
if not r["proved"]:
    # (the report says how far it got: its positions, the moves open)
    print(f"{name} vct {vct}: {verdict}; {r['why_not']}; {r['seconds']:.1f} s; retrograde {args}")
    sys.exit()
p = r["proof"]
listed = sum(c["positions"] for c in p.get("claims", []))
searched = p.get("threat_space_searches")
print(
    f"{name} vct {vct}: {verdict}; {p.get('visits', 0):,} positions searched, "
    f"{listed:,} listed, {int(size):,} bytes, {r['seconds']:.1f} s"
    + (f", {searched:,} threat-space searches of {p['threat_space_positions']:,} positions, "
       f"{p['threat_space_wins']:,} wins" if searched is not None else "")
    + f"; retrograde {args}"
)
PY
  done
done
