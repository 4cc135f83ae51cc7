#!/bin/sh
# zseeds.sh OUTDIR FIXTURES: compressed seeds for fuzz_reader (issue 14):
# a classic pcap and a pcapng fixture as gzip, zstd and xz, two gzip
# members, and a stream cut short, so the fuzzer starts inside gbpdump's
# decompressing reader (gbpdump/input/decompress.c) too.
set -eu
out=$1 fix=$2
mkdir -p "$out"
for f in basic-gbp.pcap basic-gbp.pcapng cut-short.pcap; do
	gzip -c "$fix/$f" >"$out/z-$f.gz"
	zstd -q -c "$fix/$f" >"$out/z-$f.zst"
	xz -c "$fix/$f" >"$out/z-$f.xz"
done
{ head -c 100 "$fix/basic-gbp.pcap" | gzip -c; tail -c +101 "$fix/basic-gbp.pcap" | gzip -c; } \
	>"$out/z-members.gz"
head -c 200 "$out/z-basic-gbp.pcap.zst" >"$out/z-cut.zst"
