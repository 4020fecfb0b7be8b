#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""randmesh.py: write a random valid CMN-600 mesh file from a seed.

The same seed gives the same file (on any Python 3 of the same tree). The
file is in the model's mesh description format (Documentation/internals.rst,
"Mesh description format") and describes only what the CMN-600 allows
(see "What every file obeys" below); ``make e2e MESH=random:<seed>`` boots
it, and ``make check`` (harness stage) has the model's own parser accept
ten thousand of them.

  randmesh.py SEED [-o FILE]       one file (stdout without -o)
  randmesh.py --stream FIRST COUNT the files of seeds FIRST..FIRST+COUNT-1,
                                   each after a line "#@seed <seed>", for
                                   tools/testing/cmn600-model/user/meshcheck
  randmesh.py --summary SEED       one line: what the file of SEED holds

What varies (each file says which corner it was drawn for, and, per mesh,
what it holds, on "#@expect" comment lines that meshcheck compares with
what the model's parser made of the file):

  sizes        X and Y of 1..8 each (1x1, 1xN, Nx1 and 8x8 included)
  revisions    every revision the model knows (r1p0..r3p1)
  DTC domains  1..4, each a connected region of XPs grown from a random
               XP, its DTC on an HN-D port of an XP inside it; DTC logical
               ids in random order over the regions; XPs of DTC 0's domain
               named by a domain line only now and then, others always (by
               a domain line or a node's domain=)
  HN-Fs        1 .. the driver's CMN_HNF_MAX_HNFS (include/arm_cmn_hnf/
               logic.h), at most four on one XP (its DTM has four
               counters), on ports 0 and 1 and devices 0..3 where the
               model's address rule leaves room (see below): single ones,
               pairs on one port, both ports, four on one XP
  the rest     RN-F, SN-F, RN-I, RN-D, HN-I, SBSX, CXRA, CXHA (some with a
               CXLA), CXRH and empty ports; a DN on DTC 0's HN-D port
               most of the time; RN-SAM nodes on some RN-F ports
  files        1..3 meshes with distinct uids in random order (small ones,
               now and then one up to 2^32 - 1); DTC interrupts distinct,
               all shared by the DTCs of a mesh, or shared by some of
               them; now and then left for meshgen.py to choose
  the rest of  explicit logical ids or the file order, explicit port lines
  the syntax   or the ones the nodes imply, root= (a free slot of DTC 0's
               XP) or the model's default, size= tight around the blocks,
               a random fit, or the default; lines shuffled now and then

Corners come up on purpose: seed modulo 10 picks the corner of one mesh of
the file (its place in the file is random): 0 none (random), 1 the largest
mesh (8x8, four DTC domains, CMN_HNF_MAX_HNFS HN-Fs, one full XP),
2 a single HN-F, 3 a full XP (four HN-Fs), 4 a 1x1 mesh, 5 a 1xN or Nx1
line, 6 HN-Fs on devices 2 and 3, 7 DTC interrupts shared, 8 three meshes
in the file, 9 four DTC domains.

What every file obeys (the CMN-600 facts the model rests on,
Documentation/cmn600-model.rst, and the model's format; the model's
cmn600_model_check_trm() checks the hardware ones):

  - node ids and device blocks: the model's address rule puts the node at
    port p device d of an XP in 16 KiB slot 1 + 2p + d of the XP's 1 MiB
    window, so port 0 devices 2 and 3 share slots with port 1 devices 0
    and 1: an XP never uses both of a pair; the CFG node takes a free slot
  - a node sits on a port whose connect type is its own (HN-F on hn-f, DTC
    and DN on hn-d, HN-I on hn-i, SBSX on sbsx, RN-I on rn-i, RN-D on rn-d,
    CXRA/CXHA on cxra/cxha, CXLA beside them, RN-SAM on an RN-F port); a
    port whose type is a configuration node has at least one such node
  - logical ids per node type are 0..n-1; DTC lids are the domain numbers
    0..k-1, each domain a connected set of XPs holding its DTC
  - at most one DTC per XP; DTC interrupts are SPIs the harness's GIC can
    raise (SPI_FIRST..SPI_LAST), never shared between meshes
  - the regions of one file fit meshgen.py's DT carve-out

Only the Python standard library is used.
"""

import argparse
import math
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import meshgen  # noqa: E402  (constants of the harness's placement)

REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
LOGIC_H = os.path.join(REPO, "include", "arm_cmn_hnf", "logic.h")

REVS = meshgen.REVS
MAX_DIM = 8
MAX_DTCS = 4
HNF_PER_XP = 4          # a full XP: as many HN-Fs as its DTM has counters
BLOCK = 0x4000
DEFAULT_SIZE = meshgen.DEFAULT_SIZE
# DTC interrupts: above QEMU virt's own SPIs (0..47 and the platform bus,
# 112..175) and inside its GIC (meshgen.MAX_SPI)
SPI_FIRST = 176
SPI_LAST = meshgen.MAX_SPI

# for the harness's self-test (--break): write files that break one rule
BREAKS = ("overlap", "domains", "dtc-port", "hnf-max", "lids")
BREAK = None

CORNERS = ("random", "largest", "one-hnf", "full-xp", "1x1", "line",
           "dev23", "shared-irq", "three-meshes", "four-dtcs")

# port types without a configuration node, and their weights
BARE_PORTS = (("none", 6), ("rn-f-chib", 4), ("rn-f-chia", 1),
              ("rn-f-chib-esam", 1), ("rn-f-chia-esam", 1), ("sn-f", 4),
              ("cxrh", 1))
# port types whose devices are configuration nodes: (port, node, weight)
NODE_PORTS = (("hn-i", "hn-i", 2), ("sbsx", "sbsx", 1.5), ("rn-i", "rn-i", 2),
              ("rn-d", "rn-d", 1), ("cxra", "cxra", 0.5), ("cxha", "cxha", 0.5))
# the port type each node type implies when the file has no port line
IMPLIED = {"hn-f": "hn-f", "hn-i": "hn-i", "sbsx": "sbsx", "rn-i": "rn-i",
           "rn-d": "rn-d", "cxra": "cxra", "cxha": "cxha", "dn": "hn-d",
           "dtc": "hn-d"}


def max_hnfs():
    """CMN_HNF_MAX_HNFS of the driver (the most HN-Fs one mesh may have)."""
    with open(LOGIC_H, encoding="utf-8") as f:
        m = re.search(r"^#define\s+CMN_HNF_MAX_HNFS\s+(\d+)", f.read(), re.M)
    if not m:
        raise SystemExit(f"randmesh: no CMN_HNF_MAX_HNFS in {LOGIC_H}")
    return int(m.group(1))


def slot(p, d):
    """16 KiB slot of port p device d in its XP's window (address rule)."""
    return 1 + 2 * p + d


def coord_bits(x, y):
    return 2 if x <= 4 and y <= 4 else 3


def xp_offset(x, y, b):
    return ((x << b) | y) << 20


def _subsets():
    return [tuple(d for d in range(4) if m >> d & 1) for m in range(16)]


def _device_pairs():
    """For (n0, n1): every (devices of port 0, devices of port 1) with n0
    and n1 devices whose slots do not collide."""
    subsets = _subsets()
    out = {}
    for s0 in subsets:
        for s1 in subsets:
            used = [slot(0, d) for d in s0] + [slot(1, d) for d in s1]
            if len(set(used)) == len(used):
                out.setdefault((len(s0), len(s1)), []).append((s0, s1))
    return out


DEVICE_PAIRS = _device_pairs()
# the same with devices 0 and 1 only (what most silicon uses)
NATURAL_PAIRS = {k: [pr for pr in v if all(d < 2 for s in pr for d in s)]
                 for k, v in DEVICE_PAIRS.items()}
# every pair of device sets, colliding or not (for BREAK = "overlap")
COLLIDING_PAIRS = {}
for _n0 in range(5):
    for _n1 in range(5):
        _s0 = [t for t in _subsets() if len(t) == _n0]
        _s1 = [t for t in _subsets() if len(t) == _n1]
        COLLIDING_PAIRS[(_n0, _n1)] = [
            (a, b) for a in _s0 for b in _s1
            if {slot(0, d) for d in a} & {slot(1, d) for d in b}]
NODE_PORT_W = [(e, e[2]) for e in NODE_PORTS]
NODE_PORT_T = sum(e[2] for e in NODE_PORTS)
BARE_PORT_T = sum(w for _, w in BARE_PORTS)


def weighted(rng, items, total=None):
    """items: (value, weight) pairs; total: their weights' sum, if known."""
    if total is None:
        total = sum(w for _, w in items)
    r = rng.random() * total
    for v, w in items:
        r -= w
        if r < 0:
            return v
    return items[-1][0]


class XP:
    def __init__(self, x, y):
        self.x, self.y = x, y
        self.hnfs = 0           # HN-Fs this XP must carry
        self.dtc = None         # DTC lid if it hosts one
        self.dn = False         # the DN sits on its HN-D port
        self.domain = 0
        # per port: (port type, [(node type, device)], port line wanted)
        self.ports = [("none", [], False), ("none", [], False)]


class Mesh:
    def __init__(self):
        self.x = self.y = 1
        self.rev = "r1p2"
        self.xps = {}
        self.ndtcs = 1
        self.dtc_xy = []        # by lid
        self.irqs = None        # by lid, or None: meshgen.py picks
        self.uid = None
        self.root = None
        self.size = None
        self.corner = "random"
        self.lines = []
        self.facts = {}


def grow_domains(rng, m):
    """Split the XPs into m.ndtcs connected regions grown from random XPs;
    a random XP of region i hosts DTC lid perm[i]."""
    coords = sorted(m.xps)
    seeds = rng.sample(coords, m.ndtcs)
    region = {}
    frontier = []

    def push(c, r):
        x, y = c
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if (nx, ny) in m.xps and (nx, ny) not in region:
                frontier.append(((nx, ny), r))
    for r, c in enumerate(seeds):
        region[c] = r
    for r, c in enumerate(seeds):
        push(c, r)
    while frontier:
        i = rng.randrange(len(frontier))
        frontier[i], frontier[-1] = frontier[-1], frontier[i]
        c, r = frontier.pop()
        if c in region:
            continue
        region[c] = r
        push(c, r)
    lids = list(range(m.ndtcs))
    rng.shuffle(lids)
    members = [[c for c in coords if region[c] == r] for r in range(m.ndtcs)]
    m.dtc_xy = [None] * m.ndtcs
    for r in range(m.ndtcs):
        c = rng.choice(members[r])
        m.dtc_xy[lids[r]] = c
        m.xps[c].dtc = lids[r]
        for mc in members[r]:
            m.xps[mc].domain = lids[r]
    if BREAK == "domains" and m.ndtcs > 1:
        # an XP far from its region: a domain in pieces, most of the time
        c = rng.choice([c for c in coords if m.xps[c].dtc is None] or [None])
        if c:
            m.xps[c].domain = rng.choice([d for d in range(m.ndtcs) if d != m.xps[c].domain])


def place_hnfs(rng, m, total, full_xp):
    """Spread total HN-Fs over the XPs, at most HNF_PER_XP on one; with
    full_xp one XP gets HNF_PER_XP."""
    coords = sorted(m.xps)
    left = total
    if full_xp:
        c = rng.choice(coords)
        m.xps[c].hnfs = HNF_PER_XP
        left -= HNF_PER_XP
    # clustered or even: per-XP weights
    sharp = rng.choice((0.5, 1, 3, 6))
    w = {c: rng.random() ** sharp + 1e-3 for c in coords}
    free = [(c, w[c]) for c in coords if m.xps[c].hnfs < HNF_PER_XP]
    total = sum(v for _, v in free)
    while left > 0:
        c = weighted(rng, free, total)
        m.xps[c].hnfs += 1
        left -= 1
        if m.xps[c].hnfs == HNF_PER_XP:
            free.remove((c, w[c]))
            total = sum(v for _, v in free)


def layout_xp(rng, xp, dev23, want_dn):
    """Choose the port types and devices of one XP. dev23: prefer layouts
    with HN-Fs on devices 2 and 3."""
    h = xp.hnfs
    # (role of port 0, count, role of port 1, count); role: hnf, hnd, other
    options = []
    if xp.dtc is not None:
        nd = 2 if want_dn else 1
        for pd in (0, 1):
            ph = 1 - pd
            if h:
                options.append({pd: ("hnd", nd), ph: ("hnf", h)})
            else:
                options.append({pd: ("hnd", nd), ph: ("other", None)})
    elif h:
        for p in (0, 1):
            options.append({p: ("hnf", h), 1 - p: ("other", None)})
        for a in range(1, h):
            options.append({0: ("hnf", a), 1: ("hnf", h - a)})
    else:
        options.append({0: ("other", None), 1: ("other", None)})
    if len(options) > 1:
        rng.shuffle(options)
    for opt in options:
        # an "other" port: a node type with one or two nodes, or bare
        kinds = {}
        for p in (0, 1):
            role, n = opt[p]
            if role == "other":
                if rng.random() < 0.35:
                    pt, nt, _ = weighted(rng, NODE_PORT_W, NODE_PORT_T)
                    n = 2 if rng.random() < 0.2 else 1
                    kinds[p] = (pt, nt, n)
                else:
                    kinds[p] = (weighted(rng, BARE_PORTS, BARE_PORT_T), None, 0)
            elif role == "hnf":
                kinds[p] = ("hn-f", "hn-f", n)
            else:
                kinds[p] = ("hn-i" if BREAK == "dtc-port" else "hn-d", "dtc", n)
        pairs = DEVICE_PAIRS.get((kinds[0][2], kinds[1][2]))
        if not pairs:
            continue
        if BREAK == "overlap" and COLLIDING_PAIRS[(kinds[0][2], kinds[1][2])]:
            pick = COLLIDING_PAIRS[(kinds[0][2], kinds[1][2])]
        elif dev23 and h:
            pick = [pr for pr in pairs
                    if any(d >= 2 for p in (0, 1) if kinds[p][1] == "hn-f" for d in pr[p])]
        elif rng.random() < 0.75:
            pick = NATURAL_PAIRS[(kinds[0][2], kinds[1][2])]
        else:
            pick = pairs
        pair = rng.choice(pick or pairs)
        for p in (0, 1):
            pt, nt, _ = kinds[p]
            devs = list(pair[p])
            if len(devs) > 1:
                rng.shuffle(devs)
            nodes = []
            if nt == "dtc":
                nodes.append(("dtc", devs[0]))
                if len(devs) > 1:
                    nodes.append(("dn", devs[1]))
                    xp.dn = True
            elif nt in ("cxra", "cxha") and len(devs) == 2 and rng.random() < 0.5:
                nodes = [(nt, devs[0]), ("cxla", devs[1])]
            elif nt:
                nodes = [(nt, d) for d in devs]
            explicit = nt is None or IMPLIED.get(nodes[0][0]) != pt or rng.random() < 0.5
            explicit = explicit or BREAK == "dtc-port"
            if len(nodes) > 1:
                nodes.sort(key=lambda t: t[1])
            xp.ports[p] = (pt, nodes, explicit)
        # now and then an RN-SAM on an RN-F port, in a slot still free
        for p in (0, 1):
            pt = xp.ports[p][0]
            if not pt.startswith("rn-f") or rng.random() >= 0.15:
                continue
            used = {slot(q, d) for q in (0, 1) for _, d in xp.ports[q][1]}
            free = [d for d in range(4) if slot(p, d) not in used]
            if free:
                xp.ports[p] = (pt, [("rn-sam", rng.choice(free))], True)
        return
    raise AssertionError(f"no layout for XP ({xp.x},{xp.y}): {h} HN-Fs, DTC {xp.dtc}")


def hnf_count(rng, hmax):
    """1..hmax, log-uniform, now and then the maximum."""
    if rng.random() < 0.08:
        return hmax
    return max(1, min(hmax, int(math.exp(rng.random() * math.log(hmax + 1)))))


def gen_mesh(rng, corner, hmax_driver):
    m = Mesh()
    m.corner = corner
    if corner == "largest":
        m.x = m.y = MAX_DIM
    elif corner == "1x1":
        m.x = m.y = 1
    elif corner == "line":
        n = rng.randint(2, MAX_DIM)
        m.x, m.y = (1, n) if rng.random() < 0.5 else (n, 1)
    else:
        need = {"four-dtcs": MAX_DTCS, "shared-irq": 2}.get(corner, 1)
        while True:
            m.x, m.y = rng.randint(1, MAX_DIM), rng.randint(1, MAX_DIM)
            if m.x * m.y >= need:
                break
    m.rev = rng.choice(REVS)
    for y in range(m.y):
        for x in range(m.x):
            m.xps[(x, y)] = XP(x, y)
    nxp = m.x * m.y
    if corner in ("largest", "four-dtcs"):
        m.ndtcs = MAX_DTCS
    elif corner == "shared-irq":
        m.ndtcs = rng.randint(2, min(nxp, MAX_DTCS))
    else:
        m.ndtcs = min(nxp, weighted(rng, ((1, 40), (2, 25), (3, 20), (4, 15))))
    grow_domains(rng, m)
    hmax = min(hmax_driver + (BREAK == "hnf-max"), HNF_PER_XP * nxp)
    full = corner in ("full-xp", "largest")
    if corner == "largest":
        total = hmax
    elif corner == "one-hnf":
        total = 1
    elif corner == "full-xp":
        total = rng.randint(HNF_PER_XP, max(HNF_PER_XP, hnf_count(rng, hmax)))
    else:
        total = hnf_count(rng, hmax)
        full = total >= HNF_PER_XP and rng.random() < 0.1
    place_hnfs(rng, m, total, full)
    dev23 = corner == "dev23"
    want_dn = rng.random() < 0.8
    for c in sorted(m.xps):
        xp = m.xps[c]
        layout_xp(rng, xp, dev23 and rng.random() < 0.5, want_dn and xp.dtc == 0)
    if dev23 and not any(d >= 2 for xp in m.xps.values() for p in (0, 1)
                         for t, d in xp.ports[p][1] if t == "hn-f"):
        # make sure: lay one XP with HN-Fs out again until it has some
        xp = next(xp for xp in m.xps.values() if xp.hnfs)
        while not any(d >= 2 for p in (0, 1) for t, d in xp.ports[p][1] if t == "hn-f"):
            layout_xp(rng, xp, True, want_dn and xp.dtc == 0)
    return m


def place_root(rng, m):
    """root=: a free slot of DTC 0's XP, or the model's default (None)."""
    if rng.random() >= 0.3:
        return
    b = coord_bits(m.x, m.y)
    x, y = m.dtc_xy[0]
    xp = m.xps[(x, y)]
    used = {slot(p, d) for p in (0, 1) for _, d in xp.ports[p][1]}
    free = [s for s in range(1, 64) if s not in used]
    m.root = xp_offset(x, y, b) + BLOCK * rng.choice(free)


def extent(m):
    """End of the highest 16 KiB block of the mesh (root included)."""
    b = coord_bits(m.x, m.y)
    end = 0
    for (x, y), xp in m.xps.items():
        base = xp_offset(x, y, b)
        end = max(end, base + BLOCK)
        for p in (0, 1):
            for _, d in xp.ports[p][1]:
                end = max(end, base + BLOCK * (slot(p, d) + 1))
    root = m.root
    if root is None:
        # the model's default: first slot of XP (0,0) no node uses
        used = {slot(p, d) for p in (0, 1) for _, d in m.xps[(0, 0)].ports[p][1]}
        root = BLOCK * min(s for s in range(1, 64) if s not in used)
    return max(end, root + BLOCK)


def place_size(rng, m):
    r = rng.random()
    if r < 0.65:
        return
    need = extent(m)
    if r < 0.85:
        m.size = need
    else:
        m.size = need + BLOCK * rng.randrange((DEFAULT_SIZE - need) // BLOCK + 1)


def emit(rng, m):
    """The statements of mesh m, and its #@expect facts."""
    b = coord_bits(m.x, m.y)
    head = [f"x={m.x}", f"y={m.y}"]
    if m.rev != "r1p2" or rng.random() < 0.5:
        head.append(f"rev={m.rev}")
    if m.uid is not None:
        head.append(f"uid={m.uid}")
    if m.root is not None:
        head.append(f"root=0x{m.root:x}")
    if m.size is not None:
        head.append(f"size=0x{m.size:x}")
    rng.shuffle(head)
    body = []
    nodes = []          # (type, x, y, p, d)
    for c in sorted(m.xps, key=lambda c: (c[1], c[0])):
        xp = m.xps[c]
        for p in (0, 1):
            pt, pn, explicit = xp.ports[p]
            if explicit and (pt != "none" or rng.random() < 0.3):
                body.append([f"port {c[0]} {c[1]} {p} {pt}"])
            for t, d in pn:
                nodes.append((t, c[0], c[1], p, d))
    # logical ids: 0..n-1 per type, explicit (random order) or by file order
    explicit_lids = rng.random() < 0.3 or BREAK == "lids"
    bytype = {}
    for n in nodes:
        bytype.setdefault(n[0], []).append(n)
    lid = {}
    for t, ns in bytype.items():
        if t == "dtc":
            for n in ns:
                lid[n] = m.xps[(n[1], n[2])].dtc
            continue
        order = list(range(len(ns)))
        if explicit_lids:
            rng.shuffle(order)
        if BREAK == "lids" and t == "hn-f":
            order = [i + 1 for i in order]
        for n, i in zip(ns, order):
            lid[n] = i
    # without lid=, the file order of a type's node lines is its lid order
    nodes.sort(key=lambda n: (n[0], lid[n]))
    dom_by_node = {}
    for c, xp in m.xps.items():
        if xp.dtc is not None:
            continue
        if xp.domain == 0 and (m.ndtcs == 1 or rng.random() < 0.8):
            continue
        here = [(t, c[0], c[1], p, d) for p in (0, 1) for t, d in xp.ports[p][1]]
        if here and rng.random() < 0.25:
            dom_by_node[rng.choice(here)] = xp.domain
        else:
            body.append([f"domain {c[0]} {c[1]} {xp.domain}"])
    for n in nodes:
        t, x, y, p, d = n
        opts = []
        if explicit_lids or (t == "dtc" and rng.random() < 0.5):
            opts.append(f"lid={lid[n]}")
        if t == "dtc" and m.irqs is not None:
            opts.append(f"irq={m.irqs[lid[n]]}")
        if n in dom_by_node:
            opts.append(f"domain={dom_by_node[n]}")
        rng.shuffle(opts)
        body.append([" ".join([f"node {t} {x} {y} {p} {d}"] + opts)])
    if rng.random() < 0.25:
        # any order: lids by file order must then be explicit
        if not explicit_lids:
            fixed = []
            for ln in body:
                s = ln[0]
                if s.startswith("node ") and "lid=" not in s:
                    t, x, y, p, d = s.split()[1:6]
                    s += f" lid={lid[(t, int(x), int(y), int(p), int(d))]}"
                fixed.append([s])
            body = fixed
        rng.shuffle(body)
    sep = "\t" if rng.random() < 0.1 else " "
    lines = ["mesh " + sep.join(head)] + [ln[0].replace(" ", sep) for ln in body]
    hnf_xp = [xp.hnfs for xp in m.xps.values() if xp.hnfs]
    dom = "".join(str(m.xps[(x, y)].domain) for y in range(m.y) for x in range(m.x))
    m.facts = {
        "x": m.x, "y": m.y, "rev": m.rev, "bits": b,
        "nodes": len(nodes), "hnfs": sum(hnf_xp), "dtcs": m.ndtcs,
        "hnf_xp_max": max(hnf_xp, default=0),
        "dev23": sum(1 for n in nodes if n[0] == "hn-f" and n[4] >= 2),
        "domains": dom,
        "irqs": ",".join(map(str, m.irqs)) if m.irqs is not None else "-",
        "root": f"0x{m.root:x}" if m.root is not None else "-",
        "uid": m.uid if m.uid is not None else "-",
    }
    return lines


def assign_irqs(rng, meshes, force_shared):
    """DTC interrupts: per mesh distinct, all shared, or some shared; never
    shared between meshes; now and then left to meshgen.py (then for every
    mesh of the file that leaves them, so meshgen.py's SPIs from 200 up do
    not meet ours: ours then come from below 200)."""
    leave = rng.random() < 0.08 and not force_shared
    pool = list(range(SPI_FIRST, meshgen.FIRST_SPI if leave else SPI_LAST + 1))
    rng.shuffle(pool)
    for i, m in enumerate(meshes):
        if leave and rng.random() < 0.7:
            m.irqs = None
            continue
        k = m.ndtcs
        mode = "distinct"
        if k > 1:
            r = rng.random()
            mode = "all" if r < 0.25 else "some" if r < 0.45 else "distinct"
            if force_shared and i == 0 and mode == "distinct":
                mode = rng.choice(("all", "some"))
        if mode == "all":
            spi = pool.pop()
            m.irqs = [spi] * k
        elif mode == "some":
            m.irqs = [pool.pop() for _ in range(k)]
            a, b2 = rng.sample(range(k), 2)
            m.irqs[b2] = m.irqs[a]
        else:
            m.irqs = [pool.pop() for _ in range(k)]


def assign_uids(rng, meshes):
    if rng.random() < 0.15:
        return          # the model's default: the mesh index
    if rng.random() < 0.85:
        uids = rng.sample(range(32), len(meshes))
    else:
        uids = rng.sample(range(32), len(meshes) - 1) + [rng.randrange(32, 1 << 32)]
        rng.shuffle(uids)
    for m, u in zip(meshes, uids):
        m.uid = u


def generate(seed, hmax=None):
    """(text, [mesh facts]) of the file for seed."""
    if hmax is None:
        hmax = max_hnfs()
    rng = random.Random(seed)
    corner = CORNERS[seed % len(CORNERS)]
    if corner == "three-meshes":
        n = 3
    else:
        n = weighted(rng, ((1, 60), (2, 25), (3, 15)))
    meshes = [gen_mesh(rng, corner, hmax)]
    for _ in range(n - 1):
        meshes.append(gen_mesh(rng, "random", hmax))
    assign_irqs(rng, meshes, corner == "shared-irq")
    for m in meshes:
        place_root(rng, m)
        place_size(rng, m)
    rng.shuffle(meshes)
    assign_uids(rng, meshes)
    out = [f"# randmesh.py seed {seed}: corner {corner}, {n} mesh(es)",
           f"# reproduce: tools/testing/vm/randmesh.py {seed}"]
    facts = []
    for i, m in enumerate(meshes):
        lines = emit(rng, m)
        f = dict(m.facts)
        f["index"] = i
        facts.append(f)
        out.append("")
        out.append("#@expect " + " ".join(f"{k}={v}" for k, v in f.items()))
        out.extend(lines)
    return "\n".join(out) + "\n", facts


def summary(seed, facts):
    parts = []
    for f in facts:
        parts.append(f"{f['x']}x{f['y']} {f['rev']} {f['hnfs']} HN-F "
                     f"{f['dtcs']} DTC uid {f['uid']} irqs {f['irqs']}")
    return f"seed {seed} ({CORNERS[seed % len(CORNERS)]}): " + "; ".join(parts)


def seed_arg(s):
    v = int(s, 0)
    if v < 0:
        raise argparse.ArgumentTypeError("a seed is a non-negative integer")
    return v


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n", 1)[0],
        epilog="See the module docstring (head of this file) for what varies.")
    ap.add_argument("seed", type=seed_arg, nargs="?", help="the seed (an integer >= 0)")
    ap.add_argument("-o", "--output", help="write the file here (default: stdout)")
    ap.add_argument("--stream", nargs=2, type=seed_arg, metavar=("FIRST", "COUNT"),
                    help="the files of COUNT seeds from FIRST, each after '#@seed <seed>'")
    ap.add_argument("--summary", action="store_true",
                    help="one line about the file instead of the file")
    ap.add_argument("--break", dest="brk", choices=BREAKS,
                    help="for the harness's self-test: files that break a rule (overlap: "
                    "device blocks that collide; domains: a DTC domain in pieces; dtc-port: "
                    "a DTC on an HN-I port; hnf-max: one HN-F more than the driver's "
                    "maximum; lids: HN-F logical ids 1..n)")
    a = ap.parse_args()
    global BREAK
    BREAK = a.brk
    hmax = max_hnfs()
    if a.stream:
        if a.seed is not None or a.output or a.summary:
            ap.error("--stream takes no other argument")
        first, count = a.stream
        w = sys.stdout.write
        for s in range(first, first + count):
            w(f"#@seed {s}\n")
            w(generate(s, hmax)[0])
        return 0
    if a.seed is None:
        ap.error("a seed is required")
    text, facts = generate(a.seed, hmax)
    if a.summary:
        text = summary(a.seed, facts) + "\n"
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
