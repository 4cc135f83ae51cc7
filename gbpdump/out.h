/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * out.h - gbpdump's buffered output.  Printers append to one large buffer
 * that is written with write(2) when full; nothing on the per-frame path
 * calls stdio's formatted output.
 */
#ifndef GBPDUMP_OUT_H
#define GBPDUMP_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define GD_OUT_CAP (256 * 1024)

struct gd_out {
	int fd;
	size_t len;
	int err;       /* errno of the first failed write, 0 if none */
	char buf[GD_OUT_CAP];
};

void out_init(struct gd_out *o, int fd);
int out_flush(struct gd_out *o);
/* out_write when the buffer may fill up (the inline out_write calls it) */
void out_write_slow(struct gd_out *o, const char *s, size_t n);
void out_u64_slow(struct gd_out *o, uint64_t v);
void out_i64(struct gd_out *o, int64_t v);
/* lower-case hex, at least min_digits digits, no "0x" */
void out_hex(struct gd_out *o, uint64_t v, int min_digits);
/* zero-padded decimal of exactly width digits */
void out_dec_pad(struct gd_out *o, uint64_t v, int width);
/* decimal right-aligned in a field of width (at most 32) characters,
 * printf's "%*llu"; n spaces */
void out_u64_w(struct gd_out *o, uint64_t v, int width);
void out_spaces(struct gd_out *o, int n);
/* a JSON string literal with quotes and escapes */
void out_json_str(struct gd_out *o, const char *s);
/* IPv4 (len 4) or IPv6 (len 16) address; MAC address */
void out_addr(struct gd_out *o, const uint8_t *a, size_t len);
void out_mac(struct gd_out *o, const uint8_t *mac);
void out_printf(struct gd_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline void out_putc(struct gd_out *o, char c)
{
	if (o->len == GD_OUT_CAP)
		out_flush(o);
	o->buf[o->len++] = c;
}

/* The per-frame fast paths are inline: a copy into the buffer when it has
 * room (the common case), out of line only when it must be written out.
 * out_str of a string literal then costs a fixed-size copy: the compiler
 * knows its length. */
static inline void out_write(struct gd_out *o, const char *s, size_t n)
{
	if (n <= GD_OUT_CAP - o->len) {
		memcpy(o->buf + o->len, s, n);
		o->len += n;
	} else {
		out_write_slow(o, s, n);
	}
}

static inline void out_str(struct gd_out *o, const char *s)
{
	out_write(o, s, strlen(s));
}

extern const char gd_digits2[200]; /* "00" "01" ... "99" */

/* Decimal, two digits a step from the end of a scratch buffer, then one
 * copy; straight into the output buffer when 20 bytes fit. */
static inline void out_u64(struct gd_out *o, uint64_t v)
{
	char t[20], *e = t + sizeof(t), *q = e;

	if (GD_OUT_CAP - o->len < 20) {
		out_u64_slow(o, v);
		return;
	}
	if (v < 10) {
		o->buf[o->len++] = (char)('0' + v);
		return;
	}
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		q -= 2;
		memcpy(q, gd_digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		q -= 2;
		memcpy(q, gd_digits2 + 2 * v, 2);
	} else {
		*--q = (char)('0' + v);
	}
	memcpy(o->buf + o->len, q, (size_t)(e - q));
	o->len += (size_t)(e - q);
}

#endif /* GBPDUMP_OUT_H */
