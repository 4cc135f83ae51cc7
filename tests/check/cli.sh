#!/bin/sh
# cli.sh GBPDUMP GBPGEN FIXTURES
# gbpdump --check command line: usage errors, --profile implies --check,
# --help documents the exit codes, the tables grow with endpoints and flows
# rather than frames, and --track-budget caps them.
gbpdump=$1 gbpgen=$2 fix=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "cli.sh: $*" >&2; fail=1; }

"$gbpdump" -r "$fix/check/clean.pcap" --profile nosuch >/dev/null 2>"$tmp/e"
[ $? = 2 ] && grep -q "unknown profile 'nosuch'" "$tmp/e" || err "--profile nosuch: want exit 2 and a message"
"$gbpdump" -r "$fix/check/clean.pcap" --check -w "$tmp/x.pcap" >/dev/null 2>&1
[ $? = 2 ] && [ ! -e "$tmp/x.pcap" ] || err "--check -w: want exit 2, no file"
"$gbpdump" -r "$fix/check/clean.pcap" --check --stats >/dev/null 2>&1
[ $? = 2 ] || err "--check --stats: want exit 2"
"$gbpdump" -r "$fix/check/profile-vpp-es.pcap" --profile vpp >"$tmp/o" 2>&1
[ $? = 0 ] && grep -q "^verdict: PASS" "$tmp/o" || err "--profile vpp alone: want a PASS report"
"$gbpdump" --help >"$tmp/h"
grep -q -- "--check" "$tmp/h" && grep -q -- "--profile strict|linux|vpp|offload" "$tmp/h" &&
	grep -q "3 warn" "$tmp/h" && grep -q "4 fail" "$tmp/h" || err "--help lacks --check/--profile/exit codes"
# A missing input is a usage/I-O error (2), not a verdict.
"$gbpdump" -r "$tmp/missing.pcap" --check >/dev/null 2>&1
[ $? = 2 ] || err "missing file: want exit 2"

# 40000 frames over 500 flows: 500 flows and 1000 endpoints (MAC + IP),
# every frame counted, nothing found.
"$gbpgen" -w "$tmp/many.pcap" "vni=7 gbp=0x10 count=40000 flows=500 proto=udp" || err "gbpgen"
"$gbpdump" -r "$tmp/many.pcap" --check --json >"$tmp/j"
rc=$?
[ $rc = 0 ] || err "many flows: exit $rc"
[ "$(jq -r '.check.frames, .check.flows, .check.endpoints, .check.counts.MUST + .check.counts.SHOULD' "$tmp/j" | tr '\n' ' ')" = "40000 500 1000 0 " ] ||
	err "many flows: $(cat "$tmp/j")"

# --track-budget: a tiny budget fills the tables; the report says how many
# endpoint and flow keys were not tracked, and the verdict is that of what
# was seen (the first source's IP, stored before the tables filled, comes
# again with another group behind a new MAC: one gbp.group-conflict).
# Every key of this capture but that IP comes once, so what is stored plus
# what was dropped is the number of distinct keys (6001 endpoints, 3001
# flows).
"$gbpgen" -w "$tmp/budget.pcap" "vni=7 gbp=0x10 count=3000 flows=3000 proto=udp" \
	"vni=7 gbp=0x20 count=1 proto=udp idport=9 inner-smac=02:00:00:00:ff:ff" || err "gbpgen"
"$gbpdump" -r "$tmp/budget.pcap" --check --track-budget 1600k >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc = 3 ] || err "tiny budget: exit $rc, want 3 (warn) $(cat "$tmp/e")"
grep -Eq "^warning: track budget 1638400 bytes: tables full: [1-9][0-9]* endpoints, [1-9][0-9]* flows not tracked; cross-frame rules are incomplete$" "$tmp/o" ||
	err "tiny budget: no warning line: $(head -3 "$tmp/o")"
grep -Eq "^gbp.group-conflict +SHOULD +1 " "$tmp/o" || err "tiny budget: the stored source's conflict is missing"
"$gbpdump" -r "$tmp/budget.pcap" --check --json --track-budget 1600k >"$tmp/j"
[ "$(jq -r '.check | [.incomplete, .endpoints + .dropped_endpoints, .flows + .dropped_flows, .endpoints < 6001, .flows < 3001, .exit] | map(tostring) | join(" ")' "$tmp/j")" = "true 6001 3001 true true 3" ] ||
	err "tiny budget JSON: $(cat "$tmp/j")"
"$gbpdump" -r "$tmp/budget.pcap" --check --json >"$tmp/j"
[ "$(jq -r '.check | [.incomplete, .endpoints, .dropped_endpoints, .flows, .dropped_flows] | map(tostring) | join(" ")' "$tmp/j")" = "false 6001 0 3001 0" ] &&
	[ "$(jq -r '.check.findings[0].count' "$tmp/j")" = 1 ] ||
	err "default budget JSON: $(cat "$tmp/j")"
# --json and --stats warn on standard error; their output keeps its form
"$gbpdump" -r "$tmp/budget.pcap" --json --track-budget 1600k >"$tmp/o" 2>"$tmp/e"
[ $? = 0 ] && [ "$(wc -l <"$tmp/o")" = 3001 ] &&
	grep -Eq "^gbpdump: warning: track budget 1638400 bytes: tables full: [1-9][0-9]* endpoints, [1-9][0-9]* flows not tracked; cross-frame findings are incomplete$" "$tmp/e" ||
	err "--json tiny budget: $(cat "$tmp/e")"
