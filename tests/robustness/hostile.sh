#!/bin/sh
# hostile.sh GBPDUMP FIXTURES WORKDIR
# Hostile inputs (issue 6): each must end within the timeout with the exit
# status gbpdump --help documents (0 all read, 1 data lost, 2 usage/I/O) and,
# when it fails, one line on stderr that starts "gbpdump: " and names the file
# (and the frame and offset where one applies).  Both readers (the fast
# classic-pcap one and --libpcap) are run on every capture.
set -u
gd=$1 fix=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 2
fails=0
T=20

le32() { # little-endian 32-bit
	v=$1
	printf "\\$(printf %03o $((v & 255)))\\$(printf %03o $(((v >> 8) & 255)))"
	printf "\\$(printf %03o $(((v >> 16) & 255)))\\$(printf %03o $(((v >> 24) & 255)))"
}
filehdr() { # snaplen linktype
	le32 2712847316; printf '\002\000\004\000'; le32 0; le32 0; le32 "$1"; le32 "$2"
}
rechdr() { le32 "$1"; le32 "$2"; le32 "$3"; le32 "$4"; }
tail -c +25 "$fix/basic-gbp.pcap" >records       # the records of a good capture
first=$(od -An -tu4 -j32 -N4 "$fix/basic-gbp.pcap" | tr -d ' ')
tail -c +41 "$fix/basic-gbp.pcap" | head -c "$first" >frame1

# check NAME EXPECTED_RC STDERR_PATTERN ARGS...: run gbpdump ARGS with a
# timeout; the exit status must be EXPECTED_RC; stderr must be empty (rc 0)
# or one line matching STDERR_PATTERN (grep -E).
check() {
	name=$1 want=$2 pat=$3
	shift 3
	timeout $T "$gd" "$@" >out.txt 2>err.txt <"${STDIN:-/dev/null}"
	rc=$?
	lines=$(wc -l <err.txt)
	ok=1
	[ "$rc" = "$want" ] || ok=0
	if [ "$want" = 0 ]; then
		[ "$lines" = 0 ] || ok=0
	else
		[ "$lines" = 1 ] && grep -Eq "^gbpdump: .*$pat" err.txt || ok=0
	fi
	if [ $ok = 1 ]; then
		echo "ok   $name (exit $rc) $(cat err.txt)"
	else
		echo "FAIL $name: exit $rc (want $want), stderr ($lines lines, want /$pat/):"
		sed 's/^/     /' err.txt
		fails=$((fails + 1))
	fi
}
# both readers
check2() {
	name=$1 want=$2 pat=$3
	shift 3
	check "$name" "$want" "$pat" "$@"
	cp out.txt out.fast
	check "$name (--libpcap)" "$want" "$pat" --libpcap "$@"
	if ! cmp -s out.fast out.txt; then
		echo "FAIL $name: the fast reader and --libpcap printed different frames"
		fails=$((fails + 1))
	fi
}

{ filehdr 0 1; cat records; } >snaplen-0.pcap
check2 "snaplen 0 (means the maximum)" 0 "" -r snaplen-0.pcap
{ filehdr 4294967295 1; cat records; } >snaplen-max.pcap
check2 "snaplen 2^32-1 (means the maximum)" 0 "" -r snaplen-max.pcap
{ filehdr 262144 1; rechdr 1700000000 0 4294967295 4294967295; cat frame1; } >rec-4g.pcap
check2 "record claiming 4 GB" 1 "rec-4g.pcap: frame 1.*(4294967295|bigger)" -r rec-4g.pcap
{ filehdr 262144 1; rechdr 1700000000 0 2000000000 2000000000; cat frame1; } >rec-2g.pcap
check2 "record claiming 2 GB" 1 "rec-2g.pcap: frame 1" -r rec-2g.pcap
{ filehdr 262144 1; rechdr 1700000100 0 "$first" "$first"; cat frame1
  rechdr 1700000000 0 "$first" "$first"; cat frame1
  rechdr 4294967295 999999 "$first" "$first"; cat frame1; } >backwards.pcap
