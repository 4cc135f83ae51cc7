# SPDX-License-Identifier: BSD-2-Clause
# tests/parallel/lib.sh - sourced by the scripts that compare gbpdump -j N
# with -j 1 (stripes.sh, stripes_ng.sh, shards.sh).  They set G (gbpdump),
# T (a scratch folder), n (runs) and fail (1 after a difference).

# par_run CAP J C OPTIONS...: CAP read at -j 1 and at -j J in stripes (or
# batches) of C bytes, with the -j paths' debug lines on: $T/one.* and
# $T/par.* (out, err, rc); the debug lines alone stay in $T/par.dbg.
par_run() {
	cap=$1 j=$2 c=$3
	shift 3
	"$G" -j 1 -r "$cap" "$@" >"$T/one.out" 2>"$T/one.err"
	echo $? >"$T/one.rc"
	GBPDUMP_CHUNK_BYTES=$c GBPDUMP_JOBS_DEBUG=1 "$G" -j "$j" -r "$cap" "$@" \
		>"$T/par.out" 2>"$T/par.dbg"
	echo $? >"$T/par.rc"
	n=$((n + 1))
	grep -v "^gbpdump: -j $j:" "$T/par.dbg" >"$T/par.err"
}

# par_same WHAT: the two runs' standard output, standard error and exit
# status are the same bytes; else a FAIL line naming WHAT and the start of
# the difference.
par_same() {
	for k in out err rc; do
		if ! cmp -s "$T/one.$k" "$T/par.$k"; then
			echo "FAIL: $1: $k differs from -j 1"
			diff "$T/one.$k" "$T/par.$k" | head -5
			fail=1
		fi
	done
}
