#!/usr/bin/env python3
"""The planted-bug run's bookkeeping (bench/planted/run.sh calls it; nothing else needs it).

  report.py surefire WORKTREE                       the suites' verdict from the surefire XML reports, as JSON
  report.py bug DIR NAME PATCH_SHA BASE STATUS SECS one bug's result from DIR (runs.txt, summaries, suites.json)
  report.py table STATE CATALOGUE BASE OUT SWARMS   every bug's result as OUT.md and OUT.json
"""
import glob
import json
import os
import sys
import xml.etree.ElementTree as ET

SUITE_MODULES = ("core", "sim", "property-tests")


def surefire(worktree):
    tests = failed = 0
    failing = []
    for module in SUITE_MODULES:
        for path in sorted(glob.glob(os.path.join(worktree, module, "target", "surefire-reports", "TEST-*.xml"))):
            root = ET.parse(path).getroot()
            tests += int(root.get("tests", 0))
            for case in root.iter("testcase"):
                bad = case.find("failure")
                if bad is None:
                    bad = case.find("error")
                if bad is None:
                    continue
                failed += 1
                cls = case.get("classname", "").rsplit(".", 1)[-1]
                message = (bad.get("message") or bad.get("type") or "").strip().splitlines()
                failing.append({"test": cls + "." + case.get("name", ""), "module": module,
                                "message": message[0][:300] if message else ""})
    return {"tests": tests, "failed": failed, "failing": failing}


def swarm_result(dir_, scenario, seeds, rc, secs):
    out = {"scenario": scenario, "seeds": int(seeds), "exit": int(rc), "seconds": int(secs)}
    summary = os.path.join(dir_, scenario + ".json")
    if os.path.exists(summary):
        with open(summary) as f:
            s = json.load(f)
        out["seedsRun"] = s.get("seedsRun")
        fails = s.get("failures") or []
        if fails:
            first = fails[0]
            out["seed"] = first.get("seed")
            out["invariant"] = first.get("invariant")
            out["event"] = first.get("event")
            out["message"] = (first.get("message") or "")[:300]
            out["reproduce"] = first.get("reproduce")
        out["interrupted"] = bool(s.get("interrupted"))
    rc = int(rc)
    if out.get("seed") is None and (rc in (124, 143) or out.get("interrupted")):
        # timeout(1) stopped it: explore keeps the summary of the seeds it finished; none failed
        out["verdict"] = "timeout"
    elif out.get("seed") is not None:
        out["verdict"] = "caught"
    elif rc == 0:
        out["verdict"] = "missed"
    elif rc == 4:
        out["verdict"] = "missed"  # every seed held; only the [coverage] requirement failed
        out["note"] = "coverage requirement failed"
    else:
        out["verdict"] = "error"
        log = os.path.join(dir_, scenario + ".log")
        if os.path.exists(log):
            with open(log, errors="replace") as f:
                lines = [l.strip() for l in f if l.strip()]
            out["message"] = (lines[-1] if lines else "")[:300]
    return out


def bug(dir_, name, sha, base, status, secs):
    result = {"bug": name, "patchSha": sha, "base": base, "status": status, "seconds": int(secs), "swarms": {}}
    runs = os.path.join(dir_, "runs.txt")
    if os.path.exists(runs):
        with open(runs) as f:
            for line in f:
                kind, scenario, seeds, rc, s = line.split()
                if kind == "swarm":
                    result["swarms"][scenario] = swarm_result(dir_, scenario, seeds, rc, s)
                else:
                    suites = {"exit": int(rc), "seconds": int(s)}
                    path = os.path.join(dir_, "suites.json")
                    if os.path.exists(path):
                        with open(path) as g:
                            suites.update(json.load(g))
                    if int(rc) == 124:
                        suites["verdict"] = "hang"
                    elif suites.get("failed"):
                        suites["verdict"] = "caught"
                    elif int(rc) == 0:
                        suites["verdict"] = "missed"
                    else:
                        suites["verdict"] = "error"
                    result["suites"] = suites
    json.dump(result, sys.stdout, indent=1)
    print()


def read_catalogue(path):
    rows = {}
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            rows[parts[0]] = {"rule": parts[1], "spec": parts[2], "equivalent": parts[3], "symptom": parts[4]}
    return rows


def cell(s):
    if s is None:
        return "not run"
    v = s["verdict"]
    if v == "caught":
        return "**%s** (inv. %s)" % (s["seed"], s.get("invariant") or "?")
    if v == "timeout":
        return "timeout (%s seeds ran clean)" % s.get("seedsRun")
    if v == "missed":
        if s.get("note"):
            return "missed (%s; exit 4: [coverage] gate failed)" % s["seeds"]
        return "missed (%s)" % s["seeds"]
    return v


def table(state, catalogue, base, out, swarms):
    cat = read_catalogue(catalogue)
    scenarios = [s.split(":")[0] for s in swarms.split()]
    results = []
    for path in sorted(glob.glob(os.path.join(state, "[0-9][0-9]-*.json"))):
        name = os.path.basename(path)[:-5]
        if name.startswith("00-"):
            continue
        with open(path) as f:
            r = json.load(f)
        r.update(cat.get(name, {}))
        results.append(r)
    total = sum(r.get("seconds", 0) for r in results)
    lines = ["| bug | rule | " + " | ".join(scenarios) + " | suites | s |",
             "|---|---|" + "---|" * len(scenarios) + "---|---|"]
    for r in results:
        suites = r.get("suites")
        sv = "not run" if suites is None else (
            "**caught** (%d: %s)" % (suites["failed"], ", ".join(sorted({x["test"].split(".")[0]
                                                                       for x in suites["failing"]})[:3]))
            if suites["verdict"] == "caught" else suites["verdict"])
        cells = [cell(r.get("swarms", {}).get(s)) for s in scenarios]
        if r.get("status") != "measured":
            cells = [r.get("status")] * len(scenarios)
            sv = r.get("status")
        lines.append("| %s | %s | %s | %s | %d |" % (r["bug"], r.get("rule", "?"), " | ".join(cells), sv,
                                                     r.get("seconds", 0)))
    body = "\n".join(lines)
    header = ("# Planted-bug detection on %s\n\nGenerated by `bench/planted/run.sh` (bench/planted/README.md). "
              "A swarm cell is the first failing seed and the invariant it broke, or `missed (N)` when none of its "
              "N seeds failed; suites: core, sim and property-tests unit and property tests.\n\n"
              "%d bugs measured, %d s in all.\n\n" % (base[:12], len(results), total))
    with open(out + ".md", "w") as f:
        f.write(header + body + "\n")
    with open(out + ".json", "w") as f:
        json.dump({"base": base, "swarms": swarms.split(), "bugs": results}, f, indent=1)
        f.write("\n")


def main(argv):
    if argv[1] == "surefire":
        json.dump(surefire(argv[2]), sys.stdout, indent=1)
        print()
    elif argv[1] == "bug":
        bug(*argv[2:8])
    elif argv[1] == "table":
        table(*argv[2:7])
    else:
        sys.exit("report.py: unknown command " + argv[1])


if __name__ == "__main__":
    main(sys.argv)
