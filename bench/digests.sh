#!/usr/bin/env bash
# Digest stability across checkouts (issue #17: "every scenario's digest is stable across two JVMs"): runs every
# bundled scenario at seeds 1..SEEDS in virtual time, one JVM per run, in each checkout, and prints one line per run
#   SCENARIO SEED DIGEST EVENTS OUTCOME
# then compares the checkouts line by line. Exits 1 when any line differs. Both checkouts must be built.
#   bench/digests.sh SEEDS DIR [DIR...]       e.g. bench/digests.sh 3 /work/main /work/wt/branch
set -euo pipefail
seeds="${1:?usage: bench/digests.sh SEEDS DIR [DIR...]}"
shift
[[ $# -ge 1 ]] || { echo "usage: bench/digests.sh SEEDS DIR [DIR...]" >&2; exit 2; }
work="$(mktemp -d /tmp/kvtier-digests.XXXXXX)"
trap 'rm -rf "$work"' EXIT
first=""
status=0
for dir in "$@"; do
  out="$work/$(basename "$dir")-$RANDOM.txt"
  for toml in "$dir"/scenarios/library/*.toml; do
    sc="$(basename "$toml" .toml)"
    for ((seed = 1; seed <= seeds; seed++)); do
      all="$("$dir/kvtier" run "$sc" --seed "$seed" 2>&1 || true)"
      digest="$(sed -n -E 's/^digest ([0-9a-f]+).*/\1/p' <<<"$all" | head -n 1)"
      events="$(sed -n -E 's/^events ([0-9,]+) .*/\1/p' <<<"$all" | head -n 1)"
      outcome="$(grep -E '^(OK|FAIL|ERROR)' <<<"$all" | head -n 1 | cut -c1-60)"
      echo "$sc $seed ${digest:-none} ${events:-none} ${outcome:-none}" | tee -a "$out"
    done
  done
  if [[ -z "$first" ]]; then
    first="$out"
  elif diff -u "$first" "$out"; then
    echo "identical: $dir"
  else
    echo "DIFFERENT: $dir" >&2
    status=1
  fi
done
exit "$status"
