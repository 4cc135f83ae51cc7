#!/bin/sh
# zstd-skippable.sh GBPDUMP FIXTURES WORKDIR
# A zstd capture may start with a skippable frame of any of its sixteen
# magics, 0x184D2A50 to 0x184D2A5F (RFC 8878 3.1.2; the seekable format
# uses 0x184D2A5E), and end with one (the seekable format's seek table):
# every such file reads like the capture inside, from a file and from a
# pipe.  robustness.compressed tries only 0x184D2A50 and covers every
# fixture; this one is fast and covers every magic.
set -u
gd=$1 fix=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
fails=0 n=0
cap=$fix/basic-gbp.pcap
if ! zstd -q -c "$cap" >"$work/body.zst"; then
	echo "FAIL: cannot compress $cap (zstd: scripts/deps/compress.list)"
	exit 1
fi
"$gd" -r "$cap" -tt -v -e >"$work/ref" 2>&1; rr=$?

# skippable LOW CONTENT: a skippable frame of magic 0x184D2A<LOW>
skippable() {
	printf "\\$(printf %o "$1")\\052\\115\\030\\$(printf %o ${#2})\\000\\000\\000%s" "$2"
}

check() { # NAME FILE
	n=$((n + 1))
	"$gd" -r "$2" -tt -v -e >"$work/a" 2>&1; ra=$?
	# shellcheck disable=SC2002 # a pipe on purpose
	cat "$2" | "$gd" -r - -tt -v -e >"$work/b" 2>&1; rb=$?
	if [ $ra != $rr ] || ! cmp -s "$work/ref" "$work/a" || [ $rb != $rr ] ||
		! cmp -s "$work/ref" "$work/b"; then
		echo "FAIL $1: exit $ra (pipe $rb, plain $rr), first lines:"
		head -n 3 "$work/a"
		fails=$((fails + 1))
	fi
}

low=80 # 0x50
while [ $low -le 95 ]; do
	m=$(printf '0x184D2A%02X' $low)
	{ skippable $low 'skip'; cat "$work/body.zst"; } >"$work/lead.zst"
	check "a skippable frame $m first" "$work/lead.zst"
	{ cat "$work/body.zst"; skippable $low 'seek-table'; } >"$work/tail.zst"
	check "a skippable frame $m last" "$work/tail.zst"
	zstdcat -q "$work/lead.zst" | cmp -s - "$cap" ||
		{ echo "FAIL: zstdcat does not read $m as skippable (the test's frame is wrong)"; fails=$((fails + 1)); }
	low=$((low + 1))
done
rm -rf "$work"
echo "zstd-skippable.sh: $n files, $fails failure(s)"
[ $fails = 0 ] && [ $n = 32 ]
