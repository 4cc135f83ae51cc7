#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The plugin's statistics (tshark -z vxgbp,groups) equal gbpdump --stats.

    stats_agree.py --tshark tshark.sh --plugin vxgbp.so --gbpdump gbpdump
                   [--fabric MODE] CAPTURE...

Both count by libvxgbp's tracker, which follows each frame's fabric header
(vxgbp_pkt_fabric(): through a mirror, the nested GBP header): per group,
per VNI and group to group, frames and bytes.  --fabric: the plugin's
"Fabric header" preference and gbpdump's --fabric-header, both MODE.
Exit 1 on any difference.
"""
import argparse
import json
import re
import subprocess
import sys

ROW = re.compile(r"^\s+(.+?)\s+(\d+)\s+(\d+)$")


def group_key(text):
    """A group as the plugin names it, as gbpdump's JSON does (None: none)."""
    if text.startswith("no GBP") or text == "unknown":
        return None
    return int(text, 16)


def plugin_stats(tshark, plugin, capture, fabric):
    pref = ["-o", f"vxgbp.fabric_header:{fabric}"] if fabric else []
    with open(capture, "rb") as f:
        out = subprocess.run([tshark, plugin, "-q", "-r", "-", *pref, "-z", "vxgbp,groups"],
                             stdin=f, capture_output=True, text=True, check=True).stdout
    sect, got = None, {"groups": {}, "vni": {}, "matrix": {}}
    for line in out.splitlines():
        if line.startswith("Group "):
            sect = "groups"
        elif line.startswith("VNI "):
            sect = "vni"
        elif line.startswith("Source group"):
            sect = "matrix"
        elif sect and (m := ROW.match(line)):
            name, frames, size = m.group(1), int(m.group(2)), int(m.group(3))
            if sect == "groups":
                key = group_key(name)
            elif sect == "vni":
                key = int(name)
            else:
                src, dst = name.split(" -> ")
                key = (group_key(src), group_key(dst))
            got[sect][key] = (frames, size)
    return got


def gbpdump_stats(gbpdump, capture, fabric):
    opt = ["--fabric-header", fabric] if fabric else []
    out = subprocess.run([gbpdump, "-r", capture, "--stats", "--json", *opt],
                         capture_output=True, text=True, check=True).stdout
    s = json.loads(out.splitlines()[0])["stats"]
    return {
        "groups": {g["group"]: (g["frames"], g["bytes"]) for g in s["groups"]},
        "vni": {v["vni"]: (v["frames"], v["bytes"]) for v in s["vni"]},
        # the plugin's matrix is about GBP: it leaves out plain VXLAN sources
        "matrix": {(c["src"], c["dst"]): (c["frames"], c["bytes"]) for c in s["matrix"]
                   if c["src"] is not None},
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tshark", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--gbpdump", required=True)
    ap.add_argument("--fabric")
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    bad = 0
    for cap in a.captures:
        p = plugin_stats(a.tshark, a.plugin, cap, a.fabric)
        g = gbpdump_stats(a.gbpdump, cap, a.fabric)
        diff = [sect for sect in ("groups", "vni", "matrix") if p[sect] != g[sect]]
        for sect in diff:
            print(f"{cap}: {sect}: plugin {p[sect]} gbpdump {g[sect]}")
        if not g["groups"] or not g["vni"]:
            print(f"{cap}: gbpdump counted nothing")
            diff.append("empty")
        bad |= bool(diff)
        if not diff:
            print(f"{cap} ({a.fabric or 'default'}): {len(g['groups'])} groups, "
                  f"{len(g['vni'])} VNIs, "
                  f"{len(g['matrix'])} cells agree")
    return bad


if __name__ == "__main__":
    sys.exit(main())
