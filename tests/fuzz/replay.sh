#!/bin/sh
# replay.sh BIN SEEDS REGRESS_DIR: run every seed and every saved crash input
# once (libFuzzer with file arguments); any sanitizer report fails.
set -u
bin=$1 seeds=$2 regress=$3
set -- "$seeds"/*
[ -d "$regress" ] && set -- "$@" "$regress"/*
n=$#
"$bin" -timeout=10 -rss_limit_mb=2048 "$@" >/dev/null 2>"${TMPDIR:-/tmp}/replay.$$.log"
rc=$?
[ $rc -ne 0 ] && tail -n 40 "${TMPDIR:-/tmp}/replay.$$.log"
rm -f "${TMPDIR:-/tmp}/replay.$$.log"
echo "$(basename "$bin"): replayed $n inputs, exit $rc"
exit $rc
