#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""meshgen.py: place CMN-600 model meshes in a QEMU arm64 guest.

Reads a mesh file (format: Documentation/internals.rst, "Mesh description
format"), gives every mesh a physical ``base=`` for one firmware flavour and
writes, into --out-dir:

  mesh         the resolved mesh file: the input with ``base=``, ``root=`` and
               ``uid=`` on every ``mesh`` line and ``irq=`` on every DTC node
               line (values the firmware description below also uses), for
               the model's debugfs ``load`` file; a DTC with ``irq=none``
               keeps it and gets no interrupt in the firmware (a fault); one
               with ``irq=defer`` keeps it and gets an interrupt that Linux
               can never resolve (a fault, see "Deferred interrupts" below)
  cmn.dtsi     (--fw dt) a ``/ { ... };`` block to append to the dts of QEMU's
               own dumped DTB: a reserved-memory no-map region per mesh and an
               ``arm,cmn-600`` node per mesh (reg, one SPI per DTC in DTC-lid
               order, arm,root-node)
  ssdt-cmn.asl (--fw acpi) an SSDT with one ``ARMHC600`` device per mesh:
               _UID, _CRS = QWordMemory(config region), QWordMemory(root node,
               16 KiB), one Interrupt per DTC in DTC-lid order (GSIV = SPI+32)

Two DTCs of one mesh may give the same ``irq=``: their shared line then
appears once per DTC in the interrupt list (DT ``interrupts``, ACPI
``Interrupt`` descriptors), as on a CMN-600 whose DTC interrupts are wired
to one SPI. Meshes never share an SPI.
  boot.env     shell variables for the boot: MEM_MB (QEMU -m), NMESH, BASES

Deferred interrupts: a DTC with ``irq=defer`` is given an interrupt of a
controller that never gets an irq domain, so that the kernel's lookup of it
(``platform_get_irq*()``) returns -EPROBE_DEFER for as long as the guest
runs, and the driver's probe is deferred. DT: the mesh node lists its
interrupts with ``interrupts-extended``, the GIC (``GIC_PATH``) for the
others and, for this one, a node ``cmn-defer-irqc`` marked
``interrupt-controller`` with ``status = "disabled"``: no driver sets up a
disabled controller, and fw_devlink makes no link to a disabled supplier,
so the driver core does call the driver's probe (a supplier link would
hold the probe back before it runs). ACPI: the ``Interrupt`` descriptor
names the device ``\\_SB.CMDF`` as its ResourceSource, a device with a
``_HID`` no driver matches: ``acpi_irq_get()`` finds no irq domain for it.

Placement:
  dt    regions are carved from the top of the 1 GiB of guest RAM
        (0x40000000..0x80000000), in mesh order (so the DT PMU instance
        number, the index in address order, is the mesh index); the kernel
        keeps them out of its linear map (no-map) so they can be ioremap()ed.
  acpi  the guest gets MEM_MB >= 2 GiB, Linux is booted with mem=1G, and the
        regions follow each other from 0x80000000 (RAM Linux never uses; EDK2
        allocates from the top of RAM, far above them).

``numa=<n>`` on a mesh line becomes ``numa-node-id = <n>`` in its DT node and
``Name (_PXM, <n>)`` in its ACPI device. The node itself (CPUs and memory of
node n) must exist in the guest: boot.sh NUMA=2 makes QEMU describe two nodes
(DT numa-node-id on cpus/memory, ACPI SRAT with proximity domain = node).

