// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_reader.c - libFuzzer harness for gbpdump's input path: the input is a
 * whole capture file (classic pcap or pcapng), put in a memory file and read
 * the way gbpdump -r reads it - the fast classic-pcap reader, then again
 * through libpcap (--libpcap) - with every record parsed by libvxgbp and
 * fed to libvxgbp's tracker (the cross-frame rules, and the --stats matrix
 * one run in 16) and printed as text (-v -e), as JSON and as the --stats
 * tables, all written to /dev/null.  Both readers must accept and refuse
 * alike: an error at open on both or neither, the same number of records
 * before an error on both or neither, and the same records (lengths, time
 * stamps and bytes).  For pcapng (the fast reader's pcapng.c) also the
 * same link type and snap length.
 *
 * Not compared: the bytes libpcap rewrites after reading (its
 * pcap_post_process()): the pseudo-headers of USB, NFLOG and Linux cooked
 * captures written in the other byte order, and the wire length of
 * memory-mapped USB captures (link type 220); gbpdump shows them as stored.
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
	uint64_t hash[MAX_FRAMES];
	int err, open_err;
	int ng, swapped, linktype;
	uint32_t snaplen;
};

/* FNV-1a of a record's bytes */
static uint64_t hash(const uint8_t *b, uint32_t n)
{
	uint64_t h = 14695981039346656037ull;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/* The tracker's memory: blocks of 64 KiB and more are kept for the next
 * input (zeroed again), as a fresh multi-megabyte calloc() and its free()
 * under ASan (new pages, quarantine) cost more than everything else the
 * harness does.  Bounds stay checked: a kept block is handed out only for
 * the same size. */
#define KEEP 8
static struct { void *p; size_t size; } kept[KEEP];

static void *zalloc(void *ctx, size_t size)
{
	(void)ctx;
	for (int i = 0; size >= 65536 && i < KEEP; i++)
		if (kept[i].p && kept[i].size == size) {
			void *p = kept[i].p;

			kept[i].p = NULL;
			return memset(p, 0, size);
		}
	return calloc(1, size);
}

static void zfree(void *ctx, void *ptr, size_t size)
{
	(void)ctx;
	for (int i = 0; ptr && size >= 65536 && i < KEEP; i++)
		if (!kept[i].p) {
			kept[i].p = ptr;
			kept[i].size = size;
			return;
		}
	free(ptr);
}

/* A tracker for this run: the rules always, the matrix with --stats.  A
 * small budget, so the tables' full paths are fuzzed too. */
static struct vxgbp_track *track_new(int with_stats)
{
	struct vxgbp_track_opts to = { .size = sizeof(to),
				       .what = VXGBP_TRACK_RULES | (with_stats ? VXGBP_TRACK_MATRIX : 0),
				       .budget = 4u << 20, .zalloc = zalloc, .free = zfree };
	struct vxgbp_track *t = malloc(vxgbp_track_size());

	if (!t || vxgbp_track_init(t, &to) < 0)
		abort();
	return t;
}

/* The analysis of one record: parsed, tracked, printed. */
static void analyse(struct vxgbp_track *st, const struct vxgbp_parse_opts *popts,
		    struct gd_print *pp, const struct gd_rec *rec)
{
	struct vxgbp_track_result tr;
	struct vxgbp_pkt pkt = { .size = sizeof(pkt) };

	vxgbp_pkt_parse(&pkt, rec->data, rec->caplen, rec->wirelen, popts);
	vxgbp_track_frame(st, &pkt, rec->no, &tr);
	if (tr.findings & ~(VXGBP_RB(VXGBP_R_POLICY_REAPPLIED) | VXGBP_RB(VXGBP_R_A_CLEARED) |
			    VXGBP_RB(VXGBP_R_GROUP_CONFLICT) | VXGBP_RB(VXGBP_R_FLOW_GROUP_CHANGE)))
		abort(); /* only the four cross-frame rules come from the tracker */
	print_text(out, pp, rec, &pkt, tr.findings);
	print_json(out, pp, rec, &pkt, tr.findings);
}

/* Read path with flags into s, every record analysed (verbose < 0: none). */
static void run(const char *path, unsigned flags, int verbose, int with_stats, struct seen *s)
{
	char errbuf[GD_ERRBUF];
	struct vxgbp_parse_opts popts;
	struct gd_reader rd;
	struct gd_print pp;
	struct vxgbp_track *st = NULL;
	struct gd_rec rec;
	int rr;

	memset(s, 0, sizeof(*s));
	if (reader_open(&rd, path, flags, errbuf) < 0) {
		if (!memchr(errbuf, '\0', sizeof(errbuf)))
			abort();
		s->err = s->open_err = 1;
		return;
	}
	s->ng = rd.ng;
	s->swapped = rd.ng ? rd.ngs.swapped : rd.swapped;
	s->linktype = rd.linktype;
	s->snaplen = rd.snaplen;
	vxgbp_parse_opts_init(&popts);
	popts.linktype = rd.linktype;
	print_init(&pp);
	pp.verbose = verbose > 0;
	pp.eflag = verbose > 0;
	pp.tmode = verbose > 0 ? GD_TIME_DATE : GD_TIME_EPOCH;
	pp.groups = &groups;
	/* the --stats matrix costs more: 1 run in 16 */
	if (verbose >= 0)
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
			s->hash[s->n] = hash(rec.data, rec.caplen);
		}
		s->n++;
		if (st)
			analyse(st, &popts, &pp, &rec);
		if (s->n > 100000)
			break;
	}
	s->err = rr < 0;
	if (st && with_stats) {
		stats_print(st, out, &groups, 0, NULL);
		stats_print(st, out, &groups, 1, NULL);
	}
	if (st)
		vxgbp_track_fini(st);
	free(st);
	out_flush(out);
	reader_close(&rd);
}

