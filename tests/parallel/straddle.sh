#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Cross-frame findings whose two sightings are in different batches of -j 4
# (at most 256 records a batch, parallel.h) are exactly those of -j 1.  The
# capture (gbpgen): frames 1, 2, 3 see three endpoints, 300 other frames
# follow, then
#   frame 304: the inner frame of frame 1 again, A=1, another group
#              (gbp.policy-reapplied: frame 1 had ID 10 A=1; now ID 20)
#   frame 305: frame 2's source with group 41 (gbp.group-conflict, 40 at frame 2)
#   frame 306: frame 3's flow with group 51 (gbp.flow-group-change, 50 at frame 3)
#   straddle.sh GBPDUMP GBPGEN
set -u
G=$1
GEN=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat >"$T/spec" <<'SPEC'
count=1 gbp=10 a=1 inner-src=10.0.0.1 inner-smac=02:00:00:00:aa:01
count=1 gbp=40 inner-src=10.0.0.5 inner-smac=02:00:00:00:aa:05 inner-dst=10.0.1.2
count=1 gbp=50 inner-src=10.0.0.7 inner-smac=02:00:00:00:aa:07 proto=udp
count=300 gbp=30 inner-src=10.9.9.9 inner-smac=02:00:00:00:bb:01 inner-dst=10.9.9.8
count=1 gbp=20 a=1 inner-src=10.0.0.1 inner-smac=02:00:00:00:aa:01 time=1700000000
count=1 gbp=41 inner-src=10.0.0.5 inner-smac=02:00:00:00:aa:05 inner-dst=10.0.1.3
count=1 gbp=51 inner-src=10.0.0.7 inner-smac=02:00:00:00:aa:07 proto=udp payload=4
SPEC
"$GEN" -w "$T/c.pcap" -f "$T/spec" || exit 1
fail=0
"$G" -j 1 -r "$T/c.pcap" --check >"$T/ref" 2>&1
for want in "frame 304 offset 42: frame 1 had ID 10 A=1; now ID 20 A=1" \
	"frame 305 offset 42: source 10.0.0.5: ID 40 at frame 2, now ID 41" \
	"frame 306 offset 42: flow 10.0.0.7.40000 > 198.51.100.2.53 proto 17: ID 50 at frame 3, now ID 51"; do
	grep -qF "$want" "$T/ref" || { echo "FAIL: -j 1 --check lacks: $want"; fail=1; }
done
for m in "--check" "--check --json" "-v -tt" "--json" "--stats" "--stats --json"; do
	# shellcheck disable=SC2086 # the mode's words on purpose
	"$G" -j 1 -r "$T/c.pcap" $m >"$T/one" 2>&1
	echo "rc $?" >>"$T/one"
	# shellcheck disable=SC2086
	"$G" -j 4 -r "$T/c.pcap" $m >"$T/four" 2>&1
	echo "rc $?" >>"$T/four"
	if ! cmp -s "$T/one" "$T/four"; then
		echo "FAIL: '$m': -j 4 differs from -j 1"
		diff "$T/one" "$T/four" | head -10
		fail=1
	fi
done
[ "$fail" = 0 ] && echo "straddle: -j 4 = -j 1"
exit "$fail"
