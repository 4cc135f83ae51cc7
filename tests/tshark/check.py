#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Cross-checks of the vxgbp Wireshark plugin.

  check.py make-cases  --gbpgen G --specs DIR --out DIR
      write the capture of every DIR/NAME.spec (gbpgen -f) into DIR (NAME.pcap)
  check.py case        --tshark T --plugin P [--gbpdump D] -r CAPTURE
      print the findings of the whole capture, one a line, sorted (the
      cases of cases/TESTLIST); the checks below go to standard error
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
  check.py sweep       --tshark T --plugin P --gbpgen G --gbpdump D --out DIR
      every flag word once, the inner frame ICMP or UDP from or to a VXLAN
      or VXLAN-GPE port: the plugin's findings and gbpdump --json's are the
      same set on every frame.
  check.py xframe      --tshark T --plugin P --gbpdump D --fixtures ROOT --gbpgen G --out DIR
      the four cross-frame rules: each fixtures/check/<rule>.yes.pcap
      raises it in the plugin (with the earlier frame) and in gbpdump on
      the same frames, each <rule>.no.pcap raises it in neither; through
      a VXLAN mirror, under the fabric header's vxgbp item (pdml, json).
  check.py mirror      --tshark T --plugin P --gbpdump D --capture C
      a broken mirror: its UDP checksum as tshark verifies it and
      gbpdump's udp.bad-checksum (layer outer) on the same frames; the
      fabric header's findings alike in the plugin and gbpdump.
  check.py nested      --tshark T --plugin P --gbpdump D --capture C
      VXLAN inside VXLAN: both headers analysed, the outer one as gbpdump
      sees it, the frame counted once by -z vxgbp,groups.

For every capture and frame (case, fixtures), with UDP 8472 decoded as
VXLAN (-d udp.port==8472,vxlan, as gbpdump reads it):
  count    one vxgbp item per vxlan item (VXLAN-GPE excepted);
  builtin  the plugin's vxgbp.* header fields equal Wireshark's own vxlan.*
           fields, header by header;
  expert   the expert infos the plugin raised are exactly its vxgbp.finding
           values (one expert info per finding);
  gbpdump  (with --gbpdump) flags, VNI, group, D, A, mark and findings
           (cross-frame ones too) of the outermost header equal
           gbpdump --json's.
