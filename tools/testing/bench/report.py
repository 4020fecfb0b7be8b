#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report.py: the make bench table of one boot.

    report.py --mesh NAME --mesh-file RESOLVED.mesh --log SERIAL.log
              [--event-table include/arm_cmn_hnf/event_table.h]

Reads the guest's lines (tools/testing/bench/guest/bench.sh)::

    CMN-BENCH: <figure> <ours|armcmn> <value|n/a>
    CMN-BENCH-ROUND: <round> <figure> <ours|armcmn> <value|n/a>
    CMN-BENCH-INFO: <key> <value...>
    CMN-BENCH-NOTE: <text>

and prints one line per figure::

    bench <mesh> <figure> ours=<v> arm-cmn=<v> ratio=<ours/arm-cmn>

then the notes, each starting with "#". A figure measured in rounds shows
the median over the rounds (the lower middle one for an even count), and a
note gives each round's values and ratio. ratio is "-" when either side is
missing, arm-cmn's value is 0 or either is negative (a CPU time below the
idle baseline, that is noise).

arm-cmn's register accesses per read() are not measured (its MMIO cannot
be counted from outside); they come from the formula armcmn_read() below,
read from Debian's 6.12 drivers/perf/arm-cmn.c and evaluated on the mesh
file (the hardware facts), never on what either driver reports; so are its
accesses per open/close, enable/disable and rotation (armcmn_rotation()).
The line numbers are those of linux-source-6.12 6.12.117-1~deb12u1 (the
same in 6.12.118-1~deb12u1, whose kernel/events/core.c lines are cited).

