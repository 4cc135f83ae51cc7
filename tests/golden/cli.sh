#!/bin/sh
# gbpdump command-line behaviour beyond one output: -w and what it refuses,
# exit statuses, --help.  Usage: cli.sh GBPDUMP GBPGEN FIXTURES
set -u
gbpdump=$1 gbpgen=$2 fix=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect_rc() { # expect_rc WANT DESC cmd...
	want=$1 desc=$2
	shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then ok; else bad "$desc: exit $rc, wanted $want ($(head -c 300 "$tmp/err"))"; fi
}

# -w writes exactly the matching frames, readable back
expect_rc 0 "-w --gbp" "$gbpdump" -r "$fix/basic-gbp.pcap" --gbp 0x200 -w "$tmp/web.pcap"
[ -s "$tmp/out" ] && bad "-w printed frames to stdout" || ok
n=$("$gbpdump" -r "$tmp/web.pcap" | wc -l)
[ "$n" -eq 4 ] && ok || bad "-w --gbp 0x200 wrote $n frames, wanted 4"
[ "$(stat -c %a "$tmp/web.pcap")" = "644" ] || [ "$(stat -c %a "$tmp/web.pcap")" = "$(printf '%o' $((0666 & ~$(umask))))" ] && ok || bad "-w file mode $(stat -c %a "$tmp/web.pcap")"
"$gbpdump" -r "$fix/basic-gbp.pcap" --gbp 0x200 > "$tmp/a"
"$gbpdump" -r "$tmp/web.pcap" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && ok || bad "frames read back from -w differ"

# refuses to overwrite its own input, even with --force, and leaves it intact
cp "$fix/basic-gbp.pcap" "$tmp/in.pcap"
expect_rc 2 "-w onto the input" "$gbpdump" -r "$tmp/in.pcap" -w "$tmp/in.pcap" --force
grep -q "refusing to overwrite the capture being read" "$tmp/err" && ok || bad "no clear message for -w onto the input"
cmp -s "$tmp/in.pcap" "$fix/basic-gbp.pcap" && ok || bad "input changed by a refused -w"
ln -s "$tmp/in.pcap" "$tmp/link.pcap"
expect_rc 2 "-w onto the input via a symlink" "$gbpdump" -r "$tmp/in.pcap" -w "$tmp/link.pcap" --force

# refuses an existing file without --force; replaces it with --force
echo keep > "$tmp/exists.pcap"
expect_rc 2 "-w onto an existing file" "$gbpdump" -r "$fix/basic-gbp.pcap" -w "$tmp/exists.pcap"
[ "$(cat "$tmp/exists.pcap")" = keep ] && ok || bad "existing file changed without --force"
expect_rc 0 "-w --force" "$gbpdump" -r "$fix/basic-gbp.pcap" -w "$tmp/exists.pcap" --force
[ "$("$gbpdump" -r "$tmp/exists.pcap" | wc -l)" -eq 10 ] && ok || bad "--force did not write all frames"

# an unwritable place: a clear error, exit 2, nothing left behind
expect_rc 2 "-w into a missing folder" "$gbpdump" -r "$fix/basic-gbp.pcap" -w "$tmp/no/such/dir/x.pcap"
[ -z "$(ls "$tmp" | grep '\.tmp\.')" ] && ok || bad "temporary file left behind"

# a truncated input with -w: frames before the error are kept, exit 1
expect_rc 1 "-w from a cut-short capture" "$gbpdump" -r "$fix/cut-short.pcap" -w "$tmp/cut.pcap"
grep -q "kept the 9 frames" "$tmp/err" && ok || bad "no note of the frames kept ($(cat "$tmp/err"))"

