#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gbpdump --policy on bad input: one line naming the file (line, column),
# exit status 2, nothing on standard output, no crash.
#   cli.sh GBPDUMP FIXTURES_DIR
set -u
gbpdump=$1 fix=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cap=$fix/policy/policy.pcap

# expect NAME WANT_STDERR WANT_STATUS ARGS...: stderr's one line must be WANT
expect() {
	name=$1 want=$2 status=$3
	shift 3
	"$gbpdump" -r "$cap" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	got=$(cat "$tmp/err")
	if [ "$rc" -ne "$status" ] || [ "$got" != "$want" ] || [ -s "$tmp/out" ]; then
		echo "FAIL $name: exit $rc (want $status), stderr '$got' (want '$want'), stdout $(wc -c < "$tmp/out") bytes"
		fail=1
	else
		echo "ok   $name"
	fi
}

printf 'allow 1 -> 2 tcp 80\n  deny 3 -> 4 tcp 8080-80\n' > "$tmp/range.policy"
expect range "gbpdump: $tmp/range.policy:2:19: port range reversed (low-high)" 2 \
	--policy "$tmp/range.policy"
printf '# names need --groups\nallow web -> 2\n' > "$tmp/name.policy"
expect name "gbpdump: $tmp/name.policy:2:7: unknown group name (not in the --groups file)" 2 \
	--policy "$tmp/name.policy"
printf 'default deny\ndefault allow\n' > "$tmp/default.policy"
expect default "gbpdump: $tmp/default.policy:2:1: a second 'default' line" 2 \
	--policy "$tmp/default.policy"
printf 'allow 1 -> 2 # %02000d\n' 0 > "$tmp/long.policy"
expect long "gbpdump: $tmp/long.policy:1: line too long" 2 --policy "$tmp/long.policy"
expect missing "gbpdump: $tmp/none.policy: No such file or directory" 2 \
	--policy "$tmp/none.policy"
expect write "gbpdump: --policy audits flows; it does not combine with -w" 2 \
	--policy "$fix/policy/ids.policy" -w "$tmp/x.pcap"
# a binary file: an error on its first line, never a crash
head -c 300 "$cap" > "$tmp/bin.policy"
"$gbpdump" -r "$cap" --policy "$tmp/bin.policy" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q "^gbpdump: $tmp/bin.policy:1:" "$tmp/err"; then
	echo "FAIL binary: exit $rc, stderr $(head -c 200 "$tmp/err")"
	fail=1
else
	echo "ok   binary"
fi
exit $fail
