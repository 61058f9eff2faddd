#!/usr/bin/env bash
# The planted-bug detection run (issue #36 item 3): every patch of bench/planted/ applied in turn to a scratch copy
# of this checkout's commit, each bundled swarm run on it to the first failing seed (or its seed budget), and the unit
# and property suites of core, sim and property-tests run on it. Writes a Markdown table and JSON (bench/planted/
# README.md describes the catalogue, docs/testing.md the run).
#
#   bench/planted/run.sh [--only NN[,NN...]] [--fresh] [--no-suites] [--no-swarms] [--threads N] [--out PREFIX]
#                        [--base REV]
#
#   --only NN,...  run only these patches (by number); the report still holds every patch already measured
#   --fresh        measure again what was already measured for this commit (default: resume: a swarm or suite
#                  already measured for a patch is not run again, so adding a swarm later runs only that swarm)
#   --no-suites    skip the unit and property suites;  --no-swarms  skip the swarms
#   --threads N    explore's worker threads (default 2)
#   --out PREFIX   the report's path without extension (default results/notes/<UTC date>-planted-detection)
#   --base REV     the commit to plant the bugs in (default HEAD of this checkout)
# Environment: KVTIER_PLANTED_DIR (default /tmp/kvtier-planted): the scratch worktree and the per-bug state live
#   there, one folder per commit, so a run that stops resumes where it stopped; KVTIER_PLANTED_SWARMS (default
#   "pr90-evict-small:200 rare-paths:200 prefix-sharing-zipf:20 mooncake-swarm:200"): scenario:seeds pairs;
#   KVTIER_PLANTED_TIMEOUT (default 900): seconds one swarm or suite may take before it counts as a hang;
#   KVTIER_PLANTED_WT: another scratch worktree (built on first use), so that a second run.sh (say --no-suites with
#   other swarms) can share the state of a first one; the two never run the same step of the same bug.
set -euo pipefail

