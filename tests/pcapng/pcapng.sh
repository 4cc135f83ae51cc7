#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# pcapng.sh GBPDUMP FIXTURES WORKDIR TSHARK_SH [quick]
# gbpdump's native pcapng reader (gbpdump/input/pcapng.c) against libpcap:
#  - the cases: every pcapng fixture, every classic fixture converted with
#    editcap -F pcapng, two of them concatenated (two sections), a mergecap
#    -a result, and the crafted captures of mkcases.py (good-*, bad-*);
#  - for each, the native reader and --libpcap print the same (-tt -v and
#    --json), write the same -w file, exit with the same status, and print
#    nothing or one "gbpdump: FILE..." line on stderr (the native one names
#    the block's offset); bad-* must fail; the same from a pipe and gzip'd;
#  - for the good ones, tshark (run as nobody, tests/tshark/tshark.sh) and
#    tcpdump agree on the frames: count, time stamps to the nanosecond,
#    lengths (tshark reads what gbpdump -w wrote and the original);
#  - every truncation of a small capture: both stop at the same frame with
#    a non-zero status.
# "quick" (sanitizer builds): -tt -v only, no tshark.
set -u
gd=$1 fix=$2 work=$3 tsh=$4 quick=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
gd=$(abs "$gd") fix=$(abs "$fix") tsh=$(abs "$tsh")
rm -rf "$work"
mkdir -p "$work/c" "$work/o"
cd "$work" || exit 2
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

