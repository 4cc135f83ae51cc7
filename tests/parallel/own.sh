#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gbpdump -j N where stage 2 is order-free (parallel.c's order_free():
# --stats, text without -c or -w): each worker feeds its own tracker, made
# into the run's at the end by vxgbp_track_absorb(); and a classic pcap
# file read in blocks, each worker pread(2)ing its own (docs/parallel.md).
# On a capture of many batches whose hosts change group all the time (two
# group plans mixed frame by frame, so an endpoint's last group is often in
# another worker's batch): -j 2 to 4, filters, pcapng, standard input,
# several inputs and a directory; budgets from where every table of one
# tracker drops keys to where none does (the sum must drop what one
# tracker fed the frames in order drops, to the frame); a cut file and a
# bad record header mid-file.  Standard output, standard error and the
# exit status are those of -j 1.
#   own.sh GBPDUMP GBPGEN [quick]   (quick: sanitizer builds)
set -u
G=$1
GEN=$2
QUICK=0
[ "${3:-}" = quick ] && QUICK=1
# shellcheck source=tests/parallel/lib.sh disable=SC2034 # G: used by lib.sh
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# about 3.4 MB, 26 batches: 300 VNIs, 2,400 hosts, 3,000 flows
printf '%s\n' \
	"count=3000 vni=100 vnis=150 gbp=100 groups=5 hosts=1200 flows=1500 pick=uniform payload=0 payload-max=900 seed=1" \
	"count=3000 vni=100 vnis=150 gbp=200 groups=7 hosts=1200 flows=1500 pick=uniform payload=0 payload-max=900 seed=2" \
	"count=300 vni=300 hosts=10 flows=20 pick=uniform seed=3" >"$T/spec"
"$GEN" --mix 5 -w "$T/g.pcap" -f "$T/spec" || exit 1
"$GEN" --mix 5 --pcapng -w "$T/g.pcapng" -f "$T/spec" || exit 1
cp "$T/g.pcap" "$T/stdin.bin"
mkdir "$T/dir"
"$GEN" -w "$T/dir/a.pcap" "count=2000 vni=100 vnis=50 gbp=100 groups=5 hosts=400 pick=uniform payload-max=900 seed=4" || exit 1
"$GEN" --pcapng -w "$T/dir/b.pcapng" "count=2000 vni=120 vnis=50 gbp=200 groups=5 hosts=400 pick=uniform payload-max=900 seed=5" || exit 1
fail=0
n=0
if [ $QUICK = 1 ]; then jobs="3"; else jobs="2 3 4"; fi
for j in $jobs; do
	for cap in "$T/g.pcap" "$T/g.pcapng" -; do
		for m in "--stats" "--stats --json" "-tt" "--stats --gbp 0x65" \
			"--stats --vni 101" "--stats udp and not ip6"; do
			# shellcheck disable=SC2086 # the mode's words on purpose
			par_run "$cap" "$j" $m
			par_same "$cap -j $j $m"
		done
	done
	par_run "$T/dir/a.pcap" "$j" --stats -r "$T/dir/b.pcapng"
	par_same "-r a -r b -j $j --stats"
	par_run "$T/dir" "$j" --stats --json
	par_same "-r DIR -j $j --stats --json"
done
# through a mirror (a VXLAN header of the mirror's around the fabric's
# GBP one): the workers' trackers follow the header the run's does
printf '%s\n' \
	"count=3000 vni=100 vnis=150 gbp=100 groups=5 hosts=1200 flows=1500 pick=uniform seed=6 wrap=vxlan,vni=7" \
	"count=300 vni=300 hosts=10 flows=20 pick=uniform seed=7" >"$T/mspec"
"$GEN" --mix 6 -w "$T/m.pcap" -f "$T/mspec" || exit 1
for f in gbp first innermost; do
	par_run "$T/m.pcap" 2 --stats --fabric-header "$f"
	par_same "mirror -j 2 --stats --fabric-header $f"
done
# frames per mirror summed over the workers: sessions of three kinds, and
# 6,400 VNIs of mirrors, more than one tracker holds (6,144): the sum must
# drop the mirrors one tracker fed the frames in order drops
printf '%s\n' \
	"count=2000 vni=100 vnis=50 gbp=100 hosts=400 pick=uniform seed=8 wrap=vxlan,vni=7" \
	"count=2000 vni=100 vnis=50 gbp=100 hosts=400 pick=uniform seed=9 wrap=geneve,vni=77" \
	"count=2000 vni=100 vnis=50 gbp=100 hosts=400 pick=uniform seed=10 wrap=erspan2,session=5" \
	"count=500 vni=300 hosts=10 pick=uniform seed=11" >"$T/mspec2"
i=0
while [ $i -lt 6400 ]; do
	echo "count=2 vni=100 gbp=0x100 wrap=vxlan,vni=$((10000 + i))"
	i=$((i + 1))
