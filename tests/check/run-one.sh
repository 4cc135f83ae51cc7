#!/bin/sh
# run-one.sh GBPDUMP FIXTURES EXPECTED BUILDDIR NAME CAPTURE EXIT OPTIONS
# One golden case of gbpdump --check: stdout must equal EXPECTED/NAME.out and
# the exit status must be EXIT.  On a mismatch the new output is written to
# BUILDDIR/new/NAME.out (with VXGBP_UPDATE_GOLDEN=1: over EXPECTED/NAME.out).
gbpdump=$1 fix=$2 exp=$3 bdir=$4 name=$5 cap=$6 want=$7 opts=$8
mkdir -p "$bdir/new"
new=$bdir/new/$name.out
# shellcheck disable=SC2086
"$gbpdump" -r "$fix/$cap" $opts >"$new" 2>"$bdir/new/$name.err"
got=$?
rc=0
if [ "$got" != "$want" ]; then
	echo "check.$name: exit status $got, expected $want" >&2
	cat "$bdir/new/$name.err" >&2
	rc=1
fi
if ! cmp -s "$new" "$exp/$name.out"; then
	if [ "${VXGBP_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$new" "$exp/$name.out"
		echo "check.$name: updated $exp/$name.out" >&2
	else
		echo "check.$name: output differs; new output in $new" >&2
		diff -u "$exp/$name.out" "$new" >&2
		rc=1
	fi
fi
[ $rc = 0 ] && rm -f "$new" "$bdir/new/$name.err"
exit $rc
