#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gbpdump -j N reads a classic pcap file in stripes (docs/parallel.md):
# each worker reads its own stripe, the one reader walks the records that
# start in it.  Records that run over one or many stripes, a file cut at
# every byte around stripe ends (truncated header, truncated record, the
# exact end of a record), a record header that lies mid-file: standard
# output, standard error and the exit status are those of -j 1, and the
# run did read in stripes (GBPDUMP_JOBS_DEBUG).
#   stripes.sh GBPDUMP GBPGEN FIXTURES [quick]   (quick: sanitizer builds,
#   every seventh cut)
set -u
G=$1
GEN=$2
FIX=$3
STEP=1
[ "${4:-}" = quick ] && STEP=7
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# sizes from 60 to about 1,500 bytes, a few VNIs and groups
printf '%s\n' "count=120 vni=100 vnis=5 gbp=1 groups=9 hosts=20 flows=40 pick=uniform payload=0 payload-max=1400 seed=7" \
	"count=5 gbp=77 proto=udp payload=3000" >"$T/spec"
"$GEN" -w "$T/g.pcap" -f "$T/spec" || exit 1
fail=0
n=0
# one comparison: $1 capture, $2 -j, $3 stripe bytes, rest the options
cmp_run() {
	par_run "$@"
	shift 3
	if ! grep -q "^gbpdump: -j $j: read in stripes of $c bytes$" "$T/par.dbg"; then
		echo "FAIL: $cap -j $j stripes $c $*: not read in stripes"
		fail=1
	fi
	par_same "$cap -j $j stripes $c $*"
}
for cap in "$T/g.pcap" "$FIX/big-tcp.pcap" "$FIX/tunnels.pcap"; do
	for c in 1 61 700 4096 65536; do
		for j in 2 3; do
			cmp_run "$cap" "$j" "$c" -tt
			cmp_run "$cap" "$j" "$c" --check --json
		done
	done
	cmp_run "$cap" 4 333 --stats
done
# cut short at every byte of two stretches of the generated capture (the
# header of record 3 on, the middle of the file) and at the end
size=$(wc -c <"$T/g.pcap")
mid=$((size / 2))
for cut in $(seq 150 "$STEP" 260) $(seq "$mid" "$STEP" $((mid + 90))) $((size - 1)); do
	head -c "$cut" "$T/g.pcap" >"$T/cut.pcap"
	cmp_run "$T/cut.pcap" 2 100 -tt
	cmp_run "$T/cut.pcap" 3 1 -c 1000
done
# a record header in the middle (record 60) that claims more than the
# link type holds
off=24
i=1
while [ $i -lt 60 ]; do
	len=$(od -An -t u4 -j $((off + 8)) -N 4 "$T/g.pcap" | tr -d ' ')
	off=$((off + 16 + len))
	i=$((i + 1))
done
cp "$T/g.pcap" "$T/bad.pcap"
printf '\377\377\377\177' | dd of="$T/bad.pcap" bs=1 seek=$((off + 8)) conv=notrunc 2>/dev/null
for c in 1 64 4096; do
	cmp_run "$T/bad.pcap" 2 "$c" -tt
done
grep -q "frame 60 at offset $off: record claims" "$T/one.err" ||
	{ echo "FAIL: the bad record was not where it was put"; cat "$T/one.err"; fail=1; }
[ "$fail" = 0 ] && echo "stripes: $n runs = -j 1"
exit "$fail"
