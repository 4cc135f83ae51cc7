// SPDX-License-Identifier: BSD-2-Clause
/*
 * decompress.c - plain or decompressed input (see decompress.h).
 *
 * Magic bytes: gzip (RFC 1952) 1f 8b; zstd frame (RFC 8878) 28 b5 2f fd,
 * skippable frame 5? 2a 4d 18; xz (.xz file format 1.0.4) fd 37 7a 58 5a 00.
 *
 * Every codec is one step function over the fixed input buffer: it consumes
 * what it can and writes what it can, and says whether the data ended
 * where a stream may end (end of a gzip member, of a zstd frame, of the
 * xz streams).  gd_z_read() refills the input, and turns "no more input,
 * no more output, not at such an end" into "truncated".
 */
#include <errno.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "decompress.h"
#include "reader.h" /* GD_ERRBUF */

struct gd_z {
	int fmt;
	int fd;
	const char *name;
	uint8_t *in;         /* GD_Z_IN_BUF bytes, or the pre-read bytes if more */
	size_t in_cap, in_at, in_len;
	uint64_t raw;        /* compressed bytes read (pre-read included) */
	uint64_t out;        /* decompressed bytes delivered */
	int in_eof;          /* fd at its end */
	int at_end;          /* the data so far ends where a stream may end */
	int done;            /* clean end: 0 from now on */
	int failed;          /* msg holds the error: -1 from now on */
	size_t zs_want;      /* zstd: the input its next call asks for */
	char msg[GD_ERRBUF];
	union {
		z_stream gz;
		ZSTD_DCtx *zs;
		lzma_stream xz;
	} u;
};

enum { STEP_OK, STEP_ERR };

#define ZS_FIRST 5 /* zstd: a frame's first bytes, before it can say what it wants */

int gd_z_detect(const uint8_t *b, size_t n)
{
	static const uint8_t xz[6] = { 0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00 };

	if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return GD_Z_GZIP;
	if (n >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd)
		return GD_Z_ZSTD;
	if (n >= 4 && (b[0] & 0xf0) == 0x50 && b[1] == 0x2a && b[2] == 0x4d && b[3] == 0x18)
		return GD_Z_ZSTD; /* a skippable frame first */
	if (n >= 6 && !memcmp(b, xz, 6))
		return GD_Z_XZ;
	return GD_Z_NONE;
}

const char *gd_z_name(int fmt)
{
	return fmt == GD_Z_GZIP ? "gzip" : fmt == GD_Z_ZSTD ? "zstd" : fmt == GD_Z_XZ ? "xz"
									      : "plain";
}

static uint64_t consumed(const struct gd_z *z)
{
	return z->raw - (z->in_len - z->in_at);
}

/* Store the error (what: "corrupt", "truncated", ...) for the next call;
 * made: bytes the current step wrote, not yet in z->out. */
static int z_fail(struct gd_z *z, const char *what, uint64_t made, const char *detail)
{
	snprintf(z->msg, sizeof(z->msg), "%s: %s data %s at compressed offset %llu "
		 "(capture offset %llu)%s%s", z->name, gd_z_name(z->fmt), what,
		 (unsigned long long)consumed(z), (unsigned long long)(z->out + made),
		 detail ? ": " : "", detail ? detail : "");
	z->failed = 1;
	return STEP_ERR;
}

/* ---- gzip (zlib) ---- */

static int gz_step(struct gd_z *z, uint8_t *out, size_t n, size_t *made)
{
	z_stream *s = &z->u.gz;
	int ret;

	if (z->at_end) { /* between members: another one, or the end */
		if (z->in_at < z->in_len && z->in[z->in_at] == 0) {
			while (z->in_at < z->in_len && z->in[z->in_at] == 0)
				z->in_at++; /* zero padding, as gzip -d ignores it */
			return STEP_OK;
		}
		if (z->in_len - z->in_at < 2 && !z->in_eof)
			return STEP_OK; /* more input first */
		if (z->in_at == z->in_len)
			return STEP_OK; /* the end */
		if (z->in_len - z->in_at < 2 || z->in[z->in_at] != 0x1f ||
		    z->in[z->in_at + 1] != 0x8b)
			return z_fail(z, "corrupt", 0, "trailing bytes are not another gzip member");
		if (inflateReset(s) != Z_OK)
			return z_fail(z, "corrupt", 0, "cannot restart the decoder");
		z->at_end = 0;
	}
	s->next_in = z->in + z->in_at;
	s->avail_in = (uInt)(z->in_len - z->in_at);
	s->next_out = out;
	s->avail_out = n > UINT32_MAX ? UINT32_MAX : (uInt)n;
	ret = inflate(s, Z_NO_FLUSH);
	*made = (size_t)(s->next_out - out);
	z->in_at = (size_t)(s->next_in - z->in);
	if (ret == Z_STREAM_END)
		z->at_end = 1;
	else if (ret == Z_MEM_ERROR)
		return z_fail(z, "not decompressed", *made, "out of memory");
	else if (ret != Z_OK && ret != Z_BUF_ERROR)
		return z_fail(z, "corrupt", *made, s->msg ? s->msg : "invalid data");
	return STEP_OK;
}

