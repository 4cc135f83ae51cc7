#!/bin/sh
# tests/robustness/threads.sh GBPDUMP FIXTURES: the -j workers under a low
# ulimit -v.  -j 4 where threads cannot
# be had (ulimit -v below a thread's stack): a warning, and the run goes on
# with the threads it has, the same output as -j 1 (before: "cannot start
# 3 threads", exit 2, after a report that said PASS).
set -u
G=$1 FIX=$2
. "$(dirname "$0")/lib.sh"

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
# -j 64 at ulimit -v 30000: the workers' batches cannot be had.  A failed
# run: exit 2, the reason, no file published, no temporary file left, and
# no verdict (before: w.pcap renamed into place with what was written, the
# report written, "verdict: PASS").
cd "$tmp" || exit 1
for m in "-w w.pcap" --check "--check --junit j.xml --sarif s.sarif" "--report r.html" \
	"--stats --json"; do
	# shellcheck disable=SC2086
	(ulimit -v 30000 && "$G" -j 64 -r "$FIX/basic-gbp.pcap" $m > out 2> e)
	rc=$?
	[ $rc = 2 ] || err "-j 64 $m at ulimit -v 30000: exit $rc"
	grep -q "^gbpdump: -j 64: out of memory for the workers' batches" e || err "-j 64 $m: $(cat e)"
	grep -q 'PASS\|"pass"' out && err "-j 64 $m: a verdict: $(grep -i pass out)"
	for f in w.pcap j.xml s.sarif r.html; do
		[ ! -e $f ] || err "-j 64 $m: $f put in place"
	done
	! ls ./*.tmp.* > /dev/null 2>&1 || err "-j 64 $m: $(ls ./*.tmp.*) left"
done
grep -q '"error":"-j 64: out of memory' out || err "--stats --json: no error member"
exit $fail
