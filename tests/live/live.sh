#!/bin/sh
# live.sh CASE GBPDUMP GBPBLAST WORKDIR - gbpdump -i on lo inside a network
# namespace of its own (unshare -n): no host interface is touched.  gbpblast
# sends a known set of frames at a low rate and writes them as a pcap; what
# the live capture prints must be what gbpdump -r prints for that pcap.
#
# Cases:
#   stats J    --stats with -j J equals gbpdump -r --stats of the frames sent;
#              the end counters: captured = received = sent, 0 dropped
#   text J     every frame in the text output (sorted: workers have no order)
#   ipv6 J     the same as stats over an IPv6 underlay (::1)
#   term J     the same as stats, ended by SIGTERM
#   count J    -c 100 ends the capture by itself after 100 frames; received
#              = captured + dropped + not analysed
#   filter J   a BPF filter runs in the kernel: only the frames it keeps are
#              counted in "received by filter" and analysed
#   identity J past the lossless rate (gbpblast as fast as it can, two busy
#              loops beside it, a 128 KiB ring, the capture stopped for the
#              first 20,000 frames so that the ring overflows): the end counters
#              add up (received = captured + dropped + not analysed, exit
#              status 0, not 5) and account for every frame sent (sent =
#              received + the input backlogs' drops); then again with
#              SIGINT while gbpblast sends
#   libpcap    --libpcap still captures (stats equal)
#   badif      a bad interface name: one line, exit status 2
#
# Exit 77 (ctest: skipped) when a network namespace or an AF_PACKET socket
# is not permitted here.
set -u
case=$1 gd=$2 blast=$3 work=$4
j=${5:-1}
SKIP=77

fail() { echo "FAIL: $case $j: $*" >&2; exit 1; }

if [ -z "${VXGBP_LIVE_NETNS:-}" ]; then
	# as root a network namespace; otherwise inside a user namespace of
	# our own, where we hold CAP_NET_RAW over that network namespace
	for u in -n "-r -n"; do
		# shellcheck disable=SC2086 # the options split on purpose
		if unshare $u true 2>/dev/null; then
			VXGBP_LIVE_NETNS=1 exec unshare $u sh "$0" "$@"
		fi
	done
	echo "SKIP: cannot create a network namespace (unshare -n, unshare -r -n) here" >&2
	exit $SKIP
fi
ip link set lo up || { echo "SKIP: cannot bring up lo in the namespace" >&2; exit $SKIP; }
dir=$work/$case-$j
rm -rf "$dir" && mkdir -p "$dir" || exit 2

# gbpdump -i lo ARGS in the background, its output in $dir/out, $dir/err;
# returns once it says it is listening (in $dir/err emptied first: not a
# line an earlier capture left there).
start() {
	: >"$dir/err"
	"$gd" -i lo "$@" >"$dir/out" 2>"$dir/err" &
	pid=$!
	n=0
	until grep -q 'listening on' "$dir/err"; do
		if ! kill -0 "$pid" 2>/dev/null; then
			if grep -q 'Operation not permitted' "$dir/err"; then
				echo "SKIP: AF_PACKET not permitted: $(cat "$dir/err")" >&2
				exit $SKIP
			fi
			fail "gbpdump ended before listening: $(cat "$dir/err")"
		fi
		n=$((n + 1))
		[ $n -lt 200 ] || fail "gbpdump not listening after 10 s"
		sleep 0.05
	done
}

# SIGINT (or $1), and its exit status must be 0 with the counters printed
stop() {
	sleep 0.3 # the kernel hands a block over 10 ms after its last frame
	kill -"${1:-INT}" "$pid"
	wait "$pid"
	rc=$?
	[ $rc -eq 0 ] || fail "exit status $rc after SIG${1:-INT}: $(cat "$dir/err")"
}

counter() { sed -n "s/^\([0-9]*\) packets $1.*/\1/p" "$dir/err"; }

# the end counters: captured $1, received $2, dropped $3 (when given)
counters() {
	c=$(counter captured) r=$(counter 'received by filter') d=$(counter 'dropped by kernel')
	u=$(counter 'not analysed')
	if [ -z "$c" ] || [ -z "$r" ] || [ -z "$d" ] || [ -z "$u" ]; then
		fail "end counters missing: $(cat "$dir/err")"
	fi
	[ "$c" = "$1" ] || fail "$c packets captured, expected $1"
	[ "$r" = "$2" ] || fail "$r packets received by filter, expected $2"
	[ "$d" = "${3:-0}" ] || fail "$d packets dropped by kernel, expected ${3:-0}"
	[ $((c + d + u)) -eq "$r" ] ||
		fail "received $r != captured $c + dropped $d + not analysed $u"
}