die() { echo "planted: $*" >&2; exit 2; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/bench/planted"
only=""
fresh=false
suites=true
swarms=true
threads=2
out=""
base_rev=HEAD
while [[ $# -gt 0 ]]; do
  case "$1" in
    --only) [[ $# -ge 2 ]] || die "--only needs a list of patch numbers"; only="$2"; shift 2 ;;
    --fresh) fresh=true; shift ;;
    --no-suites) suites=false; shift ;;
    --no-swarms) swarms=false; shift ;;
    --threads) [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || die "--threads needs a number"; threads="$2"; shift 2 ;;
    --out) [[ $# -ge 2 ]] || die "--out needs a path prefix"; out="$2"; shift 2 ;;
    --base) [[ $# -ge 2 ]] || die "--base needs a commit"; base_rev="$2"; shift 2 ;;
    *) die "unknown argument '$1' (see the head of $0)" ;;
  esac
done
command -v python3 >/dev/null || die "python3 is needed to read the summaries and write the report"
git -C "$root" rev-parse HEAD >/dev/null 2>&1 || die "$root is not a git checkout"

base="$(git -C "$root" rev-parse --verify "$base_rev^{commit}" 2>/dev/null)" || die "no commit '$base_rev' in $root"
short="${base:0:12}"
work="${KVTIER_PLANTED_DIR:-/tmp/kvtier-planted}"
wt="${KVTIER_PLANTED_WT:-$work/wt-$short}"
wtk="$(basename "$wt")"
state="$work/state-$short"
timeout_s="${KVTIER_PLANTED_TIMEOUT:-900}"
read -r -a swarm_list <<<"${KVTIER_PLANTED_SWARMS:-pr90-evict-small:200 rare-paths:200 prefix-sharing-zipf:20 mooncake-swarm:200}"
[[ -n "$out" ]] || out="$root/results/notes/$(date -u +%F)-planted-detection"
mkdir -p "$state" "$(dirname "$out")"
log() { echo "planted: $(date -u +%T) $*" >&2; }

# The JDK the launcher would pick (for javac on the patched files).
jdk=""
for c in "${JAVA_HOME:-}" /usr/lib/jvm/*25* /usr/lib/jvm/*-2[5-9]-*; do
  [[ -n "$c" && -x "$c/bin/javac" ]] && { jdk="$c"; break; }
done
[[ -n "$jdk" ]] || die "no JDK 25 found under /usr/lib/jvm (the launcher's rule); set JAVA_HOME"

# ---------------------------------------------------------------- the scratch worktree, built once per commit
if [[ ! -d "$wt" ]]; then
  log "scratch worktree $wt at $short"
  git -C "$root" worktree add --detach "$wt" "$base" >/dev/null 2>&1 || die "cannot add a worktree at $wt"
fi
[[ "$(git -C "$wt" rev-parse HEAD)" == "$base" ]] || die "$wt is not at $short; remove it (git worktree remove --force $wt)"
git -C "$wt" checkout -q -f -- . && git -C "$wt" clean -fdq -- core sim
modules=(core sim)
jar_of() { echo "$wt/$1/target/kvtier-$1-0.1.0-SNAPSHOT.jar"; }
if [[ ! -f "$state/$wtk.built" ]]; then
  log "building the scratch worktree (./kvtier build)"
  (cd "$wt" && nice -n 10 ./kvtier build) || die "the scratch worktree does not build"
  rm -rf "$state/$wtk.pristine"
  for m in "${modules[@]}"; do
    mkdir -p "$state/$wtk.pristine/$m"
    cp -a "$wt/$m/target/classes" "$state/$wtk.pristine/$m/classes"
    cp -a "$(jar_of "$m")" "$state/$wtk.pristine/$m/module.jar"
  done
  touch "$state/$wtk.built"
fi
stamp="$wt/cli/target/classpath.txt"
[[ -f "$stamp" ]] || die "$stamp is missing: remove $state/$wtk.built and run again"

# Puts the scratch worktree back to the commit's sources and classes.
restore() {
  git -C "$wt" checkout -q -f -- core sim && git -C "$wt" clean -fdq -- core sim
  local m f
  for m in "${modules[@]}"; do
    if [[ -f "$state/$wtk.touched-$m" ]]; then
      while IFS= read -r f; do
        if [[ -f "$state/$wtk.pristine/$m/classes/$f" ]]; then
          cp -p "$state/$wtk.pristine/$m/classes/$f" "$wt/$m/target/classes/$f"
        else
          rm -f "$wt/$m/target/classes/$f"
        fi
      done <"$state/$wtk.touched-$m"
      rm -f "$state/$wtk.touched-$m"
    fi
    cmp -s "$state/$wtk.pristine/$m/module.jar" "$(jar_of "$m")" || cp -p "$state/$wtk.pristine/$m/module.jar" "$(jar_of "$m")"
  done
  touch "$stamp"
}

# Compiles the Java files a patch touches into their module's classes and jar (javac, no lint: the patch is a bug,
# not a contribution). Returns 1 when they do not compile.
compile_patch() {
  local patch="$1" m files tmp cp
  for m in "${modules[@]}"; do
    mapfile -t files < <(git -C "$wt" apply --numstat "$patch" | awk '{print $3}' | grep "^$m/src/main/java/.*\.java$" || true)
    [[ ${#files[@]} -gt 0 ]] || continue
    tmp="$(mktemp -d)"
    cp="$wt/$m/target/classes:$(cat "$stamp")"
    if ! (cd "$wt" && "$jdk/bin/javac" -nowarn -proc:none --release 25 -d "$tmp" -cp "$cp" "${files[@]}") \
        >"$state/$wtk.javac.log" 2>&1; then
      rm -rf "$tmp"
      return 1
    fi
    (cd "$tmp" && find . -name '*.class' | sed 's|^\./||') >"$state/$wtk.touched-$m"
    cp -a "$tmp/." "$wt/$m/target/classes/"
    "$jdk/bin/jar" uf "$(jar_of "$m")" -C "$tmp" .
    rm -rf "$tmp"
  done
  touch "$stamp" # the launcher rebuilds when sources are newer than its stamp: these classes are the build
}

# One swarm on the patched copy: writes $dir/<scenario>.json (explore's summary) and .log; echoes exit code and seconds.
run_swarm() {
  local dir="$1" scenario="$2" seeds="$3" started rc
  started=$SECONDS
  set +e
  (cd "$wt" && KVTIER_AOT=off timeout "$timeout_s" nice -n 10 ./kvtier explore "$scenario" --seeds "$seeds" \
    --threads "$threads" --summary "$dir/$scenario.json" --journals "$dir/journals") >"$dir/$scenario.log" 2>&1
  rc=$?
  set -e
  echo "$rc $((SECONDS - started))"
}

run_suites() {
  local dir="$1" started rc
  started=$SECONDS
  rm -rf "$wt"/{core,sim,property-tests}/target/surefire-reports
  set +e
  (cd "$wt" && timeout "$timeout_s" nice -n 10 ./kvtier test -o -pl core,sim,property-tests -am \
    -Dmaven.main.skip=true -Dcheckstyle.skip=true -Dspotless.check.skip=true -Djacoco.skip=true \
    '-Dtest=dev/kvtier/core/**/*,dev/kvtier/sim/**/*,dev/kvtier/property/**/*' -Dsurefire.failIfNoSpecifiedTests=false \
    -Dmaven.test.failure.ignore=true) >"$dir/suites.log" 2>&1
  rc=$?
  set -e
  python3 "$here/report.py" surefire "$wt" >"$dir/suites.json"
  echo "$rc $((SECONDS - started))"
}

done_step() { grep -q "^$2 $3 " "$1/runs.txt" 2>/dev/null; } # dir kind scenario: measured already?

# The swarms and suites of one patched (or the unpatched) copy not measured yet in $1/runs.txt.
run_steps() {
  local dir="$1" name="$2" spec sc seeds rc secs
  if [[ "$swarms" == true ]]; then
    for spec in "${swarm_list[@]}"; do
      sc="${spec%%:*}"; seeds="${spec##*:}"
      done_step "$dir" swarm "$sc" && continue
      read -r rc secs < <(run_swarm "$dir" "$sc" "$seeds")
      echo "swarm $sc $seeds $rc $secs" >>"$dir/runs.txt"
      log "$name: $sc exit $rc in ${secs}s"
      if [[ "$name" == 00-baseline && "$rc" != 0 ]]; then
        die "the unpatched commit fails $sc (exit $rc, $dir/$sc.log): fix that first"
      fi
    done
  fi
  if [[ "$suites" == true && "$name" != 00-baseline ]] && ! done_step "$dir" suites -; then
    read -r rc secs < <(run_suites "$dir")
    echo "suites - - $rc $secs" >>"$dir/runs.txt"
    log "$name: suites exit $rc in ${secs}s"
  fi
}

measure() { # one patch: $1 the patch file
  local patch="$1" name sum dir result started
  name="$(basename "$patch" .patch)"
  sum="$(sha256sum "$patch" | cut -c1-16)"
  result="$state/$name.json"
  dir="$state/$name"
  if [[ "$fresh" == true || "$(cat "$dir/patch.sha" 2>/dev/null)" != "$sum" ]]; then
    rm -rf "$dir" && mkdir -p "$dir" && : >"$dir/runs.txt" && echo 0 >"$dir/seconds"
  fi
  started=$SECONDS
  restore
  if ! git -C "$wt" apply "$patch" 2>"$dir/apply.log"; then
    log "$name: does not apply to $short"
    python3 "$here/report.py" bug "$dir" "$name" "$sum" "$base" not-applied 0 >"$result"
    return 0
  fi
  if ! compile_patch "$patch"; then
    cp "$state/$wtk.javac.log" "$dir/javac.log"
    log "$name: does not compile (see $dir/javac.log)"
    restore
    python3 "$here/report.py" bug "$dir" "$name" "$sum" "$base" not-compiled 0 >"$result"
    return 0
  fi
  echo "$sum" >"$dir/patch.sha"
  run_steps "$dir" "$name"
  restore
  echo $(( $(cat "$dir/seconds") + SECONDS - started )) >"$dir/seconds"
  python3 "$here/report.py" bug "$dir" "$name" "$sum" "$base" measured "$(cat "$dir/seconds")" >"$result"
}

mapfile -t patches < <(find "$here" -maxdepth 1 -name '[0-9][0-9]-*.patch' | sort)
[[ ${#patches[@]} -gt 0 ]] || die "no patches in $here"
log "$(date -u +%F) commit $short, ${#patches[@]} patches, swarms: ${swarm_list[*]}"
# The unpatched commit first: a swarm that fails there would count every bug as caught.
[[ "$fresh" == true ]] && rm -rf "$state/00-baseline"
mkdir -p "$state/00-baseline" && touch "$state/00-baseline/runs.txt"
restore
run_steps "$state/00-baseline" 00-baseline
python3 "$here/report.py" bug "$state/00-baseline" 00-baseline - "$base" measured 0 >"$state/00-baseline.json"
for p in "${patches[@]}"; do
  n="$(basename "$p" | cut -c1-2)"
  if [[ -n "$only" && ",$only," != *",$n,"* && ",$only," != *",$((10#$n)),"* ]]; then
    continue
  fi
  measure "$p"
done
restore
python3 "$here/report.py" table "$state" "$here/catalogue.tsv" "$base" "$out" "${swarm_list[*]}"
log "wrote $out.md and $out.json"
