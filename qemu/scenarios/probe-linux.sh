#!/bin/sh
# probe-linux - gbpprobe (tools/gbpprobe.c) judges a Linux VXLAN-GBP VTEP
# black-box (issue 5).
#   h1: the VTEP under test: vx0 (VNI 100, gbp, learning) holding the
#       target 198.51.100.1, floods to 192.0.2.2 and 192.0.2.3 (both h2),
#       net.ipv4.fwmark_reflect=1 so replies carry the request's group;
#       the mark each echo request arrives with, as nft sees it on vx0
#       (mark_log, mark_obs: "VXGBP-OBS rx-mark SRC MARK"); STATIC_MAC
#       pinned (static FDB entry) to 192.0.2.3 for learn.dont-learn-static
#   h2: gbpprobe --local 192.0.2.2 --flood-addr 192.0.2.3; its JSON report
#       goes to the console as "VXGBP-OBS probe-json ..." for the host
#       (probe-linux.host) and tests/check/qemu-probe.sh.
# The guests' verdict only says the probe ran; the VTEP's verdicts are
# compared with fixtures/check/probe/ by tests/check/qemu-probe.sh.
# guests: 2
. /scenarios/lib.sh
STATIC_MAC=02:67:63:00:00:01
if [ "$ROLE" = h1 ]; then
	ip link add vx0 address "$(mac_of 100 1)" type vxlan id 100 local "$UL4_ME" dstport 4789 gbp learning
	bridge fdb append 00:00:00:00:00:00 dev vx0 dst 192.0.2.2
	bridge fdb append 00:00:00:00:00:00 dev vx0 dst 192.0.2.3
	# pinned at the flood address: the static Don't Learn probe sends from it
	bridge fdb add "$STATIC_MAC" dev vx0 dst 192.0.2.3 static
	check static-pin yes "$(bridge fdb show dev vx0 | grep -q "^$STATIC_MAC dst 192.0.2.3 " && echo yes || echo no)"
	sysctl -qw net.ipv4.fwmark_reflect=1
	sysctl -qw net.ipv6.conf.vx0.disable_ipv6=1
	ip addr add 198.51.100.1/24 dev vx0
	ip link set vx0 up
	mark_log vx0
	mcast_join vx0
	underlay_up
	# until h2 says it is done
	$BB nc -l -p 5999 </dev/null >/dev/null 2>&1
	obs vx0-fdb "$(bridge fdb show dev vx0 | grep -v 00:00:00:00:00:00 | tr '\n' ';')"
	obs vx0-rx "$(ip -s link show vx0 | sed -n '4p' | tr -s ' ')"
	mark_obs
	check vtep-up yes yes
else
	PROBE_STATIC_MAC=$STATIC_MAC probe_peer || { verdict; exit 1; }
fi
verdict
