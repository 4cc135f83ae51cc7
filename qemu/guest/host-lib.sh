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
