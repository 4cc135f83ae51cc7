#!/bin/sh
# lazy-libs.sh GBPDUMP FIXTURES WORKDIR
# gbpdump opens libpcap and the decompressors with dlopen() only when it
# needs them (gbpdump/dl.h):
#  1. reading pcap and pcapng files (every output mode, -j 2, several
#     inputs, standard input, gzip) does not load libpcap: the dynamic
#     loader's log (LD_DEBUG=libs) never names it, nor, but for the gzip
#     input, zlib, libzstd or liblzma;
#  2. a filter expression, --libpcap, --version and a file in neither format
#     do load it, and work: the filter keeps what it should, --libpcap
#     prints what the native reader prints;
#  3. when it cannot be opened (GBPDUMP_LIBPCAP names a missing library) or
#     lacks a function (GBPDUMP_LIBPCAP=libz.so.1), whatever needed it ends
#     with one line naming it and the library, exit status 2, nothing on
#     standard output, no crash; a plain -r does not notice;
#  4. a gzip, zstd or xz capture loads its decompressor only, and reads as
#     the plain one; when the decompressor cannot be opened (GBPDUMP_LIBZ,
#     GBPDUMP_LIBZSTD, GBPDUMP_LIBLZMA) or lacks a function: one line
#     naming the file, the format and the library, exit status 2.
set -u
gd=$1 fix=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 2
fails=0 n=0
pcap=$fix/basic-gbp.pcap
ng=$fix/basic-gbp.pcapng

fail() {
	echo "FAIL $*"
	fails=$((fails + 1))
}

# run ARGS...: gbpdump ARGS > out, 2> err, its status in rc, the loader's
# log in ld (LD_DEBUG_OUTPUT writes ld.PID)
run() {
	rm -f ld.*
	LD_DEBUG=libs LD_DEBUG_OUTPUT=$work/ld timeout 60 "$gd" "$@" > out 2> err
	rc=$?
	cat ld.* > ld 2> /dev/null || : > ld
	n=$((n + 1))
}

# 1. no libpcap
gzip -c "$pcap" > in.pcap.gz
for args in "-r $pcap" "-r $ng" "-r $pcap -v" "-r $pcap --json" "-r $pcap --stats" \
	"-r $pcap --check" "-r $ng --stats --json" "-r $pcap -j 2" "-r $pcap -r $ng" \
	"-r in.pcap.gz" "-r $fix/formats"; do
	# shellcheck disable=SC2086
	run $args
	[ $rc = 0 ] || fail "gbpdump $args: exit status $rc: $(head -1 err)"
	[ -s out ] || fail "gbpdump $args: printed nothing"
	[ -s ld ] || fail "gbpdump $args: no LD_DEBUG log (the test sees nothing)"
	! grep -q libpcap ld || fail "gbpdump $args loaded libpcap: $(grep -m1 libpcap ld)"
	[ "$args" = "-r in.pcap.gz" ] || ! grep -qE 'calling init: .*lib(z|zstd|lzma)\.so' ld ||
		fail "gbpdump $args loaded a decompressor: $(grep -m1 -E 'lib(z|zstd|lzma)\.so' ld)"
done
run -r - < "$pcap"
[ $rc = 0 ] && ! grep -q libpcap ld || fail "gbpdump -r - (stdin): status $rc or libpcap loaded"

# 2. libpcap loaded, and working
loaded() { grep -q 'calling init: .*libpcap' ld || fail "$1: libpcap not loaded"; }
run -r "$pcap"
cp out plain
run -r "$pcap" --json
cp out plain.json
run -r "$pcap" udp
loaded "filter udp"
[ $rc = 0 ] && cmp -s out plain || fail "filter udp: status $rc or output differs from no filter"
run -r "$pcap" not udp
loaded "filter not udp"
[ $rc = 0 ] && [ ! -s out ] || fail "filter 'not udp': status $rc or frames printed"
run -r "$pcap" -r "$ng" udp port 4789
loaded "two inputs, filter"
[ $rc = 0 ] && [ "$(wc -l < out)" = $(($(wc -l < plain) * 2)) ] ||
	fail "two inputs, filter 'udp port 4789': status $rc, $(wc -l < out) lines"
run -r "$pcap" --libpcap
loaded "--libpcap"
[ $rc = 0 ] && cmp -s out plain || fail "--libpcap: status $rc or output differs"
run -r "$pcap" --libpcap --json
[ $rc = 0 ] && cmp -s out plain.json || fail "--libpcap --json: status $rc or output differs"
run --version
loaded "--version"
[ $rc = 0 ] && grep -q '^gbpdump (vxgbp) .*, libpcap version ' out ||
	fail "--version: status $rc: $(cat out err)"
printf 'not a capture at all\n' > junk
run -r junk
loaded "-r junk"
[ $rc = 2 ] && grep -qx 'gbpdump: junk: not a capture file libpcap can read: .*' err ||
	fail "-r junk: status $rc: $(cat err)"

