#!/bin/sh
# tests/robustness/readers-agree.sh GBPDUMP FIXTURES: the headers issue 30
# found the native reader and --libpcap disagreeing on, read by both: pcap
# versions 2.5, 3.0, 65535.1 (refused by both, as libpcap reads 2.0-2.4 and
# 543.0), 2.4 (read), and link-type words with bits 16-31 set.  Same exit
# status and the same output from both.  (tests/pcapng/mutants.py draws
# 800 mutants of the same kind at random.)  Then pcapng files whose second
# section header is in the other byte order, which pcapng allows and
# libpcap refuses: after packets (exit 1, the packets before it printed),
# before the first interface (exit 2), and one whose length, read in the
# first order, fits (libpcap skips that many bytes and runs out of file).
# Both refuse alike, and the native reader says why, at which offset.
set -u
G=$1 FIX=$2
. "$(dirname "$0")/lib.sh"

/usr/bin/python3 - "$FIX/basic-gbp.pcap" "$tmp" <<'PY'
import struct, sys
base = open(sys.argv[1], 'rb').read()
def put(name, off, fmt, v):
    b = bytearray(base)
    b[off:off + struct.calcsize(fmt)] = struct.pack(fmt, *v)
    open('%s/%s.pcap' % (sys.argv[2], name), 'wb').write(b)
for ma, mi in ((2, 5), (3, 0), (65535, 1), (2, 4), (1, 0), (543, 0)):
    put('v%d.%d' % (ma, mi), 4, '<HH', (ma, mi))
for lt in (0x02000001, 0x00010001, 0x04000001, 0xfc000001):
    put('lt%08x' % lt, 20, '<I', (lt,))
PY
for f in "$tmp"/*.pcap; do
	"$G" -tt -v -r "$f" > "$tmp/a" 2>&1
	a=$?
	"$G" -tt -v --libpcap -r "$f" > "$tmp/b" 2>&1
	b=$?
	n=$(basename "$f")
	[ $a = $b ] || err "$n: exit $a, --libpcap $b"
	# the messages name the reader that refused; the frames must agree
	grep -v '^gbpdump: ' "$tmp/a" > "$tmp/a2"; grep -v '^gbpdump: ' "$tmp/b" > "$tmp/b2"
	cmp -s "$tmp/a2" "$tmp/b2" || err "$n: the two readers print different frames"
done

/usr/bin/python3 - "$FIX/basic-gbp.pcap" "$tmp" <<'PY'
import struct, sys
raw = open(sys.argv[1], 'rb').read()
frames, off = [], 24
while off < len(raw):
    cap = struct.unpack_from('<I', raw, off + 8)[0]
    frames.append(raw[off + 16:off + 16 + cap])
    off += 16 + cap
def blk(e, t, body, size=0):
    body += bytes(max(-len(body) % 4, size - 12 - len(body)))
    n = len(body) + 12
    return struct.pack(e + 'II', t, n) + body + struct.pack(e + 'I', n)
def shb(e, size=0):
    return blk(e, 0x0a0d0d0a, struct.pack(e + 'IHHq', 0x1a2b3c4d, 1, 0, -1), size)
def idb(e):
    return blk(e, 1, struct.pack(e + 'HHI', 1, 0, 262144))
def epbs(e):
    return b''.join(blk(e, 6, struct.pack(e + 'IIIII', 0, 0, 1000000 * i, len(f), len(f)) + f)
                    for i, f in enumerate(frames))
def put(name, b):
    open('%s/%s.pcapng' % (sys.argv[2], name), 'wb').write(b)
for a, b in (('<', '>'), ('>', '<')):
    n = 'le' if a == '<' else 'be'
    put('%s-then-other' % n, shb(a) + idb(a) + epbs(a) + shb(b) + idb(b) + epbs(b))
    put('%s-other-first' % n, shb(a) + shb(b) + idb(b) + epbs(b))
put('le-other-fits', shb('<') + shb('>', 256) + idb('<') + epbs('<'))
PY
# name, exit status, the native reader's message (after "gbpdump: FILE: ")
while read -r n want msg; do
	f=$tmp/$n.pcapng
	"$G" -tt -v -r "$f" > "$tmp/a" 2>&1
	a=$?
	"$G" -tt -v --libpcap -r "$f" > "$tmp/b" 2>&1
	b=$?
	[ $a = "$want" ] || err "$n: exit $a, want $want"
	[ $a = $b ] || err "$n: exit $a, --libpcap $b"
	grep -v '^gbpdump: ' "$tmp/a" > "$tmp/a2"; grep -v '^gbpdump: ' "$tmp/b" > "$tmp/b2"
	cmp -s "$tmp/a2" "$tmp/b2" || err "$n: the two readers print different frames"
	grep -qxF "gbpdump: $f: $msg" "$tmp/a" || err "$n: '$(grep '^gbpdump: ' "$tmp/a")' is not '$msg'"
	case $n in *-then-other) [ -s "$tmp/a2" ] || err "$n: no frame printed before the error" ;; esac
done <<EOF
le-then-other 1 frame 11 at offset 1708: a section header block in the other byte order (big-endian after little-endian): pcapng allows it, libpcap reads one byte order per file
be-then-other 1 frame 11 at offset 1708: a section header block in the other byte order (little-endian after big-endian): pcapng allows it, libpcap reads one byte order per file
le-other-first 2 frame 1 at offset 28: a section header block in the other byte order (big-endian after little-endian): pcapng allows it, libpcap reads one byte order per file
be-other-first 2 frame 1 at offset 28: a section header block in the other byte order (little-endian after big-endian): pcapng allows it, libpcap reads one byte order per file
le-other-fits 2 frame 1 at offset 28: a section header block in the other byte order (big-endian after little-endian): pcapng allows it, libpcap reads one byte order per file
EOF
exit $fail
