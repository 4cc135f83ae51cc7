#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# mkng.py OUTDIR FIXTURES: pcapng captures for stripes_ng.sh (gbpdump -j
# reading pcapng in stripes), from the frames of fixtures/basic-gbp.pcap and
# fixtures/big-tcp.pcap: many blocks of every kind, so that stripe ends fall
# on each of them.
#   mix-le, mix-be      EPB, SPB, PB, custom, NRB, ISB and unknown blocks, an
#                       IDB after packets (a second interface, ns time
#                       stamps), three sections, a 300 KB custom block and a
#                       packet with 300 KB of options (longer than the room
#                       after a stripe: read apart), in either byte order
#   snap-small          snap length 128 (a room of 144 bytes): custom blocks
#                       and packet options of 150-3000 bytes, so blocks past
#                       the room are common; four sections
#   huge-custom         a 2 MiB custom block mid-file
#   bad-trailer, bad-len-huge, bad-iface, bad-byte-order, bad-idb-linktype
#                       mix-le with one bad block after about half the file
# Format: draft-ietf-opsawg-pcapng (block = type, total length, body padded
# to 4, total length; options = code, length, value padded to 4).
import os
import struct
import sys

out, fix = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)


def frames_of(name):
    src = open(os.path.join(fix, name), 'rb').read()
    fr, at = [], 24
    while at + 16 <= len(src):
        cl = struct.unpack('<I', src[at + 8:at + 12])[0]
        fr.append(src[at + 16:at + 16 + cl])
        at += 16 + cl
    return fr


BIG = frames_of('big-tcp.pcap')  # two 70 KB frames (records over many stripes), one 1 KB
FR = frames_of('basic-gbp.pcap') + BIG[2:]
T0 = 1700000000 * 1000000 + 123456


def pad(b):
    return b + b'\0' * (-len(b) % 4)


def block(bt, body, e, length=None, trailer=None):
    body = pad(body)
    n = 12 + len(body) if length is None else length
    t = n if trailer is None else trailer
    return struct.pack(e + 'II', bt, n) + body + struct.pack(e + 'I', t)


def opts(lst, e):
    if not lst:
        return b''
    return b''.join(struct.pack(e + 'HH', c, len(v)) + pad(v) for c, v in lst) + \
        struct.pack(e + 'HH', 0, 0)


def shb(e, minor=0):
    return block(0x0a0d0d0a, struct.pack(e + 'IHHq', 0x1a2b3c4d, 1, minor, -1) +
                 opts([(1, b'stripes')], e), e)


def idb(e, lt=1, snap=0, o=()):
    return block(1, struct.pack(e + 'HHI', lt, 0, snap) + opts(o, e), e)


def epb(e, data, ts, iface=0, o=()):
    return block(6, struct.pack(e + 'IIIII', iface, ts >> 32, ts & 0xffffffff, len(data),
                                len(data)) + pad(data) + opts(o, e), e)


def spb(e, data):
    return block(3, struct.pack(e + 'I', len(data)) + data, e)


def pb(e, data, ts):
    return block(2, struct.pack(e + 'HHIIII', 0, 0, ts >> 32, ts & 0xffffffff, len(data),
                                len(data)) + pad(data), e)


def custom(e, n):
    return block(0xbad, struct.pack(e + 'I', 32473) + bytes(i & 0xff for i in range(n)), e)


def others(e, i):
    """A block that is not a packet, a different one each time."""
    k = i % 5
    if k == 0:
        return custom(e, i % 97)
    if k == 1:  # name resolution: an IPv4 record, the end
        return block(4, struct.pack(e + 'HH', 1, 8) + b'\x0a\0\0\1ab\0\0' +
                     struct.pack(e + 'HH', 0, 0), e)
    if k == 2:  # interface statistics
        return block(5, struct.pack(e + 'III', 0, 0, i), e)
    if k == 3:
        return block(0x40000bad, struct.pack(e + 'I', 32473) + b'x' * (i % 13), e)
    return block(0x12345678, b'unknown' * (i % 3), e)


def section(e, n, ts, snap=0, big=0, first=True, every=3):
    """SHB (unless first is False), an IDB, n packets of all kinds with
    other blocks between them, a second IDB half way; big > 0: a custom
    block and a packet with options of big bytes in the middle."""
    b = shb(e, minor=2 if not first else 0) if first is not None else b''
    b += idb(e, snap=snap)
    nif = 1
    cut = snap if snap else 1 << 30
    for i in range(n):
        f = FR[i % len(FR)][:cut]
        k = i % 4
        if k == 0 or nif == 1 and k == 3:
            b += epb(e, f, ts + i * 1000)
        elif k == 1:
            b += spb(e, f)
        elif k == 2:
            b += pb(e, f, ts + i * 1000)
        else:
            b += epb(e, f, (ts + i) * 1000 + 7, iface=1, o=[(1, b'on the second')])
        if i % every == 0:
            b += others(e, i)
        if i == n // 2:
            b += idb(e, snap=snap, o=[(9, b'\x09'), (2, b'eth1')])
            nif = 2
        if i == n // 4:
            b += epb(e, BIG[0][:cut], ts) + spb(e, BIG[1][:cut])
        if big and i == n // 3:
            b += custom(e, big) + epb(e, f, ts, o=[(1, b'o' * 60000)] * (big // 60000))
    return b


def write(name, data):
    with open(os.path.join(out, name + '.pcapng'), 'wb') as f:
        f.write(data)


for e, n in (('<', 'le'), ('>', 'be')):
    mix = (section(e, 150, T0, big=300000) + section(e, 60, T0 + 10**9) +
           section(e, 90, T0 + 2 * 10**9, every=1))
    write('mix-' + n, mix)
L = '<'
write('snap-small', b''.join(
    section(L, 80, T0 + s * 10**8, snap=128, every=1) +
    b''.join(custom(L, 150 + 700 * j) + epb(L, FR[j][:100], T0, o=[(1, b'p' * (150 + 900 * j))])
             for j in range(4)) for s in range(4)))
write('huge-custom', section(L, 40, T0) + custom(L, 2 << 20) + section(L, 40, T0, first=None))

mix = (section(L, 150, T0) + section(L, 60, T0 + 10**9))
good = section(L, 150, T0 + 5, first=None)
write('bad-trailer', mix + block(6, b'\0' * 20, L, trailer=36) + good)
write('bad-len-huge', mix + struct.pack('<II', 6, 0xfffffff0) + b'\0' * 40 + good)
write('bad-iface', mix + epb(L, FR[0], T0, iface=7) + good)
write('bad-byte-order', mix + shb('>') + idb('>') + good)
write('bad-idb-linktype', mix + idb(L, lt=113) + good)