static void keep(struct seen *s, int64_t sec, uint32_t nsec, uint32_t caplen, uint32_t wirelen,
		 const uint8_t *data)
{
	if (s->n < MAX_FRAMES) {
		s->sec[s->n] = sec;
		s->nsec[s->n] = nsec;
		s->caplen[s->n] = caplen;
		s->wirelen[s->n] = wirelen < caplen ? caplen : wirelen; /* as reader.c */
		s->hash[s->n] = hash(data, caplen);
	}
	s->n++;
}

/* Records pcapng_quick() read too (said at exit with the counts below). */
static unsigned long long n_quick;

/* The fast path's pcapng parser (gbpdump/input/pcapng.c) straight on the input,
 * handed its bytes as reader.c's buffer would: a first window of 1 to 64
 * bytes, grown to what it asks for (PCAPNG_NEED); and its inline EPB path
 * (pcapng_quick()) on the same bytes, which must agree with it. */
static void ng_native(const uint8_t *data, size_t size, struct seen *s)
{
	struct pcapng_state st;
	struct pcapng_rec nr, qr;
	/* empty: pcapng_next() writes it only on an error, and the check
	 * below must see what it wrote, not what the stack held (a CI run
	 * aborted on an input that ended with no error: run alone, it passed) */
	char err[PCAPNG_ERRLEN] = "";
	size_t at = 0, win = 1 + data[size - 1] % 64, used, qused;
	int rc, opening, quick;

	memset(s, 0, sizeof(*s));
	pcapng_state_init(&st);
	s->ng = 1;
	for (;;) {
		size_t avail = size - at < win ? size - at : win;

		opening = st.phase != PCAPNG_PH_READ; /* an error now: libpcap cannot open it */
		quick = pcapng_quick(&st, data + at, avail, &qr, &qused);
		rc = pcapng_next(&st, data + at, avail, at + avail == size, &nr, &used, err);
		/* reader.c's inline path takes only blocks pcapng_next() reads
		 * the same (a record changes no state: both see the same) */
		if (quick && (rc != PCAPNG_RECORD || used != qused || nr.sec != qr.sec ||
			      nr.nsec != qr.nsec || nr.caplen != qr.caplen ||
			      nr.wirelen != qr.wirelen || nr.iface != qr.iface ||
			      nr.data != qr.data))
			abort();
		n_quick += quick;
		if (rc == PCAPNG_NEED) {
			if (used <= avail)
				abort(); /* it must ask for more than it has */
			win = used;
			continue;
		}
		if (rc == PCAPNG_ERROR || rc == PCAPNG_END || s->n > 100000)
			break;
		if (rc == PCAPNG_RECORD)
			keep(s, nr.sec, nr.nsec, nr.caplen, nr.wirelen, nr.data);
		if (used > avail || used < 12)
			abort(); /* a block lies in what it was given */
		at += used;
	}
	if (!memchr(err, '\0', sizeof(err)))
		abort();
	s->open_err = opening && rc != PCAPNG_RECORD; /* an error or the end before an IDB */
	s->err = rc == PCAPNG_ERROR || s->open_err;
	s->swapped = st.swapped;
	s->linktype = st.linktype;
	s->snaplen = st.snaplen;
	pcapng_state_fini(&st);
}

