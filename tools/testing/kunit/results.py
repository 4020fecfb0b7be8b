#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Turn the JSON written by `kunit.py parse --json=FILE` into the project's
# result lines, one per KUnit case:
#
#   PASS: kunit/<suite>.<case>
#   FAIL: kunit/<suite>.<case>: <status>
#   SKIP: kunit/<suite>.<case>: skipped
#
# A parameterised case (a case with sub-tests) gets one line: it passes only
# if every parameter passed; skipped parameters are reported, never passed.
# Exit status: 1 if any line is FAIL or no case was found, else 0.

import json
import sys


def walk_cases(group):
    """Yield (name, [statuses]) for every leaf case or parameterised case."""
    for case in group.get("test_cases", []):
        yield case["name"], [case["status"]]
    for sub in group.get("sub_groups", []):
        statuses = [c["status"] for c in sub.get("test_cases", [])]
        for _, st in walk_cases({"sub_groups": sub.get("sub_groups", [])}):
            statuses += st
        yield sub["name"], statuses


def main():
    path, stage = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        top = json.load(f)
    bad = False
    count = 0
    suites = top.get("sub_groups", [])
    for suite in suites:
        for name, statuses in walk_cases(suite):
            count += 1
            full = f"{stage}/{suite['name']}.{name}"
            failed = [s for s in statuses if s not in ("PASS", "SKIP")]
            if failed or not statuses:
                why = ",".join(sorted(set(failed))) or "no result"
                print(f"FAIL: {full}: {why}")
                bad = True
            elif all(s == "SKIP" for s in statuses):
                print(f"SKIP: {full}: skipped")
            elif "SKIP" in statuses:
                n = statuses.count("SKIP")
                print(f"PASS: {full}")
                print(f"SKIP: {full}: {n} of {len(statuses)} parameters skipped")
            else:
                print(f"PASS: {full}")
    if count == 0:
        print(f"FAIL: {stage}/parse: no test case in the KTAP output")
        bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
