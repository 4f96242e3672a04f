#!/usr/bin/env bash
# Regenerates results/connect/ (one JSON summary per Connect-Four board:
# every ply's positions, terminal positions by result, and positions won /
# drawn / lost for the first player under perfect play) and
# results/CONNECT.md (each board's report as the command prints it). Each
# file is written to a temporary name and renamed, so an interrupted run
# leaves no partial file.
#
# Usage: results/connect.sh        (from anywhere; builds the release binary)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
rg=target/release/retrograde
mkdir -p results/connect
boards="4x4 5x4 6x4 4x5 5x5 4x6 3x8"
md=results/CONNECT.md.tmp
{
  echo "# Connect Four boards solved completely"
  echo
  echo "Four in a row, every reachable position enumerated and solved"
  echo "(\`retrograde connect --cols C --rows R\`; positions containing a win are"
  echo "counted, as in John Tromp's tables, but not expanded). Per ply: positions,"
  echo "terminal positions by result, then every position by its value for the"
  echo "first player under perfect play (terminal ones by their result)."
  echo "Regenerate with \`results/connect.sh\`; the JSON of each board is in"
  echo "\`connect/\`."
} > "$md"
for board in $boards; do
  cols=${board%x*}
  rows=${board#*x}
  file="results/connect/connect-${cols}x${rows}-k4.json"
  "$rg" connect --cols "$cols" --rows "$rows" --json -q > "$file.tmp"
  # keep the figures, drop the machine-dependent timing
  sed -e 's/,"threads":[0-9]*,"seconds":[0-9.e-]*,"states_per_second":[0-9.e+-]*//' "$file.tmp" > "$file.tmp2"
  rm "$file.tmp"
  mv "$file.tmp2" "$file"
  {
    echo
    echo "## ${cols} columns × ${rows} rows"
    echo
    echo '```'
    "$rg" connect --cols "$cols" --rows "$rows" -q | grep -v '^solved in'
    echo '```'
  } >> "$md"
done
mv "$md" results/CONNECT.md