Exit status: 0 all agree, 1 a mismatch, 2 usage or tool failure.
"""
import argparse
import glob
import io
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
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
          "vxlan.reserved8", "vxgbp.kind", "vxgbp.gpe.flags"]
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


# --------------------------------------------------------------------------
# Per header, from tshark's PDML (it keeps each protocol item apart, in tree
# order): Wireshark's vxlan items and vxgbp's items, one for one.

class Item:
    """One protocol item of PDML: where it is and every field under it
    (name -> [show values], in order)."""
    def __init__(self, elem):
        self.pos = int(elem.get("pos", "-1"))
        self.f = {}
        for e in elem.iter("field"):
            name = e.get("name")
            if name:
                self.f.setdefault(name, []).append(e.get("show", ""))

    def has(self, name):
        return name in self.f

    def num(self, name):
        v = self.f.get(name)
        return num(v[0]) if v else None


class Frame:
    def __init__(self, elem):
        self.vxlan, self.vxgbp, self.udp = [], [], False
        for proto in elem.findall("proto"):
            name = proto.get("name")
            if name == "vxlan":
                self.vxlan.append(Item(proto))
            elif name == "vxgbp":
                self.vxgbp.append(Item(proto))
            elif name == "udp":
                self.udp = True
        self.expert = [e.get("show", "") for e in elem.iter("field")
                       if e.get("name") == "_ws.expert.message"]

    def all_findings(self):
        return [v for it in self.vxgbp for v in it.f.get("vxgbp.finding", [])]


def pdml_frames(args, cap, extra):
    """{frame number: Frame} from tshark -T pdml."""
    out = tshark_raw(args, cap, ["-T", "pdml"] + extra)
    frames, n = {}, 0
    for _, elem in ET.iterparse(io.BytesIO(out), events=("end",)):
        if elem.tag == "packet":
            n += 1
            frames[n] = Frame(elem)
            elem.clear()
    return frames


VXLAN_PORTS = (4789, 8472)
GPE_PORT = 4790


def wireshark_header(b):
    """The 8 header bytes as Wireshark's vxlan item shows them: (flag word,
    bytes 2-3, VNI, byte 7, decoded as GPE), or None when cut short."""
    gpe = b.has("vxlan.ver")
    if gpe:
        vals = [b.num(f) for f in ("vxlan.flags", "vxlan.reserved_16", "vxlan.next_proto",
                                   "vxlan.vni", "vxlan.reserved8")]
        if None in vals:
            return None
        flags, r16, np, vni, r8 = vals
        return (flags << 8) | (r16 >> 8), ((r16 & 0xff) << 8) | np, vni, r8, True
    vals = [b.num(f) for f in ("vxlan.flags", "vxlan.gbp", "vxlan.vni", "vxlan.reserved8")]
    if None in vals:
        return None
    return vals[0], vals[1], vals[2], vals[3], False


def expect_taken(o, user_ports=()):
    """The one port rule: VXLAN by the destination port alone."""
    dport = o.num("vxgbp.udp.dstport")
    return dport is None or dport in VXLAN_PORTS + (GPE_PORT,) + tuple(user_ports)


def expect_gpe(o, word, ws_gpe, user_ports=()):
    """How libvxgbp must read it: GPE on the GPE port, or with P and no G
    on a VXLAN port; a header taken for its source port only as
    Wireshark decoded it."""
    dport = o.num("vxgbp.udp.dstport")
    if dport is not None and expect_taken(o, user_ports) and dport not in user_ports:
        gpe_port = dport == GPE_PORT
    else:
        gpe_port = ws_gpe
    return gpe_port or (word & (F_G | GPE_P)) == GPE_P


GPE_P = 0x0400
GBP_ONLY = ("vxgbp.flags", "vxgbp.flags.g", "vxgbp.flags.d", "vxgbp.flags.a", "vxgbp.group",
            "vxgbp.group_reserved", "vxgbp.group_name", "vxgbp.mark")


def check_header(where, o, b, user_ports=()):
    """One header: vxgbp's item o against Wireshark's vxlan item b."""
    if o.pos != b.pos:
        fail(where, f"vxgbp at {o.pos}, vxlan at {b.pos}")
    hdr = wireshark_header(b)
    taken = o.num("vxgbp.udp.taken")
    if taken is not None and bool(taken) != expect_taken(o, user_ports):
        fail(where, f"taken as VXLAN: {bool(taken)}, destination port {o.num('vxgbp.udp.dstport')}")
    if (taken == 0) != o.has("vxgbp.source_port_only"):
        fail(where, "the source-port note does not match vxgbp.udp.taken")
    if hdr is None or not o.has("vxgbp.vni"):
        # cut short: vxlan shows what there is, libvxgbp all 8 bytes or none
        if (hdr is None) != (not o.has("vxgbp.vni")) and \
                not set(o.f.get("vxgbp.finding", [])) & {"frame.truncated", "frame.malformed"}:
            fail(where, "a VXLAN header vxgbp does not decode, and no finding says why")
        return
    word, b23, vni, r8, ws_gpe = hdr
    gpe = expect_gpe(o, word, ws_gpe, user_ports)
    pairs = [("kind", o.num("vxgbp.kind"), 1 if gpe else 0), ("VNI", o.num("vxgbp.vni"), vni),
             ("reserved byte", o.num("vxgbp.reserved"), r8)]
    if gpe:
        pairs += [("GPE flags", o.num("vxgbp.gpe.flags"), word),
                  ("next protocol", o.num("vxgbp.gpe.next_proto"), b23 & 0xff),
                  ("GPE reserved", o.num("vxgbp.gpe.reserved"), b23 >> 8)]
        for f in GBP_ONLY:
            if o.has(f):
                fail(where, f"a GPE header with the GBP field {f}")
    else:
        g = word & F_G
        defined = F_G | F_I | ((F_D | F_A) if g else 0)
        pairs += [("flags", o.num("vxgbp.flags"), word), ("G", o.num("vxgbp.flags.g"), int(bool(g))),
                  ("reserved flags", o.num("vxgbp.flags.reserved"), word & ~defined & 0xffff)]
        if g:
            pairs += [("D", o.num("vxgbp.flags.d"), int(bool(word & F_D))),
                      ("A", o.num("vxgbp.flags.a"), int(bool(word & F_A))),
                      ("group", o.num("vxgbp.group"), b23)]
        else:
            pairs += [("bytes 2-3", o.num("vxgbp.group_reserved"), b23),
                      ("no D/A/group without G", [f for f in ("vxgbp.flags.d", "vxgbp.flags.a",
                                                              "vxgbp.group") if o.has(f)], [])]
        if o.has("vxgbp.gpe.flags"):
            fail(where, "a VXLAN header with GPE fields")
    for what, x, y in pairs:
        if x != y:
            fail(where, f"{what}: vxgbp {x} != vxlan {y}")


def check_builtin(name, frames, user_ports=()):
    """Every vxlan item (VXLAN-GPE too) has its vxgbp item, header by header."""
    for fr, o in frames.items():
        where = f"{name} frame {fr}"
        if len(o.vxgbp) != len(o.vxlan):
            fail(where, f"{len(o.vxgbp)} vxgbp items for {len(o.vxlan)} vxlan items")
            continue
        for k, (x, b) in enumerate(zip(o.vxgbp, o.vxlan)):
            check_header(f"{where} header {k + 1}", x, b, user_ports)


def expert_ids(messages, known):
    ids = []
    for m in messages:
        mo = re.search(r"\[([a-z0-9.-]+)\]$", m)
        if mo and mo.group(1) in known:
            ids.append(mo.group(1))
    return ids


def check_expert(name, rows, known):
    """rows: -T fields rows, or Frames."""
    for fr, o in rows.items():
        if isinstance(o, Frame):
            ex, fi = expert_ids(o.expert, known), o.all_findings()
        else:
            ex, fi = expert_ids(o["_ws.expert.message"], known), o["vxgbp.finding"]
        if sorted(ex) != sorted(fi):
            fail(f"{name} frame {fr}", f"expert infos {sorted(ex)} != findings {sorted(fi)}")


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


def check_gbpdump_frame(where, o, d, strict):
    """Frame o (PDML) against gbpdump's JSON object d: the outermost header
    and its findings agree; strict: gbpdump finds VXLAN in every frame
    where vxgbp takes a header as VXLAN by the port rule (otherwise such a
    frame is listed as a known difference)."""
    vx = d.get("vxlan")
    want = set(d.get("findings") or [])
    got = set(o.all_findings()) if o else set()
    taken = [x for x in (o.vxgbp if o else []) if x.num("vxgbp.udp.taken") != 0]
    if vx is None:
        # gbpdump stopped before a VXLAN header (or there is none);
        # whatever it found must be among the plugin's findings, and the
        # plugin takes no header there as VXLAN by its port.
        if o and o.vxgbp and not want <= got:
            fail(where, f"gbpdump findings {sorted(want)} not in vxgbp's {sorted(got)}")
        if taken and taken[0].has("vxgbp.vni") and not want & {"frame.truncated",
                                                                "frame.malformed"}:
            (fail if strict else lambda w, m: skipped.append(f"{w}: {m}"))(
                where, "vxgbp takes a header as VXLAN, gbpdump finds none")
        return
    if o and not o.udp:
        skipped.append(f"{where}: Wireshark's own dissectors stop before UDP")
        return
    if not taken or not taken[0].has("vxgbp.vni"):
        fail(where, "gbpdump decodes VXLAN, vxgbp does not")
        return
    x = taken[0]
    gbp = vx.get("gbp")
    gpe = x.num("vxgbp.kind") == 1
    pairs = [("flags", x.num("vxgbp.gpe.flags" if gpe else "vxgbp.flags"), vx.get("flags")),
             ("VNI", x.num("vxgbp.vni"), vx.get("vni")),
             ("group", x.num("vxgbp.group") if gbp else None, gbp["id"] if gbp else None)]
    if not gpe:
        pairs.append(("mark", x.num("vxgbp.mark"), vx.get("mark")))
    if gbp:
        pairs += [("D", x.num("vxgbp.flags.d"), int(bool(gbp["dont_learn"]))),
                  ("A", x.num("vxgbp.flags.a"), int(bool(gbp["policy_applied"])))]
    for what, a, b in pairs:
        if a != b:
            fail(where, f"{what}: vxgbp {a} != gbpdump {b}")
    if len(o.vxgbp) > 1:
        return  # every header's findings together: see check.py nested
    if got != want:
        fail(where, f"findings: vxgbp {sorted(got)} != gbpdump {sorted(want)}")


def check_gbpdump(name, frames, dump, strict=False):
    if not dump:
        fail(name, "gbpdump printed no frames")
    for fr, d in dump.items():
        check_gbpdump_frame(f"{name} frame {fr}", frames.get(fr), d, strict)
    for fr, o in frames.items():
        if o.vxgbp and fr not in dump:
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
        rows = pdml_frames(args, cap, AS_GBPDUMP)
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
    # One capture per spec (for the case and golden lists), and all of them
    # in one file with an index (what mode mutate reads).
    os.makedirs(args.out, exist_ok=True)
    header, allrecs, index = None, [], []
    for spec in sorted(glob.glob(os.path.join(args.specs, "*.spec"))):
        name = os.path.basename(spec)[:-len(".spec")]
        cap = os.path.join(args.out, name + ".pcap")
        r = run([args.gbpgen, "--force", "-w", cap, "-f", spec])
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


def mode_case(args, known):
    """One capture alone (its cross-frame findings are its own): the
    findings it raises, for the list to compare."""
    name = os.path.splitext(os.path.basename(args.r))[0]
    rows = pdml_frames(args, args.r, AS_GBPDUMP)
    check_builtin(name, rows)
    check_expert(name, rows, known)
    if args.gbpdump:
        check_gbpdump(name, rows, gbpdump_frames(args, args.r))
    got = set()
    for o in rows.values():
        got |= set(o.all_findings())
    if not rows or not all(o.vxgbp and (o.vxgbp[0].has("vxgbp.vni") or o.all_findings())
                           for o in rows.values()):
        fail(name, "a frame not analysed by vxgbp")
    for f in sorted(got):
        print(f)
    for f in skipped:
        sys.stderr.write("skip " + f + "\n")
    for f in failures:
        sys.stderr.write("FAIL " + f + "\n")
    return 1 if failures else 0


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


def check_gpe_flag_frame(where, o, d):
    """P set, G clear on 4789: read as GPE (gpe.on-vxlan-port), never with
    GBP's names, group, D or A."""
    vx = d.get("vxlan") or {}
    info = (o["_ws.col.Info"] or [""])[0]
    checks = [("GPE flags vs vxlan.flags", first(o, "vxgbp.gpe.flags"), first(o, "vxlan.flags")),
              ("GPE flags vs gbpdump JSON", first(o, "vxgbp.gpe.flags"), vx.get("flags")),
              ("GBP fields", [f for f in ("vxgbp.flags", "vxgbp.group", "vxgbp.flags.d",
                                          "vxgbp.flags.a") if o.get(f)], []),
              ("gbpdump JSON gbp", vx.get("gbp"), None),
              ("Info", info.startswith("VXLAN-GPE "), True),
              ("gpe.on-vxlan-port", "gpe.on-vxlan-port" in o["vxgbp.finding"], True),
              ("findings: vxgbp vs gbpdump JSON", sorted(o["vxgbp.finding"]),
               sorted(d.get("findings") or []))]
    for what, x, y in checks:
        if x != y:
            fail(where, f"{what}: {x} != {y}")


