// SPDX-License-Identifier: BSD-2-Clause
/*
 * reader.c - capture input (see reader.h).
 *
 * Classic pcap (https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap):
 *   24-byte file header: magic a1b2c3d4 (us) or a1b23c4d (ns), in the
 *   writer's byte order; version; thiszone; sigfigs; snaplen; linktype
 *   (low 16 bits; the upper bits may carry FCS information).
 *   16-byte record header: ts_sec, ts_frac, caplen, len; then caplen bytes.
 *
 * Compressed input (decompress.h) is told by its magic bytes in the first
 * bytes read; from then on the same buffer is filled by the decompressor
 * instead of read(2), and the capture inside goes through the same paths as an uncompressed
 * one.
 */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live.h"
#include "reader.h"

/* read(2) chunks for files and pipes: 128 KiB stays in a core's L2 cache,
 * where a larger buffer makes every copy slower.  Regular files are read
 * so too, not mapped: on the virtual machines this project runs on the
 * first touch of each mapped page costs more than the copy
 * (docs/performance.md).  The fuzz build uses small chunks to reach every
 * boundary. */
#ifndef GD_READ_CHUNK
#define GD_READ_CHUNK (128u * 1024)
#endif
#define CHUNK GD_READ_CHUNK
#define MAX_RECORD (256u * 1024 * 1024) /* no real capture has larger records */
/* r->swapped of a file written in this host's byte order: its record
 * headers can be loaded as they are (reader_next_quick(), reader.h). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NATIVE_SWAPPED 0
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NATIVE_SWAPPED 1
#else
#define NATIVE_SWAPPED -1 /* not known: next_slow() for every record */
#endif
#define PCAP_MAGIC_US 0xa1b2c3d4u
#define PCAP_MAGIC_NS 0xa1b23c4du

