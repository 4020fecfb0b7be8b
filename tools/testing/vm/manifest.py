#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""manifest.py: how many results, and which, each guest test must give on one boot.

Every guest test script declares, in comment lines among its first 30 lines:

  # results: <expression>        the number of result lines (PASS, FAIL and
                                 SKIP together) the script must print
  # names: <glob>... [if <expr>] the result names the script prints (at
                                 least one such line): a glob is in force
                                 when it has no condition or <expr> is
                                 true; every printed name must match a
                                 glob in force, and every glob in force
                                 must match a printed name
  # skip: <glob>... if <expr>    the cases whose name matches a glob may
                                 print SKIP when <expr> is true (any number
                                 of skip lines; without one, no case may
                                 SKIP)

The expressions are Python expressions over the facts of the boot (kernel,
firmware, fault, the meshes of the resolved mesh file, the alias list),
evaluated here, on the host, so that a test works on any valid mesh file:
"facts" prints them for a mesh file. Only arithmetic, comparisons, boolean
operators, "a if c else b", attribute access, indexing, calls of min, max,
sum, len, any, all, abs, int, bool, list displays and comprehensions and generator
expressions are allowed.

  manifest.py facts  [BOOT OPTIONS]            the facts, one per line
  manifest.py expect [BOOT OPTIONS] SCRIPT...  for each script, lines
                                               "<name> results <n>",
                                               "<name> names <glob> <0|1>"
                                               (1: in force) and
                                               "<name> skip <glob> <0|1>",
                                               or "<name> error <why>"
  manifest.py eval   [BOOT OPTIONS] EXPR       the value of EXPR

BOOT OPTIONS: --mesh FILE (the resolved mesh file, required), --kernel K,
--fw dt|acpi, --fault NAME, --numa N, --aliases LIST (default
tools/testing/hnf-aliases.list).

Only the Python standard library is used.
"""

import argparse
import ast
import fnmatch
import os
import sys

REVS = ("r1p0", "r1p1", "r1p2", "r1p3", "r2p0", "r3p0", "r3p1")
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_LIST = os.path.join(HERE, "..", "hnf-aliases.list")


class Facts:
    """Attribute bag; repr lists the attributes (for 'facts')."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def items(self):
        return sorted(self.__dict__.items())


def fls(v):
    return v.bit_length()


def armcmn_bits(kernel, x, y):
    """Node-id coordinate width that the stock arm-cmn of KERNEL uses.

    6.1 (Debian's 6.1.0-57 carries the 2024 refactor), 6.12, 7.2 and the
    self-built debug kernel (6.12 source): fls((x - 1) | (y - 1)), no
    minimum; 5.10: the CMN-600 rule (2 bits up to 4x4, else 3).
    """
    if kernel == "5.10":
        return 2 if x <= 4 and y <= 4 else 3
    return fls((x - 1) | (y - 1))


def armcmn_multidtc_bug(kernel):
    """Does the stock arm-cmn of KERNEL lose the carries of a bynodeid event
    on an HN-F whose XP hosts DTC n > 0? 6.1 and 6.12 (and the debug kernel,
    6.12's source) put that XP in DTC n's domain; 5.10 and 7.2 count every
    event on every DTC (tools/testing/e2e/lib-armcmn.sh has the evidence)."""
    return kernel in ("6.1", "6.12", "debug")


def parse_mesh(path):
    meshes = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            toks = raw.split("#", 1)[0].split()
            if not toks:
                continue
            kw, rest = toks[0], toks[1:]
            opts = dict(t.split("=", 1) for t in rest if "=" in t)
            pos = [t for t in rest if "=" not in t]
            if kw == "mesh":
                meshes.append({"opts": opts, "nodes": [], "domains": {}})
            elif kw == "node" and meshes and len(pos) == 5:
                meshes[-1]["nodes"].append({
                    "type": pos[0], "x": int(pos[1], 0), "y": int(pos[2], 0),
                    "p": int(pos[3], 0), "d": int(pos[4], 0), "opts": opts})
            elif kw == "domain" and meshes and len(pos) == 3:
                meshes[-1]["domains"][(int(pos[0], 0), int(pos[1], 0))] = int(pos[2], 0)
    if not meshes:
        raise ValueError(f"{path}: no mesh line")
    return meshes


