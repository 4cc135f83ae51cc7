#!/bin/bash
# series.sh - patched vs unpatched, patch by patch: boot the kernel of every
# stage of kernel-series (00-base, then one more patch each) and run the
# conformance, inject and selftest scenarios on it.  Every scenario knows
# from the stage which fixes the kernel has, so each run must PASS: a fix
# that shows before its patch, or a bug that survives it, fails the run.
# Prints a table (stage x scenario) and the total time.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${VXGBP_CACHE:-/var/cache/vxgbp}
# every stage: conformance and inject; the first and the last stage also
# run the selftest (about a minute per boot under TCG)
scenarios=${VXGBP_SERIES_SCENARIOS:-conformance inject}
ends=${VXGBP_SERIES_ENDS:-selftest}
T0=$(date +%s)
kdir=$("$here/build-kernel.sh" | tail -1) || exit 1
runs=${VXGBP_RUNS:-$cache/runs}/series
mkdir -p "$runs"
fail=0
printf '%-52s' stage >"$runs/table.txt"
for s in $scenarios $ends; do printf ' %-12s' "$s" >>"$runs/table.txt"; done
echo >>"$runs/table.txt"
first=$(head -1 "$kdir/stages") last=$(tail -1 "$kdir/stages")
while read -r stage; do
	printf '%-52s' "$stage" >>"$runs/table.txt"
	these=$scenarios
	[ "$stage" = "$first" ] || [ "$stage" = "$last" ] && these="$scenarios $ends"
	for s in $these; do
		t=$(date +%s)
		if "$here/run.sh" -k "$stage" -o "$runs/$stage-$s" "$s" >"$runs/$stage-$s.log" 2>&1; then
			r=PASS
		else
			r=FAIL; fail=1
		fi
		printf ' %-12s' "$r($(( $(date +%s) - t ))s)" >>"$runs/table.txt"
		tail -1 "$runs/$stage-$s.log"
	done
	echo >>"$runs/table.txt"
done <"$kdir/stages"
cat "$runs/table.txt"
# what each stage fixed, from the checks that changed
echo "series: checks that differ between consecutive stages (expected vs. observed per stage):"
prev=""
while read -r stage; do
	cur=$(cat "$runs/$stage"-*/result.txt 2>/dev/null | grep '^VXGBP-CHECK' | awk '{ print $2, $4, $5 }' | sort)
	if [ -n "$prev" ]; then
		diff <(echo "$prev") <(echo "$cur") | grep '^>' | sed "s/^>/  $stage:/" | head -20
	fi
	prev=$cur
done <"$kdir/stages"
v=PASS; [ $fail = 0 ] || v=FAIL
echo "series: $v in $(( $(date +%s) - T0 ))s"
[ $fail = 0 ]
