#!/bin/sh
# no-crash.sh - dissect captures with the plugin (tshark -V) and fail on a
# crash, a dissector bug or a sanitizer report.
#   no-crash.sh TSHARK_SH PLUGIN CAPTURE...
# WIRESHARK_ABORT_ON_DISSECTOR_BUG=1 (set by the test) turns a dissector bug
# into an abort.  The plugin must be loaded (checked with -G plugins).
set -u
tshark_sh=$1 plugin=$2
shift 2
out=$(mktemp) || exit 2
trap 'rm -f "$out" "$out.err"' EXIT
"$tshark_sh" "$plugin" -G plugins | grep -q '^vxgbp\.so' || { echo "no-crash.sh: plugin not loaded" >&2; exit 2; }
fail=0
for cap in "$@"; do
	"$tshark_sh" "$plugin" -n -r - -V < "$cap" > "$out" 2> "$out.err"
	rc=$?
	frames=$(grep -c '^Frame [0-9]*:' "$out")
	ours=$(grep -c '^VXLAN Group Policy' "$out")
	if [ "$rc" -ne 0 ] && ! { [ "$rc" -eq 2 ] && grep -q "cut short in the middle of a packet" "$out.err"; }; then
		echo "FAIL $cap: tshark exit status $rc"; fail=1
	fi
	if grep -Eq 'Dissector bug|AddressSanitizer|runtime error:|LeakSanitizer' "$out" "$out.err"; then
		echo "FAIL $cap:"; grep -E 'Dissector bug|AddressSanitizer|runtime error:' "$out" "$out.err" | head -5; fail=1
	fi
	echo "$cap: $frames frames, $ours with vxgbp, exit $rc"
done
exit $fail
