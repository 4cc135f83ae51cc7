#!/bin/sh
# conformance - two guests, every GBP behaviour the kernel series touches.
#   vx0  VNI 100 gbp, IPv4 underlay   every D/A/ID mark of conformance.marks
#   vx6  VNI 600 gbp, IPv6 underlay   the same marks over IPv6
#   vxd  VNI 500 gbp, learning        h1 marks everything D: h2 must not learn (fix dontlearn)
#   vxg->vxp VNI 300, gbp -> plain    dropped; counted in rx_errors (fix rxerrors)
#   vxq->vxr VNI 400, plain -> gbp    group 0; an underlay mark must not leak (fix rxmark)
#   IGMPv3/MLDv2 reports on vx0        must leave with mark 0 (fixes igmp and mld)
# The G bit for marks without GBP bits (fix gbit) is checked on the wire by the host.
# Check names are the same on every kernel (series.sh tabulates them).
. /scenarios/lib.sh
MARKS=/scenarios/conformance.marks
o=$((ME))
mkvx() { # name vni dstport flags... ; v4 underlay unless "v6"
	name=$1 vni=$2 port=$3; shift 3
	if [ "${1:-}" = v6 ]; then shift; ul="local $UL6_ME remote $UL6_PEER"; else ul="local $UL4_ME remote $UL4_PEER"; fi
	# shellcheck disable=SC2086
	ip link add "$name" address "$(mac_of "$vni" "$ME")" type vxlan id "$vni" $ul dstport "$port" "$@"
	sysctl -qw "net.ipv6.conf.$name.disable_ipv6=1"
}
peer_neigh() { # dev peer-ip vni
	ip neigh replace "$2" lladdr "$(mac_of "$3" "$PEER")" dev "$1" nud permanent
}
mkvx vx0 100 4789 gbp
mkvx vx6 600 4789 v6 gbp
mkvx vxd 500 4789 gbp
if [ "$ROLE" = h1 ]; then
	mkvx vxg 300 4790 gbp
	mkvx vxq 400 8472
else
	mkvx vxp 300 4790
	mkvx vxr 400 8472 gbp
fi
addr() { ip addr add "198.51.100.$(($2 + ME))/28" dev "$1"; ip link set "$1" up; peer_neigh "$1" "198.51.100.$(($2 + PEER))" "$3"; }
addr vx0 0 100
addr vx6 16 600
addr vxd 48 500
if [ "$ROLE" = h1 ]; then addr vxg 32 300; addr vxq 64 400; else addr vxp 32 300; addr vxr 64 400; fi

if [ "$ROLE" = h1 ]; then
	while read -r port mark; do
		case "$port" in ''|\#*) continue ;; esac
		iptables -t mangle -A OUTPUT -p udp --dport "$port" -o vx0 -j MARK --set-mark "$mark"
		iptables -t mangle -A OUTPUT -p udp --dport "$port" -o vx6 -j MARK --set-mark "$mark"
	done <"$MARKS"
	iptables -t mangle -A OUTPUT -o vxd -j MARK --set-mark 0x00400300
	iptables -t mangle -A OUTPUT -o vxg -j MARK --set-mark 0x200
	iptables -t mangle -A OUTPUT -o vxq -j MARK --set-mark 0x200
else
	for d in vx0 vx6 vxd vxp vxr; do log_rx $d; done
	iptables -t mangle -A PREROUTING -i vx0 -p igmp -j LOG --log-prefix "vxgbp-igmp "
	ip6tables -t mangle -A PREROUTING -i vx0 -p ipv6-icmp --icmpv6-type 143 -j LOG --log-prefix "vxgbp-mld "
	# an underlay mark on the plain->gbp port: must not become a group (fix rxmark)
	iptables -t mangle -A PREROUTING -i eth0 -p udp --dport 8472 -j MARK --set-mark 0x77
	# nothing answers on the overlays: no ARP/ICMP that could be learned
	iptables -A OUTPUT -o vx+ -j DROP
	ip6tables -A OUTPUT -o vx+ -j DROP
	# IPv6 on to receive h1's MLDv2 reports (h2 sends nothing, see above)
	sysctl -qw net.ipv6.conf.vx0.disable_ipv6=0
fi
underlay_up
wait_peer || { verdict; exit 1; }
barrier ready || { echo "VXGBP-CHECK barrier FAIL"; echo barrier >>"$FAILS"; }

