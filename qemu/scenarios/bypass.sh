#!/bin/sh
# bypass - the local bypass between two gbp VXLAN devices, one guest (the
# setup of the selftests vxlan_gbp.sh and test_vxlan_nolocalbypass.sh):
# vx0 (VNI 300, dstport 4789, gbp) sends to an FDB entry whose remote is the
# guest's own 192.0.2.1, port 4790, where vxb (VNI 300, dstport 4790, gbp
# learning) listens; vxb was created in the root namespace (its socket's)
# and moved to namespace nb, so the overlay 198.51.100.1 -> .2 crosses it.
# localbypass is the default, so no VXLAN frame is built: the skb and its
# mark go straight to vxb.  Marks by inner UDP port (nft on vx0's output):
#   22001 0x00000200   22002 0x00400200 (D)   22003 0x01000200   22004 0x01000000
# Recorded in nb: the exact mark of each port (a dynamic nft set of
# mark . port with counters) and whether vxb learned vx0's MAC from the
# frames with D (sent first, alone) and then from the others.
# Expected: mark & 0x0048ffff with fix bypass, the whole mark before;
# D: not learned with fix dontlearn, learned before.  On every stage: no
# VXLAN packet to port 4790 crosses the root namespace's lo (the path the
# frames would take without the bypass), and a datagram sent there does.
# guests: 1
. /scenarios/lib.sh
MAC_A=$(mac_of 300 1) MAC_B=$(mac_of 300 2)
ip link set lo up
ip link set eth0 up
ip addr add 192.0.2.1/24 dev eth0
ip netns add nb
ip link add vx0 address "$MAC_A" type vxlan id 300 local 192.0.2.1 dstport 4789 gbp
ip link add vxb address "$MAC_B" type vxlan id 300 dstport 4790 gbp learning
ip link set vxb netns nb
sysctl -qw net.ipv6.conf.vx0.disable_ipv6=1
ip netns exec nb sysctl -qw net.ipv6.conf.vxb.disable_ipv6=1
ip addr add 198.51.100.1/28 dev vx0
ip link set vx0 up
ip -n nb link set lo up
ip -n nb addr add 198.51.100.2/28 dev vxb
ip -n nb link set vxb up
bridge fdb add "$MAC_B" dev vx0 self static dst 192.0.2.1 port 4790
ip neigh replace 198.51.100.2 lladdr "$MAC_B" dev vx0 nud permanent
ip -n nb neigh replace 198.51.100.1 lladdr "$MAC_A" dev vxb nud permanent
nft -f - <<NFT
table inet bp {
	chain pre {
		type filter hook prerouting priority mangle;
		iifname "lo" udp dport 4790 counter
	}
	chain out {
		type filter hook output priority mangle;
		oifname "vx0" udp dport 22001 meta mark set 0x00000200
		oifname "vx0" udp dport 22002 meta mark set 0x00400200
		oifname "vx0" udp dport 22003 meta mark set 0x01000200
		oifname "vx0" udp dport 22004 meta mark set 0x01000000
	}
}
NFT
ip netns exec nb nft -f - <<NFT
table inet bp {
	set seen { type mark . inet_service; flags dynamic; counter; }
	chain pre {
		type filter hook prerouting priority mangle;
		iifname "vxb" udp dport 22001-22004 add @seen { meta mark . udp dport }
	}
	chain out { type filter hook output priority 0; oifname "vxb" drop; }
}
NFT
learned() { ip netns exec nb bridge fdb show dev vxb | grep -c "^$MAC_A "; }
# phase 1: only frames with D
send_udp 198.51.100.2 22002 2
sleep 0.5
l_d=$(learned)
ip netns exec nb bridge fdb show dev vxb | sed 's/^/VXGBP-OBS fdb-after-D /'
# phase 2: the rest (D clear: learned on every kernel)
{
	for p in 22001 22003 22004; do
		echo "echo vxgbp >/dev/udp/198.51.100.2/$p"
		echo "echo vxgbp >/dev/udp/198.51.100.2/$p"
	done
} >/tmp/send.sh
bash /tmp/send.sh
sleep 0.5
l_all=$(learned)
ip netns exec nb nft list set inet bp seen | sed 's/^/VXGBP-OBS set /'
# "MARK . PORT counter packets N bytes M" -> per port the marks seen
ip netns exec nb nft list set inet bp seen | tr ',{}' '\n\n\n' |
	sed -n 's/^[[:space:]]*\(0x[0-9a-f]*\) \. \([0-9]*\) counter packets \([0-9]*\).*/\2 \1 \3/p' >/tmp/seen
cat /tmp/seen | sed 's/^/VXGBP-OBS seen /'
for pm in 22001:0x00000200 22002:0x00400200 22003:0x01000200 22004:0x01000000; do
	p=${pm%%:*} m=${pm##*:}
	if has_fix bypass; then want=$(hex8 "$m & 0x0048ffff"); else want=$m; fi
	got=$(awk -v p="$p" '$1 == p { printf "%s%s", s, $2; s = "/" }' /tmp/seen)
	norm=""
	for g in $(echo "$got" | tr '/' ' '); do norm="$norm${norm:+/}$(hex8 "$g")"; done
	check "bypass-mark-$m" "$want" "${norm:-none}"
done
check bypass-D-learned "$(expect dontlearn yes no)" "$([ "$l_d" -gt 0 ] && echo yes || echo no)" "(MAC $MAC_A in vxb's FDB after the frames with D)"
check bypass-learned-without-D yes "$([ "$l_all" -gt 0 ] && echo yes || echo no)"
underlay() { nft list chain inet bp pre | sed -n 's/.*counter packets \([0-9]*\).*/\1/p'; }
check bypass-underlay-packets 0 "$(underlay)" "(VXLAN to port 4790 over lo: the frames took the bypass)"
send_udp 192.0.2.1 4790 1
sleep 0.5
check bypass-underlay-control 1 "$(underlay)" "(one datagram to port 4790: the counter counts that path)"
obs vxb-rx-packets "$(ip netns exec nb cat /sys/class/net/vxb/statistics/rx_packets)"
verdict
