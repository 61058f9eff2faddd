#!/usr/bin/env bash
# The speed targets of issue #17, measured side by side: two checkouts of kvtier (A, B), each command run in turn
# A B A B ... RUNS times, with the figures each run prints itself (in-process wall time, so JVM start-up is out):
#   run pr90-evict, run pr90-evict-per-slot      events/s, peak heap, alloc bytes/event (the bytes the run's thread
#                                                 allocated over its events; a checkout without the figure prints none)
#   explore pr90-evict-small --seeds SEEDS        seeds/s (one JVM, warmed up once; --keep-going past failing seeds)
#   explore2: the same with --threads 2           seeds/s on two worker threads of that JVM (a checkout without
#                                                 --threads refuses the option and prints no figure)
#   run pr90-evict --journal DIR                  journal bytes/event (blocks on disk), journal overhead (wall time
#                                                 with the journal over the run without it, pair by pair, minus 1)
#   replay of that journal                        events/s, every event compared
#   warm: run pr90-evict --repeat 10 and pr90-evict-per-slot --repeat 10, the median events/s of repetitions 2-10 (one
#         JVM, warmed); replay of a pr90-evict journal --repeat 8, the median events/s of replays 3-8
# Prints the median, min and max of each figure per checkout. Both checkouts must be built (./kvtier build).
#   bench/targets.sh A_DIR B_DIR [RUNS] [SEEDS] [TARGET...]   TARGET: evict per-slot explore explore2 journal warm
#                                                             (default all but explore2 and warm)
set -euo pipefail
a="${1:?usage: bench/targets.sh A_DIR B_DIR [RUNS] [SEEDS] [TARGET...]}"
b="${2:?usage: bench/targets.sh A_DIR B_DIR [RUNS] [SEEDS] [TARGET...]}"
runs="${3:-5}"
seeds="${4:-200}"
shift 2; [[ $# -gt 0 ]] && shift; [[ $# -gt 0 ]] && shift
targets=("$@"); [[ ${#targets[@]} -eq 0 ]] && targets=(evict per-slot explore journal)
work="$(mktemp -d /tmp/kvtier-targets.XXXXXX)"
trap 'rm -rf "$work"' EXIT
out="$work/figures.tsv"   # side  target  figure  value

field() { # prints the number before $2 in line $1 ("27105 events/s" -> 27105)
  sed -E -n "s#.*[ (]([0-9][0-9,.]*) $2.*#\1#p" <<<"$1" | tr -d , | head -n 1
}
run_one() { # side dir target
  local side="$1" dir="$2" target="$3" line wall jdir
  case "$target" in
    evict|per-slot)
      local sc=pr90-evict; [[ "$target" == per-slot ]] && sc=pr90-evict-per-slot
      local all alloc
      all="$("$dir/kvtier" run "$sc" --seed 1)"
      line="$(grep -E '^events ' <<<"$all")"
      printf '%s\t%s\tevents/s\t%s\n' "$side" "$target" "$(field "$line" 'events/s')" >>"$out"
      printf '%s\t%s\tpeak heap MiB\t%s\n' "$side" "$target" "$(field "$line" 'MiB')" >>"$out"
      alloc="$(field "$(grep -E '^allocated ' <<<"$all" || true)" 'bytes/event')"
      if [[ -n "$alloc" ]]; then printf '%s\t%s\talloc bytes/event\t%s\n' "$side" "$target" "$alloc" >>"$out"; fi
      ;;
    explore|explore2)
      local threads=(); [[ "$target" == explore2 ]] && threads=(--threads 2)
      line="$("$dir/kvtier" explore pr90-evict-small --seeds "$seeds" --keep-going --journals "$work/explore-$side" \
        "${threads[@]}" | grep -E '^explored ' || true)"   # a failing seed makes explore exit 1
      # "(12.34 seeds/s)", or with threads "(23.45 seeds/s, 2 threads)"
      printf '%s\t%s\tseeds/s\t%s\n' "$side" "$target" "$(sed -E -n 's/.*\(([0-9.]+) seeds\/s[,)].*/\1/p' <<<"$line")" >>"$out"
      ;;
    journal)
      jdir="$work/journal-$side"; rm -rf "$jdir"
      line="$("$dir/kvtier" run pr90-evict --seed 1 | grep -E '^events ')"
      local plain events bytes
      plain="$(sed -E -n 's/.* wall ([0-9.]+) s.*/\1/p' <<<"$line")"
      line="$("$dir/kvtier" run pr90-evict --seed 1 --journal "$jdir" | grep -E '^events ')"
      wall="$(sed -E -n 's/.* wall ([0-9.]+) s.*/\1/p' <<<"$line")"
      events="$(sed -E -n 's/^events ([0-9,]+) .*/\1/p' <<<"$line" | tr -d ,)"
      bytes="$(du -s --block-size=1 "$jdir" | cut -f1)"
      printf '%s\t%s\tbytes/event\t%s\n' "$side" "$target" "$(awk -v b="$bytes" -v e="$events" 'BEGIN{printf "%.1f", b/e}')" >>"$out"
      printf '%s\t%s\toverhead %%\t%s\n' "$side" "$target" "$(awk -v j="$wall" -v p="$plain" 'BEGIN{printf "%.1f", (j/p-1)*100}')" >>"$out"
      line="$("$dir/kvtier" replay "$jdir" | grep -E '^replayed ')"
      printf '%s\treplay\tevents/s\t%s\n' "$side" "$(field "$line" 'events/s')" >>"$out"
      ;;
    warm)
      local sc median
      for sc in pr90-evict pr90-evict-per-slot; do
        median="$("$dir/kvtier" run "$sc" --seed 1 --repeat 10 | grep -E '^repeat ' \
          | sed -E 's/.*\(([0-9]+) events\/s.*/\1/' | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')"
        printf '%s\twarm\t%s events/s\t%s\n' "$side" "${sc#pr90-}" "$median" >>"$out"
      done
      jdir="$work/warm-journal-$side"
      if [[ ! -d "$jdir" ]]; then "$dir/kvtier" run pr90-evict --seed 1 --journal "$jdir" >/dev/null; fi
      median="$("$dir/kvtier" replay "$jdir" --repeat 8 | grep -E '^replayed ' | tail -n +3 \
        | sed -E 's/.*\(([0-9]+) events\/s.*/\1/' | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')"
      printf '%s\twarm\treplay events/s\t%s\n' "$side" "$median" >>"$out"
      ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
  esac
}
echo "targets: A=$a ($(git -C "$a" rev-parse --short HEAD)) B=$b ($(git -C "$b" rev-parse --short HEAD)); $runs runs each, A B alternating; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for target in "${targets[@]}"; do
  for ((i = 1; i <= runs; i++)); do
    run_one A "$a" "$target"
    run_one B "$b" "$target"
  done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %-14s %-4s %12s %12s %12s\n' target figure side median min max
sort -t$'\t' -k2,2 -k3,3 -k1,1 -s "$out" | awk -F'\t' '
  { key = $2 "\t" $3 "\t" $1; if (!(key in n)) order[++k] = key; v[key, ++n[key]] = $4 }
  END {
    for (i = 1; i <= k; i++) {
      key = order[i]; m = n[key]
      for (x = 1; x <= m; x++) a[x] = v[key, x]
      for (x = 1; x <= m; x++) for (y = x + 1; y <= m; y++) if (a[y] + 0 < a[x] + 0) { t = a[x]; a[x] = a[y]; a[y] = t }
      med = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
      split(key, p, "\t"); printf "%-10s %-14s %-4s %12s %12s %12s\n", p[1], p[2], p[3], med, a[1], a[m]
    }
  }'