# usage errors
expect_rc 2 "no input" "$gbpdump"
expect_rc 2 "both -r and -i" "$gbpdump" -r x -i lo
expect_rc 2 "bad --gbp" "$gbpdump" -r "$fix/basic-gbp.pcap" --gbp 70000
expect_rc 2 "bad --vni" "$gbpdump" -r "$fix/basic-gbp.pcap" --vni -1
mkdir "$tmp/nocaps" # -r DIR reads the capture files in it: none here
expect_rc 2 "a directory" "$gbpdump" -r "$tmp/nocaps"
grep -q "is a directory" "$tmp/err" && ok || bad "directory: unclear message"
expect_rc 2 "an empty file" "$gbpdump" -r /dev/null
expect_rc 0 "--help" "$gbpdump" --help
grep -q "Exit status" "$tmp/out" && ok || bad "--help does not document exit statuses"

# gbpgen keeps existing files too
expect_rc 2 "gbpgen onto an existing file" "$gbpgen" -w "$tmp/exists.pcap" vni=1
expect_rc 1 "gbpgen bad spec" "$gbpgen" -w "$tmp/new.pcap" 'vni=99999999'
[ ! -e "$tmp/new.pcap" ] && ok || bad "gbpgen left a file after a bad spec"
# the VNI's bound exactly: 2^24 - 1 is a VNI, 2^24 is not
expect_rc 1 "gbpgen vni=16777216" "$gbpgen" -w "$tmp/vni.pcap" 'vni=16777216'
grep -q "spec 1: bad value '16777216' for vni" "$tmp/err" && ok || bad "vni=16777216: $(cat "$tmp/err")"
expect_rc 0 "gbpgen vni=16777215" "$gbpgen" -w "$tmp/vni.pcap" 'vni=16777215'
"$gbpdump" -r "$tmp/vni.pcap" | grep -q ' vni 16777215 ' && ok || bad "vni=16777215 not written"

# the pcap header's link type field carries the FCS length in its top
# bits (F, FCS len): the link type is the low bits, the frames the same
"$gbpdump" -r "$fix/basic-gbp.pcap" > "$tmp/plain.txt" 2>&1
# byte 23: the link type's top byte (little-endian file); 0xf4: F, length 15
{ head -c 23 "$fix/basic-gbp.pcap"; printf '\364'; tail -c +25 "$fix/basic-gbp.pcap"; } > "$tmp/fcs.pcap"
for reader in "" --libpcap; do
	# shellcheck disable=SC2086 # no reader option: nothing
	"$gbpdump" -r "$tmp/fcs.pcap" $reader > "$tmp/out" 2>&1
	cmp -s "$tmp/plain.txt" "$tmp/out" && ok || bad "link type with FCS bits ($reader): $(head -c 200 "$tmp/out")"
done

# a pcapng packet's original length below its captured length (as
# libpcap, the captured length stands): every EPB's cut to caplen - 1
python3 - "$fix/basic-gbp.pcapng" "$tmp/orig-short.pcapng" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
e = '<' if b[8:12] == bytes.fromhex('4d3c2b1a') else '>'
at = 0
while at + 12 <= len(b):
    t, n = struct.unpack_from(e + 'II', b, at)
    if t == 6:
        cap = struct.unpack_from(e + 'I', b, at + 20)[0]
        struct.pack_into(e + 'I', b, at + 24, cap - 1)
    at += n
open(sys.argv[2], 'wb').write(b)
PY
for opts in "-tt -v -e" "--stats"; do
	# shellcheck disable=SC2086
	"$gbpdump" -r "$fix/basic-gbp.pcapng" $opts > "$tmp/a" 2>&1
	# shellcheck disable=SC2086
	"$gbpdump" -r "$tmp/orig-short.pcapng" $opts > "$tmp/b" 2>&1
	cmp -s "$tmp/a" "$tmp/b" && ok || bad "pcapng original length < captured ($opts): $(diff "$tmp/a" "$tmp/b" | head -n 3)"
done

# -e: a VLAN tag's priority (top 3 bits) and DEI (bit 12) as tcpdump
# prints them; the fixtures' tags have neither
"$gbpgen" -w "$tmp/vlan.pcap" 'vni=100 gbp=0x200 vlan=0xb00a ivlan=0x6005 proto=icmp'
"$gbpdump" -r "$tmp/vlan.pcap" -e > "$tmp/out" 2>&1
grep -q 'length 100: vlan 10, p 5, DEI, ethertype IPv4 .* length 46: vlan 5, p 3, ethertype IPv4' "$tmp/out" &&
	ok || bad "VLAN priority and DEI: $(cat "$tmp/out")"