# frames the kernel's input backlogs dropped so far (/proc/net/softnet_stat,
# second column, hex): lost before any capture sees them
backlog() {
	b=0
	while read -r _ x _; do
		b=$((b + 0x$x))
	done </proc/net/softnet_stat
	echo $b
}

# received = captured + dropped + not analysed, no message, status 0 (the
# counters at the end of $dir/err); sets c r d u
adds_up() {
	c=$(counter captured) r=$(counter 'received by filter') d=$(counter 'dropped by kernel')
	u=$(counter 'not analysed')
	if [ -z "$c" ] || [ -z "$r" ] || [ -z "$d" ] || [ -z "$u" ]; then
		fail "$1: end counters missing: $(cat "$dir/err")"
	fi
	[ $((c + d + u)) -eq "$r" ] ||
		fail "$1: received $r != captured $c + dropped $d + not analysed $u"
	! grep -q unaccounted "$dir/err" || fail "$1: $(grep unaccounted "$dir/err")"
}

# frames lo received so far (this namespace's /proc/net/dev)
lo_rx() { awk '$1 == "lo:" { print $3 }' /proc/net/dev; }

send() {
	"$blast" "$@" -w "$dir/sent.pcap" 2>"$dir/blast.err" ||
		fail "gbpblast: $(cat "$dir/blast.err")"
}

same() { # $1 live output, $2 file output
	cmp -s "$1" "$2" || { diff "$1" "$2" | head -20 >&2; fail "$3"; }
}

case $case in
stats|ipv6|term)
	start -j "$j" --stats
	if [ "$case" = ipv6 ]; then send -6 -n 3000 -r 5000 -f 256; else send -n 3000 -r 5000 -f 256; fi
	if [ "$case" = term ]; then stop TERM; else stop; fi
	"$gd" -j 1 -r "$dir/sent.pcap" --stats >"$dir/expected" || fail "gbpdump -r"
	same "$dir/out" "$dir/expected" "--stats differs from gbpdump -r of the frames sent"
	counters 3000 3000
	;;
text)
	start -j "$j" -t --no-checksums
	send -n 2000 -r 4000 -f 128
	stop
	"$gd" -j 1 -r "$dir/sent.pcap" -t --no-checksums | sort >"$dir/expected" || fail "gbpdump -r"
	sort "$dir/out" >"$dir/got"
	[ "$(wc -l <"$dir/got")" -eq 2000 ] || fail "$(wc -l <"$dir/got") lines, expected 2000"
	same "$dir/got" "$dir/expected" "text differs from gbpdump -r of the frames sent"
	counters 2000 2000
	;;
count)
	start -j "$j" -c 100 --stats
	send -n 1000 -r 5000 -f 64
	n=0
	while kill -0 "$pid" 2>/dev/null; do
		n=$((n + 1))
		[ $n -lt 100 ] || fail "-c 100 did not end the capture"
		sleep 0.1
	done
	wait "$pid" || fail "exit status $? with -c: $(cat "$dir/err")"
	head -1 "$dir/out" | grep -q '^100 frames' || fail "--stats: $(head -1 "$dir/out")"
	counters 100 "$(counter 'received by filter')"
	;;
filter)
	expr='udp port 4789 and (udp src port 40000 or udp src port 40003)'
	start -j "$j" --stats "$expr"
	send -n 3200 -r 5000 -f 256
	stop
	"$gd" -j 1 -r "$dir/sent.pcap" --stats "$expr" >"$dir/expected" || fail "gbpdump -r"
	same "$dir/out" "$dir/expected" "--stats with a filter differs from gbpdump -r"
	# 2 of gbpblast's 16 source ports: the others' frames never counted
	k=$(sed -n '1s/^\([0-9]*\) frames.*/\1/p' "$dir/expected")
	if [ -z "$k" ] || [ "$k" -eq 0 ] || [ "$k" -ge 3200 ]; then
		fail "the filter kept $k of 3200"
	fi
	counters "$k" "$k"
	;;
