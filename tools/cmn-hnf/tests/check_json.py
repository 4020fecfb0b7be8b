#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Shape checks for cmn-hnf's JSON outputs, called by the unit tests:
#   check_json.py <kind> <file> [args]
# Prints one line saying what is wrong and exits 1, or exits 0.
#
# The telemetry keys are those of Arm's telemetry specification for
# Neoverse N1 (the seed document the export follows): every key present
# there on the root, document, product_configuration, events, metrics,
# groups and methodologies objects must be present here.

import json
import re
import sys

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Bad(Exception):
    pass


def need(obj, keys, where):
    if not isinstance(obj, dict):
        raise Bad(f"{where}: not an object")
    missing = [k for k in keys if k not in obj]
    if missing:
        raise Bad(f"{where}: missing {', '.join(missing)}")


def typed(obj, key, typ, where):
    if not isinstance(obj[key], typ):
        raise Bad(f"{where}.{key}: not {typ.__name__}")


def telemetry(doc, _args):
    need(doc, ["$schema", "document", "product_configuration", "events",
               "metrics", "groups", "methodologies"], "root")
    need(doc["document"], ["timestamp", "copyright", "confidential",
                           "quality", "license", "description", "sha1"],
         "document")
    if not re.fullmatch(r"[0-9a-f]{40}", doc["document"]["sha1"]):
        raise Bad("document.sha1: not 40 hex digits")
    need(doc["product_configuration"],
         ["product_name", "part_num", "major_revision", "minor_revision",
          "implementer", "architecture", "pmu_architecture", "num_slots",
          "num_bus_slots"], "product_configuration")
    events = doc["events"]
    if not events:
        raise Bad("events: empty")
    for name, ev in events.items():
        w = f"events.{name}"
        need(ev, ["title", "description", "accesses",
                  "architecture_defined", "product_defined", "eventid",
                  "occupid", "perf_event"], w)
        # No "code": a CPU telemetry loader must reject the file rather
        # than count core events with HN-F numbers.
        if "code" in ev:
            raise Bad(f"{w}: has a core event 'code'")
        if ev["eventid"] is not None and not 1 <= ev["eventid"] <= 0x1f:
            raise Bad(f"{w}.eventid: {ev['eventid']!r}")
        if not re.fullmatch(r"arm_cmn_hnf/[^/]+/|duration_time",
                            ev["perf_event"]):
            raise Bad(f"{w}.perf_event: {ev['perf_event']!r}")
        typed(ev, "accesses", list, w)
        typed(ev, "architecture_defined", bool, w)
        typed(ev, "product_defined", bool, w)
    metrics = doc["metrics"]
    if not metrics:
        raise Bad("metrics: empty")
    for name, m in metrics.items():
        w = f"metrics.{name}"
        need(m, ["title", "formula", "description", "units", "events",
                 "sample_events"], w)
        typed(m, "events", list, w)
        typed(m, "sample_events", list, w)
        used = set(NAME.findall(m["formula"]))
        for e in used:
            if e not in events:
                raise Bad(f"{w}.formula: {e} is not an event")
        if used != set(m["events"]):
            raise Bad(f"{w}.events {m['events']} differ from the formula's {sorted(used)}")
    need(doc["groups"], ["function", "metrics"], "groups")
    for name, g in doc["groups"]["function"].items():
        w = f"groups.function.{name}"
        need(g, ["title", "description", "events"], w)
        for e in g["events"]:
            if e not in events:
                raise Bad(f"{w}: {e} is not an event")
    for name, g in doc["groups"]["metrics"].items():
        w = f"groups.metrics.{name}"
        need(g, ["title", "description", "metrics"], w)
        if not g["metrics"]:
            raise Bad(f"{w}: empty")
        for m in g["metrics"]:
            if m not in metrics:
                raise Bad(f"{w}: {m} is not a metric")
    need(doc["methodologies"], ["topdown_methodology"], "methodologies")
    td = doc["methodologies"]["topdown_methodology"]
    need(td, ["title", "description", "metric_grouping", "decision_tree"],
         "topdown_methodology")
    mgroups = doc["groups"]["metrics"]
    for stage, groups in td["metric_grouping"].items():
        for g in groups:
            if g not in mgroups:
                raise Bad(f"metric_grouping.{stage}: {g} is not a group")
    dt = td["decision_tree"]
    need(dt, ["root_nodes", "metrics"], "decision_tree")
    if not dt["root_nodes"]:
        raise Bad("decision_tree.root_nodes: empty")
    for r in dt["root_nodes"]:
        if r not in metrics:
            raise Bad(f"decision_tree.root_nodes: {r} is not a metric")
    for node in dt["metrics"]:
        need(node, ["name", "group", "next_items", "sample_events"],
             "decision_tree.metrics[]")
        if node["name"] not in metrics:
            raise Bad(f"decision_tree: {node['name']} is not a metric")
        for n in node["next_items"]:
            if n not in mgroups:
                raise Bad(f"decision_tree.{node['name']}: {n} is not a group")


