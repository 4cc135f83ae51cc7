#!/bin/sh
# selftest - run tools/testing/selftests/net/vxlan_gbp.sh of the final
# stage of kernel-series in one guest (cd /selftests/net, with forwarding/
# and lib.sh next to it, as in the kernel tree).  A test that checks a fix
# ends its name with the fix id in brackets ("... [dontlearn]"): it must
# fail on a kernel without that fix and pass with it; a test without a
# tag must pass on every kernel.  (The old series' selftest had no tags:
# for it, the names are mapped by fix_of_old.)
# guests: 1
. /scenarios/lib.sh
ip link set lo up
if [ ! -f /selftests/net/vxlan_gbp.sh ]; then
	check selftest-present yes no; verdict; exit 1
fi
cd /selftests/net || exit 1
bash ./vxlan_gbp.sh >/tmp/st.out 2>&1
rc=$?
sed 's/^/VXGBP-OBS selftest /' /tmp/st.out
# the old series' test names -> fix ids
fix_of_old() {
	case "$1" in
	*"does not learn"*) echo dontlearn ;;
	*"rx_errors counts"*) echo rxerrors ;;
	*"sent without G"*) echo gbit ;;
	*"underlay mark does not leak"*) echo rxmark ;;
	*"MLDv2 reports"*) echo mld ;;
	*"IGMPv3 reports"*) echo igmp ;;
	esac
}
tagged=$(grep -c 'log_test ".*\[[a-z0-9-]*\]"' vxlan_gbp.sh)
n=0
while IFS= read -r line; do
	case "$line" in
	"TEST: "*) ;;
	*) continue ;;
	esac
	n=$((n + 1))
	name=$(echo "$line" | sed 's/^TEST: \(.*[^ ]\) *\[.*/\1/')
	res=$(echo "$line" | sed -n 's/.*\[ *\([A-Z]*\) *\]$/\1/p')
	if [ "$tagged" -gt 0 ]; then
		fix=$(echo "$name" | sed -n 's/.*\[\([a-z0-9-]*\)\]$/\1/p')
	else
		fix=$(fix_of_old "$name")
	fi
	want=OK
	[ -z "$fix" ] || has_fix "$fix" || want=FAIL
	check "selftest: $name" "$want" "${res:-none}" "${fix:+fix=$fix}"
done </tmp/st.out
# one TEST line per test at least (some tests print two)
ntests=$(sed -n '/^ALL_TESTS="/,/^"/p' vxlan_gbp.sh | grep -c '^[[:space:]]*[a-z_0-9]*[[:space:]]*$')
check selftest-count ">=$ntests" "$([ "$n" -ge "$ntests" ] && echo ">=$ntests" || echo "$n")"
obs selftest-rc "$rc"
verdict
