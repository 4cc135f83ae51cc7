/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * decompress.h - where the reader's bytes come from: a descriptor read with
 * read(2), or a gzip, zstd or xz stream on that descriptor decompressed on
 * the fly (zlib, libzstd, liblzma).  The format is told by its magic bytes,
 * never by the file's name.  Like zcat, zstdcat and xzcat, concatenated
 * gzip members, zstd frames (skippable ones too) and xz streams read as one.
 *
 * Memory stays bounded whatever the input: one fixed compressed-input
 * buffer, output straight into the caller's buffer, zstd's window limited
 * to libzstd's default (128 MiB) and xz's decoder to GD_Z_XZ_MEMLIMIT.
 *
 * A data error is reported once every byte decoded before it has been
 * delivered: the call that reaches it returns those bytes, the next one -1
 * with a one-line message naming the file, the format, the compressed
 * offset and the capture (decompressed) offset.
 */
#ifndef GBPDUMP_DECOMPRESS_H
#define GBPDUMP_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum { GD_Z_NONE, GD_Z_GZIP, GD_Z_ZSTD, GD_Z_XZ };

#define GD_Z_IN_BUF (64u * 1024)             /* compressed bytes read at once */
#define GD_Z_XZ_MEMLIMIT (256ull * 1024 * 1024) /* xz -9 needs 65 MiB */

struct gd_z; /* one decoder (decompress.c) */

struct gd_src {
	int fd;
	const char *name;  /* for messages */
	struct gd_z *z;    /* NULL: plain read(2) */
	uint64_t base;     /* file offset where reading started */
	uint64_t raw;      /* bytes read from fd so far */
};

/* The compression format whose magic starts b[0..n), GD_Z_NONE if none. */
int gd_z_detect(const uint8_t *b, size_t n);
/* "gzip", "zstd", "xz" */
const char *gd_z_name(int fmt);

/* Read from fd with read(2), from file offset base (for positions). */
void gd_src_init(struct gd_src *s, int fd, const char *name, uint64_t base);
/* Decompress fmt from here on: the npre bytes at pre (already read from
 * fd, the stream's start) first, then fd.  0, or -1 with errbuf. */
int gd_src_decompress(struct gd_src *s, int fmt, const uint8_t *pre, size_t npre,
		      char *errbuf);
/* Up to n bytes into b: the count, 0 at the end, -1 with errbuf. */
ssize_t gd_src_read(struct gd_src *s, uint8_t *b, size_t n, char *errbuf);
/* Where reading is in the file: compressed bytes consumed, or bytes read. */
uint64_t gd_src_pos(const struct gd_src *s);
/* 1 and the message in errbuf when the decoder stopped on an error. */
int gd_src_error(const struct gd_src *s, char *errbuf);
/* Free the decoder (the descriptor is the caller's). */
void gd_src_fini(struct gd_src *s);

#endif /* GBPDUMP_DECOMPRESS_H */
