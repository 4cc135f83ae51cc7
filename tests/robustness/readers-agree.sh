#!/bin/sh
# tests/robustness/readers-agree.sh GBPDUMP FIXTURES: the headers issue 30
# found the native reader and --libpcap disagreeing on, read by both: pcap
# versions 2.5, 3.0, 65535.1 (refused by both, as libpcap reads 2.0-2.4 and
# 543.0), 2.4 (read), and link-type words with bits 16-31 set.  Same exit
# status and the same output from both.  (tests/pcapng/mutants.py draws
# 800 mutants of the same kind at random.)
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
exit $fail
