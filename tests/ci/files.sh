#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# gbpdump --junit/--sarif as files and as a command line:
#  - an existing file is refused without --force (before the capture is
#    read; nothing printed, the file untouched, no temporary left) and
#    replaced with it; the capture itself, also through a symbolic link,
#    never, even with --force; a folder is refused; "-" and the same name
#    for both are usage errors;
#  - the report on standard output and the exit status are those of
#    --check alone (text and --json);
#  - a capture named with <&"' and non-ASCII bytes (UTF-8 and not): both
#    documents valid, the name in JUnit with U+FFFD for the bad byte, the
#    SARIF URI percent-encoded byte for byte; relative names against
#    %SRCROOT%, absolute ones as file: URIs;
#  - SARIF regions: the record in the capture (its 16-byte header says
#    16 + caplen = byteLength); pcapng (the same frames, from the spec of
#    fixtures/nonconforming.pcap): no region, the frame as a logical
#    location, the same results; gzip: no region, the offset in the
#    decompressed stream as a property;
#  - a write that fails: exit 2, the message, no file left;
#  - a capture cut short (exit 1): JUnit has an <error> test case, SARIF
#    executionSuccessful false and the error as a notification.
# files.sh GBPDUMP GBPGEN FIXTURES SCHEMAS WORKDIR
set -eu
gd=$1 gen=$2 fix=$3 schemas=$4 work=$5/files
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
valid() { # junit sarif
	xmllint --noout --schema "$schemas/junit-10.xsd" "$1" 2>/dev/null || bad "$1 is not valid JUnit"
	/usr/bin/python3 "$here/sarif_validate.py" "$schemas/sarif-schema-2.1.0.json" "$2" ||
		bad "$2 is not valid SARIF"
}
run() { # expected exit, args...
	want=$1
	shift
	rc=0
	"$gd" -q "$@" >out 2>err || rc=$?
	[ "$rc" -eq "$want" ] || bad "gbpdump $*: exit $rc, not $want ($(cat err))"
}
tmps() { find . -name '*.tmp.*' | wc -l; }

cp "$fix/nonconforming.pcap" cap.pcap

# ---- no clobbering ----
echo keep >exists.xml
run 2 -r cap.pcap --junit exists.xml
grep -q 'exists.xml: file exists; use --force to overwrite it' err || bad "message: $(cat err)"
[ ! -s out ] || bad "a report was printed though the file was refused"
[ "$(cat exists.xml)" = keep ] || bad "exists.xml was changed"
[ "$(tmps)" -eq 0 ] || bad "temporary files left"
echo keep >exists.sarif
run 2 -r cap.pcap --sarif exists.sarif
[ "$(cat exists.sarif)" = keep ] || bad "exists.sarif was changed"
run 4 -r cap.pcap --junit exists.xml --sarif exists.sarif --force
valid exists.xml exists.sarif
run 2 -r cap.pcap --sarif cap.pcap --force
grep -q 'refusing to overwrite the capture being read' err || bad "message: $(cat err)"
cmp -s cap.pcap "$fix/nonconforming.pcap" || bad "the capture was changed"
ln -s cap.pcap link.pcap
run 2 -r cap.pcap --junit link.pcap --force
cmp -s cap.pcap "$fix/nonconforming.pcap" || bad "the capture was changed through a link"
mkdir adir
run 2 -r cap.pcap --junit adir
grep -q 'adir: not a regular file' err || bad "message: $(cat err)"
run 2 -r cap.pcap --junit - 
grep -q -- '--junit -: standard output has the --check report' err || bad "message: $(cat err)"
run 2 -r cap.pcap --junit same --sarif same
grep -q -- '--junit and --sarif name the same file: same' err || bad "message: $(cat err)"
[ ! -e same ] || bad "'same' was written"
[ "$(tmps)" -eq 0 ] || bad "temporary files left"

# ---- the report and the exit status are --check's ----
for opt in "" --json; do
	for c in "$fix/nonconforming.pcap" "$fix/check/clean.pcap" \
		 "$fix/check/gbp.group-conflict.yes.pcap"; do
		rc1=0 rc2=0
		"$gd" -q -r "$c" --check $opt >plain.out || rc1=$?
		rm -f j.xml s.sarif
		"$gd" -q -r "$c" $opt --junit j.xml --sarif s.sarif >ci.out || rc2=$?
		[ "$rc1" -eq "$rc2" ] || bad "$c $opt: exit $rc2 with the files, $rc1 without"
		cmp -s plain.out ci.out || bad "$c $opt: the report differs with the files"
	done
done

# ---- escaping: a name with markup characters and non-ASCII bytes ----
name=$(printf 'ca<&"'"'"'pture \303\251 \377.pcap')
cp "$fix/nonconforming.pcap" "$name"
run 4 -r "$name" --junit esc.xml --sarif esc.sarif
valid esc.xml esc.sarif
run 4 -r "$work/$name" --junit abs.xml --sarif abs.sarif
valid abs.xml abs.sarif
/usr/bin/python3 - "$name" "$work" <<'EOF' || fail=1
import json, sys, urllib.parse, xml.etree.ElementTree as ET
name = sys.argv[1].encode("utf-8", "surrogateescape")
work = sys.argv[2].encode("utf-8", "surrogateescape")
ok = True
def check(what, got, want):
    global ok
    if got != want:
        print("FAIL: %s: %r, not %r" % (what, got, want))
        ok = False
