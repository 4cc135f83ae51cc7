# lib.sh - helpers for the guest scenarios (sourced by dash).
# Conventions: scenario output lines the host parses start with VXGBP-:
#   VXGBP-CHECK <name> PASS|FAIL <details>   one check
#   VXGBP-OBS <key> <value>                   an observation (for tables)
#   VXGBP-VERDICT PASS|FAIL                   the guest's verdict
#   VXGBP-READY <tag>                         the host may inject now
# Addresses: underlay 192.0.2.0/24 and 2001:db8:1::/64, overlays inside
# 198.51.100.0/24 and 2001:db8:100::/64.
BB=/bin/busybox
ROLE=${VXGBP_ROLE:-h1}
STAGE=${VXGBP_STAGE:-0}
FIXES=${VXGBP_FIXES:-none}
PEER_FIXES=${VXGBP_PEER_FIXES:-none}
FAILS=/tmp/vxgbp.fails
: >"$FAILS"
case "$ROLE" in h1) ME=1 PEER=2 ;; *) ME=2 PEER=1 ;; esac
UL4_ME=192.0.2.$ME UL4_PEER=192.0.2.$PEER
UL6_ME=2001:db8:1::$ME UL6_PEER=2001:db8:1::$PEER

check() { # name expected observed [details]
	if [ "$2" = "$3" ]; then
		echo "VXGBP-CHECK $1 PASS expected=$2 observed=$3 $4"
	else
		echo "VXGBP-CHECK $1 FAIL expected=$2 observed=$3 $4"
		echo "$1" >>"$FAILS"
	fi
}
obs() { echo "VXGBP-OBS $*"; }
verdict() {
	if [ -s "$FAILS" ]; then
		echo "VXGBP-VERDICT FAIL ($(wc -l <"$FAILS") failed: $(tr '\n' ' ' <"$FAILS"))"
		return 1
	fi
	echo "VXGBP-VERDICT PASS"
}
# has_fix ID: the kernel carries the fix ID of qemu/fixes (the runner
# passes the ids of the kernel's stage as vxgbp.fixes=a,b,c)
has_fix() { case ",$FIXES," in *",$1,"*) return 0 ;; esac; return 1; }
# peer_has_fix ID: the other guest's kernel carries fix ID (mixed deployments)
peer_has_fix() { case ",$PEER_FIXES," in *",$1,"*) return 0 ;; esac; return 1; }
# expect ID BEFORE AFTER: AFTER if the kernel carries fix ID, else BEFORE
expect() { if has_fix "$1"; then echo "$3"; else echo "$2"; fi; }
# mac_of VNI HOST: the MAC of HOST's VXLAN device for VNI (02:00:00:vv:vv:hh)
mac_of() { printf '02:00:00:%02x:%02x:%02x' $(($1 >> 8)) $(($1 & 255)) "$2"; }