def perf_json(doc, args):
    known = set(args)
    if not isinstance(doc, list) or not doc:
        raise Bad("not a non-empty list")
    for m in doc:
        need(m, ["MetricName", "MetricExpr", "BriefDescription",
                 "MetricGroup", "ScaleUnit", "Unit", "Compat"], "metric")
        if not re.fullmatch(r"[0-9.]+\S+", m["ScaleUnit"]):
            raise Bad(f"{m['MetricName']}: ScaleUnit {m['ScaleUnit']!r}")
        if not m["MetricName"].startswith("cmn_hnf_"):
            raise Bad(f"{m['MetricName']}: not cmn_hnf_<metric>")
        for k in ("MetricExpr", "MetricThreshold"):
            for e in NAME.findall(m.get(k, "")):
                if e not in known:
                    raise Bad(f"{m['MetricName']}: {k}: {e} is not an event alias")


def list_json(doc, args):
    need(doc, ["events", "metric_groups", "metrics"], "root")
    if len(doc["events"]) != int(args[0]):
        raise Bad(f"{len(doc['events'])} events, expected {args[0]}")
    if len(doc["metrics"]) != int(args[1]):
        raise Bad(f"{len(doc['metrics'])} metrics, expected {args[1]}")
    for e in doc["events"]:
        need(e, ["name", "eventid", "occupid", "encoding", "description",
                 "synonyms", "not_offered_by", "perf"], "event")
        for k in ("synonyms", "not_offered_by"):
            if not isinstance(e[k], list):
                raise Bad(f"event {e['name']}: {k} is not a list")
        if e["perf"] != f"arm_cmn_hnf/{e['name']}/":
            raise Bad(f"event {e['name']}: perf {e['perf']!r}")
    for m in doc["metrics"]:
        for k in ("next", "events"):
            if not isinstance(m[k], list):
                raise Bad(f"metric {m['name']}: {k} is not a list")
    syn = {e["name"]: e["synonyms"] for e in doc["events"]}
    if "slc_miss" not in syn.get("cache_miss", []):
        raise Bad(f"cache_miss synonyms {syn.get('cache_miss')}")


def topo_json(doc, args):
    need(doc, ["pmus"], "root")
    got = [(p["name"], len(p["topology"]["hnfs"]) if p["topology"] else -1)
           for p in doc["pmus"]]
    want = [(args[i], int(args[i + 1])) for i in range(0, len(args), 2)]
    if got != want:
        raise Bad(f"pmus/hnfs {got}, expected {want}")


