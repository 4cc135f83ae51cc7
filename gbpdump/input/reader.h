/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * reader.h - where frames come from.  Two paths that give identical records:
 *  - a fast reader of classic pcap files (either byte order, micro- or
 *    nanosecond): files and pipes read in read(2) chunks, records
 *    parsed in the buffer, no copy of their own;
 *  - the same for pcapng (pcapng.h: blocks parsed in place, libpcap's
 *    results);
 *  - libpcap for live capture (-i) and for anything else it reads.
 * Both read gzip, zstd and xz compressed captures too (decompress.h): the
 * fast reader decompresses into its chunk buffer instead of read(2), and
 * libpcap gets the decompressed stream as a FILE.
 * Errors are libpcap-style: a message in errbuf for a person to read.
 */
#ifndef GBPDUMP_READER_H
#define GBPDUMP_READER_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <pcap/pcap.h>

#include "decompress.h"
#include "pcapng.h"

#define GD_ERRBUF 512

struct gd_rec {
	uint64_t no;        /* 1-based frame number */
	int64_t sec;        /* timestamp, seconds since the epoch */
	uint32_t nsec;      /* nanoseconds */
	uint32_t caplen;    /* bytes captured */
	uint32_t wirelen;   /* bytes on the wire */
	const uint8_t *data;/* caplen bytes, valid until the next reader_next() */
	uint64_t off;       /* file offset of the record (classic pcap); 0 otherwise */
};

struct gd_reader {
	const char *name;   /* for messages */
	int linktype;
	uint32_t snaplen;   /* as libpcap reports it (0 or too large: the maximum) */
	uint32_t maxcap;    /* fast path: largest record the link type allows */
	int nsec_res;       /* 1: the file has nanosecond timestamps */
	int fast;           /* 1: fast path (classic pcap, or pcapng when ng) */
	int ng;             /* fast path: pcapng (pcapng.h) */
	struct pcapng_state ngs; /* its reading state */
	/* fast path */
	int fd;
	int swapped;
	int len_swap;       /* old formats: 1 caplen/len maybe swapped, 2 always */
	uint8_t *buf;       /* the read(2) buffer */
	size_t cap, pos, end;
	uint64_t buf_off;   /* capture offset of buf[0] */
	int plain;          /* reader_next_quick() may take the next record */
	int eof;
	int shrunk;         /* read(2) of a regular file ended before its size */
	uint64_t file_base; /* regular file: offset of the capture's first byte */
	uint64_t count;
	uint8_t *own_buf;   /* reader_lend(): buf and cap while they are lent */
	size_t own_cap;
	int lent;           /* buf is a caller's block, filled with pread(2) */
	size_t lend_short;  /* lent: the record that did not fit, its length */
	struct gd_src src;  /* read(2) or a decompressor */
	uint64_t in_size;   /* size of the input file, 0 when unknown (a pipe) */
	int zfmt;           /* GD_Z_NONE, or the input's compression */
	/* libpcap path */
	pcap_t *pc;
	FILE *fp;           /* when libpcap reads a stream we peeked at */
	struct gd_src *lsrc;/* that stream's source (inside the FILE's cookie) */
	int live;
	/* live capture on TPACKET_V3 rings (live.h); NULL: libpcap or a file */
	struct gd_live *lv;
	volatile sig_atomic_t *stop; /* live: set when the capture is to end */
};

#define GD_READ_LIBPCAP 0x1 /* force libpcap even for classic pcap */

/* r->linktype is the file's LINKTYPE_ value (what libvxgbp and -w use);
 * libpcap's pcap_open_dead()/pcap_compile() want the DLT_ value, which
 * differs for raw IP (LINKTYPE_RAW 101 is DLT_RAW). */
static inline int reader_dlt(const struct gd_reader *r)
{
	return r->linktype == 101 ? DLT_RAW : r->linktype;
}

/* Open a capture file ("-" for standard input).  0, or -1 with errbuf. */
int reader_open(struct gd_reader *r, const char *path, unsigned flags, char *errbuf);
/* Next record: 1, 0 at the end, -1 on error (errbuf names file, frame, offset). */
int reader_next(struct gd_reader *r, struct gd_rec *rec, char *errbuf);

