#!/bin/sh
# report.dot: gbpdump --stats --dot byte for byte (expected/NAME.dot), dot
# -Tsvg accepts it, and check_dot.py finds every group and pair of
# --stats --json in it (and fails when one edge is taken out).
# dot.sh GBPDUMP GBPGEN SOURCE_DIR WORK_DIR
set -eu
# shellcheck disable=SC2034 # gbpgen: used by setup.sh
gbpdump=$1 gbpgen=$2 src=$3 work=$4
exp=$src/tests/report/expected
chk=$src/tests/report/check_dot.py
# shellcheck disable=SC1091 # setup.sh, sourced: it uses $gbpgen
. "$src/tests/report/setup.sh"
command -v dot > /dev/null || { echo "report.dot: dot not found (scripts/deps/report.list)"; exit 1; }
fail=0
one() { # NAME OPTIONS...
	name=$1
	shift
	"$gbpdump" "$@" --stats --dot > "$name.dot"
	"$gbpdump" "$@" --stats --json > "$name.json"
	if ! dot -Tsvg "$name.dot" > "$name.svg" || ! grep -q '<svg' "$name.svg"; then
		echo "report.dot $name: dot -Tsvg rejected it"; fail=1
	fi
	python3 "$chk" "$name.json" "$name.dot" || fail=1
	if ! cmp -s "$exp/$name.dot" "$name.dot"; then
		echo "report.dot $name: differs from expected/$name.dot (new: $work/$name.dot)"
		diff -u "$exp/$name.dot" "$name.dot" | head -20 || true
		fail=1
	fi
}
one basic -r basic-gbp.pcap --groups groups.txt
one demo-policy -r demo.pcap --groups demo-groups.txt --policy demo.policy
one nonconforming -r nonconforming.pcap
# the checker can fail: one edge less
grep -v -- '-> g512' basic.dot > broken.dot
if python3 "$chk" basic.json broken.dot > broken.out; then
	echo "report.dot: check_dot.py passed a DOT without the edges to web"; fail=1
fi
exit $fail
