#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gbpdump --junit/--sarif on every capture of the fixtures (those with
# findings and the clean ones): both documents validate against their
# schemas (tests/ci/schemas), and their counts are those of --check --json
# of the same run:
#   JUnit: failures = test cases with <failure> = rules with MUST or SHOULD
#          findings in the JSON; skipped = test cases with <skipped>; tests =
#          test cases = SARIF rules; findings.LEVEL properties = JSON counts
#   SARIF: exitCode = the exit status = JSON exit; run counts = JSON counts;
#          results = the JSON's first occurrences, rule by rule
# validate.sh GBPDUMP FIXTURES SCHEMAS WORKDIR
set -eu
gd=$1 fix=$2 schemas=$3 work=$4/validate
rm -rf "$work"
mkdir -p "$work"
fail=0
n=0

one() { # capture, a label for messages, gbpdump's options
	n=$((n + 1))
	j=$work/$n.xml s=$work/$n.sarif c=$1 p=$2
	shift 2
	set -- "$c" "$@"
	rc=0
	"$gd" -q -r "$@" --json --junit "$j" --sarif "$s" >"$work/$n.json" 2>"$work/$n.err" || rc=$?
	set -- "$c" "$p"
	if grep -q 'Sanitizer\|runtime error' "$work/$n.err"; then
		echo "FAIL: $1 ($2): $(head -3 "$work/$n.err")"
		fail=1
		return
	fi
	case $rc in 0|1|3|4) ;; *) echo "FAIL: $1 ($2): exit $rc: $(cat "$work/$n.err")"; fail=1; return ;; esac
	echo "$1 $2" >"$work/$n.name"
	[ "$rc" -eq 1 ] && return # a read error: files checked, no counts to compare
	# JSON: exit, rules failing (MUST or SHOULD), counts per level (the
	# numbers are split into the positional parameters on purpose)
	# shellcheck disable=SC2046
	set -- "$1" "$2" $(jq -r '.check | [.exit, ([.findings[] | select(.level == "MUST" or
		.level == "SHOULD") | .id] | unique | length), .counts.MUST, .counts.SHOULD,
		.counts.INFO] | map(tostring) | join(" ")' "$work/$n.json")
	jexit=$3 jf=$4 jc="$5 $6 $7"
	# JUnit: failures, failed cases, skipped, skipped cases, tests, cases, counts
	# shellcheck disable=SC2046
	set -- "$1" "$2" $(xmllint --xpath 'concat(/testsuites/testsuite/@failures, " ",
		count(//testcase[failure]), " ", /testsuites/testsuite/@skipped, " ",
		count(//testcase[skipped]), " ", /testsuites/testsuite/@tests, " ",
		count(//testcase), " ", //property[@name="findings.MUST"]/@value, " ",
		//property[@name="findings.SHOULD"]/@value, " ",
		//property[@name="findings.INFO"]/@value)' "$j")
	xf=$3 xc=$4 xs=$5 xsc=$6 xt=$7 xtc=$8 xl="$9 ${10} ${11}"
	# SARIF: rules, exit code, counts per level
	# shellcheck disable=SC2046
	set -- "$1" "$2" $(jq -r '.runs[0] | [(.tool.driver.rules | length),
		.invocations[0].exitCode, .properties.counts.MUST, .properties.counts.SHOULD,
		.properties.counts.INFO] | map(tostring) | join(" ")' "$s")
	sr=$3 sexit=$4 sl="$5 $6 $7"
	if [ "$rc" != "$jexit" ] || [ "$rc" != "$sexit" ]; then
		echo "FAIL: $1 ($2): exit $rc, JSON says $jexit, SARIF $sexit"
		fail=1
	fi
	if [ "$jf" != "$xf" ] || [ "$xf" != "$xc" ] || [ "$xs" != "$xsc" ] ||
	   [ "$xt" != "$xtc" ] || [ "$xt" != "$sr" ]; then
		echo "FAIL: $1 ($2): JSON failing rules $jf; JUnit failures $xf ($xc cases)," \
		     "skipped $xs ($xsc), tests $xt ($xtc cases); SARIF rules $sr"
		fail=1
	fi
	if [ "$jc" != "$xl" ] || [ "$jc" != "$sl" ]; then
		echo "FAIL: $1 ($2): MUST SHOULD INFO: JSON $jc, JUnit $xl, SARIF $sl"
		fail=1
	fi
	# the results are the JSON's first occurrences: rule, level, frame
	jq -r '.check.findings[] | .id as $i | .level as $l | .first[] | "\($i) \($l) \(.frame)"' \
		"$work/$n.json" | sort >"$work/$n.jr"
	jq -r '.runs[0].results[] | "\(.ruleId) \(.properties.profileLevel) \(.properties.frame)"' \
		"$s" | sort >"$work/$n.sr"
	cmp -s "$work/$n.jr" "$work/$n.sr" ||
		{ echo "FAIL: $1 ($2): SARIF results differ from the JSON's first occurrences:"; \
		  diff "$work/$n.jr" "$work/$n.sr" | head -5; fail=1; }
}

for c in "$fix"/*.pcap "$fix"/*.pcapng "$fix"/check/*.pcap "$fix"/formats/*.pcap \
	 "$fix"/labels/*.pcap; do
	one "$c" strict --profile strict
done
# policy.denied and policy.bypassed, judged at the end of the capture
one "$fix/policy/policy.pcap" policy --groups "$fix/policy/groups.txt" \
	--policy "$fix/policy/web.policy"
# the profiles that turn rules off or change their levels
for p in linux vpp offload; do
	one "$fix/nonconforming.pcap" "$p" --profile "$p"
	one "$fix/check/profile-mix.pcap" "$p" --profile "$p"
done

# every document against its schema, in one run of each validator
if ! xmllint --noout --schema "$schemas/junit-10.xsd" "$work"/*.xml 2>"$work/xmllint.err"; then
	grep -v ' validates$' "$work/xmllint.err" | head -20
	fail=1
fi
if ! /usr/bin/python3 "$(dirname "$0")/sarif_validate.py" "$schemas/sarif-schema-2.1.0.json" \
	"$work"/*.sarif; then
	fail=1
fi
[ "$fail" -eq 0 ] || exit 1
echo "validate.sh: $n runs: JUnit and SARIF valid, counts agree with --check --json"