Only the Python standard library is used.
"""

import argparse
import os
import sys

RAM_BASE = 0x40000000
DT_RAM_TOP = 0x80000000        # -m 1G
DT_MAX_CARVE = 0x20000000      # keep the low 512 MiB for kernel + initrd
ACPI_BASE = 0x80000000         # first byte above mem=1G
ALIGN = 0x200000
DEFAULT_SIZE = 0x4000000
ROOT_SIZE = 0x4000
FIRST_SPI = 200                # virt uses SPIs 0..47 (+112..175 platform bus)
# QEMU's virt GIC (v2 and v3) wires 256 SPI lines, but its GICD_TYPER says
# ITLinesNumber 7: INTIDs up to 255, SPIs 0..223 (Linux: "224 SPIs
# implemented"). Linux sets up only those; SPI 224..255 stays a Group 0
# interrupt of priority 0, and raised it masks every IRQ of its CPU for
# good (a hard lockup). tools/testing/vm/selftest.sh reads GICD_TYPER from
# the QEMU it runs and checks this.
MAX_SPI = 223
GIC_PATH = "/intc@8000000"     # virt's GIC (v2 and v3), in QEMU's own DTB
DEFER_NODE = "cmn-defer-irqc"  # DT: the interrupt controller that never comes
DEFER_DEV = "CMDF"             # ACPI: likewise, \_SB.CMDF
DEFER_HID = "CMNH0DEF"         # its _HID, which no driver matches
REVS = ("r1p0", "r1p1", "r1p2", "r1p3", "r2p0", "r3p0", "r3p1")


class MeshError(Exception):
    pass


def num(s, what, lineno):
    try:
        return int(s, 0)
    except ValueError:
        raise MeshError(f"line {lineno}: {what}: not a number: {s!r}") from None


class Mesh:
    def __init__(self, index, lineno):
        self.index = index
        self.lineno = lineno
        self.opts = {}          # key -> str, in input order
        self.nodes = []         # dicts: type x y p d opts lineno line_index
        self.line_index = None  # index into the output line list

    def opt_int(self, key, default):
        if key in self.opts:
            return num(self.opts[key], f"mesh {key}", self.lineno)
        return default


def split_opts(tokens, lineno):
    pos, opts = [], {}
    for t in tokens:
        if "=" in t:
            k, v = t.split("=", 1)
            if not k or not v:
                raise MeshError(f"line {lineno}: bad option {t!r}")
            opts[k] = v
        else:
            pos.append(t)
    return pos, opts


def parse(text):
    """Return (lines, meshes): lines keeps every input line (comments too)
    so the resolved file stays readable; meshes refer into it."""
    lines, meshes = [], []
    for lineno, raw in enumerate(text.splitlines(), 1):
        lines.append(raw)
        body = raw.split("#", 1)[0].split()
        if not body:
            continue
        kw, rest = body[0], body[1:]
        pos, opts = split_opts(rest, lineno)
        if kw == "mesh":
            if pos:
                raise MeshError(f"line {lineno}: mesh takes only key=value options")
            m = Mesh(len(meshes), lineno)
            m.opts = opts
            m.line_index = len(lines) - 1
            for k in ("x", "y"):
                v = m.opt_int(k, None)
                if v is None or not 1 <= v <= 8:
                    raise MeshError(f"line {lineno}: mesh needs {k}=1..8")
            if "rev" in opts and opts["rev"] not in REVS:
                raise MeshError(f"line {lineno}: unknown rev={opts['rev']}")
            meshes.append(m)
            continue
        if not meshes:
            raise MeshError(f"line {lineno}: '{kw}' before the first mesh line")
        m = meshes[-1]
        if kw == "node":
            if len(pos) != 5:
                raise MeshError(f"line {lineno}: node <type> <x> <y> <p> <d> [opts]")
            m.nodes.append({
                "type": pos[0],
                "x": num(pos[1], "node x", lineno),
                "y": num(pos[2], "node y", lineno),
                "p": num(pos[3], "node p", lineno),
                "d": num(pos[4], "node d", lineno),
                "opts": opts, "lineno": lineno,
                "line_index": len(lines) - 1,
            })
        elif kw in ("port", "domain"):
            pass                # not needed for placement; the model checks
        else:
            print(f"meshgen: line {lineno}: unknown statement '{kw}' "
                  "passed through", file=sys.stderr)
    if not meshes:
        raise MeshError("no mesh line")
    return lines, meshes


def default_root(m):
    """First free 16 KiB slot of XP (0,0): slot 0 is the XP itself, a node at
    port p device d of XP (0,0) takes slot 1 + 2p + d (internals.rst)."""
    used = {1 + 2 * n["p"] + n["d"] for n in m.nodes
            if n["x"] == 0 and n["y"] == 0}
    for slot in range(1, 64):
        if slot not in used:
            return slot * ROOT_SIZE
    raise MeshError(f"line {m.lineno}: no free slot in XP (0,0) for the root")


def dtcs(m):
    """DTC nodes sorted by logical id (default: order of the dtc lines),
    leaving out those with irq=none: the firmware describes no interrupt
    for them (a fault), and they keep irq=none in the resolved file. Those
    with irq=defer stay (the firmware lists an interrupt for them)."""
    out = []
    for i, n in enumerate(x for x in m.nodes if x["type"] == "dtc"):
        lid = num(n["opts"]["lid"], "dtc lid", n["lineno"]) if "lid" in n["opts"] else i
        out.append((lid, n))
    out.sort(key=lambda t: t[0])
    lids = [lid for lid, _ in out]
    if len(set(lids)) != len(lids):
        raise MeshError(f"line {m.lineno}: duplicate DTC lid")
    return [(lid, n) for lid, n in out if n["opts"].get("irq") != "none"]


def align_up(v, a):
    return (v + a - 1) & ~(a - 1)


def resolve(meshes, fw):
    """Fill in base/root/uid/irq; returns the MEM_MB for QEMU."""
    # DTCs of one mesh may share an SPI (one interrupt line, several DTCs:
    # the drivers chain them); two meshes never share one (the drivers
    # request their lines without IRQF_SHARED)
    used_spis = {}
    for m in meshes:
        for _, n in dtcs(m):
            if "irq" in n["opts"] and n["opts"]["irq"] != "defer":
                spi = num(n["opts"]["irq"], "dtc irq", n["lineno"])
                if not 0 <= spi <= MAX_SPI:
                    raise MeshError(f"line {n['lineno']}: irq={spi}: the guest's GIC (QEMU "
                                    f"virt) has SPIs 0..{MAX_SPI} only")
                if used_spis.get(spi, m.index) != m.index:
                    raise MeshError(f"line {n['lineno']}: SPI {spi} is already used by "
                                    f"mesh {used_spis[spi]}")
                used_spis[spi] = m.index
    next_spi = FIRST_SPI
    uids = set()
    # DT: one carve-out at the top of RAM, meshes ascending inside it, so
    # that address order (the DT PMU instance number) is mesh order.
    total = 0
    for m in meshes:
        if "base" not in m.opts:
            total = align_up(total + m.opt_int("size", DEFAULT_SIZE), ALIGN)
    dt_cur = (DT_RAM_TOP - total) & ~(ALIGN - 1)
    acpi_cur = ACPI_BASE
    for m in meshes:
        m.size = m.opt_int("size", DEFAULT_SIZE)
        if m.size <= 0 or m.size % ROOT_SIZE:
            raise MeshError(f"line {m.lineno}: size must be a positive multiple of 16 KiB")
        m.root = m.opt_int("root", None)
        if m.root is None:
            m.root = default_root(m)
        if m.root % ROOT_SIZE or m.root + ROOT_SIZE > m.size:
            raise MeshError(f"line {m.lineno}: root=0x{m.root:x} not a 16 KiB block inside the region")
        m.uid = m.opt_int("uid", m.index)
        m.numa = m.opt_int("numa", None)
        if m.numa is not None and not 0 <= m.numa < 64:
            raise MeshError(f"line {m.lineno}: numa={m.numa} outside 0..63")
        if m.uid in uids:
            raise MeshError(f"line {m.lineno}: uid={m.uid} used twice")
        uids.add(m.uid)
        m.base = m.opt_int("base", None)
        if m.base is None:
            if fw == "dt":
                m.base = dt_cur
                dt_cur = align_up(dt_cur + m.size, ALIGN)
            else:
                m.base = acpi_cur
                acpi_cur = align_up(acpi_cur + m.size, ALIGN)
        m.irqs = []             # SPIs the firmware gives, in DTC-lid order
        m.ints = []             # every interrupt listed: SPI, or None (defer)
        for _, n in dtcs(m):
            if n["opts"].get("irq") == "defer":
                m.ints.append(None)
                continue
            if "irq" not in n["opts"]:
                while next_spi in used_spis:
                    next_spi += 1
                if next_spi > MAX_SPI:
                    raise MeshError("out of SPIs for the DTCs")
                n["opts"]["irq"] = str(next_spi)
                used_spis[next_spi] = m.index
            m.irqs.append(num(n["opts"]["irq"], "dtc irq", n["lineno"]))
            m.ints.append(m.irqs[-1])
        if not m.ints:
            print(f"meshgen: mesh {m.index} (line {m.lineno}) has no DTC: "
                  "no interrupt described", file=sys.stderr)
    # overlap and placement checks
    spans = sorted((m.base, m.base + m.size, m.index) for m in meshes)
    for (b0, e0, i0), (b1, _, i1) in zip(spans, spans[1:]):
        if b1 < e0:
            raise MeshError(f"meshes {i0} and {i1} overlap")
    if fw == "dt":
        for m in meshes:
            if m.base < DT_RAM_TOP - DT_MAX_CARVE or m.base + m.size > DT_RAM_TOP:
                raise MeshError(
                    f"mesh {m.index}: base 0x{m.base:x} size 0x{m.size:x} is not in "
                    f"the top {DT_MAX_CARVE >> 20} MiB of the 1 GiB guest RAM")
        return DT_RAM_TOP - RAM_BASE >> 20
    top = max(m.base + m.size for m in meshes)
    if min(m.base for m in meshes) < ACPI_BASE:
        raise MeshError("acpi: a base below 0x80000000 would be inside Linux's mem=1G")
    # 512 MiB above the last region for EDK2, the kernel image and the initrd
    need = top - RAM_BASE + 0x20000000
    return max(2048, align_up(need, 0x40000000) >> 20)


def rewrite(lines, meshes):
    out = list(lines)
    for m in meshes:
        opts = dict(m.opts)
        opts["base"] = f"0x{m.base:x}"
        opts["root"] = f"0x{m.root:x}"
        opts["uid"] = str(m.uid)
        opts.setdefault("size", f"0x{m.size:x}")
        comment = ""
        if "#" in out[m.line_index]:
            comment = "  #" + out[m.line_index].split("#", 1)[1]
        out[m.line_index] = "mesh " + " ".join(f"{k}={v}" for k, v in opts.items()) + comment
        for n in m.nodes:
            if n["type"] != "dtc":
                continue
            line = out[n["line_index"]]
            code, hashpart = (line.split("#", 1) + [None])[:2]
            toks = [t for t in code.split() if not t.startswith("irq=")]
            toks.append("irq=" + n["opts"]["irq"])
            out[n["line_index"]] = " ".join(toks) + (" #" + hashpart if hashpart is not None else "")
    return "\n".join(out) + "\n"


def dtsi(meshes, src):
    r = [f"\n/* ---- meshgen.py: CMN-600 model meshes from {src} ---- */",
         "/ {", "\treserved-memory {", "\t\t#address-cells = <2>;",
         "\t\t#size-cells = <2>;", "\t\tranges;"]
    for m in meshes:
        r += [f"\t\tcmn_model{m.index}: cmn-model@{m.base:x} {{",
              f"\t\t\treg = <0x{m.base >> 32:x} 0x{m.base & 0xffffffff:x} "
              f"0x{m.size >> 32:x} 0x{m.size & 0xffffffff:x}>;",
              "\t\t\tno-map;", "\t\t};"]
    r.append("\t};")
    if any(None in m.ints for m in meshes):
        r += [f"\tcmn_defer_irqc: {DEFER_NODE} {{",
              "\t\t/* no driver sets it up: its interrupts defer for ever */",
              "\t\tinterrupt-controller;", "\t\t#interrupt-cells = <1>;",
              '\t\tstatus = "disabled";', "\t};"]
    for m in meshes:
        r += [f"\tcmn@{m.base:x} {{", '\t\tcompatible = "arm,cmn-600";',
              f"\t\treg = <0x{m.base >> 32:x} 0x{m.base & 0xffffffff:x} "
              f"0x{m.size >> 32:x} 0x{m.size & 0xffffffff:x}>;"]
        if m.numa is not None:
            r.append(f"\t\tnuma-node-id = <{m.numa}>;")
        if None in m.ints:
            r.append("\t\tinterrupts-extended = " +
                     ", ".join("<&cmn_defer_irqc 0>" if spi is None else
                               f"<&{{{GIC_PATH}}} 0x0 {spi} 0x4>" for spi in m.ints) +
                     ";\t/* DTC-lid order */")
        elif m.irqs:
            r.append("\t\tinterrupts = " +
                     ", ".join(f"<0x0 {spi} 0x4>" for spi in m.irqs) +
                     ";\t/* GIC_SPI, level high, DTC-lid order */")
        r += [f"\t\tarm,root-node = <0x{m.root:x}>;", "\t};"]
    r.append("};")
    return "\n".join(r) + "\n"


def asl(meshes, src):
    r = [f"/* meshgen.py: CMN-600 model meshes from {src} */",
         'DefinitionBlock ("", "SSDT", 2, "CMNHNF", "CMNMODEL", 1)', "{",
         "\tScope (\\_SB)", "\t{"]
    if any(None in m.ints for m in meshes):
        r += [f"\t\tDevice ({DEFER_DEV})", "\t\t{",
              "\t\t\t/* an interrupt controller without a driver */",
              f'\t\t\tName (_HID, "{DEFER_HID}")', "\t\t\tName (_UID, 0)",
              "\t\t}"]
    for m in meshes:
        end = m.base + m.size - 1
        rb = m.base + m.root
        r += [f"\t\tDevice (CM{m.index:02X})", "\t\t{",
              '\t\t\tName (_HID, "ARMHC600")',
              f"\t\t\tName (_UID, {m.uid})"]
        if m.numa is not None:
            r.append(f"\t\t\tName (_PXM, {m.numa})")
        r += [
              "\t\t\tName (_CRS, ResourceTemplate ()", "\t\t\t{",
              "\t\t\t\tQWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed,",
              "\t\t\t\t\tNonCacheable, ReadWrite, 0x0,",
              f"\t\t\t\t\t0x{m.base:x}, 0x{end:x}, 0x0, 0x{m.size:x})",
              "\t\t\t\tQWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed,",
              "\t\t\t\t\tNonCacheable, ReadWrite, 0x0,",
              f"\t\t\t\t\t0x{rb:x}, 0x{rb + ROOT_SIZE - 1:x}, 0x0, 0x{ROOT_SIZE:x})"]
        for spi in m.ints:
            if spi is None:
                r.append("\t\t\t\tInterrupt (ResourceConsumer, Level, ActiveHigh, "
                         f'Exclusive, 0, "\\\\_SB.{DEFER_DEV}") {{ 0 }}')
            else:
                r.append("\t\t\t\tInterrupt (ResourceConsumer, Level, ActiveHigh, "
                         f"Exclusive) {{ {spi + 32} }}")
        r += ["\t\t\t})", "\t\t}"]
    r += ["\t}", "}"]
    return "\n".join(r) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--fw", choices=("dt", "acpi"), required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("meshfile")
    a = ap.parse_args()
    try:
        with open(a.meshfile, encoding="utf-8") as f:
            lines, meshes = parse(f.read())
        mem_mb = resolve(meshes, a.fw)
    except (OSError, MeshError) as e:
        print(f"meshgen: {a.meshfile}: {e}", file=sys.stderr)
        return 1
    os.makedirs(a.out_dir, exist_ok=True)
    src = os.path.basename(a.meshfile)
    with open(os.path.join(a.out_dir, "mesh"), "w", encoding="utf-8") as f:
        f.write(f"# resolved by meshgen.py from {src} for fw={a.fw}\n")
        f.write(rewrite(lines, meshes))
    if a.fw == "dt":
        with open(os.path.join(a.out_dir, "cmn.dtsi"), "w", encoding="utf-8") as f:
            f.write(dtsi(meshes, src))
    else:
        with open(os.path.join(a.out_dir, "ssdt-cmn.asl"), "w", encoding="utf-8") as f:
            f.write(asl(meshes, src))
    with open(os.path.join(a.out_dir, "boot.env"), "w", encoding="utf-8") as f:
        f.write(f"MEM_MB={mem_mb}\nNMESH={len(meshes)}\n")
        f.write("BASES='" + " ".join(f"0x{m.base:x}" for m in meshes) + "'\n")
        f.write("SPIS='" + " ".join(",".join(map(str, m.irqs)) or "-" for m in meshes) + "'\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