if [ "$ROLE" = h1 ]; then
	t0=$(cut -d' ' -f1 /proc/uptime)
	# one bash for every datagram (a process start costs ~0.1 s under TCG)
	{
		while read -r port mark; do
			case "$port" in ''|\#*) continue ;; esac
			echo "echo vxgbp >/dev/udp/198.51.100.2/$port"
			echo "echo vxgbp >/dev/udp/198.51.100.18/$port"
		done <"$MARKS"
		for n in 1 2 3; do echo "echo vxgbp >/dev/udp/198.51.100.50/10003"; done
		for n in 1 2 3 4 5; do echo "echo vxgbp >/dev/udp/198.51.100.34/10003"; done
		for n in 1 2 3; do echo "echo vxgbp >/dev/udp/198.51.100.66/10003"; done
	} >/tmp/send.sh
	bash /tmp/send.sh
	# multicast reports on the gbp device: IPv6 on (MLDv2), then an IPv4 group (IGMPv3)
	sysctl -qw net.ipv6.conf.vx0.disable_ipv6=0
	ip addr add 239.1.1.1/32 dev vx0 autojoin
	sleep 2
	barrier sent
	obs h1-send-seconds "$(cut -d' ' -f1 /proc/uptime) - $t0"
	verdict
	exit
fi

# h2: wait for h1, then judge what arrived
barrier sent
sleep 1
rx_marks vx0 >/tmp/rx.vx0
rx_marks vx6 >/tmp/rx.vx6
while read -r port mark; do
	case "$port" in ''|\#*) continue ;; esac
	want=$(hex8 "$mark & 0x0048ffff")
	for d in vx0 vx6; do
		got=$(awk -v p="$port" '$1 == p { print $2; exit }' /tmp/rx.$d)
		check "rx-mark-$d-$port" "$want" "$(hex8 "${got:-0xdead}")" "sent=$mark"
	done
done <"$MARKS"

# fix dontlearn: D set on every vxd frame -> the FDB must not learn h1's MAC
h1mac=$(mac_of 500 1)
learned=$(bridge fdb show dev vxd | grep -c "^$h1mac")
check dont-learn-vxd "$(expect dontlearn 1 0)" "$learned"
# control: vx0 carries D=0 frames from h1, which must be learned
check learn-vx0 1 "$(bridge fdb show dev vx0 | grep -c "^$(mac_of 100 1)")"

# fix rxerrors: GBP frames to the plain vxp are dropped, and counted
check gbp-to-plain-delivered 0 "$(rx_marks vxp | wc -l)"
rxerr=$(cat /sys/class/net/vxp/statistics/rx_errors)
check gbp-to-plain-rx-errors "$(expect rxerrors 0 5)" "$rxerr"
ip -s -s link show vxp | sed 's/^/VXGBP-OBS ip-s-s-vxp /'

# fix rxmark: plain -> gbp: group 0, and the underlay mark 0x77 must not leak
rx_marks vxr >/tmp/rx.vxr
check plain-to-gbp-delivered 3 "$(wc -l </tmp/rx.vxr)"
seen=$(for m in $(awk '{print $2}' /tmp/rx.vxr | sort -u); do hex8 "$m"; echo; done | sort -u | tr '\n' '/')
check plain-to-gbp-mark "$(expect rxmark 0x00000077 0x00000000)" "${seen%/}"

# fixes igmp and mld: the IGMPv3 / MLDv2 reports from h1 carry no group
for n in igmp mld; do
	marks=$(dmesg | grep "vxgbp-$n " | sed -n 's/.* MARK=\(0x[0-9a-f]*\).*/\1/p' | sort -u | tr '\n' '/')
	marks=${marks%/}
	cnt=$(dmesg | grep -c "vxgbp-$n ")
	obs "$n-reports" "$cnt marks: ${marks:-none}"
	check "$n-report-seen" yes "$([ "$cnt" -gt 0 ] && echo yes || echo no)"
	# before the fix: some mark (0x94 in our guests), from it on: none
	if has_fix "$n"; then check "$n-report-mark" none "${marks:-none}"
	elif [ -n "$marks" ]; then check "$n-report-mark" "$marks" "$marks" "(any mark: the bug)"
	else check "$n-report-mark" "a-mark" none; fi
done
verdict
