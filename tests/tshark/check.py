#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Cross-checks of the vxgbp Wireshark plugin.

  check.py make-cases  --gbpgen G --list cases.list --out DIR
      write one capture per line of cases.list into DIR (NAME.pcap)
  check.py cases       --tshark T --plugin P --list cases.list --dir DIR [--gbpdump D]
  check.py fixtures    --tshark T --plugin P --fixtures ROOT [--skip F] [--gbpdump D]
  check.py mutate      --dir DIR --out FILE
      from the first frame of every case in DIR/all.pcap write FILE with
      every truncation of it (capture cut at each length) and every
      one-byte corruption of it (each byte inverted): input for the
      no-crash test.
  check.py beside      --tshark T --plugin P --fixtures ROOT [--skip F]
      vxgbp beside Wireshark's vxlan: with --disable-protocol vxgbp,
      tshark -V and -T fields print exactly what tshark without the plugin
      prints; with it enabled, -Y vxlan matches the same frames and the
      Info column is Wireshark's own with vxgbp's summary before it.
  check.py flags       --tshark T --plugin P --gbpgen G --gbpdump D --out DIR
      one frame per value of the 16 flag bits (65536): the findings of
      gbpdump --json and vxgbp.finding, the flag names in gbpdump's text,
      gbpdump's JSON, the plugin's tree and the Info column agree, and the
      flags equal Wireshark's vxlan.flags.
  check.py xframe      --tshark T --plugin P --gbpdump D --fixtures ROOT
      the four cross-frame rules: each fixtures/check/<rule>.yes.pcap
      raises it in the plugin (with the earlier frame) and in gbpdump on
      the same frames, each <rule>.no.pcap raises it in neither.
  check.py nested      --tshark T --plugin P --gbpdump D --capture C
      VXLAN inside VXLAN: both headers analysed, the outer one as gbpdump
      sees it, the frame counted once by -z vxgbp,groups.

For every capture and frame (cases, fixtures), with UDP 8472 decoded as
VXLAN (-d udp.port==8472,vxlan, as gbpdump reads it):
  count    one vxgbp item per vxlan item (VXLAN-GPE excepted);
  builtin  the plugin's vxgbp.* header fields equal Wireshark's own vxlan.*
           fields, header by header;
  expert   the expert infos the plugin raised are exactly its vxgbp.finding
           values (one expert info per finding);
  gbpdump  (with --gbpdump) flags, VNI, group, D, A, mark and findings
           (cross-frame ones too) of the outermost header equal
           gbpdump --json's.
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
CROSS_FRAME = ["gbp.policy-reapplied", "gbp.policy-applied-cleared",
               "gbp.group-conflict", "gbp.flow-group-change"]
F_G, F_I, F_D, F_A = 0x8000, 0x0800, 0x0040, 0x0008

FIELDS = ["frame.number", "udp.dstport", "vxgbp", "vxgbp.flags", "vxgbp.flags.g",
          "vxgbp.flags.i", "vxgbp.flags.d", "vxgbp.flags.a", "vxgbp.flags.reserved",
          "vxgbp.group", "vxgbp.group_reserved", "vxgbp.vni", "vxgbp.reserved", "vxgbp.mark",
          "vxgbp.verdict.gbp", "vxgbp.verdict.nogbp", "vxgbp.finding", "vxgbp.xframe.prev",
          "_ws.expert.message", "vxlan", "vxlan.ver", "vxlan.flags", "vxlan.flag_g",
          "vxlan.flag_d", "vxlan.flag_a", "vxlan.flags_reserved", "vxlan.gbp", "vxlan.vni",
          "vxlan.reserved8"]
# As gbpdump reads captures: 8472 is VXLAN too, no IP reassembly (the
# first fragment of a VXLAN packet is dissected in its own frame).
AS_GBPDUMP = ["-d", "udp.port==8472,vxlan", "-o", "ip.defragment:FALSE",
              "-o", "ipv6.defragment:FALSE"]

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


