#!/bin/sh
# abi.sh - a shared library's ABI as libabigail sees it: written to a file
# (the baseline), and a later build compared with it.
#
#   abi.sh dump LIB HEADERS_DIR OUT
#       write LIB's ABI (abidw: exported functions and the types they reach
#       that the public headers in HEADERS_DIR define) to OUT.
#   abi.sh check BASELINE_DIR LIB HEADERS_DIR [SUPPRESSIONS]
#       compare LIB with BASELINE_DIR/<its soname>.abi.  Passes when LIB can
#       replace the library the baseline was made from:
#        - nothing removed, no type a caller sees changed (abidiff exit 0
#          with added symbols not counted as changes); appending enumerators
#          before a counter named in SUPPRESSIONS (VXGBP_R__COUNT) is fine;
#        - a symbol added since the baseline is in a version node the
#          baseline does not have (a released node is frozen).
#       When no baseline has LIB's soname but one for an older soname does,
#       the soname has moved: incompatible changes are allowed, the report
#       is printed for information, and the check passes (record the new
#       baseline with update.sh).
# Exit status: 0 pass, 1 fail, 77 skipped (LIB has no debug information:
# build with -g, e.g. RelWithDebInfo, for this check).
set -eu
need() {
	command -v "$1" > /dev/null 2>&1 ||
		{ echo "abi: $1 not found: install abigail-tools (scripts/install-deps abi)"; exit 1; }
}
need abidw
need abidiff
soname_of() { objdump -p "$1" | awk '$1 == "SONAME" { print $2 }'; }
has_debug() { objdump -h "$1" | grep -q ' \.debug_info '; }

case ${1:-} in
dump)
	[ $# -eq 4 ] || { echo "usage: abi.sh dump LIB HEADERS_DIR OUT" >&2; exit 2; }
	lib=$2 hd=$3 out=$4
	has_debug "$lib" || { echo "abi: $lib has no debug information (build with -g)"; exit 1; }
	# --short-locs: file names without the checkout's path; sorted, stable
	abidw --headers-dir "$hd" --drop-private-types --drop-undefined-syms \
		--no-corpus-path --no-comp-dir-path --short-locs \
		--out-file "$out.tmp" "$lib"
	mv "$out.tmp" "$out"
	;;
check)
	[ $# -ge 4 ] && [ $# -le 5 ] ||
		{ echo "usage: abi.sh check BASELINE_DIR LIB HEADERS_DIR [SUPPRESSIONS]" >&2; exit 2; }
	dir=$2 lib=$3 hd=$4 suppr=${5:-}
	[ -f "$lib" ] || { echo "abi: no library $lib"; exit 1; }
	has_debug "$lib" || { echo "abi: SKIP: $lib has no debug information (build with -g)"; exit 77; }
	soname=$(soname_of "$lib")
	[ -n "$soname" ] || { echo "abi: $lib has no soname"; exit 1; }
	base="$dir/$soname.abi"
	moved=
	if [ ! -f "$base" ]; then
		# the newest baseline of an older soname of the same library
		stem=${soname%.so.*}.so
		base=$(ls "$dir/$stem".*.abi 2> /dev/null |
			sed "s|^.*/$stem\.\([0-9]*\)\.abi$|\1 &|" | sort -n | tail -1 | cut -d' ' -f2)
		[ -n "$base" ] ||
			{ echo "abi: no baseline $dir/$soname.abi: record one with update.sh"; exit 1; }
		moved=$(basename "$base" .abi)
	fi
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	set -- --no-default-suppression --fail-no-debug-info --no-added-syms --headers-dir2 "$hd"
	[ -z "$suppr" ] || set -- "$@" --suppressions "$suppr"
	rc=0
	abidiff "$@" "$base" "$lib" > "$tmp/report" 2>&1 || rc=$?
	if [ -n "$moved" ]; then
		cat "$tmp/report"
		echo "abi: soname moved from $moved to $soname: incompatible changes allowed" \
			"(record the new baseline: tests/abi/update.sh)"
		exit 0
	fi
	fail=0
	if [ $((rc & 3)) -ne 0 ]; then
		cat "$tmp/report"
		echo "abi: FAIL: abidiff could not compare (exit $rc)"
		exit 1
	fi
	if [ "$rc" -ne 0 ]; then
		cat "$tmp/report"
		if [ $((rc & 8)) -ne 0 ]; then
			echo "abi: FAIL: incompatible change (something removed) in $soname without a new soname"
		else
			echo "abi: FAIL: a type or function callers of $soname see has changed"
		fi
		fail=1
	fi
	# symbols added since the baseline, and their version nodes
	sed -n "s/^ *<elf-symbol name='\([^']*\)' version='\([^']*\)'.*/\1 \2/p" "$base" |
		sort > "$tmp/old"
	awk '{ print $2 }' "$tmp/old" | sort -u > "$tmp/old-nodes"
	objdump -T "$lib" | awk '$2 == "g" && $4 != "*UND*" && $4 != "*ABS*" {
		v = $(NF-1); gsub(/[()]/, "", v); print $NF, v }' | sort > "$tmp/new"
	join -v 2 "$tmp/old" "$tmp/new" > "$tmp/added"
	awk 'NR == FNR { frozen[$1] = 1; next } ($2 in frozen) { print }' \
		"$tmp/old-nodes" "$tmp/added" > "$tmp/late"
	if [ -s "$tmp/late" ]; then
		echo "abi: FAIL: added to a version node the baseline already has (released nodes are frozen; add a new node):"
		sed 's/^/    /' "$tmp/late"
		fail=1
	fi
	[ "$fail" -eq 0 ] || exit 1
	n=$(wc -l < "$tmp/added")
	echo "abi: $soname compatible with $(basename "$base") ($n symbol(s) added$( [ "$n" -eq 0 ] || printf ': %s' "$(awk '{ printf "%s%s@%s", s, $1, $2; s = " " }' "$tmp/added")"))"
	;;
*)
	echo "usage: abi.sh dump|check ..." >&2
	exit 2
	;;
esac
