// SPDX-License-Identifier: BSD-2-Clause
/*
 * microbench.c - libvxgbp's hot calls, timed in a loop:
 *
 *   vxgbp_microbench CAPTURE.pcap [--quick | --count N]
 *
 *  - header decode + validate: vxgbp_hdr_decode() + vxgbp_hdr_check() over
 *    the VXLAN headers of the capture's frames (at most 4096 distinct ones,
 *    cycled), ns per header;
 *  - full-frame parse: vxgbp_pkt_parse() over 4096 frames sampled evenly
 *    from the whole capture (held in memory, cycled), ns per frame, with and without
 *    checksum verification (VXGBP_PARSE_NO_CSUM).
 * Each is the best of 5 rounds (the least disturbed), with a result sink so
 * nothing is optimised away.  Classic pcap, either byte order.
 * --count N runs each loop N times once and prints nothing else: for
 * instruction counts under callgrind (bench/run.sh --callgrind), where
 * timing means nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#define MAXF 4096

static uint8_t *frame[MAXF];
static uint32_t flen[MAXF];
static unsigned nframes;
static int linktype = VXGBP_LINK_ETHERNET;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint32_t rd32(const uint8_t *b, int sw)
{
	uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
		     (uint32_t)b[3] << 24;
	return sw ? (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24) : v;
}

static int load(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t h[24], rh[16];
	int sw;

	if (!f || fread(h, 1, 24, f) != 24) {
		fprintf(stderr, "microbench: %s: cannot read a pcap header\n", path);
		return -1;
	}
	if (rd32(h, 0) == 0xa1b2c3d4u || rd32(h, 0) == 0xa1b23c4du)
		sw = 0;
	else if (rd32(h, 1) == 0xa1b2c3d4u || rd32(h, 1) == 0xa1b23c4du)
		sw = 1;
	else {
		fprintf(stderr, "microbench: %s: not a classic pcap file\n", path);
		return -1;
	}
	linktype = (int)(rd32(h + 20, sw) & 0xffff);
	/* pass 1: count the records, so pass 2 can take every stride-th and
	 * the sample spans the whole capture (its mix of frame kinds) */
	unsigned long total = 0, stride, k = 0;

	while (fread(rh, 1, 16, f) == 16) {
		uint32_t cl = rd32(rh + 8, sw);

		if (cl > 262144 || fseek(f, cl, SEEK_CUR))
			break;
		total++;
	}
	stride = total > MAXF ? total / MAXF : 1;
	fseek(f, 24, SEEK_SET);
	while (nframes < MAXF && fread(rh, 1, 16, f) == 16) {
		uint32_t cl = rd32(rh + 8, sw);

		if (cl > 262144)
			break;
		if (k++ % stride) {
			if (fseek(f, cl, SEEK_CUR))
				break;
			continue;
		}
		if (!(frame[nframes] = malloc(cl ? cl : 1)) || fread(frame[nframes], 1, cl, f) != cl)
			break;
		flen[nframes++] = cl;
	}
	fclose(f);
	if (!nframes) {
		fprintf(stderr, "microbench: %s: no frames\n", path);
		return -1;
	}
	return 0;
}

/* The three timed loops, kept out of line so callgrind counts each
 * (bench/run.sh --callgrind: inclusive instructions / count). */
__attribute__((noinline)) static uint64_t loop_hdr(uint8_t (*hdrs)[8], unsigned nh, long n)
{
	uint64_t sink = 0;

	for (long i = 0; i < n; i++) {
		struct vxgbp_hdr h;

		vxgbp_hdr_decode(&h, hdrs[(unsigned long)i % nh], 8);
		sink += vxgbp_hdr_check(&h) + h.group;
	}
	return sink;
}

__attribute__((noinline)) static uint64_t loop_parse(const struct vxgbp_parse_opts *o, long n)
{
	uint64_t sink = 0;

	for (long i = 0; i < n; i++) {
		struct vxgbp_pkt p = { .size = sizeof(p) };
		unsigned k = (unsigned long)i % nframes;

		vxgbp_pkt_parse(&p, frame[k], flen[k], flen[k], o);
		sink += p.findings + p.vx.group;
	}
	return sink;
}

/* The other three loops add their flags to the options themselves, so
 * their bodies differ and the compiler cannot fold them into one function
 * (callgrind counts each apart). */
static uint64_t loop_with(const struct vxgbp_parse_opts *o, unsigned flags, long n)
{
	struct vxgbp_parse_opts x = *o;

	x.flags |= flags;
	return loop_parse(&x, n);
}

__attribute__((noinline)) static uint64_t loop_parse_nocsum(const struct vxgbp_parse_opts *o,
							    long n)
{
	return loop_with(o, VXGBP_PARSE_NO_CSUM, n);
}

