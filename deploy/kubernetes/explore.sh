#!/usr/bin/env bash
# Runs one exploration on a Kubernetes cluster: the shards (explore-job.yaml), then, once every shard has ended,
# the merge (merge-job.yaml), and prints the merged report. Exits with the merge's exit code.
#   deploy/kubernetes/explore.sh [RUN [SHARDS SEEDS [SCENARIO [FILE...]]]]
# RUN names the results directory on the volume (default: the time now). SHARDS pods explore seeds 1 to SEEDS
# (default 4 and 1000) of SCENARIO, a library name (default pr90-evict-small) or a scenario file, shipped to the pods
# in a ConfigMap with the FILEs it names beside it: render.sh prints the Job so (and refuses bad arguments, exit 2,
# before anything is applied).
# Needs kubectl pointed at the cluster, the volume of results-volume.yaml, and the image named in the two Jobs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
run="${1:-$(date -u +%Y%m%d-%H%M%S)}"
[[ "$run" =~ ^[A-Za-z0-9._-]+$ ]] || { echo "explore.sh: RUN must be letters, digits, '.', '_' or '-'" >&2; exit 2; }
[[ $# -gt 0 ]] && shift
[[ $# -eq 0 ]] && set -- 4 1000
job="$("$here/render.sh" --run "$run" "$@")"

# Waits until job $1 has a Complete or Failed condition and prints which.
wait_for() {
  local state
  while true; do
    state="$(kubectl get job "$1" -o jsonpath='{.status.conditions[?(@.status=="True")].type}')"
    case "$state" in
      *Complete*) echo Complete; return ;;
      *Failed*) echo Failed; return ;;
    esac
    sleep 20
  done
}

kubectl apply -f "$here/results-volume.yaml"
kubectl delete job kvtier-explore kvtier-explore-merge --ignore-not-found --wait=true
printf '%s\n' "$job" | kubectl apply -f -
echo "explore.sh: shards: $(wait_for kvtier-explore) (a failed shard found a failure or could not run: the merge says)"
sed "s/value: \"run-1\"/value: \"$run\"/" "$here/merge-job.yaml" | kubectl apply -f -
merged="$(wait_for kvtier-explore-merge)"
kubectl logs job/kvtier-explore-merge
code="$(kubectl get pods -l job-name=kvtier-explore-merge \
  -o jsonpath='{.items[0].status.containerStatuses[0].state.terminated.exitCode}')"
echo "explore.sh: merge $merged, exit ${code:-unknown}; the report is in /results/$run on the volume"
exit "${code:-1}"