def check_flag_frame(fr, o, d, text, names_of):
    where = f"flags frame {fr}"
    want_gpe = (first(o, "vxlan.flags") or 0) & (F_G | GPE_P) == GPE_P
    if first(o, "vxgbp.kind") != int(want_gpe):
        fail(where, f"read as kind {first(o, 'vxgbp.kind')}, want {int(want_gpe)}")
        return
    if want_gpe:
        check_gpe_flag_frame(where, o, d)
        return
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


# What the inner frame of sweep frame n is: ICMP, or a UDP datagram on a
# VXLAN or VXLAN-GPE port, as its source or its destination; or the outer
# datagram from port 4789 to another.
# (The other port is one no dissector of Wireshark's claims: it tries the
# lower port first.)
SWEEP_INNER = ["", "proto=udp isport=8472 idport=40000 payload=24",
               "proto=udp isport=40000 idport=8472 payload=24",
               "proto=udp isport=4789 idport=40000 payload=24",
               "proto=udp isport=40000 idport=4789 payload=24",
               "proto=udp isport=4790 idport=40000 payload=24",
               "proto=udp isport=40000 idport=4790 payload=24",
               "sport=4789 dport=40000"]


def mode_sweep(args):
    """Every flag word once (65536 frames, gbpgen), the inner frame cycling
    through SWEEP_INNER: the plugin's findings (vxgbp.finding, every header
    of the frame) and gbpdump --json's are the same set on every frame.  A
    header Wireshark decodes for its source port alone is no VXLAN to
    gbpdump and raises no finding in either."""
    os.makedirs(args.out, exist_ok=True)
    os.chmod(args.out, 0o755)
    spec = os.path.join(args.out, "sweep.spec")
    cap = os.path.join(args.out, "sweep.pcap")
    with open(spec, "w") as fh:
        for n in range(65536):
            fh.write(f"vni={n % 7 + 1} flags=0x{n:04x} {SWEEP_INNER[n % len(SWEEP_INNER)]}\n")
    r = run([args.gbpgen, "--force", "-w", cap, "-f", spec])
    if r.returncode != 0:
        sys.exit("check.py: gbpgen: " + r.stderr.decode(errors="replace"))
    os.chmod(cap, 0o644)
    rows = tshark_fields(args, cap, ["frame.number", "vxgbp.finding"], AS_GBPDUMP)
    dump = gbpdump_frames(args, cap)
    if len(rows) != 65536 or len(dump) != 65536:
        fail("sweep", f"{len(rows)} tshark rows, {len(dump)} gbpdump frames, want 65536")
    for fr in sorted(rows):
        ours = set(rows[fr]["vxgbp.finding"])
        theirs = set((dump.get(fr) or {}).get("findings") or [])
        if ours != theirs:
            n = fr - 1
            fail(f"sweep frame {fr} (flags 0x{n:04x}, {SWEEP_INNER[n % len(SWEEP_INNER)] or 'icmp'})",
                 f"vxgbp {sorted(ours)} != gbpdump {sorted(theirs)}")
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
    return checked + xframe_mirror(args)


