#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gbpdump -j N against -j 1 on every fixture in every mode: standard output,
# standard error, the exit status and the files written (-w, --report) must
# be the same bytes, at several thread counts.  (Captures of many batches:
# batches.sh, straddle.sh, windows.sh.)
#   compare.sh GBPDUMP FIXTURES [SET]
#   SET main: the fixtures at the top, formats/, policy/, regress/reader/ in
#       every mode, -j 2 and -j 4
#   SET hostile: check/, labels/, qemu/ (crafted and hostile captures) in
#       four modes, -j 3
#   SET quick (sanitizer builds): the top fixtures, five modes, -j 4
set -u
G=$1
FIX=$2
SET=${3:-main}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
POL="--policy $FIX/policy/web.policy --groups $FIX/policy/groups.txt"
case $SET in
main)
	CAPS=$(find "$FIX" -maxdepth 1 \( -name '*.pcap' -o -name '*.pcapng' \); find "$FIX/formats" "$FIX/policy" "$FIX/regress/reader" \( -name '*.pcap' -o -name '*.pcapng' \))
	MODES="-tt|-v -tt|-vv -e -tt|--json|--stats|--stats --json|--check|--check --json|-w W|--report R|$POL|$POL --stats|-c 3 -tt|--json -c 3|-tt udp and port 4789|--gbp 100 -tt|--vni 100 --check --json"
	SETS="2 4" ;;
hostile)
	CAPS=$(find "$FIX/check" "$FIX/labels" "$FIX/qemu" \( -name '*.pcap' -o -name '*.pcapng' \))
	MODES="-vv -tt|--json|--check --json|-c 3 -tt"
	SETS="3" ;;
*)
	CAPS=$(find "$FIX" -maxdepth 1 \( -name '*.pcap' -o -name '*.pcapng' \))
	MODES="-vv -tt|--json|--stats|--check --json|-w W"
	SETS="4" ;;
esac
fails=0
runs=0
# one run: $1 = -j, $2 = output prefix, rest: the options
run() {
	j=$1 p=$2
	shift 2
	rm -f "$T/W" "$T/R"
	"$G" -j "$j" "$@" >"$p.out" 2>"$p.err"
	echo $? >"$p.rc"
	: >"$p.files"
	for f in W R; do
		[ -f "$T/$f" ] && cat "$T/$f" >>"$p.files"
	done
	return 0
}
for cap in $(echo "$CAPS" | sort); do
	IFS='|'
	for m in $MODES; do
		unset IFS
		# shellcheck disable=SC2086 # the mode's words on purpose
		set -- $m
		args=""
		for a in "$@"; do
			case $a in
			W) args="$args $T/W" ;;
			R) args="$args $T/R" ;;
			*) args="$args $a" ;;
			esac
		done
		# shellcheck disable=SC2086
		run 1 "$T/ref" -r "$cap" $args
		for s in $SETS; do
			# shellcheck disable=SC2086
			run "$s" "$T/par" -r "$cap" $args
			runs=$((runs + 1))
			for k in out err rc files; do
				if ! cmp -s "$T/ref.$k" "$T/par.$k"; then
					echo "FAIL: $cap '$m' -j $s: $k differs"
					diff "$T/ref.$k" "$T/par.$k" | head -5
					fails=$((fails + 1))
				fi
			done
		done
		IFS='|'
	done
	unset IFS
done
echo "$runs comparisons, $fails differences"
[ "$runs" -gt 0 ] && [ "$fails" = 0 ]
