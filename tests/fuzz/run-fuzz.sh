#!/bin/sh
# run-fuzz.sh BIN SEEDS WORKDIR SECONDS [extra libFuzzer options]
# A fresh corpus from the seeds, SECONDS of fuzzing; a crash, leak, timeout or
# sanitizer report fails (libFuzzer's exit status), and the input that did it
# is left in WORKDIR (crash-*, leak-*, timeout-*) to become a regression
# capture in fixtures/regress/<harness>/.  Prints the execution count.
set -u
bin=$1 seeds=$2 work=$3 secs=$4
shift 4
rm -rf "$work"
mkdir -p "$work/corpus"
cp "$seeds"/* "$work/corpus/" 2>/dev/null
"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-print_final_stats=1 -artifact_prefix="$work/" "$@" "$work/corpus" >"$work/log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
echo "$(basename "$bin"): ${execs:-?} executions in ${secs}s, exit $rc"
if [ $rc -ne 0 ]; then
	tail -n 60 "$work/log"
	ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null
fi
exit $rc