# The fabric through a VXLAN mirror (VNI 7): the same host sends with group
# 0x200, then 0x300; the second frame's cross-frame findings.
XFRAME_MIRROR = ["sport=51001 idport=1 vni=100 gbp=0x200 wrap=vxlan,vni=7,sport=65101",
                 "sport=51002 idport=2 vni=100 gbp=0x300 wrap=vxlan,vni=7,sport=65102"]


def json_layers(pairs):
    """tshark -T json repeats a key for a protocol seen twice: keep each."""
    d = {}
    for k, v in pairs:
        d.setdefault(k, []).append(v)
    return d


def xframe_mirror(args):
    """Through a mirror, the tracker follows the nested fabric header, and
    the plugin shows its cross-frame findings under that header's item
    (the second vxgbp item), as gbpdump --json locates them on "nested[0]";
    the mirror's item has none.  tshark -T pdml and -T json (-V's tree)."""
    os.makedirs(args.out, exist_ok=True)
    os.chmod(args.out, 0o755)
    cap = gbpgen(args, os.path.join(args.out, "xframe-mirror.pcap"), XFRAME_MIRROR)
    rows = pdml_frames(args, cap, AS_GBPDUMP)
    dump = gbpdump_frames(args, cap)
    where = "xframe mirror frame 2"
    want = sorted(CROSS_FRAME[2:])
    located = sorted(x["id"] for x in dump[2].get("finding_layers") or []
                     if x["layer"] == "nested[0]")
    if sorted(set(located)) != want:
        fail(where, f"gbpdump --json locates {located} on nested[0], want {want}")
    per = [sorted(set(x.f.get("vxgbp.finding", []))) for x in rows[2].vxgbp]
    if per != [[], want]:
        fail(where, f"pdml: findings per vxgbp item {per}, want [[], {want}]")
    if [x.has("vxgbp.xframe.prev") for x in rows[2].vxgbp] != [False, True]:
        fail(where, "pdml: vxgbp.xframe.prev not under the fabric header's item only")
    out = tshark_raw(args, cap, ["-T", "json", "-O", "vxgbp"] + AS_GBPDUMP)
    pkts = json.loads(out, object_pairs_hook=json_layers)
    items = pkts[1]["_source"][0]["layers"][0].get("vxgbp", []) if len(pkts) > 1 else []
    text = [json.dumps(x) for x in items]
    if len(text) != 2 or "gbp.group-conflict" in text[0] or "gbp.group-conflict" not in text[1]:
        fail(where, f"-T json: {len(text)} vxgbp layers; gbp.group-conflict not in the second alone")
    return 1


