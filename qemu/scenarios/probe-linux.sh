#!/bin/sh
# probe-linux - gbpprobe (tools/gbpprobe.c) judges a Linux VXLAN-GBP VTEP
# black-box (issue 5).
#   h1: the VTEP under test: vx0 (VNI 100, gbp, learning) holding the
#       target 198.51.100.1, floods to 192.0.2.2 and 192.0.2.3 (both h2),
#       net.ipv4.fwmark_reflect=1 so replies carry the request's group;
#       the mark each echo request arrives with, as nft sees it on vx0
#       (mark_log, mark_obs: "VXGBP-OBS rx-mark SRC MARK"); STATIC_MAC
#       pinned (static FDB entry) to 192.0.2.3 for learn.dont-learn-static,
#       NH_MAC pinned there through an FDB nexthop group (nexthop 1 via
#       192.0.2.3, group 10) for learn.dont-learn-nexthop; vx1 (VNI 200,
#       gbp, the same two remotes) in bridge br1 with hairpin on: a hub
#       that floods a frame to an unknown MAC from one remote to the others
#       (gbp.policy-*-forwarded: what the copies carry); vx6 (VNI 100,
#       gbp, learning) over the IPv6 underlay 2001:db8:1::1, flooding to
#       2001:db8:1::2 and ::3, with 198.51.100.129/25 as the target of
#       gbpprobe's second run (udp.zero-checksum-ipv6; no udp6zerocsumrx)
#   h2: gbpprobe --local 192.0.2.2 --flood-addr 192.0.2.3 --fwd-vni 200; its
#       JSON report
#       goes to the console as "VXGBP-OBS probe-json ..." for the host
#       (probe-linux.host) and tests/check/qemu-probe.sh.
# The guests' verdict only says the probe ran; the VTEP's verdicts are
# compared with fixtures/check/probe/ by tests/check/qemu-probe.sh.
# guests: 2
. /scenarios/lib.sh
STATIC_MAC=02:67:63:00:00:01 NH_MAC=02:67:63:00:00:02
if [ "$ROLE" = h1 ]; then
	ip link add vx0 address "$(mac_of 100 1)" type vxlan id 100 local "$UL4_ME" dstport 4789 gbp learning
	bridge fdb append 00:00:00:00:00:00 dev vx0 dst 192.0.2.2
	bridge fdb append 00:00:00:00:00:00 dev vx0 dst 192.0.2.3
	# pinned at the flood address: the static Don't Learn probe sends from it
	bridge fdb add "$STATIC_MAC" dev vx0 dst 192.0.2.3 static
	check static-pin yes "$(bridge fdb show dev vx0 | grep -q "^$STATIC_MAC dst 192.0.2.3 " && echo yes || echo no)"
	ip nexthop add id 1 via 192.0.2.3 fdb
	ip nexthop add id 10 group 1 fdb
	bridge fdb add "$NH_MAC" dev vx0 nhid 10 self static
	check nexthop-pin yes "$(bridge fdb show dev vx0 | grep -q "^$NH_MAC .*nhid 10 " && echo yes || echo no)"
	ip link add vx1 type vxlan id 200 local "$UL4_ME" dstport 4789 gbp learning
	bridge fdb append 00:00:00:00:00:00 dev vx1 dst 192.0.2.2
	bridge fdb append 00:00:00:00:00:00 dev vx1 dst 192.0.2.3
	ip link add br1 type bridge
	ip link set vx1 master br1
	bridge link set dev vx1 hairpin on
	for d in vx1 br1; do sysctl -qw "net.ipv6.conf.$d.disable_ipv6=1"; ip link set "$d" up; done
	check hairpin yes "$(bridge -d link show dev vx1 | grep -q 'hairpin on' && echo yes || echo no)"
	ip link add vx6 type vxlan id 100 local "$UL6_ME" dstport 4789 gbp learning
	bridge fdb append 00:00:00:00:00:00 dev vx6 dst 2001:db8:1::2
	bridge fdb append 00:00:00:00:00:00 dev vx6 dst 2001:db8:1::3
	sysctl -qw net.ipv6.conf.vx6.disable_ipv6=1
	ip addr add 198.51.100.129/25 dev vx6
	ip link set vx6 up
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
	obs vx6-rx "$(ip -s link show vx6 | sed -n '4p' | tr -s ' ')"
	obs udp6-rx "$(grep '^Udp6InCsumErrors\|^Udp6InDatagrams' /proc/net/snmp6 | tr -s ' \t' ' ' | tr '\n' ';')"
	mark_obs
	check vtep-up yes yes
else
	PROBE_STATIC_MAC=$STATIC_MAC PROBE_NEXTHOP_MAC=$NH_MAC PROBE_FWD_VNI=200 \
		PROBE6_TARGET=198.51.100.129 PROBE6_SRC=198.51.100.200 probe_peer || { verdict; exit 1; }
fi
verdict