# underlay_up: the underlay goes up last (after the VXLAN devices exist)
underlay_up() {
	ip link set lo up
	ip link set eth0 up
	ip addr add "$UL6_ME/64" dev eth0 nodad
	ip addr add "$UL4_ME/24" dev eth0
}
# wait_peer: until the peer's underlay answers (both guests boot at once)
wait_peer() {
	i=0
	while ! $BB ping -c1 -W1 "$UL4_PEER" >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -ge 60 ] && { echo "VXGBP-CHECK peer-reachable FAIL"; echo peer >>"$FAILS"; return 1; }
	done
	return 0
}
# probe_peer [warmup]: the prober of the probe-* scenarios (h2): gbpprobe
# --json against the VTEP at 192.0.2.1 (flood address 192.0.2.3), its
# report and exit status as observations, then the VTEP's guest (listening
# on port 5999) told that the probe is done.  warmup: first up to 20 plain
# rounds, until the VTEP answers (an OVS datapath takes a moment).
# PROBE_STATIC_MAC, PROBE_NEXTHOP_MAC: the MACs the VTEP pinned to
# 192.0.2.3 (--static-mac, --nexthop-mac: the Don't Learn probes of pinned
# MACs); PROBE_FWD_VNI: the VNI on which it forwards between its remotes
# (--fwd-vni, default the probe's VNI).  PROBE6_TARGET, PROBE6_SRC: a
# second run over the IPv6 underlay (2001:db8:1::1, flood address
# 2001:db8:1::3), --target and --inner-src as the VTEP's IPv6 device
# needs them, its report as "VXGBP-OBS probe6-json" (the zero-checksum
# probe is judged there; without them nobody runs it).  1: the peer never
# answered.
probe_peer() {
	underlay_up
	ip addr add 192.0.2.3/24 dev eth0
	ip addr add 2001:db8:1::3/64 dev eth0 nodad
	wait_peer || return 1
	if [ "${1:-}" = warmup ]; then
		i=0
		while [ $i -lt 20 ]; do
			gbpprobe --local "$UL4_ME" --target 198.51.100.1 --timeout 500 192.0.2.1 >/dev/null 2>&1
			[ $? -ne 1 ] && break
			i=$((i + 1))
		done
		obs probe-warmup-rounds "$i"
	fi
	# a second into the run, the VTEP joins a group (mcast_join)
	( $BB sleep 1; tell_peer 5998 go 20 ) &
	probe_run probe --local "$UL4_ME" --flood-addr 192.0.2.3 --target 198.51.100.1 \
		${PROBE_STATIC_MAC:+--static-mac "$PROBE_STATIC_MAC"} \
		${PROBE_NEXTHOP_MAC:+--nexthop-mac "$PROBE_NEXTHOP_MAC"} \
		${PROBE_FWD_VNI:+--fwd-vni "$PROBE_FWD_VNI"} \
		--timeout 1000 --json 192.0.2.1
	if [ -n "${PROBE6_TARGET:-}" ]; then
		probe_run probe6 --local "$UL6_ME" --flood-addr 2001:db8:1::3 \
			--target "$PROBE6_TARGET" --inner-src "$PROBE6_SRC" --timeout 1000 --json \
			"$UL6_PEER"
	fi
	tell_peer 5999 "done" 50 || true
}
# probe_run TAG ARGS...: gbpprobe ARGS; its report as "VXGBP-OBS TAG-json",
# its standard error and exit status as observations, and a check that it
# ran through (exit 0 or 4)
probe_run() {
	tag=$1
	shift
	gbpprobe "$@" >"/tmp/$tag.json" 2>"/tmp/$tag.err"
	rc=$?
	echo "VXGBP-OBS $tag-json $(cat "/tmp/$tag.json")"
	sed "s/^/VXGBP-OBS $tag-stderr /" "/tmp/$tag.err"
	obs "$tag-rc" "$rc"
	check "$tag-ran" yes "$([ "$rc" = 0 ] || [ "$rc" = 4 ] && echo yes || echo no)"
}
# tell_peer PORT WORD TRIES: WORD to the peer's TCP PORT, tried up to TRIES
# times 0.2 s apart; 1 when it never got through
tell_peer() {
	i=0
	while ! echo "$2" | $BB nc -w 2 "$UL4_PEER" "$1" >/dev/null 2>&1; do
		i=$((i + 1)); [ $i -ge "$3" ] && return 1; $BB usleep 200000
	done
}
# ovs_start: Debian's OVS 3.1 user space (ovs-probe-env) up in this guest:
# a fresh database, ovsdb-server, one handler and one revalidator thread,
# then ovs-vswitchd - after 12 s of uptime, as OVS 3.1 starts no upcall
# handler in a guest up less than ~10 s.
ovs_start() {
	mkdir -p /var/run/openvswitch /etc/openvswitch /var/log/openvswitch
	ovsdb-tool create /etc/openvswitch/conf.db /tmp/vswitch.ovsschema
	ovsdb-server /etc/openvswitch/conf.db --remote=punix:/var/run/openvswitch/db.sock \
		--pidfile=/var/run/openvswitch/ovsdb-server.pid --detach --no-chdir \
		--log-file=/var/log/openvswitch/ovsdb-server.log
	ovs-vsctl --no-wait init
	ovs-vsctl --no-wait set Open_vSwitch . other_config:n-handler-threads=1 \
		other_config:n-revalidator-threads=1
	while [ "$(cut -d. -f1 /proc/uptime)" -lt 12 ]; do $BB usleep 200000; done
	ovs-vswitchd --pidfile=/var/run/openvswitch/ovs-vswitchd.pid --detach --no-chdir \
		--log-file=/var/log/openvswitch/ovs-vswitchd.log
}
# barrier NAME: meet the peer.  h2 listens, h1 connects (TCP on the underlay);
# both guests call the same barriers in the same order, the Nth on port 5000+N.
BARRIER_N=0
barrier() {
	BARRIER_N=$((BARRIER_N + 1))
	port=$((5000 + BARRIER_N))
	if [ "$ROLE" = h2 ]; then
		$BB nc -l -p "$port" </dev/null >/dev/null 2>&1
	else
		tell_peer "$port" go 100
	fi
}
# send_udp DST PORT [COUNT] [UID]: COUNT datagrams through bash /dev/udp
send_udp() {
	n=${3:-1}
	if [ -n "${4:-}" ]; then
		setpriv --reuid="$4" --regid="$4" --clear-groups \
			bash -c "for i in \$(seq $n); do echo vxgbp >/dev/udp/$1/$2; done"
	else
		bash -c "for i in \$(seq $n); do echo vxgbp >/dev/udp/$1/$2; done"
	fi
}
# rx_marks DEV: "DPT MARK" for each logged datagram received on DEV (needs
# log_rx DEV first); the mark is 0 when the LOG line has no MARK=
log_rx() { iptables -t mangle -A PREROUTING -i "$1" -p udp -j LOG --log-prefix "vxgbp-rx $1 "; }
rx_marks() {
	dmesg | grep "vxgbp-rx $1 " | while read -r line; do
		dpt=$(echo "$line" | sed -n 's/.* DPT=\([0-9]*\).*/\1/p')
		mark=$(echo "$line" | sed -n 's/.* MARK=\(0x[0-9a-f]*\).*/\1/p')
		echo "$dpt ${mark:-0x0}"
	done
}
hex8() { printf '0x%08x' "$(($1))"; }
# mark_log DEV: log every ICMP echo request DEV receives (nft, prerouting),
# MARK= and all, so that mark_obs can say which mark each probe arrived
# with as the receiver's netfilter sees it (probe-* scenarios, h1)
mark_log() {
	nft add table inet vxgbp_mark &&
		nft add chain inet vxgbp_mark pre '{ type filter hook prerouting priority -150; }' &&
		nft add rule inet vxgbp_mark pre iifname "$1" icmp type echo-request log prefix '"vxgbp-mark "'
	obs rx-mark-read "$1 $?"
}
# mcast_join DEV: in the background, once the prober says its main run
# has begun (probe_peer connects to port 5998), join 239.1.1.1 on DEV
# (IGMPv3 reports) and turn IPv6 on there (MLDv2 reports for its
# solicited-node group), so that the VTEP sends its reports while gbpprobe
# listens (mcast.*-report-no-group)
mcast_join() {
	(
		$BB timeout 200 $BB nc -l -p 5998 </dev/null >/dev/null 2>&1
		ip addr add 239.1.1.1/32 dev "$1" autojoin
		sysctl -qw "net.ipv6.conf.$1.disable_ipv6=0"
		obs mcast-joined "$1"
	) &
}
# mark_obs: "VXGBP-OBS rx-mark SRC MARK" for each inner source's first
# logged request (mark 0x00000000 when the log line has no MARK=)
mark_obs() {
	dmesg | grep "vxgbp-mark " | while read -r line; do
		src=$(echo "$line" | sed -n 's/.* SRC=\([0-9.]*\) .*/\1/p')
		mark=$(echo "$line" | sed -n 's/.* MARK=\(0x[0-9a-f]*\).*/\1/p')
		echo "$src $(hex8 "${mark:-0}")"
	done | awk '!seen[$1]++' | while read -r s m; do obs rx-mark "$s $m"; done
}
