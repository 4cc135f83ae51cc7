#!/usr/bin/env python3
# tshark_labels.py LABELCAT TSHARK PCAP...: compare, frame by frame, what
# Wireshark decodes of CIPSO (ip.cipso.*: DOI, tag types, levels of tags 1,
# 2, 5, their categories, the raw data of tags 6 and 7) and CALIPSO
# (ipv6.opt.calipso.*: DOI, level, checksum, compartment bitmap) with what
# libvxgbp decodes (labelcat).  Exit 0 when every field of every frame agrees.
# ICMP errors are left out: Wireshark also decodes the IP header quoted in
# them (with its label), libvxgbp decodes the packet's own headers only.
import subprocess
import sys

FIELDS = ["frame.number", "ip.cipso.doi", "ip.cipso.tag_type",
          "ip.cipso.sensitivity_level", "ip.cipso.categories",
          "ip.cipso.tag_data", "ipv6.opt.calipso.doi",
          "ipv6.opt.calipso.sens_level", "ipv6.opt.calipso.checksum",
          "ipv6.opt.calipso.cmpt_bitmap", "icmp.type", "icmpv6.type"]
NAMES = ["frame", "cipso doi", "tag types", "levels", "categories", "tag data",
         "calipso doi", "calipso level", "calipso checksum", "calipso categories"]


def expand(cats):
    """Wireshark's "205-200,9-5,0,1" -> sorted list of every category."""
    out = []
    for item in filter(None, cats.split(",")):
        if "-" in item:
            a, b = (int(x) for x in item.split("-"))
            out.extend(range(min(a, b), max(a, b) + 1))
        else:
            out.append(int(item))
    return sorted(out)


def bitmap(hexes):
    out = []
    for h in filter(None, hexes.split(",")):
        if h == "<MISSING>":
            continue
        for i, byte in enumerate(bytes.fromhex(h)):
            out.extend(i * 8 + k for k in range(8) if byte & (0x80 >> k))
    return sorted(out)


def norm_tshark(cols):
    cols = [c.replace("<MISSING>", "") for c in cols]
    cols[4] = expand(cols[4])
    cols[9] = bitmap(cols[9])
    cols[8] = ",".join("0x%04x" % int(x, 16) for x in filter(None, cols[8].split(",")))
    return cols


def norm_ours(cols):
    cols[4] = sorted(int(x) for x in filter(None, cols[4].split(",")))
    cols[9] = sorted(int(x) for x in filter(None, cols[9].split(",")))
    return cols


def main():
    labelcat, tshark, pcaps = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = 0
    frames = 0
    skipped = 0
    for pcap in pcaps:
        args = [tshark, "-n", "-r", pcap, "-T", "fields", "-E", "separator=|",
                "-o", "ip.check_checksum:FALSE"]
        for f in FIELDS:
            args += ["-e", f]
        ts = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        ours = subprocess.run([labelcat, pcap], capture_output=True, text=True,
                              check=True).stdout
        tl = [norm_tshark(line.split("|")) for line in ts.splitlines()]
        ol = [norm_ours(line.split("|")) for line in ours.splitlines()]
        if len(tl) != len(ol):
            print("%s: tshark has %d frames, libvxgbp %d" % (pcap, len(tl), len(ol)))
            bad += 1
            continue
        for t, o in zip(tl, ol):
            icmp = [int(x) for x in t[10].split(",") if x]
            icmp6 = [int(x) for x in t[11].split(",") if x]
            if any(x in (3, 4, 5, 11, 12) for x in icmp) or any(x < 128 for x in icmp6):
                skipped += 1
                continue
            frames += 1
            for i, name in enumerate(NAMES):
                if t[i] != o[i]:
                    print("%s frame %s: %s: tshark %r, libvxgbp %r" % (pcap, t[0], name, t[i], o[i]))
                    bad += 1
    print("%d frames compared (%d ICMP errors left out), %d differences" % (frames, skipped, bad))
    return 1 if bad or frames == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
