#!/bin/sh
# conformance-rules.sh MARKS: the vxgbp_xcheck wire rules of the conformance
# scenario (which mark h1 set on each frame), from conformance.marks.
while read -r port mark; do
	case "$port" in ''|\#*) continue ;; esac
	echo "vni=100 idport=$port mark=$mark min=1"
	echo "vni=600 idport=$port mark=$mark min=1"
done <"$1"
echo "vni=500 mark=0x00400300 min=3"
echo "vni=300 mark=0x200 min=5"
echo "vni=400 mark=0x200 dev=plain min=3"
echo "vni=100 iproto=igmp mark=0 fix=igmp min=1"
echo "vni=100 iproto=mld mark=0 fix=mld min=1"
echo "vni=100 iproto=icmp6 mark=0"