def tshark_raw(args, cap, extra, plugin=None):
    """tshark's standard output on cap (as bytes); plugin "none": without it."""
    cmd = [args.tshark, plugin or args.plugin, "-n", "-r", "-"] + extra
    with open(cap, "rb") as fh:
        r = run(cmd, stdin=fh)
    err = r.stderr.decode(errors="replace")
    # A capture file that ends inside a record: tshark dissects what there
    # is and exits 2; that is the capture's fault, not the plugin's.
    if r.returncode != 0 and not (r.returncode == 2 and "cut short in the middle of a packet" in err):
        sys.stderr.write(err)
        sys.exit(f"check.py: tshark failed ({r.returncode}) on {cap}: {' '.join(extra)}")
    return r.stdout


def tshark_fields(args, cap, fields, extra, plugin=None):
    cmd = ["-T", "fields", "-E", "aggregator=" + AGG, "-E", "occurrence=a"] + extra
    for f in fields:
        cmd += ["-e", f]
    rows = {}
    for line in tshark_raw(args, cap, cmd, plugin).decode(errors="replace").splitlines():
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


def nums(row, f):
    return [num(v) for v in row.get(f) or []]


def first(row, f):
    v = row.get(f) or []
    return num(v[0]) if v else None


def check_header(where, k, o, b, g_index):
    """Header k of a frame: vxgbp's fields (o) against vxlan's (b)."""
    flags = nums(b, "vxlan.flags")[k]
    g = flags & F_G
    defined = F_G | F_I | ((F_D | F_A) if g else 0)
    pairs = [("flags", nums(o, "vxgbp.flags")[k], flags),
             ("G", nums(o, "vxgbp.flags.g")[k], nums(b, "vxlan.flag_g")[k]),
             ("reserved flags", nums(o, "vxgbp.flags.reserved")[k], flags & ~defined & 0xffff),
             ("VNI", nums(o, "vxgbp.vni")[k], nums(b, "vxlan.vni")[k]),
             ("reserved byte", nums(o, "vxgbp.reserved")[k], nums(b, "vxlan.reserved8")[k])]
    if g:
        i = g_index[0]
        pairs += [("D", nums(o, "vxgbp.flags.d")[i], nums(b, "vxlan.flag_d")[k]),
                  ("A", nums(o, "vxgbp.flags.a")[i], nums(b, "vxlan.flag_a")[k]),
                  ("group", nums(o, "vxgbp.group")[i], nums(b, "vxlan.gbp")[k])]
        g_index[0] += 1
    else:
        i = k - g_index[0]
        pairs += [("bytes 2-3", nums(o, "vxgbp.group_reserved")[i], nums(b, "vxlan.gbp")[k])]
    for what, x, y in pairs:
        if x != y:
            fail(where, f"header {k + 1}: {what}: vxgbp {x} != vxlan {y}")


def check_builtin(name, rows):
    for fr, o in rows.items():
        where = f"{name} frame {fr}"
        n_vx = len(o["vxlan"]) - len(o["vxlan.ver"])
        if len(o["vxgbp"]) != n_vx:
            fail(where, f"{len(o['vxgbp'])} vxgbp items for {n_vx} VXLAN headers")
            continue
        if len(o["vxgbp.flags"]) != len(o["vxlan.vni"]) or len(o["vxlan.ver"]):
            # A header cut short (vxlan shows what there is, libvxgbp
            # decodes all 8 bytes or none) or VXLAN-GPE beside: vxgbp must
            # say why it cannot.
            if n_vx and len(o["vxgbp.flags"]) < n_vx and \
                    not set(o["vxgbp.finding"]) & {"frame.truncated", "frame.malformed"}:
                fail(where, "a VXLAN header vxgbp does not decode, and no finding says why")
            continue
        g_index = [0]
        try:
            for k in range(len(o["vxgbp.flags"])):
                check_header(where, k, o, o, g_index)
        except IndexError:
            fail(where, "a field missing: " + repr({f: o[f] for f in o if f.startswith("vx")}))


def expert_ids(row, known):
    ids = []
    for m in row["_ws.expert.message"]:
        mo = re.search(r"\[([a-z0-9.-]+)\]$", m)
        if mo and mo.group(1) in known:
            ids.append(mo.group(1))
    return ids


