#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""check_dot.py STATS.json GRAPH.dot: every group and every pair of
gbpdump --stats --json is in the DOT of gbpdump --stats --dot (a node with
the group's name and ID, an edge with the pair's frames and bytes), and the
DOT has no other edges.  Exit 0, or 1 with one line per problem."""
import json
import re
import sys


def node(g):
    return "plain" if g is None else "g%d" % g


def main():
    stats = json.load(open(sys.argv[1]))["stats"]
    dot = open(sys.argv[2]).read()
    bad = []
    nodes = dict(re.findall(r'^  (\w+) \[label="([^"]*)"', dot, re.M))
    edges = re.findall(r'^  (\w+) -> (\w+) \[label="(\d+) frames?\\n(\d+) bytes', dot, re.M)
    for g in stats["groups"]:
        gid, name = g["group"], g.get("group_name")
        n = node(gid)
        if n not in nodes:
            bad.append("group %s: no node %s" % (gid, n))
        elif gid is not None and ("0x%04x" % gid not in nodes[n] or
                                  (name and name not in nodes[n])):
            bad.append("group %s: label %r lacks its ID or name" % (gid, nodes[n]))
    want = []
    for c in stats["matrix"]:
        s = node(c["src"])
        d = "unknown" if c["dst"] is None else node(c["dst"])
        want.append((s, d, str(c["frames"]), str(c["bytes"])))
        for x in (s, d):
            if x not in nodes:
                bad.append("pair %s -> %s: no node %s" % (s, d, x))
    for w in want:
        if w not in edges:
            bad.append("pair %s -> %s (%s frames, %s bytes): no such edge" % w)
    for e in edges:
        if e not in want:
            bad.append("edge %s -> %s (%s frames, %s bytes) is not in the matrix" % e)
    for b in bad:
        print("check_dot: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
