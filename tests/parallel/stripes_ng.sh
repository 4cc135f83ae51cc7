#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gbpdump -j N reads a pcapng file in stripes too (docs/parallel.md): each
# worker reads its own stripe, the one reader walks the blocks that start
# in it; a block longer than the room after the stripe is read apart.
# Against -j 1 (standard output, standard error, exit status), and the run
# did read in stripes (GBPDUMP_JOBS_DEBUG) unless the file could not be
# opened:
#  - mkng.py's captures (every block kind, three sections in either byte
#    order, an IDB after packets, records over many stripes, a 300 KB
#    custom block and packet options, a 2 MiB custom block, snap length 128
#    so blocks past the room are common, a bad block mid-file of five
#    kinds) and a gbpgen --pcapng capture: stripes of 1 byte to 64 KiB,
#    -j 2 to -j 4;
#  - tests/pcapng's crafted captures (mkcases.py: good and hostile ones)
#    and fixtures/*.pcapng;
#  - captures cut at every byte of a stretch in the middle and around two
#    4 KiB stripe ends.
#   stripes_ng.sh GBPDUMP GBPGEN FIXTURES [quick]   (quick: sanitizer
#   builds, fewer sizes and every seventh cut)
set -u
G=$1
GEN=$2
FIX=$3
here=$(cd "$(dirname "$0")" && pwd)
STEP=1
SIZES="1 61 700 4096 65536"
[ "${4:-}" = quick ] && STEP=7 && SIZES="1 700 65536"
. "$here/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
command -v python3 >/dev/null || { echo "python3 missing"; exit 77; }
python3 "$here/mkng.py" "$T/ng" "$FIX" || exit 1
python3 "$here/../pcapng/mkcases.py" "$T/cases" "$FIX" || exit 1
printf '%s\n' "count=120 vni=100 vnis=5 gbp=1 groups=9 hosts=20 flows=40 pick=uniform payload=0 payload-max=1400 seed=7" \
	"count=5 gbp=77 proto=udp payload=3000" >"$T/spec"
"$GEN" --pcapng -w "$T/ng/gen.pcapng" -f "$T/spec" || exit 1
fail=0
n=0
# one comparison: $1 capture, $2 -j, $3 stripe bytes, rest the options
cmp_run() {
	par_run "$@"
	shift 3
	if [ "$(cat "$T/one.rc")" != 2 ] &&
		! grep -q "^gbpdump: -j $j: read in stripes of $c bytes$" "$T/par.dbg"; then
		echo "FAIL: $cap -j $j stripes $c $*: not read in stripes"
		fail=1
	fi
	par_same "$cap -j $j stripes $c $*"
}
for cap in "$T"/ng/*.pcapng; do
	for c in $SIZES; do
		cmp_run "$cap" 2 "$c" -tt
		cmp_run "$cap" 3 "$c" --check --json
	done
	cmp_run "$cap" 4 333 --stats
done
for cap in "$T"/cases/*.pcapng "$FIX"/*.pcapng; do
	cmp_run "$cap" 2 1 -tt -v
	cmp_run "$cap" 3 64 --json
done
# the bad blocks are where they were put, after frame 214
for k in trailer len-huge iface byte-order idb-linktype; do
	cmp_run "$T/ng/bad-$k.pcapng" 2 4096 -tt
	grep -q "frame 215 at offset [0-9]*: " "$T/one.err" ||
		{ echo "FAIL: bad-$k: $(cat "$T/one.err")"; fail=1; }
done
# cut short at every byte of two stretches (the middle of the files) and
# around the ends of 4 KiB stripes; x0: where the stripes start, after the
# first SHB and IDB (little-endian lengths at offset 4 of each)
len_at() { od -An -t u4 -j $(($1 + 4)) -N 4 "$2" | tr -d ' '; }
for cap in "$T/ng/snap-small.pcapng" "$T/ng/gen.pcapng"; do
	size=$(wc -c <"$cap")
	shb=$(len_at 0 "$cap")
	x0=$((shb + $(len_at "$shb" "$cap")))
	mid=$((size / 2))
	cuts="$(seq "$mid" "$STEP" $((mid + 60))) $((size - 1))"
	for k in 1 7; do
		e=$((x0 + k * 4096))
		cuts="$cuts $(seq $((e - 30)) "$STEP" $((e + 30)))"
	done
	for cut in $cuts; do
		head -c "$cut" "$cap" >"$T/cut.pcapng"
		cmp_run "$T/cut.pcapng" 2 4096 -tt
		[ "$cap" = "$T/ng/gen.pcapng" ] || cmp_run "$T/cut.pcapng" 3 100 -c 1000
	done
done
[ "$fail" = 0 ] && echo "stripes_ng: $n runs = -j 1"
exit "$fail"
