#!/bin/sh
# Run every test of vxgbp on this machine: install the Debian packages that
# are missing (scripts/deps/*.list), build twice (normal, and with
# AddressSanitizer + UndefinedBehaviorSanitizer), and run ctest on both.
# The normal build runs everything, QEMU kernel tests included (the kernel
# is built once and cached outside the repository, see docs/kernel.md); the
# sanitizer build runs every test that exercises our own code in-process.
#
#   ./test.sh              everything
#   ./test.sh -L golden    only some labels (passed on to the first ctest)
#   ./test.sh --build-only install and build both, check the kernel's build
#                          tools and make the guests' initramfs, run no test
#                          (tests/bare runs it in a bare Debian 12 root)
set -eu
cd "$(dirname "$0")"
start=$(date +%s)
build_only=0
[ "${1:-}" = --build-only ] && { build_only=1; shift; }
scripts/install-deps
jobs=$(nproc 2>/dev/null || echo 2)

# Configure failing on a warning: an optional part (the plugin, the fuzzers)
# left out for a missing package is a missing list entry, not a choice.
configure() { # build-dir cmake-options...
	dir=$1; shift
	cmake -S . -B "$dir" "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
	if grep -q 'CMake Warning' "$dir.configure.log"; then
		cat "$dir.configure.log"
		echo "test.sh: cmake warned while configuring $dir (a package missing from scripts/deps?)" >&2
		exit 1
	fi
}

echo "== build (RelWithDebInfo)"
configure build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$jobs"
if [ $build_only -eq 0 ]; then
	echo "== ctest (normal build)"
	ctest --test-dir build --output-on-failure -j"$jobs" -LE 'bench|matrix' "$@"
fi

if [ $# -eq 0 ]; then
	echo "== build (ASan + UBSan)"
	configure build-asan -DCMAKE_BUILD_TYPE=Debug -DVXGBP_SANITIZE=ON -DVXGBP_QEMU_TESTS=OFF
	cmake --build build-asan -j"$jobs"
	if [ $build_only -eq 1 ]; then
		# what the qemu tests build besides: the kernel's tools, the guests' initramfs
		qemu/build-kernel.sh --tools
		qemu/mkinitramfs.sh build/initramfs.cpio
		echo "== both builds done in $(( $(date +%s) - start )) s"
		exit 0
	fi
	echo "== ctest (ASan + UBSan build)"
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --test-dir build-asan --output-on-failure -j"$jobs" -LE 'bench|qemu|fuzz'
fi
echo "== all tests passed in $(( $(date +%s) - start )) s"
