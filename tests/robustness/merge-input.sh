#!/bin/sh
# tests/robustness/merge-input.sh GBPDUMP FIXTURES: gbpdump --merge takes a
# summary only when every number in it means exactly one thing: no count
# that wraps once merged (exit 2), no key given twice (in an object or as
# a table row), no integer json-c would saturate, no group ID past 16 bits
# (plain VXLAN is null, as in the stats report), no file over the size cap
# (exit 2, --merge-max-size raises it).  Each refusal is one line naming
# the file and where in it.
set -u
G=$1 FIX=$2
. "$(dirname "$0")/lib.sh"


# edit FILE SED-EXPRESSION > OUT: the expression applied to the summary
# member only (the report before it has the same member names)
edit() {
	awk -v e="$2" 'BEGIN { RS = "\001" } {
		i = index($0, "\"summary\":"); head = substr($0, 1, i - 1); s = substr($0, i)
		printf "%s", head > "/dev/stderr"; print s }' "$1" 2> "$tmp/head" |
		sed "$2" > "$tmp/tail"
	cat "$tmp/head" "$tmp/tail"
}

"$G" -r "$FIX/basic-gbp.pcap" --stats --json > "$tmp/s.json"
"$G" -r "$FIX/plain-vxlan.pcap" --stats --json > "$tmp/plain.json"
"$G" -r "$FIX/check/gbp.group-conflict.yes.pcap" --check --json > "$tmp/c.json"
"$G" --merge "$tmp/s.json" "$tmp/s.json" > /dev/null || err "a normal merge failed"

# plain VXLAN is null, never 65536; the merge reads it back
grep -q '"groups":\[{"key":null,"frames":4,' "$tmp/plain.json" ||
	err "plain VXLAN's group is not null in the summary"
"$G" --merge "$tmp/plain.json" "$tmp/s.json" > "$tmp/m.txt" &&
	grep -q '(no gbp)' "$tmp/m.txt" || err "a summary with plain VXLAN did not merge"
edit "$tmp/s.json" 's/"key":1000,/"key":65536,/' > "$tmp/k.json"
refuse 1 "k.json: summary.groups\[3\].key: out of range" "$G" --merge "$tmp/k.json"
edit "$tmp/s.json" 's/"learned":512,/"learned":131072,/' > "$tmp/l.json"
refuse 1 "l.json: summary.endpoints\[0\].learned: out of range" "$G" --merge "$tmp/l.json"

# sums past 2^64-1: a resource error, nothing printed
edit "$tmp/s.json" 's/"frames":10,"bytes":1340,/"frames":10,"bytes":18446744073709551615,/' \
	> "$tmp/bytes.json"
refuse 2 "s.json: a count or frame number past 2^64-1" "$G" --merge "$tmp/bytes.json" "$tmp/s.json"
edit "$tmp/s.json" 's/"frames":10,"bytes":1340,/"frames":18446744073709551615,"bytes":1340,/' \
	> "$tmp/frames.json"
refuse 2 "past 2^64-1" "$G" --merge "$tmp/frames.json" "$tmp/s.json"
edit "$tmp/s.json" 's/{"key":100,"frames":7,/{"key":100,"frames":18446744073709551615,/' \
	> "$tmp/vni.json"
refuse 2 "past 2^64-1" "$G" --merge "$tmp/s.json" "$tmp/vni.json"
# one summary's pairs summing past 2^64-1 in one cell of the matrix: the
# pair 256 -> .20 moved into the cell of 256 -> .10 (512)
edit "$tmp/s.json" 's/"dst":"198.51.100.10","frames":2,/"dst":"198.51.100.10","frames":18446744073709551615,/; s/"addr":"198.51.100.20","learned":768,/"addr":"198.51.100.20","learned":512,/' \
	> "$tmp/cell.json"
grep -q '"learned":512,.*"learned":512,' "$tmp/cell.json" || err "cell.json: the edit did not apply"
refuse 2 "a cell of the group matrix passes 2^64-1" "$G" --merge "$tmp/cell.json"

# integers json-c would saturate
edit "$tmp/s.json" 's/"frames":10,"bytes":1340,/"frames":18446744073709551616,"bytes":1340,/' \
	> "$tmp/sat.json"
refuse 1 "sat.json: byte [0-9]*: an integer past 64 bits" "$G" --merge "$tmp/sat.json"
edit "$tmp/s.json" 's/"frames":10,"bytes":1340,/"frames":-9223372036854775809,"bytes":1340,/' \
	> "$tmp/neg.json"
refuse 1 "neg.json: byte [0-9]*: an integer past 64 bits" "$G" --merge "$tmp/neg.json"
edit "$tmp/s.json" 's/"frames":10,"bytes":1340,/"frames":010,"bytes":1340,/' > "$tmp/lz.json"
refuse 1 "lz.json: byte [0-9]*: not JSON" "$G" --merge "$tmp/lz.json"
edit "$tmp/s.json" 's/"frames":10,"bytes":1340,/"frames":10,"bytes":1340,"x":[00],/' > "$tmp/z.json"
refuse 1 "z.json: byte [0-9]*: not JSON (a number with a leading zero)" "$G" --merge "$tmp/z.json"

# one meaning per key: an object's member twice, a table's key twice or
# out of order
edit "$tmp/s.json" 's/"frames":10,"bytes":1340,/"frames":10,"bytes":1340,"frames":11,/' \
	> "$tmp/dup.json"
refuse 1 "dup.json: byte [0-9]*: the key \"frames\" twice in one object" "$G" --merge "$tmp/dup.json"
edit "$tmp/s.json" 's/{"key":100,"frames":7,"bytes":1000}/&,&/' > "$tmp/row.json"
refuse 1 "row.json: summary.vnis\[1\]: a key out of order or twice" "$G" --merge "$tmp/row.json"
edit "$tmp/s.json" 's/{"key":100,"frames":7,"bytes":1000},{"key":200,"frames":3,"bytes":340}/{"key":200,"frames":3,"bytes":340},{"key":100,"frames":7,"bytes":1000}/' \
	> "$tmp/order.json"
refuse 1 "order.json: summary.vnis\[1\]: a key out of order" "$G" --merge "$tmp/order.json"
edit "$tmp/c.json" 's/"options":{"mode":"check"/"options":{"mode":"check","mode":"check"/' \
	> "$tmp/cdup.json"
refuse 1 "cdup.json: byte [0-9]*: the key \"mode\" twice" "$G" --merge "$tmp/cdup.json"

# the size cap: a resource error, before the whole file is in memory
head -c 2100000 /dev/zero | tr '\0' ' ' > "$tmp/big.json"
refuse 2 "big.json: larger than 2097152 bytes (a summary this large needs --merge-max-size)" "$G" \
	--merge --merge-max-size 2M "$tmp/big.json"
s=$(wc -c < "$tmp/s.json")
refuse 2 "s.json: larger than $((s - 1)) bytes" "$G" --merge --merge-max-size $((s - 1)) "$tmp/s.json"
"$G" --merge --merge-max-size "$s" "$tmp/s.json" > /dev/null || err "a summary of exactly the cap"
# the default cap: 1 GiB read, no more
refuse 2 "/dev/zero: larger than 1073741824 bytes" "$G" --merge /dev/zero
refuse 2 "expected a positive size" "$G" --merge --merge-max-size 0 "$tmp/s.json"
refuse 2 "--merge-max-size goes with --merge" "$G" -r "$FIX/basic-gbp.pcap" --merge-max-size 1M
exit $fail
