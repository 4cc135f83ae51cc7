#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# mkcases.py OUTDIR [FIXTURES]: crafted pcapng captures for tests/pcapng and
# the fuzz_reader seeds, from the frames of fixtures/basic-gbp.pcap.
#   good-*.pcapng  libpcap reads them whole (exit 0 expected);
#   bad-*.pcapng   libpcap stops with an error (at open or at some frame).
# Format: draft-ietf-opsawg-pcapng (block = type, total length, body padded
# to 4, total length; options = code, length, value padded to 4).
import os
import struct
import sys

out = sys.argv[1]
fix = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', 'fixtures')
os.makedirs(out, exist_ok=True)

src = open(os.path.join(fix, 'basic-gbp.pcap'), 'rb').read()
FR, at = [], 24
while at + 16 <= len(src):
    cl = struct.unpack('<I', src[at + 8:at + 12])[0]
    FR.append(src[at + 16:at + 16 + cl])
    at += 16 + cl
T0 = 1700000000 * 1000000 + 123456  # microseconds


def pad(b):
    return b + b'\0' * (-len(b) % 4)


def block(bt, body, e='<', length=None, trailer=None):
    body = pad(body)
    n = 12 + len(body) if length is None else length
    t = n if trailer is None else trailer
    return struct.pack(e + 'II', bt, n) + body + struct.pack(e + 'I', t)


def opt(code, val, e='<'):
    return struct.pack(e + 'HH', code, len(val)) + pad(val)


def opts(lst, e='<'):
    if not lst:
        return b''
    return b''.join(opt(c, v, e) for c, v in lst) + struct.pack(e + 'HH', 0, 0)


def shb(e='<', major=1, minor=0, seclen=-1, o=(), bom=0x1a2b3c4d):
    return block(0x0a0d0d0a, struct.pack(e + 'IHHq', bom, major, minor, seclen) +
                 opts(o, e), e)


def idb(lt=1, snap=262144, o=(), e='<'):
    return block(1, struct.pack(e + 'HHI', lt, 0, snap) + opts(o, e), e)


def tsres(v):
    return (9, bytes([v]))


def tsoff(v, e='<'):
    return (14, struct.pack(e + 'q', v))


def epb(data, ts=T0, iface=0, e='<', caplen=None, wirelen=None, o=()):
    cl = len(data) if caplen is None else caplen
    wl = len(data) if wirelen is None else wirelen
    return block(6, struct.pack(e + 'IIIII', iface, ts >> 32, ts & 0xffffffff, cl, wl) +
                 pad(data) + opts(o, e), e)


def spb(data, wirelen=None, e='<'):
    return block(3, struct.pack(e + 'I', len(data) if wirelen is None else wirelen) + data, e)


def pb(data, ts=T0, iface=0, e='<'):
    return block(2, struct.pack(e + 'HHIIII', iface, 0, ts >> 32, ts & 0xffffffff,
                                len(data), len(data)) + pad(data), e)


def frames(e='<', iface=0, ts=T0, step=1000):
    return b''.join(epb(f, ts + i * step, iface, e) for i, f in enumerate(FR))


def write(name, data):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)


L, B = '<', '>'
F = FR[0]
for e, n in ((L, 'le'), (B, 'be')):
    write('good-%s.pcapng' % n, shb(e) + idb(e=e) + frames(e))
    write('good-%s-sections.pcapng' % n, shb(e) + idb(e=e) + frames(e) + shb(e, minor=2) +
          idb(o=[tsres(9)], e=e) + frames(e, ts=T0 * 1000 + 7, step=999999))
    write('good-%s-tsoffset.pcapng' % n, shb(e) + idb(o=[tsoff(1000, e), tsres(3)], e=e) +
          frames(e, ts=1700000000123, step=7))
    write('good-%s-options.pcapng' % n,
          shb(e, seclen=len(FR), o=[(1, b'a comment'), (2, b'hw'), (3, b'os'), (4, b'app')]) +
          idb(o=[(2, b'eth0'), (3, b'desc'), tsres(6), (8, struct.pack(e + 'Q', 10**9))], e=e) +
          b''.join(epb(f, T0 + i, 0, e, o=[(2, struct.pack(e + 'I', 1)), (1, b'c')])
                   for i, f in enumerate(FR)))
