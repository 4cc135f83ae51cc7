/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * writer.h - gbpdump -w: the frames that matched, as a classic pcap file.
 * The file is written under a temporary name and renamed into place only
 * when everything was written; on any error it is removed.  It never
 * replaces the capture being read, nor (without --force) any existing file.
 */
#ifndef GBPDUMP_WRITER_H
#define GBPDUMP_WRITER_H

#include <stdio.h>

#include "reader.h"

struct gd_writer {
	FILE *f;
	char path[4096];
	char tmp[4096];
	int nsec;
	int failed;
};

/* 0, or -1 with errbuf.  input may be NULL (live capture). */
int writer_open(struct gd_writer *w, const char *path, const char *input, int force,
		int linktype, uint32_t snaplen, int nsec, char *errbuf);
int writer_add(struct gd_writer *w, const struct gd_rec *rec);
/* ok=1: keep the file; ok=0: remove it.  0, or -1 with errbuf. */
int writer_close(struct gd_writer *w, int ok, char *errbuf);

#endif /* GBPDUMP_WRITER_H */
