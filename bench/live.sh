#!/bin/bash
# bench/live.sh - the highest rate each live capture takes without losing a
# frame: gbpdump --stats and gbpdump text at 1, 2 and nproc workers,
# tcpdump -n -i lo and tshark -n -i lo, all with output to /dev/null, fed by
# bench/gbpblast (VXLAN-GBP over UDP to 127.0.0.1:4789, 1024 flows, 16
# outer source ports).  Everything runs on lo inside a network namespace
# of its own (unshare -n): no host interface is touched, no module loaded.
#
#   bench/live.sh [--bin DIR] [--secs S] [--start RATE] [--max RATE]
#                 [--ring KIB] [--no-tshark] [--results FILE]
#
# --bin DIR     where gbpdump and gbpblast are (build-perf/bin)
# --secs S      seconds of each trial (3)
# --start RATE  the first rate tried (25000 frames/s)
# --max RATE    the highest rate tried (4000000)
# --ring KIB    gbpdump's ring per worker (-B KIB; default: gbpdump's)
# --no-tshark   leave tshark out (it takes seconds to start)
# --results F   also write the table (markdown) to F
#
# A trial at rate R: the receiver starts and says it listens (in a file
# emptied before it starts: a trial that read the line its predecessor
# left started the sender before the receiver listened, issue 34, and lost
# the frames sent meanwhile); gbpblast sends for S seconds at R;
# one second later the receiver gets SIGINT and prints its counters.  The
# trial is clean when the receiver's kernel drop count is 0 and it
# captured exactly the frames sent.  Every trial checks the identity
#   sent = captured + dropped by kernel + not analysed + lost in the backlog
# (the input backlogs' drops, which no capture sees; tcpdump and tshark
# print no "not analysed" and count a dropped frame's two copies on lo, so
# for them the right side may exceed the left); the frames it misses are
# "unaccounted N", and such a trial is never clean.
# The search doubles R from
# --start until a trial loses frames, then bisects four times between the
# last clean rate and the first lossy one.  When gbpblast cannot reach R
# (it achieved less than 97%; it shares the CPUs with the receiver), the
# search stops there: the table says "sender-bound".  Beside the highest
# clean rate: the CPU time the receiver used (all its threads, from
# /proc/PID/stat) per million frames in that trial, which says how far
# above that rate it could go on a CPU of its own.
#
# tshark runs as root here: capturing needs CAP_NET_RAW and no plugin is
# loaded (as root Wireshark ignores plugin folders anyway); it writes its
# temporary capture to /tmp, as it always does.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../build-perf/bin
secs=3 start=25000 max=4000000 tshark=1 results='' ring=''
while [ $# -gt 0 ]; do
	case $1 in
	--bin) bin=$2; shift ;;
	--secs) secs=$2; shift ;;
	--start) start=$2; shift ;;
	--max) max=$2; shift ;;
	--ring) ring=$2; shift ;;
	--no-tshark) tshark=0 ;;
	--results) results=$2; shift ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "live.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
gd=$bin/gbpdump blast=$bin/gbpblast
for t in "$gd" "$blast"; do
	[ -x "$t" ] || { echo "live.sh: $t missing (build first; --bin DIR)" >&2; exit 2; }
done
if [ -z "${VXGBP_LIVE_NETNS:-}" ]; then
	unshare -n true 2>/dev/null ||
		{ echo "live.sh: cannot create a network namespace (unshare -n; root?)" >&2; exit 2; }
	set -- --bin "$bin" --secs "$secs" --start "$start" --max "$max"
	[ $tshark = 1 ] || set -- "$@" --no-tshark
	[ -z "$ring" ] || set -- "$@" --ring "$ring"
	[ -z "$results" ] || set -- "$@" --results "$results"
	VXGBP_LIVE_NETNS=1 exec unshare -n bash "$0" "$@"
fi
ip link set lo up || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
have() { command -v "$1" >/dev/null 2>&1; }

