#!/usr/bin/env bash
# Prints explore-job.yaml scaled by one number, ready for `kubectl apply -f -`:
#   deploy/kubernetes/render.sh [--run RUN] [--parallelism P] SHARDS SEEDS [SCENARIO [FILE...]]
# SHARDS pods (the Job's completions; KVTIER_SHARDS, which must equal it) each explore their shard of seeds 1 to SEEDS,
# at most P at once (default SHARDS). SCENARIO is a library name (default pr90-evict-small) or a scenario file: a file
# is shipped in the ConfigMap kvtier-scenario, printed before the Job, with each FILE (the profiles or traces it names
# by a relative path) beside it; every pod mounts it at /scenario and explores /scenario/NAME. That ConfigMap is what
#   kubectl create configmap kvtier-scenario --from-file=SCENARIO --from-file=FILE... --dry-run=client -o yaml
# makes. RUN names the results directory on the volume (default run-1). Bad arguments: one line and exit 2.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fail() { echo "render.sh: $*" >&2; exit 2; }

run="run-1"
parallelism=""
while [[ $# -gt 0 && "$1" == --* ]]; do
  [[ $# -ge 2 ]] || fail "$1 needs a value"
  case "$1" in
    --run) run="$2" ;;
    --parallelism) parallelism="$2" ;;
    *) fail "unknown option $1 (usage: render.sh [--run RUN] [--parallelism P] SHARDS SEEDS [SCENARIO [FILE...]])" ;;
  esac
  shift 2
done
[[ $# -ge 2 ]] || fail "usage: render.sh [--run RUN] [--parallelism P] SHARDS SEEDS [SCENARIO [FILE...]]"
shards="$1"
seeds="$2"
scenario="${3:-pr90-evict-small}"
shift 2
[[ $# -gt 0 ]] && shift
parallelism="${parallelism:-$shards}"

whole() { [[ "$1" =~ ^[1-9][0-9]{0,17}$ ]]; }
whole "$shards" && ((shards <= 100000)) \
  || fail "SHARDS must be a whole number from 1 to 100000 (an Indexed Job's most completions), got '$shards'"
whole "$seeds" || fail "SEEDS must be a whole number of at least 1, got '$seeds'"
whole "$parallelism" && ((parallelism <= shards)) \
  || fail "--parallelism must be a whole number from 1 to SHARDS ($shards), got '$parallelism'"
[[ "$run" =~ ^[A-Za-z0-9._-]+$ ]] || fail "--run must be letters, digits, '.', '_' or '-', got '$run'"

# File $1 as one YAML double-quoted string, exactly (the caller has refused control characters).
quoted() {
  local s
  s="$(LC_ALL=C awk '{
    out = ""
    for (i = 1; i <= length($0); i++) {
      c = substr($0, i, 1)
      out = out (c == "\\" ? "\\\\" : c == "\"" ? "\\\"" : c == "\t" ? "\\t" : c == "\r" ? "\\r" : c)
    }
    printf "%s\\n", out
  }' "$1")"
  # awk ended the last line with \n: drop it when the file does not end with a newline.
  if [[ -s "$1" && -n "$(tail -c 1 "$1")" ]]; then s="${s%\\n}"; fi
  printf '"%s"' "$s"
}

# The ConfigMap of a scenario file and the FILEs beside it (nothing for a library scenario), then the Job.
configmap=""
arg="$scenario"
if [[ -f "$scenario" ]]; then
  arg="/scenario/$(basename "$scenario")"
  declare -A seen=()
  total=0
  configmap="apiVersion: v1
kind: ConfigMap
metadata:
  name: kvtier-scenario
  labels:
    app.kubernetes.io/name: kvtier
data:"
  for f in "$scenario" "$@"; do
    [[ -f "$f" ]] || fail "$f: no such file to ship beside the scenario"
    key="$(basename "$f")"
    [[ "$key" =~ ^[A-Za-z0-9._-]+$ ]] || fail "$f: a ConfigMap key must be letters, digits, '.', '_' or '-'"
    [[ -z "${seen[$key]:-}" ]] || fail "$f: two files named $key"
    seen[$key]=1
    if LC_ALL=C grep -q $'[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]' "$f" || [[ "$(LC_ALL=C tr -d '\000' <"$f" | wc -c)" -ne \
      "$(wc -c <"$f")" ]]; then
      fail "$f: not a text file (it holds control characters)"
    fi
    total=$((total + $(wc -c <"$f")))
    ((total <= 1000000)) || fail "the files come to more than the 1 MB a ConfigMap holds"
    configmap+=$'\n'"  $key: $(quoted "$f")"
  done
  configmap+=$'\n---\n'
elif [[ $# -gt 0 ]]; then
  fail "FILEs ship beside a scenario file; '$scenario' is not one"
elif [[ -d "$here/../../scenarios/library" && ! -f "$here/../../scenarios/library/$scenario.toml" ]]; then
  fail "'$scenario' is neither a scenario file nor a library scenario"
fi

# The template with each number in its place; every edit must hit exactly one line.
job="$(awk -v shards="$shards" -v seeds="$seeds" -v par="$parallelism" -v scenario="$arg" -v run="$run" '
  function put(value) { sub(/- .*/, "- " value); hits++ }
  function env(value) { sub(/value: .*/, "value: \"" value "\""); hits++ }
  after == "explore" { put(scenario) }
  after == "--seeds" { put("\"" seeds "\"") }
  after == "KVTIER_SHARDS" { env(shards) }
  after == "KVTIER_RUN" { env(run) }
  { after = "" }
  /^  completions: [0-9]+$/ { sub(/[0-9]+$/, shards); hits++ }
  /^  parallelism: [0-9]+$/ { sub(/[0-9]+$/, par); hits++ }
  /^            - explore$/ { after = "explore" }
  /^            - --seeds$/ { after = "--seeds" }
  /^            - name: KVTIER_SHARDS$/ { after = "KVTIER_SHARDS" }
  /^            - name: KVTIER_RUN$/ { after = "KVTIER_RUN" }
  { print }
  END { if (hits != 6) { print "render.sh: explore-job.yaml changed: " hits " of its 6 edits applied" > "/dev/stderr";
    exit 3 } }
' "$here/explore-job.yaml")"
printf '%s%s\n' "$configmap" "$job"
