#!/bin/bash
# bench/run.sh - gbpdump against cat, tcpdump and tshark on the same captures.
#
#   bench/run.sh [--bin DIR] [--dir DIR] [--frames N] [--runs R] [--quick]
#                [--memory] [--callgrind] [--no-tshark] [--results FILE]
#                [--baseline DIR]
#
# --bin DIR     where gbpdump, gbpgen and vxgbp_microbench are (build-perf/bin)
# --dir DIR     where the generated captures go (/var/tmp/vxgbp-bench); they
#               are made once with gbpgen and kept (never commit them)
# --frames N    frames in the flow-pool capture (1000000)
# --runs R      rounds of the fast commands, run round-robin (a load change
#               on a shared machine then hits all alike); medians are
#               reported (5); tcpdump gets min(R,3) runs, tshark 1
# --quick       100,000 frames, one run each, no tshark, no distinct-address
#               capture: a smoke test (ctest bench.quick) that checks the
#               commands work and agree, never how fast they are
# --memory      also compare peak RSS on a 10x larger capture (10M frames,
#               about 6 GB in --dir)
# --callgrind   instructions per frame (valgrind --tool=callgrind) of gbpdump
#               text, -v, --json, --stats, --check and --libpcap on
#               100,000-frame pool and diverse captures, also shown beside
#               the diverse capture's times
# --no-diverse  skip the diverse capture (its table, pcapng and compressed
#               rows)
# --results F   also write the tables (markdown) to F
# --jobs        also the -j scaling table (bench/jobs.sh: -j 1 .. nproc)
# --live        also the live capture table (bench/live.sh, in a network
#               namespace of its own)
# --baseline D  also time (and count, with --callgrind) the gbpdump in D,
#               e.g. a build of the commit before a change, in the same
#               round-robin: rows "before: ..." beside the others
#
# Captures (gbpgen): "pool" = N frames over 10,000 flows (inner source
# addresses), a mix of TCP (1000-byte payload, 40%), UDP (300, 30%) and ICMP
# (56, 30%) inner frames in VXLAN-GBP with three VNIs and groups: 604 bytes a
# frame on average.  "diverse" = N frames as a fabric carries them (see
# make_diverse): 4,000 VNIs, 2,000 groups, 20,000 inner hosts, 50,000 flows
# picked with a skew, 64 VTEPs, sizes from 60 to 1500 bytes, 8% IPv6
# underlay, 13.5% not VXLAN (plain TCP/UDP, IPv6, ARP), a few percent of
# other VXLAN shapes (802.1Q, GPE, in Geneve, no GBP, IPv6 inside), all
# interleaved (gbpgen --mix); also as pcapng and compressed (gzip, zstd)
# when the tools are there.  "distinct" = 100,000 frames, every one from a
# new inner address (tcpdump's slow case).  Times are wall-clock medians with the page
# cache warm and output to /dev/null; CPU (user + system, children
# included: the pipe row's cat too) and peak RSS from /usr/bin/time, also
# medians; on a loaded machine compare CPU and the callgrind counts.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../build-perf/bin
dir=/var/tmp/vxgbp-bench
frames=1000000 runs=5 quick=0 memory=0 callgrind=0 tshark=1 results= base= diverse=1
while [ $# -gt 0 ]; do
	case $1 in
	--bin) bin=$2; shift ;;
	--dir) dir=$2; shift ;;
	--frames) frames=$2; shift ;;
	--runs) runs=$2; shift ;;
	--quick) quick=1 ;;
	--memory) memory=1 ;;
	--callgrind) callgrind=1 ;;
	--no-tshark) tshark=0 ;;
	--live) live=1 ;;
	--jobs) jobs=1 ;;
	--no-diverse) diverse=0 ;;
	--results) results=$2; shift ;;
	--baseline) base=$2/gbpdump; shift ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
if [ $quick = 1 ]; then
	frames=100000 runs=1 tshark=0
fi
gd=$bin/gbpdump gen=$bin/gbpgen micro=$bin/vxgbp_microbench
[ -z "$base" ] || [ -x "$base" ] || { echo "run.sh: $base missing (--baseline DIR)" >&2; exit 2; }
for t in "$gd" "$gen"; do
	[ -x "$t" ] || { echo "run.sh: $t missing (build first; --bin DIR)" >&2; exit 2; }
