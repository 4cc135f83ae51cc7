# SPDX-License-Identifier: BSD-2-Clause
# tests/parallel/lib.sh - sourced by the scripts that compare gbpdump -j N
# with -j 1 (batches.sh).  They set G (gbpdump), T (a scratch folder), n
# (runs) and fail (1 after a difference).

# par_run CAP J OPTIONS...: CAP read at -j 1 and at -j J: $T/one.* and
# $T/par.* (out, err, rc).  CAP "-" is $T/stdin.bin on standard input.
par_run() {
	cap=$1 j=$2
	shift 2
	if [ "$cap" = - ]; then
		"$G" -j 1 -r - "$@" <"$T/stdin.bin" >"$T/one.out" 2>"$T/one.err"
		echo $? >"$T/one.rc"
		"$G" -j "$j" -r - "$@" <"$T/stdin.bin" >"$T/par.out" 2>"$T/par.err"
		echo $? >"$T/par.rc"
	else
		"$G" -j 1 -r "$cap" "$@" >"$T/one.out" 2>"$T/one.err"
		echo $? >"$T/one.rc"
		"$G" -j "$j" -r "$cap" "$@" >"$T/par.out" 2>"$T/par.err"
		echo $? >"$T/par.rc"
	fi
	n=$((n + 1))
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
