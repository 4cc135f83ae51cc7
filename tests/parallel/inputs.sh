#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Several inputs read as one capture: -r a -r b and -r DIR give what the
# one capture with all their frames gives (frame numbers go on: the
# cross-frame findings at frames 54-56 compare frames of b with frames of
# a), with -j 1 and -j 4; a directory's other files are skipped; -w does
# not overwrite any input; -w refuses inputs of different link types.
#   inputs.sh GBPDUMP GBPGEN
set -u
G=$1
GEN=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat >"$T/a.spec" <<'SPEC'
count=1 gbp=10 a=1 inner-src=10.0.0.1 inner-smac=02:00:00:00:aa:01
count=1 gbp=40 inner-src=10.0.0.5 inner-smac=02:00:00:00:aa:05 inner-dst=10.0.1.2
count=1 gbp=50 inner-src=10.0.0.7 inner-smac=02:00:00:00:aa:07 proto=udp
count=50 gbp=30 inner-src=10.9.9.9 inner-smac=02:00:00:00:bb:01 inner-dst=10.9.9.8
SPEC
cat >"$T/b.spec" <<'SPEC'
count=1 gbp=20 a=1 inner-src=10.0.0.1 inner-smac=02:00:00:00:aa:01 time=1700000000
count=1 gbp=41 inner-src=10.0.0.5 inner-smac=02:00:00:00:aa:05 inner-dst=10.0.1.3
count=1 gbp=51 inner-src=10.0.0.7 inner-smac=02:00:00:00:aa:07 proto=udp payload=4
SPEC
cat "$T/a.spec" "$T/b.spec" >"$T/all.spec"
mkdir "$T/d" "$T/d/sub"
"$GEN" -w "$T/d/1-a.pcap" -f "$T/a.spec" && "$GEN" -w "$T/d/2-b.pcapng" --pcapng -f "$T/b.spec" &&
	"$GEN" -w "$T/all.pcap" -f "$T/all.spec" && "$GEN" -w "$T/d/sub/x.pcap" -f "$T/b.spec" || exit 1
echo "not a capture" >"$T/d/README"
cp "$T/d/1-a.pcap" "$T/d/.hidden.pcap"
fail=0
# the pcapng copy has microsecond times, as the classic one
for m in "--check" "--check --json" "-v -tt" "--json" "--stats" "-c 55 -tt"; do
	for j in 1 4; do
		# shellcheck disable=SC2086 # the mode's words on purpose
		"$G" -j 1 -r "$T/all.pcap" $m >"$T/one" 2>&1
		# shellcheck disable=SC2086
		"$G" -j $j -r "$T/d/1-a.pcap" -r "$T/d/2-b.pcapng" $m \
			>"$T/two" 2>&1
		# shellcheck disable=SC2086
		"$G" -j $j -r "$T/d" $m >"$T/dir" 2>&1
		for got in one two dir; do
			# the mergeable summary (--check --json) names its inputs
			sed 's/"inputs":\[[^]]*\]//' "$T/$got" >"$T/$got.cmp"
		done
		for got in two dir; do
			if ! cmp -s "$T/one.cmp" "$T/$got.cmp"; then
				echo "FAIL: '$m' -j $j: -r $got differs from the one capture"
				diff "$T/one.cmp" "$T/$got.cmp" | head -10
				fail=1
			fi
		done
	done
done
grep -q "frame 56 offset 42: flow 10.0.0.7.40000" "$T/one" 2>/dev/null ||
	"$G" -r "$T/d" --check | grep -q "frame 56 offset 42: flow 10.0.0.7.40000" ||
	{ echo "FAIL: no flow-group-change at frame 56 across the two files"; fail=1; }
# -w: the frames of both, never over an input
if ! { "$G" -r "$T/d/1-a.pcap" -r "$T/d/2-b.pcapng" -w "$T/w.pcap" &&
	"$G" -r "$T/w.pcap" -tt >"$T/w.txt" && "$G" -r "$T/all.pcap" -tt >"$T/all.txt" &&
	cmp -s "$T/w.txt" "$T/all.txt"; }; then
	echo "FAIL: -w of two inputs"
	fail=1
fi
cp "$T/d/2-b.pcapng" "$T/keep"
if "$G" -r "$T/d/1-a.pcap" -r "$T/d/2-b.pcapng" -w "$T/d/2-b.pcapng" --force 2>"$T/err"; then
	echo "FAIL: -w over the second input"; fail=1
fi
cmp -s "$T/keep" "$T/d/2-b.pcapng" || { echo "FAIL: the second input changed"; fail=1; }
grep -q "gbpdump: " "$T/err" || { echo "FAIL: no message for -w over an input"; fail=1; }
# -w and two link types
"$GEN" -w "$T/sll.pcap" --link sll "count=2" || exit 1
if "$G" -r "$T/all.pcap" -r "$T/sll.pcap" -w "$T/w2.pcap" 2>"$T/err"; then
	echo "FAIL: -w with two link types"; fail=1
fi
grep -q "one link type" "$T/err" || { echo "FAIL: no message for two link types"; cat "$T/err"; fail=1; }
[ "$fail" = 0 ] && echo "inputs: -r a -r b and -r DIR = the one capture, -j 1 and -j 4"
exit "$fail"
