#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# mutants.py GBPDUMP FIXTURES WORKDIR [COUNT]: gbpdump's native readers
# (gbpdump/input/reader.c, pcapng.c) against libpcap (--libpcap) on mutated
# captures.  Each mutant is a seed capture (classic pcap in both byte
# orders and both time stamp resolutions, the old 2.2/2.3 formats, pcapng,
# a two-section pcapng) with a few of its bytes changed where a reader
# decides: the file and section headers, a block's or record's lengths, a
# time stamp, the magic, the end (cut short or grown).  Both readers must
# accept or refuse it alike: the same exit status, and the same output
# (-tt -v) up to the frame where they stop.  The native reader at -j 2
# (the file read in blocks that workers pread and lend to it, parallel.h)
# must give what it gives at -j 1, byte for byte, standard error and exit
# status too.  COUNT mutants (800), drawn
# from a fixed seed, so a failure is the same on every run; a failing
# mutant is kept in WORKDIR/fail-N.* with what each reader said.
import os
import random
import struct
import subprocess
import sys

gd, fix, work = sys.argv[1], sys.argv[2], sys.argv[3]
count = int(sys.argv[4]) if len(sys.argv) > 4 else 800
os.makedirs(work, exist_ok=True)


def seeds():
    names = ['basic-gbp.pcap', 'basic-gbp.pcapng', 'vlan.pcap', 'sll.pcap',
             'formats/formats-ns-be.pcap', 'formats/formats-us-be.pcap',
             'formats/formats-ns-le.pcap', 'regress/reader/v2.2-swapped-lengths.pcap',
             'regress/reader/v2.3-maybe-swapped.pcap']
    out = []
    for n in names:
        with open(os.path.join(fix, n), 'rb') as f:
            out.append((n, f.read()))
    ng = out[1][1]
    out.append(('two-sections.pcapng', ng + ng))
    return out


def fields(data):
    """Offsets (and widths) where a reader decides: headers and lengths."""
    if data[:4] == b'\x0a\x0d\x0d\x0a':  # pcapng: every block's type and lengths
        bo = '<' if data[8:12] == b'\x4d\x3c\x2b\x1a' else '>'
        out, at = [], 0
        while at + 12 <= len(data):
            n = struct.unpack(bo + 'I', data[at + 4:at + 8])[0]
            out += [(at, 4), (at + 4, 4), (at + 8, 4)]
            if n < 12 or at + n > len(data):
                break
            out += [(at + n - 4, 4), (at + 12, 4), (at + 16, 4), (at + 20, 4),
                    (at + 24, 4)]
            at += n
        return out
    bo = '<' if data[:2] in (b'\xd4\xc3', b'\x4d\x3c') else '>'
    out, at = [(0, 4), (4, 2), (6, 2), (16, 4), (20, 4)], 24
    while at + 16 <= len(data):  # every record's header
        out += [(at, 4), (at + 4, 4), (at + 8, 4), (at + 12, 4)]
        at += 16 + struct.unpack(bo + 'I', data[at + 8:at + 12])[0]
    return out


VALUES = [0, 1, 0xff, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff, 15, 16, 65535,
          65536, 262144, 262145, 0x40000]


def mutate(rng, data):
    b = bytearray(data)
    fl = fields(data)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        k = rng.randrange(6)
        if k <= 2 and fl:  # a header field: a chosen value, a bit, a byte
            at, w = rng.choice(fl)
            if at + w > len(b):
                continue
            if k == 0:
                v = rng.choice(VALUES) & ((1 << 8 * w) - 1)
                bo = rng.choice('<>')
                b[at:at + w] = struct.pack(bo + ('I' if w == 4 else 'H'), v)
            elif k == 1:
                b[at + rng.randrange(w)] ^= 1 << rng.randrange(8)
            else:
                b[at + rng.randrange(w)] = rng.randrange(256)
        elif k == 3 and b:  # cut short
            del b[rng.randrange(len(b)):]
        elif k == 4:  # bytes added at the end
            b += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        elif b:  # any byte
            b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def run(path, extra):
    """Exit status, standard output and error; a run that hangs is exit -1."""
    try:
        p = subprocess.run([gd, '-tt', '-v', '-r', path] + extra, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
    except subprocess.TimeoutExpired:
        return -1, b'', b'no end after 60 s\n'
    return p.returncode, p.stdout, p.stderr


def main():
    rng = random.Random(29)
    caps = seeds()
    fails = refused = 0
    for i in range(count):
        name, data = caps[i % len(caps)]
        m = mutate(rng, data)
        ext = '.pcapng' if name.endswith('.pcapng') else '.pcap'
        path = os.path.join(work, 'm' + ext)
        with open(path, 'wb') as f:
            f.write(m)
        a, b = run(path, ['-j', '1']), run(path, ['-j', '1', '--libpcap'])
        j = run(path, ['-j', '2'])
        refused += a[0] != 0 and b[0] != 0
        # a reader that refuses says one line; the output before it is the same
        bad = a[0] != b[0] or a[1] != b[1] or a != j
        bad = bad or any(r[0] != 0 and r[2].count(b'\n') != 1 for r in (a, b))
        if bad:
            fails += 1
            keep = os.path.join(work, 'fail-%d' % i)
            with open(keep + ext, 'wb') as f:
                f.write(m)
            with open(keep + '.txt', 'wb') as f:
                for who, r in (('native', a), ('libpcap', b), ('-j 2', j)):
                    f.write(b'%s: exit %d\n%s' % (who.encode(), r[0], r[2]))
            print('FAIL mutant %d of %s (%s): native exit %d, libpcap exit %d%s%s' %
                  (i, name, keep + ext, a[0], b[0],
                   ', output differs' if a[1] != b[1] else '',
                   ', -j 2 differs from -j 1' if a != j else ''))
            for who, r in (('native', a), ('libpcap', b), ('-j 2', j)):
                print('  %s: %s' % (who, r[2].decode(errors='replace').strip()))
    print('mutants: %d, refused by both %d, %d failures' % (count, refused, fails))
    if not 0 < refused < count:  # the mutations must make both kinds
        print('FAIL the mutants are all refused or all accepted')
        fails += 1
    return 1 if fails else 0


sys.exit(main())
