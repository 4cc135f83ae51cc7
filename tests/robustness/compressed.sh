#!/bin/sh
# compressed.sh GBPDUMP FIXTURES WORKDIR [asan]
# Compressed captures read like the capture inside (issue 14): every fixture
# (classic pcap and pcapng, regression captures included), compressed with
# gzip, zstd and xz into WORKDIR, must print exactly what the uncompressed
# fixture prints, with the same exit status, in every output mode - read as
# a file (-r FILE.gz), and from a pipe (-r -) in the modes -tt -v -e and
# --check, through the fast reader and through --libpcap.  Then concatenated streams (two gzip members, two zstd
# frames after a skippable frame, two xz streams) must read as one capture,
# as zcat, zstdcat and xzcat read them.
# With "asan" (a sanitizer build, 15 times slower to start) only the mode
# -tt -v -e: the decoders and the reader run the same in every mode, and
# the normal build compares them all.
set -u
gd=$1 fix=$2 work=$3 asan=${4:-}
modes='-tt|-tt -v -e|--json|--stats|--stats --json|--check'
[ "$asan" = asan ] && modes='-tt -v -e'
rm -rf "$work"
mkdir -p "$work"
fails=0 n=0 caps=0
T=20

# compress SRC DSTBASE: DSTBASE.gz, .zst, .xz (the tools' default levels)
compress() {
	if ! { gzip -c "$1" >"$2.gz" && zstd -q -c "$1" >"$2.zst" && xz -c "$1" >"$2.xz"; }; then
		echo "FAIL: cannot compress $1 (gzip, zstd, xz: scripts/deps/compress.list)"
		exit 1
	fi
}

# unname FILE: the output with the summary's input name blanked (--stats
# --json and --check --json name the input: c1.gz, "-" or the fixture) and
# the message of "error" too (it names the file, and an offset in the
# compressed stream or the capture)
unname() {
	sed -e 's/"inputs":\[{"name":"[^"]*"/"inputs":[{"name":""/' \
		-e 's/"error":"\([^"\\]\|\\.\)*"/"error":"(message)"/g' "$1" >"$1.u"
}

# same NAME REF_OUT REF_RC OUT RC: the outputs and exit statuses agree
same() {
	n=$((n + 1))
	unname "$2"; unname "$4"
	if [ "$3" != "$5" ] || ! cmp -s "$2.u" "$4.u"; then
		echo "FAIL $1: exit $5 (uncompressed: $3), output differs:"
		diff "$2" "$4" | head -n 6
		fails=$((fails + 1))
	fi
}

for cap in "$fix"/*.pcap "$fix"/*/*.pcap "$fix"/regress/*/*.pcap "$fix"/*.pcapng \
	"$fix"/*/*.pcapng; do
	[ -f "$cap" ] || continue
	caps=$((caps + 1))
	z=$work/c$caps
	compress "$cap" "$z"
	IFS='|'
	for opts in $modes; do
		unset IFS
		# shellcheck disable=SC2086
		timeout $T "$gd" -r "$cap" $opts >"$work/ref" 2>/dev/null; rr=$?
		for ext in gz zst xz; do
			# shellcheck disable=SC2086
			timeout $T "$gd" -r "$z.$ext" $opts >"$work/a" 2>"$work/ea"; ra=$?
			same "$cap.$ext $opts" "$work/ref" $rr "$work/a" $ra
			# from a pipe too (in two modes: the records are the reader's,
			# the modes only print them)
			case $opts in "-tt -v -e"|--check)
				# a pipe on purpose, not a file on standard input
				# shellcheck disable=SC2086,SC2002
				cat "$z.$ext" | timeout $T "$gd" -r - $opts >"$work/b" 2>/dev/null; rb=$?
				same "$cap.$ext $opts (-r - from a pipe)" "$work/ref" $rr "$work/b" $rb
			esac
			# an error on the compressed file is still one line naming it
			if [ $ra != 0 ] && [ $ra != 3 ] && [ $ra != 4 ] &&
				! grep -q "^gbpdump: $z.$ext: " "$work/ea"; then
				echo "FAIL $cap.$ext $opts: error does not name the file: $(cat "$work/ea")"
				fails=$((fails + 1))
			fi
		done
	done
	# --libpcap reads the decompressed stream too (one mode: the reader
	# differs, not the printers)
	timeout $T "$gd" -r "$cap" -tt -v -e >"$work/ref" 2>/dev/null; rr=$?
	timeout $T "$gd" -r "$z.zst" --libpcap -tt -v -e >"$work/a" 2>/dev/null; ra=$?
	same "$cap.zst --libpcap -tt -v -e" "$work/ref" $rr "$work/a" $ra
done
[ $caps -gt 90 ] || { echo "FAIL: only $caps fixtures found in $fix"; fails=$((fails + 1)); }

# Concatenated streams: the first half of a capture's bytes in one stream,
# the rest in another.
for cap in "$fix/offload.pcap" "$fix/basic-gbp.pcapng"; do
	size=$(wc -c <"$cap")
	half=$((size / 2))
	head -c $half "$cap" >"$work/h1"
	tail -c +$((half + 1)) "$cap" >"$work/h2"
	{ gzip -c "$work/h1"; gzip -c "$work/h2"; } >"$work/cat.gz"
	# a skippable frame (magic 0x184d2a50, 4 bytes of content) first
	{ printf '\120\052\115\030\004\000\000\000skip'; zstd -q -c "$work/h1"
	  zstd -q -c "$work/h2"; } >"$work/cat.zst"
	{ xz -c "$work/h1"; xz -c "$work/h2"; } >"$work/cat.xz"
	"$gd" -r "$cap" -tt -v -e >"$work/ref" 2>/dev/null; rr=$?
	for ext in gz zst xz; do
		"$gd" -r "$work/cat.$ext" -tt -v -e >"$work/a" 2>"$work/ea"; ra=$?
		same "$cap split in two $ext streams" "$work/ref" $rr "$work/a" $ra
		# shellcheck disable=SC2002 # a pipe on purpose
		cat "$work/cat.$ext" | "$gd" -r - -tt -v -e >"$work/a" 2>/dev/null; ra=$?
		same "$cap split in two $ext streams (pipe)" "$work/ref" $rr "$work/a" $ra
	done
	# and the tools agree that these are the capture
	for t in "zcat $work/cat.gz" "zstdcat -q $work/cat.zst" "xzcat $work/cat.xz"; do
		# shellcheck disable=SC2086
		$t | cmp -s - "$cap" || {
			echo "FAIL: $t is not $cap (the test's streams are wrong)"
			fails=$((fails + 1))
		}
	done
done

rm -rf "$work"
echo "compressed.sh: $caps captures, $n comparisons, $fails failure(s)"
[ $fails = 0 ] && [ $n -gt 0 ]