def mode_mirror(args):
    """fixtures/mirror-broken.pcap: the mirror's UDP and IPv4 header
    checksums as tshark verifies them (its first UDP and IP headers) and
    gbpdump's udp.bad-checksum and ip.bad-checksum on the first VXLAN
    packet ("outer") or the tunnel mirror's layer ("encap[0]") agree frame
    by frame, and at least one frame is bad; the fabric header's findings are gbpdump's
    "nested[0]" and under the plugin's second vxgbp item."""
    cap = args.capture
    rows = tshark_fields(args, cap, ["frame.number", "udp.checksum.status", "ip.checksum.status"],
                         ["-o", "udp.check_checksum:TRUE", "-o", "ip.check_checksum:TRUE"]
                         + AS_GBPDUMP)
    dump = gbpdump_frames(args, cap)
    pdml = pdml_frames(args, cap, AS_GBPDUMP)
    bad = {"udp": 0, "ip": 0}
    for fr in sorted(dump):
        layers = dump[fr].get("finding_layers") or []
        # the first UDP and IPv4 headers are a VXLAN mirror's ("outer") or
        # a tunnel mirror's ("encap[0]": Geneve, ERSPAN)
        for proto in ("udp", "ip"):
            ours = any(x["id"] == f"{proto}.bad-checksum" and x["layer"] in ("outer", "encap[0]")
                       for x in layers)
            st = rows[fr][f"{proto}.checksum.status"]
            theirs = bool(st) and st[0] in ("0", "Bad")
            bad[proto] += ours
            if ours != theirs:
                fail(f"mirror frame {fr}",
                     f"tshark {proto} checksum status {st}, gbpdump bad {ours}")
        nested = sorted(x["id"] for x in layers if x["layer"] == "nested[0]")
        items = pdml[fr].vxgbp
        if len(items) != len(dump[fr].get("nested") or []) + 1:
            fail(f"mirror frame {fr}", f"{len(items)} vxgbp items")
            continue
        got = sorted(items[1].f.get("vxgbp.finding", [])) if len(items) == 2 else nested
        if got != nested:
            fail(f"mirror frame {fr}", f"fabric header: plugin {got}, gbpdump {nested}")
    for proto, n in bad.items():
        if not n:
            fail("mirror", f"no frame with a bad mirror {proto.upper()} checksum")
    return 1