done
mkdir -p "$dir" || exit 2
# one thread (-j 1) where gbpdump has -j: these tables are single-thread
# cost; the scaling with -j is bench/jobs.sh's
j1=()
"$gd" --help 2>&1 | grep -q -- '--jobs' && j1=(-j 1)
have() { command -v "$1" >/dev/null 2>&1; }
TIME=/usr/bin/time
[ -x $TIME ] || { echo "run.sh: /usr/bin/time missing (Debian package time)" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out" "$out".*' EXIT
say() { echo "$@"; echo "$@" >>"$out"; }

# make_pool FILE N [--pcapng]: the flow-pool capture
make_pool() {
	local f=$1 n=$2 a b c
	shift 2
	[ -s "$f" ] && return 0
	a=$((n * 4 / 10)) b=$((n * 3 / 10))
	c=$((n - a - b))
	"$gen" -w "$f.tmp" --force "$@" \
		"count=$a flows=10000 vni=100 gbp=512 proto=tcp payload=1000 step=1000" \
		"count=$b flows=10000 vni=200 gbp=768 d=1 proto=udp payload=300 step=1000 time=1700100000" \
		"count=$c flows=10000 vni=300 gbp=1024 a=1 proto=icmp payload=56 step=1000 time=1700200000" \
		&& mv "$f.tmp" "$f"
}
# make_diverse FILE N [gbpgen options]: the diverse capture.  Shares of N
# in thousandths: VXLAN-GBP over IPv4: TCP of 1354-1450 bytes 350, TCP of
# 104-144 bytes 250, UDP of 500-660 bytes 100, ICMP 30; VXLAN-GBP over IPv6
# (TCP, 124-1500 bytes) 80; inner IPv6 UDP 20; an 802.1Q-tagged outer frame
# 10; VXLAN-GPE without GBP 10; VXLAN-GBP inside Geneve 10; not VXLAN:
# IPv4 TCP 100, IPv6 UDP 15, ARP the rest (25).  Every VXLAN spec draws
# from the same 50,000 flows over 20,000 hosts, so a host keeps its VNI and
# group across them.
make_diverse() {
	local f=$1 n=$2 c="flows=50000 hosts=20000 vnis=4000 groups=2000 vteps=64 pick=skew step=2000"
	shift 2
	[ -s "$f" ] && return 0
	p() { echo $((n * $1 / 1000)); }
	"$gen" -w "$f.tmp" --force --mix 15 "$@" \
		"count=$(p 350) $c seed=1 vni=10000 gbp=1000 proto=tcp payload=1300 payload-max=1396 time=1700000000" \
		"count=$(p 250) $c seed=2 vni=10000 gbp=1000 proto=tcp payload=0 payload-max=40" \
		"count=$(p 100) $c seed=3 vni=10000 gbp=1000 proto=udp payload=400 payload-max=560" \
		"count=$(p 30) $c seed=4 vni=10000 gbp=1000 proto=icmp payload=56" \
		"count=$(p 80) $c seed=5 vni=10000 gbp=1000 proto=tcp payload=0 payload-max=1376 outer-src=2001:db8::1 outer-dst=2001:db8::100" \
		"count=$(p 20) $c seed=6 vni=10000 gbp=1000 proto=udp payload=100 payload-max=1200 inner-src=2001:db8:1::1 inner-dst=2001:db8:2::1" \
		"count=$(p 10) $c seed=7 vni=10000 gbp=1000 proto=tcp payload=0 payload-max=1300 vlan=100" \
		"count=$(p 10) $c seed=8 vni=10000 proto=udp payload=200 payload-max=1000 gpe=eth" \
		"count=$(p 10) $c seed=9 vni=10000 gbp=1000 proto=tcp payload=500 wrap=geneve,vni=77" \
		"count=$(p 100) $c seed=10 encap=none proto=tcp payload=0 payload-max=1400" \
		"count=$(p 15) $c seed=11 encap=none proto=udp payload=20 payload-max=1200 inner-src=2001:db8:3::1 inner-dst=2001:db8:4::1" \
		"count=$((n - $(p 975))) $c seed=12 encap=none proto=arp" \
		&& mv "$f.tmp" "$f"
}
make_distinct() {
	local f=$1 n=$2
	[ -s "$f" ] && return 0
	"$gen" -w "$f.tmp" --force "count=$n flows=$n vni=100 gbp=512 proto=udp payload=508 step=1000" \
		&& mv "$f.tmp" "$f"
}

# run_one NAME NRUNS FRAMES BYTES CMD...: median wall time and peak RSS;
# appends "name|µs|rss_kb|frames|bytes|cpu µs|cmd" to $out.rows
run_one() {
	local name=$1 n=$2 nf=$3 nb=$4 i t0 t1 rss
	shift 4
	local times=() cpus=()
	for ((i = 0; i < n; i++)); do
		t0=$(date +%s%N)
		$TIME -f "%M %U %S" -o "$out.rss" "$@" >/dev/null 2>"$out.err"
		local rc=$?
		t1=$(date +%s%N)
		if [ $rc -ne 0 ]; then
			echo "run.sh: '$*' failed (exit $rc): $(tail -n 2 "$out.err")" >&2
			return 1
		fi
		times+=($(((t1 - t0) / 1000)))
		rss=$(tail -n 1 "$out.rss" | cut -d' ' -f1)
		cpus+=($(cpu_us))
	done
	echo "$name|$(median "${times[@]}")|$rss|$nf|$nb|$(median "${cpus[@]}")|$*" >>"$out.rows"
}

# queue NAME FRAMES BYTES CMD... / run_queue NRUNS: the queued commands
# run round-robin, NRUNS rounds, so a load change on a shared machine hits
# every command alike (ratios stay fair); medians and peak RSS per command
# appended to $out.rows in queue order.
qnames=() qframes=() qbytes=() qcmds=()
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# user + system CPU time (µs) of the last timed command, children included
cpu_us() { tail -n 1 "$out.rss" | awk '{printf "%d", ($2 + $3) * 1e6}'; }
queue() {
	local name=$1 nf=$2 nb=$3
	shift 3
	qnames+=("$name") qframes+=("$nf") qbytes+=("$nb") qcmds+=("$(printf '%q ' "$@")")
}
run_queue() {
	local n=$1 r i t0 t1 rc
	local times=() rss=() cpus=()
	for ((r = 0; r < n; r++)); do
		for i in "${!qcmds[@]}"; do
			t0=$(date +%s%N)
			eval "$TIME -f \"%M %U %S\" -o \"\$out.rss\" ${qcmds[$i]}" >/dev/null 2>"$out.err"
			rc=$?
			t1=$(date +%s%N)
			# --check: 3 and 4 say what it found, not that it failed
			case ${qcmds[$i]} in *--check*) [ $rc = 3 ] || [ $rc = 4 ] && rc=0 ;; esac
			if [ $rc -ne 0 ]; then
				echo "run.sh: '${qcmds[$i]}' failed (exit $rc): $(tail -n 2 "$out.err")" >&2
				return 1
			fi
			times[$i]="${times[$i]:-} $(((t1 - t0) / 1000))"
			rss[$i]=$(tail -n 1 "$out.rss" | cut -d' ' -f1)
			cpus[$i]="${cpus[$i]:-} $(cpu_us)"
		done
	done
	for i in "${!qcmds[@]}"; do
		# shellcheck disable=SC2086
		echo "${qnames[$i]}|$(median ${times[$i]})|${rss[$i]}|${qframes[$i]}|${qbytes[$i]}|$(median ${cpus[$i]})|${qcmds[$i]}" >>"$out.rows"
	done
	qnames=() qframes=() qbytes=() qcmds=()
}