/*
 * The common record, for reader_next_quick() and the walk below: a
 * classic pcap record in this host's byte order and the current format
 * (r->plain, which the reader sets after the first record), no longer
 * than the snap length (at most what the link type allows: no cut, no
 * error) and whole in the avail bytes from h on.  1 with its header in
 * hd (ts_sec, ts_frac, caplen, len), 0 when reader_next() must decide.
 */
static inline int
rec_plain(const uint8_t *h, size_t avail, uint32_t snaplen, uint32_t hd[4])
{
	if (avail < 16)
		return 0;
	memcpy(hd, h, 4 * sizeof(*hd));
	return hd[2] <= snaplen && hd[2] <= avail - 16;
}

/* A plain record's timestamp, as next_slow() makes it, with mul 1000 for
 * a file of microseconds and 1 for nanoseconds: a fraction of a second or
 * more is 999999999 (one multiply and one clamp, no branch). */
static inline void rec_time(struct gd_rec *rec, const uint32_t hd[4], uint32_t mul)
{
	uint64_t ns = (uint64_t)hd[1] * mul;

	rec->sec = hd[0];
	rec->nsec = ns < 1000000000 ? (uint32_t)ns : 999999999;
}

/*
 * reader_next() with the common record (rec_plain()) inline: one 16-byte
 * load and no call; reader_next() decides the rest (window ends, cut
 * records, errors, other formats), with the same result.
 */
static inline int reader_next_quick(struct gd_reader *r, struct gd_rec *rec, char *errbuf)
{
	const uint8_t *h;
	uint32_t hd[4];

	if (!r->plain)
		return reader_next(r, rec, errbuf);
	h = r->buf + r->pos;
	if (!rec_plain(h, r->end - r->pos, r->snaplen, hd))
		return reader_next(r, rec, errbuf);
	rec->no = ++r->count;
	rec_time(rec, hd, r->nsec_res ? 1 : 1000);
	rec->caplen = hd[2];
	rec->wirelen = hd[3] < hd[2] ? hd[2] : hd[3];
	rec->data = h + 16;
	rec->off = r->buf_off + r->pos;
	r->pos += 16 + (size_t)hd[2];
	return 1;
}

/*
 * A walk over the records reader_next_quick() takes, in a loop the caller
 * owns: the position, the buffer's end and the frame number live in the
 * caller's gd_walk (registers), so a record costs no call and none of the
 * reader's loads and stores.
 *   reader_walk_begin(): 1 when the next record may be walked so (the
 *     reader is plain), else 0: reader_next().
 *   gd_walk_next(): 1 with the next record in rec, 0 at the first one
 *     reader_next() must decide (the buffer's end, a cut record, an
 *     error), which stays the next.  full 0 leaves rec's timestamp and
 *     offset unset, for a run that reads neither (gd_frame_track_only()).
 *   reader_walk_end(): the position and count back into the reader,
 *     before anything else reads it or reads from it.
 * Frame numbers carry base (inputs.h: the frames of the inputs before).
 */
struct gd_walk {
	const uint8_t *p, *end; /* the next record's header; the buffer's end */
	uint64_t off0;          /* a record's capture offset less its address */
	uint64_t no, base;      /* the last frame number given; base added */
	uint32_t snaplen;
	uint32_t mul;           /* rec_time()'s */
};

static inline int reader_walk_begin(const struct gd_reader *r, struct gd_walk *w,
				    uint64_t base)
{
	if (!r->plain)
		return 0;
	/* the buffer's address as a number (unsigned arithmetic wraps): the
	 * offset is one add, and one register less in the walk's loop */
	w->off0 = r->buf_off - (uint64_t)(uintptr_t)r->buf;
	w->p = r->buf + r->pos;
	w->end = r->buf + r->end;
	w->base = base;
	w->no = base + r->count;
	w->snaplen = r->snaplen;
	w->mul = r->nsec_res ? 1 : 1000;
	return 1;
}

