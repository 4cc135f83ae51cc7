#!/bin/sh
# dontlearn - the GBP Don't Learn bit on a "gbp learning" device, one
# guest; the host injects the frames of dontlearn.specs from two VTEPs,
# A (192.0.2.9) and B (192.0.2.10):
#   (a) D set, source MAC pinned to A by a static (P) / permanent (Q) FDB
#       entry, sent from B: dropped and counted (skb:kfree_skb
#       reason=VXLAN_ENTRY_EXISTS), the entries still point to A - on
#       every kernel
#   (b) D set, fresh MAC: not learned with fix dontlearn, learned before
#   (c) D clear, fresh MAC: learned on every kernel
#   (d) D set, MAC learned at A, now from B: stays at A with the fix,
#       roams to B before
#   (e) D set, multicast source MAC: dropped on every kernel
#       (reason=MAC_INVALID_SOURCE)
# Delivery: an nft counter per inner UDP port on vx0's ingress.  Drops are
# counted with the skb:kfree_skb tracepoint (kernels with event tracing).
# guests: 1
. /scenarios/lib.sh
A=192.0.2.9 B=192.0.2.10
P=02:99:00:00:01:0a Q=02:99:00:00:01:0b G=02:99:00:00:01:0c R=02:99:00:00:01:0d
F=02:99:00:00:01:0f
ip link add vx0 address "$(mac_of 100 1)" type vxlan id 100 local 192.0.2.1 dstport 4789 gbp learning
sysctl -qw net.ipv6.conf.vx0.disable_ipv6=1
ip addr add 198.51.100.1/28 dev vx0
ip link set vx0 up
bridge fdb add $P dev vx0 dst $A static
bridge fdb add $Q dev vx0 dst $A permanent
nft -f - <<NFT
table inet dl {
	chain pre { type filter hook prerouting priority mangle; }
	chain out { type filter hook output priority 0; oifname "vx0" drop; }
}
NFT
for p in 21001 21002 21003 21004 21005 21006 21007 19999; do
	nft add rule inet dl pre iifname vx0 udp dport $p counter comment "\"p$p\""
done
tracing=no
if mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
	[ -w /sys/kernel/tracing/events/skb/kfree_skb/enable ]; then
	echo 1 >/sys/kernel/tracing/events/skb/kfree_skb/enable && tracing=yes
fi
obs tracing "$tracing"
underlay_up
rx0=$(cat /sys/class/net/vx0/statistics/rx_packets)
echo "VXGBP-READY dontlearn"
i=0
until [ "$(nft list chain inet dl pre | sed -n 's/.*packets \([0-9]*\) .*"p19999".*/\1/p')" = 1 ]; do
	i=$((i + 1)); [ $i -ge 300 ] && break; $BB usleep 100000
done
sleep 0.3
counted() { n=$(nft list chain inet dl pre | sed -n "s/.*packets \([0-9]*\) .*\"p$1\".*/\1/p"); echo "${n:-0}"; }
# fdb_dst MAC: A, B (the two VTEPs), another address, or none
fdb_dst() {
	d=$(bridge fdb show dev vx0 | sed -n "s/^$1 .*dst \([^ ]*\).*/\1/p" | head -1)
	case "$d" in "") echo none ;; "$A") echo A ;; "$B") echo B ;; *) echo "$d" ;; esac
}
drops() { # REASON: kfree_skb events with that reason
	if [ "$tracing" = yes ]; then grep -c "reason[:=] *$1\b" /sys/kernel/tracing/trace; else echo n/a; fi
}
bridge fdb show dev vx0 | sed 's/^/VXGBP-OBS fdb /'
check sentinel-received 1 "$(counted 19999)"
# (c)
check "D-clear-fresh-MAC-learned" yes "$([ "$(fdb_dst $G)" = B ] && echo yes || echo "no($(fdb_dst $G))")"
check "D-clear-delivered" 1 "$(counted 21001)"
# (b)
check "D-fresh-MAC-learned" "$(expect dontlearn yes no)" "$([ "$(fdb_dst $F)" = none ] && echo no || echo "yes")" "fdb=$(fdb_dst $F)"
check "D-fresh-MAC-delivered" 1 "$(counted 21006)"
# (d)
check "D-roaming-R-at" "$(expect dontlearn B A)" "$(fdb_dst $R)" "(learned at A $A, then D from B $B)"
check "D-roaming-delivered" 2 "$(($(counted 21002) + $(counted 21003)))"
# (a)
check "D-spoof-static-delivered" 0 "$(counted 21004)" "(3 sent)"
check "D-spoof-permanent-delivered" 0 "$(counted 21005)" "(2 sent)"
check "D-spoof-static-fdb" A "$(fdb_dst $P)"
check "D-spoof-permanent-fdb" A "$(fdb_dst $Q)"
if [ "$tracing" = yes ]; then
	check "D-spoof-counted-ENTRY_EXISTS" 5 "$(drops VXLAN_ENTRY_EXISTS)"
	check "D-invalid-MAC-counted-MAC_INVALID_SOURCE" 2 "$(drops MAC_INVALID_SOURCE)"
else
	obs drops "no tracefs: drop reasons not counted"
fi
# (e)
check "D-invalid-MAC-delivered" 0 "$(counted 21007)" "(2 sent)"
# vx0 counts what it accepted: (c) 1 + (d) 2 + (b) 1 + the sentinel 1
check "vx0-rx-packets" 5 "$(($(cat /sys/class/net/vx0/statistics/rx_packets) - rx0))"
obs vx0-rx-dropped "$(cat /sys/class/net/vx0/statistics/rx_dropped)"
[ "$tracing" = yes ] && grep -o 'reason[:=] *[A-Z_]*' /sys/kernel/tracing/trace | sort | uniq -c | sed 's/^/VXGBP-OBS drop-reasons /'
verdict
