#!/bin/sh
# report.cli: what --report and --dot do on the command line: --report
# alone prints nothing, with --stats or --check the same as without it;
# never over an input (even with --force), nor an existing file without
# --force; one clear line and exit status 2 for a bad combination or an
# unwritable name; no temporary file left behind.
# Also: more groups than the picture draws, frames out of time order.
# cli.sh GBPDUMP GBPGEN SOURCE_DIR WORK_DIR
set -eu
gbpdump=$1 gbpgen=$2 src=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
cp "$src/fixtures/basic-gbp.pcap" "$src/fixtures/groups.txt" "$src/fixtures/nonconforming.pcap" \
   "$src/fixtures/cut-short.pcap" "$work/"
cd "$work"
export TZ=UTC LC_ALL=C
fail=0
bad() { echo "report.cli: $*"; fail=1; }

# expect STATUS PATTERN CMD...: exit status and one line on stderr matching PATTERN
expect() {
	want=$1 pat=$2
	shift 2
	set +e
	"$@" > out 2> err
	rc=$?
	set -e
	[ "$rc" -eq "$want" ] || bad "$*: exit $rc, expected $want"
	grep -q -- "$pat" err || bad "$*: stderr lacks '$pat': $(cat err)"
	[ "$(wc -l < err)" -le 1 ] || bad "$*: more than one line on stderr: $(cat err)"
}

gd() { "$gbpdump" -r basic-gbp.pcap --groups groups.txt "$@"; }
# alone: nothing on standard output, a page
gd --report r.html > out 2> err
[ -s out ] && bad "--report alone printed on standard output"
[ -s err ] && bad "--report alone printed on standard error: $(cat err)"
grep -q '</html>' r.html || bad "r.html is not a whole page"
# with --stats (and --json) and --check: their output as without --report
for extra in "--stats" "--stats --json" "--check" "--check --json" "--profile linux"; do
	set +e
	# shellcheck disable=SC2086
	"$gbpdump" -r nonconforming.pcap $extra > plain.out 2>&1; rc1=$?
	# shellcheck disable=SC2086
	"$gbpdump" -r nonconforming.pcap $extra --report "x.html" --force > both.out 2>&1; rc2=$?
	set -e
	cmp -s plain.out both.out || bad "$extra --report: output differs from $extra alone"
	[ "$rc1" -eq "$rc2" ] || bad "$extra --report: exit $rc2, without --report $rc1"
	[ -s x.html ] || bad "$extra --report: no page"
done
grep -q 'profile linux' x.html || bad "--profile linux --report: the page does not say the profile"
# --stats --dot and --report together: DOT on stdout, the page in the file
gd --stats --dot --report d.html > d.dot
grep -q '^digraph gbp {' d.dot || bad "--stats --dot --report: no DOT on standard output"
[ -s d.html ] || bad "--stats --dot --report: no page"

# no clobbering
echo keep > old.html
expect 2 "old.html: file exists; use --force" gd --report old.html
[ "$(cat old.html)" = keep ] || bad "old.html was changed without --force"
gd --report old.html --force
grep -q '</html>' old.html || bad "--force did not replace old.html"
cp basic-gbp.pcap in.pcap
ln -s in.pcap link.pcap
printf 'default deny\nallow 0x100 -> 0x200 tcp 80\n' > p.policy
for target in in.pcap link.pcap groups.txt p.policy; do
	expect 2 "$target: refusing to overwrite" "$gbpdump" -r in.pcap --groups groups.txt \
		--policy p.policy --report "$target" --force
done
# the inputs are protected whichever are given
expect 2 "p.policy: refusing to overwrite" "$gbpdump" -r in.pcap --policy p.policy \
	--report p.policy --force
[ "$(head -1 p.policy)" = "default deny" ] || bad "the policy file was changed"
cmp -s in.pcap basic-gbp.pcap || bad "the capture was changed by --report onto it"
expect 2 "no-such-dir/r.html" gd --report no-such-dir/r.html
mkdir dir.html
expect 2 "dir.html: not a regular file" gd --report dir.html --force

