#!/bin/sh
# libpcap.sh GBPDUMP FIXTURES WORKDIR
# What gbpdump asks of libpcap and the decompressors, which it links:
#  1. a filter expression keeps what it should, on one input and on two
#     (each compiled for its own input), also with -j 2;
#  2. --libpcap prints what the native reader prints (text and JSON);
#  3. --version names libpcap's version;
#  4. a file in neither pcap nor pcapng format ends the run with one line
#     naming the file and libpcap's reason, exit status 2, nothing on
#     standard output;
#  5. gzip, zstd and xz captures read as the plain one.
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

# run ARGS...: gbpdump ARGS > out, 2> err, its status in rc
run() {
	timeout 60 "$gd" "$@" > out 2> err
	rc=$?
	n=$((n + 1))
}

# 1. filters
run -r "$pcap"
cp out plain
run -r "$pcap" --json
cp out plain.json
run -r "$pcap" udp
[ $rc = 0 ] && cmp -s out plain || fail "filter udp: status $rc or output differs from no filter"
run -r "$pcap" not udp
[ $rc = 0 ] && [ ! -s out ] || fail "filter 'not udp': status $rc or frames printed"
for j in 1 2; do
	run -r "$pcap" -r "$ng" -j $j udp port 4789
	[ $rc = 0 ] && [ "$(wc -l < out)" = $(($(wc -l < plain) * 2)) ] ||
		fail "two inputs, -j $j, filter 'udp port 4789': status $rc, $(wc -l < out) lines"
done
# 2. --libpcap
run -r "$pcap" --libpcap
[ $rc = 0 ] && cmp -s out plain || fail "--libpcap: status $rc or output differs"
run -r "$pcap" --libpcap --json
[ $rc = 0 ] && cmp -s out plain.json || fail "--libpcap --json: status $rc or output differs"
# 3. --version
run --version
[ $rc = 0 ] && grep -q '^gbpdump (vxgbp) .*, libpcap version ' out ||
	fail "--version: status $rc: $(cat out err)"
# 4. neither format
printf 'not a capture at all\n' > junk
run -r junk
[ $rc = 2 ] && [ ! -s out ] && [ "$(wc -l < err)" = 1 ] &&
	grep -qx 'gbpdump: junk: not a capture file libpcap can read: .*' err ||
	fail "-r junk: status $rc: $(cat err)"
# 5. the decompressors
gzip -c "$pcap" > in.pcap.gz
xz -c "$pcap" > in.pcap.xz
zstd -q -c "$pcap" > in.pcap.zst
for ext in gz zst xz; do
	run -r in.pcap.$ext
	[ $rc = 0 ] && cmp -s out plain || fail "-r in.pcap.$ext: status $rc or output differs"
done

echo "libpcap: $n runs, $fails failures"
[ $fails = 0 ]
