// SPDX-License-Identifier: BSD-2-Clause
/*
 * pcap_writer.c - classic pcap and pcapng files, written under a temporary
 * name and moved into place when complete (pcap_writer.h).
 *
 * Classic pcap: a 24-byte file header (magic, version 2.4, thiszone 0,
 * sigfigs 0, snaplen, linktype), then per record a 16-byte header (seconds,
 * micro- or nanoseconds, caplen, wirelen) and the bytes, all little-endian.
 * pcapng: a Section Header Block (version 1.0, section length unknown), one
 * Interface Description Block, an Enhanced Packet Block per record.  The
 * file itself (temporary name, checks, final move) is atomic_file.c's.
 */
#include <stdarg.h>
#include <string.h>

#include "pcap_writer.h"

#define DEFAULT_SNAPLEN 262144u

static void le16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
}

static void le32(uint8_t *b, uint32_t v)
{
	le16(b, (uint16_t)v);
	le16(b + 2, (uint16_t)(v >> 16));
}

/* errbuf is PCAPW_ERRBUF_SIZE bytes. */
__attribute__((format(printf, 2, 3)))
static int errf(char *errbuf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(errbuf, PCAPW_ERRBUF_SIZE, fmt, ap);
	va_end(ap);
	return -1;
}

static void put(struct pcapw *w, const void *b, size_t n)
{
	afile_write(&w->af, b, n);
	w->failed = w->af.failed;
}

static void write_header(struct pcapw *w, const struct pcapw_opts *o)
{
	uint32_t snaplen = o->snaplen ? o->snaplen : DEFAULT_SNAPLEN;
	uint8_t h[48];

	if (!(w->flags & PCAPW_PCAPNG)) {
		le32(h, w->flags & PCAPW_NSEC ? 0xa1b23c4du : 0xa1b2c3d4u);
		le16(h + 4, 2);
		le16(h + 6, 4);
		le32(h + 8, 0);
		le32(h + 12, 0);
		le32(h + 16, snaplen);
		le32(h + 20, (uint32_t)o->linktype);
		put(w, h, 24);
		return;
	}
	le32(h, 0x0a0d0d0a);         /* SHB */
	le32(h + 4, 28);
	le32(h + 8, 0x1a2b3c4d);     /* byte-order magic */
	le16(h + 12, 1);
	le16(h + 14, 0);
	le32(h + 16, 0xffffffff);    /* section length: not given */
	le32(h + 20, 0xffffffff);
	le32(h + 24, 28);
	le32(h + 28, 1);             /* IDB */
	le32(h + 32, 20);
	le16(h + 36, (uint16_t)o->linktype);
	le16(h + 38, 0);
	le32(h + 40, snaplen);
	le32(h + 44, 20);
	put(w, h, 48);
}

int pcapw_open(struct pcapw *w, const char *name, const struct pcapw_opts *o,
	       char *errbuf)
{
	struct afile_opts ao = {
		.flags = (o->flags & PCAPW_FORCE ? AFILE_FORCE : 0) |
			 (o->flags & PCAPW_STDOUT ? AFILE_STDOUT : 0),
		.inputs = o->inputs,
		.input_noun = o->input_noun,
		.input_nouns = o->input_nouns,
	};

	memset(w, 0, sizeof(*w));
	if (name && *name && (o->flags & PCAPW_PCAPNG) && (o->flags & PCAPW_NSEC))
		return errf(errbuf, "%s: pcapng is written in microseconds", name);
	if (afile_open(&w->af, name, &ao, errbuf) < 0)
		return -1;
	w->flags = o->flags;
	w->f = w->af.f;
	write_header(w, o);
	return 0;
}

int pcapw_write(struct pcapw *w, int64_t sec, uint32_t nsec, const void *data,
		uint32_t caplen, uint32_t wirelen)
{
	static const uint8_t zero[4];
	uint8_t h[28];

	if (!w->f || w->failed)
		return -1;
	if (!(w->flags & PCAPW_PCAPNG)) {
		le32(h, (uint32_t)sec);
		le32(h + 4, w->flags & PCAPW_NSEC ? nsec : nsec / 1000);
		le32(h + 8, caplen);
		le32(h + 12, wirelen);
		put(w, h, 16);
		put(w, data, caplen);
	} else {
		uint32_t pad = (4 - caplen % 4) % 4, total = 32 + caplen + pad;
		uint64_t us = (uint64_t)sec * 1000000u + nsec / 1000;

		le32(h, 6);              /* EPB */
		le32(h + 4, total);
		le32(h + 8, 0);          /* interface 0 */
		le32(h + 12, (uint32_t)(us >> 32));
		le32(h + 16, (uint32_t)us);
		le32(h + 20, caplen);
		le32(h + 24, wirelen);
		put(w, h, 28);
		put(w, data, caplen);
		put(w, zero, pad);
		le32(h, total);
		put(w, h, 4);
	}
	w->records++;
	return w->failed ? -1 : 0;
}

int pcapw_close(struct pcapw *w, int keep, char *errbuf)
{
	int rc = afile_close(&w->af, keep, errbuf);

	w->f = NULL;
	return rc;
}