# frames the kernel dropped from its per-CPU input backlogs so far
# (/proc/net/softnet_stat, second column, hex): on lo a frame is sent, then
# queued for the receive side, where the capture sees it; when the backlog
# is full (netdev_max_backlog) it is lost before any capture can see it
backlog_drops() {
	local n=0 d
	while read -r _ d _; do
		n=$((n + 16#$d))
	done </proc/net/softnet_stat
	echo $n
}

# the CPU time of process $1 so far, all its threads, in clock ticks
# (/proc/PID/stat fields 14 and 15, counted after the ")" of the name)
cpu_ticks() {
	local f
	f=$(sed 's/.*) //' /proc/"$1"/stat 2>/dev/null) || { echo 0; return; }
	# shellcheck disable=SC2086 # the fields split on purpose
	set -- $f
	echo $((${12:-0} + ${13:-0}))
}
hz=$(getconf CLK_TCK)

# trial NAME RATE CMD...: 0, or 1 when the receiver did not start or
# printed no count (the caller tries once more); sets cpu (ticks the
# receiver used), sent, got (captured), drops, notan (not analysed), recv
# (received by filter), achieved, early (frames lost in the backlogs during
# the trial: never seen by a capture), unacc (frames the identity misses)
trial() {
	local name=$1 rate=$2 pid n=0 ready
	shift 2
	case $name in
	tshark*) ready='Capture started' ;;
	*) ready='listening on' ;;
	esac
	ntrials=$((ntrials + 1))
	# empty before the receiver starts: its line, not the last trial's
	: >"$tmp/err"
	"$@" >/dev/null 2>"$tmp/err" &
	pid=$!
	until grep -q "$ready" "$tmp/err"; do
		n=$((n + 1))
		if [ $n -gt 600 ] || ! kill -0 $pid 2>/dev/null; then
			echo "live.sh: $name did not start: $(cat "$tmp/err")" >&2
			kill -INT $pid 2>/dev/null
			wait $pid
			return 1
		fi
		sleep 0.05
	done
	early=$(backlog_drops)
	"$blast" -r "$rate" -d "$secs" -f 1024 2>"$tmp/blast" || return 1
	sleep 1
	early=$(($(backlog_drops) - early))
	cpu=$(cpu_ticks $pid)
	kill -INT $pid
	wait $pid
	status=$?
	sent=$(sed -n 's/^sent \([0-9]*\) frames.*/\1/p' "$tmp/blast")
	achieved=$(sed -n 's/.*(\([0-9]*\) frames\/s).*/\1/p' "$tmp/blast")
	got=$(sed -n 's/^\([0-9]*\) packets captured.*/\1/p' "$tmp/err" | tail -1)
	drops=$(grep -o '[0-9]* packets dropped' "$tmp/err" | awk '{ s += $1 } END { print s + 0 }')
	if [ -z "$got" ]; then
		echo "live.sh: $name at $rate/s printed no count: $(tail -3 "$tmp/err")" >&2
		return 1
	fi
	notan=$(sed -n 's/^\([0-9]*\) packets not analysed.*/\1/p' "$tmp/err")
	recv=$(sed -n 's/^\([0-9]*\) packets received by filter.*/\1/p' "$tmp/err")
	[ -n "$sent" ] || return 1
	if [ "$status" -ne 0 ]; then
		echo "live.sh: $name exit status $status: $(grep -v 'packets\|times a ring' "$tmp/err")" >&2
	fi
	# below 0 only by counting more: libpcap's two copies of a dropped
	# frame on lo, or another namespace's backlog drops (the counters
	# are the host's)
	unacc=$((sent - got - drops - ${notan:-0} - early))
	[ $unacc -gt 0 ] || unacc=0
	[ $unacc -eq 0 ] || nunacc=$((nunacc + 1))
	return 0
}

# the last trial's line on standard error
say() {
	echo "  $1 -j $2: $3/s: sent $sent (achieved $achieved/s), captured $got, dropped $drops${notan:+, not analysed $notan}${recv:+, received by filter $recv}, lost in the backlog $early, ${4}CPU $(per_m) s/1M frames" >&2
}

# what the last trial's identity says: "" when it holds, else "unaccounted N, "
unacc_note() {
	[ "$unacc" -eq 0 ] || echo "unaccounted $unacc, "
}

# frames lost in the last trial: not captured of those that reached the
# capture (sent less the backlogs' drops; the softnet counters are the
# host's, so other traffic may add to them: a rate where they count is
# not claimed as clean by them alone: the kernel drops must be 0 too), or
# reported dropped (on lo libpcap counts a frame's two copies, outgoing and
# incoming, in its drops)
lost() {
	local short=$((sent - early - got))
	[ $short -lt 0 ] && short=0
	echo $((short > 0 ? short : drops))
}

