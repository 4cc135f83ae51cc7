#!/bin/sh
# qemu-netlabel.sh BINDIR: run the QEMU scenario qemu/scenarios/netlabel
# (SELinux MLS + NetLabel CIPSO/CALIPSO in two guests) through the kernel
# harness qemu/run.sh, with the kernel's scripts/selinux/mdp added to the
# guests' initramfs and BINDIR's nlcheck/gbpdump for the host-side check.
# Exit 77 (ctest: skipped) when QEMU or the test kernels are not there.
set -u
bin=$1
repo=$(cd "$(dirname "$0")/../.." && pwd)
cache=${VXGBP_CACHE:-/var/cache/vxgbp}
[ -x "$repo/qemu/run.sh" ] || { echo "skip: no qemu/run.sh"; exit 77; }
command -v qemu-system-x86_64 >/dev/null 2>&1 || { echo "skip: no qemu-system-x86_64"; exit 77; }
# The labels do not depend on the kernel series: the current kernels when
# they are built, else the newest complete build in the cache (never start a
# kernel build from here).
kernel=patched
if ! "$repo/qemu/build-kernel.sh" --check >/dev/null 2>&1; then
	done=$(ls -t "$cache"/kernels/*/done 2>/dev/null | head -1)
	[ -n "$done" ] && [ -e "$(dirname "$done")/bzImage" ] ||
		{ echo "skip: test kernels not built (qemu/build-kernel.sh)"; exit 77; }
	kernel=$(readlink -f "$(dirname "$done")/bzImage")
	echo "current kernels not built; using $kernel"
fi
mdp=$cache/obj/scripts/selinux/mdp/mdp
[ -x "$mdp" ] || { echo "skip: no $mdp (kernel object tree)"; exit 77; }
VXGBP_INITRAMFS_EXTRA="${VXGBP_INITRAMFS_EXTRA:-} $mdp" VXGBP_LABELS_BIN=$bin \
	exec "$repo/qemu/run.sh" -k "$kernel" ${VXGBP_NETLABEL_OUT:+-o "$VXGBP_NETLABEL_OUT"} netlabel
