#!/bin/sh
# probe-ovs - gbpprobe (tools/gbpprobe.c) judges Open vSwitch's kernel
# datapath as a VXLAN-GBP VTEP black-box (issue 5).
#   h1: Debian's OVS 3.1 user space (tests/check/ovs-fetch.sh: unpacked, in
#       the initramfs with ovs-probe-env), bridge br0 (NORMAL: an L2
#       learning switch) holding the target 198.51.100.1, two VXLAN ports with
#       options:exts=gbp, key 100: vxa to 192.0.2.2 and vxb to 192.0.2.3
#       (both h2), so a flood reaches both of h2's addresses; vxa6 and vxb6
#       the same over the IPv6 underlay (2001:db8:1::2 and ::3), for
#       gbpprobe's second run (udp.zero-checksum-ipv6)
#   h2: gbpprobe --local 192.0.2.2 --flood-addr 192.0.2.3 (as probe-linux)
# guests: 2
. /scenarios/lib.sh
# OVS's libraries (and libbpf, which the image's ip then links with) live
# under the host's unpack path: both guests need LD_LIBRARY_PATH.
eval "$(ovs-probe-env)"
if [ "$ROLE" = h1 ]; then
	ovs_start
	V="ovs-vsctl --timeout=60"
	$V add-br br0 || obs ovs-add-br-rc "$?"
	$V add-port br0 vxa -- set interface vxa type=vxlan options:remote_ip=192.0.2.2 \
		options:key=100 options:exts=gbp || obs ovs-add-port-rc "$?"
	$V add-port br0 vxb -- set interface vxb type=vxlan options:remote_ip=192.0.2.3 \
		options:key=100 options:exts=gbp || obs ovs-add-port-rc "$?"
	for p in "vxa6 2001:db8:1::2" "vxb6 2001:db8:1::3"; do
		set -- $p
		$V add-port br0 "$1" -- set interface "$1" type=vxlan options:remote_ip="$2" \
			options:key=100 options:exts=gbp || obs ovs-add-port-rc "$?"
	done
	obs ovs-dp "$(ovs-dpctl show 2>&1 | tr -s ' ' | tr '\n' ';')"
	sysctl -qw net.ipv6.conf.br0.disable_ipv6=1 2>/dev/null
	ip addr add 198.51.100.1/24 dev br0
	ip link set br0 up
	mark_log br0
	mcast_join br0
	underlay_up
	$BB timeout 150 $BB nc -l -p 5999 </dev/null >/dev/null 2>&1
	obs ovs-version "$(ovs-vsctl --version | head -1)"
	mark_obs
	obs ovs-fdb "$(ovs-appctl fdb/show br0 | tr -s ' ' | tr '\n' ';')"
	obs ovs-log "$(grep -c . /var/log/openvswitch/ovs-vswitchd.log) lines, $(grep -ci 'err\|warn' /var/log/openvswitch/ovs-vswitchd.log) err/warn"
	grep -i 'err\|warn' /var/log/openvswitch/ovs-vswitchd.log | head -20 | sed 's/^/VXGBP-OBS ovs-log-line /'
	check ovs-bridge-up yes "$(ip link show br0 >/dev/null 2>&1 && echo yes || echo no)"
else
	PROBE6_TARGET=198.51.100.1 PROBE6_SRC=198.51.100.200 probe_peer warmup || { verdict; exit 1; }
fi
verdict