# -v: the ECN field's four values after the TOS (the outer IPv4 header's
# TOS byte rewritten: offset 55 = the pcap headers, Ethernet, one byte)
"$gbpgen" -w "$tmp/ecn.pcap" 'vni=100 gbp=0x200 proto=icmp'
for t in 1:ECT\(1\) 2:ECT\(0\) 3:CE; do
	{ head -c 55 "$tmp/ecn.pcap"; printf "\\00${t%%:*}"; tail -c +57 "$tmp/ecn.pcap"; } > "$tmp/ecn${t%%:*}.pcap"
	"$gbpdump" -r "$tmp/ecn${t%%:*}.pcap" -v > "$tmp/out" 2>&1
	grep -q "^[^ ]* IP (tos 0x${t%%:*},${t#*:}, ttl" "$tmp/out" && ok || bad "ECN ${t#*:}: $(head -c 120 "$tmp/out")"
done

# gbpgen's NSH header (RFC 8300): the 24-bit SPI and the SI where they
# belong, at 94 (the pcap headers, Ethernet, IPv4, UDP, GPE, 4 bytes of NSH)
"$gbpgen" -w "$tmp/nsh.pcap" 'vni=2004 gpe=nsh nsh-spi=0x123456 nsh-si=254'
[ "$(od -An -tx1 -j 94 -N 4 "$tmp/nsh.pcap" | tr -d ' \n')" = 123456fe ] && ok ||
	bad "gbpgen nsh-spi=0x123456 nsh-si=254: $(od -An -tx1 -j 90 -N 8 "$tmp/nsh.pcap")"

# gbpgen's variations: 300 flows have 300 inner source MACs (the MAC's
# second-last byte counts the flows past 255); vnis=4 spreads hosts over
# four VNIs
"$gbpgen" -w "$tmp/flows.pcap" 'count=300 flows=300 pick=cycle'
n=$("$gbpdump" -r "$tmp/flows.pcap" -e | grep -o '[0-9a-f:]\{17\} >' | awk 'NR % 2 == 0' | sort -u | wc -l)
[ "$n" -eq 300 ] && ok || bad "gbpgen flows=300: $n inner source MACs"
expect_rc 0 "gbpgen vnis=4" "$gbpgen" -w "$tmp/vnis.pcap" 'count=8 flows=8 pick=cycle hosts=8 vnis=4 vni=100'
[ "$("$gbpdump" -r "$tmp/vnis.pcap" | grep -o ' vni [0-9]*' | sort -u | tr -d '\n')" = " vni 100 vni 101 vni 102 vni 103" ] &&
	ok || bad "gbpgen vnis=4: $("$gbpdump" -r "$tmp/vnis.pcap" | grep -o ' vni [0-9]*' | sort -u | tr '\n' ' ')"

# GRE with R alone (RFC 1701 routing present): checksum and offset are
# there as with C; gbpgen sets C, the flags byte is rewritten to R
"$gbpgen" -w "$tmp/gre-c.pcap" 'vni=5 gbp=0x100 wrap=gre,proto=ipv4,csum=1'
# 74: the pcap headers (24 + 16), Ethernet (14), IPv4 (20)
{ head -c 74 "$tmp/gre-c.pcap"; printf '\100'; tail -c +76 "$tmp/gre-c.pcap"; } > "$tmp/gre-r.pcap"
"$gbpdump" -r "$tmp/gre-r.pcap" -v -tt > "$tmp/out" 2>&1
grep -q 'GREv0, Flags \[routing present\], sum 0x[0-9a-f]*, off 0x0, length 86: .* VXLAN-GBP vni 5 ' "$tmp/out" &&
	ok || bad "GRE with R: $(cat "$tmp/out")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
