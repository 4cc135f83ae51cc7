#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fixtures/policy/make-fixtures.sh into a temporary folder: the spec, the
# capture and the list of flows denied by construction must be the
# committed ones, byte for byte.
#   reproducible.sh BUILD_DIR FIXTURES_DIR
set -u
build=$1 fixtures=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh "$fixtures/policy/make-fixtures.sh" "$build" "$tmp" || { echo "make-fixtures.sh failed"; exit 1; }
fail=0
for n in policy.spec policy.pcap denied.txt allowed.spec allowed.pcap; do
	if [ ! -f "$tmp/$n" ] || ! cmp -s "$tmp/$n" "$fixtures/policy/$n"; then
		echo "fixtures/policy/$n differs from what make-fixtures.sh makes now"
		fail=1
	fi
done
[ $fail -eq 0 ] && echo "fixtures/policy: policy.spec, policy.pcap, denied.txt, allowed.spec, allowed.pcap reproduced byte for byte"
exit $fail
