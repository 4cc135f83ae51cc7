#!/bin/sh
# paths-agree.sh GBPDUMP FIXTURES
# The fast classic-pcap reader and libpcap (--libpcap) must give identical
# output and exit status on every fixture and every regression capture, in
# every output mode; and reading standard input must equal reading the file,
# both when it is the file and when it is a pipe.
# The captures include the four classic pcap forms (little- and big-endian,
# micro- and nanosecond time stamps: fixtures/formats/), which the two
# readers decode each their own way.
set -u
gd=$1 fix=$2
fails=0 n=0
for form in us-le ns-le us-be ns-be; do
	if [ ! -f "$fix/formats/formats-$form.pcap" ]; then
		echo "FAIL: no $form capture (fixtures/formats/formats-$form.pcap) to compare"
		fails=$((fails + 1))
	fi
done
tmp=${TMPDIR:-/tmp}/paths-agree.$$
mkdir -p "$tmp"
for cap in "$fix"/*.pcap "$fix"/*/*.pcap "$fix"/regress/*/*.pcap; do
	[ -f "$cap" ] || continue
	for opts in "-tt" "-tt -v -e" "--json" "--stats" "--stats --json"; do
		# shellcheck disable=SC2086
		timeout 20 "$gd" -r "$cap" $opts >"$tmp/a" 2>"$tmp/ea"; ra=$?
		# shellcheck disable=SC2086
		timeout 20 "$gd" -r "$cap" --libpcap $opts >"$tmp/b" 2>"$tmp/eb"; rb=$?
		# shellcheck disable=SC2086
		timeout 20 "$gd" -r - $opts <"$cap" >"$tmp/c" 2>/dev/null; rc=$?
		# shellcheck disable=SC2086
		cat "$cap" | timeout 20 "$gd" -r - $opts >"$tmp/d" 2>/dev/null; rd=$?
		# the summary of --stats --json names its input: "-" from stdin;
		# the JSON's "error" is each reader's own message (stderr's)
		for f in a b c d; do
			sed -e 's/"inputs":\[{"name":"-"/"inputs":[{"name":"'"$(basename "$cap")"'"/' \
				-e 's/"error":"\([^"\\]\|\\.\)*"/"error":"(message)"/g' \
				"$tmp/$f" >"$tmp/$f.u" && mv "$tmp/$f.u" "$tmp/$f"
		done
		n=$((n + 1))
		if [ $ra != $rb ] || ! cmp -s "$tmp/a" "$tmp/b"; then
			echo "FAIL $cap $opts: fast reader (exit $ra) and --libpcap (exit $rb) differ:"
			diff "$tmp/a" "$tmp/b" | head -n 6
			fails=$((fails + 1))
		elif [ $ra != $rc ] || ! cmp -s "$tmp/a" "$tmp/c"; then
			echo "FAIL $cap $opts: -r FILE (exit $ra) and -r - mapped (exit $rc) differ"
			fails=$((fails + 1))
		elif [ $ra != $rd ] || ! cmp -s "$tmp/a" "$tmp/d"; then
			echo "FAIL $cap $opts: -r FILE (exit $ra) and -r - from a pipe (exit $rd) differ"
			fails=$((fails + 1))
		fi
		# the fast path names file, frame and offset on a bad record
		if [ $ra = 1 ] && ! grep -Eq "^gbpdump: .*: frame [0-9]+ at offset [0-9]+: " "$tmp/ea"; then
			echo "FAIL $cap $opts: error without frame and offset: $(cat "$tmp/ea")"
			fails=$((fails + 1))
		fi
	done
done
rm -rf "$tmp"
echo "paths-agree.sh: $n comparisons, $fails failure(s)"
[ $fails = 0 ] && [ $n -gt 0 ]