def mode_nested(args):
    """The capture's frames are VXLAN in VXLAN (nested.c): two vxgbp items
    each, the outer one as gbpdump reads it, counted once in the stats."""
    cap = args.capture
    rows = pdml_frames(args, cap, AS_GBPDUMP)
    check_builtin("nested", rows)
    check_expert("nested", rows, known_rules(args))
    check_gbpdump("nested", rows, gbpdump_frames(args, cap))
    for fr, o in rows.items():
        if len(o.vxgbp) != 2:
            fail(f"nested frame {fr}", f"{len(o.vxgbp)} vxgbp items, want 2")
    # per header: the findings of each vxgbp item
    for fr, o in rows.items():
        per = [sorted(x.f.get("vxgbp.finding", [])) for x in o.vxgbp]
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


def groups_total(args, cap, extra=()):
    stats = tshark_raw(args, cap, ["-q", "-z", "vxgbp,groups"] + list(extra)).decode()
    mo = re.search(r"Total: (\d+) packets", stats)
    return int(mo.group(1)) if mo else None


def gbpgen(args, path, specs):
    r = run([args.gbpgen, "--force", "-w", path] + specs)
    if r.returncode != 0:
        sys.exit(f"check.py: gbpgen: {r.stderr.decode(errors='replace')}")
    os.chmod(path, 0o644)
    return path


