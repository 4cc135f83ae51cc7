// SPDX-License-Identifier: BSD-2-Clause
/*
 * pcapng.c - pcapng blocks as libpcap 1.10 reads them (see pcapng.h).
 *
 * Format: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng.  Each
 * block: type, total length, body, total length again (32-bit words in the
 * section's byte order).  What libpcap does with them, and so what we do
 * (docs/pcapng.md has the list and the reasons):
 *  - the first SHB: 28 bytes to 1 MiB long, version 1.0 or 1.2 (only the
 *    major version is checked in later SHBs); a later SHB in the other
 *    byte order is an error, as is one with a bad byte-order magic;
 *  - up to the first IDB, other blocks are skipped and a packet block is an
 *    error; the first IDB's link type and snap length are the file's, and
 *    every later IDB must have the same (the link type compared as the IDB
 *    gives it against the first one's DLT_ value, as libpcap does);
 *  - a new SHB empties the interface table;
 *  - EPB, SPB (interface 0, caplen = min(len, snap length)) and PB;
 *    a caplen above the snap length, an unknown interface or a packet
 *    running past its block are errors;
 *  - time stamps: t / tsresol + tsoffset seconds, the fraction scaled to
 *    nanoseconds with libpcap's 64-bit integer arithmetic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "pcapng.h"

#define NSEC 1000000000u
#define SHB_MIN 28u                /* header, BOM, version, section length, trailer */
#define SHB_MAX (1024u * 1024u)    /* libpcap: "1MB should be enough" */
#define BLOCK_MAX(snap) (8u + 20u + (snap) + 131072u + 4u) /* an EPB with 128 KiB options */
#define BLOCK_MAX_FIRST (16u * 1024 * 1024) /* libpcap's limit until a link type needs more */

