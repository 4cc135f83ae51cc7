#!/bin/sh
# compressed-errors.sh GBPDUMP GBPGEN FIXTURES WORKDIR [asan]
# Damaged compressed captures (issue 14): for gzip, zstd and xz, a stream
# with bytes overwritten mid-way and a stream cut short must each end with
# exit 1 and one line on stderr naming the file, the format, the compressed
# offset and the capture offset ("corrupt" or "truncated"), after printing
# the frames before it (for a cut stream exactly the uncompressed output's
# first lines, and the compressed offset is where the file ends); the same
# through --libpcap (pcapng inside) and from a pipe.  Damage at eight
# places: the compressed offset named is where the decoder stopped, past
# the damage (issue 30: zstd named offset 0).
# A compressed file that holds no capture says so as the uncompressed file
# does.  A small file that decompresses to 262 MB reads in bounded memory
# (peak RSS, not under ASan: "asan" as 5th argument).  -w never replaces a
# compressed input.
set -u
gd=$1 gen=$2 fix=$3 work=$4 asan=${5:-}
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 2
fails=0 n=0
T=60

fail() {
	echo "FAIL $*"
	fails=$((fails + 1))
}

# zip EXT SRC: SRC compressed with the tool of EXT, to standard output
zip() {
	case $1 in
	gz) gzip -c "$2" ;;
	zst) zstd -q -c "$2" ;;
	xz) xz -c "$2" ;;
	esac
}
fmt_of() { case $1 in gz) echo gzip ;; zst) echo zstd ;; xz) echo xz ;; esac; }

# expect NAME WANT_RC PATTERN ARGS...: exit status, one stderr line
# matching "^gbpdump: PATTERN"; stdout in out.txt
expect() {
	e_name=$1 e_want=$2 e_pat=$3
	shift 3
	n=$((n + 1))
	timeout $T "$gd" "$@" >out.txt 2>err.txt <"${STDIN:-/dev/null}"
	rc=$?
	if [ $rc != "$e_want" ] || [ "$(wc -l <err.txt)" != 1 ] ||
		! grep -Eq "^gbpdump: $e_pat" err.txt; then
		fail "$e_name: exit $rc (want $e_want), stderr (want /$e_pat/):"
		sed 's/^/     /' err.txt
		return 1
	fi
	echo "ok   $e_name: $(cat err.txt)"
}

# prefix NAME: out.txt is non-empty and the first bytes of ref.txt
prefix() {
	size=$(wc -c <out.txt)
	if [ "$size" = 0 ] || ! head -c "$size" ref.txt | cmp -s - out.txt; then
		fail "$1: the output before the error ($size bytes) is not the start of the uncompressed file's"
	fi
}

# damaged CAP EXT SIZE: 64 bytes of 0xff at 64 and at each eighth of the
# compressed file.  Where the decoder finds it (the damage may also pass
# it and reach the capture reader), the compressed offset it names is past
# the damage's start and within 256 KiB of its end (libzstd reports no
# position of its own: it is given one block a call), and the exit status
# is 1 (2 while the capture's first bytes cannot be read: it cannot be
# opened).  (What was decoded before a check caught the damage is printed,
# as zcat, zstdcat and xzcat write it.)
damaged() {
	d_seen=0
	for d_at in 64 $(($3 / 8)) $(($3 * 2 / 8)) $(($3 * 3 / 8)) $(($3 * 4 / 8)) \
		$(($3 * 5 / 8)) $(($3 * 6 / 8)) $(($3 * 7 / 8)); do
		cp $1.$2 dmg.$2
		dd if=ff64 of=dmg.$2 bs=1 seek=$d_at conv=notrunc 2>/dev/null
		timeout $T "$gd" -r dmg.$2 -tt >out.txt 2>err.txt
		d_rc=$?
		d_c=$(sed -n "s/^gbpdump: dmg.$2: $(fmt_of $2) data corrupt at compressed offset \([0-9]*\) (capture offset \([0-9]*\)).*/\1 \2/p" err.txt)
		[ -n "$d_c" ] || continue
		n=$((n + 1)) d_seen=$((d_seen + 1))
		set -- "$1" "$2" "$3" $d_c
		if [ "$4" -lt $d_at ] || [ "$4" -gt $((d_at + 64 + 262144)) ] || [ "$4" -gt "$3" ]; then
			fail "$1.$2 damaged at $d_at: $(cat err.txt)"
		elif [ $d_rc != 1 ] && { [ $d_rc != 2 ] || [ "$5" -ge 4096 ]; }; then
			fail "$1.$2 damaged at $d_at: exit $d_rc: $(cat err.txt)"
		else
			echo "ok   $1.$2 damaged at $d_at: exit $d_rc: $(cat err.txt)"
		fi
		set -- "$1" "$2" "$3"
	done
	[ $d_seen -ge 3 ] || fail "$1.$2: the decoder found only $d_seen of 8 damages"
}