static uint32_t rd32(const uint8_t *b, int swapped)
{
	uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
		     (uint32_t)b[3] << 24;
	if (swapped)
		v = (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
	return v;
}

/* A regular file that ends before the size it had at open was cut by
 * another program while we read it: say so (tests/robustness). */
static int shrunk(struct gd_reader *r, uint64_t off, char *errbuf)
{
	if (!r->shrunk)
		return 0;
	snprintf(errbuf, GD_ERRBUF, "%s: frame %llu at offset %llu: the file shrank while it "
		 "was being read (truncated by another program?)", r->name,
		 (unsigned long long)r->count + 1, (unsigned long long)off);
	r->pos = r->end;
	return -1;
}

ssize_t reader_pread(const struct gd_reader *r, uint8_t *buf, size_t len, uint64_t at,
		     char *errbuf)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(r->fd, buf + got, len - got, (off_t)(r->file_base + at + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(errbuf, GD_ERRBUF, "%s: read error at offset %llu: %s", r->name,
				 (unsigned long long)(at + got), strerror(errno));
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* fill() in a lent block: the record at pos is completed after the
 * block's bytes (the lender left room for it), never moved.  A record the
 * room does not hold (a pcapng block of any size up to libpcap's limit) is
 * left unread, its length in lend_short for the lender (reader_relend()). */
static int fill_lent(struct gd_reader *r, size_t want, char *errbuf)
{
	ssize_t n;

	if (want > r->cap - r->pos) {
		r->lend_short = want;
		snprintf(errbuf, GD_ERRBUF, "%s: a %zu-byte record in a block of %zu", r->name,
			 want, r->cap);
		return -1;
	}
	n = reader_pread(r, r->buf + r->end, r->pos + want - r->end, r->buf_off + r->end,
			 errbuf);
	if (n < 0)
		return -1;
	r->end += (size_t)n;
	if (r->end - r->pos < want) {
		r->eof = 1;
		r->shrunk = r->file_base + r->buf_off + r->end < r->in_size;
	}
	return 0;
}

/* Read until buf holds at least want bytes after pos (or EOF).  Returns
 * 0, or -1 on an I/O error. */
static int fill(struct gd_reader *r, size_t want, char *errbuf)
{
	if (r->end - r->pos >= want || r->eof)
		return 0;
	if (r->lent)
		return fill_lent(r, want, errbuf);
	if (r->pos) { /* slide the partial record to the front */
		memmove(r->buf, r->buf + r->pos, r->end - r->pos);
		r->buf_off += r->pos;
		r->end -= r->pos;
		r->pos = 0;
	}
	if (want > r->cap) {
		size_t ncap = r->cap;
		uint8_t *nb;

		while (ncap < want)
			ncap *= 2;
		if (!(nb = realloc(r->buf, ncap))) {
			snprintf(errbuf, GD_ERRBUF, "%s: out of memory for a %zu-byte record",
				 r->name, want);
			return -1;
		}
		r->buf = nb;
		r->cap = ncap;
	}
	while (r->end - r->pos < want) {
		ssize_t n = gd_src_read(&r->src, r->buf + r->end, r->cap - r->end, errbuf);

		if (n < 0)
			return -1;
		if (n == 0) {
			r->eof = 1;
			r->shrunk = r->in_size && r->zfmt == GD_Z_NONE &&
				    r->file_base + r->buf_off + r->end < r->in_size;
			break;
		}
		r->end += (size_t)n;
	}
	return 0;
}

int reader_blocks_ok(const struct gd_reader *r)
{
	return r->fast && !r->lv && r->zfmt == GD_Z_NONE && r->in_size &&
	       r->maxcap <= MAX_RECORD;
}

void reader_lend(struct gd_reader *r, uint8_t *buf, size_t len, size_t cap, uint64_t at)
{
	uint64_t next = reader_next_off(r);

	if (!r->lent) {
		r->own_buf = r->buf;
		r->own_cap = r->cap;
	}
	r->lent = 1;
	r->buf = buf;
	r->cap = cap;
	r->buf_off = at;
	r->pos = (size_t)(next - at);
	/* a block read short of the next record (the file shrank since the
	 * block before): none of its bytes are there, fill() tries again */
	r->end = len > r->pos ? len : r->pos;
	r->eof = 0;
	r->lend_short = 0;
}

void reader_relend(struct gd_reader *r, uint8_t *buf, size_t cap)
{
	r->buf = buf;
	r->cap = cap;
	r->lend_short = 0;
}

void reader_unlend(struct gd_reader *r)
{
	if (!r->lent)
		return;
	/* nothing more is read: the position alone is kept */
	r->buf_off += r->pos;
	r->buf = r->own_buf;
	r->cap = r->own_cap;
	r->pos = r->end = 0;
	r->lent = 0;
}

/* A FILE that first returns the bytes we peeked, then the source. */
struct peek {
	uint8_t *b; /* owned: the reader's buffer */
	size_t n, at;
	struct gd_src src; /* owned: the decoder and the descriptor */
};

static ssize_t peek_read(void *cookie, char *buf, size_t size)
{
	struct peek *p = cookie;

	if (p->at < p->n) {
		size_t k = p->n - p->at < size ? p->n - p->at : size;

		memcpy(buf, p->b + p->at, k);
		p->at += k;
		return (ssize_t)k;
	}
	{
		char err[GD_ERRBUF]; /* kept by the decoder: next_libpcap() says it */
		ssize_t n = gd_src_read(&p->src, (uint8_t *)buf, size, err);

		if (n < 0 && p->src.z)
			errno = EIO;
		return n;
	}
}

static int peek_close(void *cookie)
{
	struct peek *p = cookie;
	int rc = p->src.fd > 2 ? close(p->src.fd) : 0;

	gd_src_fini(&p->src);
	free(p->b);
	free(p);
	return rc;
}

/* For messages about what is inside a compressed file. */
static const char *zsuffix(const struct gd_reader *r)
{
	switch (r->zfmt) {
	case GD_Z_GZIP:
		return " (gzip-compressed)";
	case GD_Z_ZSTD:
		return " (zstd-compressed)";
	case GD_Z_XZ:
		return " (xz-compressed)";
	default:
		return "";
	}
}

/* Hand the bytes already read (and the descriptor) to libpcap. */
static int open_libpcap(struct gd_reader *r, char *errbuf)
{
	cookie_io_functions_t io = { .read = peek_read, .close = peek_close };
	char perr[PCAP_ERRBUF_SIZE] = "";
	struct peek *p;

	if (!(p = calloc(1, sizeof(*p)))) {
		snprintf(errbuf, GD_ERRBUF, "%s: out of memory", r->name);
		return -1;
	}
	p->b = r->buf;
	p->n = r->end;
	p->src = r->src;
	if (!(r->fp = fopencookie(p, "r", io))) {
		free(p);
		snprintf(errbuf, GD_ERRBUF, "%s: %s", r->name, strerror(errno));
		return -1;
	}
	r->fd = -1; /* the FILE owns the descriptor, decoder and buffer now */
	r->src.z = NULL;
	r->lsrc = &p->src;
	r->buf = NULL;
	r->pc = pcap_fopen_offline_with_tstamp_precision(r->fp,
			PCAP_TSTAMP_PRECISION_NANO, perr);
	if (!r->pc) {
		if (!gd_src_error(r->lsrc, errbuf))
			snprintf(errbuf, GD_ERRBUF, "%s: not a capture file libpcap can read%s: %s",
				 r->name, zsuffix(r), perr);
		fclose(r->fp);
		r->fp = NULL;
		r->lsrc = NULL;
		return -1;
	}
	r->fp = NULL; /* libpcap closes it */
	r->linktype = pcap_datalink(r->pc);
	/* pcap_datalink() gives DLT values; libvxgbp and the fast path use
	 * the file's LINKTYPE values, which differ only for raw IP here */
	if (r->linktype == DLT_RAW)
		r->linktype = 101; /* LINKTYPE_RAW */
	r->snaplen = (uint32_t)pcap_snapshot(r->pc);
	r->nsec_res = 1;
	return 0;
}

/* Open path ("-": stdin) into r, with a chunk buffer for read(). */
static int open_input(struct gd_reader *r, const char *path, char *errbuf)
{
	struct stat st;
	off_t here;

	memset(r, 0, sizeof(*r));
	r->name = path;
	r->fd = -1;
	if (!strcmp(path, "-")) {
		r->fd = 0;
		r->name = "(stdin)";
	} else if ((r->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(errbuf, GD_ERRBUF, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(r->fd, &st) < 0)
		memset(&st, 0, sizeof(st));
	if (S_ISDIR(st.st_mode)) {
		snprintf(errbuf, GD_ERRBUF, "%s: is a directory", path);
		return -1;
	}
	here = S_ISREG(st.st_mode) ? lseek(r->fd, 0, SEEK_CUR) : 0;
	gd_src_init(&r->src, r->fd, r->name, here > 0 ? (uint64_t)here : 0);
	if (S_ISREG(st.st_mode))
		r->in_size = (uint64_t)st.st_size;
	if (S_ISREG(st.st_mode))
		r->file_base = here > 0 ? (uint64_t)here : 0;
	r->cap = CHUNK;
	if (!(r->buf = malloc(r->cap))) {
		snprintf(errbuf, GD_ERRBUF, "%s: out of memory", path);
		return -1;
	}
	return 0;
}

/* The classic pcap file header at r->buf (magic already known): version,
 * snap length, link type. */
static int fast_header(struct gd_reader *r, char *errbuf)
{
	const uint8_t *h = r->buf;
	/* Version 2.3 and older wrote caplen and len the other way round;
	 * libpcap swaps them back (always before 2.3, when they look swapped
	 * in 2.3, always in the odd major 543), so do we. */
	uint32_t v = rd32(h + 4, r->swapped);
	unsigned major = r->swapped ? v >> 16 : v & 0xffff;
	unsigned minor = r->swapped ? v & 0xffff : v >> 16;

	if (r->end < 24) {
		snprintf(errbuf, GD_ERRBUF, "%s: file header cut short (%zu of 24 bytes)",
			 r->name, r->end);
		return -1;
	}
	if (major < 2) {
		snprintf(errbuf, GD_ERRBUF, "%s: pcap format version %u.%u is too old "
			 "to read (offset 4)", r->name, major, minor);
		return -1;
	}
	/* the versions libpcap reads: 2.0 to 2.4, and DG/UX's 543.0 */
	if (!(major == 2 && minor <= 4) && !(major == 543 && minor == 0)) {
		snprintf(errbuf, GD_ERRBUF, "%s: pcap format version %u.%u is not one gbpdump "
			 "reads (offset 4)", r->name, major, minor);
		return -1;
	}
	r->len_swap = (major == 2 && minor < 3) || major == 543 ? 2
		      : major == 2 && minor == 3 ? 1 : 0;
	r->fast = 1;
	r->nsec_res = rd32(h, r->swapped) == PCAP_MAGIC_NS;
	r->snaplen = rd32(h + 16, r->swapped);
	/* libpcap's LT_LINKTYPE(): bits 26 to 31 say the FCS length */
	r->linktype = (int)(rd32(h + 20, r->swapped) & 0x03ffffff);
	/* As libpcap does, so both paths deliver the same records: a snap
	 * length of 0 or beyond what the link type allows means that maximum. */
	r->maxcap = pcapng_max_snaplen(r->linktype); /* an error on both paths */
	if (r->snaplen == 0 || r->snaplen > r->maxcap)
		r->snaplen = r->maxcap;
	r->pos = 24;
	return 0;
}

/* The first bytes read are a compressed stream's: decompress from the
 * start, and read the capture's first bytes again.  0, or -1 with errbuf. */
static int start_decompress(struct gd_reader *r, int fmt, char *errbuf)
{
	if (gd_src_decompress(&r->src, fmt, r->buf, r->end, errbuf) < 0)
		return -1;
	r->zfmt = fmt;
	r->buf_off = 0;
	r->pos = r->end = 0;
	r->eof = 0;
	return fill(r, 24, errbuf);
}

/* What ng_block() does with pcapng_next()'s answer rc for the block at
 * capture offset off (want: its length, or the bytes it needed).  Inline:
 * it is on the serial walk of every pcapng record. */
static inline __attribute__((always_inline)) int
ng_result(struct gd_reader *r, int rc, size_t want, uint64_t off, const char *err, char *errbuf)
{
	if (rc == PCAPNG_RECORD || rc == PCAPNG_SKIP)
		r->pos += want;
	else if (shrunk(r, off, errbuf))
		return PCAPNG_ERROR;
	if (rc == PCAPNG_ERROR || rc == PCAPNG_NEED) {
		snprintf(errbuf, GD_ERRBUF, "%s: frame %llu at offset %llu: %s%s", r->name,
			 (unsigned long long)r->count + 1, (unsigned long long)off,
			 rc == PCAPNG_NEED ? "pcapng reader stalled" : err, zsuffix(r));
		r->pos = r->end;
		r->eof = 1;
		return PCAPNG_ERROR;
	}
	return rc;
}

/* The next pcapng block (pcapng.h) at pos, read into the buffer whole:
 * PCAPNG_RECORD with nr, PCAPNG_SKIP, PCAPNG_END, or PCAPNG_ERROR with
 * errbuf naming the file, the frame and the block's offset. */
static int ng_block(struct gd_reader *r, struct pcapng_rec *nr, char *errbuf)
{
	char err[PCAPNG_ERRLEN];
	size_t want = 0;
	uint64_t off;
	int rc;

	do {
		if (want && fill(r, want, errbuf) < 0) /* first: the bytes there are */
			return PCAPNG_ERROR;
		off = r->buf_off + r->pos;
		rc = pcapng_next(&r->ngs, r->buf + r->pos, r->end - r->pos, r->eof, nr, &want,
				 err);
	} while (rc == PCAPNG_NEED && want > r->end - r->pos);
	return ng_result(r, rc, want, off, err, errbuf);
}

/* A pcapng file (pcapng_sniff() said so): read up to its first interface
 * description block, as libpcap does when it opens one. */
static int ng_open(struct gd_reader *r, char *errbuf)
{
	struct pcapng_rec nr;
	int rc;

	r->fast = r->ng = 1;
	pcapng_state_init(&r->ngs);
	while (r->ngs.phase != PCAPNG_PH_READ) {
		if ((rc = ng_block(r, &nr, errbuf)) == PCAPNG_ERROR)
			return -1;
		if (rc == PCAPNG_END) {
			snprintf(errbuf, GD_ERRBUF, "%s: the pcapng file has no interface "
				 "description block%s", r->name, zsuffix(r));
			return -1;
		}
	}
	r->linktype = r->ngs.linktype;
	r->snaplen = r->ngs.snaplen;
	r->maxcap = r->ngs.snaplen;
	r->nsec_res = 1;
	return 0;
}

/* The record nr as reader_next() gives it. */
static inline int
ng_record(struct gd_reader *r, const struct pcapng_rec *nr, struct gd_rec *rec)
{
	rec->no = ++r->count;
	rec->sec = nr->sec;
	rec->nsec = nr->nsec;
	rec->caplen = nr->caplen;
	rec->wirelen = nr->wirelen < nr->caplen ? nr->caplen : nr->wirelen;
	rec->data = nr->data;
	rec->off = 0; /* offsets (--sarif) are classic pcap records' */
	return 1;
}

/* Any pcapng block: ng_block() until a record, the end or an error.
 * noinline: next_ng(), inlined into reader_next(), stays frameless. */
static __attribute__((noinline)) int next_ng_block(struct gd_reader *r, struct gd_rec *rec,
						   char *errbuf)
{
	struct pcapng_rec nr;
	int rc;

	do
		rc = ng_block(r, &nr, errbuf);
	while (rc == PCAPNG_SKIP);
	if (rc != PCAPNG_RECORD)
		return rc == PCAPNG_END ? 0 : -1;
	return ng_record(r, &nr, rec);
}

/* reader_next()'s pcapng branch: the common EPB whole in the buffer
 * (pcapng_quick()) inline, what ng_block() would give without its calls
 * or a stack frame.  The rest: next_ng_block(). */
static inline __attribute__((always_inline)) int
next_ng(struct gd_reader *r, struct gd_rec *rec, char *errbuf)
{
	struct pcapng_rec nr;
	size_t used;

	if (!pcapng_quick(&r->ngs, r->buf + r->pos, r->end - r->pos, &nr, &used))
		return next_ng_block(r, rec, errbuf);
	r->pos += used;
	return ng_record(r, &nr, rec);
}

int reader_open(struct gd_reader *r, const char *path, unsigned flags, char *errbuf)
{
	uint32_t magic;
	int rc, fmt;

	if (open_input(r, path, errbuf) < 0 || fill(r, 24, errbuf) < 0) {
		reader_close(r);
		return -1;
	}
	if ((fmt = gd_z_detect(r->buf, r->end)) != GD_Z_NONE &&
	    start_decompress(r, fmt, errbuf) < 0) {
		reader_close(r);
		return -1;
	}
	if (r->end < 4) {
		snprintf(errbuf, GD_ERRBUF, "%s: %s%s", r->name,
			 r->end ? "too short to be a capture file (offset 0)" : "empty file",
			 zsuffix(r));
		reader_close(r);
		return -1;
	}
	magic = rd32(r->buf, 0);
	if ((magic == PCAP_MAGIC_US || magic == PCAP_MAGIC_NS) && !(flags & GD_READ_LIBPCAP)) {
		r->swapped = 0;
	} else if ((rd32(r->buf, 1) == PCAP_MAGIC_US || rd32(r->buf, 1) == PCAP_MAGIC_NS) &&
		   !(flags & GD_READ_LIBPCAP)) {
		r->swapped = 1;
	} else if (pcapng_sniff(r->buf, r->end) && !(flags & GD_READ_LIBPCAP)) {
		if ((rc = ng_open(r, errbuf)) < 0)
			reader_close(r);
		return rc;
	} else {
		rc = open_libpcap(r, errbuf);
		if (rc < 0)
			reader_close(r);
		return rc;
	}
	if ((rc = fast_header(r, errbuf)) < 0)
		reader_close(r);
	return rc;
}

/* Live capture through libpcap (--libpcap, or an interface the rings do
 * not handle). */
static int open_live_pcap(struct gd_reader *r, const char *iface, int snaplen,
			  const struct gd_live_opts *lo, char *errbuf)
{
	char perr[PCAP_ERRBUF_SIZE] = "";
	int rc;

	if (!(r->pc = pcap_create(iface, perr))) {
		snprintf(errbuf, GD_ERRBUF, "%s: %s", iface, perr);
		return -1;
	}
	pcap_set_snaplen(r->pc, snaplen);
	pcap_set_promisc(r->pc, 1);
	pcap_set_immediate_mode(r->pc, 1);
	pcap_set_tstamp_precision(r->pc, PCAP_TSTAMP_PRECISION_NANO);
	if (lo->ring_bytes)
		pcap_set_buffer_size(r->pc, lo->ring_bytes > INT32_MAX ? INT32_MAX
					     : (int)lo->ring_bytes);
	if ((rc = pcap_activate(r->pc)) < 0) {
		snprintf(errbuf, GD_ERRBUF, "%s: %s", iface, pcap_geterr(r->pc));
		pcap_close(r->pc);
		r->pc = NULL;
		return -1;
	}
	r->linktype = pcap_datalink(r->pc);
	r->snaplen = (uint32_t)pcap_snapshot(r->pc);
	r->nsec_res = pcap_get_tstamp_precision(r->pc) == PCAP_TSTAMP_PRECISION_NANO;
	fprintf(stderr, "gbpdump: listening on %s, link-type %s, snapshot length %u bytes, "
		"libpcap\n", iface, pcap_datalink_val_to_name(pcap_datalink(r->pc)),
		r->snaplen);
	return 0;
}

int reader_open_live(struct gd_reader *r, const char *iface, int snaplen,
			  const struct gd_live_opts *lo, char *errbuf)
{
	struct gd_live *l;
	int rc;

	memset(r, 0, sizeof(*r));
	r->name = iface;
	r->fd = -1;
	r->live = 1;
	if (!(lo->flags & GD_READ_LIBPCAP)) {
		if (!(l = calloc(1, sizeof(*l)))) {
			snprintf(errbuf, GD_ERRBUF, "%s: out of memory", iface);
			return -1;
		}
		rc = live_open(l, iface, (uint32_t)snaplen,
			       lo->ring_bytes ? lo->ring_bytes : GD_LIVE_RING_DEFAULT,
			       lo->workers, errbuf);
		if (rc == 0) {
			r->lv = l;
			r->linktype = l->linktype;
			r->snaplen = l->snaplen;
			r->nsec_res = 1;
			return 0;
		}
		free(l);
		if (rc != -2)
			return -1;
		fprintf(stderr, "gbpdump: %s: capturing with libpcap instead (one worker)\n",
			errbuf);
	}
	return open_live_pcap(r, iface, snaplen, lo, errbuf);
}

int reader_live_counts(struct gd_reader *r, struct gd_live_counts *c)
{
	struct pcap_stat ps;

	memset(c, 0, sizeof(*c));
	if (r->lv) {
		live_finish(r->lv, c);
		c->have_unread = 1;
		return 0;
	}
	if (!r->live || !r->pc || pcap_stats(r->pc, &ps) < 0)
		return -1;
	c->received = ps.ps_recv;
	c->dropped = ps.ps_drop;
	return 0;
}

int reader_set_filter(struct gd_reader *r, const char *expr, char *errbuf)
{
	struct bpf_program prog;

	if (r->lv)
		return live_set_filter(r->lv, expr, errbuf);
	if (!r->pc)
		return 0;
	if (pcap_compile(r->pc, &prog, expr, 1, PCAP_NETMASK_UNKNOWN) < 0 ||
	    pcap_setfilter(r->pc, &prog) < 0) {
		snprintf(errbuf, GD_ERRBUF, "filter '%s': %s", expr, pcap_geterr(r->pc));
		return -1;
	}
	pcap_freecode(&prog);
	return 0;
}

/* Any classic pcap record, whatever its byte order, format version or
 * length: the first of each reader, those at a window's end, cut ones and
 * the bad ones with their errors.  reader_next_quick() takes the rest. */
static int next_slow(struct gd_reader *r, struct gd_rec *rec, char *errbuf)
{
	const uint8_t *h;
	uint32_t caplen, wirelen, frac;
	uint64_t off;

	if (fill(r, 16, errbuf) < 0)
		return -1;
	off = r->buf_off + r->pos;
	if (r->end - r->pos < 16 && shrunk(r, off, errbuf))
		return -1;
	if (r->end == r->pos)
		return 0;
	if (r->end - r->pos < 16) {
		snprintf(errbuf, GD_ERRBUF,
			 "%s: frame %llu at offset %llu: truncated record header "
			 "(%zu of 16 bytes)",
			 r->name, (unsigned long long)r->count + 1, (unsigned long long)off,
			 r->end - r->pos);
		r->pos = r->end;
		return -1;
	}
	/* the next records may take reader_next_quick() (and the walk):
	 * those of the common format */
	r->plain = r->swapped == NATIVE_SWAPPED && !r->len_swap && r->snaplen <= r->maxcap &&
		   r->maxcap <= MAX_RECORD;
	h = r->buf + r->pos;
	caplen = rd32(h + 8, r->swapped);
	wirelen = rd32(h + 12, r->swapped);
	if (r->len_swap == 2 || (r->len_swap == 1 && caplen > wirelen)) {
		uint32_t t = caplen;

		caplen = wirelen;
		wirelen = t;
	}
	if (caplen > MAX_RECORD || caplen > r->maxcap) {
		snprintf(errbuf, GD_ERRBUF,
			 "%s: frame %llu at offset %llu: record claims %u bytes, more than the "
			 "%u a capture of link type %d may hold",
			 r->name, (unsigned long long)r->count + 1, (unsigned long long)off,
			 caplen, r->maxcap, r->linktype);
		r->pos = r->end;
		r->eof = 1;
		return -1;
	}
	if (fill(r, 16 + (size_t)caplen, errbuf) < 0)
		return -1;
	h = r->buf + r->pos;
	if (r->end - r->pos < 16 + (size_t)caplen && shrunk(r, off, errbuf))
		return -1;
	if (r->end - r->pos < 16 + (size_t)caplen) {
		snprintf(errbuf, GD_ERRBUF,
			 "%s: frame %llu at offset %llu: truncated record: the file ends "
			 "%zu bytes into a %u-byte frame",
			 r->name, (unsigned long long)r->count + 1, (unsigned long long)off,
			 r->end - r->pos - 16, caplen);
		r->pos = r->end;
		return -1;
	}
	rec->no = ++r->count;
	rec->sec = rd32(h, r->swapped);
	frac = rd32(h + 4, r->swapped);
	if (!r->nsec_res)
		frac = frac < 1000000 ? frac * 1000 : 999999999;
	rec->nsec = frac < 1000000000 ? frac : 999999999;
	/* A record longer than the file's snap length is cut to it, the rest
	 * skipped (what libpcap does, so -r and --libpcap agree). */
	rec->caplen = caplen > r->snaplen ? r->snaplen : caplen;
	rec->wirelen = wirelen;
	if (rec->wirelen < rec->caplen)
		rec->wirelen = rec->caplen;
	rec->data = h + 16;
	rec->off = off;
	r->pos += 16 + (size_t)caplen;
	return 1;
}

static int next_libpcap(struct gd_reader *r, struct gd_rec *rec, char *errbuf)
{
	struct pcap_pkthdr *ph;
	const u_char *data;
	int rc;

	for (;;) {
		rc = pcap_next_ex(r->pc, &ph, &data);
		if (rc == 1)
			break;
		if (rc == 0)
			continue; /* live: timeout, no packet */
		if (rc == PCAP_ERROR_BREAK)
			return 0;
		if (!r->lsrc || !gd_src_error(r->lsrc, errbuf))
			snprintf(errbuf, GD_ERRBUF, "%s: frame %llu: %s", r->name,
				 (unsigned long long)r->count + 1, pcap_geterr(r->pc));
		return -1;
	}
	rec->no = ++r->count;
	rec->sec = ph->ts.tv_sec;
	/* libpcap reads a classic record's seconds as signed 32 bits; the
	 * format (and the fast path) has them unsigned: 2^31 s is 2038, not
	 * 1901.  (pcapng's are 64 bits: major version 1 is pcapng's.) */
	if (rec->sec < 0 && rec->sec >= INT32_MIN && pcap_major_version(r->pc) != 1)
		rec->sec += (int64_t)1 << 32;
	{
		/* clamp before narrowing: a hostile fraction times 1000 does not
		 * fit 32 bits (and must clamp as on the fast path) */
		uint64_t ns = (uint64_t)ph->ts.tv_usec * (r->nsec_res ? 1u : 1000u);

		rec->nsec = ns > 999999999 ? 999999999 : (uint32_t)ns;
	}
	rec->caplen = ph->caplen;
	rec->wirelen = ph->len < ph->caplen ? ph->caplen : ph->len;
	rec->data = data;
	rec->off = 0;
	return 1;
}

/* The live rings: frames in place, one socket (one worker). */
static int next_live(struct gd_reader *r, struct gd_rec *rec, char *errbuf)
{
	int rc = live_next(r->lv, 0, rec, r->stop, NULL, errbuf);

	if (rc == 1)
		rec->no = ++r->count;
	return rc;
}

/* reader_next() for every reader but pcapng's: live rings, classic pcap,
 * libpcap.  noinline: reader_next() then takes no stack frame for a
 * pcapng record. */
static __attribute__((noinline)) int next_not_pcapng(struct gd_reader *r, struct gd_rec *rec,
						char *errbuf)
{
	if (r->lv)
		return next_live(r, rec, errbuf);
	return r->fast ? next_slow(r, rec, errbuf) : next_libpcap(r, rec, errbuf);
}

/* pcapng's common record (next_ng()) takes no stack frame: the other
 * readers are calls away (classic pcap's common record is
 * reader_next_quick()'s, in reader.h) */
int reader_next(struct gd_reader *r, struct gd_rec *rec, char *errbuf)
{
	if (r->ng)
		return next_ng(r, rec, errbuf);
	return next_not_pcapng(r, rec, errbuf);
}

void reader_position(const struct gd_reader *r, uint64_t *at, uint64_t *total)
{
	*total = r->in_size;
	*at = gd_src_pos(r->lsrc ? r->lsrc : &r->src);
}

void reader_close(struct gd_reader *r)
{
	if (r->ng)
		pcapng_state_fini(&r->ngs);
	if (r->lv) {
		live_close(r->lv);
		free(r->lv);
	}
	if (r->pc)
		pcap_close(r->pc);
	if (r->fp)
		fclose(r->fp);
	free(r->buf);
	gd_src_fini(&r->src);
	if (r->fd > 2)
		close(r->fd);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}
