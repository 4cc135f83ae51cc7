#!/bin/sh
# tests/robustness/outputs.sh GBPDUMP GBPGEN FIXTURES: where the outputs
# go.  -w - is standard output, as in tcpdump (before: a file named "-"),
# byte for byte what -w FILE writes, and nothing else goes there.  A run
# ended by SIGINT, SIGTERM or SIGHUP leaves no temporary file and puts
# nothing in place: gbpdump -w, --junit, --sarif, gbpgen -w (before:
# OUT.tmp.XXXXXX of the size written so far).  (--report opens its file
# when the capture has been read.)
set -u
G=$1 GEN=$2 FIX=$3
. "$(dirname "$0")/lib.sh"

cd "$tmp" || exit 1
cap=$FIX/basic-gbp.pcap
"$G" -r "$cap" -w f.pcap || err "-w f.pcap"
"$G" -r "$cap" -w - > s.pcap || err "-w -"
[ ! -e ./- ] || err "-w - made a file named -"
cmp -s f.pcap s.pcap || err "-w - differs from -w FILE"
"$G" -r "$cap" --vni 200 -w - 2> e.txt | "$G" -r - > v.txt || err "-w - | gbpdump -r -"
[ "$(wc -l < v.txt)" = 3 ] || err "--vni 200 -w - | -r -: $(wc -l < v.txt) frames, want 3"
[ ! -s e.txt ] || err "-w -: $(cat e.txt) on stderr"
# --help and --version into a full disk: exit 2 (before: 0); an option
# naming a file given twice: a usage error naming both (before: the last
# one won without a word)
for a in --help --version; do
	"$G" $a > /dev/full 2> e.txt
	rc=$?
	[ $rc = 2 ] && grep -q 'standard output: No space left' e.txt || err "$a >/dev/full: exit $rc"
done
for o in -w --groups --policy --junit --sarif --report; do
	"$G" -r "$cap" $o a1 $o a2 > /dev/null 2> e.txt
	rc=$?
	[ $rc = 2 ] && grep -q "^gbpdump: $o given twice ('a1' and 'a2')$" e.txt ||
		err "$o twice: exit $rc, $(cat e.txt)"
done

# no output replaces an input, --force or not, and the message names which
# (before: -w --force wrote over the groups file; --junit called it "the
# capture"; --junit did not protect --policy without --groups)
printf '512 web\n' > g.txt
printf 'default allow\n' > p.pol
cp g.txt g.bak
"$G" -r "$cap" --groups g.txt -w g.txt --force 2> e.txt
rc=$?
[ $rc = 2 ] && cmp -s g.txt g.bak &&
	grep -q '^gbpdump: g.txt: refusing to overwrite the groups file being read$' e.txt ||
	err "-w onto --groups: exit $rc, $(cat e.txt)"
"$G" -r "$cap" --groups g.txt --junit g.txt 2> e.txt
grep -q 'refusing to overwrite the groups file being read' e.txt || err "--junit onto --groups: $(cat e.txt)"
"$G" -r "$cap" --policy p.pol --check --sarif p.pol --force > /dev/null 2> e.txt
grep -q 'refusing to overwrite the policy file being read' e.txt || err "--sarif onto --policy: $(cat e.txt)"
"$G" -r "$cap" --policy p.pol --report p.pol --force 2> e.txt
grep -q 'refusing to overwrite the policy file being read' e.txt || err "--report onto --policy: $(cat e.txt)"

# interrupted SIG OUT... -- CMD...: CMD (reading standard input) is fed
# from a FIFO held open, so it waits mid-run with its outputs' temporary
# files open; then SIG.  It must die of SIG, and leave no OUT nor OUT.tmp.*.
interrupted() {
	sig=$1
	shift
	outs=
	while [ "$1" != -- ]; do outs="$outs $1"; shift; done
	shift
	rm -f fifo
	mkfifo fifo
	# a background job of sh ignores SIGINT: env gives the default back
	env --default-signal=INT "$@" < fifo > /dev/null 2> err.txt &
	pid=$!
	exec 3> fifo
	cat "$feed" >&3
	n=0
	for o in $outs; do
		i=0
		while ! ls "$o".tmp.* > /dev/null 2>&1 && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		ls "$o".tmp.* > /dev/null 2>&1 && n=$((n + 1))
	done
	kill -s "$sig" $pid
	wait $pid
	rc=$?
	exec 3>&-
	[ $n = "$(echo $outs | wc -w)" ] || err "$sig $*: only $n of$outs had a temporary file"
	[ $rc -gt 128 ] || err "$sig $*: exit $rc, not killed by the signal ($(cat err.txt))"
	for o in $outs; do
		[ ! -e "$o" ] || err "$sig $*: $o put in place"
		! ls "$o".tmp.* > /dev/null 2>&1 || err "$sig $*: $(ls "$o".tmp.*) left"
	done
}
feed=$cap
for sig in INT TERM HUP; do
	interrupted $sig w.pcap -- "$G" -r - -w w.pcap
	interrupted $sig j.xml s.sarif -- "$G" -r - --check --junit j.xml --sarif s.sarif
done
printf 'vni=1 gbp=5\n' > spec
feed=spec
interrupted TERM g.pcap -- "$GEN" -f - -w g.pcap
exit $fail