# table TITLE: print the rows collected in $out.rows as a markdown table;
# with $out.ipf ("name|instructions a frame" lines, from count_ipf) a column
# of instructions per frame beside the times
table() {
	local title=$1
	local ref_tcp ref_cat ipf=/dev/null
	ref_tcp=$(awk -F'|' '$1=="tcpdump -nr"{print $2}' "$out.rows")
	ref_cat=$(awk -F'|' '$1=="cat"{print $2}' "$out.rows")
	[ -s "$out.ipf" ] && ipf=$out.ipf
	say ""
	say "### $title"
	say ""
	if [ "$ipf" = /dev/null ]; then
		say "| tool | time (s) | CPU (s) | frames/s | MB/s | vs tcpdump -nr | vs cat | peak RSS (MB) |"
		say "|---|---:|---:|---:|---:|---:|---:|---:|"
	else
		say "| tool | time (s) | CPU (s) | frames/s | MB/s | vs tcpdump -nr | vs cat | peak RSS (MB) | instructions a frame |"
		say "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	fi
	awk -F'|' -v tcp="${ref_tcp:-0}" -v cat="${ref_cat:-0}" -v ipff="$ipf" '
	BEGIN {
		withi = ipff != "/dev/null"
		while (withi && (getline l < ipff) > 0) {
			split(l, a, "|")
			ipf[a[1]] = a[2]
		}
	}
	{
		s = $2 / 1e6
		fps = s > 0 ? $4 / s : 0
		mbs = s > 0 ? $5 / 1e6 / s : 0
		vt = (tcp > 0 && $2 > 0) ? sprintf("%.1fx faster", tcp / $2) : "-"
		if ($1 == "tcpdump -nr") vt = "1"
		vc = (cat > 0) ? sprintf("%.2fx cat", $2 / cat) : "-"
		printf "| `%s` | %.3f | %.3f | %.0f | %.0f | %s | %s | %.1f |", $1, s, $6 / 1e6, fps, mbs, vt, vc, $3 / 1024
		if (withi) printf " %s |", ($1 in ipf) ? ipf[$1] : "-"
		printf "\n"
	}' "$out.rows" | tee -a "$out"
	rm -f "$out.rows" "$out.ipf"
}

