#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""tcpdump parity: gbpdump's text against tcpdump's, frame by frame.

    parity.py [--tcpdump PATH] [--list] GBPDUMP ACCEPTED CAPTURE...

For every capture and every mode (plain, -v, -e) it runs

    TZ=UTC tcpdump -n -tt -S [mode] -r CAPTURE
    TZ=UTC gbpdump -tt [mode] -r CAPTURE

joins each tcpdump frame into one line (tcpdump continues a frame on
further lines: the inner frame of a tunnel, -v's IP header), applies the
rules of ACCEPTED (the deliberate differences, each with its reason) to
both lines, and compares.  -S: tcpdump's absolute TCP sequence numbers,
which gbpdump prints (it keeps no per-connection state).

Exit 0 when every frame agrees, 1 with a readable report otherwise, 2 on a
usage error or when tcpdump cannot be run.

ACCEPTED holds blocks separated by blank lines:

    [name]
    why: one or more lines of reason
    modes: plain -v -e          (optional; default all three)
    files: REGEX                (optional; only captures whose path matches)
    tcpdump: REGEX => REPLACEMENT
    gbpdump: REGEX => REPLACEMENT

Each rewrite line is a Python re.sub applied to the one-line frame of that
side, in file order; a rule without a "why:" is an error.  A rule that
rewrote nothing on any capture is reported (a stale difference) and fails
the run with --strict.
"""
import os
import re
import subprocess
import sys

MODES = {"plain": [], "-v": ["-v"], "-e": ["-e"]}
FRAME_START = re.compile(r"^(?:\d+\.\d{6,}|\[Error converting time\]) ")


class Rule:
    def __init__(self, name, lineno):
        self.name = name
        self.lineno = lineno
        self.why = []
        self.modes = set(MODES)
        self.files = None
        self.subs = []  # (side, compiled regex, replacement)
        self.hits = 0


def load_rules(path):
    rules, cur = [], None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            m = re.match(r"^\[([^\]]+)\]$", line)
            if m:
                cur = Rule(m.group(1), n)
                rules.append(cur)
                continue
            if cur is None:
                raise SystemExit(f"{path}:{n}: text before the first [rule]")
            key, _, val = line.partition(":")
            key, val = key.strip(), val.lstrip()  # a replacement may end in a space
            if line[0].isspace() and cur.why and not cur.subs and not cur.files:
                cur.why.append(line.strip())  # continued reason
            elif key == "why":
                cur.why.append(val)
            elif key == "modes":
                bad = set(val.split()) - set(MODES)
                if bad:
                    raise SystemExit(f"{path}:{n}: unknown modes {sorted(bad)}")
                cur.modes = set(val.split())
            elif key == "files":
                cur.files = re.compile(val)
            elif key in ("tcpdump", "gbpdump"):
                m = re.match(r"^(.*?) =>(?: (.*))?$", val)
                if not m:
                    raise SystemExit(f"{path}:{n}: want 'REGEX => REPLACEMENT'")
                try:
                    cur.subs.append((key, re.compile(m.group(1)), m.group(2) or ""))
                except re.error as e:
                    raise SystemExit(f"{path}:{n}: {e}")
            else:
                raise SystemExit(f"{path}:{n}: unknown key {key!r}")
    for r in rules:
        if not r.why or not r.subs:
            raise SystemExit(f"{path}:{r.lineno}: [{r.name}] needs a why: and a rewrite")
    return rules


def run(cmd):
    env = dict(os.environ, TZ="UTC", LC_ALL="C")
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def tcpdump_frames(text):
    frames = []
    for line in text.splitlines():
        if FRAME_START.match(line) or not frames:
            frames.append(line.rstrip())
        elif line.strip():
            frames[-1] += " " + line.strip()
    return frames


def normalise(line, side, rules, mode, path):
    for r in rules:
        if mode not in r.modes or (r.files and not r.files.search(path)):
            continue
        for s, rx, rep in r.subs:
            if s != side:
                continue
            new = re.sub(r" +", " ", rx.sub(rep, line))
            if new != line:
                r.hits += 1
                line = new
    return re.sub(r" +", " ", line).strip()


def first_diff(a, b):
    i = 0
    while i < len(a) and i < len(b) and a[i] == b[i]:
        i += 1
    return i


def compare(gbpdump, tcpdump, rules, path, mode, out):
    rc, tout, terr = run([tcpdump, "-n", "-tt", "-S"] + MODES[mode] + ["-r", path])
    grc, gout, _ = run([gbpdump, "-tt"] + MODES[mode] + ["-r", path])
    if not tout and rc != 0:
        # a capture libpcap stops at before its first frame: gbpdump must
        # stop there too (no frame, an error status)
        if grc != 0 and not any(FRAME_START.match(l) for l in gout.splitlines()):
            return 0
        out.append(f"{path} {mode}: tcpdump failed: {terr.strip()}")
        return 1
    tf = tcpdump_frames(tout)
    gf = [l for l in gout.splitlines() if FRAME_START.match(l)]
    bad = 0
    if len(tf) != len(gf):
        out.append(f"{path} {mode}: tcpdump printed {len(tf)} frames, gbpdump {len(gf)}")
        bad += 1
    for i, (t, g) in enumerate(zip(tf, gf), 1):
        nt = normalise(t, "tcpdump", rules, mode, path)
        ng = normalise(g, "gbpdump", rules, mode, path)
        if nt == ng:
            continue
        bad += 1
        col = first_diff(nt, ng)
        out.append(f"{path} {mode or 'plain'} frame {i}:\n"
                   f"  tcpdump:    {t}\n  gbpdump:    {g}\n"
                   f"  normalised, first difference at column {col}:\n"
                   f"  tcpdump: ...{nt[max(0, col - 40):col + 60]}\n"
                   f"  gbpdump: ...{ng[max(0, col - 40):col + 60]}")
    return bad


def main(argv):
    tcpdump, strict = "tcpdump", False
    while argv and argv[0].startswith("--"):
        if argv[0] == "--tcpdump":
            tcpdump, argv = argv[1], argv[2:]
        elif argv[0] == "--strict":
            strict, argv = True, argv[1:]
        else:
            break
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    gbpdump, accepted, caps = argv[0], argv[1], sorted(argv[2:])
    rules = load_rules(accepted)
    try:
        run([tcpdump, "--version"])
    except OSError as e:
        print(f"cannot run tcpdump: {e}", file=sys.stderr)
        return 2
    out, bad, n = [], 0, 0
    for path in caps:
        for mode in MODES:
            bad += compare(gbpdump, tcpdump, rules, path, mode, out)
            n += 1
    stale = [r for r in rules if r.hits == 0]
    for r in stale:
        out.append(f"note: accepted difference [{r.name}] matched nothing")
    print("\n".join(out))
    print(f"tcpdump parity: {len(caps)} captures x {len(MODES)} modes, "
          f"{bad} differing frames, {len(rules)} accepted differences")
    return 1 if bad or (strict and stale) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
