#!/bin/bash
# series.sh - patched vs unpatched, patch by patch: boot the kernel of every
# stage of kernel-series (00-base, then one more patch each) and run the
# conformance, inject, dontlearn, bypass and selftest scenarios on it (the
# selftest is the final stage's vxlan_gbp.sh on every kernel).  Each guest
# knows the fixes of its stage (qemu/fixes), so every run must PASS: a fix
# that shows before its patch, or a bug that survives it, fails the run.
#
# Prints (and saves as $runs/table.txt) one row per check and one column
# per stage with the OBSERVED value, so the stage where each fix turns on
# is visible; a trailing "!" marks a value that contradicts the expectation
# for that stage.  Exit 0 = every expectation met.
#
# Environment: VXGBP_SERIES_SCENARIOS (default: conformance inject dontlearn
# bypass selftest), VXGBP_SERIES_JOBS (parallel runs, default 2),
# VXGBP_SERIES_REUSE (default 1: a stage whose bzImage is byte-identical to
# the previous stage's - a tools/ or Documentation/ patch - reuses that
# stage's runs; 0 boots it again).
# usage: series.sh [--table]   (--table: only print the table of the last runs)
set -uo pipefail
table_only=0; [ "${1:-}" = --table ] && table_only=1
here=$(cd "$(dirname "$0")" && pwd)
cache=${VXGBP_CACHE:-/var/cache/vxgbp}
. "$here/guest/host-lib.sh"
scenarios=${VXGBP_SERIES_SCENARIOS:-conformance inject dontlearn bypass selftest}
par=${VXGBP_SERIES_JOBS:-2}
reuse=${VXGBP_SERIES_REUSE:-1}
T0=$(date +%s)
kdir=$("$here/build-kernel.sh" | tail -1) || exit 1
runs=${VXGBP_RUNS:-$cache/runs}/series
[ $table_only = 1 ] || { rm -rf "$runs"; mkdir -p "$runs"; }
mapfile -t stages <"$kdir/stages"
declare -A same=()
prev=""
for st in "${stages[@]}"; do
	if [ "$reuse" = 1 ] && [ -n "$prev" ] && cmp -s "$kdir/bzImage-$prev" "$kdir/bzImage-$st"; then
		same[$st]=${same[$prev]:-$prev}
	fi
	prev=$st
done

run_one() { # STAGE SCENARIO
	local t=$(date +%s) r=PASS
	"$here/run.sh" -k "$1" -o "$runs/$1-$2" "$2" >"$runs/$1-$2.log" 2>&1 || r=FAIL
	echo "$r $(( $(date +%s) - t ))" >"$runs/$1-$2.status"
	echo "series: $1 $2: $r ($(( $(date +%s) - t ))s)"
}
# the longest runs first, so the pool stays full
[ $table_only = 1 ] && scheduled="" || scheduled="selftest $scenarios"
for s in $scheduled; do
	case " $scenarios " in *" $s "*) ;; *) continue ;; esac
	[ "$s" = selftest ] && [ -n "${done_selftest:-}" ] && continue
	[ "$s" = selftest ] && done_selftest=1
	for st in "${stages[@]}"; do
		[ -z "${same[$st]:-}" ] || continue
		while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n; done
		run_one "$st" "$s" &
	done
done
wait
for st in "${stages[@]}"; do
	src=${same[$st]:-}
	[ -n "$src" ] && [ $table_only = 0 ] || continue
	for s in $scenarios; do
		cp -a "$runs/$src-$s" "$runs/$st-$s" 2>/dev/null
		read -r r t <"$runs/$src-$s.status"
		echo "$r 0 $src" >"$runs/$st-$s.status"
	done
done

