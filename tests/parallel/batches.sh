#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gbpdump -j N on captures of many batches (parallel.h: at most GD_PAR_RECS,
# 256, records a batch): classic pcap, pcapng, gzip on standard input; a
# file cut at every byte of two stretches (truncated header, truncated
# record, the exact end of a record), a record header mid-file that claims
# too much, -c stopping mid-batch; a pcapng file of two sections with
# blocks longer than a worker's buffer (reader.h: the block is copied into
# a larger one), whole and cut inside them: standard output, standard
# error and the exit status are those of -j 1.
#   batches.sh GBPDUMP GBPGEN FIXTURES [quick]   (quick: sanitizer builds,
#   every seventh cut)
set -u
G=$1
GEN=$2
FIX=$3
STEP=1
[ "${4:-}" = quick ] && STEP=7
# shellcheck source=tests/parallel/lib.sh disable=SC2034 # G: used by lib.sh
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# 1,205 frames (five batches and more) of 60 to about 1,500 bytes, a few
# VNIs and groups, and five records larger than any other
printf '%s\n' "count=1200 vni=100 vnis=5 gbp=1 groups=9 hosts=20 flows=40 pick=uniform payload=0 payload-max=1400 seed=7" \
	"count=5 gbp=77 proto=udp payload=3000" >"$T/spec"
"$GEN" -w "$T/g.pcap" -f "$T/spec" || exit 1
"$GEN" -w "$T/g.pcapng" --pcapng -f "$T/spec" || exit 1
gzip -c "$T/g.pcap" >"$T/stdin.bin" || exit 1
fail=0
n=0
for cap in "$T/g.pcap" "$T/g.pcapng" - "$FIX/big-tcp.pcap" "$FIX/tunnels.pcap"; do
	for j in 2 3 4; do
		for m in "-tt" "--check --json" "--stats" "--json -c 700" "-v -tt udp"; do
			# shellcheck disable=SC2086 # the mode's words on purpose
			par_run "$cap" "$j" $m
			par_same "$cap -j $j $m"
		done
	done
done
# cut short at every byte of two stretches of the classic capture (the
# header of record 3 on, the middle of the file) and at the end
size=$(wc -c <"$T/g.pcap")
mid=$((size / 2))
for cut in $(seq 150 "$STEP" 260) $(seq "$mid" "$STEP" $((mid + 90))) $((size - 1)); do
	head -c "$cut" "$T/g.pcap" >"$T/cut.pcap"
	par_run "$T/cut.pcap" 2 -tt
	par_same "cut at $cut -j 2 -tt"
	par_run "$T/cut.pcap" 3 -c 1000
	par_same "cut at $cut -j 3 -c 1000"
done
# a record header in the third batch (record 600) that claims more than
# the link type holds
off=24
i=1
while [ $i -lt 600 ]; do
	len=$(od -An -t u4 -j $((off + 8)) -N 4 "$T/g.pcap" | tr -d ' ')
	off=$((off + 16 + len))
	i=$((i + 1))
done
cp "$T/g.pcap" "$T/bad.pcap"
printf '\377\377\377\177' | dd of="$T/bad.pcap" bs=1 seek=$((off + 8)) conv=notrunc 2>/dev/null
for j in 2 4; do
	par_run "$T/bad.pcap" "$j" -tt
	par_same "bad record -j $j"
done
grep -q "frame 600 at offset $off: record claims" "$T/one.err" ||
	{ echo "FAIL: the bad record was not where it was put"; cat "$T/one.err"; fail=1; }
# le32 N: N as 4 little-endian bytes.  skip_block LEN: a pcapng block of
# LEN bytes (a multiple of 4) that libpcap skips: a custom block (type
# 0xBAD, PEN 32473 of RFC 5612), its data zeros.
le32() {
	for s in 0 8 16 24; do
		# shellcheck disable=SC2059 # the octal escape is the format
		printf "\\$(printf %03o $((($1 >> s) & 255)))"
	done
}
skip_block() {
	le32 2989
	le32 "$1"
	le32 32473
	head -c $(($1 - 16)) /dev/zero
	le32 "$1"
}
head -n 1 "$T/spec" | sed 's/count=1200/count=700/' >"$T/spec1"
sed 's/count=1200/count=500/; s/seed=7/seed=8/' "$T/spec" >"$T/spec2"
"$GEN" -w "$T/n1.pcapng" --pcapng -f "$T/spec1" && "$GEN" -w "$T/n2.pcapng" --pcapng -f "$T/spec2" ||
	exit 1
# 700 frames, 1 MiB skipped, a second section of 505 frames, 600 KB skipped
{ cat "$T/n1.pcapng"; skip_block 1048576; cat "$T/n2.pcapng"; skip_block 600000; } >"$T/ng.pcapng"
"$G" -r "$T/ng.pcapng" --stats | grep -q "^1205 frames" ||
	{ echo "FAIL: the two-section pcapng is not 1205 frames"; fail=1; }
for j in 2 3; do
	for m in "-tt" "--stats --json" "-v -tt udp"; do
		# shellcheck disable=SC2086 # the mode's words on purpose
		par_run "$T/ng.pcapng" "$j" $m
		par_same "two-section pcapng -j $j $m"
	done
done
b1=$(wc -c <"$T/n1.pcapng")
for cut in $((b1 + 7)) $((b1 + 300000)) $((b1 + 1048575)) $((b1 + 1048576 + 100)) \
	$(($(wc -c <"$T/ng.pcapng") - 1)); do
	head -c "$cut" "$T/ng.pcapng" >"$T/cut.pcapng"
	par_run "$T/cut.pcapng" 2 -tt
	par_same "two-section pcapng cut at $cut -j 2"
done
grep -q "truncated block" "$T/one.err" ||
	{ echo "FAIL: the pcapng cut in its last block is not a truncated block"; cat "$T/one.err"; fail=1; }
[ "$fail" = 0 ] && echo "batches: $n runs = -j 1"
exit "$fail"
