#!/bin/sh
# qemu-probe.sh GBPPROBE STAGE [SCENARIO]
# Run qemu/scenarios/SCENARIO (default probe-linux; probe-ovs fetches and
# unpacks Debian's Open vSwitch first, tests/check/ovs-fetch.sh) on kernel STAGE
# (unpatched | patched) with GBPPROBE in the guests' initramfs, and compare
# gbpprobe's verdicts with fixtures/check/probe/SCENARIO-STAGE.json.
# VXGBP_UPDATE_GOLDEN=1 writes the new report there instead.
# Exit 77 (ctest: skipped) when QEMU or the test kernels are not there.
set -u
probe=$1 stage=$2 scen=${3:-probe-linux}
repo=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$repo/qemu/run.sh" ] || { echo "skip: no qemu/run.sh"; exit 77; }
command -v qemu-system-x86_64 >/dev/null 2>&1 || { echo "skip: no qemu-system-x86_64"; exit 77; }
"$repo/qemu/build-kernel.sh" --check >/dev/null 2>&1 ||
	{ echo "skip: test kernels not built (qemu/build-kernel.sh)"; exit 77; }
# The initramfs cache key covers VXGBP_INITRAMFS_EXTRA's text, not the
# binaries: put gbpprobe under a path named after its content.
sum=$(sha256sum "$probe" | cut -c1-16)
dir=${TMPDIR:-/tmp}/vxgbp-gbpprobe-$sum
# removed at the end by the run that made it (a run beside it may use it)
dir_own= out=
trap 'rm -rf ${out:+"$out"} ${dir_own:+"$dir"}' EXIT
mkdir "$dir" 2>/dev/null && dir_own=1
cp "$probe" "$dir/gbpprobe" || exit 1
extra=$dir/gbpprobe
case "$scen" in
probe-ovs) # Debian's OVS user space, unpacked into the cache (never installed)
	cache=${VXGBP_CACHE:-/var/cache/vxgbp}
	ovs=$(sh "$(dirname "$0")/ovs-fetch.sh" "$cache/ovs") || exit $?
	extra="$extra $ovs"
	# ldd in mkinitramfs must find the unpacked libraries
	. "$cache/ovs/ldpath"
	export LD_LIBRARY_PATH ;;
esac
out=$(mktemp -d)
VXGBP_CHECK_BIN=$(dirname "$probe") VXGBP_INITRAMFS_EXTRA="${VXGBP_INITRAMFS_EXTRA:-} $extra" \
	"$repo/qemu/run.sh" -k "$stage" -o "$out/run" "$scen"
rc=$?
[ -s "$out/run/probe.json" ] || { echo "qemu-probe: no report (run.sh exit $rc)"; exit 1; }
want=$repo/fixtures/check/probe/$scen-$stage.json
if [ "${VXGBP_UPDATE_GOLDEN:-0}" = 1 ]; then
	mkdir -p "$(dirname "$want")"
	cp "$out/run/probe.json" "$want"
	cp "$out/run/result.txt" "${want%.json}.result.txt"
	echo "qemu-probe: wrote $want"
fi
[ -f "$want" ] || { echo "qemu-probe: no $want (run with VXGBP_UPDATE_GOLDEN=1)"; exit 1; }
v() { jq -r '[.probes[] | "\(.id)=\(.verdict)"] | join("\n")' "$1"; }
if [ "$(v "$out/run/probe.json")" != "$(v "$want")" ]; then
	echo "qemu-probe: verdicts differ from $want:"
	v "$want" >"$out/a"; v "$out/run/probe.json" >"$out/b"
	diff -u "$out/a" "$out/b"
	exit 1
fi
# run.sh's own exit status is not used: its EXIT trap (kill of guests that
# have already exited) makes it 1 even on PASS; judge from result.txt.
res=$out/run/result.txt
if ! grep -q "^VXGBP-HOST PASS" "$res" || grep -q "^VXGBP-VERDICT FAIL" "$res" ||
	[ "$(grep -c "^VXGBP-VERDICT PASS" "$res")" != 2 ]; then
	echo "qemu-probe: the scenario failed (run.sh exit $rc):"
	cat "$res"
	exit 1
fi
echo "qemu-probe: $scen on $stage: verdicts as in $want"
