#!/bin/sh
# fixtures.sh XCHECK REPO - libvxgbp against the recorded behaviour of the
# booted kernels (fixtures/qemu/, made by qemu/make-fixtures.sh), no QEMU:
# the wire captures of both kernels pass the byte-for-byte cross-check for
# their own fixes (none / all) and fail it for the other one; libvxgbp still builds the
# injected frames byte for byte; its Linux verdict model still predicts
# what each kernel did with them.
set -eu
x=$1
repo=$2
f=$repo/fixtures/qemu
s=$repo/qemu/scenarios
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh "$s/conformance-rules.sh" "$s/conformance.marks" >"$tmp/rules"
"$x" wire "$f/conformance-unpatched.pcap" "$tmp/rules" none | tail -1
"$x" wire "$f/conformance-patched.pcap" "$tmp/rules" all | tail -1
"$x" wire "$f/seed-unpatched.pcap" "$s/seed.rules" none | tail -1
"$x" wire "$f/seed-patched.pcap" "$s/seed.rules" all | tail -1
# the other kernel's expectations must not hold
for pair in "unpatched all" "patched none"; do
	set -- $pair
	if "$x" wire "$f/conformance-$1.pcap" "$tmp/rules" "$2" >"$tmp/out"; then
		echo "FAIL: conformance-$1.pcap passes with fixes $2"; exit 1
	fi
	echo "ok: conformance-$1.pcap fails with fixes $2 ($(grep -c FAIL "$tmp/out") findings)"
done
"$x" build "$tmp/inject.pcap" "$s/inject.specs"
cmp "$tmp/inject.pcap" "$f/inject-frames.pcap"
"$x" marks "$s/inject.specs" "$f/inject-observed-unpatched.txt" none 0x77 | tail -3
"$x" marks "$s/inject.specs" "$f/inject-observed-patched.txt" all 0x77 | tail -3
if "$x" marks "$s/inject.specs" "$f/inject-observed-unpatched.txt" all 0x77 >/dev/null; then
	echo "FAIL: the unpatched kernel's behaviour passes with every fix"; exit 1
fi
echo "fixtures: PASS"
