/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pcapng.h - a pcapng block parser for gbpdump's fast reader, with
 * libpcap's results (1.10, opened with nanosecond precision): the same
 * frames, time stamps, lengths and link type, and an error at the same
 * block where libpcap reports one.  docs/pcapng.md says what that means.
 *
 * It works on bytes in the caller's buffer (a mapped window, a read(2) or
 * decompressor chunk) and never reads, copies or allocates for a packet:
 * pcapng_next() is given the bytes from a block boundary on and says what
 * the block there is - a record (pointing into those bytes), a block
 * skipped, the end, "give me N bytes" or an error - and how long it was.
 * It does not depend on how the caller buffers the file.
 *
 * All that reading depends on is in struct pcapng_state: the section's byte
 * order, the first interface's link type and snap length (libpcap keeps
 * them for the whole file), the interface table of the current section and
 * the section count.
 */
#ifndef GBPDUMP_PCAPNG_H
#define GBPDUMP_PCAPNG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PCAPNG_BT_SHB 0x0a0d0d0au
#define PCAPNG_BT_IDB 0x00000001u
#define PCAPNG_BT_PB 0x00000002u  /* obsolete Packet Block */
#define PCAPNG_BT_SPB 0x00000003u
#define PCAPNG_BT_EPB 0x00000006u
#define PCAPNG_BOM 0x1a2b3c4du    /* byte-order magic */
#define PCAPNG_ERRLEN 200

/* How an interface's time stamp fraction becomes nanoseconds: SAME is
 * 10^9 ticks a second, US 10^6 (the default), the two pcapng_quick()
 * divides by a constant; UP_DEC and DOWN_DEC are the other powers of 10. */
enum { PCAPNG_TS_SAME, PCAPNG_TS_UP_DEC, PCAPNG_TS_DOWN_DEC, PCAPNG_TS_BIN, PCAPNG_TS_US };

struct pcapng_iface {
	uint64_t tsresol;  /* ticks per second (if_tsresol; 10^6 by default) */
	uint64_t tsoffset; /* seconds added (if_tsoffset) */
	uint64_t factor;   /* PCAPNG_TS_*_DEC, US: 10^9 / tsresol or tsresol / 10^9 */
	int scale;         /* PCAPNG_TS_* */
};

enum { PCAPNG_PH_SHB, PCAPNG_PH_OPEN, PCAPNG_PH_READ };

struct pcapng_state {
	int phase;          /* PCAPNG_PH_*: first SHB, up to the first IDB, packets */
	int swapped;        /* the section's byte order is not ours */
	int dlt;            /* libpcap's DLT_ for the first interface */
	int linktype;       /* what gbpdump --libpcap reports (DLT_RAW as 101) */
	uint32_t snaplen;   /* the first interface's, adjusted as libpcap does */
	uint32_t bufsize;   /* libpcap's block buffer: the largest block so far */
	uint32_t maxblock;  /* the largest block libpcap will grow it to */
	uint32_t quickmax;  /* maxblock for pcapng_quick(), 0 when it reads nothing
			     * (another byte order, before the first IDB) */
	uint64_t sections;  /* SHBs seen */
	uint32_t nif;       /* interfaces in this section */
	uint32_t ifcap;     /* room in ifs (not compared) */
	struct pcapng_iface *ifs;
};

struct pcapng_rec {
	int64_t sec;
	uint32_t nsec;
	uint32_t caplen, wirelen;
	uint32_t iface;
	const uint8_t *data; /* caplen bytes inside the block */
};

enum {
	PCAPNG_ERROR = -1, /* message in err */
	PCAPNG_END = 0,    /* no more bytes, at a block boundary */
	PCAPNG_RECORD = 1, /* *rec filled */
	PCAPNG_SKIP = 2,   /* a block that is not a packet, consumed */
	PCAPNG_NEED = 3,   /* *used: the bytes from b needed to go on */
};

void pcapng_state_init(struct pcapng_state *s);
void pcapng_state_fini(struct pcapng_state *s);

/* Do the first bytes b[0..n) look like a pcapng file's start (an SHB with a
 * byte-order magic in either order)?  The caller hands anything else to
 * libpcap, which says what it is not. */
int pcapng_sniff(const uint8_t *b, size_t n);
/* The largest record libpcap accepts for a link type (also classic pcap's
 * limit in reader.c). */
uint32_t pcapng_max_snaplen(int dlt);

/*
 * The block at b (avail bytes there; at_eof: the input has no more after
 * them).  Returns a PCAPNG_* code; *used is the block's length for RECORD
 * and SKIP, the bytes wanted for NEED (never returned when at_eof).  On
 * ERROR, err holds what is wrong (without file name or offset: the block
 * starts at b) and the state must not be used further.  While s->phase is
 * not PCAPNG_PH_READ, the blocks are the file's start, read as libpcap
 * does when it opens a file (errors there mean it cannot be opened).
 */
int pcapng_next(struct pcapng_state *s, const uint8_t *b, size_t avail, int at_eof,
		struct pcapng_rec *rec, size_t *used, char *err);

/* s->swapped of a section written in this host's byte order: its blocks'
 * words can be loaded as they are (pcapng_quick()). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PCAPNG_NATIVE 0
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PCAPNG_NATIVE 1
#else
#define PCAPNG_NATIVE -1 /* not known: pcapng_next() for every block */
#endif

/*
 * pcapng_next() for the common block, inline: an EPB in this host's byte
 * order, whole in b (avail bytes), with a trailer that matches, on a known
 * interface of 10^6 or 10^9 ticks a second, no more than the snap length
 * and inside its block.  1 with *rec and *used as pcapng_next() gives them
 * for it (a packet block changes no state); 0 for anything else, which
 * pcapng_next() then reads (and says what is wrong with it).
 */
static inline uint32_t pcapng_ld32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline int pcapng_quick(const struct pcapng_state *s, const uint8_t *b, size_t avail,
			       struct pcapng_rec *rec, size_t *used)
{
	uint32_t len, ifc, caplen;
	const struct pcapng_iface *f;
	uint64_t t, sec, frac;

	if (avail < 32)
		return 0;
	len = pcapng_ld32(b + 4);
	ifc = pcapng_ld32(b + 8);
	caplen = pcapng_ld32(b + 20);
	/* (caplen + 32 <= len: the packet inside the block, and the block at
	 * least an EPB's 32 bytes) */
	if (__builtin_expect(pcapng_ld32(b) != PCAPNG_BT_EPB || len > avail || (len & 3) ||
			     len > s->quickmax || ifc >= s->nif || caplen > s->snaplen ||
			     (uint64_t)caplen + 32 > len, 0))
		return 0;
	f = &s->ifs[ifc];
	if (__builtin_expect(pcapng_ld32(b + len - 4) != len ||
			     (f->scale != PCAPNG_TS_US && f->scale != PCAPNG_TS_SAME), 0))
		return 0;
	/* stamp() in pcapng.c with the divisor known: no division instruction */
	t = (uint64_t)pcapng_ld32(b + 12) << 32 | pcapng_ld32(b + 16);
	if (f->scale == PCAPNG_TS_US) {
		sec = t / 1000000;
		frac = (t - sec * 1000000) * 1000;
	} else {
		sec = t / 1000000000;
		frac = t - sec * 1000000000;
	}
	rec->sec = (int64_t)(sec + f->tsoffset);
	rec->nsec = (uint32_t)frac;
	rec->iface = ifc;
	rec->caplen = caplen;
	rec->wirelen = pcapng_ld32(b + 24);
	rec->data = b + 28;
	*used = len;
	return 1;
}

#endif /* GBPDUMP_PCAPNG_H */