# 3. libpcap missing, or not libpcap
# want STATUS LINE ARGS...: with GBPDUMP_LIBPCAP set, exactly LINE on
# standard error, STATUS, nothing on standard output
want() {
	st=$1 line=$2
	shift 2
	run "$@"
	[ $rc = "$st" ] || fail "GBPDUMP_LIBPCAP=$GBPDUMP_LIBPCAP gbpdump $*: exit status $rc, not $st"
	[ ! -s out ] || fail "GBPDUMP_LIBPCAP=$GBPDUMP_LIBPCAP gbpdump $*: printed frames"
	printf '%s\n' "$line" > want.err
	cmp -s err want.err ||
		fail "GBPDUMP_LIBPCAP=$GBPDUMP_LIBPCAP gbpdump $*: said '$(cat err)', not '$line'"
}
export GBPDUMP_LIBPCAP="$work/missing/libpcap.so.0.8"
no="$GBPDUMP_LIBPCAP: cannot open shared object file: No such file or directory"
want 2 "gbpdump: a filter expression needs libpcap: $no" -r "$pcap" udp
want 2 "gbpdump: a filter expression needs libpcap: $no" -r "$pcap" -r "$ng" -j 2 udp
want 2 "gbpdump: $pcap: --libpcap needs libpcap: $no" -r "$pcap" --libpcap
want 2 "gbpdump: junk: a capture neither pcap nor pcapng needs libpcap: $no" -r junk
want 2 "gbpdump: --version needs libpcap: $no" --version
want 2 "gbpdump: -i needs libpcap: $no" -i lo --libpcap -c 1
run -r "$pcap"
[ $rc = 0 ] && cmp -s out plain || fail "missing libpcap: plain -r: status $rc or output differs"
# a library without libpcap's functions (the C library: it is there)
export GBPDUMP_LIBPCAP=libc.so.6
run -r "$pcap" udp
[ $rc = 2 ] && [ ! -s out ] &&
	grep -qx 'gbpdump: a filter expression needs libpcap: .*libc\.so\.6: undefined symbol: pcap_[a-z_]*' err ||
	fail "GBPDUMP_LIBPCAP=libc.so.6 -r udp: status $rc: $(cat err)"
run --version
[ $rc = 2 ] && grep -qx 'gbpdump: --version needs libpcap: .*undefined symbol: pcap_[a-z_]*' err ||
	fail "GBPDUMP_LIBPCAP=libc.so.6 --version: status $rc: $(cat err)"
# an empty value is no value: the build's libpcap
export GBPDUMP_LIBPCAP=
run -r "$pcap" udp
[ $rc = 0 ] && cmp -s out plain || fail "GBPDUMP_LIBPCAP empty: filter udp: status $rc"
unset GBPDUMP_LIBPCAP

# 4. the decompressors, each for its format only
xz -c "$pcap" > in.pcap.xz
zstd -q -c "$pcap" > in.pcap.zst
for c in "gz gzip zlib libz GBPDUMP_LIBZ" "zst zstd libzstd libzstd GBPDUMP_LIBZSTD" \
	"xz xz liblzma liblzma GBPDUMP_LIBLZMA"; do
	# shellcheck disable=SC2086
	set -- $c
	ext=$1 fmt=$2 label=$3 so=$4 var=$5
	run -r in.pcap.$ext
	[ $rc = 0 ] && cmp -s out plain || fail "-r in.pcap.$ext: status $rc or output differs"
	grep -q "calling init: .*/$so\.so" ld || fail "-r in.pcap.$ext: $so not loaded"
	others=$(grep -E 'calling init: .*lib(z|zstd|lzma)\.so' ld | grep -v "/$so\.so")
	[ -z "$others" ] || fail "-r in.pcap.$ext loaded another decompressor: $others"
	! grep -q libpcap ld || fail "-r in.pcap.$ext loaded libpcap"
	for bad in "$work/missing/$so.so.1:cannot open shared object file: No such file or directory" \
		"libc.so.6:undefined symbol: [A-Za-z_0-9]*"; do
		lib=${bad%%:*} why=${bad#*:}
		env "$var=$lib" sh -c '"$@" > out 2> err; echo $? > rc' sh "$gd" -r in.pcap.$ext
		n=$((n + 1))
		[ "$(cat rc)" = 2 ] && [ ! -s out ] &&
			grep -qx "gbpdump: in.pcap.$ext: $fmt input needs $label: .*$why" err ||
			fail "$var=$lib -r in.pcap.$ext: status $(cat rc): $(cat err)"
	done
done
# the plain capture never asks for them
GBPDUMP_LIBZ=/nonexistent GBPDUMP_LIBZSTD=/nonexistent GBPDUMP_LIBLZMA=/nonexistent \
	"$gd" -r "$pcap" > out 2> err
[ $? = 0 ] && cmp -s out plain || fail "decompressors missing: plain -r: $(cat err)"
n=$((n + 1))

echo "lazy-libs: $n runs, $fails failures"
[ $fails = 0 ]
