/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * writer.h - gbpdump -w: the frames that matched, as a classic pcap file,
 * written by the tools' one capture writer (common/pcap_writer.h): under a
 * temporary name, renamed into place only when everything was written and
 * removed on any error.  It never replaces the capture being read (through
 * another path, a symbolic or a hard link either), nor (without --force)
 * any existing file.
 *
 * Inline on purpose: only the frame stages (frame.c) and run.c use it, and
 * the input/ and print/ sources the reader fuzz harness compiles stay free
 * of the writer.
 */
#ifndef GBPDUMP_WRITER_H
#define GBPDUMP_WRITER_H

#include <stdio.h>

#include "pcap_writer.h"
#include "reader.h"

_Static_assert(GD_ERRBUF >= PCAPW_ERRBUF_SIZE, "errbuf sizes");

struct gd_writer {
	struct pcapw pw;
	FILE *f;        /* non-NULL while open */
	int failed;     /* errno of the first failed write, 0 */
};

/* 0, or -1 with errbuf.  inputs: the files read, a NULL-ended list (NULL:
 * none; "-" is stdin), and beside them how a message calls each (nouns). */
static inline int writer_open(struct gd_writer *w, const char *path,
			      const char *const *inputs, const char *const *nouns, int force,
			      int linktype, uint32_t snaplen, int nsec, char *errbuf)
{
	struct pcapw_opts o = {
		.flags = (force ? PCAPW_FORCE : 0) | (nsec ? PCAPW_NSEC : 0) | PCAPW_STDOUT,
		.linktype = linktype,
		.snaplen = snaplen,
		.inputs = inputs,
		.input_nouns = nouns,
	};

	w->f = NULL;
	w->failed = 0;
	if (pcapw_open(&w->pw, path, &o, errbuf) < 0)
		return -1;
	w->f = w->pw.f;
	return 0;
}

static inline int writer_add(struct gd_writer *w, const struct gd_rec *rec)
{
	int r = pcapw_write(&w->pw, rec->sec, rec->nsec, rec->data, rec->caplen,
			    rec->wirelen);

	w->failed = w->pw.failed;
	return r;
}

/* ok=1: keep the file; ok=0: remove it.  0, or -1 with errbuf. */
static inline int writer_close(struct gd_writer *w, int ok, char *errbuf)
{
	int r = pcapw_close(&w->pw, ok, errbuf);

	w->f = NULL;
	return r;
}

#endif /* GBPDUMP_WRITER_H */