def check_expert(name, rows, known):
    for fr, o in rows.items():
        ex = sorted(expert_ids(o, known))
        fi = sorted(o["vxgbp.finding"])
        if ex != fi:
            fail(f"{name} frame {fr}", f"expert infos {ex} != findings {fi}")


def gbpdump_frames(args, cap, extra=()):
    r = run([args.gbpdump, "-r", cap, "--json"] + list(extra))
    if r.returncode not in (0, 1):
        sys.stderr.write(r.stderr.decode(errors="replace"))
        sys.exit(f"check.py: gbpdump failed ({r.returncode}) on {cap}")
    frames = {}
    for line in r.stdout.decode(errors="replace").splitlines():
        line = line.strip()
        if line.startswith("{") and '"frame"' in line:
            obj = json.loads(line)
            frames[int(obj["frame"])] = obj
    return frames


def check_gbpdump_frame(where, o, d):
    vx = d.get("vxlan")
    want = set(d.get("findings") or [])
    if vx is None:
        # gbpdump stopped before a VXLAN header (or there is none);
        # whatever it found must be among the plugin's findings.
        if o and o["vxgbp"] and not want <= set(o["vxgbp.finding"]):
            fail(where, f"gbpdump findings {sorted(want)} not in vxgbp's "
                        f"{sorted(o['vxgbp.finding'])}")
        return
    if o and not o["udp.dstport"]:
        skipped.append(f"{where}: Wireshark's own dissectors stop before UDP")
        return
    if not o or not o["vxgbp.flags"]:
        fail(where, "gbpdump decodes VXLAN, vxgbp does not")
        return
    gbp = vx.get("gbp")
    pairs = [("flags", first(o, "vxgbp.flags"), vx.get("flags")),
             ("VNI", first(o, "vxgbp.vni"), vx.get("vni")),
             ("mark", first(o, "vxgbp.mark"), vx.get("mark")),
             ("group", first(o, "vxgbp.group") if gbp else None, gbp["id"] if gbp else None)]
    if gbp:
        pairs += [("D", first(o, "vxgbp.flags.d"), int(bool(gbp["dont_learn"]))),
                  ("A", first(o, "vxgbp.flags.a"), int(bool(gbp["policy_applied"])))]
    for what, x, y in pairs:
        if x != y:
            fail(where, f"{what}: vxgbp {x} != gbpdump {y}")
    if len(o["vxgbp"]) > 1:
        return  # vxgbp.finding holds every header's findings: see check.py nested
    got = set(o["vxgbp.finding"])
    if got != want:
        fail(where, f"findings: vxgbp {sorted(got)} != gbpdump {sorted(want)}")


def check_gbpdump(name, rows, dump):
    if not dump:
        fail(name, "gbpdump printed no frames")
    for fr, d in dump.items():
        check_gbpdump_frame(f"{name} frame {fr}", rows.get(fr), d)
    for fr, o in rows.items():
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


def clean_pcap(path):
    """(magic, linktype, snaplen, header, records) when path is a classic
    pcap file whose records end exactly at its end; None otherwise."""
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


def merge_jobs(caps, tmpdir):
    """Classic pcap files of one byte order and link type merged into one
    file each (so tshark runs once per group); others alone.  A list of
    (path, [(capture, first frame, frames or None)])."""
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
    return jobs


def parallel(fn, jobs):
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(fn, jobs))


def check_fixtures(args, caps, known):
    """One tshark run per capture: the cross-frame findings are the
    capture's own."""
    def one(cap):
        rows = tshark_fields(args, cap, FIELDS, AS_GBPDUMP)
        return cap, rows, gbpdump_frames(args, cap) if args.gbpdump else None
    for cap, rows, dump in parallel(one, caps):
        name = os.path.relpath(cap, args.fixtures)
        check_builtin(name, rows)
        check_expert(name, rows, known)
        if dump is not None:
            check_gbpdump(name, rows, dump)
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


def fixture_list(args):
    caps = sorted(glob.glob(os.path.join(args.fixtures, "**", "*.pcap"), recursive=True) +
                  glob.glob(os.path.join(args.fixtures, "**", "*.pcapng"), recursive=True))
    if args.skip:
        with open(args.skip) as fh:
            skip = {ln.split()[0] for ln in fh if ln.strip() and not ln.startswith("#")}
        for c in caps:
            if os.path.relpath(c, args.fixtures) in skip:
                skipped.append(f"{os.path.relpath(c, args.fixtures)}: in {args.skip}")
        caps = [c for c in caps if os.path.relpath(c, args.fixtures) not in skip]
    if not caps:
        sys.exit(f"check.py: no captures under {args.fixtures}")
    return caps


