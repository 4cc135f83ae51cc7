#!/bin/sh
# mixed - a mixed deployment: h1 sends, h2 receives, each guest may run
# another kernel (run.sh -k h1=A,h2=B).  h1's marks by inner UDP port:
#   23001 0x01000000 (a plain fwmark)   23002 0x00400200 (D + group)
#   23003 0x00000200 (group)            23004 none
# vx0 VNI 100 port 4789: gbp -> gbp;  vxg -> vxp VNI 300 port 4790: gbp ->
# a receiver without gbp.  h2 marks the outer UDP (mangle PREROUTING, udp
# dport 4789/4790) with 0x77, so a received mark that is not set from the
# header shows as 0x77.  h2 records the mark each port arrives with
# (iptables LOG), what vxp accepted and its rx_errors; the host reads G on
# the wire from wire-h1.pcap.  Expected from the sender's fixes (gbit: G
# only for marks with GBP bits) and the receiver's (rxmark: mark 0 without
# G; rxerrors: the drops of vxp counted).
. /scenarios/lib.sh
addr() { ip addr add "198.51.100.$(($3 + ME))/28" dev "$1"; ip link set "$1" up
	ip neigh replace "198.51.100.$(($3 + PEER))" lladdr "$(mac_of "$2" "$PEER")" dev "$1" nud permanent; }
PORTS="23001:0x01000000 23002:0x00400200 23003:0x00000200 23004:0x00000000"
ip link add vx0 address "$(mac_of 100 "$ME")" type vxlan id 100 local "$UL4_ME" remote "$UL4_PEER" dstport 4789 gbp
if [ "$ROLE" = h1 ]; then
	ip link add vxg address "$(mac_of 300 1)" type vxlan id 300 local "$UL4_ME" remote "$UL4_PEER" dstport 4790 gbp
	dev2=vxg
else
	ip link add vxp address "$(mac_of 300 2)" type vxlan id 300 local "$UL4_ME" remote "$UL4_PEER" dstport 4790
	dev2=vxp
fi
for d in vx0 $dev2; do sysctl -qw "net.ipv6.conf.$d.disable_ipv6=1"; done
addr vx0 100 0
addr $dev2 300 32
if [ "$ROLE" = h1 ]; then
	for pm in $PORTS; do
		[ "${pm##*:}" = 0x00000000 ] && continue
		iptables -t mangle -A OUTPUT -p udp --dport "${pm%%:*}" -j MARK --set-mark "${pm##*:}"
	done
else
	log_rx vx0
	log_rx vxp
	iptables -t mangle -A PREROUTING -i eth0 -p udp --dport 4789 -j MARK --set-mark 0x77
	iptables -t mangle -A PREROUTING -i eth0 -p udp --dport 4790 -j MARK --set-mark 0x77
	iptables -A OUTPUT -o vx+ -j DROP
fi
underlay_up
wait_peer || { verdict; exit 1; }
barrier ready || { echo "VXGBP-CHECK barrier FAIL"; echo barrier >>"$FAILS"; }
if [ "$ROLE" = h1 ]; then
	{
		for pm in $PORTS; do
			for n in 1 2; do
				echo "echo vxgbp >/dev/udp/198.51.100.2/${pm%%:*}"
				echo "echo vxgbp >/dev/udp/198.51.100.34/${pm%%:*}"
			done
		done
	} >/tmp/send.sh
	bash /tmp/send.sh
	sleep 1
	barrier sent
	verdict
	exit
fi
barrier sent
sleep 1
rx_marks vx0 >/tmp/rx.vx0
rx_marks vxp >/tmp/rx.vxp
drops=0
for pm in $PORTS; do
	p=${pm%%:*} m=${pm##*:}
	# G on the wire: marks with GBP bits always; a mark without them (but
	# non-zero) only from a sender without fix gbit
	g=0
	if [ $((m & 0x0048ffff)) -ne 0 ]; then g=1
	elif [ $((m)) -ne 0 ] && ! peer_has_fix gbit; then g=1; fi
	# the mark vx0 (gbp) sets: from the header with G, else 0 (rxmark) or
	# the underlay's 0x77
	if [ $g = 1 ]; then want=$(hex8 "$m & 0x0048ffff"); else want=$(expect rxmark 0x00000077 0x00000000); fi
	got=$(awk -v p="$p" '$1 == p { print $2 }' /tmp/rx.vx0 | sort -u | while read -r x; do hex8 "$x"; echo; done | tr '\n' '/')
	got=${got%/}
	check "mixed-gbp-rx-$m" "$want" "${got:-dropped}" "(G=$g expected on the wire)"
	# vxp (no gbp): G frames are dropped, the others accepted with 0x77
	if [ $g = 1 ]; then want=dropped; drops=$((drops + 2)); else want=0x00000077; fi
	got=$(awk -v p="$p" '$1 == p { print $2 }' /tmp/rx.vxp | sort -u | while read -r x; do hex8 "$x"; echo; done | tr '\n' '/')
	got=${got%/}
	check "mixed-plain-rx-$m" "$want" "${got:-dropped}"
done
check mixed-plain-rx-errors "$(expect rxerrors 0 $drops)" "$(cat /sys/class/net/vxp/statistics/rx_errors)"
verdict