# count_ipf FILE FRAMES [GBPDUMP] -- OPTS...: instructions a frame of
# GBPDUMP (ours) -r FILE OPTS, whole run (start-up included) over FRAMES;
# empty when valgrind fails or the gbpdump does not know an option
count_ipf() {
	local f=$1 nf=$2 g=$gd ir
	shift 2
	if [ "$1" != -- ]; then g=$1; shift; fi
	shift
	[ "$g" = "$gd" ] && set -- "${j1[@]}" "$@"
	# counted once a run (the diverse table and the callgrind table)
	ir=$(awk -F'|' -v k="$g $f $*" '$1 == k { print $2 }' "$out.ircache" 2>/dev/null)
	if [ -z "$ir" ]; then
		ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$g" -r "$f" "$@" \
			2>&1 >/dev/null | sed -n 's/.*Collected : *//p')
		echo "$g $f $*|$ir" >>"$out.ircache"
	fi
	[ -n "$ir" ] && echo $((ir / nf))
}

pool=$dir/pool-$frames.pcap
poolng=$dir/pool-$frames.pcapng
say "## gbpdump bench ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(uname -r))"
say ""
say "gbpdump: $("$gd" --version | head -n 1)"
have tcpdump && say "tcpdump: $(tcpdump --version 2>&1 | head -n 1)"
have tshark && [ $tshark = 1 ] && say "tshark: $(tshark --version 2>/dev/null | head -n 1)"
make_pool "$pool" "$frames" || exit 2
make_pool "$poolng" "$frames" --pcapng || exit 2
bytes=$(stat -c %s "$pool")
bytesng=$(stat -c %s "$poolng")
say "capture: $pool, $frames frames, $bytes bytes ($((bytes / frames - 16)) bytes a frame on average with the 16-byte record header excluded)"
cat "$pool" "$poolng" >/dev/null # warm the page cache