# --------------------------------------------------------------------------
# Modes

def mode_make_cases(args):
    # One capture per case (for the golden tests), and all of them in one
    # file with an index, so the checks run tshark once, not once a case.
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


def mode_mutate(args):
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


def mode_cases(args, known):
    """Each capture of cases.list alone (its cross-frame findings are its
    own), and the findings the list names."""
    cases = read_list(args.list)

    def one(case):
        cap = os.path.join(args.dir, case[0] + ".pcap")
        rows = tshark_fields(args, cap, FIELDS, AS_GBPDUMP)
        return case, cap, rows, gbpdump_frames(args, cap) if args.gbpdump else None
    for (name, expected, _), cap, rows, dump in parallel(one, cases):
        check_builtin(name, rows)
        check_expert(name, rows, known)
        if dump is not None:
            check_gbpdump(name, rows, dump)
        got = set()
        for o in rows.values():
            got |= set(o["vxgbp.finding"])
        want = set() if expected == "-" else set(expected.split(","))
        if got != want:
            fail(name, f"findings {sorted(got)}, the list expects {sorted(want)}")
        if not rows or not all(o["vxgbp.flags"] or o["vxgbp.finding"] for o in rows.values()):
            fail(name, "a frame not analysed by vxgbp")
    return len(cases)


BESIDE_FIELDS = ["frame.number", "frame.protocols", "_ws.col.Protocol", "_ws.col.Info",
                 "vxlan", "vxlan.flags", "vxlan.vni", "vxlan.gbp", "udp.dstport",
                 "_ws.expert.message"]


def check_beside(args, path, parts):
    """One capture (maybe merged): see the module's doc string."""
    def cmp(what, a, b):
        if a != b:
            al, bl = a.decode(errors="replace").splitlines(), b.decode(errors="replace").splitlines()
            diff = next((i for i in range(min(len(al), len(bl))) if al[i] != bl[i]),
                        min(len(al), len(bl)))
            line = lambda ls: ls[diff] if diff < len(ls) else "<end>"
            fail(path, f"{what} differs at line {diff + 1}:\n  without the plugin: "
                       f"{line(al)}\n  with it disabled:  {line(bl)}")
    fields = []
    for f in BESIDE_FIELDS:
        fields += ["-e", f]
    for extra in (["-V"], ["-T", "fields"] + fields):
        cmp(" ".join(extra[:2]), tshark_raw(args, path, extra, "none"),
            tshark_raw(args, path, extra + ["--disable-protocol", "vxgbp"]))
    frames = ["-T", "fields", "-e", "frame.number"]
    cmp("-Y vxlan (plugin enabled)", tshark_raw(args, path, ["-Y", "vxlan"] + frames, "none"),
        tshark_raw(args, path, ["-Y", "vxlan"] + frames))
    plain = tshark_fields(args, path, ["frame.number", "_ws.col.Info"], [], "none")
    ours = tshark_fields(args, path, ["frame.number", "_ws.col.Info", "vxgbp"], [])
    for fr, o in ours.items():
        info = (o["_ws.col.Info"] or [""])[0]
        base = (plain.get(fr, {}).get("_ws.col.Info") or [""])[0]
        if not o["vxgbp"]:
            ok = info == base
        else:
            ok = info.endswith(": " + base) or (not base and info)
        if not ok:
            fail(f"{path} frame {fr}", f"Info \"{info}\" is not a summary before \"{base}\"")
    return len(parts)


def mode_beside(args):
    caps = fixture_list(args)
    with tempfile.TemporaryDirectory() as tmpdir:
        os.chmod(tmpdir, 0o755)
        jobs = merge_jobs(caps, tmpdir)
        parallel(lambda job: check_beside(args, job[0], job[1]), jobs)
    return len(caps)