/* VXGBP_PARSE_GENERIC: layer by layer, without the one-pass parser of the
 * common shape (pkt_fast.c), to show what it buys. */
__attribute__((noinline)) static uint64_t loop_parse_generic(const struct vxgbp_parse_opts *o,
							     long n)
{
	return loop_with(o, VXGBP_PARSE_GENERIC, n);
}

__attribute__((noinline)) static uint64_t
loop_parse_generic_nocsum(const struct vxgbp_parse_opts *o, long n)
{
	return loop_with(o, VXGBP_PARSE_GENERIC | VXGBP_PARSE_NO_CSUM, n);
}

int main(int argc, char **argv)
{
	static uint8_t hdrs[MAXF][8];
	struct vxgbp_parse_opts o;
	unsigned nh = 0;
	long iters;
	uint64_t sink = 0;
	double best_h = 1e9, best_p = 1e9, best_pn = 1e9, best_g = 1e9, best_gn = 1e9;
	int rounds = 5;

	if (argc < 2) {
		fprintf(stderr, "usage: vxgbp_microbench CAPTURE.pcap [--quick]\n");
		return 2;
	}
	if (load(argv[1]))
		return 2;
	iters = argc > 2 && !strcmp(argv[2], "--quick") ? 200000 : 20000000;
	if (argc > 3 && !strcmp(argv[2], "--count")) {
		iters = atol(argv[3]);
		rounds = 1;
	}
	vxgbp_parse_opts_init(&o);
	o.linktype = linktype;
	for (unsigned i = 0; i < nframes; i++) {
		struct vxgbp_pkt p = { .size = sizeof(p) };

		if (vxgbp_pkt_parse(&p, frame[i], flen[i], flen[i], &o) == 0 &&
		    (p.have & VXGBP_HAVE_VXLAN))
			memcpy(hdrs[nh++], frame[i] + p.vxlan_off, 8);
	}
	if (!nh) {
		fprintf(stderr, "microbench: no VXLAN frames in %s\n", argv[1]);
		return 2;
	}
	for (int round = 0; round < rounds; round++) {
		long np = rounds == 1 ? iters : iters / 10;
		double t0 = now(), t;

		sink += loop_hdr(hdrs, nh, iters);
		t = (now() - t0) * 1e9 / (double)iters;
		if (t < best_h)
			best_h = t;
		t0 = now();
		sink += loop_parse(&o, np);
		t = (now() - t0) * 1e9 / (double)np;
		if (t < best_p)
			best_p = t;
		t0 = now();
		sink += loop_parse_nocsum(&o, np);
		t = (now() - t0) * 1e9 / (double)np;
		if (t < best_pn)
			best_pn = t;
		t0 = now();
		sink += loop_parse_generic(&o, np);
		t = (now() - t0) * 1e9 / (double)np;
		if (t < best_g)
			best_g = t;
		t0 = now();
		sink += loop_parse_generic_nocsum(&o, np);
		t = (now() - t0) * 1e9 / (double)np;
		if (t < best_gn)
			best_gn = t;
	}
	if (rounds == 1)
		return (int)(sink & 0); /* --count: nothing to print */
	printf("header decode+validate: %.2f ns/header (%ld iterations, %u distinct headers; target < 5)\n",
	       best_h, iters, nh);
	{
		unsigned long bytes = 0;

		for (unsigned i = 0; i < nframes; i++)
			bytes += flen[i];
		printf("full-frame parse:       %.1f ns/frame (checksums verified, %ld iterations, %u frames of %lu bytes on average; target < 50)\n",
		       best_p, iters / 10, nframes, bytes / nframes);
	}
	printf("full-frame parse:       %.1f ns/frame (VXGBP_PARSE_NO_CSUM)\n", best_pn);
	printf("layer by layer:         %.1f ns/frame checksums verified, %.1f ns/frame without "
	       "(VXGBP_PARSE_GENERIC: no one-pass parser of the common shape)\n", best_g, best_gn);
	{
		/* what the checksums sum: the outer IPv4 header and UDP datagram */
		unsigned long sbytes = 0;

		for (unsigned i = 0; i < nframes; i++) {
			struct vxgbp_pkt p = { .size = sizeof(p) };

			if (vxgbp_pkt_parse(&p, frame[i], flen[i], flen[i], &o) == 0 &&
			    p.udp_csum_ok >= 0)
				sbytes += p.outer.l4.len + p.outer.l3.hdr_len;
		}
		printf("checksum verification:  %.1f ns/frame for %lu bytes summed on average "
		       "(%.1f bytes/ns)\n", best_p - best_pn, sbytes / nframes,
		       best_p > best_pn ? (double)sbytes / nframes / (best_p - best_pn) : 0.0);
	}
	printf("(sink %llu)\n", (unsigned long long)(sink & 1));
	for (unsigned i = 0; i < nframes; i++)
		free(frame[i]);
	return 0;
}