Only the Python standard library is used.
"""

import argparse
import re
import sys

# Sources of the arm-cmn formula, printed under the table.
ARMCMN_CITES = [
    "arm-cmn per read() of an HN-F event (Debian 6.12.117 drivers/perf/arm-cmn.c):",
    "  reads = R + C, writes = C; a group read of k events: the k sums, plus",
    "  2 writes of DTC0's PMCR (start_txn/commit_txn, lines 1429-1442 and",
    "  1998-2012; kernel/events/core.c:4675 starts a READ transaction).",
    "  R: one readq of por_dtm_pmevcnt per run of consecutive HN-Fs (logical-id",
    "     order, arm_cmn_node_cmp lines 2154-2163) on one XP: arm_cmn_read_dtm,",
    "     lines 1454-1472, called from arm_cmn_event_read, lines 1507-1531.",
    "  C: one readl + one writel (reset to 0x80000000) per claimed DTC global",
    "     counter: arm_cmn_read_counter, lines 1483-1490, loop at 1525-1528.",
    "     Claimed (event_init, lines 1822-1836): every DTC for an HN-F on an XP",
    "     without a DTC (CMN-600 XPs have dtc = -1, lines 2367-2368), DTC i for",
    "     an HN-F on the XP of DTC i when there are several (lines 2179-2182);",
    "     event_add (lines 1897-1906) gives DTC j > 0 DTC0's index, so none is",
    "     claimed when DTC0 is not.",
    "arm-cmn per open+close and per enable+disable of one such event (H HN-Fs):",
    "  reads = 2R + C, writes = 4 + 4H + 2C. add (lines 1875-1976): a writeq",
    "  of por_dtm_pmu_config per HN-F, init_counter (1492-1505) a writel per",
    "  claimed counter and R reads, start (1573-1605) a write of",
    "  pmu_event_sel per HN-F; del (1978-1990): stop (1607-1635) the H",
    "  pmu_event_sel writes and a read (R + C reads, C writes), event_clear",
    "  (1846-1873) a pmu_config write per HN-F. Around each, one write of",
    "  DTC0's PMCR at perf_pmu_disable and one at perf_pmu_enable: ctx_resched",
    "  (kernel/events/core.c:2811-2860) on open and enable, event_sched_out",
    "  (2326-2370) on close and disable; group_sched_in's transaction",
    "  (2685) writes nothing more, the PMU being disabled already.",
    "arm-cmn per rotation of 8 such events (perf_rotate_context, core.c",
    "  4417-4474): 2 PMCR writes, del of the k running events and add of k",
    "  (k = min over XPs of 4 // HN-Fs on the XP), then one add that fails",
    "  (merge_sched_in, 3967, tries no further): it writes pmu_config for",
    "  each HN-F that found a free DTM counter before the first that did",
    "  not, and event_clear writes it back. reads = k(2R + C), writes =",
    "  2 + k(4H + 2C) + 2s, s those HN-Fs.",
]


def parse_mesh(path):
    """The first mesh of a mesh file: dims, HN-Fs and DTCs."""
    dims = None
    hnfs = []
    dtcs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            tok = line.split("#", 1)[0].split()
            if not tok:
                continue
            if tok[0] == "mesh":
                if dims is not None:
                    break
                opts = dict(t.split("=", 1) for t in tok[1:] if "=" in t)
                dims = (int(opts["x"], 0), int(opts["y"], 0))
            elif tok[0] == "node" and dims is not None:
                typ = tok[1]
                x, y, p, d = (int(v, 0) for v in tok[2:6])
                opts = dict(t.split("=", 1) for t in tok[6:] if "=" in t)
                node = {"x": x, "y": y, "p": p, "d": d,
                        "lid": int(opts["lid"], 0) if "lid" in opts else None}
                if typ == "hn-f":
                    hnfs.append(node)
                elif typ == "dtc":
                    dtcs.append(node)
    if dims is None:
        raise SystemExit(f"{path}: no mesh line")
    # logical ids default to the order of the node lines per type
    for lst in (hnfs, dtcs):
        for i, n in enumerate(lst):
            if n["lid"] is None:
                n["lid"] = i
    # CMN-600 node id: X/Y fields of 2 bits up to 4x4, else 3 bits
    b = 2 if dims[0] <= 4 and dims[1] <= 4 else 3
    for n in hnfs + dtcs:
        n["id"] = (n["x"] << (3 + b)) | (n["y"] << 3) | (n["p"] << 2) | n["d"]
    hnfs.sort(key=lambda n: n["lid"])
    dtcs.sort(key=lambda n: n["lid"])
    return dims, hnfs, dtcs


def armcmn_read(hnfs, dtcs):
    """(reads, writes) of one arm-cmn read() of an event on these HN-Fs."""
    runs = 0
    prev = None
    for n in hnfs:
        xp = (n["x"], n["y"])
        if xp != prev:
            runs += 1
        prev = xp
    dtc_of_xp = {}
    if len(dtcs) > 1:
        dtc_of_xp = {(t["x"], t["y"]): i for i, t in enumerate(dtcs)}
    claimed = set()
    for n in hnfs:
        i = dtc_of_xp.get((n["x"], n["y"]))
        if i is None:
            claimed |= set(range(len(dtcs)))
        else:
            claimed.add(i)
    c = len(claimed) if 0 in claimed else 0
    return runs + c, c


def armcmn_rotation(hnfs, dtcs):
    """(reads, writes) of one arm-cmn rotation of 8 events on these HN-Fs."""
    rd, c = armcmn_read(hnfs, dtcs)
    r, h = rd - c, len(hnfs)
    per_xp = {}
    for n in hnfs:
        per_xp[(n["x"], n["y"])] = per_xp.get((n["x"], n["y"]), 0) + 1
    k = min([8] + [4 // v for v in per_xp.values()])
    used = {xp: k * v for xp, v in per_xp.items()}
    s = 0
    for n in hnfs:
        xp = (n["x"], n["y"])
        if used[xp] == 4:
            break
        used[xp] += 1
        s += 1
    return k * (2 * r + c), 2 + k * (4 * h + 2 * c) + 2 * s


def event_names(path):
    """eventid -> first alias name without occupancy, for display only."""
    names = {}
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return names
    for m in re.finditer(r"CMN_HNF_EVENT\((\w+),\s*(0x[0-9a-fA-F]+),\s*"
                         r"CMN_HNF_NO_OCCUP", text):
        names.setdefault(int(m.group(2), 16), m.group(1))
    return names


def fmt_ratio(a, b):
    try:
        x, y = float(a), float(b)
    except ValueError:
        return "-"
    if y == 0 or x < 0 or y < 0:
        # a negative figure is a CPU time below the idle baseline: noise
        return "-"
    r = x / y
    return f"{r:.3f}" if abs(r) < 10 else f"{r:.1f}"


def is_num(v):
    try:
        float(v)
    except ValueError:
        return False
    return True


def median_str(vals):
    """The median of the numeric strings in vals (lower middle), or n/a."""
    nums = [v for v in vals if is_num(v)]
    if not nums:
        return "n/a"
    return sorted(nums, key=float)[(len(nums) - 1) // 2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mesh", required=True)
    ap.add_argument("--mesh-file", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--event-table", default="")
    ap.add_argument("--cite", action="store_true",
                    help="print where arm-cmn's access formula comes from")
    a = ap.parse_args()

    figs = {}
    order = []
    rounds = {}
    info = {}
    notes = []
    tests = []
    with open(a.log, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.search(r"CMN-BENCH: (\S+) (ours|armcmn) (\S+)\s*$", line)
            if m:
                fig, drv, val = m.groups()
                if fig not in figs:
                    figs[fig] = {}
                    order.append(fig)
                figs[fig][drv] = val
                continue
            m = re.search(r"CMN-BENCH-ROUND: (\d+) (\S+) (ours|armcmn) "
                          r"(\S+)\s*$", line)
            if m:
                rnd, fig, drv, val = m.groups()
                if fig not in figs:
                    figs[fig] = {}
                    order.append(fig)
                rounds.setdefault(fig, {}).setdefault(drv, {})[int(rnd)] = val
                continue
            m = re.search(r"CMN-BENCH-INFO: (\S+) ?(.*)$", line)
            if m:
                info[m.group(1)] = m.group(2)
                continue
            m = re.search(r"CMN-BENCH-NOTE: (.*)$", line)
            if m:
                notes.append(m.group(1))
                continue
            m = re.search(r"CMN-TEST: (FAIL .*)$", line)
            if m:
                tests.append(m.group(1))

    for fig, per in rounds.items():
        for drv, vals in per.items():
            figs[fig][drv] = median_str(list(vals.values()))

    dims, hnfs, dtcs = parse_mesh(a.mesh_file)
    # The formula is 6.12's arm-cmn.c; another kernel's arm-cmn gets n/a
    kernel = info.get("kernel", "?")
    formula = kernel.startswith("6.12.")
    if not formula:
        notes.append(f"mmio arm-cmn: n/a, the formula is read from 6.12's "
                     f"arm-cmn.c only (this boot: {kernel})")
    shapes = {"read-agg": [hnfs]}
    node = info.get("bynodeid")
    if node:
        sel = [n for n in hnfs if n["id"] == int(node, 0)]
        if sel:
            shapes["read-node"] = [sel]
    shapes["read-group4"] = [hnfs] * 4
    for shape, events in shapes.items():
        rd = sum(armcmn_read(h, dtcs)[0] for h in events)
        wr = sum(armcmn_read(h, dtcs)[1] for h in events)
        if len(events) > 1:
            wr += 2
        for kind, v in (("rd", rd), ("wr", wr)):
            fig = f"mmio-{kind}-{shape}"
            if fig not in figs:
                figs[fig] = {}
                order.append(fig)
            figs[fig]["armcmn"] = str(v) if formula else "n/a"

    rd, c = armcmn_read(hnfs, dtcs)
    r, h = rd - c, len(hnfs)
    for shape, (vr, vw) in (("open-close", (2 * r + c, 4 + 4 * h + 2 * c)),
                            ("enable-disable", (2 * r + c, 4 + 4 * h + 2 * c)),
                            ("rotation", armcmn_rotation(hnfs, dtcs))):
        for kind, v in (("rd", vr), ("wr", vw)):
            fig = f"mmio-{kind}-{shape}"
            if fig not in figs:
                figs[fig] = {}
                order.append(fig)
            figs[fig]["armcmn"] = str(v) if formula else "n/a"

    # ours: the hardware minimum of register reads per read, from the mesh
    # file alone (one per XP holding a counter of the event, one per DTC
    # counter register used), against the counting build's figure
    xps = len({(n["x"], n["y"]) for n in hnfs})
    minimum = {
        "read-agg": (xps + len(dtcs),
                     f"{xps} XPs with an HN-F + {len(dtcs)} DTCs"),
        "read-node": (1, "the XP of the HN-F, a DTM-local counter"),
        "read-group4": (xps + 2 * len(dtcs),
                        f"{xps} XPs with an HN-F + {len(dtcs)} DTCs x 2 "
                        f"counter pair registers (4 global counters)"),
    }
    for shape, (want, why) in minimum.items():
        got = figs.get(f"mmio-rd-{shape}", {}).get("ours", "n/a")
        if not is_num(got):
            verdict = "not measured"
        elif float(got) == want:
            verdict = "equal"
        else:
            verdict = "ABOVE" if float(got) > want else "BELOW"
        notes.append(f"mmio-rd-{shape} ours: hardware minimum {want} "
                     f"({why}), measured {got}: {verdict}")

    names = event_names(a.event_table) if a.event_table else {}
    for fig in order:
        v = figs[fig]
        ours = v.get("ours", "-")
        arm = v.get("armcmn", "-")
        shown = fig
        m = re.match(r"mux-err-pct/(\d+)$", fig)
        if m and int(m.group(1)) in names:
            shown = f"mux-err-pct/{names[int(m.group(1))]}"
        print(f"bench {a.mesh} {shown} ours={ours} arm-cmn={arm} "
              f"ratio={fmt_ratio(ours, arm)}")
    print(f"# {a.mesh}: {dims[0]}x{dims[1]} mesh, {len(hnfs)} HN-Fs, "
          f"{len(dtcs)} DTCs; kernel {info.get('kernel', '?')}; "
          f"bynodeid events on HN-F {node or '?'}")
    keys = ["n", "runs", "rounds", "secs", "stat-secs", "mux-ms", "rot-ms",
            "duty-terms", "stat-events", "stat-mux-interval-ms-armcmn",
            "stat-mux-interval-ms-ours", "duty-events-ours",
            "duty-events-armcmn"]
    keys += sorted(k for k in info if k.startswith("idle-ms-per-s"))
    print("# " + a.mesh + ": " + ", ".join(f"{k}={info[k]}" for k in keys
                                           if k in info))
    for fig in order:
        if fig not in rounds:
            continue
        per = rounds[fig]
        nums = sorted(set(per.get("ours", {})) | set(per.get("armcmn", {})))
        ours = [per.get("ours", {}).get(r, "-") for r in nums]
        arm = [per.get("armcmn", {}).get(r, "-") for r in nums]
        rat = [fmt_ratio(o, x) for o, x in zip(ours, arm)]
        print(f"# {a.mesh}: rounds of {fig}: ours {' '.join(ours)}; "
              f"arm-cmn {' '.join(arm)}; ratio {' '.join(rat)}")
    for n in notes:
        print(f"# {a.mesh}: {n}")
    for t in tests:
        print(f"# {a.mesh}: guest: {t}")
    if a.cite:
        for line in ARMCMN_CITES:
            print(f"# {line}")
    return 0 if figs and not tests else 1


if __name__ == "__main__":
    sys.exit(main())
