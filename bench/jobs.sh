#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# bench/jobs.sh - gbpdump -r FILE -j N scaling (docs/parallel.md): text,
# --json and --stats at -j 1, 2, ... up to the CPUs, each a median of
# --runs runs (round-robin, so a load change hits all alike), its speed-up
# against -j 1, its ratio against `cat FILE > /dev/null` and its peak RSS.
#   bench/jobs.sh [--bin DIR] [--dir DIR] [--runs N] [--frames N] [--gb N]
#                 [--big] [--max-jobs N] [--best]
# --bin DIR     gbpdump and gbpgen (build-perf/bin)
# --dir DIR     where the captures are made once and kept (/var/tmp/vxgbp-jobs)
# --frames N    the small capture's frames (300000)
# --gb N        the large capture's size in GB (1; 0: none)
# --big         also a 10 GB capture in /var/tmp, --stats at -j 1 and -j N
#               only, removed afterwards (needs 11 GB free)
# --best        the fastest of the runs instead of the median, for every row
#               and the bound (a machine others load: the least disturbed run)
# Captures (gbpgen): the small one also as pcapng; a fabric's mix: 4,000 VNIs, 2,000 groups, 20,000 inner
# hosts, 50,000 flows, frames of 60-1500 bytes, some IPv6 underlay and some
# frames that are not VXLAN (the shape of run.sh's diverse capture).
# Output: a Markdown table on standard output, `uptime` above it.  Each -j 2
# row also gives the bound of this machine, measured in the same run:
# `cat FILE` takes c, its two halves read at once (two `dd`) take h, so
# the copy out of the page cache scales c/h over two cores while CPU work
# scales 2x; with r = (-j 1 time) - c, -j 2 takes at least h + r/2
# (docs/performance.md, "Seventh round"), and the row says what share of
# that bound's speed-up it reached.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../build-perf/bin dir=/var/tmp/vxgbp-jobs runs=5 frames=300000 gb=1 big=0 best=0
maxj=$(nproc)
while [ $# -gt 0 ]; do
	case $1 in
	--bin) bin=$2; shift ;;
	--dir) dir=$2; shift ;;
	--runs) runs=$2; shift ;;
	--frames) frames=$2; shift ;;
	--gb) gb=$2; shift ;;
	--big) big=1 ;;
	--best) best=1 ;;
	--max-jobs) maxj=$2; shift ;;
	*) echo "jobs.sh: unknown option $1 (see the head of the script)" >&2; exit 2 ;;
	esac
	shift
done
gd=$bin/gbpdump gen=$bin/gbpgen
if ! [ -x "$gd" ] || ! [ -x "$gen" ]; then
	echo "jobs.sh: no gbpdump/gbpgen in $bin" >&2
	exit 2
fi
mkdir -p "$dir" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# fabric FILE N [--pcapng]: N frames of the mix (kept when it exists)
fabric() {
	local f=$1 n=$2 ng=${3:-} c="flows=50000 hosts=20000 vnis=4000 groups=2000 vteps=64 pick=skew step=2000"
	[ -s "$f" ] && return 0
	p() { echo $((n * $1 / 100)); }
	# shellcheck disable=SC2086 # no word, or the one option
	"$gen" -w "$f.tmp" --force $ng --mix 7 \
		"count=$(p 35) $c seed=1 vni=10000 gbp=1000 proto=tcp payload=1300 payload-max=1396 time=1700000000" \
		"count=$(p 30) $c seed=2 vni=10000 gbp=1000 proto=tcp payload=0 payload-max=40" \
		"count=$(p 12) $c seed=3 vni=10000 gbp=1000 proto=udp payload=400 payload-max=560" \
		"count=$(p 8) $c seed=4 vni=10000 gbp=1000 proto=tcp payload=0 payload-max=1376 outer-src=2001:db8::1 outer-dst=2001:db8::100" \
		"count=$(p 3) $c seed=5 vni=10000 gbp=1000 proto=icmp payload=56" \
		"count=$((n - $(p 88))) $c seed=6 encap=none proto=tcp payload=0 payload-max=1400" \
		&& mv "$f.tmp" "$f"
}

# measure NAME CMD...: one timed run; appends "NAME usecs rss_kb"
measure() {
	local name=$1 t0 t1
	shift
	t0=$(date +%s%N)
	/usr/bin/time -f %M -o "$tmp/rss" "$@" >/dev/null 2>"$tmp/err" ||
		{ echo "jobs.sh: '$*' failed: $(tail -n 2 "$tmp/err")" >&2; exit 1; }
	t1=$(date +%s%N)
	echo "$name $(((t1 - t0) / 1000)) $(tail -n 1 "$tmp/rss")" >>"$tmp/rows"
}

# HALVES FILE: its two halves read at once, as cat reads (the copy's scaling)
HALVES='h=$((($(stat -L -c %s "$1") / 2 + 131071) / 131072))
dd if="$1" of=/dev/null bs=128k count=$h 2>/dev/null &
dd if="$1" of=/dev/null bs=128k skip=$h 2>/dev/null
wait'