check2 "backwards and after-2038 timestamps (printed as they are)" 0 "" -r backwards.pcap -tt
grep -q '^1700000000\.000000 ' out.fast && grep -q '^4294967295\.999999 ' out.fast || {
	echo "FAIL backwards timestamps: not printed as recorded"; fails=$((fails + 1)); }
{ filehdr 262144 1; rechdr 1700000000 4000000000 "$first" "$first"; cat frame1; } >bad-usec.pcap
check2 "microseconds >= 10^6 (clamped to .999999)" 0 "" -r bad-usec.pcap -tt
{ filehdr 262144 147; cat records; } >link-147.pcap
check2 "unknown link type 147 (a short line per frame)" 0 "" -r link-147.pcap
grep -q "unsupported link type" out.fast || { echo "FAIL link 147: no 'unsupported link type'"; fails=$((fails + 1)); }
size=$(wc -c <"$fix/basic-gbp.pcap")
head -c $((size - 7)) "$fix/basic-gbp.pcap" >mid-record.pcap
check2 "file ending mid-record" 1 "mid-record.pcap: frame [0-9]+.*(truncated|only got)" -r mid-record.pcap
head -c 30 "$fix/basic-gbp.pcap" >mid-rechdr.pcap
check2 "file ending inside a record header" 1 "mid-rechdr.pcap: frame 1.*(truncated|only got)" -r mid-rechdr.pcap
head -c 20 "$fix/basic-gbp.pcap" >mid-filehdr.pcap
check "file ending inside the file header" 2 "mid-filehdr.pcap" -r mid-filehdr.pcap
: >empty.pcap
check "empty file" 2 "empty.pcap: empty" -r empty.pcap

# a filter on a raw-IP capture (LINKTYPE_RAW 101 is libpcap's DLT_RAW 12)
check2 "BPF filter on a raw-IP (link type 101) capture" 0 "" -r "$fix/regress/reader/raw-ip-linktype-101.pcap" udp
grep -q "VXLAN-GBP vni 100" out.fast || { echo "FAIL raw IP filter: frame not printed"; fails=$((fails + 1)); }

# pcapng: a block whose total length is not a multiple of 4, and one that
# claims more than the file holds
ng=$fix/basic-gbp.pcapng
shblen=$(od -An -tu4 -j4 -N4 "$ng" | tr -d ' ')
{ head -c 4 "$ng"; le32 $((shblen + 1)); tail -c +9 "$ng"; } >odd-shb.pcapng
check "pcapng section header of odd length" 2 "odd-shb.pcapng" -r odd-shb.pcapng
idblen=$(od -An -tu4 -j$((shblen + 4)) -N4 "$ng" | tr -d ' ')
epb=$((shblen + idblen))
{ head -c $((epb + 4)) "$ng"; le32 1023; tail -c +$((epb + 9)) "$ng"; } >odd-epb.pcapng
check "pcapng packet block of odd length" 1 "odd-epb.pcapng: frame 1" -r odd-epb.pcapng
{ head -c $((epb + 4)) "$ng"; le32 4000000000; tail -c +$((epb + 9)) "$ng"; } >huge-epb.pcapng
check "pcapng packet block claiming 4 GB" 1 "huge-epb.pcapng: frame 1" -r huge-epb.pcapng
head -c $((epb + 50)) "$ng" >cut.pcapng
check "pcapng ending mid-block" 1 "cut.pcapng: frame 1" -r cut.pcapng

# not regular files
mkfifo fifo
(cat "$fix/basic-gbp.pcap" >fifo &)
check "a FIFO with a writer" 0 "" -r fifo
cmp -s out.txt "$(printf '%s' out.fast)" >/dev/null 2>&1
(: >fifo &)
check "a FIFO closed without data" 2 "fifo: empty" -r fifo
mkdir -p nocaps # -r DIR reads the capture files in it: none here
check "a directory" 2 "nocaps: is a directory" -r nocaps
check "/dev/zero" 2 "/dev/zero: " -r /dev/zero
check "a missing file" 2 "nope.pcap: No such file" -r nope.pcap
STDIN=$fix/basic-gbp.pcap check "standard input" 0 "" -r -
STDIN=mid-record.pcap check "standard input ending mid-record" 1 "stdin.*frame [0-9]+" -r -
timeout $T "$gd" -r - <"$fix/basic-gbp.pcap" >stdin.txt 2>&1
timeout $T "$gd" -r "$fix/basic-gbp.pcap" >file.txt 2>&1
cmp -s stdin.txt file.txt || { echo "FAIL standard input: output differs from -r FILE"; fails=$((fails + 1)); }

