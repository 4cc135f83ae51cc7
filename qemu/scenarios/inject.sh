#!/bin/sh
# inject - one guest; the host injects frames built by libvxgbp
# (inject.specs) into its dgram netdev, and the guest reads back what the
# kernel did with each: accepted or dropped, skb->mark after decapsulation
# (iptables LOG in mangle PREROUTING), whether the inner source MAC was
# learned, and the rx_errors counters.  The underlay packets carry mark
# 0x77 (a mangle rule on eth0), so a mark the kernel leaves alone shows.
# guests: 1
. /scenarios/lib.sh
ip link add vx0 address "$(mac_of 100 1)" type vxlan id 100 local 192.0.2.1 dstport 4789 gbp
ip link add vxp address "$(mac_of 300 1)" type vxlan id 300 local 192.0.2.1 dstport 4790
for d in vx0 vxp; do sysctl -qw "net.ipv6.conf.$d.disable_ipv6=1"; done
ip addr add 198.51.100.1/28 dev vx0
ip addr add 198.51.100.33/28 dev vxp
ip link set vx0 up
ip link set vxp up
log_rx vx0
log_rx vxp
iptables -t mangle -A PREROUTING -i eth0 -s 192.0.2.9 -p udp -j MARK --set-mark 0x77
iptables -A OUTPUT -o vx+ -j DROP
underlay_up
echo "VXGBP-READY inject"
i=0
until dmesg | grep -q "vxgbp-rx vx0 .* DPT=19999 "; do
	i=$((i + 1)); [ $i -ge 300 ] && break; $BB usleep 100000
done
check sentinel-received yes "$(dmesg | grep -q "DPT=19999 " && echo yes || echo no)"
for d in vx0 vxp; do
	rx_marks $d | while read -r p m; do echo "VXGBP-OBS rx $p $m"; done
	echo "VXGBP-OBS rxerr $d $(cat /sys/class/net/$d/statistics/rx_errors)"
	bridge fdb show dev $d | sed -n 's/^02:99:00:00:\(..\):\(..\) .*/\1\2/p' | while read -r h; do echo "VXGBP-OBS fdb $((0x$h))"; done
done
verdict
