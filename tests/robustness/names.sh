#!/bin/sh
# tests/robustness/names.sh GBPDUMP FIXTURES: a capture whose file name is
# not UTF-8 (byte 0xFF) gives valid UTF-8 in every structured output:
# --json, --stats --json, --check --json, --policy --json, --merge --json,
# --report, --junit, --sarif (common/escape.c writes U+FFFD for the byte).
set -u
G=$1 FIX=$2
. "$(dirname "$0")/lib.sh"
# valid FILE [json]: the file is UTF-8 (and JSON)
valid() {
	/usr/bin/python3 - "$@" <<'PY' || err "$1: not valid ${2:-UTF-8}"
import json, sys
t = open(sys.argv[1], 'rb').read().decode('utf-8')
if len(sys.argv) > 2:
    json.loads(t)
PY
}

cd "$tmp" || exit 1
name=$(printf '\377.pcap')
cp "$FIX/basic-gbp.pcap" "$name"
"$G" -r "$name" --json -c 1 > 1.json; valid 1.json json
"$G" -r "$name" --stats --json > 2.json; valid 2.json json
"$G" -r "$name" --check --json > 3.json; valid 3.json json
"$G" -r "$name" --json --groups "$FIX/policy/groups.txt" --policy "$FIX/policy/web.policy" \
	> 4.json; valid 4.json json
"$G" --merge --json 2.json > 5.json; valid 5.json json
grep -q '"name":"\\ufffd.pcap"' 2.json || err "no U+FFFD for the byte in --stats --json"
"$G" -r "$name" --report r.html; valid r.html
"$G" -r "$name" --check --junit j.xml --sarif s.sarif > /dev/null; valid j.xml; valid s.sarif json
exit $fail