def ports_case(args, name, cap, extra, user_ports, want_taken, dump_extra):
    """Every frame of cap: one vxgbp item, taken as VXLAN (or noted as
    taken for its source port only) as want_taken says, as gbpdump
    (with dump_extra) sees it; the tracker and the tap only on taken
    frames."""
    rows = pdml_frames(args, cap, extra)
    check_builtin(name, rows, user_ports)
    check_expert(name, rows, known_rules(args))
    check_gbpdump(name, rows, gbpdump_frames(args, cap, dump_extra), strict=True)
    xf = set()
    for fr, o in rows.items():
        taken = [x.num("vxgbp.udp.taken") for x in o.vxgbp]
        if taken != [int(want_taken)]:
            fail(f"{name} frame {fr}", f"vxgbp.udp.taken {taken}, want [{int(want_taken)}]")
        if want_taken and o.vxgbp and o.vxgbp[0].num("vxgbp.outer") != 1:
            fail(f"{name} frame {fr}", "not judged with its outer headers")
        xf |= set(o.all_findings()) & set(CROSS_FRAME)
    if bool(xf) != want_taken:
        fail(name, f"cross-frame findings {sorted(xf)} (the tracker is fed taken frames only)")
    total = groups_total(args, cap, extra)
    if total != (len(rows) if want_taken else 0):
        fail(name, f"-z vxgbp,groups counts {total} of {len(rows)} frames")


def mode_ports(args):
    """The one port rule: VXLAN by the destination port (4789, 8472, 4790 or
    a port decoded as vxlan); a header Wireshark took for its source port
    only is noted, not tracked, not counted."""
    os.makedirs(args.out, exist_ok=True)
    os.chmod(args.out, 0o755)
    # the same inner endpoint with two groups: gbp.group-conflict when tracked
    two = ["vni=5 gbp=0x100 inner-src=198.51.100.1 {p}", "vni=5 gbp=0x200 inner-src=198.51.100.1 {p}"]

    def cap(name, p):
        return gbpgen(args, os.path.join(args.out, name + ".pcap"), [t.format(p=p) for t in two])
    ports_case(args, "dport-4789", cap("dport-4789", "sport=40000 dport=4789"), [], (), True, [])
    ports_case(args, "sport-4789", cap("sport-4789", "sport=4789 dport=40000"), [], (), False, [])
    ports_case(args, "sport-4790", cap("sport-4790", "sport=4790 dport=40000"), [], (), False, [])
    da = ["-d", "udp.port==5555,vxlan"]
    ports_case(args, "decode-as-dport", cap("dport-5555", "sport=40000 dport=5555"), da, (5555,),
               True, ["--port", "5555"])
    ports_case(args, "decode-as-sport", cap("sport-5555", "sport=5555 dport=40000"), da, (5555,),
               False, ["--port", "5555"])
    # without Decode As, Wireshark shows no vxlan on 5555: nor does vxgbp
    for fr, o in pdml_frames(args, os.path.join(args.out, "dport-5555.pcap"), []).items():
        if o.vxlan or o.vxgbp:
            fail(f"no-decode-as frame {fr}", f"{len(o.vxlan)} vxlan, {len(o.vxgbp)} vxgbp items")
    return 5


