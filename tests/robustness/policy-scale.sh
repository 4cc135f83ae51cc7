#!/bin/sh
# tests/robustness/policy-scale.sh GBPDUMP FIXTURES asan|plain: a policy of
# 1,000,000 rules (issue 30 item 12) loads and judges fixtures/policy in
# under 2 s (before: the shadowed-rule check compared every rule with
# every earlier one, 18 s for 200,000 rules).  The rules: web.policy, then
# named groups, IDs in decimal and hex, wildcards, port lists, one bucket
# of 62,500 rules on different ports, and 5,000 rules that never decide.
# What is printed must be web.policy's audit, the warnings capped at 20
# and the rest counted.
#
# The budget: 2 s, or four times what generating the file took when the
# machine is so loaded that this is more (both are linear; before, 200,000
# of these rules took minutes).  Under ASan: 250,000 rules in 30 s.
set -u
G=$1 FIX=$2 MODE=${3:-plain}
. "$(dirname "$0")/lib.sh"

rules=1000000 budget=2000
[ "$MODE" = asan ] && rules=250000 budget=30000
big=$((rules - 4 - 62500 - 5000))

ms() { echo $(($(date +%s%N) / 1000000)); }

{
	cat "$FIX/policy/groups.txt"
	for k in $(seq 0 19); do printf '0x%x g%d\n' $((0x1000 + k)) "$k"; done
} > "$tmp/groups"

t0=$(ms)
cp "$FIX/policy/web.policy" "$tmp/big.policy"
awk -v big=$big 'BEGIN {
	# wildcards that none of the rules below falls under
	print "deny  * -> 0x7fff"
	print "allow 0x7ffe -> * tcp 1-1000"
	print "allow * -> * 200"
	print "deny  * -> 0x7ffd udp 1-65535"
	# one bucket, 62,500 rules: single ports, then lists of two
	for (k = 1; k <= 60000; k++) print "allow g0 -> 0x1000 tcp " k
	for (j = 0; j < 2500; j++) printf "deny  g0 -> 4096 tcp %d,%d\n", 60001 + j, 62501 + j
	# the rest, each (src, dst, protocol) once
	for (i = 0; i < big; i++) {
		s = i % 3000; d = 8192 + int(i / 3000)
		src = s < 20 ? "g" s : (i % 2 ? sprintf("0x%x", 4096 + s) : 4096 + s)
		m = i % 6
		rest = m == 0 ? "tcp 80,443,8000-8080" : m == 1 ? "tcp 22" : m == 2 ? "udp 53,123" : \
		       m == 3 ? "icmp" : m == 4 ? "" : "47"
		print (i % 2 ? "allow " : "deny ") src " -> " d " " rest
		if (i < 3000) dup[i] = (i % 2 ? "allow " : "deny ") src " -> " d " " rest
	}
	# never decide: 3,000 copies, 1,000 ports of the big bucket again,
	# 1,000 port lists under the second wildcard
	for (i = 0; i < 3000; i++) print dup[i]
	for (k = 1; k <= 1000; k++) print "deny  g0 -> 0x1000 tcp " (k * 37) "-" (k * 37)
	for (j = 0; j < 1000; j++) printf "deny  0x7ffe -> %d tcp %d,%d\n", 12288 + j, j % 1000 + 1, (j + 7) % 1000 + 1
}' >> "$tmp/big.policy"
gen=$(($(ms) - t0))
n=$(grep -c '^allow\|^deny' "$tmp/big.policy")
[ "$n" = $((rules + 7)) ] || err "the policy has $n rules, want $((rules + 7))"
[ $((4 * gen)) -gt $budget ] && budget=$((4 * gen))

"$G" -r "$FIX/policy/policy.pcap" --groups "$FIX/policy/groups.txt" --policy "$FIX/policy/web.policy" \
	> "$tmp/want" 2> "$tmp/want.err" || err "the audit with web.policy failed"
sed -i "s|policy [^ ]*web.policy |policy $tmp/big.policy |" "$tmp/want"

t0=$(ms)
timeout $((budget / 1000 + 1)) "$G" -r "$FIX/policy/policy.pcap" --groups "$tmp/groups" \
	--policy "$tmp/big.policy" > "$tmp/out" 2> "$tmp/err"
rc=$?
took=$(($(ms) - t0))
echo "policy-scale: $n rules generated in $gen ms; loaded and judged in $took ms (budget $budget ms)"
[ $rc = 0 ] || err "gbpdump exit $rc (124: over the budget)"
[ "$took" -le "$budget" ] || err "took $took ms, budget $budget ms"
cmp -s "$tmp/want" "$tmp/out" || err "the audit differs from web.policy's: $(diff "$tmp/want" "$tmp/out" | head -5)"

# 5,000 rules never decide: 20 warnings, then the count
[ "$(grep -c ': warning: rule never decides: line ' "$tmp/err")" = 20 ] ||
	err "$(grep -c 'rule never decides' "$tmp/err") shadowed-rule warnings, want 20"
grep -q "^gbpdump: $tmp/big.policy: warning: 4980 more shadowed rules not shown\$" "$tmp/err" ||
	err "no count of the other shadowed rules: $(tail -1 "$tmp/err")"
[ "$(wc -l < "$tmp/err")" = 21 ] || err "$(wc -l < "$tmp/err") lines on stderr, want 21"
# the first: the copy of the first of the rest (web.policy has 9 lines)
c0=$((9 + 4 + 62500 + 1))
head -1 "$tmp/err" | grep -q "big.policy:$((c0 + big)): warning: rule never decides: line $c0 " ||
	err "first warning: $(head -1 "$tmp/err")"
exit $fail
