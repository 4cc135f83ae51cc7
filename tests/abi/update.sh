#!/bin/sh
# Record libvxgbp's ABI baseline, deliberately: tests/abi/libvxgbp.so.<major>.abi,
# which the abi.baseline test compares every build with (docs/api.md).
#
#   tests/abi/update.sh [BUILD_DIR]      (default: build)
#
# Run it when a release adds to the ABI (new functions in a new version
# node), or once after a soname change; never to make abi.baseline pass
# after an incompatible change (that needs a new soname).  It builds
# vxgbp_shared in BUILD_DIR (configured with debug information, e.g.
# RelWithDebInfo), refuses a library whose header, map and exports
# disagree (tests/install/symbols.sh), shows what changed against the old
# baseline, and writes the new one.  Commit the .abi file with the change.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${1:-$top/build}
[ -f "$build/CMakeCache.txt" ] || { echo "update.sh: $build is not a configured build" >&2; exit 2; }
cmake --build "$build" --target vxgbp_shared > /dev/null
so=$(find "$build/libvxgbp" -maxdepth 1 -name libvxgbp.so -print -quit)
[ -n "$so" ] || { echo "update.sh: no libvxgbp.so in $build/libvxgbp" >&2; exit 1; }
hd="$top/libvxgbp/include/vxgbp"
sh "$top/tests/install/symbols.sh" "$hd/vxgbp.h" "$top/libvxgbp/libvxgbp.map" "$so" ||
	{ echo "update.sh: header, map and library disagree: no baseline written" >&2; exit 1; }
soname=$(objdump -p "$so" | awk '$1 == "SONAME" { print $2 }')
out="$here/$soname.abi"
if [ -f "$out" ] || ls "$here"/libvxgbp.so.*.abi > /dev/null 2>&1; then
	echo "--- against the current baseline:"
	sh "$here/abi.sh" check "$here" "$so" "$hd" "$here/libvxgbp.suppr" || true
	echo "---"
fi
sh "$here/abi.sh" dump "$so" "$hd" "$out"
n=$(grep -c '<elf-symbol ' "$out")
echo "update.sh: wrote ${out#"$top"/} ($soname, $n symbols); review and commit it"
