#!/bin/sh
# seed - the example of the seed commit (Linux 3511494ce2f3):
#   host 1: iptables -t mangle -A OUTPUT -m owner --uid-owner 101 -j MARK --set-mark 0x200
#   host 2: iptables -I INPUT -m mark --mark 0x200 -j DROP
# uid 101's traffic is dropped on host 2, everyone else's passes, and the
# wire (checked on the host) carries group 0x200 only on uid 101's frames.
# uid 0 talks to port 8080, uid 101 to 8081, uid 102 to 8082.
. /scenarios/lib.sh
ip link add vx0 address "$(mac_of 100 "$ME")" type vxlan id 100 local "$UL4_ME" remote "$UL4_PEER" dstport 4789 gbp
sysctl -qw net.ipv6.conf.vx0.disable_ipv6=1
ip addr add "198.51.100.$ME/24" dev vx0
ip link set vx0 up
if [ "$ROLE" = h1 ]; then
	iptables -t mangle -A OUTPUT -m owner --uid-owner 101 -j MARK --set-mark 0x200
else
	iptables -I INPUT -m mark --mark 0x200 -j DROP
	mkdir -p /tmp/www && echo ok >/tmp/www/ok
	for p in 8080 8081 8082; do $BB httpd -p "198.51.100.2:$p" -h /tmp/www; done
fi
underlay_up
wait_peer || { verdict; exit 1; }
barrier ready
if [ "$ROLE" = h1 ]; then
	# get UID PORT: the body of http://198.51.100.2:PORT/ok fetched as UID
	# (bash /dev/tcp: busybox's static wget cannot resolve without NSS)
	get() {
		setpriv --reuid="$1" --regid="$1" --clear-groups $BB timeout 5 bash -c \
			"exec 3<>/dev/tcp/198.51.100.2/$2 && printf 'GET /ok HTTP/1.0\r\n\r\n' >&3 && cat <&3" \
			2>/dev/null | tail -1 | tr -d '\r'
	}
	check uid0-passes ok "$(get 0 8080)"
	check uid102-passes ok "$(get 102 8082)"
	check uid101-dropped "" "$(get 101 8081)"
	barrier done
else
	barrier done
	drops=$(iptables -L INPUT -v -n -x | awk 'tolower($0) ~ /mark match 0x200/ { print $1; exit }')
	obs h2-input-drops "$drops"
	check h2-dropped-marked "yes" "$([ "${drops:-0}" -gt 0 ] && echo yes || echo no)"
fi
verdict