done >>"$T/mspec2"
"$GEN" --mix 7 -w "$T/m2.pcap" -f "$T/mspec2" || exit 1
par_run "$T/m2.pcap" 2 --stats
par_same "mirrors -j 2 --stats"
grep -q "^  VXLAN vni 7  *2000 " "$T/one.out" && grep -q "^  Geneve vni 77  *2000 " "$T/one.out" &&
	grep -q "^  ERSPAN-II session 5  *2000 " "$T/one.out" &&
	grep -q "^  (not stored)  *[1-9]" "$T/one.out" ||
	{ echo "FAIL: -j 1 --stats did not count the mirrors"; head -30 "$T/one.out"; fail=1; }
for m in "--stats --json" "--stats --fabric-header first"; do
	# shellcheck disable=SC2086
	par_run "$T/m2.pcap" 2 $m
	par_same "mirrors -j 2 $m"
done
# budgets: 1300K, where one tracker drops VNIs, pairs and endpoints, to
# 2M, where it drops nothing (the fixed part is about 1.2M)
full=0 whole=0
for b in 1300K 1350K 1400K 1450K 1500K 1550K 1600K 1700K 1800K 2M; do
	for j in $jobs; do
		par_run "$T/g.pcap" "$j" --stats --track-budget "$b"
		par_same "-j $j --stats --track-budget $b"
	done
	if grep -q "tables full" "$T/one.err"; then full=$((full + 1)); else whole=$((whole + 1)); fi
	[ $QUICK = 1 ] && continue
	par_run "$T/g.pcapng" 2 --stats --json --track-budget "$b"
	par_same "pcapng -j 2 --stats --json --track-budget $b"
	par_run "$T/dir" 4 --stats --track-budget "$b"
	par_same "-r DIR -j 4 --stats --track-budget $b"
done
[ $full -ge 5 ] && [ $whole -ge 1 ] ||
	{ echo "FAIL: budgets: $full dropped keys, $whole did not (want >= 5 and >= 1)"; fail=1; }
par_run "$T/g.pcap" 2 --stats --track-budget 1300K
grep -q "[1-9][0-9]* frames not counted per VNI.* [1-9][0-9]* endpoints not learned" \
	"$T/one.err" || { echo "FAIL: 1300K dropped no VNI or no endpoint"; fail=1; }
# the order kept where it matters
for m in "--stats -c 1000" "-tt -c 2500" "--stats --check" "-v -tt"; do
	# shellcheck disable=SC2086
	par_run "$T/g.pcap" 3 $m
	par_same "-j 3 $m"
done
# a cut file, a record header mid-file that claims more than the link
# type holds: the frames before it counted, the same error
size=$(wc -c <"$T/g.pcap")
head -c $((size / 2 + 7)) "$T/g.pcap" >"$T/cut.pcap"
par_run "$T/cut.pcap" 2 --stats
par_same "cut -j 2 --stats"
off=24
i=1
while [ $i -lt 2000 ]; do
	len=$(od -An -t u4 -j $((off + 8)) -N 4 "$T/g.pcap" | tr -d ' ')
	off=$((off + 16 + len))
	i=$((i + 1))
done
cp "$T/g.pcap" "$T/bad.pcap"
printf '\377\377\377\177' | dd of="$T/bad.pcap" bs=1 seek=$((off + 8)) conv=notrunc 2>/dev/null
par_run "$T/bad.pcap" 3 --stats
par_same "bad record -j 3 --stats"
grep -q "frame 2000 at offset $off: record claims" "$T/one.err" ||
	{ echo "FAIL: the bad record was not where it was put"; cat "$T/one.err"; fail=1; }
# the way the runs went, seen in their system calls: a classic pcap or
# pcapng file read in blocks of GD_PAR_CHUNK (parallel.h) bytes, several
# inputs not.  strace -ff: a file a thread, so that no call is printed in
# two halves (-f splits a call another thread's interrupts into
# "<unfinished ...>" and "<... pread64 resumed>", which a busy machine
# does to every block's pread).
preads() {
	rm -f "$T"/st.*
	strace -ff -qq -e trace=pread64 -o "$T/st" "$G" -j 3 "$@" --stats >/dev/null 2>&1
	cat "$T"/st.* 2>/dev/null | grep -c "pread64(.*, 262144, "
}
if command -v strace >/dev/null 2>&1; then
	for cap in "$T/g.pcap" "$T/g.pcapng"; do
		[ "$(preads -r "$cap")" -gt 0 ] ||
			{ echo "FAIL: -j 3 did not read $(basename "$cap") in blocks"; fail=1; }
	done
	[ "$(preads -r "$T/dir/a.pcap" -r "$T/dir/b.pcapng")" -eq 0 ] ||
		{ echo "FAIL: several inputs were read in blocks"; fail=1; }
else
	echo "own: no strace, the way the runs went not checked"
fi
[ "$fail" = 0 ] && echo "own: $n runs = -j 1 ($full budgets dropped keys)"
exit "$fail"
