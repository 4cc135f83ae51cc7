#!/bin/sh
# tests/robustness/report-size.sh GBPDUMP GBPGEN: --report and --stats --dot
# on a capture of 60,004 groups and 81,701 VNIs stay small and readable
# (issue 30: 60,000 groups once made a 176 MB page).  The page lists the
# 99 VNIs and groups with the most frames (the lower number on a tie) and
# one "other (N ...)" row, says so, and its rows add up to --stats --json's
# numbers exactly; the DOT has the 29 busiest groups and one "other" node,
# its edges adding up to the matrix.  A few groups are made busier than
# the rest, so the choice is seen.
set -u
G=$1 GEN=$2
. "$(dirname "$0")/lib.sh"

"$GEN" -w "$tmp/many.pcap" \
	"count=81700 hosts=81700 flows=81700 groups=65535 gbp=0 vnis=81700" \
	"count=300 gbp=64000 vni=16000000" "count=200 gbp=64001 vni=16000001" \
	"count=100 gbp=64002" > /dev/null || { echo "FAIL: gbpgen"; exit 1; }
"$G" -r "$tmp/many.pcap" --stats --json > "$tmp/stats.json" || err "--stats --json: exit $?"
"$G" -r "$tmp/many.pcap" --report "$tmp/r.html" 2> "$tmp/err" || err "--report: exit $?"
[ ! -s "$tmp/err" ] || err "--report: $(head -c 300 "$tmp/err")"
"$G" -r "$tmp/many.pcap" --stats --dot > "$tmp/g.dot" || err "--stats --dot: exit $?"
size=$(wc -c < "$tmp/r.html") dsize=$(wc -c < "$tmp/g.dot")
[ "$size" -lt 400000 ] || err "--report: $size bytes for 60,004 groups"
[ "$dsize" -lt 20000 ] || err "--stats --dot: $dsize bytes for 60,004 groups"
echo "report $size bytes, DOT $dsize bytes"

/usr/bin/python3 - "$tmp/stats.json" "$tmp/r.html" "$tmp/g.dot" <<'PY' || fail=1
import json, re, sys
st = json.load(open(sys.argv[1]))['stats']
page = open(sys.argv[2]).read()
dot = open(sys.argv[3]).read()
bad = []

def table(cls):
    m = re.search(r'<table class="%s">.*?<tbody>\n(.*?)</tbody>' % cls, page, re.S)
    rows = []
    for tr in re.findall(r'<tr>(.*?)</tr>', m.group(1)):
        cells = re.findall(r'<td[^>]*>(.*?)</td>', tr)
        name = cells[0] if cls == 'vni' or cells[0].startswith('other (') else cells[1]
        rows.append((name, int(cells[-4]), int(cells[-2])))
    return rows

def check(cls, items, key, word, label):
    rows = table(cls)
    n = len(items)
    top = sorted(items, key=lambda x: (-x['frames'], x[key]))[:99]
    want = [label(x) for x in sorted(top, key=lambda x: x[key])]
    if [r[0] for r in rows[:-1]] != want:
        bad.append('%s: the rows listed are not the 99 with the most frames' % cls)
    if rows[-1][0] != 'other (%d %s)' % (n - 99, word):
        bad.append('%s: last row %r' % (cls, rows[-1][0]))
    for i, what in ((1, 'frames'), (2, 'bytes')):
        if sum(r[i] for r in rows) != sum(x[what] for x in items):
            bad.append('%s: the rows do not add up to the %s' % (cls, what))
    note = '<p>%d %s: the 99 with the most frames are listed, the other %d in the last row.</p>' % (n, word, n - 99)
    if note not in page:
        bad.append('%s: the page does not say it folded' % cls)

check('vni', st['vni'], 'vni', 'VNIs', lambda x: str(x['vni']))
gs = [x for x in st['groups'] if x['group'] is not None]
if len(gs) != len(st['groups']) or len(gs) < 60000:
    bad.append('the capture has %d groups' % len(st['groups']))
check('groups', gs, 'group', 'groups', lambda x: '0x%04x (%d)' % (x['group'], x['group']))
for g in (64000, 64001, 64002):
    if '<td class="mono">0x%04x (%d)</td>' % (g, g) not in page:
        bad.append('group %d, among the busiest, not listed' % g)

edges = re.findall(r'-> \S+ \[label="(\d+) frames?\\n(\d+) bytes', dot)
if sum(int(f) for f, _ in edges) != sum(c['frames'] for c in st['matrix']) or \
   sum(int(b) for _, b in edges) != sum(c['bytes'] for c in st['matrix']):
    bad.append('DOT: the edges do not add up to the matrix')
if len(re.findall(r'^  \w+ \[label=', dot, re.M)) != 30 or 'other groups (' not in dot:
    bad.append('DOT: not 29 groups and one "other groups" node')
for b in bad:
    print('FAIL:', b)
sys.exit(1 if bad else 0)
PY
exit $fail