# --- the table ---------------------------------------------------------------
# rows: LABEL|SCENARIO|CHECK (CHECK = a VXGBP-CHECK name in result.txt)
rows='IGMPv3 report mark [igmp]|conformance|igmp-report-mark
MLDv2 report mark [mld]|conformance|mld-report-mark
D: fresh MAC learned? [dontlearn]|dontlearn|D-fresh-MAC-learned
D: learned at A, D from B: now at [dontlearn]|dontlearn|D-roaming-R-at
D: h1 learned on vxd (conformance) [dontlearn]|conformance|dont-learn-vxd
D clear: fresh MAC learned?|dontlearn|D-clear-fresh-MAC-learned
D: static-pinned MAC spoofed: delivered (3)|dontlearn|D-spoof-static-delivered
D: permanent-pinned spoofed: delivered (2)|dontlearn|D-spoof-permanent-delivered
D: spoof drops ENTRY_EXISTS events (5)|dontlearn|D-spoof-counted-ENTRY_EXISTS
D: static entry now points to|dontlearn|D-spoof-static-fdb
D: invalid src MAC: delivered (2)|dontlearn|D-invalid-MAC-delivered
D: MAC_INVALID_SOURCE events (2)|dontlearn|D-invalid-MAC-counted-MAC_INVALID_SOURCE
rx_errors, 5 GBP frames to plain [rxerrors]|conformance|gbp-to-plain-rx-errors
fwmark 0x01000000 on the wire [gbit]|conformance|fwmark-0x01000000-on-wire
rx mark without G, underlay 0x77 [rxmark]|conformance|plain-to-gbp-mark
bypass: 0x01000200 arrives as [bypass]|bypass|bypass-mark-0x01000200
bypass: 0x01000000 arrives as [bypass]|bypass|bypass-mark-0x01000000
bypass: 0x00400200 arrives as|bypass|bypass-mark-0x00400200
bypass: D learned? [dontlearn]|bypass|bypass-D-learned
bypass: VXLAN packets on the underlay (0)|bypass|bypass-underlay-packets
bypass: control datagram on the underlay (1)|bypass|bypass-underlay-control'
cell() { # RESULT.TXT CHECK
	[ -f "$1" ] || { echo "-"; return; }
	awk -v c="$2" 'index($0, "VXGBP-CHECK " c " ") == 1 {
		rest = substr($0, length("VXGBP-CHECK " c " ") + 1)
		split(rest, w, " "); v = w[3]; sub(/^observed=/, "", v)
		if (v == "") v = "\"\""
		printf "%s%s", v, (w[1] == "FAIL" ? "!" : ""); f = 1; exit }
		END { if (!f) printf "?" }' "$1"
}
W=48 C=11
{
	printf "%-${W}s" "check \\ stage"
	for st in "${stages[@]}"; do printf " %-${C}s" "${st%%-*}"; done
	echo
	while IFS='|' read -r label scen chk; do
		case " $scenarios " in *" $scen "*) ;; *) continue ;; esac
		printf "%-${W}s" "$label"
		for st in "${stages[@]}"; do printf " %-${C}s" "$(cell "$runs/$st-$scen/result.txt" "$chk")"; done
		echo
	done <<<"$rows"
	if case " $scenarios " in *" selftest "*) true ;; *) false ;; esac; then
		# every selftest case, in the order of the last stage's output
		grep -h '^VXGBP-CHECK selftest: ' "$runs/${stages[-1]}-selftest/result.txt" "$runs"/*-selftest/result.txt 2>/dev/null |
			sed 's/^VXGBP-CHECK \(selftest: .*\) \(PASS\|FAIL\) expected=.*/\1/' | awk '!seen[$0]++' >"$runs/selftest-names"
		while IFS= read -r name; do
			label=${name#selftest: }
			# long names keep their [fix] tag
			tag=""; case "$label" in *"]") tag=" [${label##*[}" ;; esac
			[ ${#label} -le $((W - 4)) ] || label="${label:0:$((W - 8 - ${#tag}))}...$tag"
			printf "%-${W}s" "st: $label"
			for st in "${stages[@]}"; do printf " %-${C}s" "$(cell "$runs/$st-selftest/result.txt" "$name")"; done
			echo
		done <"$runs/selftest-names"
	fi
	for s in $scenarios; do
		printf "%-${W}s" "run: $s (s)"
		for st in "${stages[@]}"; do
			read -r r t src <"$runs/$st-$s.status" 2>/dev/null || r=missing
			v="$r($t)"; [ -n "${src:-}" ] && v="=${src%%-*}"
			[ "$r" = PASS ] || v="$v!"
			printf " %-${C}s" "$v"
		done
		echo
	done
	echo
	echo "stages ($kdir):"
	for st in "${stages[@]}"; do
		extra=""; [ -n "${same[$st]:-}" ] && extra=" (same kernel as ${same[$st]%%-*}: its runs reused)"
		echo "  ${st%%-*} $st: fixes $(fixes_of "$kdir" "$st")$extra"
	done
	echo "A cell is the observed value; \"!\" = it contradicts the expectation for that stage (see $runs/STAGE-SCENARIO/result.txt)."
	echo "st: = the selftest vxlan_gbp.sh of the last stage, run on each stage's kernel; =NN = the runs of stage NN (same bzImage)."
} >"$runs/table.txt"
cat "$runs/table.txt"
fail=0
for st in "${stages[@]}"; do
	for s in $scenarios; do
		read -r r t src <"$runs/$st-$s.status" 2>/dev/null || r=missing
		[ "$r" = PASS ] || fail=1
	done
done
v=PASS; [ $fail = 0 ] || v=FAIL
echo "series: $v in $(( $(date +%s) - T0 ))s ($par parallel runs)"
[ $fail = 0 ]