[ "$(jq -r 'select(.findings | length > 0) | .frame' "$tmp/o")" = 3001 ] || err "--json tiny budget: findings on other frames"
"$gbpdump" -r "$tmp/budget.pcap" --stats --track-budget 1400k >"$tmp/o" 2>"$tmp/e"
[ $? = 0 ] && grep -q "^3001 frames" "$tmp/o" &&
	grep -Eq "^gbpdump: warning: track budget 1433600 bytes: tables full: 0 frames not counted per VNI, [0-9]+ frames \([0-9]+ bytes\) not in the matrix, [1-9][0-9]* endpoints not learned; the summary is incomplete$" "$tmp/e" ||
	err "--stats tiny budget: $(cat "$tmp/e")"
# budget usage errors: not a size, zero, smaller than the fixed tables
for b in 0 12x -5 1k; do
	"$gbpdump" -r "$fix/check/clean.pcap" --check --track-budget "$b" >/dev/null 2>"$tmp/e"
	[ $? = 2 ] && grep -q -- "--track-budget" "$tmp/e" || err "--track-budget $b: want exit 2 and a message"
done
"$gbpdump" --help | grep -q -- "--track-budget BYTES" || err "--help lacks --track-budget"
# --no-checksums and the offload profile (issue 12)
"$gbpdump" --help >"$tmp/h"
grep -q -- "--no-checksums" "$tmp/h" && grep -q "offload" "$tmp/h" ||
	err "--help lacks --no-checksums/offload"
"$gbpdump" -r "$fix/check/udp.bad-checksum.yes.pcap" -v >"$tmp/o" 2>&1
grep -q "udp.bad-checksum" "$tmp/o" || err "-v: udp.bad-checksum missing"
"$gbpdump" -r "$fix/check/udp.bad-checksum.yes.pcap" -v --no-checksums >"$tmp/o" 2>&1
[ $? = 0 ] && ! grep -q "bad-checksum" "$tmp/o" || err "-v --no-checksums: a checksum judged"
"$gbpdump" -r "$fix/check/ip.bad-checksum.yes.pcap" --json --no-checksums >"$tmp/o" 2>&1
[ $? = 0 ] && ! grep -q "bad-checksum" "$tmp/o" || err "--json --no-checksums: a checksum judged"

# Every capture: --check judges every frame or says it could not, and
# never passes one it could not judge.  A frame is unjudged when it has no
# VXLAN header and an error, or the walk stopped at its bound (per-frame
# --json: "vxlan" null, "error" set or tunnel.depth among the findings).
for cap in "$fix"/*.pcap "$fix"/*/*.pcap; do
	want=$("$gbpdump" -r "$cap" --json 2>/dev/null |
		jq -s '[.[] | select(.vxlan == null and (.error != null or
			(.findings | index("tunnel.depth") != null)))] | length')
	"$gbpdump" -r "$cap" --check --json >"$tmp/j" 2>/dev/null
	rc=$?
	[ "$rc" = 1 ] || [ "$rc" = 2 ] && continue # a broken file: not a verdict
	got=$(jq -r '[.check.unjudged, ([.check.findings[] | select(.id == "frame.unjudged") | .count] | add // 0)] | map(tostring) | join(" ")' "$tmp/j")
	[ "$got" = "$want $want" ] || err "$cap: $want frames with no VXLAN header and an error or the walk's bound, --check says (unjudged, frame.unjudged) $got"
	[ "$want" = 0 ] || [ "$rc" != 0 ] || err "$cap: $want unjudged frames and exit 0"
done

# --vni and --gbp match any VXLAN header of a frame, the first or a nested
# one (one header both): the frames they keep are those the unfiltered
# --json shows with such a header.
tun=$fix/tunnels.pcap
if [ -f "$tun" ]; then
	"$gbpdump" -r "$tun" --json >"$tmp/all" 2>/dev/null
	hdrs='[.vxlan] + [(.nested // [])[] | .vxlan] | map(select(. != null))'
	nn=$(jq -s "[.[] | ($hdrs) | length | select(. > 1)] | length" "$tmp/all")
	[ "$nn" -gt 0 ] || err "tunnels.pcap: no frame with a nested VXLAN header"
	for v in $(jq -r "($hdrs)[] | .vni" "$tmp/all" | sort -un); do
		want=$(jq -c -s "[.[] | select(any(($hdrs)[]; .vni == $v)) | .frame]" "$tmp/all")
		got=$("$gbpdump" -r "$tun" --json --vni "$v" | jq -c -s '[.[].frame]')
		[ "$want" = "$got" ] || err "--vni $v: frames $got, want $want"
	done
	for g in $(jq -r "($hdrs)[] | .gbp.id // empty" "$tmp/all" | sort -un); do
		v=$(jq -r -s "[.[] | ($hdrs)[] | select(.gbp.id == $g) | .vni] | max" "$tmp/all")
		want=$(jq -c -s "[.[] | select(any(($hdrs)[]; .gbp.id == $g and .vni == $v)) | .frame]" "$tmp/all")
		got=$("$gbpdump" -r "$tun" --json --gbp "$g" --vni "$v" | jq -c -s '[.[].frame]')
		[ "$want" = "$got" ] || err "--gbp $g --vni $v: frames $got, want $want"
	done
fi

[ $fail = 0 ] && echo "cli.sh: ok"
exit $fail