def read_aliases(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            t = line.split("#", 1)[0].split()
            if len(t) == 7:
                out.append({"pmus": t[0], "name": t[1], "event": t[2],
                            "occupid": t[3], "since": t[6]})
    return out


def mesh_facts(i, m, kernel, aliases):
    o = m["opts"]
    x, y = int(o["x"], 0), int(o["y"], 0)
    rev = o.get("rev", "r1p2")
    revn = REVS.index(rev) if rev in REVS else -1
    bits = 2 if x <= 4 and y <= 4 else 3
    hnf = [n for n in m["nodes"] if n["type"] == "hn-f"]
    dtc = [n for n in m["nodes"] if n["type"] == "dtc"]
    # DTC logical ids: lid= or the order of the dtc lines
    dtc_lid = {}
    for k, n in enumerate(dtc):
        dtc_lid[(n["x"], n["y"])] = int(n["opts"].get("lid", str(k)), 0)
    per_xp = {}
    for n in hnf:
        per_xp[(n["x"], n["y"])] = per_xp.get((n["x"], n["y"]), 0) + 1
    def nodeid(nx, ny, n):
        """CMN-600 node id of HN-F N's port and device at XP (NX, NY)"""
        return (nx << (3 + bits)) | (ny << 3) | (n["p"] << 2) | n["d"]

    def armcmn_decode(nid, ab):
        """(XP index, port, device) upstream arm-cmn gives node id NID
        with AB coordinate bits: xps[mesh_x * y + x]; 3 port bits on a 1x1
        mesh since the 2024 refactor (6.1, 6.12, 7.2), else 1 (as
        lc_armcmn_decode in tools/testing/e2e/lib-counts.sh)"""
        pb = 3 if x * y == 1 and kernel != "5.10" else 1
        xp = nid >> (pb + 2)
        return (x * (xp & ((1 << ab) - 1)) + (xp >> ab),
                (nid >> 2) & ((1 << pb) - 1), nid & 3)

    def misplaced_with(ab):
        """HN-Fs a node-id decode with AB coordinate bits puts on another XP"""
        c = 0
        for n in hnf:
            idx = armcmn_decode(nodeid(n["x"], n["y"], n), ab)[0]
            if x * y > 1 and idx != n["y"] * x + n["x"]:
                c += 1
        return c
    ab = armcmn_bits(kernel, x, y)
    misplaced = misplaced_with(ab)

    def mismatch():
        """What the stock arm-cmn makes of the node id the model's
        nodeid_mismatch fault gives the HN-F of lowest lid (image.c: the
        next XP in X, else in Y, X=1 on 1x1): "oob" (an index past its XP
        array), "own" (that HN-F's XP, port and device), "other" (another
        XP), "" without HN-Fs (36-hnf-faults.sh)"""
        if not hnf:
            return ""
        lids = [(int(n["opts"].get("lid", str(k)), 0), k) for k, n in enumerate(hnf)]
        n = hnf[min(lids)[1]]
        fx, fy = n["x"], n["y"]
        if x > 1:
            fx = (fx + 1) % x
        elif y > 1:
            fy = (fy + 1) % y
        else:
            fx = 1
        got = armcmn_decode(nodeid(fx, fy, n), ab)
        if got[0] >= x * y:
            return "oob"
        return "own" if got == (n["y"] * x + n["x"], n["p"], n["d"]) else "other"
    irqs = [n["opts"].get("irq") for n in dtc
            if n["opts"].get("irq", "none") not in ("none", "defer")]

    def domain(n):
        """DTC domain of a node's XP: the DTC on it, a domain line, the
        node's domain=, else 0"""
        xy = (n["x"], n["y"])
        if xy in dtc_lid:
            return dtc_lid[xy]
        if xy in m["domains"]:
            return m["domains"][xy]
        for o in m["nodes"]:
            if (o["x"], o["y"]) == xy and "domain" in o["opts"]:
                return int(o["opts"]["domain"], 0)
        return 0
    # DTC domains with an HN-F that is not on the XP of a DTC n > 0
    irq_domains = {domain(n) for n in hnf if dtc_lid.get((n["x"], n["y"]), 0) == 0}

    def visible(a, pmus):
        if a["pmus"] not in pmus:
            return False
        return a["since"] == "-" or revn >= REVS.index(a["since"])

    hnf_al = [a for a in aliases if visible(a, ("hnf", "both"))]
    cmn_al = [a for a in aliases if visible(a, ("cmn", "both"))]
    return Facts(
        index=i, x=x, y=y, xps=x * y, rev=rev, revn=revn, bits=bits,
        uid=int(o.get("uid", str(i)), 0), numa=int(o.get("numa", "-1"), 0),
        nodes=len(m["nodes"]), hnfs=len(hnf), dtcs=len(dtc),
        hnf_xps=len(per_xp), hnf_xp_max=max(per_xp.values(), default=0),
        hnf_xp_min=min(per_xp.values(), default=0),
        hnfs_shared=sum(v for v in per_xp.values() if v > 1),
        hnfs_alone=sum(1 for v in per_xp.values() if v == 1),
        dtc_hnfs=sum(1 for n in hnf if dtc_lid.get((n["x"], n["y"]), 0) > 0),
        dev23=sum(1 for n in hnf if n["d"] >= 2),
        armcmn_bits=ab, armcmn_misplaced=misplaced, mismatch_armcmn=mismatch(),
        # the HN-Fs upstream's fls((x - 1) | (y - 1)) rule misplaces,
        # whatever the kernel (30-hnf-counts counts them with our driver)
        fls_misplaced=misplaced_with(fls((x - 1) | (y - 1))),
        armcmn_dtcbug=(sum(1 for n in hnf if dtc_lid.get((n["x"], n["y"]), 0) > 0)
                       if armcmn_multidtc_bug(kernel) else 0),
        irqs=len(set(irqs)), shared_irq=len(irqs) != len(set(irqs)),
        noirq=sum(1 for n in dtc if n["opts"].get("irq") == "none"),
        defer=sum(1 for n in dtc if n["opts"].get("irq") == "defer"),
        irq_domains=len(irq_domains),
        aliases=len(hnf_al),
        aliases_occ=sum(1 for a in hnf_al if a["event"] == "0x0f"),
        aliases_cycles=sum(1 for a in hnf_al if a["event"] == "cycles"),
        cmn_aliases=len(cmn_al),
        cmn_aliases_occ=sum(1 for a in cmn_al if a["event"] == "0x0f"),
        cmn_aliases_cycles=sum(1 for a in cmn_al if a["event"] == "cycles"),
        events=len({a["event"] for a in hnf_al if a["event"] not in ("cycles", "0x0f")}),
        occ_classes=len({a["occupid"] for a in hnf_al if a["event"] == "0x0f"}))


def boot_facts(a):
    aliases = read_aliases(a.aliases)
    meshes = [mesh_facts(i, m, a.kernel, aliases)
              for i, m in enumerate(parse_mesh(a.mesh))]
    env = {"kernel": a.kernel, "fw": a.fw, "fault": a.fault or "",
           "numa": a.numa, "nmesh": len(meshes), "mesh": meshes,
           "all_hnfs": sum(m.hnfs for m in meshes),
           "all_dtcs": sum(m.dtcs for m in meshes)}
    # mesh 0's facts are also plain names
    for k, v in meshes[0].items():
        env.setdefault(k, v)
    return env


ALLOWED = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not,
           ast.USub, ast.UAdd, ast.BinOp, ast.Add, ast.Sub, ast.Mult,
           ast.FloorDiv, ast.Mod, ast.Compare, ast.Eq, ast.NotEq, ast.Lt,
           ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.IfExp, ast.Name,
           ast.Load, ast.Constant, ast.Attribute, ast.Subscript, ast.Call,
           ast.GeneratorExp, ast.ListComp, ast.comprehension, ast.Store, ast.Tuple,
           ast.List, ast.Index if hasattr(ast, "Index") else ast.Constant)
