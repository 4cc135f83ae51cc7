#!/bin/sh
# valgrind.sh GBPDUMP FIXTURES: gbpdump under valgrind memcheck on a sample of
# fixtures in several modes (and both readers): no invalid read or write, no
# use of uninitialised values, no leak (definite, indirect or possible).
set -u
gd=$1 fix=$2
fails=0 n=0
log=${TMPDIR:-/tmp}/vg.$$
for cap in "$fix/basic-gbp.pcap" "$fix/basic-gbp.pcapng" "$fix/malformed.pcap" \
	   "$fix/cut-short.pcap" "$fix/regress/reader/record-beyond-snaplen.pcap"; do
	[ -f "$cap" ] || continue
	for opts in "-v -e" "--json" "--stats --groups $fix/groups.txt" "--libpcap -v" \
		    "-w $log.out.pcap --force"; do
		# shellcheck disable=SC2086
		timeout 120 valgrind -q --error-exitcode=99 --leak-check=full \
			--show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible \
			"$gd" -r "$cap" $opts >/dev/null 2>"$log"
		rc=$?
		n=$((n + 1))
		if [ $rc = 99 ] || [ $rc -gt 2 ] || grep -q '^==[0-9]*==' "$log"; then
			echo "FAIL $(basename "$cap") $opts: exit $rc"
			head -n 30 "$log"
			fails=$((fails + 1))
		fi
	done
done
rm -f "$log" "$log.out.pcap"
echo "valgrind.sh: $n runs, $fails failure(s)"
[ $fails = 0 ] && [ $n -gt 0 ]
