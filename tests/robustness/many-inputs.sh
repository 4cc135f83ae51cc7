#!/bin/sh
# tests/robustness/many-inputs.sh GBPDUMP FIXTURES: 20,000 captures in one
# folder read at `ulimit -n 256`: the inputs are opened one at a time
# (before: all at once, "Too many open files" at the 252nd).  Every frame
# is counted, at -j 1 and -j 2, and the frame numbers run on.
set -u
G=$1 FIX=$2
. "$(dirname "$0")/lib.sh"

mkdir "$tmp/d"
/usr/bin/python3 - "$FIX/basic-gbp.pcap" "$tmp/d" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
for i in range(20000):
    open('%s/c%05d.pcap' % (sys.argv[2], i), 'wb').write(b)
PY
want='200000 frames, 26800000 bytes: 200000 VXLAN (200000 with GBP), 0 other'
for j in 1 2; do
	out=$(ulimit -n 256 && "$G" -j $j -r "$tmp/d" --stats 2>&1 | head -1)
	[ "$out" = "$want" ] || err "-j $j --stats at ulimit -n 256: $out"
done
n=$(ulimit -n 256 && "$G" -r "$tmp/d" --json -c 200000 | tail -1 | sed 's/.*"frame":\([0-9]*\).*/\1/')
[ "$n" = 200000 ] || err "the last frame's number: $n"
# -w protects every input, however many (before: "more than 8 input files
# to protect")
(ulimit -n 256 && "$G" -r "$tmp/d" -w "$tmp/all.pcap") || err "-w over 20,000 inputs"
[ "$(wc -c < "$tmp/all.pcap")" = 30000024 ] || err "-w over 20,000 inputs: $(wc -c < "$tmp/all.pcap") bytes"
"$G" -r "$tmp/d" -w "$tmp/d/c12345.pcap" --force 2> "$tmp/e"
[ $? = 2 ] && grep -q 'refusing to overwrite the capture being read' "$tmp/e" ||
	err "-w onto the 12,346th input: $(cat "$tmp/e")"

# named like captures, yet none: each skipped with a warning (before: not
# a word), the rest read
ln -s /nonexistent "$tmp/d/z1.pcap"
mkfifo "$tmp/d/z2.pcap"
"$G" -r "$tmp/d" --stats > /dev/null 2> "$tmp/e" || err "-r DIR with a dangling link and a FIFO"
grep -q "^gbpdump: warning: $tmp/d/z1.pcap: skipped (No such file or directory)$" "$tmp/e" &&
	grep -q "^gbpdump: warning: $tmp/d/z2.pcap: skipped (not a regular file)$" "$tmp/e" ||
	err "no warning for what was skipped: $(cat "$tmp/e")"
exit $fail
