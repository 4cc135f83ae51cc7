#!/bin/sh
# netlabel - NetLabel labels on the wire, underlay and VXLAN-GBP overlay.
# guests: 2
# Both guests: an SELinux MLS policy made by the kernel's own
# scripts/selinux/mdp (-m: s0, s1, c0, c1) and compiled by checkpolicy,
# loaded through selinuxfs (permissive); NetLabel (netlabelctl):
#   cipsov4 pass doi:16 tags:1   -> h2's 192.0.2.12            (underlay)
#   cipsov4 pass doi:18 tags:5   -> h2's 192.0.2.102           (underlay)
#   cipsov4 pass doi:17 tags:2   -> 198.51.100.0/28 on vx0     (VXLAN-GBP, group 0x200)
#   calipso pass doi:16          -> 2001:db8:1::12 (underlay) and
#                                   2001:db8:100::/64 on vx0   (overlay)
#   cipsov4 pass doi:19 tags:1   -> h2's 192.0.2.19, a DOI only h1 knows:
#                                   h2 must answer ICMP parameter problem
# everything else unlabelled (the sync traffic stays clean).  h1 sends UDP from a
# process running at user_u:base_r:base_t:s1:c0.c1; the host
# (netlabel.host) cross-checks the captured options byte for byte with
# libvxgbp's builders for level 1, categories 0,1 (tests/labels/nlcheck).
. /scenarios/lib.sh
CTX=user_u:base_r:base_t:s1:c0.c1
# meet the peer on TCP port $1 (h2 listens, h1 connects); our own rather
# than lib.sh's barrier, so this scenario does not follow its changes
nl_sync() {
	if [ "$ROLE" = h2 ]; then
		$BB nc -l -p "$1" </dev/null >/dev/null 2>&1
	else
		i=0
		while ! echo go | $BB nc -w 2 "$UL4_PEER" "$1" >/dev/null 2>&1; do
			i=$((i + 1))
			[ $i -ge 100 ] && { check sync-$1 ok timeout; return 1; }
			$BB usleep 200000
		done
	fi
}

# --- SELinux -----------------------------------------------------------------
mkdir -p /sys/fs/selinux
mount -t selinuxfs selinuxfs /sys/fs/selinux 2>/dev/null
check selinuxfs yes "$([ -e /sys/fs/selinux/load ] && echo yes || echo no)"
if ! command -v mdp >/dev/null 2>&1; then
	check mdp-in-initramfs yes no "(run this scenario through tests/labels/qemu-netlabel.sh)"
	verdict
	exit 1
fi
cd /tmp || exit 1
mdp -m policy.conf file_contexts >/dev/null
# drop the policy capabilities this checkpolicy does not know yet
i=0
while ! checkpolicy -M -c 33 -o policy.bin policy.conf >cp.log 2>&1 && [ $i -lt 8 ]; do
	cap=$(sed -n "s/.*invalid policy capability name \([a-z_0-9]*\).*/\1/p" cp.log | head -1)
	[ -n "$cap" ] || break
	obs dropped-policycap "$cap"
	sed -i "/^policycap $cap;/d" policy.conf
	i=$((i + 1))
done
[ -s policy.bin ] || cat cp.log
cat policy.bin >/sys/fs/selinux/load
check policy-loaded 1 "$(cat /sys/fs/selinux/mls 2>/dev/null)" "(mls)"
check permissive 0 "$(cat /sys/fs/selinux/enforce 2>/dev/null)"
obs shell-context "$(cat /proc/self/attr/current | tr -d '\0')"

# --- network -------------------------------------------------------------------
ip link add vx0 address "$(mac_of 100 "$ME")" type vxlan id 100 local "$UL4_ME" remote "$UL4_PEER" dstport 4789 gbp
ip addr add "198.51.100.$ME/28" dev vx0
ip addr add "2001:db8:100::$ME/64" dev vx0 nodad
ip link set vx0 up
ip neigh replace "198.51.100.$PEER" lladdr "$(mac_of 100 "$PEER")" dev vx0 nud permanent
ip -6 neigh replace "2001:db8:100::$PEER" lladdr "$(mac_of 100 "$PEER")" dev vx0 nud permanent
underlay_up
if [ "$ROLE" = h2 ]; then
	ip addr add 192.0.2.12/32 dev eth0
	ip addr add 192.0.2.102/32 dev eth0
	ip addr add 192.0.2.19/32 dev eth0
	ip addr add 2001:db8:1::12/128 dev eth0 nodad
else
	ip route add 192.0.2.12/32 dev eth0
	ip route add 192.0.2.102/32 dev eth0
	ip route add 192.0.2.19/32 dev eth0
	ip -6 route add 2001:db8:1::12/128 dev eth0
fi
# the overlay's group: skb->mark 0x200 -> VXLAN-GBP group 512
iptables -t mangle -A OUTPUT -o vx0 -j MARK --set-mark 0x200
ip6tables -t mangle -A OUTPUT -o vx0 -j MARK --set-mark 0x200 2>/dev/null

# --- NetLabel ------------------------------------------------------------------
nl() { netlabelctl "$@" || { echo "netlabelctl $* failed"; echo "netlabelctl" >>"$FAILS"; }; }
nl cipsov4 add pass doi:16 tags:1
nl cipsov4 add pass doi:17 tags:2
nl cipsov4 add pass doi:18 tags:5
nl calipso add pass doi:16
[ "$ROLE" = h1 ] && nl cipsov4 add pass doi:19 tags:1
nl map del default
nl map add default address:192.0.2.12/32 protocol:cipso,16
nl map add default address:192.0.2.102/32 protocol:cipso,18
nl map add default address:198.51.100.0/28 protocol:cipso,17
[ "$ROLE" = h1 ] && nl map add default address:192.0.2.19/32 protocol:cipso,19
nl map add default address:2001:db8:1::12/128 protocol:calipso,16
nl map add default address:2001:db8:100::/64 protocol:calipso,16
nl map add default address:0.0.0.0/0 protocol:unlbl
nl map add default address:::/0 protocol:unlbl
netlabelctl -p cipsov4 list
netlabelctl -p calipso list 2>/dev/null
netlabelctl -p map list

wait_peer
nl_sync 5901

# --- labelled traffic (h1, at s1:c0.c1) ---------------------------------------
if [ "$ROLE" = h1 ]; then
	for dst in 192.0.2.12 192.0.2.102 198.51.100.2 2001:db8:1::12 2001:db8:100::2 192.0.2.19; do
		(
			printf '%s' "$CTX" >/proc/self/attr/exec
			exec bash -c "cat /proc/self/attr/current | tr -d '\\0'; echo; for i in 1 2 3; do echo labelled >/dev/udp/$dst/7; done"
		) | while read -r ctx; do obs sender-context "$dst $ctx"; done
		$BB usleep 200000
	done
	$BB usleep 500000
fi
nl_sync 5902
verdict
