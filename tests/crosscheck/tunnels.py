#!/usr/bin/env python3
"""Cross-check of gbpdump's tunnel walking against tshark and tcpdump.

For every frame of the captures given (fixtures/tunnels.pcap, gpe.pcap, ...):

 - tshark (Wireshark's own dissectors, no plugin, no decode-as: Wireshark
   finds VXLAN inside GRE, ERSPAN I/II/III, Geneve, IP in IP, MPLS and VXLAN
   by itself, and VXLAN-GPE on 4790) has VXLAN fields (vxlan.vni) in exactly
   the frames where `gbpdump --json` prints a "vxlan" object, with the same
   VNI and flags for the first header (vxlan.vni, vxlan.flags, first
   occurrence; for a header Wireshark reads as GPE, vxlan.flags is the
   first byte alone and vxlan.next_proto the Next Protocol);
 - the tunnel layers before it agree: tshark's frame.protocols up to the
   first vxlan against gbpdump's "encap" types (ERSPAN compared as one kind:
   Wireshark names all three "erspan");
 - nested VXLAN: gbpdump's first header and its "nested" headers are the
   first VNIs of tshark's list, as many as gbpdump decodes (at most 1 +
   VXGBP_MAX_NESTED); a deeper chain carries the tunnel.depth finding;
 - tcpdump -v, where it prints a VXLAN or VXLAN-GPE header (inside GRE,
   Geneve, VXLAN, IP in IP, MPLS; tcpdump 4.99 does not decode ERSPAN's
   payload), shows the same first VNI and flags (its "(0x88)" is byte 0).

usage: tunnels.py GBPDUMP TSHARK_SH CAPTURE...
  TSHARK_SH is tests/tshark/tshark.sh (runs tshark as nobody when root).
"""
import json
import os
import re
import shutil
import subprocess
import sys

MAX_NESTED = 3  # VXGBP_MAX_NESTED

TSHARK_FIELDS = ["frame.number", "vxlan.vni", "vxlan.flags", "vxlan.next_proto",
                 "frame.protocols"]


def tshark_rows(tshark_sh, path):
    cmd = ["sh", tshark_sh, "none", "-n", "-r", "-", "-T", "fields",
           "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=,"]
    for f in TSHARK_FIELDS:
        cmd += ["-e", f]
    with open(path, "rb") as cap:
        res = subprocess.run(cmd, stdin=cap, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"tshark failed on {path}: {res.stderr.strip()}")
    rows = {}
    for line in res.stdout.splitlines():
        parts = line.split("\t")
        parts += [""] * (len(TSHARK_FIELDS) - len(parts))
        num, vnis, flags, np, protos = parts[:5]
        rows[int(num)] = {
            "vnis": [int(v, 0) for v in vnis.split(",") if v],
            "flags": [int(v, 0) for v in flags.split(",") if v],
            "next_proto": int(np.split(",")[0], 0) if np else None,
            "protocols": protos.split(":") if protos else [],
        }
    return rows


def tshark_encap(protos):
    """The tunnel layers before the first vxlan, named as gbpdump's types."""
    out, i = [], 0
    end = protos.index("vxlan") if "vxlan" in protos else len(protos)
    while i < end:
        p = protos[i]
        nxt = protos[i + 1] if i + 1 < end else None
        if p == "gre":
            out.append("erspan" if nxt == "erspan" else "gre")
        elif p == "geneve":
            out.append("geneve")
        elif p == "mpls":
            out.append("mpls")
        elif p in ("ip", "ipv6") and nxt in ("ip", "ipv6"):
            out.append("ip")
        i += 1
    return out


def tcpdump_packets(path):
    """tcpdump -v text of each packet, in order; None without tcpdump."""
    if not shutil.which("tcpdump"):
        return None
    with open(path, "rb") as cap:
        res = subprocess.run(["tcpdump", "-nr", "-", "-v", "-tt"], stdin=cap,
                             capture_output=True, text=True)
    pkts = []
    for line in res.stdout.splitlines():
        if line[:1].isdigit():
            pkts.append(line)
        elif pkts:
            pkts[-1] += "\n" + line
    return pkts


VX_RE = re.compile(r"VXLAN, flags \[[^\]]*\] \((0x[0-9a-f]+)\), vni (\d+)")
GPE_RE = re.compile(r"VXLAN-GPE, flags \[([A-Z]*)\], vni (\d+)")
GPE_LETTERS = {"I": 0x0800, "P": 0x0400, "B": 0x0200, "O": 0x0100}


def tcpdump_first(text):
    """(kind, flags byte 0 or GPE flag bits, vni) of the first VXLAN header."""
    vx, gpe = VX_RE.search(text), GPE_RE.search(text)
    if vx and (not gpe or vx.start() < gpe.start()):
        return "vxlan", int(vx.group(1), 16), int(vx.group(2))
    if gpe:
        return "gpe", sum(GPE_LETTERS.get(c, 0) for c in gpe.group(1)), int(gpe.group(2))
    return None


