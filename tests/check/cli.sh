#!/bin/sh
# cli.sh GBPDUMP GBPGEN FIXTURES
# gbpdump --check command line: usage errors, --profile implies --check,
# --help documents the exit codes, and the tables grow with endpoints and
# flows rather than frames.
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
grep -q -- "--check" "$tmp/h" && grep -q -- "--profile NAME" "$tmp/h" &&
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
[ $fail = 0 ] && echo "cli.sh: ok"
exit $fail