def stat_json(doc, args):
    # args: metric=value pairs for unit "pmu[:hnf]", e.g.
    # arm_cmn_hnf_0:slc_miss_rate=25
    for line in doc:
        need(line, ["time", "interval_s", "units"], "interval")
        units = {}
        for u in line["units"]:
            need(u, ["pmu", "hnf", "nodeid", "running_pct", "metrics",
                     "events"], "unit")
            key = u["pmu"] if u["hnf"] is None else f"{u['pmu']}#{u['hnf']}"
            units[key] = u
        for a in args:
            if a.startswith("mixed="):
                got = line.get("imbalance", {}).get("mixed_slices")
                if str(got).lower() != a[6:]:
                    raise Bad(f"imbalance.mixed_slices {got}, expected {a[6:]}")
                continue
            if a == "epoch":
                if not 1.6e9 < line["epoch"] < 4e9:
                    raise Bad(f"epoch {line['epoch']}")
                continue
            unit, rest = a.split(":", 1)
            metric, want = rest.split("=", 1)
            if unit not in units:
                raise Bad(f"no unit {unit} (have {sorted(units)})")
            v = units[unit]["metrics"][metric]["value"]
            if want == "null":
                if v is not None:
                    raise Bad(f"{unit} {metric} = {v}, expected null")
            elif v is None or abs(v - float(want)) > 1e-6 * max(1, abs(float(want))):
                raise Bad(f"{unit} {metric} = {v}, expected {want}")


def report_svg(args):
    """args: SVG JSONL RANK_METRIC FORMULA: the drawing against the data."""
    import xml.etree.ElementTree as ET
    svg, jsonl, rank, formula = args
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.parse(svg).getroot()
    if root.tag != ns + "svg":
        raise Bad(f"root element {root.tag}")
    recs = [json.loads(line) for line in open(jsonl) if line.strip()]
    meshes = sorted({u["pmu"] for r in recs for u in r["units"]
                     if u["hnf"] is None})
    metrics = list(recs[0]["units"][-1]["metrics"])
    panels = [g for g in root.iter(ns + "g") if g.get("class") == "panel"]
    if [p.get("id") for p in panels] != [f"panel-{m}" for m in metrics]:
        raise Bad(f"panels {[p.get('id') for p in panels]}, metrics {metrics}")
    for p, m in zip(panels, metrics):
        lines = [e for e in p.iter(ns + "polyline")]
        if len(lines) != len(meshes):
            raise Bad(f"{m}: {len(lines)} lines for {len(meshes)} units")
        for ln in lines:
            if len(ln.get("points").split()) != len(recs):
                raise Bad(f"{m}: {len(ln.get('points').split())} points, "
                          f"{len(recs)} intervals")
        flagged = sum(1 for r in recs for u in r["units"]
                      if u["pmu"] == "total" and u["metrics"][m]["flagged"])
        shaded = sum(int(e.get("data-intervals")) for e in p.iter(ns + "rect")
                     if e.get("class") == "past")
        if flagged != shaded:
            raise Bad(f"{m}: {shaded} shaded intervals, {flagged} flagged")
    # heat map: each HN-F's value over the run, recomputed from its events
    sums = {}
    for r in recs:
        for u in r["units"]:
            if u["hnf"] is None:
                continue
            s = sums.setdefault((u["pmu"], u["hnf"]), {})
            for k, v in u["events"].items():
                s[k] = s.get(k, 0) + (v or 0)
    cells = [e for e in root.iter(ns + "rect") if e.get("class") == "hnf"]
    if len(cells) != len(sums):
        raise Bad(f"{len(cells)} HN-F cells, {len(sums)} HN-Fs recorded")
    for e in cells:
        title = e.find(ns + "title").text
        m = re.fullmatch(r"(\S+) HN-F (\d+) nodeid \S+ \S+: (\S+) .*", title)
        if not m:
            raise Bad(f"cell title {title!r}")
        want = eval(formula, {"__builtins__": {}},
                    sums[(m.group(1), int(m.group(2)))])
        if abs(float(m.group(3)) - want) > 0.006 + 1e-6 * abs(want):
            raise Bad(f"{title}: expected {want:.4f} ({rank})")