python3 "$here/mkcases.py" c "$fix" || exit 2
for f in "$fix"/*.pcapng; do cp "$f" "c/good-fixture-$(basename "$f")"; done
for f in "$fix"/*.pcap "$fix"/labels/*.pcap "$fix"/formats/*.pcap "$fix"/regress/reader/*.pcap; do
	editcap -F pcapng "$f" "c/conv-$(basename "$f" .pcap).pcapng" 2>/dev/null ||
		fail "editcap -F pcapng $f"
done
cat c/conv-basic-gbp.pcapng c/conv-vlan.pcapng >c/good-two-sections.pcapng
mergecap -a -F pcapng -w c/good-mergecap-a.pcapng "$fix/basic-gbp.pcap" "$fix/vlan.pcap" \
	2>/dev/null || fail "mergecap"
# two link types in one file: libpcap refuses the second interface
mergecap -a -F pcapng -w c/bad-mergecap-a-linktypes.pcapng "$fix/basic-gbp.pcap" \
	"$fix/sll.pcap" 2>/dev/null || fail "mergecap"

# run NAME ARGS...: stdout to o/NAME.out, stderr o/NAME.err, status o/NAME.rc
run() {
	n=$1
	shift
	timeout 60 "$gd" "$@" >"o/$n.out" 2>"o/$n.err" </dev/null
	echo $? >"o/$n.rc"
}
# same CASE TAG [LINES]: the native (n) and libpcap (l) runs agree; a
# failing one says so in one "gbpdump: " line (LINES: -w adds a second,
# "kept the N frames read before the error", after an error at a frame),
# the native one with the
# block's offset when it names a frame
same() {
	sc=$1 st=$2 sl=${3:-1}
	cmp -s "o/n$st.out" "o/l$st.out" || fail "$sc $st: stdout differs (native vs --libpcap)"
	cmp -s "o/n$st.rc" "o/l$st.rc" || fail "$sc $st: exit $(cat "o/n$st.rc") vs $(cat "o/l$st.rc")"
	for sp in n l; do
		lines=$(wc -l <"o/$sp$st.err")
		if [ "$(cat "o/$sp$st.rc")" = 0 ]; then
			[ "$lines" = 0 ] || fail "$sc $st ($sp): exit 0 with stderr: $(cat "o/$sp$st.err")"
		elif [ "$lines" -lt 1 ] || [ "$lines" -gt "$sl" ] ||
			! head -n 1 "o/$sp$st.err" | grep -q "^gbpdump: "; then
			fail "$sc $st ($sp): stderr is not 1-$sl gbpdump: line(s): $(head -c 300 "o/$sp$st.err")"
		fi
	done
	if grep -q ": frame [0-9]" "o/n$st.err" && ! grep -q ": frame [0-9]* at offset [0-9]" \
		"o/n$st.err"; then
		fail "$sc $st: the native error names no offset: $(cat "o/n$st.err")"
	fi
}

ncases=0
for f in c/*.pcapng; do
	c=$(basename "$f" .pcapng)
	ncases=$((ncases + 1))
	run ntxt -r "$f" -tt -v
	run ltxt --libpcap -r "$f" -tt -v
	same "$c" txt
	rc=$(cat o/ntxt.rc)
	case $c in
	bad-*) [ "$rc" != 0 ] || fail "$c: exit 0, libpcap refuses it" ;;
	good-*) [ "$rc" = 0 ] || fail "$c: exit $rc: $(cat o/ntxt.err)" ;;
	esac
	[ -n "$quick" ] && continue
	run njson -r "$f" --json
	run ljson --libpcap -r "$f" --json
	same "$c" json
	rm -f o/n.pcap o/l.pcap
	run nw -r "$f" -w o/n.pcap
	run lw --libpcap -r "$f" -w o/l.pcap
	same "$c" w 2
	if [ -f o/n.pcap ] || [ -f o/l.pcap ]; then
		cmp -s o/n.pcap o/l.pcap || fail "$c: -w wrote different files"
	fi
	# a pipe and gzip: the chunk buffer instead of the mapping
	timeout 60 "$gd" -r - -tt -v <"$f" >o/pipe.out 2>/dev/null
	cmp -s o/pipe.out o/ntxt.out || fail "$c: -r - (a pipe) prints other frames"
	gzip -c "$f" >o/z.pcapng.gz
	timeout 60 "$gd" -r o/z.pcapng.gz -tt -v >o/z.out 2>/dev/null
	cmp -s o/z.out o/ntxt.out || fail "$c: gzip'd, it prints other frames"
done
echo "$ncases captures: native and --libpcap agree ($fails failures so far)"

# Every truncation of a small capture of two sections, options, SPB and OPB.
t=c/good-small.pcapng
size=$(wc -c <"$t")
i=1
while [ "$i" -lt "$size" ]; do
	head -c "$i" "$t" >o/cut.pcapng
	run ncut -r o/cut.pcapng -tt -v
	run lcut --libpcap -r o/cut.pcapng -tt -v
	same "cut at $i" cut
	i=$((i + 1))
done
echo "every cut of $t ($size bytes) agrees ($fails failures so far)"

[ -n "$quick" ] && { [ $fails = 0 ] && echo "all passed"; exit $((fails != 0)); }

# tshark and tcpdump on the good ones: frames, times, lengths
tfields() { # tshark's view of a capture on stdin
	sh "$tsh" none -r - -T fields -e frame.time_epoch -e frame.len -e frame.cap_len 2>/dev/null
}
# captures tshark reads otherwise than libpcap, or whose times -w cannot
# write (tshark.skip says which and why)
skip=$(sed -n 's/^\([a-z0-9.-]*\).*/\1/p' "$here/tshark.skip")
nt=0
for f in c/good-*.pcapng c/conv-*.pcapng; do
	c=$(basename "$f" .pcapng)
	case " $(echo $skip) " in *" $c "*) continue ;; esac
	# conv-* may be refused (conv-record-beyond-snaplen is, by libpcap too)
	"$gd" -r "$f" -w o/n.pcap --force 2>/dev/null || case $c in
	good-*) fail "$c: -w" && continue ;;
	*) continue ;;
	esac
	tfields <"$f" >o/t-orig.txt
	tfields <o/n.pcap >o/t-ours.txt
	[ -s o/t-orig.txt ] || [ "$c" = good-empty ] || fail "$c: tshark read no frames"
	cmp -s o/t-orig.txt o/t-ours.txt ||
		{ fail "$c: tshark sees other frames than gbpdump read"; diff o/t-orig.txt o/t-ours.txt | head -4; }
	tcpdump -r "$f" -tt -n --time-stamp-precision=nano 2>/dev/null | cut -d' ' -f1 >o/td-orig.txt
	tcpdump -r o/n.pcap -tt -n --time-stamp-precision=nano 2>/dev/null | cut -d' ' -f1 >o/td-ours.txt
	cmp -s o/td-orig.txt o/td-ours.txt || fail "$c: tcpdump sees other time stamps"
	nt=$((nt + 1))
done
echo "$nt captures: tshark and tcpdump agree with gbpdump's records"
[ $fails = 0 ] && echo "all passed"
exit $((fails != 0))
