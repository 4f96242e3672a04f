#!/usr/bin/env bash
# The search benchmark on the shipped 7 × 6 Connect Four position sets
# (benches/data/connect4-7x6-{late,middle,early}.txt, "moves score" a line,
# scores in Pascal Pons' convention) and the empty board: strong (exact
# score) and weak (win/draw/loss) at 1 and 2 threads. Every answer is
# checked against the set's expected score; a mismatch fails the script.
# Prints one Markdown table row per run: mean time and mean nodes a
# position, and the whole set's time.
#
# Usage: benches/search_sets.sh [SETS...]       (default: late middle early)
# With PEER=/path/to/solver, also times a peer that reads move strings on
# standard input and prints "moves score" (e.g. a build of Pascal Pons'
# connect4 solver; weak mode given as -w), and checks its scores the same
# way.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/retrograde
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(late middle early)

# check EXPECTED ACTUAL MODE: compares score columns (weak: signs only)
check() {
    paste -d' ' "$1" "$2" | awk -v mode="$3" '
        function sign(v) { return v > 0 ? 1 : (v < 0 ? -1 : 0) }
        { want = $1; got = $2
          if (mode == "weak") { want = sign(want); got = sign(got) }
          if (want != got) { bad++; if (bad < 5) print "line " NR ": expected " $1 ", got " $2 > "/dev/stderr" } }
        END { if (bad > 0) { print bad " scores differ" > "/dev/stderr"; exit 1 } }'
}

echo "| set | positions | solver | mode | threads | mean time / position | mean nodes / position | whole set |"
echo "|---|---:|---|---|---:|---:|---:|---:|"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for set in "${sets[@]}"; do
    file=benches/data/connect4-7x6-$set.txt
    cut -d' ' -f1 "$file" > "$tmp/moves"
    cut -d' ' -f2 "$file" > "$tmp/expected"
    n=$(wc -l < "$tmp/moves")
    for mode in strong weak; do
        flag=(); [ "$mode" = weak ] && flag=(--weak)
        for threads in 1 2; do
            start=$(date +%s.%N)
            "$bin" search connect --positions "$tmp/moves" --json --threads "$threads" -q "${flag[@]}" > "$tmp/out"
            end=$(date +%s.%N)
            # the score (strong) or the value as a sign (weak), and nodes
            sed -E 's/.*"value":"([a-z]+)".*/\1/' "$tmp/out" | awk '{print ($1=="win")?1:(($1=="loss")?-1:0)}' > "$tmp/sign"
            if [ "$mode" = strong ]; then
                sed -E 's/^[^}]*"depth":[0-9]+,"score":(-?[0-9]+).*/\1/' "$tmp/out" > "$tmp/got"
            else
                cp "$tmp/sign" "$tmp/got"
            fi
            check "$tmp/expected" "$tmp/got" "$mode"
            nodes=$(sed -E 's/.*"nodes":([0-9]+).*/\1/' "$tmp/out" | awk '{s+=$1} END{print s}')
            awk -v n="$n" -v s="$start" -v e="$end" -v nodes="$nodes" -v set="$set" -v mode="$mode" -v t="$threads" 'BEGIN {
                printf "| %s | %d | retrograde | %s | %d | %.3f ms | %.0f | %.2f s |\n", set, n, mode, t, (e-s)*1000/n, nodes/n, e-s }'
        done
        if [ -n "${PEER:-}" ]; then
            peerflag=(); [ "$mode" = weak ] && peerflag=(-w)
            start=$(date +%s.%N)
            "$PEER" "${peerflag[@]}" < "$tmp/moves" 2>/dev/null > "$tmp/peer"
            end=$(date +%s.%N)
            awk '{print $2}' "$tmp/peer" > "$tmp/got"
            check "$tmp/expected" "$tmp/got" "$mode"
            awk -v n="$n" -v s="$start" -v e="$end" -v set="$set" -v mode="$mode" 'BEGIN {
                printf "| %s | %d | peer | %s | 1 | %.3f ms | | %.2f s |\n", set, n, mode, (e-s)*1000/n, e-s }'
        fi
    done
done
