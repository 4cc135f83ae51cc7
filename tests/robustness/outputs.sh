#!/bin/sh
# tests/robustness/outputs.sh GBPDUMP FIXTURES: where gbpdump's outputs
# go.  -w - is standard output, as in tcpdump (before: a file named "-"),
# byte for byte what -w FILE writes, and nothing else goes there.
set -u
G=$1 FIX=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }

cd "$tmp" || exit 1
cap=$FIX/basic-gbp.pcap
"$G" -r "$cap" -w f.pcap || err "-w f.pcap"
"$G" -r "$cap" -w - > s.pcap || err "-w -"
[ ! -e ./- ] || err "-w - made a file named -"
cmp -s f.pcap s.pcap || err "-w - differs from -w FILE"
"$G" -r "$cap" --vni 200 -w - 2> e.txt | "$G" -r - > v.txt || err "-w - | gbpdump -r -"
[ "$(wc -l < v.txt)" = 3 ] || err "--vni 200 -w - | -r -: $(wc -l < v.txt) frames, want 3"
[ ! -s e.txt ] || err "-w -: $(cat e.txt) on stderr"
exit $fail
