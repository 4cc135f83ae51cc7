#!/bin/sh
# probe-linux - gbpprobe (tools/gbpprobe.c) judges a Linux VXLAN-GBP VTEP
# black-box (issue 5).
#   h1: the VTEP under test: vx0 (VNI 100, gbp, learning) holding the
#       target 198.51.100.1, floods to 192.0.2.2 and 192.0.2.3 (both h2),
#       net.ipv4.fwmark_reflect=1 so replies carry the request's group
#   h2: gbpprobe --local 192.0.2.2 --flood-addr 192.0.2.3; its JSON report
#       goes to the console as "VXGBP-OBS probe-json ..." for the host
#       (probe-linux.host) and tests/check/qemu-probe.sh.
# The guests' verdict only says the probe ran; the VTEP's verdicts are
# compared with fixtures/check/probe/ by tests/check/qemu-probe.sh.
# guests: 2
. /scenarios/lib.sh
if [ "$ROLE" = h1 ]; then
	ip link add vx0 address "$(mac_of 100 1)" type vxlan id 100 local "$UL4_ME" dstport 4789 gbp learning
	bridge fdb append 00:00:00:00:00:00 dev vx0 dst 192.0.2.2
	bridge fdb append 00:00:00:00:00:00 dev vx0 dst 192.0.2.3
	sysctl -qw net.ipv4.fwmark_reflect=1
	sysctl -qw net.ipv6.conf.vx0.disable_ipv6=1
	ip addr add 198.51.100.1/24 dev vx0
	ip link set vx0 up
	underlay_up
	# until h2 says it is done
	$BB nc -l -p 5999 </dev/null >/dev/null 2>&1
	obs vx0-fdb "$(bridge fdb show dev vx0 | grep -v 00:00:00:00:00:00 | tr '\n' ';')"
	obs vx0-rx "$(ip -s link show vx0 | sed -n '4p' | tr -s ' ')"
	check vtep-up yes yes
else
	probe_peer || { verdict; exit 1; }
fi
verdict
