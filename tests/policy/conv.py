#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Cross-check libvxgbp's flows (VXGBP_TRACK_FLOWS) with tshark's
conversation tables, an implementation nobody here wrote.

    conv.py GBPDUMP TSHARK_SH FIXTURES_DIR CAPTURE POLICY

gbpdump -v --policy lists every flow it tracked (frames and bytes each
way); tshark -z conv,tcp -z conv,udp lists the TCP and UDP conversations,
the inner ones included (tshark decodes VXLAN on 4789 itself).  Both must
give the same inner TCP/UDP conversations, with the same frames and bytes
sent by each endpoint.  Two differences in what a conversation is are
evened out first, by summing by (protocol, endpoint pair): tshark does not
tell VNIs apart, and it splits a TCP conversation into streams where a SYN
starts a new one; libvxgbp keeps one flow per 5-tuple and VNI.  The outer
VXLAN datagrams (a port 4789 or 8472 side) are left out.  ICMP flows are
not compared (tshark keys no ICMP conversations).
"""
import re
import subprocess
import sys

FLOW = re.compile(r"^frame \d+: .*?, VNI \d+, (TCP|UDP) (\S+) -> (\S+), "
                  r"frames (\d+)/(\d+), bytes (\d+)/(\d+), ")
CONV = re.compile(r"^(\S+)\s+<->\s+(\S+)\s+(\d+) (\d+) bytes\s+(\d+) (\d+) bytes")


def endpoint(text):
    """'10.0.0.1:80', '[2001:db8::1]:80' or '2001:db8::1:80' -> (addr, port)."""
    addr, port = text.rsplit(":", 1)
    return addr.strip("[]"), int(port)


def add(table, proto, a, b, fa, ba, fb, bb):
    """Frames and bytes sent by a and by b, summed under the unordered pair."""
    key = (proto, frozenset((a, b)))
    cur = table.setdefault(key, {a: [0, 0], b: [0, 0]})
    cur[a][0] += fa
    cur[a][1] += ba
    cur[b][0] += fb
    cur[b][1] += bb


def ours(gbpdump, fix, capture, policy):
    out = subprocess.run([gbpdump, "-r", capture, "-v", "--policy", policy], cwd=fix,
                         capture_output=True, text=True, check=True).stdout
    table = {}
    for line in out.splitlines():
        m = FLOW.match(line)
        if m:
            a, b = endpoint(m.group(2)), endpoint(m.group(3))
            add(table, m.group(1), a, b, int(m.group(4)), int(m.group(6)),
                int(m.group(5)), int(m.group(7)))
    return table


def theirs(tshark_sh, fix, capture):
    with open(f"{fix}/{capture}", "rb") as f:
        out = subprocess.run(["sh", tshark_sh, "none", "-r", "-", "-q", "-z", "conv,tcp",
                              "-z", "conv,udp"], stdin=f, capture_output=True, text=True,
                             check=True).stdout
    table, proto = {}, None
    for line in out.splitlines():
        if line.endswith("Conversations"):
            proto = line.split()[0]
        m = CONV.match(line)
        if not m:
            continue
        a, b = endpoint(m.group(1)), endpoint(m.group(2))
        if {a[1], b[1]} & {4789, 8472}:
            continue  # the outer VXLAN datagrams
        # "<-" is what B sent to A, "->" what A sent to B
        add(table, proto, a, b, int(m.group(5)), int(m.group(6)), int(m.group(3)),
            int(m.group(4)))
    return table


def main():
    gbpdump, tshark_sh, fix, capture, policy = sys.argv[1:6]
    mine, other = ours(gbpdump, fix, capture, policy), theirs(tshark_sh, fix, capture)
    bad = 0
    for key in sorted(set(mine) | set(other), key=str):
        if mine.get(key) != other.get(key):
            print(f"{key[0]} {sorted(key[1])}: libvxgbp {mine.get(key)}, tshark {other.get(key)}")
            bad += 1
    if not mine:
        print("no TCP/UDP flow at all: nothing compared")
        bad += 1
    print(f"{capture}: {len(mine)} TCP/UDP conversations, {len(other)} in tshark: "
          f"{'FAIL' if bad else 'same frames and bytes each way'}")
    return 1 if bad else 0


sys.exit(main())