/* libpcap on a copy of the input in an fmemopen() stream, with the
 * adjustments reader.c's libpcap path makes. */
static void ng_libpcap(const uint8_t *data, size_t size, struct seen *s)
{
	char perr[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *ph;
	const u_char *d;
	uint8_t *copy = malloc(size);
	FILE *f;
	pcap_t *pc;
	int rc;

	memset(s, 0, sizeof(*s));
	if (!copy)
		abort();
	memcpy(copy, data, size);
	if (!(f = fmemopen(copy, size, "r")))
		abort();
	if (!(pc = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, perr))) {
		fclose(f);
		free(copy);
		s->err = s->open_err = 1;
		return;
	}
	s->linktype = pcap_datalink(pc) == DLT_RAW ? 101 : pcap_datalink(pc);
	s->snaplen = (uint32_t)pcap_snapshot(pc);
	while ((rc = pcap_next_ex(pc, &ph, &d)) == 1 && s->n <= 100000)
		keep(s, ph->ts.tv_sec, ph->ts.tv_usec > 999999999 ? 999999999
				       : (uint32_t)ph->ts.tv_usec, ph->caplen, ph->len, d);
	s->err = rc == PCAP_ERROR;
	pcap_close(pc); /* closes f */
	free(copy);
}

/* Say what differs, then stop (libFuzzer keeps the input). */
static void fail(const char *what, const struct seen *a, const struct seen *b, uint64_t i)
{
	fprintf(stderr, "fuzz_reader: the readers differ: %s (record %llu)\n", what,
		(unsigned long long)i + 1);
	for (int k = 0; k < 2; k++) {
		const struct seen *s = k ? b : a;

		fprintf(stderr, "  %s: open_err %d err %d records %llu linktype %d snaplen %u\n",
			k ? "libpcap" : "fast   ", s->open_err, s->err, (unsigned long long)s->n,
			s->linktype, s->snaplen);
		if (i < s->n && i < MAX_FRAMES)
			fprintf(stderr, "    record: %lld.%09u caplen %u wirelen %u hash %016llx\n",
				(long long)s->sec[i], s->nsec[i], s->caplen[i], s->wirelen[i],
				(unsigned long long)s->hash[i]);
	}
	abort();
}

/* Differential: the records both readers delivered are the same (a: the
 * fast reader, b: libpcap). */
