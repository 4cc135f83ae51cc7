// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_reader.c - libFuzzer harness for gbpdump's input path: the input is a
 * whole capture file (classic pcap or pcapng), put in a memory file and read
 * the way gbpdump -r reads it - the fast classic-pcap reader, then again
 * through libpcap (--libpcap) - with every record parsed by libvxgbp and
 * fed to libvxgbp's tracker (the cross-frame rules, and the --stats matrix
 * one run in 16) and printed as text (-v -e), as JSON and as the --stats
 * tables, all written to /dev/null.  Both readers must agree on the records they deliver before
 * the first error (same lengths and time stamps), and on the number of
 * records when neither failed.
 */
#define _GNU_SOURCE /* memfd_create */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <vxgbp/vxgbp.h>

#include "out.h"
#include "print.h"
#include "reader.h"
#include "stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct gd_out *out;
static int memfd = -1;
static struct vxgbp_group_name gstore[4];
static struct vxgbp_groups groups;

#define MAX_FRAMES 256

struct seen {
	uint64_t n;
	uint32_t caplen[MAX_FRAMES], wirelen[MAX_FRAMES];
	int64_t sec[MAX_FRAMES];
	uint32_t nsec[MAX_FRAMES];
	int err;
};

static void *zalloc(void *ctx, size_t size)
{
	(void)ctx;
	return calloc(1, size);
}

static void zfree(void *ctx, void *ptr, size_t size)
{
	(void)ctx;
	(void)size;
	free(ptr);
}

/* A tracker for this run: the rules always, the matrix with --stats.  A
 * small budget, so the tables' full paths are fuzzed too. */
static struct vxgbp_track *track_new(int with_stats)
{
	struct vxgbp_track_opts to = { VXGBP_TRACK_RULES | (with_stats ? VXGBP_TRACK_MATRIX : 0),
				       4u << 20, zalloc, zfree, NULL };
	struct vxgbp_track *t = malloc(vxgbp_track_size());

	if (!t || vxgbp_track_init(t, &to) < 0)
		abort();
	return t;
}

static void run(const char *path, unsigned flags, int verbose, int with_stats, struct seen *s)
{
	char errbuf[GD_ERRBUF];
	struct vxgbp_parse_opts popts;
	struct gd_reader rd;
	struct gd_print pp;
	struct vxgbp_track *st;
	struct vxgbp_track_result tr;
	struct gd_rec rec;
	struct vxgbp_pkt pkt;
	int rr;

	memset(s, 0, sizeof(*s));
	if (reader_open(&rd, path, flags, errbuf) < 0) {
		if (!memchr(errbuf, '\0', sizeof(errbuf)))
			abort();
		s->err = 1;
		return;
	}
	vxgbp_parse_opts_init(&popts);
	popts.linktype = rd.linktype;
	print_init(&pp);
	pp.verbose = verbose;
	pp.eflag = verbose;
	pp.tmode = verbose ? GD_TIME_DATE : GD_TIME_EPOCH;
	pp.groups = &groups;
	/* the --stats matrix costs more: 1 run in 16 */
	st = track_new(with_stats);
	while ((rr = reader_next(&rd, &rec, errbuf)) == 1) {
		if (rec.caplen && !rec.data)
			abort();
		/* touch every byte so ASan checks the record is really there */
		{
			volatile uint8_t x = 0;

			for (uint32_t i = 0; i < rec.caplen; i++)
				x ^= rec.data[i];
			(void)x;
		}
		if (s->n < MAX_FRAMES) {
			s->caplen[s->n] = rec.caplen;
			s->wirelen[s->n] = rec.wirelen;
			s->sec[s->n] = rec.sec;
			s->nsec[s->n] = rec.nsec;
		}
		s->n++;
		vxgbp_pkt_parse(&pkt, rec.data, rec.caplen, rec.wirelen, &popts);
		vxgbp_track_frame(st, &pkt, rec.no, &tr);
		if (tr.findings & ~(VXGBP_RB(VXGBP_R_POLICY_REAPPLIED) | VXGBP_RB(VXGBP_R_A_CLEARED) |
				    VXGBP_RB(VXGBP_R_GROUP_CONFLICT) |
				    VXGBP_RB(VXGBP_R_FLOW_GROUP_CHANGE)))
			abort(); /* only the four cross-frame rules come from the tracker */
		print_text(out, &pp, &rec, &pkt, tr.findings);
		print_json(out, &pp, &rec, &pkt, tr.findings);
		if (s->n > 100000)
			break;
	}
	s->err = rr < 0;
	if (with_stats) {
		stats_print(st, out, &groups, 0, NULL);
		stats_print(st, out, &groups, 1, NULL);
	}
	vxgbp_track_fini(st);
	free(st);
	out_flush(out);
	reader_close(&rd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	struct seen *a, *b;

	if (!out) {
		if (!(out = malloc(sizeof(*out))))
			abort();
		out_init(out, open("/dev/null", O_WRONLY | O_CLOEXEC));
		vxgbp_groups_init(&groups, gstore, 4);
		size_t col;

		vxgbp_groups_parse_line(&groups, "0x200 web\n", 10, &col);
		vxgbp_groups_parse_line(&groups, "768 d<b>\"\n", 10, &col);
		memfd = memfd_create("fuzz-capture", MFD_CLOEXEC);
		if (memfd < 0 || out->fd < 0)
			abort();
	}
	if (ftruncate(memfd, 0) < 0 || pwrite(memfd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	a = malloc(sizeof(*a));
	b = malloc(sizeof(*b));
	if (!a || !b)
		abort();
	run(path, 0, size & 1, (size & 30) == 0, a);
	run(path, GD_READ_LIBPCAP, !(size & 1), (size & 30) == 2, b);
	/* Differential: the records both readers delivered are the same. */
	{
		uint64_t n = a->n < b->n ? a->n : b->n;

		if (n > MAX_FRAMES)
			n = MAX_FRAMES;
		for (uint64_t i = 0; i < n; i++)
			if (a->caplen[i] != b->caplen[i] || a->wirelen[i] != b->wirelen[i] ||
			    a->sec[i] != b->sec[i] || a->nsec[i] != b->nsec[i])
				abort();
		if (!a->err && !b->err && a->n != b->n)
			abort();
	}
	free(a);
	free(b);
	return 0;
}