# Regular files are read with read(2) (reader.c): one that shrinks under
# the reader gets the one-line error (read(2) ends before the size at
# open), one that grows is read to its new end.  big.pcap: 2^11 copies of
# the records, many read chunks; gbpdump blocks on a full pipe early on
# while the file changes.
cp records big.rec
for i in 1 2 3 4 5 6 7 8 9 10 11; do cat big.rec big.rec >big.tmp && mv big.tmp big.rec; done
nbig=$(( $("$gd" -r "$fix/basic-gbp.pcap" | wc -l) * 2048 ))
{ head -c 24 "$fix/basic-gbp.pcap"; cat big.rec; } >big.pcap
{ timeout $T "$gd" -r big.pcap 2>err.txt; echo $? >rc.txt; } |
	{ sleep 1; truncate -s 30000 big.pcap; cat >/dev/null; }
rc=$(cat rc.txt)
if [ "$rc" = 1 ] && [ "$(wc -l <err.txt)" = 1 ] &&
   grep -Eq "^gbpdump: big.pcap: frame [0-9]+ at offset [0-9]+: the file shrank" err.txt; then
	echo "ok   a file truncated while it is read (exit 1) $(cat err.txt)"
else
	echo "FAIL a file truncated while it is read: exit $rc: $(cat err.txt)"; fails=$((fails + 1))
fi
head -c 3000000 big.rec >grow.rec.1
{ head -c 24 "$fix/basic-gbp.pcap"; cat grow.rec.1; } >grow.pcap
tail -c +3000001 big.rec >grow.rec.2
{ timeout $T "$gd" -r grow.pcap 2>err.txt; echo $? >rc.txt; } |
	{ sleep 1; cat grow.rec.2 >>grow.pcap; wc -l >lines.txt; }
if [ "$(cat rc.txt)" = 0 ] && [ "$(cat lines.txt)" = "$nbig" ] && [ ! -s err.txt ]; then
	echo "ok   a file that grows while it is read: all $nbig frames"
else
	echo "FAIL a file that grows while it is read: exit $(cat rc.txt), $(cat lines.txt) of $nbig frames: $(cat err.txt)"
	fails=$((fails + 1))
fi
rm -f big.rec big.pcap grow.pcap grow.rec.*

# -w
cp "$fix/basic-gbp.pcap" in.pcap
sum_before=$(cksum <in.pcap)
check "-w onto its own input" 2 "in.pcap" -r in.pcap -w in.pcap
check "-w onto its own input, --force" 2 "in.pcap" -r in.pcap -w in.pcap --force
ln -s in.pcap link.pcap
check "-w onto its input through a symlink, --force" 2 "link.pcap|in.pcap" -r in.pcap -w link.pcap --force
[ "$(cksum <in.pcap)" = "$sum_before" ] || { echo "FAIL -w: the input changed"; fails=$((fails + 1)); }
check "-w into a missing directory" 2 "nodir/x.pcap" -r in.pcap -w nodir/x.pcap
mkdir ro && chmod 555 ro
if [ "$(id -u)" != 0 ]; then
	check "-w into a read-only directory" 2 "ro/x.pcap" -r in.pcap -w ro/x.pcap
fi
check "-w to /dev/full" 2 "/dev/full|No space" -r in.pcap -w /dev/full --force
# a cut capture with -w: the error, then a second line saying what was kept
timeout $T "$gd" -r mid-record.pcap -w part.pcap >out.txt 2>err.txt
rc=$?
if [ $rc = 1 ] && grep -q "^gbpdump: mid-record.pcap: frame 10 " err.txt &&
   grep -q "^gbpdump: part.pcap: kept the 9 frames" err.txt &&
   [ "$(timeout $T "$gd" -r part.pcap | wc -l)" = 9 ]; then
	echo "ok   -w from a cut capture keeps the 9 frames read, says so (exit 1)"
else
	echo "FAIL -w from a cut capture: exit $rc: $(cat err.txt)"; fails=$((fails + 1))
fi
ls .gbpdump* *.tmp 2>/dev/null | grep . && { echo "FAIL -w: temporary files left"; fails=$((fails + 1)); }
# stdout that cannot be written
timeout $T "$gd" -r in.pcap >/dev/full 2>err.txt
rc=$?
if [ $rc = 2 ] && grep -q "standard output" err.txt; then echo "ok   stdout /dev/full (exit 2)"
else echo "FAIL stdout /dev/full: exit $rc: $(cat err.txt)"; fails=$((fails + 1)); fi

echo "hostile.sh: $fails failure(s)"
[ $fails = 0 ]