def flag_names_of_tree(args):
    """{abbrev: name} of the plugin's flag fields, from -G fields:
    "Don't Learn (D)" -> D."""
    r = run([args.tshark, args.plugin, "-G", "fields"])
    names = {}
    for line in r.stdout.decode(errors="replace").splitlines():
        cols = line.split("\t")
        if len(cols) > 3 and cols[2].startswith("vxgbp.flags.") and cols[3] == "FT_BOOLEAN":
            mo = re.search(r"\(([A-Z])\)$", cols[1])
            if mo:
                names[cols[2]] = mo.group(1)
    if len(names) < 4:
        sys.exit(f"check.py: the plugin's flag fields are {names}")
    return names


def gbpdump_text_flags(args, cap):
    r = run([args.gbpdump, "-r", cap])
    out = {}
    for n, line in enumerate(r.stdout.decode(errors="replace").splitlines(), 1):
        mo = re.search(r" flags \[([^\]]*)\]", line)
        out[n] = mo.group(1) if mo else None
    return out


def split_flags(text):
    """"G,I,R=0x0040" -> ({"G", "I"}, 0x40)."""
    names, rsvd = set(), 0
    for part in filter(None, (text or "").split(",")):
        if part.startswith("R="):
            rsvd = int(part[2:], 16)
        else:
            names.add(part)
    return names, rsvd


def check_flag_frame(fr, o, d, text, names_of):
    where = f"flags frame {fr}"
    flags = first(o, "vxgbp.flags")
    tree = {names_of[f] for f in names_of if o.get(f) and num(o[f][0])}
    tree_rsvd = first(o, "vxgbp.flags.reserved")
    t_names, t_rsvd = split_flags(text)
    vx = d.get("vxlan") or {}
    gbp = vx.get("gbp")
    js = ({"G"} if gbp else set()) | ({"I"} if (vx.get("flags", 0) & F_I) else set()) | \
         ({"D"} if gbp and gbp.get("dont_learn") else set()) | \
         ({"A"} if gbp and gbp.get("policy_applied") else set())
    info = (o["_ws.col.Info"] or [""])[0]
    mo = re.search(r" flags \[([^\]]*)\]", info)
    checks = [("flags (vxlan.flags)", flags, first(o, "vxlan.flags")),
              ("flags (gbpdump JSON)", flags, vx.get("flags")),
              ("names: tree vs gbpdump text", sorted(tree), sorted(t_names)),
              ("names: tree vs gbpdump JSON", sorted(tree), sorted(js)),
              ("reserved: tree vs gbpdump text", tree_rsvd, t_rsvd),
              ("Info flags vs gbpdump text", mo.group(1) if mo else None, text),
              ("findings: vxgbp vs gbpdump JSON", sorted(o["vxgbp.finding"]),
               sorted(d.get("findings") or []))]
    for what, x, y in checks:
        if x != y:
            fail(where, f"{what}: {x} != {y}")


def mode_flags(args):
    os.makedirs(args.out, exist_ok=True)
    os.chmod(args.out, 0o755)
    spec = os.path.join(args.out, "flags.spec")
    cap = os.path.join(args.out, "flags.pcap")
    with open(spec, "w") as fh:
        for n in range(65536):
            fh.write(f"vni={n % 7 + 1} flags=0x{n:04x}\n")
    r = run([args.gbpgen, "--force", "-w", cap, "-f", spec])
    if r.returncode != 0:
        sys.exit("check.py: gbpgen: " + r.stderr.decode(errors="replace"))
    os.chmod(cap, 0o644)
    names_of = flag_names_of_tree(args)
    rows = tshark_fields(args, cap, FIELDS + ["_ws.col.Info"] + list(names_of), [])
    dump = gbpdump_frames(args, cap)
    text = gbpdump_text_flags(args, cap)
    if len(rows) != 65536 or len(dump) != 65536:
        fail("flags", f"{len(rows)} tshark rows, {len(dump)} gbpdump frames, want 65536")
    for fr in sorted(rows):
        if fr in dump:
            check_flag_frame(fr, rows[fr], dump[fr], text.get(fr), names_of)
    check_expert("flags", rows, known_rules(args))
    return 1


