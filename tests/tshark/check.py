#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Cross-checks of the vxgbp Wireshark plugin.

  check.py make-cases  --gbpgen G --list cases.list --out DIR
      write one capture per line of cases.list into DIR (NAME.pcap)
  check.py cases       --tshark T --plugin P --list cases.list --dir DIR [--gbpdump D]
  check.py fixtures    --tshark T --plugin P --fixtures ROOT [--gbpdump D]
  check.py mutate      --dir DIR --out FILE
      from the first frame of every case in DIR/all.pcap write FILE with
      every truncation of it (capture cut at each length) and every
      one-byte corruption of it (each byte inverted): input for the
      no-crash test.

For every capture and frame:
  builtin  the plugin's vxgbp.* header fields equal Wireshark's own vxlan.*
           fields (second pass with --disable-protocol vxgbp and both ports
           decoded as vxlan);
  expert   the expert infos the plugin raised are exactly its vxgbp.finding
           values (one expert info per finding);
  gbpdump  (with --gbpdump) flags, VNI, group, D, A, mark and findings equal
           gbpdump --json's (cross-frame rules excepted: the plugin is
           stateless).
For cases.list, the findings of the whole capture must also be the set the
list names ("-": none, and then no expert info at all).
Exit status: 0 all agree, 1 a mismatch, 2 usage or tool failure.
"""
import argparse
import glob
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

AGG = "\x1f"
CROSS_FRAME = {"gbp.policy-reapplied", "gbp.policy-applied-cleared",
               "gbp.group-conflict", "gbp.flow-group-change"}

OURS = ["frame.number", "udp.dstport", "vxgbp.flags", "vxgbp.flags.g", "vxgbp.flags.i",
        "vxgbp.flags.d", "vxgbp.flags.a", "vxgbp.flags.reserved", "vxgbp.group",
        "vxgbp.group_reserved", "vxgbp.vni", "vxgbp.reserved", "vxgbp.mark",
        "vxgbp.verdict.gbp", "vxgbp.verdict.nogbp", "vxgbp.finding",
        "_ws.expert.message"]
BUILTIN = ["frame.number", "udp.dstport", "vxlan.flags", "vxlan.flag_g", "vxlan.flag_d",
           "vxlan.flag_a", "vxlan.flags_reserved", "vxlan.gbp", "vxlan.vni",
           "vxlan.reserved8"]

failures = []
skipped = []


def fail(where, msg):
    failures.append(f"{where}: {msg}")


def run(cmd, stdin=None):
    try:
        r = subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, check=False)
    except OSError as e:
        sys.exit(f"check.py: cannot run {cmd[0]}: {e}")
    return r


# Frame by frame, as gbpdump works: no IP reassembly (the first fragment of a
# VXLAN packet is then dissected in its own frame).
PER_FRAME = ["-o", "ip.defragment:FALSE", "-o", "ipv6.defragment:FALSE"]


def tshark_fields(args, cap, fields, extra):
    cmd = [args.tshark, args.plugin, "-n", "-r", "-", "-T", "fields",
           "-E", "aggregator=" + AGG, "-E", "occurrence=a"] + PER_FRAME + extra
    for f in fields:
        cmd += ["-e", f]
    with open(cap, "rb") as fh:
        r = run(cmd, stdin=fh)
    err = r.stderr.decode(errors="replace")
    # A capture file that ends inside a record: tshark dissects what there
    # is and exits 2; that is the capture's fault, not the plugin's.
    if r.returncode != 0 and not (r.returncode == 2 and "cut short in the middle of a packet" in err):
        sys.stderr.write(err)
        sys.exit(f"check.py: tshark failed ({r.returncode}) on {cap}")
    rows = {}
    for line in r.stdout.decode(errors="replace").splitlines():
        cols = line.split("\t")
        cols += [""] * (len(fields) - len(cols))
        row = {f: (cols[i].split(AGG) if cols[i] else []) for i, f in enumerate(fields)}
        rows[int(row["frame.number"][0])] = row
    return rows


def num(v):
    if v in ("True", "Set"):
        return 1
    if v in ("False", "Not set"):
        return 0
    return int(v, 0)


def first(row, f):
    v = row.get(f) or []
    return num(v[0]) if v else None


def check_builtin(name, ours, builtin):
    for fr, o in ours.items():
        if not o["vxgbp.flags"]:
            continue
        b = builtin.get(fr)
        where = f"{name} frame {fr}"
        if not b or not b["vxlan.flags"]:
            fail(where, "vxgbp decodes it, the built-in vxlan dissector does not")
            continue
        group = first(o, "vxgbp.group")
        if group is None:
            group = first(o, "vxgbp.group_reserved")
        pairs = [("flags", first(o, "vxgbp.flags"), first(b, "vxlan.flags")),
                 ("G", first(o, "vxgbp.flags.g"), first(b, "vxlan.flag_g")),
                 ("D", first(o, "vxgbp.flags.d"), first(b, "vxlan.flag_d")),
                 ("A", first(o, "vxgbp.flags.a"), first(b, "vxlan.flag_a")),
                 ("reserved flags", first(o, "vxgbp.flags.reserved"),
                  first(b, "vxlan.flags_reserved")),
                 ("group", group, first(b, "vxlan.gbp")),
                 ("VNI", first(o, "vxgbp.vni"), first(b, "vxlan.vni")),
                 ("reserved byte", first(o, "vxgbp.reserved"), first(b, "vxlan.reserved8"))]
        for what, x, y in pairs:
            if x != y:
                fail(where, f"{what}: vxgbp {x} != vxlan {y}")
    for fr, b in builtin.items():
        o = ours.get(fr, {})
        ports = {int(p) for p in b["udp.dstport"]}
        # Only where vxgbp is meant to decode (not e.g. VXLAN-GPE on 4790).
        if b["vxlan.flags"] and ports & {4789, 8472} and not o.get("vxgbp.flags"):
            # A header cut short: vxlan shows what there is, vxgbp (libvxgbp
            # decodes all 8 bytes or none) says why it cannot.
            if not set(o.get("vxgbp.finding", [])) & {"frame.truncated", "frame.malformed"}:
                fail(f"{name} frame {fr}", "vxlan decodes it, vxgbp does not")


def expert_ids(row, known):
    ids = []
    for m in row["_ws.expert.message"]:
        mo = re.search(r"\[([a-z0-9.-]+)\]$", m)
        if mo and mo.group(1) in known:
            ids.append(mo.group(1))
    return ids


def check_expert(name, ours, known):
    for fr, o in ours.items():
        ex = sorted(expert_ids(o, known))
        fi = sorted(o["vxgbp.finding"])
        if ex != fi:
            fail(f"{name} frame {fr}", f"expert infos {ex} != findings {fi}")


def gbpdump_frames(args, cap):
    r = run([args.gbpdump, "-r", cap, "--json"])
    if r.returncode not in (0, 1):
        sys.stderr.write(r.stderr.decode(errors="replace"))
        sys.exit(f"check.py: gbpdump failed ({r.returncode}) on {cap}")
    frames = {}
    for line in r.stdout.decode(errors="replace").splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        if "frame" in obj:
            frames[int(obj["frame"])] = obj
    return frames


def check_gbpdump(name, ours, dump):
    if not dump:
        fail(name, "gbpdump printed no frames")
    for fr, d in dump.items():
        where = f"{name} frame {fr}"
        o = ours.get(fr)
        vx = d.get("vxlan")
        want = set(d.get("findings") or []) - CROSS_FRAME
        if vx is None:
            # gbpdump stopped before a VXLAN header (or there is none);
            # whatever it found must be among the plugin's findings.
            if o and o["vxgbp.flags"] and not want <= set(o["vxgbp.finding"]):
                fail(where, f"gbpdump findings {sorted(want)} not in vxgbp's "
                            f"{sorted(o['vxgbp.finding'])}")
            continue
        if o and not o["udp.dstport"]:
            skipped.append(f"{where}: Wireshark's own dissectors stop before UDP")
            continue
        if not o or not o["vxgbp.flags"]:
            fail(where, "gbpdump decodes VXLAN, vxgbp does not")
            continue
        gbp = vx.get("gbp")
        pairs = [("flags", first(o, "vxgbp.flags"), vx.get("flags")),
                 ("VNI", first(o, "vxgbp.vni"), vx.get("vni")),
                 ("mark", first(o, "vxgbp.mark"), vx.get("mark")),
                 ("group", first(o, "vxgbp.group"), gbp["id"] if gbp else None)]
        if gbp:
            pairs += [("D", first(o, "vxgbp.flags.d"), int(bool(gbp["dont_learn"]))),
                      ("A", first(o, "vxgbp.flags.a"), int(bool(gbp["policy_applied"])))]
        for what, x, y in pairs:
            if x != y:
                fail(where, f"{what}: vxgbp {x} != gbpdump {y}")
        got = set(o["vxgbp.finding"])
        if got != want:
            fail(where, f"findings: vxgbp {sorted(got)} != gbpdump {sorted(want)}")
    for fr, o in ours.items():
        if o["vxgbp.flags"] and fr not in dump:
            fail(f"{name} frame {fr}", "vxgbp decodes it, gbpdump printed no such frame")


def known_rules(args):
    # Rule ids are the expert infos' names: vxgbp.rule.<id with _ for ->.
    r = run([args.tshark, args.plugin, "-G", "fields"])
    ids = set()
    for line in r.stdout.decode(errors="replace").splitlines():
        cols = line.split("\t")
        if len(cols) > 2 and cols[2].startswith("vxgbp.rule."):
            mo = re.search(r"\[([a-z0-9.-]+)\]$", cols[1])
            if mo:
                ids.add(mo.group(1))
    if not ids:
        sys.exit("check.py: the plugin registered no expert infos (is it loaded?)")
    return ids


def run_both(args, cap):
    ours = tshark_fields(args, cap, OURS, [])
    builtin = tshark_fields(args, cap, BUILTIN,
                            ["--disable-protocol", "vxgbp",
                             "-d", "udp.port==4789,vxlan", "-d", "udp.port==8472,vxlan"])
    return ours, builtin


def check_part(args, name, cap, ours, builtin, known):
    check_builtin(name, ours, builtin)
    check_expert(name, ours, known)
    if args.gbpdump:
        check_gbpdump(name, ours, gbpdump_frames(args, cap))


def check_capture(args, name, cap, known):
    ours, builtin = run_both(args, cap)
    check_part(args, name, cap, ours, builtin, known)
    return ours


def clean_pcap(path):
    """(magic, linktype, snaplen, records) when path is a classic pcap file
    whose records end exactly at its end; None otherwise."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    if len(data) < 24:
        return None
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        endian = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        endian = ">"
    else:
        return None
    snaplen, link = struct.unpack(endian + "II", data[16:24])
    recs, off = [], 24
    while off < len(data):
        if off + 16 > len(data):
            return None
        incl = struct.unpack(endian + "I", data[off + 8:off + 12])[0]
        if off + 16 + incl > len(data):
            return None
        recs.append(data[off:off + 16 + incl])
        off += 16 + incl
    return magic, link, snaplen, data[:16], recs


