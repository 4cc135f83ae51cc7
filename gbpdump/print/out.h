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
/* a JSON string literal with quotes and escapes (escape.h: bad UTF-8
 * becomes \ufffd) */
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
static inline __attribute__((always_inline)) void out_write(struct gd_out *o, const char *s,
							   size_t n)
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

/*
 * The line writer.  A printer that knows the most one piece of its line can
 * take reserves that much once (out_reserve: the buffer is written out first
 * when it has less room), stores the fields through a local cursor with the
 * lw_* ("line writer") helpers below, none of which checks for room, and
 * hands the cursor back with out_commit.  One compare a piece instead of one
 * a field.  A reservation is at most GD_RESERVE_MAX: -j's output blocks keep
 * far more room than that free before each frame, so reserving never
 * flushes them.  Each lw_* says the most it writes; text of any length
 * (a group's name) goes through out_str between reservations.
 */
#define GD_RESERVE_MAX 1024

static inline char *out_reserve(struct gd_out *o, size_t n)
{
	if (GD_OUT_CAP - o->len < n)
		out_flush(o);
	return o->buf + o->len;
}

static inline void out_commit(struct gd_out *o, const char *p)
{
	o->len = (size_t)(p - o->buf);
}

static inline char *lw_mem(char *p, const void *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* a string literal: a copy of a size the compiler knows, no strlen */
#define LW_LIT(p, s) lw_mem((p), "" s, sizeof(s) - 1)

static inline char *lw_c(char *p, char c)
{
	*p = c;
	return p + 1;
}

/* 1000000 and above, at most 10 bytes (lw_u32's long case, out of line) */
char *lw_u32_long(char *p, uint32_t v);

/* gd_digits2's pair of the integer part of a 32.32 fixed-point y, and y's
 * fraction times 100: the next pair in the integer part. */
#define LW_PAIR(p, y) memcpy((p), gd_digits2 + 2 * ((y) >> 32), 2)
#define LW_NEXT(y) ((uint64_t)(uint32_t)(y) * 100)

/*
 * Decimal, at most 10 bytes.  Up to six digits (ports, lengths, VNIs, most
 * of a line's numbers) without a loop or a division: v times 2^32 / 100^k,
 * rounded up, holds the leading one or two digits in its integer part and
 * the rest as a binary fraction; each fraction times 100 gives the next
 * pair.  The rounding error (v * 0.28 at most for 2^32 / 10^4) stays below
 * what would change a pair below 10^6: unit_out checks every value there.
 */
static inline __attribute__((always_inline)) char *lw_u32_inline(char *p, uint32_t v)
{
	uint64_t y;

	if (v < 100) {
		if (v < 10) {
			*p = (char)('0' + v);
			return p + 1;
		}
		memcpy(p, gd_digits2 + 2 * v, 2);
		return p + 2;
	}
	if (v < 10000) {
		y = (uint64_t)v * 42949673u; /* ceil(2^32 / 100) */
		if (v < 1000) {
			*p++ = (char)('0' + (y >> 32));
		} else {
			LW_PAIR(p, y);
			p += 2;
		}
		y = LW_NEXT(y);
		LW_PAIR(p, y);
		return p + 2;
	}
	if (v >= 1000000)
		return lw_u32_long(p, v);
	y = (uint64_t)v * 429497u; /* ceil(2^32 / 10^4) */
	if (v < 100000) {
		*p++ = (char)('0' + (y >> 32));
	} else {
		LW_PAIR(p, y);
		p += 2;
	}
	y = LW_NEXT(y);
	LW_PAIR(p, y);
	y = LW_NEXT(y);
	LW_PAIR(p + 2, y);
	return p + 4;
}

/* lw_u32 where the compiler chooses to inline or not (print_text: forcing
 * it costs registers); print_json forces it (lw_u32_inline: its numbers
 * are short, and a call would be a fifth of one). */
static inline char *lw_u32(char *p, uint32_t v)
{
	return lw_u32_inline(p, v);
}

/* exactly six digits, zero-padded, of v below 10^6 (microseconds):
 * lw_u32's three pairs */
static inline char *lw_dec6(char *p, uint32_t v)
{
	uint64_t y = (uint64_t)v * 429497u; /* ceil(2^32 / 10^4) */

	LW_PAIR(p, y);
	y = LW_NEXT(y);
	LW_PAIR(p + 2, y);
	y = LW_NEXT(y);
	LW_PAIR(p + 4, y);
	return p + 6;
}

/* at most 20 bytes */
char *lw_u64(char *p, uint64_t v);
/* "%*llu": v right-aligned in width columns, or wider when it has more
 * digits (at most 20 bytes, or width) */
char *lw_u64_w(char *p, uint64_t v, int width);

extern const char gd_hex2[256][2]; /* "00" "01" ... "ff" */

/* four lower-case hex digits, out_hex(v, 4) of a 16-bit value */
static inline char *lw_hex4(char *p, uint16_t v)
{
	memcpy(p, gd_hex2[v >> 8], 2);
	memcpy(p + 2, gd_hex2[v & 0xff], 2);
	return p + 4;
}

/* lower-case hex of exactly n (1..8) digits: the low n nibbles of v */
static inline char *lw_hexw(char *p, uint32_t v, unsigned n)
{
	static const char hx[16] = "0123456789abcdef";

	for (unsigned i = n; i-- > 0; v >>= 4)
		p[i] = hx[v & 0xf];
	return p + n;
}

/* lower-case hex without leading zeros, at least one digit: out_hex(v, 1) */
static inline char *lw_hex(char *p, uint32_t v)
{
	unsigned n = v ? (unsigned)(35 - __builtin_clz(v)) / 4 : 1;

	return lw_hexw(p, v, n);
}

/* out_addr's text: at most GD_ADDR_MAX bytes (an IPv4 one writes up to 20,
 * some of them spare).  IPv4 inline: each byte's digits, a dot and its
 * length in one 8-byte load from gd_dec_dot, stored whole, the next byte's
 * store over the spare bytes. */
#define GD_ADDR_MAX 48
extern const char gd_dec_dot[256][8]; /* "0." .. "255.", [7]: the length */
char *lw_addr_other(char *p, const uint8_t *a, size_t len);

static inline char *lw_ipv4(char *d, const uint8_t *a)
{
	uint8_t b[4];

	memcpy(b, a, 4); /* once: the stores below could alias a */
	for (int i = 0; i < 4; i++) {
		uint64_t w;

		memcpy(&w, gd_dec_dot[b[i]], 8);
		memcpy(d, &w, 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		d += w >> 56;
#else
		d += gd_dec_dot[b[i]][7];
#endif
	}
	return d - 1; /* not the last dot */
}

static inline char *lw_addr(char *p, const uint8_t *a, size_t len)
{
	if (a && len == 4)
		return lw_ipv4(p, a);
	return lw_addr_other(p, a, len);
}

/* out_mac's text: 17 bytes, 18 written ("?" without a MAC) */
char *lw_mac(char *p, const uint8_t *mac);

#endif /* GBPDUMP_OUT_H */
