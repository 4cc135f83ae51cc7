#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""The flows gbpdump --policy denies are exactly those built to be denied.

    denied.py GBPDUMP FIXTURES_DIR

fixtures/policy/make-fixtures.sh declares every flow of policy.pcap with
the verdict web.policy must give it and writes the denied ones to
denied.txt (first frame, VNI, protocol, initiator, port, responder, port,
bypassed).  This runs gbpdump --json --policy web.policy and compares its
denied flows with that list, both ways, and the summary's counts with the
list's.  A flow missing, one too many, another first frame, initiator,
responder or bypass: a failure each.
"""
import json
import subprocess
import sys

PROTO = {"tcp": 6, "udp": 17, "icmp": 1}


def expected(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            first, vni, proto, src, sport, dst, dport, byp = line.split()
            rows[int(first)] = (int(vni), PROTO[proto], src, int(sport), dst, int(dport),
                                byp == "yes")
    return rows


def main():
    gbpdump, fix = sys.argv[1], sys.argv[2]
    want = expected(f"{fix}/policy/denied.txt")
    run = subprocess.run([gbpdump, "-r", "policy/policy.pcap", "--json", "--groups",
                          "policy/groups.txt", "--policy", "policy/web.policy"],
                         cwd=fix, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        print(f"gbpdump exited {run.returncode}: {run.stderr}")
        return 1
    audit = json.loads(run.stdout)["policy"]
    got = {}
    for f in audit["denied_flows"]:
        got[f["first_frame"]] = (f["vni"], f["proto"], f["src_addr"], f["sport"],
                                 f["dst_addr"], f["dport"], f["a_frames"] > 0)
    bad = 0
    for first in sorted(set(want) | set(got)):
        if want.get(first) != got.get(first):
            print(f"frame {first}: built to be {want.get(first)}, gbpdump says {got.get(first)}")
            bad += 1
    bypassed = sum(1 for w in want.values() if w[6])
    if audit["denied"] != len(want) or audit["bypassed"] != bypassed:
        print(f"summary: denied {audit['denied']} bypassed {audit['bypassed']}, "
              f"built {len(want)} and {bypassed}")
        bad += 1
    if audit["allowed"] + audit["denied"] != audit["flows"]:
        print(f"summary: {audit['allowed']} allowed + {audit['denied']} denied != "
              f"{audit['flows']} flows")
        bad += 1
    print(f"{len(got)} denied flows ({bypassed} bypassed) checked against "
          f"make-fixtures.sh's {len(want)}: {'FAIL' if bad else 'ok'}")
    return 1 if bad else 0


sys.exit(main())
