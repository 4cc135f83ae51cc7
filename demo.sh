#!/bin/sh
# The main job in one command: build gbpdump (installing what is missing)
# and read a capture that ships with vxgbp.
#   ./demo.sh [CAPTURE]   default: fixtures/basic-gbp.pcap
set -eu
cd "$(dirname "$0")"
scripts/install-deps demo >&2
# quiet when it works, everything cmake said when it does not
quiet() { out=$("$@" 2>&1) || { printf '%s\n' "$out" >&2; exit 1; }; }
quiet cmake -S . -B build-demo -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVXGBP_BUILD_TESTS=OFF \
	-DVXGBP_BUILD_DISSECTOR=OFF
quiet cmake --build build-demo -j"$(nproc 2>/dev/null || echo 2)" --target gbpdump
cap=${1:-fixtures/basic-gbp.pcap}
echo "\$ gbpdump -r $cap --groups fixtures/groups.txt" >&2
build-demo/bin/gbpdump -r "$cap" --groups fixtures/groups.txt
echo >&2
echo "\$ gbpdump -r $cap --groups fixtures/groups.txt --stats" >&2
build-demo/bin/gbpdump -r "$cap" --groups fixtures/groups.txt --stats