def mode_xframe(args):
    checked = 0
    for rule in CROSS_FRAME:
        for kind in ("yes", "no"):
            cap = os.path.join(args.fixtures, "check", f"{rule}.{kind}.pcap")
            if not os.path.exists(cap):
                fail(rule, f"no fixture {cap}")
                continue
            rows = tshark_fields(args, cap, FIELDS, AS_GBPDUMP)
            dump = gbpdump_frames(args, cap)
            ours = {fr for fr, o in rows.items() if rule in o["vxgbp.finding"]}
            theirs = {fr for fr, d in dump.items() if rule in (d.get("findings") or [])}
            where = f"{rule}.{kind}"
            if ours != theirs:
                fail(where, f"frames with {rule}: vxgbp {sorted(ours)}, gbpdump {sorted(theirs)}")
            if (kind == "yes") != bool(ours):
                fail(where, f"vxgbp raises {rule} on frames {sorted(ours)}")
            for fr in ours:
                prev = nums(rows[fr], "vxgbp.xframe.prev")
                if not prev or any(p >= fr for p in prev):
                    fail(where, f"frame {fr}: earlier frames {prev}")
            check_expert(where, rows, set(CROSS_FRAME))
            checked += 1
    return checked


def mode_nested(args):
    """The capture's frames are VXLAN in VXLAN (nested.c): two vxgbp items
    each, the outer one as gbpdump reads it, counted once in the stats."""
    cap = args.capture
    rows = tshark_fields(args, cap, FIELDS, AS_GBPDUMP)
    check_builtin("nested", rows)
    check_expert("nested", rows, known_rules(args))
    check_gbpdump("nested", rows, gbpdump_frames(args, cap))
    for fr, o in rows.items():
        if len(o["vxgbp"]) != 2:
            fail(f"nested frame {fr}", f"{len(o['vxgbp'])} vxgbp items, want 2")
    # per header: the findings of each vxgbp item (PDML keeps them apart)
    pdml = tshark_raw(args, cap, ["-T", "pdml"] + AS_GBPDUMP).decode(errors="replace")
    for fr, packet in enumerate(re.findall(r"<packet>(.*?)</packet>", pdml, re.S), 1):
        protos = re.findall(r'<proto name="vxgbp".*?</proto>', packet, re.S)
        per = [sorted(re.findall(r'name="vxgbp.finding" showname="Finding: ([^"]*)"', p))
               for p in protos]
        if len(per) == 2 and args.expect_inner is not None:
            want = sorted(filter(None, args.expect_inner.split(",")))
            if fr == 1 and per[1] != want:
                fail(f"nested frame {fr}", f"inner header findings {per[1]}, want {want}")
    stats = tshark_raw(args, cap, ["-q", "-z", "vxgbp,groups"] + AS_GBPDUMP).decode()
    mo = re.search(r"Total: (\d+) packets", stats)
    if not mo or int(mo.group(1)) != len(rows):
        fail("nested", f"-z vxgbp,groups counts {mo.group(1) if mo else '?'} packets, "
                       f"the capture has {len(rows)}")
    return 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["make-cases", "cases", "fixtures", "mutate", "beside",
                                     "flags", "xframe", "nested"])
    for opt in ("--tshark", "--plugin", "--gbpgen", "--gbpdump", "--list", "--dir", "--out",
                "--fixtures", "--capture", "--expect-inner"):
        ap.add_argument(opt)
    ap.add_argument("--skip", help="file of fixture paths not to check (first word a line)")
    args = ap.parse_args()

    if args.mode == "make-cases":
        return mode_make_cases(args)
    if args.mode == "mutate":
        return mode_mutate(args)
    if args.mode == "beside":
        checked = mode_beside(args)
    elif args.mode == "flags":
        checked = mode_flags(args)
    elif args.mode == "xframe":
        checked = mode_xframe(args)
    elif args.mode == "nested":
        checked = mode_nested(args)
    elif args.mode == "cases":
        checked = mode_cases(args, known_rules(args))
    else:
        checked = check_fixtures(args, fixture_list(args), known_rules(args))
    for f in skipped:
        print("skip " + f)
    for f in failures:
        print("FAIL " + f)
    print(f"check.py {args.mode}: {checked} captures, {len(failures)} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