for v, name in ((3, 'ms'), (9, 'ns'), (0, 's'), (19, '1e-19'), (0x94, 'bin20'), (0x80, 'bin0'),
                (0xbf, 'bin63'), (0xa8, 'bin40'), (10, '1e-10'), (7, '1e-7')):
    write('good-tsresol-%s.pcapng' % name, shb() + idb(o=[tsres(v)]) +
          frames(ts=1700000000 * 10**3 + 17, step=999999937) + epb(F, 0))
    # time stamps near 2^64 ticks: libpcap's 64-bit arithmetic, seconds
    # beyond what -w's classic pcap holds
    write('good-tsextreme-%s.pcapng' % name, shb() + idb(o=[tsres(v)]) +
          epb(F, (1 << 64) - 1 - 3 * 999999937) + epb(F, (1 << 64) - 1) + epb(F, 1 << 63))
write('good-tsoffset-negative.pcapng', shb() + idb(o=[tsoff(-1700000000)]) + frames() +
      epb(F, 0))
write('good-tsoffset-wrap.pcapng', shb() + idb(o=[tsoff(-1), tsres(0)]) + epb(F, 0) +
      epb(F, 5) + epb(F, (1 << 64) - 1))
write('good-spb-opb.pcapng', shb() + idb() + spb(FR[0]) + pb(FR[1], T0 + 5) + epb(FR[2]) +
      spb(FR[3]) + spb(b'', 0) + pb(FR[4], T0 + 9))
write('good-spb-snaplen.pcapng', shb() + idb(snap=60) + spb(FR[0][:60], len(FR[0])) +
      spb(FR[1][:40], 40) + epb(FR[2][:60], wirelen=len(FR[2])))
write('good-skipped-blocks.pcapng', shb() + block(0xbad, b'\x00\x00\x7e\x2b custom') +
      block(0x40000bad, b'\x00\x00\x7e\x2b') + block(0x12345678, b'unknown') +
      block(0x80000001, b'') + idb() + block(4, struct.pack('<HH4s', 1, 4, b'\x0a\0\0\1') +
                                             b'\0\0\0\0') +
      epb(FR[0]) + block(5, struct.pack('<III', 0, 0, 0)) + block(10, b'TLSK' + b'\0' * 4) +
      block(0xbad, b'') + frames() + block(0x0a0d0d0a - 1, b'x' * 40))
write('good-idb-later.pcapng', shb() + idb() + frames() + idb(o=[tsres(9)]) +
      b''.join(epb(f, T0 * 1000 + i, 1) for i, f in enumerate(FR)) + epb(F, T0, 0))
write('good-snaplen-0.pcapng', shb() + idb(snap=0) + frames())
write('good-caplen-gt-wirelen.pcapng', shb() + idb() + epb(F, wirelen=10) + epb(F, wirelen=0))
write('good-raw-then-12.pcapng', shb() + idb(101) + epb(F[14:]) + idb(12) + epb(F[14:], iface=1))
write('good-shb-before-idb.pcapng', shb() + shb(major=7) + block(0xbad, b'') + idb() + frames())
write('good-empty.pcapng', shb() + idb())
# small, for tests/pcapng's every-truncation check: two sections (the second
# big-endian would be refused), options, SPB, OPB, a skipped block
S = FR[0][:60]
write('good-small.pcapng', shb(o=[(1, b'x')]) + idb(snap=60, o=[tsres(9), tsoff(5)]) +
      epb(S, 1) + block(0xbad, b'abcd') + shb(minor=2) + idb(snap=60) + spb(S, 100) +
      pb(S[:32], 7))
# first SHB: its length field says 31 bytes (libpcap checks neither the
# multiple of 4 nor the trailer of the first SHB)
s = bytearray(shb() + b'\0\0\0')
s[4:8] = struct.pack('<I', 31)
write('good-shb-len-31.pcapng', bytes(s) + idb() + frames())