def check_fixtures(args, caps, known, tmpdir):
    """Classic pcap files of one byte order and link type are checked in one
    tshark run each (merged, then split by frame); others one by one."""
    groups, single = {}, []
    for cap in caps:
        c = clean_pcap(cap)
        if c is None:
            single.append(cap)
        else:
            groups.setdefault((c[0], c[1]), []).append((cap, c))
    jobs = []
    for n, ((magic, link), members) in enumerate(sorted(groups.items())):
        endian = "<" if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
        snap = max(c[2] for _, c in members)
        merged = os.path.join(tmpdir, f"merged-{n}.pcap")
        parts, start = [], 1
        with open(merged, "wb") as fh:
            fh.write(members[0][1][3] + struct.pack(endian + "II", snap, link))
            for cap, c in members:
                fh.write(b"".join(c[4]))
                parts.append((cap, start, len(c[4])))
                start += len(c[4])
        os.chmod(merged, 0o644)
        jobs.append((merged, parts))
    for cap in single:
        jobs.append((cap, [(cap, 1, None)]))

    def one(job):
        return job, run_both(args, job[0])

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(one, jobs))
    for (path, parts), (ours, builtin) in results:
        for cap, start, count in parts:
            end = start + count if count is not None else max(list(ours) + list(builtin) + [0]) + 1
            o = {fr - start + 1: r for fr, r in ours.items() if start <= fr < end}
            b = {fr - start + 1: r for fr, r in builtin.items() if start <= fr < end}
            check_part(args, os.path.relpath(cap, args.fixtures), cap, o, b, known)
    return len(caps)