spec="count=20000 flows=100 vni=100 gbp=512 proto=udp payload=300 step=1000"
if ! "$gen" -w big.pcap --force "$spec" || ! "$gen" -w big.pcapng --pcapng --force "$spec"; then
	echo "FAIL: gbpgen"
	exit 1
fi
head -c 64 /dev/zero | tr '\0' '\377' >ff64
for cap in big.pcap big.pcapng; do
	"$gd" -r $cap -tt >ref.txt 2>/dev/null
	for ext in gz zst xz; do
		f=$(fmt_of $ext)
		zip $ext $cap >$cap.$ext
		size=$(wc -c <$cap.$ext)
		# 64 bytes of 0xff in the middle of the stream
		cp $cap.$ext bad.$cap.$ext
		dd if=ff64 of=bad.$cap.$ext bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
		pat="bad.$cap.$ext: $f data corrupt at compressed offset [1-9][0-9]* \(capture offset [1-9][0-9]*\)"
		if expect "$cap.$ext corrupt" 1 "$pat" -r bad.$cap.$ext -tt && [ ! -s out.txt ]; then
			fail "$cap.$ext corrupt: nothing printed before the error"
		fi
		expect "$cap.$ext corrupt --stats" 1 "$pat" -r bad.$cap.$ext --stats
		damaged $cap $ext $size
		# cut in the middle
		head -c $((size / 2)) $cap.$ext >cut.$cap.$ext
		# the capture offset: what the format's own tool gets out of it
		got=$(case $ext in gz) zcat ;; zst) zstdcat -q ;; xz) xzcat ;; esac <cut.$cap.$ext 2>/dev/null | wc -c)
		pat="$f data truncated at compressed offset $((size / 2)) \(capture offset $got\)"
		expect "$cap.$ext cut short" 1 "cut.$cap.$ext: $pat" -r cut.$cap.$ext -tt &&
			prefix "$cap.$ext cut short"
		expect "$cap.$ext cut short --check" 1 "cut.$cap.$ext: $pat" -r cut.$cap.$ext --check
		expect "$cap.$ext cut short --libpcap" 1 "cut.$cap.$ext: $pat" \
			-r cut.$cap.$ext --libpcap -tt && prefix "$cap.$ext cut short --libpcap"
		STDIN=cut.$cap.$ext expect "$cap.$ext cut short, standard input" 1 \
			"\(stdin\): $pat" -r - -tt && prefix "$cap.$ext cut short, standard input"
		# cut inside the first bytes: the reader cannot even open it
		head -c 20 $cap.$ext >tiny.$ext
		expect "$cap.$ext cut after 20 bytes" 2 "tiny.$ext: $f data truncated" -r tiny.$ext
	done
done
"$gd" -r big.pcap -tt >ref.txt
# shellcheck disable=SC2002 # a pipe on purpose
if ! cat big.pcap.gz | "$gd" -r - -tt >out.txt 2>err.txt || ! cmp -s ref.txt out.txt; then
	fail "big.pcap.gz from a pipe differs from big.pcap"
fi
# after the last gzip member: zero padding is ignored (as gzip -d does),
# anything else is an error once every frame is printed
{ cat big.pcap.gz; head -c 1000 /dev/zero; } >padded.gz
if ! "$gd" -r padded.gz -tt >out.txt 2>err.txt || ! cmp -s ref.txt out.txt || [ -s err.txt ]; then
	fail "padded.gz: zero padding after the gzip member not ignored: $(cat err.txt)"