# Sanity (every mode): both readers and stdin agree, every frame printed.
lines=$("$gd" "${j1[@]}" -r "$pool" | wc -l)
[ "$lines" = "$frames" ] || { echo "run.sh: gbpdump printed $lines lines for $frames frames" >&2; exit 1; }
sa=$("$gd" "${j1[@]}" -r "$pool" | cksum) sb=$("$gd" "${j1[@]}" -r "$pool" --libpcap | cksum) sc=$("$gd" "${j1[@]}" -r - <"$pool" | cksum)
[ "$sa" = "$sb" ] && [ "$sa" = "$sc" ] || { echo "run.sh: fast, --libpcap and stdin outputs differ" >&2; exit 1; }
[ "$("$gd" "${j1[@]}" -r "$pool" --json | wc -l)" = "$frames" ] || { echo "run.sh: --json line count" >&2; exit 1; }

slow=$((runs < 3 ? runs : 3))
queue "cat" "$frames" "$bytes" cat "$pool"
queue "gbpdump -r" "$frames" "$bytes" "$gd" "${j1[@]}" -r "$pool"
queue "gbpdump -r --json" "$frames" "$bytes" "$gd" "${j1[@]}" -r "$pool" --json
queue "gbpdump -r --stats" "$frames" "$bytes" "$gd" "${j1[@]}" -r "$pool" --stats
queue "gbpdump -r --check" "$frames" "$bytes" "$gd" "${j1[@]}" -r "$pool" --check
queue "gbpdump -r --libpcap" "$frames" "$bytes" "$gd" "${j1[@]}" -r "$pool" --libpcap
queue "gbpdump -r - (stdin)" "$frames" "$bytes" sh -c "exec \"$gd\" ${j1[*]} -r - <\"$pool\""
queue "gbpdump -r - (from a pipe)" "$frames" "$bytes" sh -c "cat \"$pool\" | \"$gd\" ${j1[*]} -r -"
queue "gbpdump -r FILE.pcapng" "$frames" "$bytesng" "$gd" "${j1[@]}" -r "$poolng"
queue "gbpdump -r FILE.pcapng --stats" "$frames" "$bytesng" "$gd" "${j1[@]}" -r "$poolng" --stats
if [ -n "$base" ]; then
	for opts in "" "--json" "--stats" "--check"; do
		# shellcheck disable=SC2086
		queue "before: gbpdump -r $opts" "$frames" "$bytes" "$base" -r "$pool" $opts
	done
fi
run_queue "$runs" || exit 1
if have tcpdump; then
	run_one "tcpdump -nr" "$slow" "$frames" "$bytes" tcpdump -nr "$pool"
	run_one "TZ=UTC tcpdump -nr" "$slow" "$frames" "$bytes" env TZ=UTC tcpdump -nr "$pool"
fi
if have tshark && [ $tshark = 1 ]; then
	run_one "tshark -r" 1 "$frames" "$bytes" tshark -r "$pool"
fi
tshark_s=$(awk -F'|' '$1=="tshark -r"{print $2}' "$out.rows")
text_s=$(awk -F'|' '$1=="gbpdump -r"{print $2}' "$out.rows")
json_s=$(awk -F'|' '$1=="gbpdump -r --json"{print $2}' "$out.rows")
stats_s=$(awk -F'|' '$1=="gbpdump -r --stats"{print $2}' "$out.rows")
tcp_s=$(awk -F'|' '$1=="tcpdump -nr"{print $2}' "$out.rows")
cat_s=$(awk -F'|' '$1=="cat"{print $2}' "$out.rows")
table "Flow pool: $frames frames, 10,000 flows, $((bytes / 1000000)) MB (medians of $runs runs; tcpdump $slow, tshark 1)"
say ""
say "Targets (issue 6):"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
[ -n "$tcp_s" ] && say "- text vs tcpdump -nr: $(ratio "$tcp_s" "$text_s")x faster (target >= 15x)"
[ -n "$tshark_s" ] && say "- text vs tshark -r: $(ratio "$tshark_s" "$text_s")x faster (target >= 200x)"
[ -n "$tcp_s" ] && say "- --json vs tcpdump -nr: $(ratio "$tcp_s" "$json_s")x faster (target >= 10x)"
say "- --stats vs cat: $(ratio "$stats_s" "$cat_s")x the time of cat (target <= 2x)"

