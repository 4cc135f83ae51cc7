#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Golden --junit and --sarif output: fixtures/nonconforming.pcap under the
# linux profile (MUST, SHOULD and INFO findings, a rule the profile turns
# off, levels that differ from the library's), named relative to the
# source folder as a CI job would.  gbpdump's version is replaced by
# @VERSION@ so that a release does not change the files.  UPDATE=1 writes
# the expected files instead of comparing.
# golden.sh GBPDUMP SRCDIR WORKDIR
set -eu
gd=$1 src=$2 work=$3/golden
exp=$src/tests/ci/expected
rm -rf "$work"
mkdir -p "$work"
ver=$("$gd" --version | sed -n 's/^gbpdump (vxgbp) \([^,]*\),.*/\1/p')
[ -n "$ver" ] || { echo "FAIL: no version in '$("$gd" --version)'"; exit 1; }
v=$(printf '%s' "$ver" | sed 's/\./\\./g')
rc=0
(cd "$src" && "$gd" -q -r fixtures/nonconforming.pcap --profile linux \
	--junit "$work/nonconforming.junit.xml" --sarif "$work/nonconforming.sarif" \
	>"$work/stdout") || rc=$?
[ "$rc" -eq 4 ] || { echo "FAIL: exit $rc, not 4"; exit 1; }
fail=0
for f in nonconforming.junit.xml nonconforming.sarif; do
	sed -e "s/value=\"$v\"/value=\"@VERSION@\"/" \
	    -e "s/\"version\":\"$v\"/\"version\":\"@VERSION@\"/" \
	    -e "s/\"semanticVersion\":\"$v\"/\"semanticVersion\":\"@VERSION@\"/" \
	    -e "s/(vxgbp) $v\"/(vxgbp) @VERSION@\"/" "$work/$f" >"$work/$f.norm"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$work/$f.norm" "$exp/$f"
		echo "golden.sh: wrote $exp/$f"
	elif ! cmp -s "$exp/$f" "$work/$f.norm"; then
		echo "FAIL: $f differs from tests/ci/expected/$f:"
		diff "$exp/$f" "$work/$f.norm" | head -20
		fail=1
	fi
done
# the same run again gives the same bytes (no time of day, no random names)
(cd "$src" && "$gd" -q -r fixtures/nonconforming.pcap --profile linux \
	--junit "$work/again.xml" --sarif "$work/again.sarif" >/dev/null) || true
if ! cmp -s "$work/again.xml" "$work/nonconforming.junit.xml" ||
   ! cmp -s "$work/again.sarif" "$work/nonconforming.sarif"; then
	echo "FAIL: a second run wrote other bytes"
	fail=1
fi
# VXLAN-GPE carrying IP (gpe.pcap frames 2 and 3): the frames not judged by
# source MAC are counted, beside the frames not judged at all
(cd "$src" && "$gd" -q -r fixtures/gpe.pcap --junit "$work/gpe.xml" --sarif "$work/gpe.sarif" \
	>/dev/null) || true
grep -q '<property name="unjudged_mac" value="2"/>' "$work/gpe.xml" ||
	{ echo "FAIL: gpe.pcap: JUnit has no unjudged_mac 2"; fail=1; }
grep -q '"unjudged_mac":2,"unjudged":0,' "$work/gpe.sarif" ||
	{ echo "FAIL: gpe.pcap: SARIF has no unjudged_mac 2"; fail=1; }
grep -q 'unjudged_mac' "$work/nonconforming.junit.xml" "$work/nonconforming.sarif" &&
	{ echo "FAIL: nonconforming.pcap (every frame has a MAC): unjudged_mac"; fail=1; }
[ "$fail" -eq 0 ] && echo "golden.sh: JUnit and SARIF as expected"
exit "$fail"
