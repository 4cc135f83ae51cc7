#!/bin/bash
# make-fixtures.sh - refresh fixtures/qemu/ from real QEMU runs.
# Runs the seed, conformance and inject scenarios (unpatched and patched
# kernels where it matters), keeps only the VXLAN frames of each guest's
# wire capture (vxgbp_xcheck prune, fixed timestamps; UDP source ports and
# inner ephemeral ports differ from run to run) and copies them to
# fixtures/qemu/, with what the inject scenario's guest read back.
# usage: make-fixtures.sh [XCHECK]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
. "$here/guest/host-lib.sh"
x=${1:-$(find_xcheck)}
export VXGBP_XCHECK=$x
out=$repo/fixtures/qemu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # kernel scenario name
	"$here/run.sh" -k "$1" -o "$tmp/$3" "$2" | tail -1
	"$x" prune "$tmp/$3/wire-h1.pcap" "$out/$3.pcap"
}
run unpatched conformance conformance-unpatched
run patched conformance conformance-patched
run unpatched seed seed-unpatched
run patched seed seed-patched
# the injected frames: as libvxgbp builds them, and as the guest's netdev
# received them (must be the same bytes); what each kernel did with them
"$x" build "$out/inject-frames.pcap" "$here/scenarios/inject.specs"
for k in unpatched patched; do
	"$here/run.sh" -k $k -o "$tmp/inject-$k" inject | tail -1
	"$x" prune "$tmp/inject-$k/wire-h1.pcap" "$tmp/inject-wire.pcap"
	cmp "$out/inject-frames.pcap" "$tmp/inject-wire.pcap"
	{
		echo "# inject scenario on the $k kernel: DPORT MARK / fdb IDPORT / rxerr DEV N"
		cat "$tmp/inject-$k/observed"
	} >"$out/inject-observed-$k.txt"
done
ls -l "$out"
