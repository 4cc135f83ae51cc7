#!/bin/sh
# tests/merge/straddle.sh GBPDUMP GBPGEN: a gbpgen capture with many VNIs,
# groups and flows, and cross-frame findings placed around the split
# points: an endpoint and a flow that change group (frames 303 -> 304), a
# policy re-applied on a GBP frame (306 -> 307), A cleared on a frame
# without G (308 -> 309).  Split across each: the merge equals one run
# over the whole capture, and over the parts joined again by mergecap -a,
# for --stats and --check; the finding across the split is there; the
# merge is marked approximate exactly for the re-applied policy split
# (one run skips frame 307's endpoint and flow updates, the summaries do
# not say what they were).
set -u
G=$1 GEN=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 cases=0 approx=0
err() { echo "FAIL: $*"; fail=1; }
# shellcheck source=tests/merge/lib.sh disable=SC2034 # G, SPLIT: used by lib.sh
. "$(dirname "$0")/lib.sh"

f=$tmp/straddle.pcap
bulk="flows=300 hosts=200 vnis=40 groups=60 vni=1000 gbp=100 pick=uniform payload-max=600"
ep="inner-src=10.0.0.1 inner-dst=10.0.0.2 inner-smac=02:00:00:00:07:01 proto=udp vni=7"
"$GEN" -w "$f" "count=300 $bulk proto=udp seed=7" \
	"count=3 $ep gbp=10" "count=2 $ep gbp=11" \
	"count=1 vni=8 gbp=20 a=1 inner-src=10.0.1.1 inner-smac=02:00:00:00:08:01" \
	"count=1 vni=8 gbp=21 a=1 inner-src=10.0.1.1 inner-smac=02:00:00:00:08:01" \
	"count=1 vni=9 gbp=30 a=1 inner-src=10.0.2.1 inner-smac=02:00:00:00:09:01" \
	"count=1 vni=9 g=0 id=0 inner-src=10.0.2.1 inner-smac=02:00:00:00:09:01" \
	"count=300 $bulk proto=tcp seed=8" || { echo "FAIL: gbpgen"; exit 1; }
[ "$(frames "$f")" = 609 ] || err "the capture has $(frames "$f") frames, not 609"

# expect SPLIT APPROX PATTERN...: the split, whether the merge must be
# approximate (0/1), lines the merged --check text must hold
expect() {
	split=$1 want=$2
	shift 2
	SPLIT=" $split"
	# shellcheck disable=SC2046,SC2086 # the split points and parts: words on purpose
	set -- "$@" -- $(parts "$f" $split)
	pats=
	while [ "$1" != -- ]; do pats="$pats$1
"; shift; done
	shift
	mergecap -a -F pcap -w "$tmp/joined.pcap" "$@" || err "mergecap"
	for whole in "$f" "$tmp/joined.pcap"; do
		before=$approx
		same "$whole" --stats -- "$@"
		[ $approx = "$before" ] || err "--stats split at $split: approximate"
		same "$whole" --check -- "$@"
		[ $((approx - before)) = "$want" ] || err "--check split at $split: approximate $((approx - before)), want $want"
	done
	printf '%s' "$pats" | while IFS= read -r l; do
		grep -qF -- "$l" "$tmp/m.txt" || echo "FAIL: split at $split: no '$l'"
	done | grep . && fail=1
	return 0
}

conf="frame 304 offset 42: source 10.0.0.1: ID 10 at frame 303, now ID 11"
expect 303 0 "$conf" "frame 304 offset 42: source 02:00:00:00:07:01: ID 10 at frame 303, now ID 11" \
	"frame 304 offset 42: flow 10.0.0.1.40000 > 10.0.0.2.53 proto 17: ID 10 at frame 303, now ID 11"
expect 302 0 "$conf"
expect 304 0 "$conf"
expect "150 303 450" 0 "$conf"
expect "303 305 308" 0 "$conf" "frame 309 offset 42: frame 308 had A=1 (ID 30); now flags 0x0800 ID 0"
expect 308 0 "frame 309 offset 42: frame 308 had A=1 (ID 30); now flags 0x0800 ID 0"
expect 306 1 "frame 307 offset 42: frame 306 had ID 20 A=1; now ID 21 A=1" \
	"merge: approximate: 1 policy re-sighting across an input boundary"
expect "100 500" 0 "$conf"
echo "$cases merges compared, $approx approximate"
exit $fail