# The diverse capture: times, ratios and (--callgrind) instructions a frame
# beside them; the same capture as pcapng and compressed.
if [ $diverse = 1 ]; then
	div=$dir/diverse-$frames.pcap
	divng=$dir/diverse-$frames.pcapng
	make_diverse "$div" "$frames" || exit 2
	if [ ! -s "$divng" ]; then
		if have editcap; then
			editcap -F pcapng "$div" "$divng.tmp" && mv "$divng.tmp" "$divng"
		else
			make_diverse "$divng" "$frames" --pcapng
		fi || exit 2
	fi
	if have gzip && [ ! -s "$div.gz" ]; then
		gzip -1 -c "$div" >"$div.gz.tmp" && mv "$div.gz.tmp" "$div.gz"
	fi
	if have zstd && [ ! -s "$div.zst" ]; then
		zstd -q -c "$div" >"$div.zst.tmp" && mv "$div.zst.tmp" "$div.zst"
	fi
	dbytes=$(stat -c %s "$div")
	say ""
	say "capture: $div, $frames frames, $dbytes bytes ($((dbytes / frames - 16)) bytes a frame on average with the record header excluded)"
	cat "$div" "$divng" >/dev/null
	lines=$("$gd" "${j1[@]}" -r "$div" | wc -l)
	[ "$lines" = "$frames" ] || { echo "run.sh: gbpdump printed $lines lines for $frames frames of $div" >&2; exit 1; }
	sa=$("$gd" "${j1[@]}" -r "$div" | cksum) sb=$("$gd" "${j1[@]}" -r "$div" --libpcap | cksum) sc=$("$gd" "${j1[@]}" -r "$divng" | cksum)
	[ "$sa" = "$sb" ] && [ "$sa" = "$sc" ] || { echo "run.sh: $div: fast, --libpcap and pcapng outputs differ" >&2; exit 1; }
	queue "cat" "$frames" "$dbytes" cat "$div"
	queue "gbpdump -r" "$frames" "$dbytes" "$gd" "${j1[@]}" -r "$div"
	queue "gbpdump -r -v" "$frames" "$dbytes" "$gd" "${j1[@]}" -r "$div" -v
	queue "gbpdump -r --json" "$frames" "$dbytes" "$gd" "${j1[@]}" -r "$div" --json
	queue "gbpdump -r --stats" "$frames" "$dbytes" "$gd" "${j1[@]}" -r "$div" --stats
	queue "gbpdump -r --check" "$frames" "$dbytes" "$gd" "${j1[@]}" -r "$div" --check
	queue "gbpdump -r --libpcap" "$frames" "$dbytes" "$gd" "${j1[@]}" -r "$div" --libpcap
	queue "gbpdump -r FILE.pcapng" "$frames" "$dbytes" "$gd" "${j1[@]}" -r "$divng"
	queue "gbpdump -r FILE.pcapng --stats" "$frames" "$dbytes" "$gd" "${j1[@]}" -r "$divng" --stats
	[ -s "$div.gz" ] && queue "gbpdump -r FILE.gz --stats" "$frames" "$dbytes" "$gd" "${j1[@]}" -r "$div.gz" --stats
	[ -s "$div.zst" ] && queue "gbpdump -r FILE.zst --stats" "$frames" "$dbytes" "$gd" "${j1[@]}" -r "$div.zst" --stats
	if [ -n "$base" ]; then
		for opts in "" "--json" "--stats"; do
			# shellcheck disable=SC2086
			queue "before: gbpdump -r $opts" "$frames" "$dbytes" "$base" -r "$div" $opts
		done
	fi
	run_queue "$runs" || exit 1
	have tcpdump && run_one "tcpdump -nr" "$slow" "$frames" "$dbytes" tcpdump -nr "$div"
	if [ $callgrind = 1 ] && have valgrind; then
		dsmall=$dir/diverse-100000.pcap
		make_diverse "$dsmall" 100000 || exit 2
		for opts in "" "-v" "--json" "--stats" "--check" "--libpcap"; do
			# shellcheck disable=SC2086
			ipf=$(count_ipf "$dsmall" 100000 -- $opts)
			echo "gbpdump -r${opts:+ $opts}|${ipf:--}" >>"$out.ipf"
		done
	fi
	dcat=$(awk -F'|' '$1=="cat"{print $2}' "$out.rows")
	dtext=$(awk -F'|' '$1=="gbpdump -r"{print $2}' "$out.rows")
	dstats=$(awk -F'|' '$1=="gbpdump -r --stats"{print $2}' "$out.rows")
	dng=$(awk -F'|' '$1=="gbpdump -r FILE.pcapng"{print $2}' "$out.rows")
	dngs=$(awk -F'|' '$1=="gbpdump -r FILE.pcapng --stats"{print $2}' "$out.rows")
	table "Diverse: $frames frames, 4,000 VNIs, 2,000 groups, 20,000 hosts, 50,000 flows, $((dbytes / 1000000)) MB (medians of $runs runs; tcpdump $slow)$([ $callgrind = 1 ] && echo "; instructions a frame from callgrind on the 100,000-frame diverse capture")"
	say ""
	say "Targets (issue 15, single thread):"
	say "- text vs cat: $(ratio "$dtext" "$dcat")x the time of cat (target <= 3x)"
	say "- --stats vs cat: $(ratio "$dstats" "$dcat")x the time of cat (target <= 2x)"
	say "- pcapng text vs pcap text: $(ratio "$dng" "$dtext")x (target <= 1.15x)"
	say "- pcapng --stats vs cat: $(ratio "$dngs" "$dcat")x (target <= 2x)"