static uint32_t get32(const uint8_t *b, int swapped)
{
	uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
		     (uint32_t)b[3] << 24;

	if (swapped)
		v = (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
	return v;
}

static uint16_t get16(const uint8_t *b, int swapped)
{
	return swapped ? (uint16_t)(b[0] << 8 | b[1]) : (uint16_t)(b[1] << 8 | b[0]);
}

static uint64_t get64(const uint8_t *b, int swapped)
{
	uint64_t lo = get32(b, swapped), hi = get32(b + 4, swapped);

	return swapped ? lo << 32 | hi : hi << 32 | lo;
}

/* libpcap's LINKTYPE_ -> DLT_ mapping where the two differ on this
 * platform (measured against libpcap: tests/pcapng/linktypes.sh). */
static int to_dlt(int lt)
{
	switch (lt) {
	case 100:
		return DLT_ATM_RFC1483;
	case 101:
		return DLT_RAW;
	case 102:
		return DLT_SLIP_BSDOS;
	case 103:
		return DLT_PPP_BSDOS;
	case 106:
		return DLT_ATM_CLIP;
	default:
		return lt;
	}
}

/* libpcap's max_snaplen_for_dlt(): the largest record it accepts for a
 * link type (the three exceptions have the same LINKTYPE_ and DLT_ value,
 * so classic pcap's reader asks it too) */
uint32_t pcapng_max_snaplen(int dlt)
{
	switch (dlt) {
	case 231: /* D-Bus */
		return 128u * 1024 * 1024;
	case 279: /* EBHSCR */
		return 8u * 1024 * 1024;
	case 249: /* USBPcap */
		return 1024u * 1024;
	default:
		return 262144;
	}
}

/* libpcap's pcap_adjust_snapshot(): 0 or above INT_MAX means the link
 * type's maximum; anything else stays as it is, even above that maximum
 * (so an EPB may hold more than 262144 bytes). */
static uint32_t adjust_snap(int dlt, uint32_t snap)
{
	return snap == 0 || snap > INT32_MAX ? pcapng_max_snaplen(dlt) : snap;
}

void pcapng_state_init(struct pcapng_state *s)
{
	memset(s, 0, sizeof(*s));
	s->phase = PCAPNG_PH_SHB;
}

void pcapng_state_fini(struct pcapng_state *s)
{
	free(s->ifs);
	pcapng_state_init(s);
}

int pcapng_sniff(const uint8_t *b, size_t n)
{
	return n >= 12 && get32(b, 0) == PCAPNG_BT_SHB &&
	       (get32(b + 8, 0) == PCAPNG_BOM || get32(b + 8, 1) == PCAPNG_BOM);
}

/* pcapng_quick()'s limit: the blocks in this host's byte order once the
 * first IDB is read (after every change of swapped, phase or maxblock). */
static void set_quick(struct pcapng_state *s)
{
	s->quickmax = s->swapped == PCAPNG_NATIVE && s->phase == PCAPNG_PH_READ ? s->maxblock : 0;
}

/* The file's first SHB: libpcap checks it apart from every other block
 * (no multiple-of-4 or trailer check, its own size limits). */
static int first_shb(struct pcapng_state *s, const uint8_t *b, size_t avail, int at_eof,
		     size_t *used, char *err)
{
	uint32_t len;
	unsigned major, minor;

	if (avail < 12) {
		if (!at_eof)
			return *used = 12, PCAPNG_NEED;
		snprintf(err, PCAPNG_ERRLEN, "section header block cut short");
		return PCAPNG_ERROR;
	}
	s->swapped = get32(b + 8, 0) != PCAPNG_BOM;
	len = get32(b + 4, s->swapped);
	if (len < SHB_MIN || len > SHB_MAX) {
		snprintf(err, PCAPNG_ERRLEN, "section header block length %u is not "
			 "between %u and %u", len, SHB_MIN, SHB_MAX);
		return PCAPNG_ERROR;
	}
	if (avail < len) {
		if (!at_eof)
			return *used = len, PCAPNG_NEED;
		snprintf(err, PCAPNG_ERRLEN, "truncated section header block: the file "
			 "ends %zu bytes into its %u", avail, len);
		return PCAPNG_ERROR;
	}
	major = get16(b + 12, s->swapped);
	minor = get16(b + 14, s->swapped);
	if (major != 1 || (minor != 0 && minor != 2)) {
		snprintf(err, PCAPNG_ERRLEN, "pcapng version %u.%u is not one libpcap reads "
			 "(1.0, 1.2)", major, minor);
		return PCAPNG_ERROR;
	}
	s->maxblock = BLOCK_MAX_FIRST; /* more than SHB_MAX: libpcap's buffer never is */
	s->sections = 1;
	s->phase = PCAPNG_PH_OPEN;
	set_quick(s);
	*used = len;
	return PCAPNG_SKIP;
}

/* A block's frame: type and length checked, the whole block in b.  Returns
 * 1 with *type and *len, or a PCAPNG_* code to return. */
static int frame(const struct pcapng_state *s, const uint8_t *b, size_t avail, int at_eof,
		 uint32_t *type, uint32_t *len, size_t *used, char *err)
{
	if (avail < 8) {
		if (!at_eof)
			return *used = 8, PCAPNG_NEED;
		if (!avail)
			return PCAPNG_END;
		snprintf(err, PCAPNG_ERRLEN, "truncated block header (%zu of 8 bytes)", avail);
		return PCAPNG_ERROR;
	}
	*type = get32(b, s->swapped);
	*len = get32(b + 4, s->swapped);
	if (*len < 12 || *len % 4) {
		snprintf(err, PCAPNG_ERRLEN, "block of type %u has a length of %u (%s)", *type,
			 *len, *len < 12 ? "less than 12" : "not a multiple of 4");
		return PCAPNG_ERROR;
	}
	if (*len > s->maxblock) {
		snprintf(err, PCAPNG_ERRLEN, "block of type %u is %u bytes long, more than the "
			 "%u libpcap allows", *type, *len, s->maxblock);
		return PCAPNG_ERROR;
	}
	if (avail < *len) {
		if (!at_eof)
			return *used = *len, PCAPNG_NEED;
		snprintf(err, PCAPNG_ERRLEN, "truncated block of type %u: the file ends %zu "
			 "bytes into its %u", *type, avail, *len);
		return PCAPNG_ERROR;
	}
	if (get32(b + *len - 4, s->swapped) != *len) {
		snprintf(err, PCAPNG_ERRLEN, "block of type %u: total length %u at its start "
			 "and %u at its end", *type, *len, get32(b + *len - 4, s->swapped));
		return PCAPNG_ERROR;
	}
	return 1;
}

static int too_short(uint32_t type, char *err)
{
	snprintf(err, PCAPNG_ERRLEN, "block of type %u is too short for its contents", type);
	return PCAPNG_ERROR;
}

/* if_tsresol's value: ticks per second and whether it is a power of 2. */
static int tsresol(uint8_t v, uint64_t *res, int *bin, char *err)
{
	unsigned e = v & 0x7f;

	*bin = !!(v & 0x80);
	if (e > (*bin ? 63u : 19u)) {
		snprintf(err, PCAPNG_ERRLEN, "interface description block: if_tsresol %s^-%u "
			 "is finer than 64 bits can count", *bin ? "2" : "10", e);
		return -1;
	}
	*res = 1;
	for (unsigned i = 0; i < e; i++)
		*res = *bin ? *res << 1 : *res * 10;
	return 0;
}

/* The IDB options libpcap looks at (b: after the 8 fixed bytes). */
static int idb_options(const struct pcapng_state *s, const uint8_t *b, size_t n,
		       struct pcapng_iface *f, int *bin, char *err)
{
	int seen_res = 0, seen_off = 0;

	while (n) {
		unsigned code, olen;
		size_t padded;

		if (n < 4)
			return too_short(PCAPNG_BT_IDB, err), -1;
		code = get16(b, s->swapped);
		olen = get16(b + 2, s->swapped);
		padded = ((size_t)olen + 3) / 4 * 4;
		if (n - 4 < padded)
			return too_short(PCAPNG_BT_IDB, err), -1;
		if (code == 0 && olen != 0) {
			snprintf(err, PCAPNG_ERRLEN, "interface description block: "
				 "opt_endofopt with length %u", olen);
			return -1;
		}
		if (code == 0)
			return 0;
		if ((code == 9 && olen != 1) || (code == 14 && olen != 8)) {
			snprintf(err, PCAPNG_ERRLEN, "interface description block: %s with "
				 "length %u", code == 9 ? "if_tsresol" : "if_tsoffset", olen);
			return -1;
		}
		if ((code == 9 && seen_res++) || (code == 14 && seen_off++)) {
			snprintf(err, PCAPNG_ERRLEN, "interface description block: more than "
				 "one %s", code == 9 ? "if_tsresol" : "if_tsoffset");
			return -1;
		}
		if (code == 9 && tsresol(b[4], &f->tsresol, bin, err) < 0)
			return -1;
		if (code == 14)
			f->tsoffset = get64(b + 4, s->swapped);
		b += 4 + padded;
		n -= 4 + padded;
	}
	return 0;
}

/* Add an interface (its options at b, n bytes) to the section's table. */
static int add_iface(struct pcapng_state *s, const uint8_t *b, size_t n, char *err)
{
	struct pcapng_iface f = { 1000000, 0, 0, 0 };
	int bin = 0;

	if (s->nif == s->ifcap) {
		uint32_t ncap = s->ifcap ? s->ifcap * 2 : 4;
		struct pcapng_iface *nf;

		if (ncap < s->ifcap || !(nf = realloc(s->ifs, (size_t)ncap * sizeof(*nf)))) {
			snprintf(err, PCAPNG_ERRLEN, "out of memory for %u interfaces", ncap);
			return -1;
		}
		s->ifs = nf;
		s->ifcap = ncap;
	}
	if (idb_options(s, b, n, &f, &bin, err) < 0)
		return -1;
	if (f.tsresol == NSEC) {
		f.scale = PCAPNG_TS_SAME;
	} else if (bin) {
		f.scale = PCAPNG_TS_BIN;
	} else if (f.tsresol > NSEC) {
		f.scale = PCAPNG_TS_DOWN_DEC;
		f.factor = f.tsresol / NSEC;
	} else if (f.tsresol == 1000000) { /* the default: pcapng_quick() reads it */
		f.scale = PCAPNG_TS_US;
		f.factor = NSEC / f.tsresol;
	} else {
		f.scale = PCAPNG_TS_UP_DEC;
		f.factor = NSEC / f.tsresol;
	}
	s->ifs[s->nif++] = f;
	return 0;
}

/* An IDB (body: after the block header, n bytes before the trailer). */
static int idb(struct pcapng_state *s, const uint8_t *body, size_t n, char *err)
{
	int lt;
	uint32_t snap;

	if (n < 8)
		return too_short(PCAPNG_BT_IDB, err);
	lt = get16(body, s->swapped);
	snap = get32(body + 4, s->swapped);
	if (s->phase == PCAPNG_PH_OPEN) {
		uint32_t m;

		s->dlt = to_dlt(lt);
		s->linktype = s->dlt == DLT_RAW ? 101 : s->dlt;
		s->snaplen = adjust_snap(s->dlt, snap);
		m = BLOCK_MAX(pcapng_max_snaplen(s->dlt));
		if (m > s->maxblock)
			s->maxblock = m;
		s->phase = PCAPNG_PH_READ;
		set_quick(s);
	} else if (lt != s->dlt) {
		snprintf(err, PCAPNG_ERRLEN, "an interface has link type %d, the first one %d: "
			 "libpcap reads one link type per file", lt, s->linktype);
		return PCAPNG_ERROR;
	} else if (adjust_snap(s->dlt, snap) != s->snaplen) {
		snprintf(err, PCAPNG_ERRLEN, "an interface has snap length %u, the first one "
			 "%u: libpcap reads one snap length per file", snap, s->snaplen);
		return PCAPNG_ERROR;
	}
	return add_iface(s, body + 8, n - 8, err) < 0 ? PCAPNG_ERROR : PCAPNG_SKIP;
}

/* A later SHB: the same byte order, major version 1; a new interface table. */
static int shb(struct pcapng_state *s, const uint8_t *body, size_t n, char *err)
{
	uint32_t bom;
	unsigned major;

	if (n < 16)
		return too_short(PCAPNG_BT_SHB, err);
	bom = get32(body, s->swapped);
	major = get16(body + 4, s->swapped);
	if (bom != PCAPNG_BOM) {
		snprintf(err, PCAPNG_ERRLEN, "a section header block %s",
			 get32(body, !s->swapped) == PCAPNG_BOM
			 ? "changes the byte order (libpcap reads one per file)"
			 : "has a bad byte-order magic");
		return PCAPNG_ERROR;
	}
	if (major != 1) {
		snprintf(err, PCAPNG_ERRLEN, "a section header block has pcapng major "
			 "version %u", major);
		return PCAPNG_ERROR;
	}
	s->nif = 0;
	s->sections++;
	return PCAPNG_SKIP;
}

/* Seconds and nanoseconds of t ticks on interface f, as libpcap computes
 * them (unsigned 64-bit arithmetic, wrapping where it wraps). */
static void stamp(const struct pcapng_iface *f, uint64_t t, struct pcapng_rec *rec)
{
	uint64_t sec = t / f->tsresol + f->tsoffset, frac = t % f->tsresol;

	switch (f->scale) {
	case PCAPNG_TS_UP_DEC:
	case PCAPNG_TS_US:
		frac *= f->factor;
		break;
	case PCAPNG_TS_DOWN_DEC:
		frac /= f->factor;
		break;
	case PCAPNG_TS_BIN:
		frac = frac * NSEC / f->tsresol;
		break;
	default:
		break;
	}
	rec->sec = (int64_t)sec;
	rec->nsec = (uint32_t)frac;
}

/* EPB, SPB or PB: the record, or an error.  body/n as for idb(). */
static int packet(struct pcapng_state *s, uint32_t type, const uint8_t *body, size_t n,
		  struct pcapng_rec *rec, char *err)
{
	size_t fixed = type == PCAPNG_BT_SPB ? 4 : 20;
	uint64_t t = 0;

	if (n < fixed)
		return too_short(type, err);
	if (type == PCAPNG_BT_SPB) {
		rec->iface = 0;
		rec->wirelen = get32(body, s->swapped);
		rec->caplen = rec->wirelen < s->snaplen ? rec->wirelen : s->snaplen;
	} else {
		rec->iface = type == PCAPNG_BT_EPB ? get32(body, s->swapped)
						   : get16(body, s->swapped);
		t = (uint64_t)get32(body + 4, s->swapped) << 32 | get32(body + 8, s->swapped);
		rec->caplen = get32(body + 12, s->swapped);
		rec->wirelen = get32(body + 16, s->swapped);
	}
	if (rec->iface >= s->nif) {
		snprintf(err, PCAPNG_ERRLEN, "a packet on interface %u, which no interface "
			 "description block in this section describes", rec->iface);
		return PCAPNG_ERROR;
	}
	if (rec->caplen > s->snaplen) {
		snprintf(err, PCAPNG_ERRLEN, "a packet of %u bytes, more than the snap length %u",
			 rec->caplen, s->snaplen);
		return PCAPNG_ERROR;
	}
	stamp(&s->ifs[rec->iface], t, rec);
	if (n - fixed < rec->caplen)
		return too_short(type, err);
	rec->data = body + fixed;
	return PCAPNG_RECORD;
}

/* Is b a section header block in the other byte order?  Its type reads
 * the same in both; its byte-order magic tells. */
static int other_order(const struct pcapng_state *s, const uint8_t *b, size_t avail)
{
	return avail >= 12 && get32(b, 0) == PCAPNG_BT_SHB &&
	       get32(b + 8, s->swapped) != PCAPNG_BOM && get32(b + 8, !s->swapped) == PCAPNG_BOM;
}

/* A section in the other byte order: pcapng allows it, libpcap 1.10 does
 * not.  It reads the block's length in the old order first: after the
 * first IDB that is an error at this block whatever the length (too long,
 * past the file's end, or then the magic), so it is named as what it is;
 * before the first IDB a length that happens to fit makes libpcap skip
 * that many bytes, and so do we.  1: frame() reads the block on. */
static int section_order(const struct pcapng_state *s, const uint8_t *b, size_t avail,
			 int at_eof, size_t *used, char *err)
{
	uint32_t type, len;
	int rc;

	if (s->phase == PCAPNG_PH_READ && avail >= 8 && avail < 12 && !at_eof &&
	    get32(b, 0) == PCAPNG_BT_SHB)
		return *used = 12, PCAPNG_NEED; /* enough to see its magic */
	if (!other_order(s, b, avail))
		return 1;
	if (s->phase != PCAPNG_PH_READ &&
	    (rc = frame(s, b, avail, at_eof, &type, &len, used, err)) != PCAPNG_ERROR)
		return rc;
	snprintf(err, PCAPNG_ERRLEN, "a section header block in the other byte order "
		 "(%s-endian after %s-endian): pcapng allows it, libpcap reads one byte "
		 "order per file", b[8] == 0x1a ? "big" : "little",
		 b[8] == 0x1a ? "little" : "big");
	return PCAPNG_ERROR;
}

int pcapng_next(struct pcapng_state *s, const uint8_t *b, size_t avail, int at_eof,
		struct pcapng_rec *rec, size_t *used, char *err)
{
	uint32_t type, len;
	int rc;

	if (s->phase == PCAPNG_PH_SHB)
		return first_shb(s, b, avail, at_eof, used, err);
	if ((rc = section_order(s, b, avail, at_eof, used, err)) != 1)
		return rc;
	if ((rc = frame(s, b, avail, at_eof, &type, &len, used, err)) != 1)
		return rc;
	*used = len;
	switch (type) {
	case PCAPNG_BT_IDB:
		return idb(s, b + 8, len - 12, err);
	case PCAPNG_BT_EPB:
	case PCAPNG_BT_SPB:
	case PCAPNG_BT_PB:
		if (s->phase == PCAPNG_PH_READ)
			return packet(s, type, b + 8, len - 12, rec, err);
		snprintf(err, PCAPNG_ERRLEN, "a packet block before any interface description "
			 "block");
		return PCAPNG_ERROR;
	case PCAPNG_BT_SHB:
		if (s->phase == PCAPNG_PH_READ)
			return shb(s, b + 8, len - 12, err);
		return PCAPNG_SKIP; /* libpcap looks at none before the first IDB */
	default:
		return PCAPNG_SKIP;
	}
}