static void differ(const struct seen *a, const struct seen *b, int ng)
{
	uint64_t n = a->n < b->n ? a->n : b->n;
	int lt = b->linktype;
	/* what libpcap rewrites (see the top) */
	int post = lt == 220 || (a->swapped && (lt == 113 || lt == 189 || lt == 239 ||
						 lt == 276));

	if (a->open_err != b->open_err || a->err != b->err || a->n != b->n)
		fail("the error or the record count", a, b, 0);
	/* libpcap gives a classic file's snap length as its header says (it
	 * cuts it to the link type's maximum only as it reads the records) */
	if ((ng || a->ng) && !b->open_err &&
	    (a->linktype != b->linktype || a->snaplen != b->snaplen))
		fail("pcapng: the link type or snap length", a, b, 0);
	if (n > MAX_FRAMES)
		n = MAX_FRAMES;
	for (uint64_t i = 0; i < n; i++)
		if (a->caplen[i] != b->caplen[i] || a->sec[i] != b->sec[i] ||
		    a->nsec[i] != b->nsec[i] ||
		    (lt != 220 && a->wirelen[i] != b->wirelen[i]) ||
		    (!post && a->hash[i] != b->hash[i]))
			fail("a record", a, b, i);
}

/* A classic pcap file header's magic, in either byte order? */
static int classic(const uint8_t *d, size_t n)
{
	static const uint8_t m[4][4] = { { 0xd4, 0xc3, 0xb2, 0xa1 }, { 0x4d, 0x3c, 0xb2, 0xa1 },
					 { 0xa1, 0xb2, 0xc3, 0xd4 }, { 0xa1, 0xb2, 0x3c, 0x4d } };

	for (int i = 0; n >= 4 && i < 4; i++)
		if (!memcmp(d, m[i], 4))
			return 1;
	return 0;
}

/* What the inputs were, said at exit: pcapng straight through pcapng.c
 * and libpcap, pcapng through both readers, the others, and (with
 * FUZZ_READER_PCAPNG_ONLY) the others skipped. */
static unsigned long long n_lean, n_ng, n_other, n_skipped;

static void counts(void)
{
	fprintf(stderr, "fuzz_reader: %llu pcapng inputs through pcapng.c and libpcap, %llu "
		"through both readers, %llu other inputs, %llu skipped (not pcapng); "
		"%llu records also read by pcapng_quick()\n",
		n_lean, n_ng, n_other, n_skipped, n_quick);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	struct seen *a, *b;
	int lean, ng;
	uint64_t pick;

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
		atexit(counts);
	}
#ifdef FUZZ_READER_PCAPNG_ONLY
	/* the long pcapng runs (docs/pcapng.md): the rest stays out of the corpus */
	if (!pcapng_sniff(data, size)) {
		n_skipped++;
		return -1;
	}
#endif
	a = malloc(sizeof(*a));
	b = malloc(sizeof(*b));
	if (!a || !b)
		abort();
	/* pcapng: 7 inputs in 8 go straight through the pcapng parser and
	 * libpcap on an fmemopen() copy (no files, no analysis); the 8th
	 * through both of gbpdump's readers, its records analysed one time in
	 * 256 (the analysis costs more than all the rest together; classic and
	 * compressed inputs have it fuzzed every time) */
	ng = pcapng_sniff(data, size);
	pick = hash(data, (uint32_t)size); /* not the size: mutations keep it */
	lean = ng && (pick & 7);
	*(lean ? &n_lean : ng ? &n_ng : &n_other) += 1;
	if (lean) {
		ng_native(data, size, a);
		ng_libpcap(data, size, b);
	} else {
		if (ftruncate(memfd, 0) < 0 || pwrite(memfd, data, size, 0) != (ssize_t)size)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
		/* neither classic pcap nor compressed: libpcap reads it on both
		 * paths (or nobody does); analysed one time in 256 too */
		int quick = (ng || (!classic(data, size) &&
				    gd_z_detect(data, size) == GD_Z_NONE)) && (pick & 0x7f8);

		run(path, 0, quick ? -1 : (int)(size & 1), (size & 30) == 0, a);
		run(path, GD_READ_LIBPCAP, quick ? -1 : !(size & 1), (size & 30) == 2, b);
	}
	differ(a, b, ng); /* compressed pcapng: a->ng */
	free(a);
	free(b);
	return 0;
}