fi

if [ $quick = 0 ]; then
	dist=$dir/distinct-100000.pcap
	make_distinct "$dist" 100000 || exit 2
	dbytes=$(stat -c %s "$dist")
	cat "$dist" >/dev/null
	queue "cat" 100000 "$dbytes" cat "$dist"
	queue "gbpdump -r" 100000 "$dbytes" "$gd" "${j1[@]}" -r "$dist"
	queue "gbpdump -r --json" 100000 "$dbytes" "$gd" "${j1[@]}" -r "$dist" --json
	queue "gbpdump -r --stats" 100000 "$dbytes" "$gd" "${j1[@]}" -r "$dist" --stats
	run_queue "$runs" || exit 1
	have tcpdump && run_one "tcpdump -nr" 1 100000 "$dbytes" tcpdump -nr "$dist"
	have tshark && [ $tshark = 1 ] && run_one "tshark -r" 1 100000 "$dbytes" tshark -r "$dist"
	table "All-distinct inner addresses: 100,000 frames, $((dbytes / 1000000)) MB (medians of $runs runs; tcpdump and tshark 1)"
fi

if [ $memory = 1 ]; then
	big=$((frames * 10))
	bigf=$dir/pool-$big.pcap
	make_pool "$bigf" "$big" || exit 2
	bb=$(stat -c %s "$bigf")
	cat "$bigf" >/dev/null # warm the page cache, as for the others
	run_one "gbpdump -r ($frames frames)" 1 "$frames" "$bytes" "$gd" "${j1[@]}" -r "$pool"
	run_one "gbpdump -r ($big frames)" 1 "$big" "$bb" "$gd" "${j1[@]}" -r "$bigf"
	run_one "gbpdump -r --json ($frames frames)" 1 "$frames" "$bytes" "$gd" "${j1[@]}" -r "$pool" --json
	run_one "gbpdump -r --json ($big frames)" 1 "$big" "$bb" "$gd" "${j1[@]}" -r "$bigf" --json
	run_one "gbpdump -r --stats ($frames frames)" 1 "$frames" "$bytes" "$gd" "${j1[@]}" -r "$pool" --stats
	run_one "gbpdump -r --stats ($big frames)" 1 "$big" "$bb" "$gd" "${j1[@]}" -r "$bigf" --stats
	run_one "gbpdump -r --libpcap ($frames frames)" 1 "$frames" "$bytes" "$gd" "${j1[@]}" -r "$pool" --libpcap
	run_one "gbpdump -r --libpcap ($big frames)" 1 "$big" "$bb" "$gd" "${j1[@]}" -r "$bigf" --libpcap
	table "Memory: $frames vs $big frames (one run each; same flows and groups, so --stats tables are the same size)"
