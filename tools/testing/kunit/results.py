#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Turn the JSON written by `kunit.py parse --json=FILE` (one file per suite)
# into the project's result lines, one per KUnit case, and hold them to the
# KUnit manifest (kunit/manifest):
#
#   PASS: kunit/<suite>.<case>
#   FAIL: kunit/<suite>.<case>: <why>
#   SKIP: kunit/<suite>.<case>: skipped
#
# A parameterised case (a case with sub-tests) gets one line: it passes only
# if every parameter passed; skipped parameters are reported, never passed.
#
# The manifest names every suite, every case of each suite and every
# parameter of each parameterised case that must run. A case that is listed
# and did not run (its suite missing, or the case or one of its parameters
# dropped from the module) fails, and so does one that ran and is not
# listed, or ran twice: a case cannot disappear or appear silently.
#
# Manifest format: "#" starts a comment line; a line with no indent names a
# suite, one tab a case of the suite above, two tabs a parameter (its KUnit
# description, which may contain blanks) of the case above.
#
# Usage: results.py --manifest FILE STAGE JSON...
# Exit status: 1 if any line is FAIL, the manifest is malformed or no case
# was found, else 0.

import argparse
import json
import sys


def read_manifest(path):
    """{suite: {case: [params] or None}}, in file order; raises ValueError."""
    suites = {}
    suite = case = None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            tabs = len(line) - len(line.lstrip("\t"))
            name = line[tabs:]
            if name != name.strip() or not name:
                raise ValueError(f"{path}:{n}: blanks around '{name}'")
            if tabs == 0:
                if name in suites:
                    raise ValueError(f"{path}:{n}: suite {name} twice")
                suite, case = name, None
                suites[suite] = {}
            elif tabs == 1 and suite is not None:
                if name in suites[suite]:
                    raise ValueError(f"{path}:{n}: case {suite}.{name} twice")
                case = name
                suites[suite][case] = None
            elif tabs == 2 and case is not None:
                params = suites[suite][case]
                if params is None:
                    params = suites[suite][case] = []
                if name in params:
                    raise ValueError(f"{path}:{n}: parameter '{name}' twice")
                params.append(name)
            else:
                raise ValueError(f"{path}:{n}: {tabs} tabs here")
    for suite, cases in suites.items():
        if not cases:
            raise ValueError(f"{path}: suite {suite} has no case")
    return suites


def walk_cases(suite):
    """Yield (case, [statuses], [params] or None) for every case of a suite."""
    for case in suite.get("test_cases", []):
        yield case["name"], [case["status"]], None
    for sub in suite.get("sub_groups", []):
        cases = sub.get("test_cases", [])
        statuses = [c["status"] for c in cases]
        params = [c["name"] for c in cases]
        for _, st, pa in walk_cases({"sub_groups": sub.get("sub_groups", [])}):
            statuses += st
            params += pa or []
        yield sub["name"], statuses, params


def verdict(statuses):
    """(line kind, why) of a case from its statuses."""
    failed = [s for s in statuses if s not in ("PASS", "SKIP")]
    if failed or not statuses:
        return "FAIL", ",".join(sorted(set(failed))) or "no result"
    if all(s == "SKIP" for s in statuses):
        return "SKIP", "skipped"
    return "PASS", ""


def param_problems(want, got):
    """Why a case's parameters are not the manifest's, or []."""
    why = []
    if want is None and got is not None:
        why.append("parameterised, the manifest lists no parameter")
    elif want is not None and got is None:
        why.append("not parameterised, the manifest lists parameters")
    elif want is not None:
        for p in want:
            if p not in got:
                why.append(f"parameter '{p}' did not run")
        for p in got:
            if p not in want:
                why.append(f"parameter '{p}' not in the manifest")
            elif got.count(p) > 1:
                why.append(f"parameter '{p}' ran {got.count(p)} times")
    return why


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("stage")
    ap.add_argument("json", nargs="*")
    args = ap.parse_args()
    stage = args.stage
    try:
        manifest = read_manifest(args.manifest)
    except (OSError, ValueError) as e:
        print(f"FAIL: {stage}/manifest: {e}")
        return 1

    ran = {}  # (suite, case) -> [(statuses, params)]
    order = []
    for path in args.json:
        with open(path, encoding="utf-8") as f:
            top = json.load(f)
        for suite in top.get("sub_groups", []):
            for case, statuses, params in walk_cases(suite):
                key = (suite["name"], case)
                if key not in ran:
                    ran[key] = []
                    order.append(key)
                ran[key].append((statuses, params))

    bad = False
    for key in order:
        suite, case = key
        full = f"{stage}/{suite}.{case}"
        runs = ran[key]
        statuses, params = runs[0]
        kind, why = verdict(statuses)
        problems = []
        if suite not in manifest:
            problems.append(f"suite {suite} not in the manifest")
        elif case not in manifest[suite]:
            problems.append("not in the manifest")
        else:
            problems += param_problems(manifest[suite][case], params)
        if len(runs) > 1:
            problems.append(f"ran {len(runs)} times")
        if problems:
            if kind == "FAIL":
                problems.insert(0, why)
            print(f"FAIL: {full}: " + "; ".join(problems))
            bad = True
        elif kind == "FAIL":
            print(f"FAIL: {full}: {why}")
            bad = True
        elif kind == "SKIP":
            print(f"SKIP: {full}: {why}")
        else:
            print(f"PASS: {full}")
            skipped = statuses.count("SKIP")
            if skipped:
                print(f"SKIP: {full}: {skipped} of {len(statuses)} parameters skipped")

    ran_suites = {s for s, _ in order}
    for suite, cases in manifest.items():
        for case in cases:
            if (suite, case) in ran:
                continue
            why = "did not run" if suite in ran_suites else f"did not run (no suite {suite})"
            print(f"FAIL: {stage}/{suite}.{case}: {why}")
            bad = True
    if not order:
        print(f"FAIL: {stage}/parse: no test case in the KTAP output")
        bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
