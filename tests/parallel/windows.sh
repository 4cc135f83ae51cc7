#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gbpdump -j N on a capture of several mapping windows (reader.c maps 8 MiB
# at a time; a -j batch holds the window its records are in until it is
# printed, the last holder unmaps it): output, errors and exit status the
# same bytes as -j 1, with records straddling the windows' ends, -j 2 to
# -j 4 (windows dropped while other batches still hold older ones), -c
# stopping in the middle, and a last record cut short.
#   windows.sh GBPDUMP FIXTURES
set -u
G=$1
FIX=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# 37 MB (7,424 frames): the records of three fixtures, doubled until past three windows
for f in basic-gbp.pcap big-tcp.pcap tunnels.pcap; do
	tail -c +25 "$FIX/$f"
done >"$T/rec"
while [ "$(wc -c <"$T/rec")" -lt 25000000 ]; do
	cat "$T/rec" "$T/rec" >"$T/rec2" && mv "$T/rec2" "$T/rec"
done
{ head -c 24 "$FIX/basic-gbp.pcap"; cat "$T/rec"; } >"$T/big.pcap"
{ head -c 24 "$FIX/basic-gbp.pcap"; cat "$T/rec"; head -c 70 "$T/rec"; } >"$T/cut.pcap"
fail=0
n=0
for cap in big cut; do
	for m in "-tt" "--json" "--stats" "-c 5000 -tt" "--check --json"; do
		# shellcheck disable=SC2086 # the mode's words on purpose
		"$G" -j 1 -r "$T/$cap.pcap" $m >"$T/one" 2>&1
		echo "rc $?" >>"$T/one"
		for j in 2 3 4; do
			# shellcheck disable=SC2086
			"$G" -j "$j" -r "$T/$cap.pcap" $m >"$T/many" 2>&1
			echo "rc $?" >>"$T/many"
			n=$((n + 1))
			if ! cmp -s "$T/one" "$T/many"; then
				echo "FAIL $cap.pcap $m: -j $j differs from -j 1"
				fail=1
			fi
		done
	done
done
grep -q "^rc 1" "$T/one" || { echo "FAIL cut.pcap: -j 1 did not fail"; fail=1; }
[ $fail = 0 ] && echo "ok   $n runs the same as -j 1 over several windows"
exit $fail
