#!/usr/bin/env bash
# Re-checks the certificates results/PROOFS.md reports with the checker of
# this checkout (issue 86): each certificate is rebuilt by `prove mnk` (or
# unpacked from results/proofs/), then replayed by `retrograde check-proof`;
# one line a claim in results/proofs/RECHECK.log: the date, the checker
# build (the commit of checker/ and whether the tree was clean), the board,
# the method, the certificate's bytes and sha256, the checker's verdict and
# its time.
#
# Usage: scripts/recheck-proofs.sh [GROUP...]
#   GROUPS: pairings trees wins kept zones (the default: all five, about
#   6 minutes of one core) and 885 (8,8,5 by zones: about 85 minutes of
#   one core and 7 GB, a 1.3 GB certificate; not in the default).
# Certificates are written under $WORK (default /var/tmp/retrograde-recheck),
# not in the repository; a run is resumable: a certificate already there
# with its `.ok` mark is checked again, not rebuilt (delete the mark to
# rebuild). MEMORY (default 16GiB) bounds prove and check-proof.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin retrograde
rg="$PWD/target/release/retrograde"
work="${WORK:-/var/tmp/retrograde-recheck}"
memory="${MEMORY:-16GiB}"
log=results/proofs/RECHECK.log
mkdir -p "$work"
build="checker $(git log -1 --format=%h -- checker/)"
if ! git diff --quiet HEAD -- checker/ cli/src/check_proof.rs; then
  build="$build (with uncommitted changes)"
fi

# check NAME METHOD FILE: replays FILE and appends the log line.
check() {
  local name=$1 method=$2 file=$3 start end verdict bytes digest
  start=$(date +%s.%N)
  if verdict=$("$rg" check-proof "$file" --max-memory "$memory" 2>&1); then :; fi
  end=$(date +%s.%N)
  bytes=$(stat -c %s "$file")
  digest=$(sha256sum "$file" | cut -c1-16)
  printf '%s | %s | %s | %s | %s bytes | sha256 %s… | %s | %.1f s\n' \
    "$(date -u +%F)" "$build" "$name" "$method" "$bytes" "$digest" \
    "${verdict#"$file": }" "$(awk "BEGIN { print $end - $start }")" | tee -a "$log"
}

# prove NAME ARGS...: `prove mnk ARGS --proof` unless its mark is there.
prove() {
  local name=$1 file="$work/$1.proof"
  shift
  if [[ ! -e "$file.ok" ]]; then
    "$rg" prove mnk "$@" --proof "$file" --force --max-memory "$memory" --json >"$work/$name.json"
    touch "$file.ok"
  fi
}

board() { # COLS,ROWS,K → --cols C --rows R --k K
  IFS=, read -r c r k <<<"$1"
  echo "--cols $c --rows $r --k $k"
}

groups=("$@")
[[ ${#groups[@]} -gt 0 ]] || groups=(pairings trees wins kept zones)
for group in "${groups[@]}"; do
  case $group in
    pairings)
      for b in 5,5,5 8,8,8 9,9,9 11,11,8 13,13,9 15,15,9 15,15,10 19,19,11; do
        # shellcheck disable=SC2046
        prove "pairing-$b" $(board "$b")
        check "$b" pairing "$work/pairing-$b.proof"
      done
      ;;
    trees)
      # the default cascade: the wins by the win prover's or the search's
      # proof tree, 7,4,4's draw now by zones (the search's trees of 5,4,4,
      # 6,4,4 and 5,5,4 are built and replayed in `cargo test`)
      for b in 4,4,3 5,6,4 5,7,4 6,6,4 7,4,4; do
        # shellcheck disable=SC2046
        prove "tree-$b" $(board "$b") --method auto
        check "$b" "$(grep -o '"method": *"[^"]*"' "$work/tree-$b.json" | cut -d'"' -f4)" "$work/tree-$b.proof"
      done
      ;;
    wins)
      for b in 6,5,4 7,5,4 6,6,4; do
        # shellcheck disable=SC2046
        prove "win-$b" $(board "$b") --method win
        check "$b" "win prover" "$work/win-$b.proof"
      done
      ;;
    kept)
      for b in 9-4-4 10-4-4; do
        if [[ ! -e "$work/kept-$b.proof" ]]; then
          xz -dc "results/proofs/$b.txt.xz" >"$work/kept-$b.proof"
        fi
        check "${b//-/,}" "win prover (kept file)" "$work/kept-$b.proof"
      done
      ;;
    zones)
      for b in 6,6,5 7,6,5 7,7,5 6,4,4; do
        # shellcheck disable=SC2046
        prove "zones-$b" $(board "$b")
        check "$b" zones "$work/zones-$b.proof"
      done
      ;;
    885)
      prove zones-8,8,5 --cols 8 --rows 8 --k 5 --time-limit 7000
      check 8,8,5 zones "$work/zones-8,8,5.proof"
      ;;
    *)
      echo "recheck-proofs.sh: unknown group $group (pairings trees wins kept zones 885)" >&2
      exit 2
      ;;
  esac
done
