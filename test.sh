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
set -eu
cd "$(dirname "$0")"
start=$(date +%s)
scripts/install-deps
jobs=$(nproc 2>/dev/null || echo 2)

echo "== build (RelWithDebInfo)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
echo "== ctest (normal build)"
ctest --test-dir build --output-on-failure -j"$jobs" -LE bench "$@"

if [ $# -eq 0 ]; then
	echo "== build (ASan + UBSan)"
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DVXGBP_SANITIZE=ON \
		-DVXGBP_QEMU_TESTS=OFF >/dev/null
	cmake --build build-asan -j"$jobs"
	echo "== ctest (ASan + UBSan build)"
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --test-dir build-asan --output-on-failure -j"$jobs" -LE 'bench|qemu|fuzz'
fi
echo "== all tests passed in $(( $(date +%s) - start )) s"