FUNCS = {"min": min, "max": max, "sum": sum, "len": len, "abs": abs,
         "int": int, "bool": bool, "any": any, "all": all}


def evaluate(expr, env):
    tree = ast.parse(expr.strip(), mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, ALLOWED):
            raise ValueError(f"not allowed in a manifest expression: {type(node).__name__}")
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            raise ValueError(f"not allowed: .{node.attr}")
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name)
                                               and node.func.id in FUNCS):
            raise ValueError("only min, max, sum, len, abs, int, bool, any, all may be called")
    # one namespace, as globals: generator expressions see only globals
    names = {"__builtins__": {}}
    names.update(FUNCS)
    names.update(env)
    return eval(compile(tree, "<manifest>", "eval"), names)  # pylint: disable=eval-used


def headers(path):
    """(results expression or None, [(globs, condition)] of the skip lines,
    [(globs, condition or None)] of the names lines) of a script."""
    res, skips, names = None, [], []
    with open(path, encoding="utf-8") as f:
        for _, line in zip(range(30), f):
            line = line.strip()
            if not line.startswith("#"):
                continue
            body = line[1:].strip()
            if body.startswith("results:") and res is None:
                res = body[len("results:"):].strip()
            elif body.startswith("skip:"):
                spec = body[len("skip:"):].strip()
                if " if " not in spec:
                    raise ValueError(f"'# skip: {spec}': want '<glob>... if <expr>'")
                globs, cond = spec.split(" if ", 1)
                skips.append((globs.split(), cond))
            elif body.startswith("names:"):
                spec = body[len("names:"):].strip()
                globs, cond = (spec.split(" if ", 1) + [None])[:2]
                if not globs.split():
                    raise ValueError(f"'# names: {spec}': want '<glob>... [if <expr>]'")
                names.append((globs.split(), cond))
    return res, skips, names


