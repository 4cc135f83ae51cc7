# host-lib.sh - sourced by scenarios/*.host (bash, on the host).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repo=$(cd "$here/.." && pwd)
# the cross-check tool: $VXGBP_XCHECK (set by ctest), else a build folder
find_xcheck() {
	local c
	for c in "${VXGBP_XCHECK:-}" "$repo"/build/bin/vxgbp_xcheck "$repo"/build-*/bin/vxgbp_xcheck; do
		[ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
	done
	echo "host: vxgbp_xcheck not found: build the project (cmake --build build) or set VXGBP_XCHECK" >&2
	return 1
}
# wait_console N PATTERN [SECONDS]
wait_console() {
	local i=0
	while ! grep -q "$2" "$OUT/console-h$1.log" 2>/dev/null; do
		sleep 0.2; i=$((i + 1))
		[ $i -ge $((${3:-120} * 5)) ] && { echo "host: timeout waiting for '$2' on h$1" >&2; return 1; }
	done
	return 0
}

# fixes_of KDIR STAGE_NAME: the fix ids (qemu/fixes) a kernel stage carries,
# comma-separated ("none" for none), in the order of qemu/fixes.  From
# $KDIR/stage-patches (lines "<stage> <series entry>"); kernels built
# before that file existed (the old 8-stage series) by the OLD column.
fixes_of() {
	local kdir=$1 stage=$2 table=$here/fixes entries="" out="" id globs old _desc g e p num
	if [ -f "$kdir/stage-patches" ]; then
		grep -qx "$stage .*\|$stage" "$kdir/stage-patches" || { echo "fixes_of: no stage $stage in $kdir/stage-patches" >&2; return 1; }
		entries=$(awk -v s="$stage" '{ print $2 } $1 == s { exit }' "$kdir/stage-patches")
	fi
	num=$((10#${stage%%-*}))
	while read -r id globs old _desc; do
		case "$id" in '' | \#*) continue ;; esac
		if [ -f "$kdir/stage-patches" ]; then
			for e in $entries; do
				IFS='|' read -ra g <<<"$globs"
				for p in "${g[@]}"; do
					# shellcheck disable=SC2254
					case "$e" in $p) out=$out,$id; continue 3 ;; esac
				done
			done
		elif [ "$old" != - ] && [ "$num" -ge "$old" ]; then
			out=$out,$id
		fi
	done <"$table"
	out=${out#,}
	echo "${out:-none}"
}
# has_fix_in LIST ID
has_fix_in() { case ",$1," in *",$2,"*) return 0 ;; esac; return 1; }
