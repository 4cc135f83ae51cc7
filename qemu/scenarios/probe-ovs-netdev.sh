#!/bin/sh
# probe-ovs-netdev - gbpprobe (tools/gbpprobe.c) judges Open vSwitch 3.1's
# userspace datapath (datapath_type=netdev, native tunnelling: OVS's own
# VXLAN code, lib/netdev-native-tnl.c, not the kernel's) black-box.
#   h1: Debian's OVS 3.1 user space as in probe-ovs; bridge br-phy (netdev)
#       holds eth0 and the underlay address 192.0.2.1, so OVS itself
#       receives and sends the UDP packets; bridge br0 (netdev, NORMAL)
#       holds the target 198.51.100.1 and two VXLAN ports with
#       options:exts=gbp, key 100, to 192.0.2.2 and 192.0.2.3 (both h2)
#   h2: gbpprobe --local 192.0.2.2 --flood-addr 192.0.2.3 (as probe-linux)
# Internal ports of a netdev bridge are tap devices: it needs the tun
# module, which qemu/vxgbp.config leaves out, so it runs on debian-6.1 or
# debian-6.12.
# guests: 2
. /scenarios/lib.sh
eval "$(ovs-probe-env)"
if [ "$ROLE" = h1 ]; then
	ovs_start
	V="ovs-vsctl --timeout=60"
	ip link set lo up
	ip link set eth0 up
	$V add-br br-phy -- set bridge br-phy datapath_type=netdev || obs ovs-add-br-rc "$?"
	$V add-port br-phy eth0 || obs ovs-add-port-rc "$?"
	sysctl -qw net.ipv6.conf.br-phy.disable_ipv6=1 2>/dev/null
	ip addr add "$UL4_ME/24" dev br-phy
	ip link set br-phy up
	$V add-br br0 -- set bridge br0 datapath_type=netdev || obs ovs-add-br-rc "$?"
	for p in "vxa 192.0.2.2" "vxb 192.0.2.3"; do
		set -- $p
		$V add-port br0 "$1" -- set interface "$1" type=vxlan options:remote_ip="$2" \
			options:key=100 options:exts=gbp || obs ovs-add-port-rc "$?"
	done
	# OVS 3.1 refuses exts=gbp on a netdev bridge's VXLAN ports ("could not
	# set configuration"): record its words, then probe the ports as plain
	# VXLAN ports, which is what that datapath offers
	sleep 2
	for p in vxa vxb; do obs "ovs-$p-error" "$($V get interface $p error 2>&1)"; done
	gbp=accepted
	if [ -n "$($V get interface vxa error 2>/dev/null | grep -v '^\[\]$')" ]; then
		gbp=refused
		for p in vxa vxb; do $V remove interface "$p" options exts; done
		sleep 2
		for p in vxa vxb; do obs "ovs-$p-error-plain" "$($V get interface $p error 2>&1)"; done
	fi
	# the matrix's column says "exts=gbp refused": a newer OVS that takes
	# it fails here, so the column is looked at again
	check ovs-netdev-exts-gbp refused "$gbp"
	sysctl -qw net.ipv6.conf.br0.disable_ipv6=1 2>/dev/null
	ip addr add 198.51.100.1/24 dev br0
	ip link set br0 up
	mark_log br0
	mcast_join br0
	obs ovs-dp "$(ovs-appctl dpctl/show 2>&1 | tr -s ' ' | tr '\n' ';')"
	$BB timeout 150 $BB nc -l -p 5999 </dev/null >/dev/null 2>&1
	obs ovs-version "$(ovs-vsctl --version | head -1)"
	obs ovs-route "$(ovs-appctl ovs/route/show | grep 192.0.2 | tr -s ' ' | tr '\n' ';')"
	obs ovs-tnl-arp "$(ovs-appctl tnl/arp/show | tr -s ' ' | tr '\n' ';')"
	obs ovs-fdb "$(ovs-appctl fdb/show br0 | tr -s ' ' | tr '\n' ';')"
	mark_obs
	obs ovs-invalid-vxlan-flags "$(grep -c 'invalid vxlan flags' /var/log/openvswitch/ovs-vswitchd.log)"
	grep -i 'err\|warn' /var/log/openvswitch/ovs-vswitchd.log | head -20 | sed 's/^/VXGBP-OBS ovs-log-line /'
	check ovs-bridge-up yes "$(ip link show br0 >/dev/null 2>&1 && echo yes || echo no)"
else
	probe_peer warmup || { verdict; exit 1; }
fi
verdict