def pcap_records(path):
    """(global header, [record bytes]) of a classic pcap file."""
    with open(path, "rb") as fh:
        data = fh.read()
    if len(data) < 24:
        sys.exit(f"check.py: {path} is not a pcap file")
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        endian = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        endian = ">"
    else:
        sys.exit(f"check.py: {path} is not a classic pcap file")
    recs, off = [], 24
    while off + 16 <= len(data):
        incl = struct.unpack(endian + "I", data[off + 8:off + 12])[0]
        recs.append(data[off:off + 16 + incl])
        off += 16 + incl
    return data[:24], recs


def read_list(path):
    cases = []
    with open(path) as fh:
        for n, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) != 3:
                sys.exit(f"{path}:{n}: want NAME EXPECTED SPEC[ ;; SPEC ...]")
            specs = [s.strip() for s in parts[2].split(";;") if s.strip()]
            cases.append((parts[0], parts[1], specs))
    return cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["make-cases", "cases", "fixtures", "mutate"])
    ap.add_argument("--tshark")
    ap.add_argument("--plugin")
    ap.add_argument("--gbpgen")
    ap.add_argument("--gbpdump")
    ap.add_argument("--list")
    ap.add_argument("--dir")
    ap.add_argument("--out")
    ap.add_argument("--fixtures")
    ap.add_argument("--skip", help="file of fixture paths not to check (first word a line)")
    args = ap.parse_args()

    if args.mode == "make-cases":
        # One capture per case (for the golden tests), and all of them in one
        # file with an index, so the checks run tshark twice, not twice a case.
        os.makedirs(args.out, exist_ok=True)
        header, allrecs, index = None, [], []
        for name, _, specs in read_list(args.list):
            cap = os.path.join(args.out, name + ".pcap")
            r = run([args.gbpgen, "--force", "-w", cap] + specs)
            if r.returncode != 0:
                sys.stderr.write(r.stderr.decode(errors="replace"))
                sys.exit(f"check.py: gbpgen failed for {name}")
            hdr, recs = pcap_records(cap)
            if header is None:
                header = hdr
            elif hdr != header:
                sys.exit(f"check.py: {name}: pcap header differs from the first case's")
            index.append(f"{name} {len(allrecs) + 1} {len(recs)}")
            allrecs += recs
        with open(os.path.join(args.out, "all.pcap"), "wb") as fh:
            fh.write(header + b"".join(allrecs))
        with open(os.path.join(args.out, "all.index"), "w") as fh:
            fh.write("\n".join(index) + "\n")
        return 0

    if args.mode == "mutate":
        header, recs = pcap_records(os.path.join(args.dir, "all.pcap"))
        endian = "<" if header[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
        out = []
        with open(os.path.join(args.dir, "all.index")) as fh:
            starts = [int(line.split()[1]) for line in fh if line.strip()]
        for start in starts:
            rec = recs[start - 1]
            ts, data = rec[:8], rec[16:]
            orig = struct.unpack(endian + "I", rec[12:16])[0]
            for cut in range(len(data)):
                out.append(ts + struct.pack(endian + "II", cut, orig) + data[:cut])
            for i in range(len(data)):
                bad = bytearray(data)
                bad[i] ^= 0xff
                out.append(ts + struct.pack(endian + "II", len(bad), orig) + bytes(bad))
        with open(args.out, "wb") as fh:
            fh.write(header + b"".join(out))
        print(f"check.py mutate: {len(out)} frames from {len(starts)} cases")
        return 0

    known = known_rules(args)
    checked = 0
    if args.mode == "cases":
        ours = check_capture(args, "all.pcap", os.path.join(args.dir, "all.pcap"), known)
        index = {}
        with open(os.path.join(args.dir, "all.index")) as fh:
            for line in fh:
                n, start, count = line.split()
                index[n] = (int(start), int(count))
        for name, expected, _ in read_list(args.list):
            if name not in index:
                fail(name, "not in all.index (run make-cases again)")
                continue
            start, count = index[name]
            rows = [ours.get(fr) for fr in range(start, start + count)]
            if None in rows or not rows:
                fail(name, f"tshark printed no row for some of frames {start}-{start + count - 1}")
                continue
            got = set()
            for o in rows:
                got |= set(o["vxgbp.finding"])
            want = set() if expected == "-" else set(expected.split(","))
            if got != want:
                fail(name, f"findings {sorted(got)}, the list expects {sorted(want)}")
            if not all(o["vxgbp.flags"] or o["vxgbp.finding"] for o in rows):
                fail(name, "a frame not decoded as vxgbp")
            checked += 1
    else:
        caps = sorted(glob.glob(os.path.join(args.fixtures, "**", "*.pcap"), recursive=True) +
                      glob.glob(os.path.join(args.fixtures, "**", "*.pcapng"), recursive=True))
        if args.skip:
            with open(args.skip) as fh:
                skip = {ln.split()[0] for ln in fh if ln.strip() and not ln.startswith("#")}
            for c in caps:
                if os.path.relpath(c, args.fixtures) in skip:
                    skipped.append(f"{os.path.relpath(c, args.fixtures)}: in {args.skip}")
            caps = [c for c in caps if os.path.relpath(c, args.fixtures) not in skip]
        with tempfile.TemporaryDirectory() as tmpdir:
            os.chmod(tmpdir, 0o755)
            checked = check_fixtures(args, caps, known, tmpdir)
        if not caps:
            print(f"check.py: no captures under {args.fixtures}")
    for f in skipped:
        print("skip " + f)
    for f in failures:
        print("FAIL " + f)
    print(f"check.py {args.mode}: {checked} captures, {len(failures)} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
