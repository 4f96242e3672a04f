#!/usr/bin/env bash
# Regenerates results/: one JSON summary per m,n,k board up to 4×4 and every
# k (results/mnk/), and the table of results/README.md. Each file is written
# to a temporary name and renamed, so an interrupted run leaves no partial file.
#
# Usage: scripts/regenerate.sh        (from anywhere; builds the release binary)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
rg=target/release/retrograde
mkdir -p results/mnk
rows_md=""
for cols in 1 2 3 4; do
  for rows in 1 2 3 4; do
    for k in $(seq 1 $(( rows > cols ? rows : cols ))); do
      file="results/mnk/mnk-${cols}x${rows}-k${k}.json"
      "$rg" mnk --cols "$cols" --rows "$rows" --k "$k" --json > "$file.tmp"
      # keep the figures, drop the machine-dependent timing
      sed -e 's/,"threads":[0-9]*,"seconds":[0-9.e-]*,"states_per_second":[0-9.e+-]*//' "$file.tmp" > "$file.tmp2"
      rm "$file.tmp"
      mv "$file.tmp2" "$file"
      field() { grep -o "\"$1\":[^,}]*" "$file" | head -1 | cut -d: -f2 | tr -d '"'; }
      "$rg" plot "$file" --out "${file%.json}.svg"
      rows_md+="| ${cols}×${rows} | $k | $(field value) | $(field positions) | $(field terminal) | $(field classes) | $(field terminal_classes) | $(field games) | $(field games_x_wins) | $(field games_o_wins) | $(field games_draws) |"$'\n'
    done
  done
done
tmp=results/README.md.tmp
cat > "$tmp" <<MD
# Results

Solved m,n,k boards (tic-tac-toe family) up to 4×4, every k. One JSON file a
board in \`mnk/\` holds every count, per ply included; this table holds the
totals. Boards are named columns × rows (\`mnk-4x3-k3.json\`: 4 columns,
3 rows). \`value\` is the empty board's value under perfect play: \`first\`
(the first player, X, wins), \`second\` or \`draw\`. Positions are the boards
reachable in legal play (play stops at a win); classes count them up to
rotation and reflection; games are the move sequences from the empty board to
the end.

Regenerate with \`scripts/regenerate.sh\`. The Cat and Mouse race against
the C baseline is in [cat-mouse-baseline.md](cat-mouse-baseline.md); the
Connect Four search beside Pascal Pons' solver in [SEARCH.md](SEARCH.md);
the Connect Four boards solved completely in [CONNECT.md](CONNECT.md).
The dates of the engines' measurements that the module docs quote are in
[LOG.md](LOG.md) (the provers' in [PROOFS-LOG.md](PROOFS-LOG.md)).

| board (columns×rows) | k | value | positions | terminal | classes | terminal classes | games | X wins | O wins | draws |
|---|---|---|---|---|---|---|---|---|---|---|
${rows_md}
MD
mv "$tmp" results/README.md