# errors (libpcap refuses, at open or at a frame)
G = shb() + idb()
write('bad-linktype-differs.pcapng', G + epb(F) + idb(113) + epb(F))
write('bad-raw-twice.pcapng', shb() + idb(101) + epb(F[14:]) + idb(101) + epb(F[14:], iface=1))
write('bad-snaplen-differs.pcapng', G + epb(F) + idb(snap=100) + epb(F))
write('bad-byte-order-changes.pcapng', G + frames() + shb(B) + idb(e=B) + frames(B))
write('bad-bom.pcapng', G + epb(F) + shb(bom=0x11223344) + idb() + epb(F))
write('bad-version-2.pcapng', G + epb(F) + shb(major=2) + idb() + epb(F))
write('bad-first-version-2.pcapng', shb(major=2) + idb() + epb(F))
write('bad-first-version-1.1.pcapng', shb(minor=1) + idb() + epb(F))
write('bad-len-8.pcapng', G + epb(F) + struct.pack('<II', 6, 8) + epb(F))
write('bad-len-odd.pcapng', G + epb(F) + block(6, b'\0' * 20, length=34) + b'\0' * 8 + epb(F))
write('bad-len-past-end.pcapng', G + epb(F) + struct.pack('<II', 6, 4000) + b'\0' * 40)
write('bad-len-huge.pcapng', G + epb(F) + struct.pack('<II', 6, 0xfffffff0) + b'\0' * 40)
write('bad-trailer.pcapng', G + epb(F) + block(6, b'\0' * 20, trailer=36) + epb(F))
write('bad-opt-past-block.pcapng', shb() + block(1, struct.pack('<HHI', 1, 0, 0) +
                                                  struct.pack('<HH', 2, 40) + b'eth0') + epb(F))
write('bad-opt-late-past-block.pcapng', G + epb(F) + block(1, struct.pack('<HHI', 1, 0, 0) +
                                                           struct.pack('<HH', 9, 1)) + epb(F))
for v in (127, 255, 20, 0xc0):
    write('bad-tsresol-%d.pcapng' % v, shb() + idb(o=[tsres(v)]) + epb(F))
write('bad-tsresol-twice.pcapng', shb() + idb(o=[tsres(6), tsres(9)]) + epb(F))
write('bad-tsresol-len2.pcapng', shb() + idb(o=[(9, b'\x06\x00')]) + epb(F))
write('bad-tsoffset-len4.pcapng', G + epb(F) + idb(o=[(14, b'\0' * 4)]) + epb(F))
write('bad-endofopt-len.pcapng', shb() + idb(o=[(0, b'\0\0\0\0')]) + epb(F))
write('bad-caplen-past-block.pcapng', G + epb(F) + epb(F, caplen=len(F) + 64) + epb(F))
write('bad-caplen-gt-snaplen.pcapng', shb() + idb(snap=64) + epb(F[:64]) + epb(F[:80]))
write('bad-iface-range.pcapng', G + epb(F) + epb(F, iface=1) + epb(F))
write('bad-iface-after-shb.pcapng', G + epb(F) + shb() + epb(F))
write('bad-spb-short.pcapng', shb() + idb(snap=200) + spb(F[:20], wirelen=100))
# libpcap 1.10: an SPB's caplen is min(len, snap length), not what the block holds
write('bad-spb-wirelen-past-block.pcapng', G + spb(F) + spb(F, wirelen=len(F) + 100) + spb(F))
write('bad-block-16m.pcapng', G + epb(F) + struct.pack('<II', 0xbad, (16 << 20) + 4) +
      b'\0' * 64)
write('bad-packet-before-idb.pcapng', shb() + epb(F) + idb() + epb(F))
write('bad-no-idb.pcapng', shb() + block(0xbad, b''))
write('bad-epb-short.pcapng', G + epb(F) + block(6, b'\0' * 12) + epb(F))
write('bad-idb-short.pcapng', G + epb(F) + block(1, b'\0' * 4) + epb(F))
write('bad-shb-short.pcapng', G + epb(F) + block(0x0a0d0d0a, struct.pack('<I', 0x1a2b3c4d)))
write('bad-first-shb-huge.pcapng', struct.pack('<III', 0x0a0d0d0a, 2 << 20, 0x1a2b3c4d) +
      b'\0' * 100)
write('bad-first-shb-small.pcapng', struct.pack('<III', 0x0a0d0d0a, 24, 0x1a2b3c4d) +
      b'\0' * 100)
write('bad-trailing-bytes.pcapng', G + frames() + b'\0\0\0')
write('bad-truncated.pcapng', (G + frames())[:-30])