/* ---- zstd ---- */

/* libzstd says neither what it read nor what it wrote in a call that
 * fails, so each call is given no more than the unit it asks for next (a
 * frame header, a block and the next block's header): a failure is then
 * in the bytes of that call, which it had read, and every block before it
 * has been delivered. */
static int zs_step(struct gd_z *z, uint8_t *out, size_t n, size_t *made)
{
	size_t avail = z->in_len - z->in_at;
	ZSTD_inBuffer ib = { z->in + z->in_at, avail < z->zs_want ? avail : z->zs_want, 0 };
	ZSTD_outBuffer ob = { out, n, 0 };
	size_t ret;

	/* called with no input too: output held back must still come out */
	ret = ZSTD_decompressStream(z->u.zs, &ob, &ib);
	if (ZSTD_isError(ret)) {
		z->in_at += ib.size;
		return z_fail(z, "corrupt", 0, ZSTD_getErrorName(ret));
	}
	*made = ob.pos;
	z->in_at += ib.pos;
	z->zs_want = ret ? ret : ZS_FIRST;
	if (ib.pos || ob.pos) /* (a call without progress says nothing new) */
		z->at_end = ret == 0; /* a frame decoded and flushed */
	return STEP_OK;
}

/* ---- xz (liblzma) ---- */

static int xz_step(struct gd_z *z, uint8_t *out, size_t n, size_t *made)
{
	lzma_stream *s = &z->u.xz;
	lzma_ret ret;

	if (z->at_end)
		return STEP_OK; /* LZMA_STREAM_END: nothing follows */
	s->next_in = z->in + z->in_at;
	s->avail_in = z->in_len - z->in_at;
	s->next_out = out;
	s->avail_out = n;
	/* LZMA_CONCATENATED: only LZMA_FINISH at the input's end tells the
	 * decoder that no further stream follows */
	ret = lzma_code(s, z->in_eof ? LZMA_FINISH : LZMA_RUN);
	*made = (size_t)(s->next_out - out);
	z->in_at = (size_t)(s->next_in - z->in);
	switch (ret) {
	case LZMA_OK:
		return STEP_OK;
	case LZMA_STREAM_END:
		z->at_end = 1;
		return STEP_OK;
	case LZMA_BUF_ERROR:
		return z_fail(z, "truncated", *made, "the compressed file ends mid-stream");
	case LZMA_MEM_ERROR:
		return z_fail(z, "not decompressed", *made, "out of memory");
	case LZMA_MEMLIMIT_ERROR:
		return z_fail(z, "not decompressed", *made,
			      "it needs more than 256 MiB of memory to decompress");
	default:
		return z_fail(z, "corrupt", *made,
			      ret == LZMA_FORMAT_ERROR ? "not xz data"
			      : ret == LZMA_OPTIONS_ERROR ? "unsupported options"
			      : "invalid data");
	}
}

static int z_step(struct gd_z *z, uint8_t *out, size_t n, size_t *made)
{
	*made = 0;
	if (z->fmt == GD_Z_GZIP)
		return gz_step(z, out, n, made);
	if (z->fmt == GD_Z_ZSTD)
		return zs_step(z, out, n, made);
	return xz_step(z, out, n, made);
}

/* More compressed input once the buffer is used up.  0, or -1 (failed). */
static int z_refill(struct gd_z *z)
{
	ssize_t k;
	size_t keep = z->in_len - z->in_at;

	if (z->in_eof || keep == z->in_cap)
		return 0;
	memmove(z->in, z->in + z->in_at, keep); /* gzip's 2-byte look-ahead */
	z->in_at = 0;
	z->in_len = keep;
	do
		k = read(z->fd, z->in + z->in_len, z->in_cap - z->in_len);
	while (k < 0 && errno == EINTR);
	if (k < 0) {
		snprintf(z->msg, sizeof(z->msg), "%s: read error at compressed offset %llu: %s",
			 z->name, (unsigned long long)z->raw, strerror(errno));
		z->failed = 1;
		return -1;
	}
	if (k == 0)
		z->in_eof = 1;
	z->in_len += (size_t)k;
	z->raw += (uint64_t)k;
	return 0;
}

/* Decode into b until it is full, the data ends, or an error (then the
 * bytes made so far, the error on the next call).  A step that neither
 * read input nor consumed nor wrote anything ends the loop: at the end of
 * the input cleanly (at a stream's end) or as "truncated", else as data
 * the decoder cannot move past. */