static inline int
gd_walk_next(struct gd_walk *w, struct gd_rec *rec, int full)
{
	uint32_t hd[4];

	if (!rec_plain(w->p, (size_t)(w->end - w->p), w->snaplen, hd))
		return 0;
	rec->no = ++w->no;
	if (full) {
		rec_time(rec, hd, w->mul);
		rec->off = (uint64_t)(uintptr_t)w->p + w->off0;
	}
	rec->caplen = hd[2];
	rec->wirelen = hd[3] < hd[2] ? hd[2] : hd[3];
	rec->data = w->p + 16;
	w->p += 16 + (size_t)hd[2];
	return 1;
}

static inline void reader_walk_end(struct gd_reader *r, const struct gd_walk *w)
{
	r->pos = (size_t)(w->p - r->buf);
	r->count = w->no - w->base;
}

/*
 * A regular file read in blocks by several threads (gbpdump -j,
 * parallel.c): each reads a block with reader_pread(), at the same time as
 * the others, and then, one at a time and in file order, lends it to the
 * reader (reader_lend()) and takes the records that start in it with
 * reader_next() as ever: the same records, frame numbers, offsets and
 * errors as a reading from the start.  A record that runs past the block's
 * end is completed in the block's buffer (cap: room for the block and
 * 16 + maxcap bytes more), read with pread(2); the records point into the
 * buffer, which must stay as it is until they are done with.  A record
 * the buffer cannot hold is a failed reader_next() with r->lend_short set
 * to its length, the reader where it was: the lender copies the block into
 * a buffer with room for it and goes on (reader_relend()).
 *   reader_blocks_ok(): 1 when r may be read so (classic pcap or pcapng in
 *     a regular file, not compressed), else 0.
 *   reader_next_off(): the file offset of r's next record.
 *   reader_unlend(): r's own buffer back, before it is closed.
 */
int reader_blocks_ok(const struct gd_reader *r);
static inline uint64_t reader_next_off(const struct gd_reader *r)
{
	return r->buf_off + r->pos;
}
/* len bytes of the capture from offset at into buf: the bytes read (fewer
 * at the end), or -1 with errbuf. */
ssize_t reader_pread(const struct gd_reader *r, uint8_t *buf, size_t len, uint64_t at,
		     char *errbuf);
/* r goes on in buf: len bytes of the capture from offset at (its next
 * record starts in them), room for cap. */
void reader_lend(struct gd_reader *r, uint8_t *buf, size_t len, size_t cap, uint64_t at);
/* The lent block's bytes now in buf (cap bytes), a copy of the old one. */
void reader_relend(struct gd_reader *r, uint8_t *buf, size_t cap);
void reader_unlend(struct gd_reader *r);

/* Progress: where reading is in the input file (compressed bytes consumed
 * when it is compressed) and the file's size (0 when unknown). */
void reader_position(const struct gd_reader *r, uint64_t *at, uint64_t *total);
/* Live capture: -B (bytes, 0: the default), the workers (fanout sockets:
 * live.h), GD_READ_LIBPCAP to capture with libpcap instead of the rings. */
struct gd_live_opts {
	size_t ring_bytes;
	unsigned workers;
	unsigned flags;
};
int reader_open_live(struct gd_reader *r, const char *iface, int snaplen,
			  const struct gd_live_opts *lo, char *errbuf);
/* What a live capture saw at its end (docs/live.md), summed over the
 * sockets; have_unread 0 when the source cannot tell (libpcap). */
struct gd_live_counts {
	uint64_t received;  /* passed the filter: into a ring, or dropped */
	uint64_t dropped;   /* no room in a ring (the kernel's drops) */
	uint64_t freezes;   /* times a ring was full (its queue froze) */
	uint64_t unread;    /* still in a ring when the capture stopped */
	int have_unread;
};
/* Stop a live capture and read its counters.  0, or -1 (not live). */
int reader_live_counts(struct gd_reader *r, struct gd_live_counts *c);
/* Set a BPF filter on a live capture (kernel-side). 0 or -1. */
int reader_set_filter(struct gd_reader *r, const char *expr, char *errbuf);
void reader_close(struct gd_reader *r);

#endif /* GBPDUMP_READER_H */
