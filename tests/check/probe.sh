#!/bin/sh
# probe.sh GBPPROBE FAKEVTEP GBPDUMP
# gbpprobe against fakevtep.py on 127.0.0.1 (VTEP) with a flood address on
# 127.0.0.2: each model's behaviour must come out as the verdicts below,
# the exit status must follow (4 a failure, 0 none, 1 no answer), the
# --junit and --sarif files must be valid and hold the same verdicts
# (probe-ci.py), a failed run must publish neither, and the frames the VTEP
# sent (-W) must be readable by gbpdump --check.
probe=$1 fake=$2 gbpdump=$3
ci=$(dirname "$0")/probe-ci.py
tmp=$(mktemp -d)
fail=0
# Both below 49152: the check below expects the WARN for the fake VTEP's
# source port outside the ephemeral range (ports up to 49999 made it PASS
# for one PID in 24).
vport=$((30000 + $$ % 19000)) lport=$((30001 + $$ % 19000))
smac=02:67:63:00:00:01 # pinned to the flood address on the fake VTEP
nhmac=02:67:63:00:00:02 # the same, standing for a nexthop group's pin
trap 'kill $fp 2>/dev/null; rm -rf "$tmp"' EXIT
run() { # model expected-exit "id=verdict ..."
	# On a loaded machine (the ASan pass runs two tests at once) the fake
	# VTEP can miss gbpprobe's first ARP window: a model that expects
	# answers but got none is run once more before it counts.
	try "$@"
	if [ "$rc" = 1 ] && [ "$2" != 1 ]; then
		echo "probe.sh: model $1: no answer, trying once more" >&2
		try "$@"
	fi
	[ "$rc" = "$2" ] || { echo "probe.sh: model $1: exit $rc, expected $2" >&2; fail=1; }
	got=$(jq -r '[.probes[] | "\(.id)=\(.verdict)"] | join(" ")' "$tmp/$1.json")
	[ "$got" = "$3" ] || { printf 'probe.sh: model %s:\n  got      %s\n  expected %s\n' "$1" "$got" "$3" >&2; fail=1; }
	python3 "$ci" "$tmp/$1.xml" "$tmp/$1.sarif" "$2" "$3" || { echo "probe.sh: model $1: --junit/--sarif" >&2; fail=1; }
}
# v6=1: over ::1 (one address: no flood address, so nothing that needs
# one is judged), the model's file names with a 6
v6=0
try() {
	rm -f "$tmp/ready.$1" "$tmp/$1.pcap" "$tmp/$1.json" "$tmp/$1.xml" "$tmp/$1.sarif"
	if [ $v6 = 1 ]; then
		vt="--listen ::1:$vport --remote ::1:$lport" pa="--local ::1" a=::1
	else
		vt="--listen 127.0.0.1:$vport --remote 127.0.0.1:$lport --remote 127.0.0.2:$lport
		    --static $smac@127.0.0.2:$lport --static $nhmac@127.0.0.2:$lport"
		pa="--local 127.0.0.1 --flood-addr 127.0.0.2 --static-mac $smac --nexthop-mac $nhmac"
		a=127.0.0.1
	fi
	python3 "$fake" $vt --model "${1%6}" --seconds 60 --ready "$tmp/ready.$1" &
	fp=$!
	i=0
	while [ ! -e "$tmp/ready.$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	"$probe" $pa --port $vport --listen-port $lport --target 198.51.100.1 --timeout 1500 \
		--json -W "$tmp/$1.pcap" --junit "$tmp/$1.xml" --sarif "$tmp/$1.sarif" $a >"$tmp/$1.json"
	rc=$?
	kill $fp; wait $fp 2>/dev/null
}
run linux 4 "vxlan.plain-as-group-0=pass gbp.group-mapped=pass gbp.policy-applied-set=info rsvd.first-byte-ignored=fail rsvd.second-byte-ignored=pass rsvd.tail-byte-ignored=fail rsvd.id-without-g-ignored=pass learn.control=pass learn.dont-learn-honoured=fail gbp.group-zero-accepted=pass vxlan.i-clear-dropped=pass gpe.on-vxlan-port-ignored=fail mark.flags-mapped=n/a mcast.igmp-report-no-group=fail mcast.mld-report-no-group=fail ip.outer-fragments-reassembled=pass learn.dont-learn-static=info learn.dont-learn-nexthop=info gbp.policy-applied-forwarded=pass gbp.policy-unapplied-forwarded=pass udp.zero-checksum-ipv6=n/a"
run rfc 0 "vxlan.plain-as-group-0=pass gbp.group-mapped=pass gbp.policy-applied-set=pass rsvd.first-byte-ignored=pass rsvd.second-byte-ignored=pass rsvd.tail-byte-ignored=pass rsvd.id-without-g-ignored=pass learn.control=pass learn.dont-learn-honoured=pass gbp.group-zero-accepted=pass vxlan.i-clear-dropped=pass gpe.on-vxlan-port-ignored=pass mark.flags-mapped=n/a mcast.igmp-report-no-group=pass mcast.mld-report-no-group=pass ip.outer-fragments-reassembled=pass learn.dont-learn-static=pass learn.dont-learn-nexthop=pass gbp.policy-applied-forwarded=pass gbp.policy-unapplied-forwarded=pass udp.zero-checksum-ipv6=n/a"
# a VTEP that answers with another group: the one probe that fails
run remap 4 "vxlan.plain-as-group-0=pass gbp.group-mapped=fail gbp.policy-applied-set=pass rsvd.first-byte-ignored=pass rsvd.second-byte-ignored=pass rsvd.tail-byte-ignored=pass rsvd.id-without-g-ignored=pass learn.control=pass learn.dont-learn-honoured=pass gbp.group-zero-accepted=pass vxlan.i-clear-dropped=pass gpe.on-vxlan-port-ignored=pass mark.flags-mapped=n/a mcast.igmp-report-no-group=pass mcast.mld-report-no-group=pass ip.outer-fragments-reassembled=pass learn.dont-learn-static=pass learn.dont-learn-nexthop=pass gbp.policy-applied-forwarded=pass gbp.policy-unapplied-forwarded=pass udp.zero-checksum-ipv6=n/a"
# a VTEP that takes frames without I, drops G with ID 0, discards datagrams
# over 1400 bytes (as a VTEP discards fragments), moves a pinned MAC and
# clears A on the frames it forwards
run lax 4 "vxlan.plain-as-group-0=pass gbp.group-mapped=pass gbp.policy-applied-set=pass rsvd.first-byte-ignored=pass rsvd.second-byte-ignored=pass rsvd.tail-byte-ignored=pass rsvd.id-without-g-ignored=pass learn.control=pass learn.dont-learn-honoured=pass gbp.group-zero-accepted=fail vxlan.i-clear-dropped=info gpe.on-vxlan-port-ignored=pass mark.flags-mapped=n/a mcast.igmp-report-no-group=pass mcast.mld-report-no-group=pass ip.outer-fragments-reassembled=info learn.dont-learn-static=fail learn.dont-learn-nexthop=fail gbp.policy-applied-forwarded=fail gbp.policy-unapplied-forwarded=pass udp.zero-checksum-ipv6=n/a"
run deaf 1 "vxlan.plain-as-group-0=n/a gbp.group-mapped=n/a gbp.policy-applied-set=n/a rsvd.first-byte-ignored=n/a rsvd.second-byte-ignored=n/a rsvd.tail-byte-ignored=n/a rsvd.id-without-g-ignored=n/a learn.control=n/a learn.dont-learn-honoured=n/a gbp.group-zero-accepted=n/a vxlan.i-clear-dropped=n/a gpe.on-vxlan-port-ignored=n/a mark.flags-mapped=n/a mcast.igmp-report-no-group=n/a mcast.mld-report-no-group=n/a ip.outer-fragments-reassembled=n/a learn.dont-learn-static=n/a learn.dont-learn-nexthop=n/a gbp.policy-applied-forwarded=n/a gbp.policy-unapplied-forwarded=n/a udp.zero-checksum-ipv6=n/a"
# IPv6 underlay: a linux model drops UDP checksum 0 (the kernel's default,
# RFC 6936), an rfc one takes it; plain VXLAN over IPv6 (checksum set) is
# their control.  Skipped where this host has no ::1.
if ip -6 addr show dev lo 2>/dev/null | grep -q "inet6 ::1/128"; then
	v6=1
	run linux6 4 "vxlan.plain-as-group-0=pass gbp.group-mapped=pass gbp.policy-applied-set=info rsvd.first-byte-ignored=fail rsvd.second-byte-ignored=pass rsvd.tail-byte-ignored=fail rsvd.id-without-g-ignored=pass learn.control=n/a learn.dont-learn-honoured=n/a gbp.group-zero-accepted=pass vxlan.i-clear-dropped=pass gpe.on-vxlan-port-ignored=fail mark.flags-mapped=n/a mcast.igmp-report-no-group=fail mcast.mld-report-no-group=fail ip.outer-fragments-reassembled=pass learn.dont-learn-static=n/a learn.dont-learn-nexthop=n/a gbp.policy-applied-forwarded=n/a gbp.policy-unapplied-forwarded=n/a udp.zero-checksum-ipv6=pass"
	run rfc6 0 "vxlan.plain-as-group-0=pass gbp.group-mapped=pass gbp.policy-applied-set=pass rsvd.first-byte-ignored=pass rsvd.second-byte-ignored=pass rsvd.tail-byte-ignored=pass rsvd.id-without-g-ignored=pass learn.control=n/a learn.dont-learn-honoured=n/a gbp.group-zero-accepted=pass vxlan.i-clear-dropped=pass gpe.on-vxlan-port-ignored=pass mark.flags-mapped=n/a mcast.igmp-report-no-group=pass mcast.mld-report-no-group=pass ip.outer-fragments-reassembled=pass learn.dont-learn-static=n/a learn.dont-learn-nexthop=n/a gbp.policy-applied-forwarded=n/a gbp.policy-unapplied-forwarded=n/a udp.zero-checksum-ipv6=info"
	v6=0
else
	echo "probe.sh: no ::1 on lo here: the IPv6 underlay runs are skipped" >&2
fi
# A run that fails (exit 2) publishes neither file and leaves no temporary
# file: -W into a folder that does not exist.  An existing file is kept
# without --force; a CI file may not be named as another output.
p="$probe --local 127.0.0.1 --port $vport --listen-port $lport --target 198.51.100.1 --timeout 100"
$p --junit "$tmp/f.xml" --sarif "$tmp/f.sarif" -W "$tmp/nodir/r.pcap" 127.0.0.1 >/dev/null 2>&1
rc=$?
left=$(ls "$tmp" | grep -c "^f\.")
[ $rc = 2 ] && [ "$left" = 0 ] || { echo "probe.sh: failed run: exit $rc, $left files f.* left" >&2; fail=1; }
echo keep >"$tmp/old.xml"
$p --junit "$tmp/old.xml" 127.0.0.1 >/dev/null 2>&1
rc=$?
[ $rc = 2 ] && [ "$(cat "$tmp/old.xml")" = keep ] || { echo "probe.sh: --junit over a file: exit $rc" >&2; fail=1; }
for bad in "--junit $tmp/x --sarif $tmp/x" "--junit $tmp/x -W $tmp/x" "--sarif -" "--junit $tmp/x -w $tmp/y"; do
	$p $bad 127.0.0.1 >/dev/null 2>&1
	rc=$?
	[ $rc = 2 ] && [ ! -e "$tmp/x" ] && [ ! -e "$tmp/y" ] || { echo "probe.sh: $bad: exit $rc" >&2; fail=1; }
done
# What the fake VTEP sent is conforming VXLAN-GBP but for its source port
# (below 49152 here): WARN, no MUST.
"$gbpdump" -r "$tmp/rfc.pcap" --port $vport --port $lport --check >"$tmp/check.txt"
rc=$?
grep -q "^gbpdump --check, profile strict: [1-9][0-9]* frames, [1-9][0-9]* VXLAN" "$tmp/check.txt" &&
	grep -q "^verdict: WARN (0 MUST" "$tmp/check.txt" &&
	[ $rc = 3 ] || { echo "probe.sh: gbpdump --check on the replies: exit $rc" >&2; cat "$tmp/check.txt" >&2; fail=1; }
# -w: the probe frames as a capture, nothing sent
"$probe" -w "$tmp/probe.pcap" --local 192.0.2.1 --target 198.51.100.1 192.0.2.2 >/dev/null || fail=1
n=$("$gbpdump" -r "$tmp/probe.pcap" -t | wc -l)
[ "$n" = 31 ] || { echo "probe.sh: -w wrote $n frames, expected 31" >&2; fail=1; }
# over IPv6, the same frames and the zero-checksum probe's two, which
# gbpdump --check finds (and only them)
"$probe" -w "$tmp/probe6.pcap" --local 2001:db8::2 --target 198.51.100.1 2001:db8::1 >/dev/null || fail=1
n=$("$gbpdump" -r "$tmp/probe6.pcap" -t | wc -l)
z=$("$gbpdump" -r "$tmp/probe6.pcap" --check | sed -n 's/^udp.zero-checksum-ipv6 *[A-Z]* *\([0-9]*\) .*/\1/p')
[ "$n" = 33 ] && [ "$z" = 2 ] ||
	{ echo "probe.sh: -w over IPv6 wrote $n frames ($z with checksum 0), expected 33 (2)" >&2; fail=1; }
[ $fail = 0 ] && echo "probe.sh: ok"
exit $fail
