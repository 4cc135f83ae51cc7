#!/usr/bin/env python3
"""Independent cross-check of gbpdump against tshark's own VXLAN dissector.

For every capture given, frame by frame: gbpdump --json and tshark's
built-in vxlan.* fields (vxlan.flags, vxlan.flag_g, vxlan.gbp, vxlan.flag_d,
vxlan.flag_a, vxlan.vni; with -d udp.port==8472,vxlan) must agree wherever
both decode a VXLAN header, and must agree on which frames carry one.  The
G bit is compared as gbpdump says it: "gbp" is null exactly when tshark's
vxlan.flag_g is clear (the raw flag word alone would not catch a gbpdump
that tests the wrong bit).

tshark runs through tests/tshark/tshark.sh (without the plugin): as user
nobody when this runs as root, with the capture on standard input.

usage: tshark_vxlan.py GBPDUMP CAPTURE...
"""
import json
import os
import subprocess
import sys


TSHARK_SH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tshark",
                         "tshark.sh")


def tshark_fields(path):
    fields = ["frame.number", "vxlan.flags", "vxlan.flag_g", "vxlan.gbp", "vxlan.flag_d",
              "vxlan.flag_a", "vxlan.vni", "_ws.malformed"]
    cmd = ["sh", TSHARK_SH, "none", "-n", "-r", "-", "-d", "udp.port==8472,vxlan",
           "-T", "fields", "-E", "separator=\t", "-E", "occurrence=f"]
    for f in fields:
        cmd += ["-e", f]
    with open(path, "rb") as f:
        res = subprocess.run(cmd, stdin=f, capture_output=True, text=True)
    if res.returncode != 0 and not res.stdout:
        raise SystemExit(f"{path}: tshark failed: {res.stderr.strip()}")
    rows = {}
    for line in res.stdout.splitlines():
        parts = line.split("\t")
        parts += [""] * (len(fields) - len(parts))
        rows[int(parts[0])] = parts[1:]
    return rows, res.returncode


def as_int(s):
    return int(s, 0) if s else None


def as_bool(s):
    # tshark prints booleans as True/False (or 1/0 in older versions)
    return {"True": True, "1": True, "False": False, "0": False}.get(s)


def check(gbpdump, path):
    out = subprocess.run([gbpdump, "-r", path, "--json"], capture_output=True, text=True)
    ours = [json.loads(line) for line in out.stdout.splitlines()]
    theirs, _ = tshark_fields(path)
    problems, compared = [], 0
    for fr in ours:
        n = fr["frame"]
        vx = fr["vxlan"]
        t = theirs.get(n)
        if t is None:
            problems.append(f"frame {n}: tshark did not list it")
            continue
        flags, g, gbp, d, a, vni, malformed = t
        if vx is None:
            # truncated/malformed frames: tshark may still pick fields out of
            # a partial header; only require it to agree when we decode none
            # because the frame is not VXLAN at all
            # (tshark also decodes VXLAN-GPE on 4790 into vxlan.flags; that
            # is another protocol, so only the VXLAN ports count here)
            outer = fr.get("outer") or {}
            if flags and not fr.get("error") and outer.get("dport") in (4789, 8472):
                problems.append(f"frame {n}: tshark decodes VXLAN, gbpdump does not")
            continue
        outer = fr.get("outer") or {}
        if not flags:
            # tshark gives up on a frame it finds malformed below VXLAN (e.g. a
            # CIPSO option it rejects) and keeps a first fragment for
            # reassembly; gbpdump decodes both, so there is nothing to compare
            if malformed or outer.get("more_frags") or outer.get("frag_off"):
                continue
            problems.append(f"frame {n}: gbpdump decodes VXLAN, tshark does not")
            continue
        compared += 1
        want = {
            "flags": (vx["flags"], as_int(flags)),
            "vni": (vx["vni"], as_int(vni)),
        }
        if vx.get("kind", "vxlan") != "vxlan":
            # VXLAN-GPE: no Group Policy ID, G is a reserved bit; Wireshark's
            # GPE dissector (4790) gives its flags as byte 0 alone
            tf = as_int(flags)
            want["flags"] = (vx["flags"] >> 8 if tf < 0x100 else vx["flags"], tf)
            want["no gbp"] = (vx.get("gbp") is None, True)
            problems += [f"frame {n}: {k}: gbpdump {m!r}, tshark {t!r}"
                         for k, (m, t) in want.items() if m != t]
            continue
        want["gbp id field"] = (vx["id_field"], as_int(gbp))
        want["D"] = (bool(vx["flags"] & 0x0040), as_bool(d))
        want["A"] = (bool(vx["flags"] & 0x0008), as_bool(a))
        # G as each tool reads it: gbpdump's "gbp" object, tshark's flag_g
        want["G (gbp not null)"] = (vx["gbp"] is not None, as_bool(g))
        if vx["gbp"] is not None:
            want["gbp.id"] = (vx["gbp"]["id"], as_int(gbp))
            want["gbp.dont_learn"] = (vx["gbp"]["dont_learn"], as_bool(d))
            want["gbp.policy_applied"] = (vx["gbp"]["policy_applied"], as_bool(a))
        for k, (mine, tsh) in want.items():
            if mine != tsh:
                problems.append(f"frame {n}: {k}: gbpdump {mine!r}, tshark {tsh!r}")
    return compared, problems


def main():
    gbpdump, caps = sys.argv[1], sys.argv[2:]
    total, bad = 0, 0
    for cap in caps:
        compared, problems = check(gbpdump, cap)
        total += compared
        for p in problems:
            print(f"{cap}: {p}")
        bad += len(problems)
        print(f"{os.path.basename(cap)}: {compared} VXLAN frames compared, "
              f"{len(problems)} disagreements")
    if total == 0:
        print("no VXLAN frame was compared: the check checked nothing")
        return 1
    print(f"{total} frames agree" if not bad else f"{bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
