#!/bin/sh
# One golden test: run-one.sh GBPDUMP FIXTURES EXPECTED_DIR OUT_DIR NAME CAPTURE EXPECTED 'OPTIONS'
# Runs "gbpdump -r CAPTURE OPTIONS" in FIXTURES with TZ=UTC and compares
# stdout+stderr (plus "EXIT n" for a non-zero status) with EXPECTED_DIR/EXPECTED.
# On a mismatch: OUT_DIR/NEW/EXPECTED and OUT_DIR/DIFF/NAME.diff.
set -u
gbpdump=$1 fixtures=$2 expdir=$3 outdir=$4 name=$5 capture=$6 expected=$7 opts=${8:-}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
(
	cd "$fixtures" || exit 2
	TZ=UTC LC_ALL=C eval "\"\$gbpdump\" -r \"\$capture\" $opts" > "$tmp" 2>&1
	rc=$?
	[ $rc -ne 0 ] && echo "EXIT $rc" >> "$tmp"
	exit 0
)
# messages name the program by its full path in some libpcap errors: normalise
sed -i "s#$gbpdump#gbpdump#g" "$tmp"
if [ -f "$expdir/$expected" ] && cmp -s "$tmp" "$expdir/$expected"; then
	exit 0
fi
mkdir -p "$outdir/NEW" "$outdir/DIFF"
cp "$tmp" "$outdir/NEW/$expected"
if [ -f "$expdir/$expected" ]; then
	diff -u "$expdir/$expected" "$tmp" > "$outdir/DIFF/$name.diff"
	echo "golden $name: output differs from $expected (see $outdir/DIFF/$name.diff)"
	head -40 "$outdir/DIFF/$name.diff"
else
	echo "golden $name: no expected file $expected (new output in $outdir/NEW/$expected)"
fi
exit 1