fi

if [ -x "$micro" ]; then
	say ""
	say "### libvxgbp micro-benchmark ($micro $pool)"
	say ""
	"$micro" "$pool" $([ $quick = 1 ] && echo --quick) | sed 's/^/    /' | tee -a "$out"
fi

if [ $callgrind = 1 ] && have valgrind; then
	small=$dir/pool-100000.pcap
	make_pool "$small" 100000 || exit 2
	caps=("$small")
	if [ $diverse = 1 ]; then
		make_diverse "$dir/diverse-100000.pcap" 100000 || exit 2
		caps+=("$dir/diverse-100000.pcap")
	fi
	say ""
	say "### Instructions per frame (callgrind, 100,000 frames; includes start-up)"
	say ""
	say "| command | $(for c in "${caps[@]}"; do printf '%s | ' "$(basename "$c" .pcap)"; done)"
	say "|---|$(for c in "${caps[@]}"; do printf -- '---:|'; done)"
	for opts in "" "-v" "--json" "--stats" "--check" "--libpcap"; do
		for g in "$gd" $base; do
			row=""
			for c in "${caps[@]}"; do
				# shellcheck disable=SC2086
				ipf=$(count_ipf "$c" 100000 "$g" -- $opts)
				row+=" ${ipf:--} |"
			done
			# a baseline may not know an option: no row then
			[ "$row" = "$(for c in "${caps[@]}"; do printf ' - |'; done)" ] && continue
			say "| $([ "$g" = "$gd" ] || echo "before: ")\`gbpdump -r $opts\` |$row"
		done
	done
	# the part of each figure that is no frame's: the process's start and
	# end (the dynamic loader's relocations most of it)
	empty=$dir/empty.pcap
	head -c 24 "$small" >"$empty"
	ipf=$(count_ipf "$empty" 100000 -- --stats)
	say "| of them start-up: \`gbpdump -r --stats\` of a capture with no frame |$(for c in "${caps[@]}"; do printf ' %s |' "${ipf:--}"; done)"
fi

if [ $callgrind = 1 ] && have valgrind && [ -x "$micro" ]; then
	n=100000
	valgrind --tool=callgrind --callgrind-out-file="$out.cg" "$micro" "$pool" --count $n >/dev/null 2>&1
	ann=$(callgrind_annotate --inclusive=yes --threshold=100 "$out.cg" 2>/dev/null)
	irf() { echo "$ann" | grep -E "[:]$1(\.[a-z0-9.]+)?( |\$)" | head -n 1 | awk '{gsub(",", "", $1); print $1}'; }
	h=$(irf loop_hdr) pa=$(irf loop_parse) pn=$(irf loop_parse_nocsum)
	ga=$(irf loop_parse_generic) gn=$(irf loop_parse_generic_nocsum)
	say ""
	say "### libvxgbp instructions per call (callgrind, $micro $pool --count $n)"
	say ""
	say "- header decode + validate: $(( ${h:-0} / n )) instructions"
	# loop_parse is inclusive of the calls the three wrappers make to it
	say "- full-frame parse, checksums verified: $(( (${pa:-0} - ${pn:-0} - ${ga:-0} - ${gn:-0}) / n )) instructions"
	say "- full-frame parse, VXGBP_PARSE_NO_CSUM: $(( ${pn:-0} / n )) instructions"
	say "- layer by layer (VXGBP_PARSE_GENERIC), checksums verified: $(( ${ga:-0} / n )) instructions"
	say "- layer by layer (VXGBP_PARSE_GENERIC), no checksums: $(( ${gn:-0} / n )) instructions"
fi

if [ "${live:-0}" = 1 ]; then # bench/live.sh: its own network namespace
	say ""
	bash "$here/live.sh" --bin "$bin" $([ $tshark = 0 ] && echo --no-tshark) | tee -a "$out"
fi

[ "${jobs:-0}" = 1 ] && { say ""; bash "$here/jobs.sh" --bin "$bin" --runs "$runs" | tee -a "$out"; }

if [ -n "$results" ]; then
	cp "$out" "$results"
	echo "run.sh: tables written to $results"
fi