static ssize_t gd_z_read(struct gd_z *z, uint8_t *b, size_t n, char *errbuf)
{
	size_t got = 0, made, at0;
	uint64_t raw0;
	int eof0;

	if (n == 0)
		return 0;
	while (got < n && !z->done && !z->failed) {
		raw0 = z->raw;
		eof0 = z->in_eof;
		if ((z->in_at == z->in_len ||
		     (z->at_end && z->fmt == GD_Z_GZIP && z->in_len - z->in_at < 2)) &&
		    z_refill(z) < 0)
			break;
		at0 = z->in_at;
		z_step(z, b + got, n - got, &made); /* (on an error: made before it) */
		got += made;
		z->out += made;
		if (z->failed)
			break;
		if (made || z->in_at != at0 || z->raw != raw0 || z->in_eof != eof0)
			continue;
		if (z->in_at < z->in_len)
			z_fail(z, "corrupt", 0, "the decoder makes no progress");
		else if (z->at_end)
			z->done = 1; /* (input used up and at its end: in_eof) */
		else
			z_fail(z, "truncated", 0, "the compressed file ends mid-stream");
	}
	if (got || z->done)
		return (ssize_t)got;
	memcpy(errbuf, z->msg, sizeof(z->msg));
	return -1;
}

/* A decoder of fmt on fd, its input starting with the npre bytes at pre. */
static struct gd_z *gd_z_open(int fmt, int fd, const char *name, const uint8_t *pre,
			      size_t npre)
{
	struct gd_z *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	z->fmt = fmt;
	z->fd = fd;
	z->name = name;
	z->in_cap = npre > GD_Z_IN_BUF ? npre : GD_Z_IN_BUF;
	if (!(z->in = malloc(z->in_cap)))
		goto fail;
	if (npre)
		memcpy(z->in, pre, npre);
	z->in_len = npre;
	z->raw = npre;
	if (fmt == GD_Z_GZIP) {
		/* 15 + 16: a window of up to 32 KiB, gzip framing only (zlib.h's
		 * inflateInit2(), through the table) */
		if (inflateInit2(&z->u.gz, 15 + 16) != Z_OK)
			goto fail;
	} else if (fmt == GD_Z_ZSTD) {
		z->zs_want = ZS_FIRST;
		if (!(z->u.zs = ZSTD_createDCtx()) ||
		    ZSTD_isError(ZSTD_DCtx_setParameter(z->u.zs, ZSTD_d_windowLogMax, 27)))
			goto fail;
	} else {
		lzma_stream init = LZMA_STREAM_INIT;

		z->u.xz = init;
		if (lzma_stream_decoder(&z->u.xz, GD_Z_XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK)
			goto fail;
	}
	return z;
fail:
	if (fmt == GD_Z_ZSTD)
		ZSTD_freeDCtx(z->u.zs);
	free(z->in);
	free(z);
	return NULL;
}

static void gd_z_close(struct gd_z *z)
{
	if (!z)
		return;
	if (z->fmt == GD_Z_GZIP)
		inflateEnd(&z->u.gz);
	else if (z->fmt == GD_Z_ZSTD)
		ZSTD_freeDCtx(z->u.zs);
	else
		lzma_end(&z->u.xz);
	free(z->in);
	free(z);
}

/* ---- the source ---- */

void gd_src_init(struct gd_src *s, int fd, const char *name, uint64_t base)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->name = name;
	s->base = base;
}

int gd_src_decompress(struct gd_src *s, int fmt, const uint8_t *pre, size_t npre,
		      char *errbuf)
{
	if (fmt <= GD_Z_NONE || fmt > GD_Z_XZ) {
		snprintf(errbuf, GD_ERRBUF, "%s: no decoder for format %d", s->name, fmt);
		return -1;
	}
	if (!(s->z = gd_z_open(fmt, s->fd, s->name, pre, npre))) {
		snprintf(errbuf, GD_ERRBUF, "%s: out of memory for the %s decoder", s->name,
			 gd_z_name(fmt));
		return -1;
	}
	return 0;
}

ssize_t gd_src_read(struct gd_src *s, uint8_t *b, size_t n, char *errbuf)
{
	ssize_t k;

	if (s->z)
		return gd_z_read(s->z, b, n, errbuf);
	do
		k = read(s->fd, b, n);
	while (k < 0 && errno == EINTR);
	if (k < 0)
		snprintf(errbuf, GD_ERRBUF, "%s: read error at offset %llu: %s", s->name,
			 (unsigned long long)(s->base + s->raw), strerror(errno));
	else
		s->raw += (uint64_t)k;
	return k;
}

uint64_t gd_src_pos(const struct gd_src *s)
{
	return s->base + (s->z ? consumed(s->z) : s->raw);
}

int gd_src_error(const struct gd_src *s, char *errbuf)
{
	if (!s->z || !s->z->failed)
		return 0;
	memcpy(errbuf, s->z->msg, sizeof(s->z->msg));
	return 1;
}

void gd_src_fini(struct gd_src *s)
{
	gd_z_close(s->z);
	s->z = NULL;
}
