#!/bin/sh
# probe-tc - gbpprobe (tools/gbpprobe.c) judges the VTEP of a tc stack:
# a collect_md VXLAN device (external gbp) driven by tc tunnel_key with
# vxlan_opts, the path tc and eBPF dataplanes use (issue 32 item 2).
#   h1: vx0 (external gbp, port 4789) and a veth pair vp/vh; vh holds the
#       target 198.51.100.1.  Receive: flower on vx0's ingress matches VNI
#       100, decapsulates (tunnel_key unset) and redirects to vp; a frame
#       whose tunnel options carry ID 0x200 (vxlan_opts 512/0xffff) gets
#       mark 0x200 first, as a stack that classifies by group would.
#       Send: on vp's ingress, tunnel_key set VNI 100, vxlan_opts 512 for
#       mark 0x200 (fw) and no options otherwise, to 192.0.2.2 and again
#       to 192.0.2.3 (a flood: tc has no FDB).  fwmark_reflect=1, so the
#       echo reply to a G=1 ID 0x200 request leaves with that group.
#   h2: gbpprobe --local 192.0.2.2 --flood-addr 192.0.2.3 (as probe-linux)
# Needs cls_fw, which qemu/vxgbp.config leaves out: run it on debian-6.1 or
# debian-6.12 (qemu/debian-modules loads it).
# guests: 2
. /scenarios/lib.sh
if [ "$ROLE" = h1 ]; then
	ip link add vx0 type vxlan dstport 4789 external gbp
	ip link add vh address "$(mac_of 100 1)" type veth peer name vp
	sysctl -qw net.ipv4.fwmark_reflect=1
	for d in vx0 vh vp; do sysctl -qw "net.ipv6.conf.$d.disable_ipv6=1"; ip link set "$d" up; done
	ip addr add 198.51.100.1/24 dev vh
	tc qdisc add dev vx0 clsact
	tc qdisc add dev vp clsact
	tc filter add dev vx0 ingress prio 1 protocol all flower enc_key_id 100 vxlan_opts 512/0xffff \
		action skbedit mark 0x200 pipe action tunnel_key unset pipe action mirred egress redirect dev vp ||
		obs tc-rx-group-rc "$?"
	tc filter add dev vx0 ingress prio 2 protocol all flower enc_key_id 100 \
		action tunnel_key unset pipe action mirred egress redirect dev vp || obs tc-rx-rc "$?"
	enc() { echo "tunnel_key set src_ip $UL4_ME dst_ip $1 id 100 dst_port 4789 $2"; }
	tc filter add dev vp ingress prio 1 protocol all handle 0x200 fw \
		action $(enc 192.0.2.2 "vxlan_opts 512") pipe action mirred egress mirror dev vx0 pipe \
		action $(enc 192.0.2.3 "vxlan_opts 512") pipe action mirred egress redirect dev vx0 ||
		obs tc-tx-group-rc "$?"
	tc filter add dev vp ingress prio 2 protocol all matchall \
		action $(enc 192.0.2.2) pipe action mirred egress mirror dev vx0 pipe \
		action $(enc 192.0.2.3) pipe action mirred egress redirect dev vx0 || obs tc-tx-rc "$?"
	underlay_up
	mark_log vh
	mcast_join vh
	$BB timeout 150 $BB nc -l -p 5999 </dev/null >/dev/null 2>&1
	obs tc-rx "$(tc -s filter show dev vx0 ingress | grep -E 'Sent|vxlan_opts|enc_key_id' | tr -s ' ' | tr '\n' ';')"
	mark_obs
	obs vx0-rx "$(ip -s link show vx0 | sed -n '4p' | tr -s ' ')"
	# each of the four filters is in place (prio 1 and 2 on each side)
	n=0
	for f in "vx0 1 flower" "vx0 2 flower" "vp 1 fw" "vp 2 matchall"; do
		set -- $f
		tc filter show dev "$1" ingress prio "$2" | grep -q "^filter.* $3" && n=$((n + 1))
	done
	check tc-filters 4 "$n"
else
	probe_peer || { verdict; exit 1; }
fi
verdict