def hnf_series(args):
    """args: SVG REPORT.json JSONL METRIC: the per-HN-F time series of a
    --per-hnf recording, drawn and in report --json, against the file."""
    import xml.etree.ElementTree as ET
    svg, rep, jsonl, metric = args
    ns = "{http://www.w3.org/2000/svg}"
    recs = [json.loads(line) for line in open(jsonl) if line.strip()]
    hnfs = {}
    for u in recs[0]["units"]:
        if u["hnf"] is not None:
            hnfs.setdefault(u["pmu"], []).append(u["hnf"])
    if not hnfs:
        raise Bad("no HN-F in the recording")
    root = ET.parse(svg).getroot()
    groups = {g.get("id"): g for g in root.iter(ns + "g")
              if g.get("class") == "hnf-series"}
    if set(groups) != {f"hnf-series-{p}" for p in hnfs}:
        raise Bad(f"HN-F panels {sorted(groups)}, meshes {sorted(hnfs)}")
    for p, ids in hnfs.items():
        lines = [e for e in groups[f"hnf-series-{p}"].iter(ns + "polyline")
                 if e.get("class") == "hnf-line"]
        if sorted(int(e.get("data-hnf")) for e in lines) != sorted(ids):
            raise Bad(f"{p}: lines for HN-Fs "
                      f"{sorted(int(e.get('data-hnf')) for e in lines)}, recorded {ids}")
        for e in lines:
            if len(e.get("points").split()) != len(recs):
                raise Bad(f"{p} H{e.get('data-hnf')}: "
                          f"{len(e.get('points').split())} points, {len(recs)} intervals")
    doc = json.load(open(rep))
    for u in doc["units"]:
        if u["hnf"] is None:
            continue
        want = [next(x for x in r["units"] if x["pmu"] == u["pmu"] and
                     x["hnf"] == u["hnf"])["metrics"][metric]["value"] for r in recs]
        got = u["metrics"][metric]["series"]
        if len(got) != len(want) or any(
                abs(a - b) > 1e-6 * max(1.0, abs(b)) for a, b in zip(got, want)):
            raise Bad(f"{u['pmu']} H{u['hnf']}: series {got[:4]}..., recorded {want[:4]}...")
    if len({tuple(u["metrics"][metric]["series"]) for u in doc["units"]
            if u["hnf"] is not None}) < 2:
        raise Bad("every HN-F has the same series: not per HN-F")


def grafana(doc, args):
    """args: PROM RULES: every query of the dashboard names metric families
    the exporter wrote to PROM; the queries, variables replaced, go to
    RULES as recording rules for promtool check rules."""
    prom, rules = args
    written = set()
    for line in open(prom):
        if line.startswith("# TYPE "):
            written.add(line.split()[2])
    for k in ("title", "uid", "panels", "templating", "schemaVersion"):
        if k not in doc:
            raise Bad(f"no {k}")
    exprs = []
    for v in doc["templating"]["list"]:
        if v["type"] == "query":
            exprs.append(v["definition"])
    heat = False
    for p in doc["panels"]:
        if p["type"] == "row":
            continue
        if p.get("datasource", {}).get("uid") != "${datasource}":
            raise Bad(f"panel {p['title']!r}: not the dashboard's data source")
        for t in p["targets"]:
            exprs.append(t["expr"])
            if p["type"] == "heatmap" and re.search(r"\bcmn_hnf_hnf_", t["expr"]):
                heat = True
    if not heat:
        raise Bad("no heat map of the HN-Fs (a heatmap of a cmn_hnf_hnf_ family)")
    names = set()
    for e in exprs:
        names |= set(re.findall(r"\bcmn_hnf_[a-z0-9_]+", e))
    missing = sorted(names - written)
    if missing:
        raise Bad(f"queries name metrics the exporter does not write: {missing}")
    with open(rules, "w") as f:
        f.write("groups:\n  - name: cmn-hnf-dashboard\n    rules:\n")
        for i, e in enumerate(exprs):
            m = re.fullmatch(r"label_values\((.*), *\w+\)", e)
            q = m.group(1) if m else e
            q = (q.replace("$__rate_interval", "1m").replace("$instance", ".*")
                 .replace("$pmu", ".*"))
            f.write(f"      - record: cmn_hnf:dashboard_{i}\n        expr: {json.dumps(q)}\n")


