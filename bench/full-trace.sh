#!/usr/bin/env bash
# The whole Mooncake conversation trace (one hour, 12,031 requests, about 17.8 M events) in virtual time with every
# checker on (issue #33 item 9): mooncake-conversation-10min's Qwen3-8B engine model and 8 KiB slots over the full
# trace, L1 20 % and L2 25 % of its distinct KV (1.4 M ring slots; the scenario's own 50 % makes a ring whose index is
# more than the simulated index device holds). Runs it RUNS times in each checkout given, one JVM a run, and prints
# one line a run with the figures the run prints itself (wall is in-process: JVM start-up is out):
#   DIR  HEAP  wall S  events/s N  peak heap MiB  allocated MB  digest D
# HEAP is "default" (the JVM's own maximum, a quarter of the machine's memory) or each -Xmx of HEAPS (a run that runs
# out of heap prints OOM). The trace is read from ../shared/traces/ beside the checkout, or KVTIER_TRACES=DIR; without
# it the script says so and exits 0.
#   bench/full-trace.sh [RUNS] [DIR...]         e.g. bench/full-trace.sh 3 . /tmp/kvtier-base
#   HEAPS="1g 2g" bench/full-trace.sh 1 .       also with -Xmx1g and -Xmx2g
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-3}"
[[ $# -gt 0 ]] && shift
dirs=("$@")
[[ ${#dirs[@]} -eq 0 ]] && dirs=("$here")
traces="${KVTIER_TRACES:-$here/../shared/traces}"
trace="$traces/mooncake-conversation.jsonl"
if [[ ! -f "$trace" ]]; then
  echo "full-trace: skipped: no $trace (set KVTIER_TRACES=DIR; scenarios/traces/README.md says where to get it)"
  exit 0
fi
heaps=(default ${HEAPS:-})
for ((i = 1; i <= runs; i++)); do
  for dir in "${dirs[@]}"; do
    for heap in "${heaps[@]}"; do
      opts=""
      [[ "$heap" != default ]] && opts="-Xmx$heap"
      all="$(cd "$dir" && KVTIER_JAVA_OPTS="$opts" ./kvtier run mooncake-conversation-10min \
        --set workload.trace="$trace" --set core.l2Fraction=0.25 2>&1 || true)"
      if grep -q OutOfMemoryError <<<"$all"; then
        echo "$dir  $heap  OOM"
        continue
      fi
      line="$(grep -E '^events ' <<<"$all" | head -n 1)"
      wall="$(sed -E -n 's/.* wall ([0-9.]+) s.*/\1/p' <<<"$line")"
      rate="$(sed -E -n 's/.*\(([0-9]+) events\/s.*/\1/p' <<<"$line")"
      peak="$(sed -E -n 's/.*peak heap ([0-9]+) MiB.*/\1/p' <<<"$line")"
      alloc="$(sed -E -n 's/^allocated ([0-9.]+) MB.*/\1/p' <<<"$all" | head -n 1)"
      digest="$(sed -E -n 's/^digest ([0-9a-f]+).*/\1/p' <<<"$all" | head -n 1)"
      echo "$dir  $heap  wall ${wall:-?} s  events/s ${rate:-?}  peak heap ${peak:-?} MiB  allocated ${alloc:-?} MB" \
        " digest ${digest:-none}"
    done
  done
done
