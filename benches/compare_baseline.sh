#!/usr/bin/env bash
# Whole-process race: `retrograde cat-mouse --json` at 1 and 2 threads against
# the project's single-threaded C baseline (benches/baseline/cat_mouse.c, a
# plain breadth-first retrograde solver built here with the system's C
# compiler), on the bench graph and on larger random graphs it generates.
# Both must print the same totals; the script stops if they do not.
#
# Usage: benches/compare_baseline.sh [RUNS]     (default 15 runs, best and median kept)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-15}
source_c=benches/baseline/cat_mouse.c
work=target/compare-baseline
mkdir -p "$work"
"${CC:-cc}" -O2 -o "$work/baseline" "$source_c"
cargo build --release --quiet
rg=target/release/retrograde

# Best and median wall time in milliseconds of a command, over $runs runs.
time_ms() {
  local samples=()
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N)
    samples+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${samples[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f %.1f", a[1]/1000, a[int((NR+1)/2)]/1000}'
}

totals() { grep -o '"\(states\|mouse_wins\|cat_wins\|draws\|code\|depth\)":[^,}]*' | sort | tr '\n' ' '; }

graphs=("bench:benches/data/cat-mouse-2000.json")
for spec in "4000 6 1" "6000 4 2" "8000 5 3"; do
  read -r n deg seed <<<"$spec"
  file="$work/random-$n-$deg-$seed.json"
  [ -f "$file" ] || "$work/baseline" --random "$n" "$deg" "$seed" --dump "$file"
  graphs+=("random $n deg $deg seed $seed:$file")
done

printf '| graph | states | baseline best / median ms | retrograde 1 thread | retrograde 2 threads | speed-up at 2 threads (best) |\n'
printf '|---|---|---|---|---|---|\n'
for entry in "${graphs[@]}"; do
  name=${entry%%:*}; file=${entry#*:}
  want=$("$work/baseline" "$file" | totals)
  got=$("$rg" cat-mouse --graph-file "$file" --json | totals)
  [ "$want" = "$got" ] || { echo "totals differ on $name: baseline $want, retrograde $got" >&2; exit 1; }
  states=$("$rg" cat-mouse --graph-file "$file" --json | grep -o '"states":[0-9]*' | cut -d: -f2)
  read -r b_best b_med <<<"$(time_ms "$work/baseline" "$file")"
  read -r r1_best r1_med <<<"$(time_ms "$rg" cat-mouse --graph-file "$file" --json --threads 1)"
  read -r r2_best r2_med <<<"$(time_ms "$rg" cat-mouse --graph-file "$file" --json --threads 2)"
  speedup=$(awk -v b="$b_best" -v r="$r2_best" 'BEGIN {printf "%.2f×", b / r}')
  printf '| %s | %s | %s / %s | %s / %s | %s / %s | %s |\n' "$name" "$states" "$b_best" "$b_med" "$r1_best" "$r1_med" "$r2_best" "$r2_med" "$speedup"
done
