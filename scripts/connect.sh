#!/usr/bin/env bash
# Regenerates results/connect/ (one JSON summary per Connect-Four board:
# every ply's positions, terminal positions by result, and positions won /
# drawn / lost for the first player under perfect play) and
# results/CONNECT.md (each board's report as `query` prints it from the
# saved table, with the solve's wall time, peak resident memory and table
# size on this machine). Each board is solved once, with its table saved to
# a scratch directory and deleted after the report; every result file is
# written to a temporary name and renamed, so an interrupted run leaves no
# partial file.
#
# Usage: scripts/connect.sh [BOARD ...]   (e.g. 6x5; default: every board
#        below; from anywhere; builds the release binary). Boards named on
#        the command line are solved again; the others keep their JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
rg=target/release/retrograde
mkdir -p results/connect
all="4x4 5x4 6x4 4x5 5x5 4x6 3x8 4x7 8x3 5x6 7x4 6x5"
boards="${*:-$all}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"; rm -f results/connect/*.tmp results/connect/*.tmp2 results/CONNECT.md.tmp' EXIT
for board in $boards; do
  cols=${board%x*}
  rows=${board#*x}
  file="results/connect/connect-${cols}x${rows}-k4.json"
  table="$scratch/table.rtb"
  /usr/bin/time -f '%e %M' -o "$scratch/time" \
    "$rg" connect --cols "$cols" --rows "$rows" --json -q --out "$table" > "$file.tmp"
  read -r seconds kib < "$scratch/time"
  bytes=$(stat -c %s "$table")
  # keep the figures, drop the machine-dependent timing
  sed -e 's/,"threads":[0-9]*,"seconds":[0-9.e-]*,"states_per_second":[0-9.e+-]*//' "$file.tmp" > "$file.tmp2"
  rm "$file.tmp"
  mv "$file.tmp2" "$file"
  {
    echo "## ${cols} columns × ${rows} rows"
    echo
    echo '```'
    "$rg" query "$table" | grep -v '^loaded in'
    echo '```'
    echo
    echo "Solved in ${seconds} s on 2 threads, peak resident memory $((kib / 1024)) MiB;"
    echo "table file ${bytes} bytes."
  } > "results/connect/connect-${cols}x${rows}-k4.md"
  rm -f "$table"
done
md=results/CONNECT.md.tmp
{
  echo "# Connect Four boards solved completely"
  echo
  echo "Four in a row, every reachable position enumerated and solved"
  echo "(\`retrograde connect --cols C --rows R --out TABLE\`; positions containing a"
  echo "win are counted, as in John Tromp's tables, but not expanded). Per ply:"
  echo "positions, terminal positions by result, then every position by its value"
  echo "for the first player under perfect play (terminal ones by their result)."
  echo "A position and its mirror image are solved once and counted twice."
  echo "Regenerate with \`scripts/connect.sh\`; the JSON of each board is in"
  echo "\`connect/\`."
  for board in $all; do
    part="results/connect/connect-${board}-k4.md"
    if [ -f "$part" ]; then
      echo
      cat "$part"
    fi
  done
} > "$md"
mv "$md" results/CONNECT.md
# a picture of each board's per-ply table beside its JSON
for json in results/connect/connect-*-k4.json; do
  "$rg" plot "$json" --out "${json%.json}.svg"
done
