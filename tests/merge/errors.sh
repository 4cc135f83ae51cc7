#!/bin/sh
# tests/merge/errors.sh GBPDUMP FIXTURES: gbpdump --merge refuses what it
# cannot merge with one line naming the file (and the byte, or the
# member, where it applies) and gbpdump's exit statuses: 2 usage or unreadable, 1 a summary
# it cannot use (not JSON, cut short, another format version, other
# options, --check with --policy).
set -u
G=$1 FIX=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }

# refuse STATUS PATTERN ARGS...: exit STATUS, one line on stderr matching
# PATTERN, nothing on stdout
refuse() {
	want=$1 pat=$2
	shift 2
	"$G" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc = "$want" ] || err "$*: exit $rc, want $want"
	[ "$(wc -l < "$tmp/err")" = 1 ] || err "$*: $(wc -l < "$tmp/err") lines on stderr"
	grep -q -- "$pat" "$tmp/err" || err "$*: '$(cat "$tmp/err")' lacks '$pat'"
	[ ! -s "$tmp/out" ] || err "$*: wrote to stdout"
}

c=$FIX/check
"$G" -r "$c/gbp.group-conflict.yes.pcap" --check --json > "$tmp/a.json"
"$G" -r "$c/clean.pcap" --check --json > "$tmp/b.json"
"$G" -r "$c/clean.pcap" --check --profile linux --json > "$tmp/linux.json"
"$G" -r "$c/clean.pcap" --check --no-checksums --json > "$tmp/nocsum.json"
"$G" -r "$c/clean.pcap" --check --track-budget 8M --json > "$tmp/budget.json"
"$G" -r "$c/clean.pcap" --stats --json > "$tmp/stats.json"
"$G" -r "$c/clean.pcap" --check --fabric-header first --json > "$tmp/first.json"
"$G" -r "$FIX/basic-gbp.pcap" --stats --json --groups "$FIX/groups.txt" > "$tmp/groups.json"
"$G" -r "$c/clean.pcap" --check > "$tmp/text.out"
"$G" -r "$c/clean.pcap" --json > "$tmp/frames.json"

refuse 2 "give the summaries" --merge
refuse 2 "does not combine" --merge -r "$c/clean.pcap" "$tmp/a.json"
refuse 2 "$tmp/none.json: No such file" --merge "$tmp/a.json" "$tmp/none.json"
refuse 1 "text.out: byte 0: not JSON" --merge "$tmp/text.out"
# a second JSON value after the first: json-c stops at its first byte
refuse 1 "frames.json: byte [0-9]*: not JSON (unexpected character)" --merge "$tmp/frames.json"
head -c 300 "$tmp/a.json" > "$tmp/cut.json"
refuse 1 "cut.json: byte 300: not JSON (.*cut short)" --merge "$tmp/a.json" "$tmp/cut.json"
printf '{"check":{}}\n' > "$tmp/nosum.json"
refuse 1 "nosum.json: no \"summary\" object" --merge "$tmp/nosum.json"
sed 's/"summary":{"version":2,/"summary":{"version":1,/' "$tmp/a.json" > "$tmp/v1.json"
refuse 1 "v1.json: summary.version: summary format version 1; this gbpdump reads version 2" \
	--merge "$tmp/a.json" "$tmp/v1.json"
