#!/bin/sh
# diverse.sh GBPGEN UNIT_SUMMARY: a small diverse capture (the shapes of
# bench/run.sh's make_diverse, 20,000 frames, then 1,300 more of inner IPv6:
# TCP, ICMPv6 in outer IPv6, UDP cut by a snap length) through unit_summary.
set -eu
gen=$1 unit=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
c="flows=5000 hosts=2000 vnis=400 groups=200 vteps=16 pick=skew"
"$gen" -w "$tmp/d.pcap" --mix 7 \
	"count=8000 $c seed=1 vni=10000 gbp=1000 proto=tcp payload=0 payload-max=1396" \
	"count=3000 $c seed=2 vni=10000 gbp=1000 proto=udp payload=400 payload-max=560" \
	"count=1000 $c seed=3 vni=10000 gbp=1000 proto=icmp payload=56" \
	"count=1500 $c seed=4 vni=10000 gbp=1000 proto=tcp outer-src=2001:db8::1 outer-dst=2001:db8::100" \
	"count=500 $c seed=5 vni=10000 gbp=1000 proto=udp inner-src=2001:db8:1::1 inner-dst=2001:db8:2::1" \
	"count=500 $c seed=6 vni=10000 gbp=1000 proto=tcp vlan=100" \
	"count=500 $c seed=7 vni=10000 proto=udp gpe=eth" \
	"count=500 $c seed=8 vni=10000 gbp=1000 proto=tcp wrap=geneve,vni=77" \
	"count=500 $c seed=9 vni=10000 gbp=1000 proto=arp" \
	"count=500 $c seed=10 vni=10000 gbp=1000 proto=udp dport=4789 snaplen=70" \
	"count=2000 $c seed=11 encap=none proto=tcp payload=0 payload-max=1400" \
	"count=1500 $c seed=12 encap=none proto=arp" \
	"count=500 $c seed=13 vni=10000 gbp=1000 proto=tcp inner-src=2001:db8:1::1 inner-dst=2001:db8:2::1 payload=0 payload-max=1300" \
	"count=500 $c seed=14 vni=10000 gbp=1000 proto=icmp inner-src=2001:db8:1::1 inner-dst=2001:db8:2::1 outer-src=2001:db8::1 outer-dst=2001:db8::100" \
	"count=300 $c seed=15 vni=10000 gbp=1000 proto=udp inner-src=2001:db8:1::1 inner-dst=2001:db8:2::1 snaplen=90"
"$unit" "$tmp/d.pcap"
