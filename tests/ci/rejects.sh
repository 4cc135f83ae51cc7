#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The validators of tests/ci really validate: a document gbpdump wrote
# passes, and the same document made invalid in one place each time fails
# (SARIF: a result without its message, a level SARIF does not have, no
# version; JUnit: a test case without its name, a suite without its test
# count, an element the schema does not know).
# rejects.sh GBPDUMP FIXTURES SCHEMAS WORKDIR
set -eu
gd=$1 fix=$2 schemas=$3 work=$4/rejects
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail=0
"$gd" -q -r "$fix/nonconforming.pcap" --junit ok.xml --sarif ok.sarif >/dev/null || true
sarif() { /usr/bin/python3 "$here/sarif_validate.py" "$schemas/sarif-schema-2.1.0.json" "$1" 2>"$1.err"; }
junit() { xmllint --noout --schema "$schemas/junit-10.xsd" "$1" 2>"$1.err"; }

sarif ok.sarif || { echo "FAIL: gbpdump's SARIF does not validate: $(cat ok.sarif.err)"; fail=1; }
junit ok.xml || { echo "FAIL: gbpdump's JUnit does not validate: $(cat ok.xml.err)"; fail=1; }

jq 'del(.runs[0].results[0].message)' ok.sarif >no-message.sarif
jq '.runs[0].results[0].level = "fatal"' ok.sarif >bad-level.sarif
jq 'del(.version)' ok.sarif >no-version.sarif
for f in no-message bad-level no-version; do
	if sarif $f.sarif; then
		echo "FAIL: $f.sarif passed the SARIF schema"
		fail=1
	fi
done
sed '0,/<testcase name="[^"]*"/s//<testcase/' ok.xml >no-name.xml
sed 's/<testsuite name="\([^"]*\)" tests="[0-9]*"/<testsuite name="\1"/' ok.xml >no-tests.xml
sed 's/<properties>/<properties><verdict\/>/' ok.xml >unknown.xml
for f in no-name no-tests unknown; do
	cmp -s ok.xml $f.xml && { echo "FAIL: $f.xml was not changed"; fail=1; continue; }
	if junit $f.xml; then
		echo "FAIL: $f.xml passed the JUnit schema"
		fail=1
	fi
done
[ "$fail" -eq 0 ] && echo "rejects.sh: 3 broken SARIF logs and 3 broken JUnit files rejected"
exit "$fail"
