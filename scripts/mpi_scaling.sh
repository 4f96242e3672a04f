#!/usr/bin/env bash
# Measures the distributed solve on this machine and writes
# results/MPI_SCALING.md: 6x4 and 5x5 Connect Four in one process (the main
# engine) and under mpirun at 1, 2 and 4 ranks (4 oversubscribe 2 cores),
# each rank's wall time and peak resident memory (/usr/bin/time around each
# rank). Every run's JSON is checked to equal the single-process counts.
#
# Usage: scripts/mpi_scaling.sh   (needs scripts/install-mpi.sh; builds the
#        MPI binary into target/mpi)
set -euo pipefail
cd "$(dirname "$0")/.."
CARGO_TARGET_DIR=target/mpi cargo build --release --quiet --features mpi
rg=target/mpi/release/retrograde
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"; rm -f results/MPI_SCALING.md.tmp' EXIT
mpirun=(mpirun --oversubscribe --allow-run-as-root --bind-to none)
strip='del(.threads, .seconds, .states_per_second, .ranks)'
out=results/MPI_SCALING.md.tmp
{
  echo "# The distributed solve measured on this machine"
  echo
  echo "$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(mpirun --version | head -1), $(date -u +%Y-%m-%d)."
  echo "Regenerate with \`scripts/mpi_scaling.sh\`. Each rank's peak is its own"
  echo "resident set (\`/usr/bin/time\` around each rank); every distributed run's"
  echo "JSON equals the single-process report apart from timing and \`ranks\`."
  echo
  echo "| board | run | wall s | positions/s | peak per rank (MiB) | peak vs one process |"
  echo "|---|---|---:|---:|---|---:|"
} > "$out"
for board in 6x4 5x5; do
  cols=${board%x*}
  rows=${board#*x}
  args=(connect --cols "$cols" --rows "$rows" --json -q)
  /usr/bin/time -f '%e %M' -o "$scratch/time" "$rg" "${args[@]}" --threads 2 > "$scratch/single.json"
  read -r wall kb < "$scratch/time"
  single_kb=$kb
  rate=$(jq '.states_per_second / 1e6 | floor' "$scratch/single.json")
  echo "| $cols×$rows | one process, 2 threads | $wall | $rate M | $((kb / 1024)) | 100% |" >> "$out"
  jq -S "$strip" "$scratch/single.json" > "$scratch/want"
  for spec in "1 2" "2 1" "4 1"; do
    read -r ranks threads <<< "$spec"
    rm -f "$scratch"/rank.*
    "${mpirun[@]}" -np "$ranks" sh -c '/usr/bin/time -f "%e %M" -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' \
      "$scratch/rank" "$rg" "${args[@]}" --threads "$threads" > "$scratch/got.json"
    jq -S "$strip" "$scratch/got.json" | cmp -s - "$scratch/want" || {
      echo "$board on $ranks ranks differs from one process" >&2
      exit 1
    }
    wall=$(jq '.seconds * 100 | round / 100' "$scratch/got.json")
    rate=$(jq '.states_per_second / 1e6 | floor' "$scratch/got.json")
    peaks=$(for f in "$scratch"/rank.*; do awk '{print int($2/1024)}' "$f"; done | sort -n | paste -sd/)
    worst=$(for f in "$scratch"/rank.*; do awk '{print $2}' "$f"; done | sort -n | tail -1)
    share=$((100 * worst / single_kb))
    echo "| $cols×$rows | $ranks rank(s) × $threads thread(s) | $wall | $rate M | $peaks | $share% |" >> "$out"
  done
done
mv "$out" results/MPI_SCALING.md
cat results/MPI_SCALING.md