fi
{ cat big.pcap.gz; echo garbage; } >garbage.gz
expect "gzip member, then garbage" 1 \
	"garbage.gz: gzip data corrupt at compressed offset $(wc -c <big.pcap.gz) \(capture offset $(wc -c <big.pcap)\): trailing bytes are not another gzip member" \
	-r garbage.gz -tt && ! cmp -s ref.txt out.txt && fail "garbage.gz: not every frame printed"

# Not a capture inside: the message the uncompressed file gets, with the
# compression named, and the same exit status.
for payload in "$fix/groups.txt" empty; do
	[ "$payload" = empty ] && : >empty
	"$gd" -r "$payload" >/dev/null 2>err.plain
	prc=$?
	for ext in gz zst xz; do
		zip $ext "$payload" >payload.$ext
		want=$(sed "s|^gbpdump: $payload: \([^:]*\)|gbpdump: payload.$ext: \1 ($(fmt_of $ext)-compressed)|" err.plain)
		"$gd" -r payload.$ext >/dev/null 2>err.txt
		rc=$?
		n=$((n + 1))
		if [ $rc != $prc ] || [ "$(cat err.txt)" != "$want" ]; then
			fail "$payload.$ext: exit $rc (want $prc): '$(cat err.txt)', want '$want'"
		else
			echo "ok   $payload.$ext: $(cat err.txt)"
		fi
	done
done

# Bounded memory: 1000 records of 262144 zero bytes (262 MB) in a few kB
# (gzip: 1 MB; xz, slow to decompress, 250 records).
python3 -c '
import struct, sys
o = sys.stdout.buffer
o.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 262144, 1))
h = struct.pack("<IIII", 1700000000, 0, 262144, 262144)
for i in range(int(sys.argv[1])):
	o.write(h + bytes(262144))
' 1000 >bomb.pcap
gzip -1 -c bomb.pcap >bomb.gz
zstd -q -1 -c bomb.pcap >bomb.zst
head -c $((24 + 250 * 262160)) bomb.pcap | xz -0 -c >bomb.xz
rm -f bomb.pcap
for ext in gz zst xz; do
	want=1000
	[ $ext = xz ] && want=250
	n=$((n + 1))
	if [ "$asan" = asan ] || [ ! -x /usr/bin/time ]; then
		timeout $T "$gd" -r bomb.$ext --stats >out.txt 2>err.txt
		rc=$? rss=
	else
		timeout $T /usr/bin/time -f %M -o rss.txt "$gd" -r bomb.$ext --stats >out.txt 2>err.txt
		rc=$? rss=$(tail -n 1 rss.txt)
	fi
	if [ $rc != 0 ] || ! head -n 1 out.txt | grep -q "^$want frames, $((want * 262144)) bytes"; then
		fail "bomb.$ext ($(wc -c <bomb.$ext) bytes): exit $rc, $(head -n 1 out.txt) $(cat err.txt)"
	elif [ -n "$rss" ] && [ "$rss" -gt 65536 ]; then
		fail "bomb.$ext: peak RSS $rss kB for $want frames of 262144 bytes: not bounded"
	else
		echo "ok   bomb.$ext ($(wc -c <bomb.$ext) bytes -> $((want * 262144)) bytes): peak RSS ${rss:-?} kB"
	fi
done

# -w never replaces the compressed capture it reads, even with --force
sum=$(cksum <big.pcap.gz)
expect "-w onto its compressed input" 2 "big.pcap.gz: refusing to overwrite the capture being read" -r big.pcap.gz -w big.pcap.gz --force
ln -s big.pcap.gz link.gz
expect "-w onto its compressed input, through a link" 2 "big.pcap.gz: refusing to overwrite the capture being read" -r link.gz -w big.pcap.gz --force
[ "$(cksum <big.pcap.gz)" = "$sum" ] || fail "-w changed its compressed input"
if ! "$gd" -r big.pcap.xz -w copy.pcap || ! "$gd" -r big.pcap -w copy2.pcap ||
	! cmp -s copy.pcap copy2.pcap; then
	fail "-w from big.pcap.xz differs from -w from big.pcap"
fi

cd / && rm -rf "$work"
echo "compressed-errors.sh: $n checks, $fails failure(s)"
[ $fails = 0 ] && [ $n -gt 0 ]
