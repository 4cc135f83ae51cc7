#!/bin/sh
# selftest - run tools/testing/selftests/net/vxlan_gbp.sh (patch 7 of
# kernel-series) in one guest.  On a kernel with the first S patches of
# the series, exactly the tests of the fixes after S must fail.
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
# test name -> the patch that makes it pass (0: passes on 6.12 as is)
fix_of() {
	case "$1" in
	*"does not learn"*) echo 3 ;;
	*"rx_errors counts"*) echo 4 ;;
	*"sent without G"*) echo 5 ;;
	*"underlay mark does not leak"*) echo 6 ;;
	*"MLDv2 reports"*) echo 2 ;;
	*"IGMPv3 reports"*) echo 1 ;;
	*) echo 0 ;;
	esac
}
n=0
while IFS= read -r line; do
	case "$line" in
	"TEST: "*) ;;
	*) continue ;;
	esac
	n=$((n + 1))
	name=$(echo "$line" | sed 's/^TEST: \(.*[^ ]\) *\[.*/\1/')
	res=$(echo "$line" | sed -n 's/.*\[ *\([A-Z]*\) *\]$/\1/p')
	if [ "$STAGE" -ge "$(fix_of "$name")" ]; then want=OK; else want=FAIL; fi
	check "selftest: $name" "$want" "$res"
done </tmp/st.out
check selftest-count 15 "$n"
obs selftest-rc "$rc"
verdict
