/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pcap_writer.h - the one capture writer of the vxgbp tools (gbpgen,
 * gbpdump -w, gbpprobe -w/-W).  Internal: a static library, not installed.
 *
 * A capture is written under a temporary name (common/atomic_file.h) in
 * the directory of the file asked for (NAME.tmp.XXXXXX, mode 0666 less the umask), flushed to disk and
 * moved into place by pcapw_close(w, 1) only: a crash, a write error or
 * pcapw_close(w, 0) never leaves a partial file under NAME, and an existing
 * NAME stays as it was until the new one is complete.
 *
 * It refuses
 *  - an existing NAME unless PCAPW_FORCE (and still when NAME appears
 *    between open and close: the final move does not replace it);
 *  - NAME when it is one of the input files it is told about, even with
 *    PCAPW_FORCE: the same file (device and inode) under another path, a
 *    symbolic link or a hard link counts ("-" as an input is standard input);
 *  - NAME when it is something other than a regular file (a directory, a
 *    device, a FIFO; through a symbolic link too).
 * With PCAPW_FORCE, a NAME that is a symbolic link to a regular file is
 * replaced by the new file (as rename(2) does); the file it pointed to is
 * left alone.
 *
 * Errors are one line in a libpcap-style errbuf that names the file:
 * "out.pcap: file exists; use --force to overwrite it".
 */
#ifndef VXGBP_PCAP_WRITER_H
#define VXGBP_PCAP_WRITER_H

#include <stdint.h>
#include <stdio.h>

#include "atomic_file.h"

#define PCAPW_ERRBUF_SIZE AFILE_ERRBUF_SIZE

#define PCAPW_FORCE 0x1u   /* replace an existing regular file */
#define PCAPW_PCAPNG 0x2u  /* pcapng: a Section Header Block, one Interface
                              Description Block, Enhanced Packet Blocks with
                              microsecond timestamps (the default resolution) */
#define PCAPW_NSEC 0x4u    /* classic pcap with nanosecond timestamps
                              (magic 0xa1b23c4d); not with PCAPW_PCAPNG */
#define PCAPW_STDOUT 0x8u  /* the name "-" is standard output (no temporary
                              file, nothing to refuse) */

struct pcapw_opts {
	unsigned flags;              /* PCAPW_* */
	int linktype;                /* LINKTYPE_* of the records (1: Ethernet) */
	uint32_t snaplen;            /* in the file header; 0: 262144 */
	const char *const *inputs;   /* files being read, never overwritten; NULL
	                                or NULL-terminated; NULL entries end it */
	const char *input_noun;      /* how errors call them: "the capture" (the
	                                default), "the spec file", ... */
	const char *const *input_nouns; /* or each its own (atomic_file.h) */
};

struct pcapw {
	FILE *f;                     /* NULL when not open (af.f, mirrored) */
	unsigned flags;
	int failed;                  /* errno of the first failed write; 0
	                                (af.failed, mirrored) */
	uint64_t records;
	struct afile af;             /* the file: name, temporary, inputs */
};

/* Check NAME, create the temporary file and write the file header.
 * 0, or -1 with errbuf (PCAPW_ERRBUF_SIZE bytes) set and nothing created. */
int pcapw_open(struct pcapw *w, const char *name, const struct pcapw_opts *o,
	       char *errbuf);

/* Append one record: time sec.nsec (nsec < 10^9), caplen bytes of data,
 * wirelen bytes on the wire.  0, or -1 once a write has failed (w->failed;
 * pcapw_close() then reports it and removes the file). */
int pcapw_write(struct pcapw *w, int64_t sec, uint32_t nsec, const void *data,
		uint32_t caplen, uint32_t wirelen);

/* keep 1: flush, sync and move the file into place; keep 0: remove it.
 * 0, or -1 with errbuf (a write error: the partial file is removed).
 * Closing a writer that is not open does nothing and returns 0. */
int pcapw_close(struct pcapw *w, int keep, char *errbuf);

#endif /* VXGBP_PCAP_WRITER_H */