sed 's/"endpoints":\[{"vni":[0-9]*/"endpoints":[{"vni":"x"/' "$tmp/a.json" > "$tmp/bad.json"
refuse 1 "bad.json: summary.endpoints\[0\].vni: an integer expected" --merge "$tmp/bad.json"
sed 's/"mode":"check"/"mode":"chess"/' "$tmp/a.json" > "$tmp/mode.json"
refuse 1 "mode.json: summary.options.mode: not" --merge "$tmp/mode.json"
# json-c's strict mode: no leading zero before a digit 1-9 (it takes "00"
# for 0), UTF-8 only; and no NUL in a string
sed 's/"approximate":{"cache":0/"approximate":{"cache":01/' "$tmp/a.json" > "$tmp/zero.json"
refuse 1 "zero.json: byte [0-9]*: not JSON" --merge "$tmp/zero.json"
sed 's/"mode":"check"/"mode":"che\xffck"/' "$tmp/a.json" > "$tmp/utf8.json"
refuse 1 "utf8.json: byte [0-9]*: not JSON" --merge "$tmp/utf8.json"
sed 's/"mode":"check"/"mode":"check\\u0000x"/' "$tmp/a.json" > "$tmp/nul.json"
refuse 1 "nul.json: not read (a string holds" --merge "$tmp/nul.json"
sed 's/"fabric":"first"/"fabric":"outer"/' "$tmp/first.json" > "$tmp/fabric.json"
refuse 1 "fabric.json: summary.options.fabric: not a --fabric-header mode" --merge "$tmp/fabric.json"
# frames per mirror: a type this gbpdump does not know, an ID past 24 bits
"$G" -r "$FIX/mirror.pcap" --stats --json > "$tmp/mirror.json"
sed 's/"mirrors":\[{"type":"vxlan","id"/"mirrors":[{"type":"gre","id"/' "$tmp/mirror.json" > "$tmp/mtype.json"
refuse 1 "mtype.json: summary.mirrors.*not a mirror type" --merge "$tmp/mtype.json"
sed 's/"mirrors":\[{"type":"vxlan","id":7,/"mirrors":[{"type":"vxlan","id":16777216,/' \
	"$tmp/mirror.json" > "$tmp/mid.json"
refuse 1 "mid.json: .*out of range" --merge "$tmp/mid.json"
# a summary without "mirrors" (as one made before them): merged as none
sed 's/,"mirrors":\[{"type":"vxlan","id"[^]]*\]//' "$tmp/mirror.json" > "$tmp/mold.json"
"$G" --merge "$tmp/mold.json" "$tmp/mirror.json" > "$tmp/mold.out" ||
	err "--merge of a summary without mirrors"
grep -q "^  VXLAN vni 7  *3 " "$tmp/mold.out" || err "--merge: the mirrors of the second summary lost"
for o in linux nocsum budget stats first; do
	refuse 1 "$o.json: made with other options" --merge "$tmp/a.json" "$tmp/$o.json"
done
refuse 2 "groups.json: made with --groups FILE: give the same --groups FILE" \
	--merge "$tmp/groups.json"
printf '256 other\n' > "$tmp/other-groups.txt"
refuse 2 "made with another --groups file" --merge --groups "$tmp/other-groups.txt" "$tmp/groups.json"
refuse 2 "made without --groups" --merge --groups "$FIX/groups.txt" "$tmp/stats.json"
"$G" --merge --groups "$FIX/groups.txt" "$tmp/groups.json" > /dev/null ||
	err "--merge --groups with the same file"
"$G" -r "$FIX/policy/policy.pcap" --check --json --groups "$FIX/policy/groups.txt" \
	--policy "$FIX/policy/web.policy" > "$tmp/pol.json"
refuse 1 "pol.json: --check with --policy" --merge --groups "$FIX/policy/groups.txt" \
	--policy "$FIX/policy/web.policy" "$tmp/pol.json"
# --stats with --groups and --policy: names and verdicts as one run prints them
P=$FIX/policy
if ! editcap -F pcap -r "$P/policy.pcap" "$tmp/q1.pcap" 1-17 ||
	! editcap -F pcap -r "$P/policy.pcap" "$tmp/q2.pcap" 18-36; then
	err editcap
fi
for i in 1 2; do
	"$G" -r "$tmp/q$i.pcap" --stats --json --groups "$P/groups.txt" --policy "$P/web.policy" > "$tmp/q$i.json"
done
"$G" --merge --groups "$P/groups.txt" --policy "$P/web.policy" "$tmp/q1.json" "$tmp/q2.json" > "$tmp/qm.txt"
"$G" -r "$P/policy.pcap" --stats --groups "$P/groups.txt" --policy "$P/web.policy" > "$tmp/q.txt"
cmp -s "$tmp/qm.txt" "$tmp/q.txt" || err "--stats --groups --policy: the merge differs from one run"
# a summary that merges: the check's exit status
"$G" --merge "$tmp/a.json" "$tmp/b.json" > /dev/null
rc=$?
[ $rc = 3 ] || err "--merge of a SHOULD finding: exit $rc, want 3"
exit $fail