def jevents(args):
    """args: METRICS.txt LIST.json regex|--exact-compat: what perf's
    jevents.py made of the export, against the tool's metric table."""
    rows, lst, mode = args
    # exported as cmn_hnf_<metric>, apart from perf's own arm_cmn names
    want = {"cmn_hnf_" + m["name"]: m for m in json.load(open(lst))["metrics"]}
    got = {}
    for line in open(rows):
        f = line.rstrip("\n").split("|")
        name, expr, pmu, unit, compat = f[:5]
        ids = {k: (r == "1", s == "1") for k, r, s in
               (x.split(":") for x in f[5:])}
        got.setdefault(name, []).append((expr, pmu, unit, compat, ids))
    if set(got) != set(want):
        raise Bad(f"perf has {sorted(got)}, the table {sorted(want)}")
    cmn600 = ["43400", "43402", "43406", "43800"]
    for name, entries in got.items():
        for expr, pmu, unit, compat, ids in entries:
            # jevents.py rewrites expressions (1000000 becomes 1e6):
            # the same values must give the same result
            names = set(NAME.findall(expr)) | set(NAME.findall(want[name]["formula"]))
            for seed in range(3):
                env = {n: 1.0 + (hash((n, seed)) % 1000) / 7.0 for n in names}
                a = eval(expr, {"__builtins__": {}}, env)
                b = eval(want[name]["formula"], {"__builtins__": {}}, env)
                if abs(a - b) > 1e-9 * max(1.0, abs(b)):
                    raise Bad(f"{name}: MetricExpr {expr!r} is not "
                              f"{want[name]['formula']!r}")
            if pmu != "uncore_arm_cmn_hnf":
                raise Bad(f"{name}: PMU {pmu!r} (Unit not arm_cmn_hnf?)")
            if unit != "1" + want[name]["unit"]:
                raise Bad(f"{name}: ScaleUnit {unit!r}")
            if ids["43c00"][0] or ids["434020"][0]:
                raise Bad(f"{name}: Compat {compat!r} matches CMN-700 or a "
                          "longer identifier")
        # perf 6.6+: exactly one entry matches each CMN-600 identifier
        for i in cmn600:
            n = sum(1 for e in entries if e[4][i][0])
            if n != 1:
                raise Bad(f"{name}: {n} entries match {i} as a regex")
            n = sum(1 for e in entries if e[4][i][1])
            if mode == "--exact-compat" and n != 1:
                raise Bad(f"{name}: {n} entries equal {i} (perf < 6.6)")
            if mode != "--exact-compat" and n != 0:
                raise Bad(f"{name}: Compat equals {i}: not a regex export")


def main():
    kind, path, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    try:
        if kind == "svg":
            report_svg([path] + args)
            return 0
        if kind == "jevents":
            jevents([path] + args)
            return 0
        if kind == "hnf-series":
            hnf_series([path] + args)
            return 0
        with open(path) as f:
            if kind == "stat":
                doc = [json.loads(line) for line in f if line.strip()]
                if not doc:
                    raise Bad("no JSON lines")
            else:
                doc = json.load(f)
        {"telemetry": telemetry, "perf-json": perf_json, "list": list_json,
         "topo": topo_json, "stat": stat_json, "grafana": grafana}[kind](doc, args)
    except (Bad, ValueError, KeyError, TypeError, OSError) as e:
        print(f"{kind}: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
