#!/bin/sh
# tests/robustness/side-files.sh GBPDUMP GBPGEN FIXTURES: the side files
# (--groups, --policy, gbpgen -f) are read as strictly as captures: a NUL
# byte, bytes that are not UTF-8, a line over the limit, a file over the
# size cap is one line naming the file, the line and the column, exit 2,
# and nothing else happens (no frame printed, no file written).  Before
# common/lines.c, a NUL ended the line unseen (a policy's deny rule
# vanished) and /dev/zero spun forever.
set -u
G=$1 GEN=$2 FIX=$3
. "$(dirname "$0")/lib.sh"


P=$FIX/policy
cap=$FIX/basic-gbp.pcap
printf '\000deny * -> *\ndefault allow\n' > "$tmp/nul.policy"
refuse 2 "nul.policy:1:1: a NUL byte" "$G" -r "$P/policy.pcap" --groups "$P/groups.txt" \
	--policy "$tmp/nul.policy"
printf 'default allow\ndeny * -> * tcp 8\000\n' > "$tmp/nul2.policy"
refuse 2 "nul2.policy:2:18: a NUL byte" "$G" -r "$cap" --policy "$tmp/nul2.policy"
refuse 2 "/dev/zero:1:1: a NUL byte" "$G" -r "$cap" --groups /dev/zero
refuse 2 "/dev/zero:1:1: a NUL byte" "$G" -r "$cap" --policy /dev/zero
refuse 2 "/dev/zero:1:1: a NUL byte" "$GEN" -f /dev/zero -w "$tmp/x.pcap"
[ ! -e "$tmp/x.pcap" ] || err "gbpgen -f /dev/zero left x.pcap"
printf '512 we\000b\n' > "$tmp/g0"
refuse 2 "g0:1:7: a NUL byte" "$G" -r "$cap" --groups "$tmp/g0"
printf '256 ok\n512 w\377b\n' > "$tmp/g1"
refuse 2 "g1:2:6: not UTF-8" "$G" -r "$cap" --groups "$tmp/g1"
printf '512 w\300\257b\n' > "$tmp/g2" # an overlong '/'
refuse 2 "g2:1:6: not UTF-8" "$G" -r "$cap" --groups "$tmp/g2"
printf '# caf\351\ndefault allow\n' > "$tmp/latin1.policy"
refuse 2 "latin1.policy:1:6: not UTF-8" "$G" -r "$cap" --policy "$tmp/latin1.policy"
printf 'vni=1 gbp=5 # \377\n' > "$tmp/spec"
refuse 2 "spec:1:15: not UTF-8" "$GEN" -f "$tmp/spec" -w "$tmp/x.pcap"
# UTF-8 names are names: they pass, and print as they are
printf '512 w\303\251b\n' > "$tmp/utf8"
"$G" -r "$cap" --groups "$tmp/utf8" -c 2 > "$tmp/out" 2>&1 &&
	grep -q "$(printf 'w\303\251b')" "$tmp/out" || err "a UTF-8 group name: $(cat "$tmp/out")"
# a line over the limit, the last line without a newline, a file over the cap
awk 'BEGIN { printf "# "; for (i = 0; i < 1100; i++) printf "x"; print "" }' > "$tmp/long"
refuse 2 "long:1: line too long" "$G" -r "$cap" --groups "$tmp/long"
awk 'BEGIN { printf "vni=1 "; for (i = 0; i < 4100; i++) printf " "; print "gbp=5" }' > "$tmp/lspec"
refuse 2 "lspec:1: line too long" "$GEN" -f "$tmp/lspec" -w "$tmp/x.pcap"
printf '512 web' > "$tmp/nonl"
"$G" -r "$cap" --groups "$tmp/nonl" -c 2 | grep -q ' web:' || err "a last line without newline"
yes '# a comment line of forty bytes, or so..' | head -c 268435457 > "$tmp/huge"
refuse 2 "huge: larger than 268435456 bytes" "$G" -r "$cap" --groups "$tmp/huge"
exit $fail