identity)
	# load: two busy loops, so that the workers, the sender and the
	# kernel's softirqs wait for a CPU (the timer that hands a ring block
	# over too); ended with the script, and so are a capture and a
	# sender still running when a check fails
	sh -c 'while :; do :; done' &
	l1=$!
	sh -c 'while :; do :; done' &
	l2=$!
	bp=
	trap 'kill $l1 $l2 ${bp:-} 2>/dev/null; [ -z "${pid:-}" ] || kill -KILL "$pid" 2>/dev/null' EXIT
	start -j "$j" -B 128 --stats
	b0=$(backlog)
	# 20,000 frames while the capture is stopped: the ring (about 560
	# frames) overflows whatever the speeds; then 280,000 as fast as
	# gbpblast can
	kill -STOP "$pid"
	"$blast" -n 20000 -f 1024 2>"$dir/blast.err" || fail "gbpblast: $(cat "$dir/blast.err")"
	kill -CONT "$pid"
	"$blast" -n 280000 -f 1024 2>>"$dir/blast.err" || fail "gbpblast: $(cat "$dir/blast.err")"
	stop
	pid=
	b=$(($(backlog) - b0))
	adds_up "after the sender"
	[ "$d" -gt 0 ] || fail "no frame dropped: the ring never overflowed ($(cat "$dir/err"))"
	s=$(sed -n 's/^sent \([0-9]*\) frames.*/\1/p' "$dir/blast.err" | awk '{ n += $1 } END { print n }')
	[ "$s" = 300000 ] || fail "gbpblast sent '$s' frames of 300000"
	# the backlogs' counters are the host's: other namespaces may add
	if [ "$r" -gt "$s" ] || [ $((s - r)) -gt "$b" ]; then
		fail "sent $s, received by filter $r, lost in the backlogs $b: $((s - r - b)) frames unaccounted"
	fi
	echo "after the sender: sent $s = captured $c + dropped $d + not analysed $u + lost in the backlogs $((s - r)) (of $b)"
	# SIGINT while frames come in (lo has carried 20,000 of them: the
	# namespace's /proc/net/dev): the rings' last blocks are counted
	start -j "$j" -B 128 --stats
	rx0=$(lo_rx)
	"$blast" -n 2000000 -f 1024 2>"$dir/blast.err" &
	bp=$!
	n=0
	while [ $(($(lo_rx) - rx0)) -lt 20000 ]; do
		n=$((n + 1))
		[ $n -lt 600 ] || fail "lo carried under 20,000 frames in 30 s"
		sleep 0.05
	done
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	pid=
	[ $rc -eq 0 ] || fail "exit status $rc after SIGINT mid-stream: $(cat "$dir/err")"
	kill $bp 2>/dev/null
	wait $bp
	bp=
	adds_up "SIGINT mid-stream"
	[ "$r" -gt 0 ] || fail "SIGINT mid-stream: nothing received"
	echo "SIGINT mid-stream: received $r = captured $c + dropped $d + not analysed $u"
	;;
libpcap)
	# libpcap's own counters: on lo "received by filter" counts each frame
	# twice (it drops the outgoing copy after the filter); what it drops
	# is its business: the test wants what it captured to be analysed
	start --libpcap -B 65536 --stats
	send -n 1000 -r 2000 -f 64
	stop
	c=$(counter captured) d=$(counter 'dropped by kernel')
	head -1 "$dir/out" | grep -q "^$c frames" ||
		fail "--stats: $(head -1 "$dir/out"), $c packets captured"
	if [ "$d" = 0 ]; then
		"$gd" -j 1 -r "$dir/sent.pcap" --stats >"$dir/expected" || fail "gbpdump -r"
		same "$dir/out" "$dir/expected" "--libpcap --stats differs from gbpdump -r"
	else
		echo "note: libpcap dropped $d frames at 2000 frames/s: --stats not compared" >&2
	fi
	;;
badif)
	"$gd" -i nosuch0 --stats >"$dir/out" 2>"$dir/err"
	rc=$?
	[ $rc -eq 2 ] || fail "exit status $rc, expected 2"
	[ "$(wc -l <"$dir/err")" -eq 1 ] || fail "not one line: $(cat "$dir/err")"
	grep -q '^gbpdump: nosuch0: no such interface$' "$dir/err" || fail "$(cat "$dir/err")"
	[ ! -s "$dir/out" ] || fail "output on standard output"
	;;
*)
	echo "live.sh: unknown case $case" >&2
	exit 2
	;;
esac
echo "ok: $case $j"