# bench FILE JOBS...: the table rows of one capture
bench() {
	local f=$1 r j m name
	shift
	: >"$tmp/rows"
	for ((r = 0; r < runs; r++)); do
		measure cat cat "$f"
		measure halves sh -c "$HALVES" halves "$f"
		for m in text json stats; do
			for j in "$@"; do
				case $m in
				text) measure "$m.$j" "$gd" -q -r "$f" -j "$j" ;;
				json) measure "$m.$j" "$gd" -q -r "$f" -j "$j" --json ;;
				stats) measure "$m.$j" "$gd" -q -r "$f" -j "$j" --stats ;;
				esac
			done
		done
	done
	# medians, then the rows
	awk -v file="$(basename "$f")" -v mb="$(($(stat -L -c %s "$f") / 1000000))" -v best=$best '
		{ t[$1] = t[$1] " " $2; if ($3 > rss[$1]) rss[$1] = $3; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
		function med(s,   a, k, i, j, v) {
			k = split(s, a, " ")
			for (i = 2; i <= k; i++) { v = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
			return best ? a[1] : a[int((k + 1) / 2)]
		}
		END {
			c = med(t["cat"]); h = med(t["halves"])
			for (i = 1; i <= n; i++) {
				name = order[i]; if (name == "cat" || name == "halves") continue
				split(name, p, "."); m = med(t[name])
				if (p[2] == 1) one[p[1]] = m
				bound = ""
				if (p[2] == 2) {
					b = one[p[1]] / (h + (one[p[1]] - c) / 2)
					bound = sprintf("%.2fx (%.0f %%)", b, 100 * one[p[1]] / m / b)
				}
				printf "| %s (%s MB) | %s | %s | %.3f s | %.2fx | %s | %.1fx cat | %.0f MB |\n",
					file, mb, p[1], p[2], m / 1e6, one[p[1]] / m, bound, m / c, rss[name] / 1024
			}
			printf "| %s (%s MB) | cat | | %.3f s | | | 1.0x | %.0f MB |\n", file, mb, c / 1e6, rss["cat"] / 1024
			printf "| %s (%s MB) | cat, two halves at once | | %.3f s | | | %.2fx cat | |\n", file, mb, h / 1e6, h / c
		}' "$tmp/rows"
}

jobs_list() {
	local j=1 l=""
	while [ $j -le "$maxj" ]; do l="$l $j"; j=$((j * 2)); done
	[ "${l##* }" = "$maxj" ] || l="$l $maxj"
	# shellcheck disable=SC2086 # one line of words
	echo $l
}
js=$(jobs_list)
small=$dir/fabric-$frames.pcap
fabric "$small" "$frames" || exit 2
# the same frames as pcapng, read in blocks too (docs/parallel.md)
fabric "$small"ng "$frames" --pcapng || exit 2
caps=("$small" "$small"ng)
if [ "$gb" != 0 ]; then
	# frames of about 720 bytes on average
	large=$dir/fabric-${gb}gb.pcap
	fabric "$large" $((gb * 1000000000 / 720)) || exit 2
	caps+=("$large")
fi
echo "uptime: $(uptime)"
echo "gbpdump -j N, $(nproc) CPUs, $([ $best = 1 ] && echo "the fastest" || echo medians) of $runs runs (wall clock, output to /dev/null)"
echo
echo "| capture | mode | -j | time | speed-up vs -j 1 | bound (reached) | vs cat | peak RSS |"
echo "|---|---|---|---|---|---|---|---|"
for f in "${caps[@]}"; do
	# shellcheck disable=SC2086 # the list of -j values
	bench "$f" $js
done
if [ $big = 1 ]; then
	bigf=/var/tmp/vxgbp-jobs-10gb.pcap
	avail=$(df --output=avail -B1 /var/tmp | tail -n 1)
	if [ "$avail" -lt 11000000000 ]; then
		echo "jobs.sh: --big: /var/tmp has $((avail / 1000000000)) GB free, 11 needed" >&2
		exit 2
	fi
	trap 'rm -rf "$tmp" "$bigf" "$bigf.tmp"' EXIT
	fabric "$bigf" $((10000000000 / 720)) || exit 2
	: >"$tmp/rows"
	for ((r = 0; r < ${BIG_RUNS:-1}; r++)); do
		measure cat cat "$bigf"
		measure "stats.1" "$gd" -q -r "$bigf" -j 1 --stats
		measure "stats.$maxj" "$gd" -q -r "$bigf" -j "$maxj" --stats
	done
	echo
	echo "10 GB capture ($(($(stat -c %s "$bigf") / 1000000)) MB), --stats, ${BIG_RUNS:-1} run(s):"
	awk '{ printf "%s: %.2f s, peak RSS %.0f MB\n", $1, $2 / 1e6, $3 / 1024 }' "$tmp/rows"
fi