def check_tshark(n, fr, t, problems):
    vx = fr.get("vxlan")
    if vx is None and not t["vnis"]:
        return 0
    if vx is None:
        problems.append(f"frame {n}: tshark decodes VXLAN (vni {t['vnis'][0]}), "
                        f"gbpdump does not")
        return 0
    if not t["vnis"]:
        problems.append(f"frame {n}: gbpdump decodes VXLAN (vni {vx['vni']}), "
                        f"tshark does not")
        return 0
    if vx["vni"] != t["vnis"][0]:
        problems.append(f"frame {n}: vni: gbpdump {vx['vni']}, tshark {t['vnis'][0]}")
    tflags = t["flags"][0] if t["flags"] else None
    if t["next_proto"] is not None:  # Wireshark read it as GPE: byte 0 only
        if tflags is None or vx["flags"] >> 8 != tflags:
            problems.append(f"frame {n}: GPE flags: gbpdump {vx['flags']:#06x}, "
                            f"tshark byte 0 {tflags!r}")
        if vx.get("kind") != "gpe" or vx.get("next_proto") != t["next_proto"]:
            problems.append(f"frame {n}: GPE next protocol: gbpdump "
                            f"{vx.get('kind')}/{vx.get('next_proto')}, tshark "
                            f"{t['next_proto']}")
    elif vx["flags"] != tflags:
        problems.append(f"frame {n}: flags: gbpdump {vx['flags']:#06x}, tshark "
                        f"{tflags if tflags is None else hex(tflags)}")
    return 1


def check_layers(n, fr, t, problems):
    if fr.get("vxlan") is None or not t["vnis"]:
        return
    ours = [e["type"][:6] if e["type"].startswith("erspan") else e["type"]
            for e in fr.get("encap", [])]
    theirs = tshark_encap(t["protocols"])
    if ours != theirs:
        problems.append(f"frame {n}: tunnel layers: gbpdump {ours}, tshark {theirs} "
                        f"({':'.join(t['protocols'])})")
    mine = [fr["vxlan"]["vni"]] + [x["vxlan"]["vni"] for x in fr.get("nested", [])]
    if mine != t["vnis"][:len(mine)]:
        problems.append(f"frame {n}: VXLAN headers: gbpdump {mine}, tshark {t['vnis']}")
    deeper = len(t["vnis"]) > 1 + MAX_NESTED
    if len(mine) < min(len(t["vnis"]), 1 + MAX_NESTED):
        problems.append(f"frame {n}: gbpdump decodes {len(mine)} VXLAN headers of "
                        f"{len(t['vnis'])} (tshark {t['vnis']})")
    if deeper != ("tunnel.depth" in fr.get("findings", [])):
        problems.append(f"frame {n}: {len(t['vnis'])} VXLAN headers, tunnel.depth "
                        f"{'missing' if deeper else 'reported'}")


def check_tcpdump(n, fr, text, problems):
    first = tcpdump_first(text)
    vx = fr.get("vxlan")
    if first is None:
        return 0
    if vx is None:
        problems.append(f"frame {n}: tcpdump decodes VXLAN, gbpdump does not")
        return 0
    kind, flags, vni = first
    if vni != vx["vni"]:
        problems.append(f"frame {n}: vni: gbpdump {vx['vni']}, tcpdump {vni}")
    mine = vx["flags"] >> 8 if kind == "vxlan" else vx["flags"] & 0x0f00
    if mine != flags:
        problems.append(f"frame {n}: {kind} flags: gbpdump {vx['flags']:#06x}, "
                        f"tcpdump {flags:#x}")
    return 1


def check(gbpdump, tshark_sh, path):
    out = subprocess.run([gbpdump, "-r", path, "--json"], capture_output=True, text=True)
    ours = [json.loads(line) for line in out.stdout.splitlines()]
    theirs = tshark_rows(tshark_sh, path)
    tcpd = tcpdump_packets(path)
    problems, n_ts, n_td = [], 0, 0
    if len(ours) != len(theirs):
        problems.append(f"gbpdump printed {len(ours)} frames, tshark {len(theirs)}")
    for fr in ours:
        n = fr["frame"]
        t = theirs.get(n)
        if t is None:
            problems.append(f"frame {n}: tshark did not list it")
            continue
        n_ts += check_tshark(n, fr, t, problems)
        check_layers(n, fr, t, problems)
        if tcpd is not None and n <= len(tcpd):
            n_td += check_tcpdump(n, fr, tcpd[n - 1], problems)
    return n_ts, n_td, tcpd is not None, problems


def main():
    if len(sys.argv) < 4:
        print(__doc__.strip().splitlines()[-2])
        return 2
    gbpdump, tshark_sh, caps = sys.argv[1], sys.argv[2], sys.argv[3:]
    total, bad = 0, 0
    for cap in caps:
        n_ts, n_td, have_td, problems = check(gbpdump, tshark_sh, cap)
        total += n_ts
        for p in problems:
            print(f"{os.path.basename(cap)}: {p}")
        bad += len(problems)
        td = f"{n_td} with tcpdump" if have_td else "tcpdump not installed"
        print(f"{os.path.basename(cap)}: {n_ts} VXLAN frames compared with tshark, "
              f"{td}, {len(problems)} disagreements")
    if total == 0:
        print("no VXLAN frame was compared: the check checked nothing")
        return 1
    print(f"{total} frames agree" if not bad else f"{bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
