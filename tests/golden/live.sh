#!/bin/sh
# gbpdump -i: a live capture in a network namespace of its own (nothing
# leaves it): VXLAN-GBP datagrams built by gbpgen are sent to 127.0.0.1:4789
# on the namespace's loopback while gbpdump captures there with a BPF filter.
# Exit 77 (skipped) where namespaces cannot be made (not root).
# Usage: live.sh GBPDUMP GBPGEN
set -u
gbpdump=$1 gbpgen=$2
if [ "$(id -u)" -ne 0 ] || ! unshare -n true 2>/dev/null; then
	echo "skipped: needs root and network namespaces"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gbpgen" -w "$tmp/frames.pcap" 'vni=100 gbp=0x200 d=1' 'vni=7 gbp=0x300 a=1' 'vni=9' || exit 1
export gbpdump tmp
unshare -n sh -c '
	ip link set lo up
	"$gbpdump" -i lo -c 3 --json "udp dst port 4789" > "$tmp/out" 2> "$tmp/err" &
	pid=$!
	python3 - "$tmp/frames.pcap" <<PY
import socket, struct, sys, time
data = open(sys.argv[1], "rb").read()
off, payloads = 24, []
while off + 16 <= len(data):
    caplen = struct.unpack("<I", data[off + 8:off + 12])[0]
    frame = data[off + 16:off + 16 + caplen]
    payloads.append(frame[42:])  # Ethernet 14 + IPv4 20 + UDP 8
    off += 16 + caplen
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(50):            # until gbpdump has seen three (it starts asynchronously)
    for p in payloads:
        s.sendto(p, ("127.0.0.1", 4789))
    time.sleep(0.1)
PY
	wait $pid
'
rc=$?
cat "$tmp/err"
fail=0
lines=$(wc -l < "$tmp/out")
[ "$lines" -eq 3 ] || { echo "FAIL: wanted 3 frames, got $lines"; fail=1; }
grep -q '"gbp":{"id":512,"dont_learn":true,"policy_applied":false}' "$tmp/out" ||
	grep -q '"gbp":{"id":768,"dont_learn":false,"policy_applied":true}' "$tmp/out" ||
	{ echo "FAIL: no GBP frame decoded"; fail=1; }
grep -q '"vxlan":null' "$tmp/out" && { echo "FAIL: a non-VXLAN frame passed the filter"; fail=1; }
head -3 "$tmp/out"
[ $rc -eq 0 ] || { echo "FAIL: gbpdump exit $rc"; fail=1; }
[ $fail -eq 0 ] && echo "live capture: 3 frames decoded"
exit $fail
