#!/bin/sh
# golden.sh - one golden test of the vxgbp plugin: run tshark on a capture and
# compare its output with the expected file.
#
#   golden.sh TSHARK_SH PLUGIN CAPTURE EXPECTED ACTUAL [tshark arguments ...]
#
# The output is written to ACTUAL; on a difference the diff is printed and the
# exit status is 1.  VXGBP_UPDATE_GOLDEN=1 copies ACTUAL over EXPECTED
# instead (review the diff with git before committing it).
set -u
tshark_sh=$1 plugin=$2 capture=$3 expected=$4 actual=$5
shift 5
[ -r "$capture" ] || { echo "golden.sh: no capture $capture" >&2; exit 2; }
TZ=UTC LC_ALL=C "$tshark_sh" "$plugin" -n -r - "$@" < "$capture" > "$actual" 2> "$actual.err"
rc=$?
# tshark exits 2 on a capture file cut inside a record; keep that in the output.
if [ "$rc" -ne 0 ]; then
	if [ "$rc" -eq 2 ] && grep -q "cut short in the middle of a packet" "$actual.err"; then
		echo "[tshark: the capture file is cut short]" >> "$actual"
	else
		cat "$actual.err" >&2
		echo "golden.sh: tshark failed ($rc)" >&2
		exit 2
	fi
fi
if [ "${VXGBP_UPDATE_GOLDEN:-0}" = 1 ]; then
	cp "$actual" "$expected" && echo "golden.sh: updated $expected"
	exit $?
fi
if [ ! -f "$expected" ]; then
	echo "golden.sh: no expected output $expected; the output is in $actual" >&2
	echo "(VXGBP_UPDATE_GOLDEN=1 ctest -L tshark writes it)" >&2
	exit 1
fi
if ! diff -u "$expected" "$actual"; then
	echo "golden.sh: output differs from $expected (new output: $actual)" >&2
	exit 1
fi
exit 0
