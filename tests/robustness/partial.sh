#!/bin/sh
# tests/robustness/partial.sh GBPDUMP FIXTURES: a capture cut short inside
# its 7th record.  Exit 1, and no report gives a verdict on the part read
# (before: "verdict: PASS", JSON "verdict":"pass","exit":0 with exit 1):
# text --check says ERROR, the JSON of --check and --stats carry the
# message in "error" (--check: "verdict":"error","exit":1).
set -u
G=$1 FIX=$2
. "$(dirname "$0")/lib.sh"

head -c 950 "$FIX/basic-gbp.pcap" > "$tmp/cut.pcap"
msg='cut.pcap: frame 7 at offset 892: truncated record: the file ends 42 bytes into a 92-byte frame'
for j in 1 2; do
	"$G" -j $j -r "$tmp/cut.pcap" --check > "$tmp/t" 2> "$tmp/e"
	rc=$?
	[ $rc = 1 ] || err "-j $j --check: exit $rc, want 1"
	grep -q '^verdict: ERROR ' "$tmp/t" || err "-j $j --check: $(grep verdict "$tmp/t")"
	grep -q "$msg" "$tmp/e" || err "-j $j --check: stderr $(cat "$tmp/e")"
	"$G" -j $j -r "$tmp/cut.pcap" --check --json > "$tmp/c.json" 2> /dev/null
	[ $? = 1 ] || err "-j $j --check --json: exit not 1"
	grep -q "\"error\":\"[^\"]*$msg\",\"verdict\":\"error\",\"exit\":1}" "$tmp/c.json" ||
		err "-j $j --check --json: $(head -c 400 "$tmp/c.json")"
	"$G" -j $j -r "$tmp/cut.pcap" --stats --json > "$tmp/s.json" 2> /dev/null
	[ $? = 1 ] || err "-j $j --stats --json: exit not 1"
	grep -q "\"error\":\"[^\"]*$msg\"}" "$tmp/s.json" || err "-j $j --stats --json: no error"
done
# --merge of a whole capture and the cut one: as one run over both, the
# error kept, no verdict, exit 1
"$G" -r "$FIX/basic-gbp.pcap" --check --json > "$tmp/w.json"
"$G" -r "$tmp/cut.pcap" --check --json > "$tmp/c.json" 2> /dev/null
"$G" --merge --json "$tmp/w.json" "$tmp/c.json" > "$tmp/m.json" 2> "$tmp/e"
[ $? = 1 ] || err "--merge of a cut capture's summary: exit not 1"
grep -q "\"error\":\"[^\"]*$msg\",\"verdict\":\"error\",\"exit\":1}" "$tmp/m.json" ||
	err "--merge: $(head -c 300 "$tmp/m.json")"
grep -q "^gbpdump: --merge: .*$msg" "$tmp/e" || err "--merge: stderr $(cat "$tmp/e")"
"$G" --merge "$tmp/w.json" "$tmp/c.json" 2> /dev/null | grep -q '^verdict: ERROR ' ||
	err "--merge text: no ERROR verdict"
# a whole capture has neither
"$G" -r "$FIX/basic-gbp.pcap" --check --json | grep -q '"error"' && err "a whole capture: error"
"$G" -r "$FIX/basic-gbp.pcap" --stats --json | grep -q '"error"' && err "a whole capture: error"
exit $fail