# CPU seconds the receiver used per million frames captured in the last
# trial (tshark: its own process, not dumpcap's)
per_m() {
	[ "$got" -gt 0 ] || { echo "-"; return; }
	awk -v c="$cpu" -v hz="$hz" -v n="$got" 'BEGIN { printf "%.2f", c / hz / n * 1e6 }'
}

# the identity column of a row: every trial's, and where it failed
identity() {
	if [ "$nunacc" -eq 0 ]; then
		echo "holds in $ntrials trials"
	else
		echo "unaccounted in $nunacc of $ntrials trials:$unaccs"
	fi
}

# search NAME WORKERS CMD...: one table row
search() {
	local name=$1 workers=$2 lo=0 hi=0 r=$start hilost=0 hidrops=0 bound="" mid locpu=""
	shift 2
	ntrials=0 nunacc=0 unaccs=""
	while [ "$r" -le "$max" ]; do
		trial "$name" "$r" "$@" || trial "$name" "$r" "$@" ||
			{ echo "| $name | $workers | (failed) | | | | | $(identity) |"; return; }
		say "$name" "$workers" "$r" "$(unacc_note)"
		[ "$unacc" -eq 0 ] || unaccs="$unaccs $unacc at $r/s;"
		if [ "$achieved" -lt $((r * 97 / 100)) ] && [ "$(lost)" -eq 0 ]; then
			bound=" (sender-bound at $achieved/s)"
			lo=$achieved locpu=$(per_m)
			break
		fi
		if [ "$(lost)" -gt 0 ]; then
			hi=$r hilost=$((sent - got)) hidrops=$drops
			break
		fi
		lo=$r locpu=$(per_m)
		r=$((r * 2))
	done
	for _ in 1 2 3 4; do
		[ "$hi" -gt 0 ] || break
		mid=$(((lo + hi) / 2))
		[ "$mid" -gt "$lo" ] || break
		trial "$name" "$mid" "$@" || trial "$name" "$mid" "$@" || break
		say "$name" "$workers" "$mid" "$(unacc_note)"
		[ "$unacc" -eq 0 ] || unaccs="$unaccs $unacc at $mid/s;"
		if [ "$(lost)" -gt 0 ]; then
			hi=$mid hilost=$((sent - got)) hidrops=$drops
		else
			lo=$mid locpu=$(per_m)
		fi
	done
	if [ "$hi" -gt 0 ]; then
		echo "| $name | $workers | $lo | $locpu | $hi | $hilost | $hidrops | $(identity) |"
	else
		echo "| $name | $workers | $lo$bound | $locpu | none up to $max | | | $(identity) |"
	fi
}

ncpu=$(nproc)
jobs="1 2"
[ "$ncpu" -gt 2 ] && jobs="$jobs $ncpu"
{
	echo "Live capture on lo in a network namespace: highest rate with zero loss"
	echo "($(nproc) CPUs, shared with gbpblast; $secs s a trial${ring:+; gbpdump -B $ring}; $(uptime | sed 's/^ *//'))"
	"$blast" -n 16 -w "$tmp/some.pcap" 2>/dev/null
	echo "Frames: VXLAN-GBP, 1024 inner flows over 16 outer source ports; $(
		"$gd" -r "$tmp/some.pcap" --stats | sed -n '1s/^\([0-9]*\) frames, \([0-9]*\) bytes.*/\2 bytes in \1 frames on the wire/p')."
	echo
	echo "| receiver | workers | highest zero-loss rate (frames/s) | its CPU s per 1M frames there | first lossy rate | frames not captured there | kernel drops it reported | identity (sent = captured + counted losses) |"
	echo "|---|---|---|---|---|---|---|---|"
} | tee "$tmp/table"
bopt=${ring:+-B $ring}
for j in $jobs; do
	# shellcheck disable=SC2086 # bopt: none or two words
	search "gbpdump --stats" "$j" "$gd" -i lo -j "$j" $bopt --stats | tee -a "$tmp/table"
done
for j in $jobs; do
	# shellcheck disable=SC2086
	search "gbpdump text" "$j" "$gd" -i lo -j "$j" $bopt -n | tee -a "$tmp/table"
done
if have tcpdump; then
	search "tcpdump -n" 1 tcpdump -n -i lo | tee -a "$tmp/table"
fi
if [ $tshark = 1 ] && have tshark; then
	search "tshark -n" 1 tshark -n -i lo | tee -a "$tmp/table"
fi
[ -z "$results" ] || cp "$tmp/table" "$results"
