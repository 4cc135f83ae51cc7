#!/bin/sh
# tests/robustness/threads.sh GBPDUMP FIXTURES: -j 4 where threads cannot
# be had (ulimit -v below a thread's stack): a warning, and the run goes on
# with the threads it has, the same output as -j 1 (before: "cannot start
# 3 threads", exit 2, after a report that said PASS).
set -u
G=$1 FIX=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }

for m in "" --check --stats; do
	# shellcheck disable=SC2086
	"$G" -j 1 -r "$FIX/basic-gbp.pcap" $m > "$tmp/one" 2>&1
	# shellcheck disable=SC2086
	(ulimit -v 20000 && "$G" -j 4 -r "$FIX/basic-gbp.pcap" $m > "$tmp/four" 2> "$tmp/e")
	rc=$?
	[ $rc = 0 ] || err "-j 4 $m at ulimit -v 20000: exit $rc ($(cat "$tmp/e"))"
	cmp -s "$tmp/one" "$tmp/four" || err "-j 4 $m at ulimit -v 20000: output differs from -j 1"
	grep -q '^gbpdump: -j 4: thread [234] cannot be started (.*): [123] go on$' "$tmp/e" ||
		err "-j 4 $m: no warning ($(cat "$tmp/e"))"
done
exit $fail
