#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gbpdump -j N --stats keeps a tracker per worker and adds them up at the
# end (vxgbp_track_absorb, docs/parallel.md; GBPDUMP_SHARDS=1 at any -j).  On a capture whose hosts
# change group all the time (two group plans mixed frame by frame, so an
# endpoint's last group is often in another worker's stripe), with stripes
# of 61 bytes to 64 KiB, 2 to 4 workers, filters, budgets where one tracker
# drops keys (the sum is refused and the file read again with one
# tracker), pcapng, a cut file and a bad record header mid-file, and every
# fixture read in stripes: standard output, standard error and the exit
# status are those of -j 1, and the run said which way it went
# (GBPDUMP_JOBS_DEBUG).
#   shards.sh GBPDUMP GBPGEN FIXTURES [quick]   (quick: sanitizer builds)
set -u
G=$1
GEN=$2
FIX=$3
QUICK=0
[ "${4:-}" = quick ] && QUICK=1
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '%s\n' \
	"count=3000 vni=100 vnis=3 gbp=100 groups=5 hosts=40 flows=300 pick=uniform payload=0 payload-max=900 seed=1" \
	"count=3000 vni=100 vnis=3 gbp=200 groups=7 hosts=40 flows=300 pick=uniform payload=0 payload-max=900 seed=2" \
	"count=300 vni=300 hosts=10 flows=20 pick=uniform seed=3" >"$T/spec"
"$GEN" --mix 5 -w "$T/g.pcap" -f "$T/spec" || exit 1
"$GEN" --mix 5 --pcapng -w "$T/g.pcapng" -f "$T/spec" || exit 1
# a tracker per worker at any -j (by default from -j 3: main.c)
GBPDUMP_SHARDS=1
export GBPDUMP_SHARDS
fail=0
n=0
refused=0
summed=0
# one comparison: $1 capture, $2 -j, $3 stripe bytes, $4 what the debug
# lines must say (sum: a tracker per thread; refused: read again; noroom:
# the budget's shares too small for a tracker; one: a single tracker, not
# tried; any: sum or refused), rest the options
cmp_run() {
	want=$4
	cap=$1 j=$2 c=$3
	shift 4
	par_run "$cap" "$j" "$c" "$@"
	said=one
	if grep -q "^gbpdump: -j $j: a tracker per thread: no room, one tracker$" \
		"$T/par.dbg"; then
		said=noroom
	elif grep -q "^gbpdump: -j $j: a tracker per thread, refused: read again with one$" \
		"$T/par.dbg"; then
		said=refused
		refused=$((refused + 1))
	elif grep -q "^gbpdump: -j $j: a tracker per thread$" "$T/par.dbg"; then
		said=sum
		summed=$((summed + 1))
	fi
	if [ "$want" != "$said" ] && ! { [ "$want" = any ] && { [ "$said" = sum ] ||
		[ "$said" = refused ]; }; }; then
		echo "FAIL: $cap -j $j stripes $c $*: expected '$want', the run went '$said'"
		fail=1
	fi
	par_same "$cap -j $j stripes $c $*"
}
if [ $QUICK = 1 ]; then
	chunks="700 65536"
	jobs="2"
else
	chunks="61 700 4096 65536"
	jobs="2 3 4"
fi
for c in $chunks; do
	for j in $jobs; do
		cmp_run "$T/g.pcap" "$j" "$c" sum --stats
	done
	cmp_run "$T/g.pcap" 2 "$c" sum --stats --json
	cmp_run "$T/g.pcap" 3 "$c" sum --stats --gbp 0x65
	cmp_run "$T/g.pcap" 2 "$c" sum --stats --vni 101
	cmp_run "$T/g.pcap" 2 "$c" sum --stats udp and not ip6
done
# budgets from where the workers' trackers drop keys (each has an equal
# share) to where nothing is dropped: each run either sums exactly or reads
# again; both ways must be seen.  A share below the fixed part (1.25 MiB)
# leaves the one tracker.
for b in 2600K 2660K 2720K 2800K 3000K 3500K 4M; do
	cmp_run "$T/g.pcap" 2 4096 any --stats --track-budget "$b"
	[ $QUICK = 1 ] || cmp_run "$T/g.pcap" 2 700 any --stats --json --track-budget "$b"
done
cmp_run "$T/g.pcap" 2 4096 noroom --stats --track-budget 2M
cmp_run "$T/g.pcap" 3 4096 noroom --stats --track-budget 3M
[ $refused -gt 0 ] || { echo "FAIL: no budget made the sum be refused"; fail=1; }
# pcapng, read in stripes too
cmp_run "$T/g.pcapng" 2 700 sum --stats
cmp_run "$T/g.pcapng" 3 4096 sum --stats --json
cmp_run "$T/g.pcapng" 2 4096 refused --stats --track-budget 2600K
# by default from 3 workers on
GBPDUMP_SHARDS= cmp_run "$T/g.pcap" 2 4096 one --stats
GBPDUMP_SHARDS= cmp_run "$T/g.pcap" 3 4096 sum --stats
# not with GBPDUMP_SHARDS=0, nor where the counts do not simply add up
GBPDUMP_SHARDS=0 cmp_run "$T/g.pcap" 2 4096 one --stats
cmp_run "$T/g.pcap" 2 4096 one --stats -c 1000
cmp_run "$T/g.pcap" 2 4096 one --report "$T/r.html" --force --stats
cmp -s /dev/null "$T/r.html" && { echo "FAIL: --report wrote nothing"; fail=1; }
# a cut file, a record header mid-file that claims more than the link
# type holds: the frames before it counted, the same error
size=$(wc -c <"$T/g.pcap")
head -c $((size / 2 + 7)) "$T/g.pcap" >"$T/cut.pcap"
cmp_run "$T/cut.pcap" 2 700 sum --stats
off=24
i=1
while [ $i -lt 2000 ]; do
	len=$(od -An -t u4 -j $((off + 8)) -N 4 "$T/g.pcap" | tr -d ' ')
	off=$((off + 16 + len))
	i=$((i + 1))
done
cp "$T/g.pcap" "$T/bad.pcap"
printf '\377\377\377\177' | dd of="$T/bad.pcap" bs=1 seek=$((off + 8)) conv=notrunc 2>/dev/null
cmp_run "$T/bad.pcap" 3 4096 sum --stats
# every fixture read in stripes (the others take another path)
for f in "$FIX"/*.pcap "$FIX"/*.pcapng; do
	GBPDUMP_JOBS_DEBUG=1 "$G" -j 2 -r "$f" --stats 2>&1 >/dev/null |
		grep -q "^gbpdump: -j 2: read in stripes" || continue
	cmp_run "$f" 3 333 sum --stats
	[ $QUICK = 1 ] || cmp_run "$f" 2 4096 sum --stats --json
done
echo "$n runs against -j 1: $summed summed, $refused refused and read again, the rest one tracker"
exit $fail