# combinations
expect 2 "--dot goes with --stats" gd --dot
expect 2 "--dot goes with --stats" gd --stats --json --dot
expect 2 "--report does not combine" gd --report w.html -w w.pcap
expect 2 "--report does not combine" gd --report w.html --json
expect 2 "--report does not combine" gd --report - --stats
# - is standard output: the same page
gd --report - > stdout.html
cmp -s stdout.html r.html || bad "--report - differs from --report FILE"
[ -e ./- ] && bad "--report - wrote a file named -"
[ -e w.html ] && bad "a page was written for a refused command line"
# the options in the header leave --report FILE out, in any spelling
gd --rep=o1.html && gd --report o2.html
cmp -s o1.html o2.html || bad "--rep=FILE and --report FILE give different pages"
grep -q 'o[12].html' o1.html && bad "the page names the file it is written to"

# 40 groups sending to each other's hosts: 29 drawn, 11 as one node; every
# group in the table; frames out of order said so
i=1
while [ $i -le 40 ]; do
	echo "time=$((1700000100 - i)) gbp=$((i * 16)) inner-src=198.51.100.$i inner-dst=198.51.100.$((i % 40 + 1))"
	i=$((i + 1))
done > many.spec
"$gbpgen" -w many.pcap -f many.spec
"$gbpdump" -r many.pcap --report many.html
grep -q 'other groups (11)' many.html || bad "40 groups: no 'other groups (11)' node"
grep -q 'the 29 busiest are drawn' many.html || bad "40 groups: the page does not say what is drawn"
[ "$(grep -c '<td class="mono">0x0[0-9a-f]* (' many.html)" -eq 40 ] ||
	bad "40 groups: not every group in the per-group table"
grep -q 'frames out of time order' many.html || bad "frames out of order: not said"
# which 29: all tied (one frame sent, one received), the lowest IDs; a
# group that sends two more frames is drawn in place of the highest of them
cols() { grep -o 'class="col"[^>]*>[^<]*' "$1" | sed 's/.*>//' | tr '\n' ' '; }
low29=$(i=1; while [ $i -le 29 ]; do printf '0x%04x ' $((i * 16)); i=$((i + 1)); done)
[ "$(cols many.html)" = "${low29}other groups " ] ||
	bad "40 tied groups: drawn $(cols many.html), not the 29 lowest IDs"
{ cat many.spec; echo "time=1700000200 gbp=640 inner-src=198.51.100.40 inner-dst=198.51.100.1 count=2"; } > busy.spec
"$gbpgen" -w busy.pcap -f busy.spec
"$gbpdump" -r busy.pcap --report busy.html
[ "$(cols busy.html)" = "${low29%0x01d0 }0x0280 other groups " ] ||
	bad "40 groups, 0x0280 the busiest: drawn $(cols busy.html)"
# the bound: 30 groups (a ring, all tied) are all drawn, 31 are the 29
# lowest and "other groups (2)"
for n in 30 31; do
	i=1
	while [ $i -le $n ]; do
		echo "time=$((1700000000 + i)) gbp=$((i * 16)) inner-src=198.51.100.$i inner-dst=198.51.100.$((i % n + 1))"
		i=$((i + 1))
	done > g$n.spec
	"$gbpgen" -w g$n.pcap -f g$n.spec
	"$gbpdump" -r g$n.pcap --report g$n.html
done
[ "$(cols g30.html | wc -w)" = 30 ] && ! grep -q 'other groups' g30.html ||
	bad "30 groups: drawn $(cols g30.html)"
[ "$(cols g31.html)" = "${low29}other groups " ] && grep -q 'other groups (2)' g31.html ||
	bad "31 groups: drawn $(cols g31.html)"

# a capture cut short: exit 1, the page of the frames before, saying so
expect 1 "cut-short.pcap: frame 10 at offset 1216" "$gbpdump" -r cut-short.pcap --report cut.html
grep -q 'cut-short.pcap: frame 10 at offset 1216: truncated record.*this report has the frames before it' cut.html ||
	bad "cut-short.pcap: the page does not say where the capture broke off"
grep -q '<td>9 (1048 bytes)' cut.html || bad "cut-short.pcap: the page does not have the 9 frames read"

# no temporary files
ls ./*.tmp.* > /dev/null 2>&1 && bad "temporary files left: $(ls ./*.tmp.*)"
[ $fail -eq 0 ] && echo "report.cli: ok"
exit $fail