text = name.decode("utf-8", "replace")        # the bad byte as U+FFFD
props = {p.get("name"): p.get("value") for p in ET.parse("esc.xml").iter("property")}
check("JUnit capture property", props["capture"], text)
check("JUnit suite name", ET.parse("esc.xml").find("testsuite").get("name"),
      text + " (profile strict)")
quote = lambda b: urllib.parse.quote(b, safe="/-._~")
for f, uri, base in (("esc.sarif", quote(name), "%SRCROOT%"),
                     ("abs.sarif", "file://" + quote(work + b"/" + name), None)):
    run = json.load(open(f, encoding="utf-8"))["runs"][0]
    loc = run["artifacts"][0]["location"]
    check(f + " artifact uri", loc["uri"], uri)
    check(f + " uriBaseId", loc.get("uriBaseId"), base)
    for r in run["results"]:
        al = r["locations"][0]["physicalLocation"]["artifactLocation"]
        check(f + " result uri", (al["uri"], al.get("uriBaseId"), al["index"]), (uri, base, 0))
sys.exit(0 if ok else 1)
EOF

# ---- regions: the frame's record in the capture; pcapng: none ----
"$gen" -w nc.pcapng --pcapng -f "$fix/specs/nonconforming.spec"
run 4 -r cap.pcap --sarif pcap.sarif
run 4 -r nc.pcapng --sarif pcapng.sarif
valid exists.xml pcapng.sarif
/usr/bin/python3 - cap.pcap <<'EOF' || fail=1
import json, struct, sys
cap = open(sys.argv[1], "rb").read()
a = json.load(open("pcap.sarif"))["runs"][0]["results"]
b = json.load(open("pcapng.sarif"))["runs"][0]["results"]
ok = len(a) > 0 and len(a) == len(b)
if not ok:
    print("FAIL: %d results from pcap, %d from pcapng" % (len(a), len(b)))
for r in a:
    reg = r["locations"][0]["physicalLocation"]["region"]
    off, n = reg["byteOffset"], reg["byteLength"]
    caplen = struct.unpack_from("<I", cap, off + 8)[0]
    if 16 + caplen != n or off + n > len(cap):
        print("FAIL: frame %d: region %d+%d, the record there holds %d bytes"
              % (r["properties"]["frame"], off, n, 16 + caplen))
        ok = False
for r, s in zip(a, b):
    loc = s["locations"][0]
    if "region" in loc["physicalLocation"] or \
       loc["logicalLocations"] != [{"name": "frame %d" % r["properties"]["frame"],
                                     "kind": "element"}] or \
       (r["ruleId"], r["properties"]["frame"]) != (s["ruleId"], s["properties"]["frame"]):
        print("FAIL: pcapng result %r" % s)
        ok = False
# frame numbers: the region's record is the n-th of the file
recs, off = [], 24
while off + 16 <= len(cap):
    recs.append(off)
    off += 16 + struct.unpack_from("<I", cap, off + 8)[0]
for r in a:
    if recs[r["properties"]["frame"] - 1] != r["locations"][0]["physicalLocation"]["region"]["byteOffset"]:
        print("FAIL: frame %d is not the record at its region" % r["properties"]["frame"])
        ok = False
sys.exit(0 if ok else 1)
EOF

# ---- a compressed capture: its record offsets are not the file's ----
gzip -c cap.pcap >cap.pcap.gz
run 4 -r cap.pcap.gz --junit z.xml --sarif z.sarif
valid z.xml z.sarif
[ "$(jq '[.runs[0].results[] | select(.locations[0].physicalLocation.region)] | length' z.sarif)" = 0 ] ||
	bad "a compressed capture's results have regions"
[ "$(jq -c '[.runs[0].results[].properties.decompressedOffset]' z.sarif)" = \
  "$(jq -c '[.runs[0].results[].locations[0].physicalLocation.region.byteOffset]' pcap.sarif)" ] ||
	bad "decompressedOffset is not the plain capture's byteOffset"
grep -q 'record at byte 24 of the decompressed capture' z.xml || bad "JUnit: offsets of a compressed capture"

# ---- a write that fails (the file size limit): exit 2, nothing left ----
rc=0
(trap '' XFSZ; ulimit -f 8; exec "$gd" -q -r cap.pcap --junit big.xml --sarif big.sarif \
	>/dev/null 2>err) || rc=$?
[ "$rc" -eq 2 ] || bad "a failed write: exit $rc, not 2"
grep -q 'big.sarif: write error: File too large (partial output removed)' err ||
	bad "message: $(cat err)"
if [ -e big.xml ] || [ -e big.sarif ] || [ "$(tmps)" -ne 0 ]; then
	bad "a failed write left files"
fi

# ---- a capture cut short: exit 1, the error in both ----
run 1 -r "$fix/cut-short.pcap" --junit cut.xml --sarif cut.sarif
valid cut.xml cut.sarif
xmllint --xpath 'string(//testcase[@name="capture.read"]/error/@message)' cut.xml |
	grep -q 'truncated record' || bad "no capture.read error test case"
[ "$(xmllint --xpath 'string(/testsuites/@errors)' cut.xml)" = 1 ] || bad "errors is not 1"
[ "$(jq -c '.runs[0].invocations[0] | [.executionSuccessful, .exitCode]' cut.sarif)" = '[false,1]' ] ||
	bad "SARIF invocation of a run cut short"
jq -e '.runs[0].invocations[0].toolExecutionNotifications[0].message.text |
	test("truncated record")' cut.sarif >/dev/null || bad "no notification of the error"

[ "$fail" -eq 0 ] && echo "files.sh: no clobbering, the same report and exit, escaping, regions, errors"
exit "$fail"