def expect(a, env):
    for s in a.scripts:
        name = os.path.basename(s)
        if name.endswith(".sh"):
            name = name[:-3]
        try:
            res, skips, names = headers(s)
            if res is None:
                raise ValueError("no '# results:' header")
            if not names:
                raise ValueError("no '# names:' header")
            n = evaluate(res, env)
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"'# results: {res}' is {n!r}, not a count")
            lines = [f"{name} results {n}"]
            for globs, cond in names:
                ok = 1 if cond is None or evaluate(cond, env) else 0
                lines += [f"{name} names {g} {ok}" for g in globs]
            for globs, cond in skips:
                ok = 1 if evaluate(cond, env) else 0
                lines += [f"{name} skip {g} {ok}" for g in globs]
            print("\n".join(lines))
        except (ValueError, SyntaxError, NameError, AttributeError, TypeError,
                IndexError, ZeroDivisionError, OSError) as e:
            print(f"{name} error {str(e).splitlines()[0] if str(e) else type(e).__name__}")


def skip_allowed(expect_lines, script, case):
    """For the self-test: is SKIP of CASE allowed by the expect output?"""
    for line in expect_lines:
        t = line.split()
        if len(t) == 4 and t[0] == script and t[1] == "skip" and t[3] == "1" \
           and fnmatch.fnmatchcase(case, t[2]):
            return True
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("cmd", choices=("facts", "expect", "eval"))
    ap.add_argument("--mesh", required=True)
    ap.add_argument("--kernel", default="6.12")
    ap.add_argument("--fw", default="dt")
    ap.add_argument("--fault", default="")
    ap.add_argument("--numa", type=int, default=0)
    ap.add_argument("--aliases", default=DEFAULT_LIST)
    ap.add_argument("scripts", nargs="*")
    a = ap.parse_intermixed_args()
    try:
        env = boot_facts(a)
    except (OSError, ValueError, KeyError) as e:
        print(f"manifest.py: {a.mesh}: {e}", file=sys.stderr)
        return 1
    if a.cmd == "facts":
        for k in sorted(env):
            if k == "mesh":
                for m in env[k]:
                    print(f"mesh[{m.index}]: " + " ".join(f"{n}={v}" for n, v in m.items()))
            else:
                print(f"{k} = {env[k]!r}")
    elif a.cmd == "eval":
        try:
            print(evaluate(" ".join(a.scripts), env))
        except Exception as e:  # pylint: disable=broad-except
            print(f"manifest.py: {e}", file=sys.stderr)
            return 1
    else:
        expect(a, env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