def tunnel_captures(args):
    caps = [c for c in glob.glob(os.path.join(args.fixtures, "**", "*.pcap*"), recursive=True)
            if "tunnel" in os.path.basename(c)]
    return sorted(caps) + ([args.capture] if args.capture else [])


def mode_tunnels(args):
    """VXLAN inside GRE/ERSPAN, Geneve, VXLAN, IP in IP, MPLS: every vxlan
    item Wireshark finds has its vxgbp item, in exactly the frames where
    gbpdump finds VXLAN, with the same first header."""
    caps = tunnel_captures(args)
    if not caps:
        sys.exit("check.py: no tunnel captures")
    known = known_rules(args)

    def one(cap):
        return cap, pdml_frames(args, cap, AS_GBPDUMP), gbpdump_frames(args, cap)
    for cap, rows, dump in parallel(one, caps):
        name = os.path.basename(cap)
        # past the walk's bound (6 tunnel layers before the first VXLAN
        # header) gbpdump finds no VXLAN and says tunnel.depth; Wireshark
        # walks on: such frames are a documented limit, not compared
        beyond = {fr for fr, d in dump.items() if d.get("vxlan") is None
                  and "tunnel.depth" in (d.get("findings") or [])}
        rows = {fr: o for fr, o in rows.items() if fr not in beyond}
        dump = {fr: d for fr, d in dump.items() if fr not in beyond}
        if not rows:
            continue
        check_builtin(name, rows)
        check_expert(name, rows, known)
        check_gbpdump(name, rows, dump, strict=True)
        ws = {fr for fr, o in rows.items() if o.vxlan}
        ours = {fr for fr, o in rows.items()
                if any(x.num("vxgbp.udp.taken") != 0 for x in o.vxgbp)}
        theirs = {fr for fr, d in dump.items() if d.get("vxlan") is not None}
        if not ws:
            fail(name, "tshark finds no VXLAN at all")
        for what, got in (("vxgbp", ours), ("gbpdump", theirs)):
            if got != ws:
                fail(name, f"frames with VXLAN: tshark {sorted(ws)}, {what} {sorted(got)}")
    return len(caps)


def mode_rules(args):
    """Every rule of libvxgbp's table (the rules helper prints them) is an
    expert info of the plugin, and the plugin has no other rule."""
    r = run([args.capture, "--rules"])
    lib = set(r.stdout.decode().split())
    ours = known_rules(args)
    if r.returncode != 0 or not lib:
        sys.exit(f"check.py: {args.capture} --rules failed ({r.returncode})")
    if lib != ours:
        fail("rules", f"libvxgbp only {sorted(lib - ours)}, plugin only {sorted(ours - lib)}")
    return len(lib)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["make-cases", "case", "fixtures", "mutate", "beside",
                                     "flags", "sweep", "xframe", "nested", "ports", "tunnels",
                                     "rules", "mirror"])
    for opt in ("--tshark", "--plugin", "--gbpgen", "--gbpdump", "--specs", "--dir", "--out",
                "--fixtures", "--capture", "--expect-inner"):
        ap.add_argument(opt)
    ap.add_argument("-r", help="the capture of mode case")
    ap.add_argument("--skip", help="file of fixture paths not to check (first word a line)")
    args = ap.parse_args()

    if args.mode == "make-cases":
        return mode_make_cases(args)
    if args.mode == "mutate":
        return mode_mutate(args)
    if args.mode == "case":
        return mode_case(args, known_rules(args))
    if args.mode == "beside":
        checked = mode_beside(args)
    elif args.mode == "flags":
        checked = mode_flags(args)
    elif args.mode == "sweep":
        checked = mode_sweep(args)
    elif args.mode == "xframe":
        checked = mode_xframe(args)
    elif args.mode == "nested":
        checked = mode_nested(args)
    elif args.mode == "mirror":
        checked = mode_mirror(args)
    elif args.mode == "ports":
        checked = mode_ports(args)
    elif args.mode == "tunnels":
        checked = mode_tunnels(args)
    elif args.mode == "rules":
        checked = mode_rules(args)
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
