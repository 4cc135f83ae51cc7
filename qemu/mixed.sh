#!/bin/bash
# mixed.sh - mixed deployments: the mixed scenario (h1 sends, h2 receives)
# for the four pairs of kernels unpatched/patched (patched = the last stage
# of the series), two runs at a time.  Prints a table (sender, receiver,
# mark sent, G on the wire, mark a gbp receiver sets, what a receiver
# without gbp does) and saves it as $runs/table.md.  Exit 0 = every run
# passed (each guest expects what its own and its peer's fixes predict).
#
# usage: mixed.sh [-j JOBS]      (default 2 parallel runs)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${VXGBP_CACHE:-/var/cache/vxgbp}
jobs=2
while getopts j: opt; do case $opt in j) jobs=$OPTARG ;; *) sed -n '2,10p' "$0" >&2; exit 2 ;; esac; done
T0=$(date +%s)
kdir=$("$here/build-kernel.sh" | tail -1) || exit 1
last=$(tail -1 "$kdir/stages")
runs=${VXGBP_RUNS:-$cache/runs}/mixed
rm -rf "$runs"; mkdir -p "$runs"
pairs="unpatched:unpatched patched:unpatched unpatched:patched patched:patched"
run_pair() {
	local s=$1 r=$2 t=$(date +%s) v=PASS
	"$here/run.sh" -k "h1=$s,h2=$r" -o "$runs/$s-$r" mixed >"$runs/$s-$r.log" 2>&1 || v=FAIL
	echo "$v $(( $(date +%s) - t ))" >"$runs/$s-$r.status"
	echo "mixed: $s -> $r: $v ($(( $(date +%s) - t ))s)"
}
n=0
for p in $pairs; do
	run_pair "${p%%:*}" "${p##*:}" &
	n=$((n + 1))
	[ $((n % jobs)) = 0 ] && wait
done
wait
fail=0
val() { # RESULT CHECK: the observed value, with "!" when the check failed
	awk -v c="$2" '$1 == "VXGBP-CHECK" && $2 == c {
		sub(/^observed=/, "", $5); printf "%s%s", $5, ($3 == "FAIL" ? " !" : ""); f = 1; exit }
		END { if (!f) printf "?" }' "$1"
}
{
	echo "| sender | receiver | mark sent | G on the wire (group) | mark at the gbp receiver (underlay mark 0x77) | receiver without gbp |"
	echo "|---|---|---|---|---|---|"
	for p in $pairs; do
		s=${p%%:*} r=${p##*:} f=$runs/$s-$r/result.txt
		read -r v t <"$runs/$s-$r.status"
		[ "$v" = PASS ] || fail=1
		for m in 0x01000000 0x00400200 0x00000200 0x00000000; do
			w=$(val "$f" "mixed-wire-vni100-$m"); w=${w#G=}
			echo "| $s | $r | $m | G=${w%%/*} (${w#*/}) | $(val "$f" "mixed-gbp-rx-$m") | $(val "$f" "mixed-plain-rx-$m") |"
		done
		echo "| $s | $r | | | | rx_errors $(val "$f" mixed-plain-rx-errors) (run: $v, ${t}s) |"
	done
} >"$runs/table.md"
echo "mixed: unpatched = 00-base, patched = $last ($kdir)"
cat "$runs/table.md"
v=PASS; [ $fail = 0 ] || v=FAIL
echo "mixed: $v in $(( $(date +%s) - T0 ))s (a \"!\" marks a value that contradicts the fixes of the two kernels)"
[ $fail = 0 ]
