#!/usr/bin/env python3
# options.py GBPDUMP WORKDIR
# The pcapng reader's checks one capture each, fast (issue 33: planted bugs
# in pcapng.c passed pcapng.mutants, which compares the readers on random
# damage, and only pcapng.agree's minutes of tshark caught some):
#   if_tsoffset moves every time stamp by its seconds, in microseconds
#   (pcapng_quick()) and in milliseconds (stamp());
#   if_tsresol 2^-64 is refused; an if_tsoffset of 16 bytes is refused;
#   a block whose length is not a multiple of 4 is refused.
import os, struct, subprocess, sys

gd, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)


def block(t, body):
    n = 12 + len(body)
    return struct.pack('<II', t, n) + body + struct.pack('<I', n)


def opt(code, val):
    return struct.pack('<HH', code, len(val)) + val + b'\0' * (-len(val) % 4)


SHB = block(0x0a0d0d0a, struct.pack('<IHHq', 0x1a2b3c4d, 1, 0, -1))
# an Ethernet frame with an IPv4 header, nothing after it
FRAME = bytes.fromhex('ffffffffffff020000000001080045000014000100004011f9e4c0000201c0000202')


def idb(opts=b''):
    return block(1, struct.pack('<HHI', 1, 0, 65535) + (opts + opt(0, b'') if opts else b''))


def epb(t=1700000000 * 10**6):
    pad = b'\0' * (-len(FRAME) % 4)
    return block(6, struct.pack('<IIIII', 0, t >> 32, t & 0xffffffff, len(FRAME),
                                len(FRAME)) + FRAME + pad)


def len_not4():
    b = bytearray(SHB + idb() + epb() + b'\0\0')
    at = len(SHB) + len(idb())
    n = struct.unpack_from('<I', b, at + 4)[0] + 2
    struct.pack_into('<I', b, at + 4, n)
    struct.pack_into('<I', b, len(b) - 4, n)
    return bytes(b)


# name: capture, exit status, what standard output starts with or standard
# error holds
CASES = [
    ('plain', SHB + idb() + epb(), 0, '1700000000.000000 IP 192.0.2.1 > 192.0.2.2'),
    ('tsoffset', SHB + idb(opt(14, struct.pack('<q', 100))) + epb(), 0,
     '1700000100.000000 IP 192.0.2.1 > 192.0.2.2'),
    # milliseconds: read by stamp(), not by pcapng_quick() (microseconds)
    ('tsoffset-ms', SHB + idb(opt(9, bytes([3])) + opt(14, struct.pack('<q', 100))) +
     epb(1700000000 * 10**3 + 250), 0, '1700000100.250000 IP 192.0.2.1 > 192.0.2.2'),
    ('tsoffset-neg', SHB + idb(opt(14, struct.pack('<q', -100))) + epb(), 0,
     '1699999900.000000 IP 192.0.2.1 > 192.0.2.2'),
    ('tsresol-2^-64', SHB + idb(opt(9, bytes([0x80 | 64]))) + epb(), 2,
     'if_tsresol 2^-64 is finer than 64 bits can count'),
    ('tsresol-2^-63', SHB + idb(opt(9, bytes([0x80 | 63]))) + epb(), 0, ' IP 192.0.2.1'),
    ('tsoffset-16-bytes', SHB + idb(opt(14, b'\0' * 16)) + epb(), 2,
     'if_tsoffset with length 16'),
    ('length-not-4', len_not4(), 1, 'has a length of 70 (not a multiple of 4)'),
]

fails = 0
for name, cap, want_rc, want in CASES:
    path = os.path.join(work, name + '.pcapng')
    with open(path, 'wb') as f:
        f.write(cap)
    r = subprocess.run([gd, '-r', path, '-tt'], capture_output=True, text=True, timeout=30)
    seen = r.stdout if want_rc == 0 else r.stderr
    ok = r.returncode == want_rc and (seen.startswith(want) if want_rc == 0 and want[0] != ' '
                                      else want in seen)
    if not ok:
        fails += 1
        print('FAIL %s: exit %d (wanted %d), out %r, err %r' % (name, r.returncode, want_rc,
                                                              r.stdout[:120], r.stderr[:200]))
print('options.py: %d cases, %d failure(s)' % (len(CASES), fails))
sys.exit(1 if fails else 0)
