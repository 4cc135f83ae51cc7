// SPDX-License-Identifier: BSD-2-Clause
/*
 * cipso.c - the CIPSO IPv4 option (type 134): parser with findings,
 * category iteration and text (cats.h, shared with calipso.c), builder.
 *
 *   +------+------+------//------+----------//----------+
 *   | 134  | len  |  DOI (32 bit) |  tags ...            |
 *   +------+------+------//------+----------//----------+
 *
 * Tags (draft-ietf-cipso-ipsecurity-01 sec. 3.4, FIPS 188, Linux):
 *   1 restrictive bitmap  type len 0 level bitmap(0..30 bytes, MSB = cat 0)
 *   2 enumerated          type len 0 level cat16 ... (ascending, <= 15)
 *   5 ranged              type len 0 level top16 bottom16 ... (descending,
 *                         <= 7 pairs, the last bottom may be omitted = 0)
 *   6 permissive bitmap   as tag 1
 *   7 free form           type len data
 *   128 Linux local       type 6 secid(32 bit, host order; loopback only)
 *
 * Every read goes through the checked cursor (cursor.h).
 */
#include <string.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "cats.h"
#include "cursor.h"

#define TAG_MAC_HDR 4      /* type, length, alignment, level */
#define BITMAP_MAX 30      /* bytes: categories 0..239 */
#define BITMAP_OPTIMIZED 10
#define ENUM_MAX 15
#define RANGE_MAX 7
#define LOCAL_LEN 6

static int is_mac_tag(uint8_t type)
{
	return type == VXGBP_CIPSO_TAG_RBM || type == VXGBP_CIPSO_TAG_ENUM ||
	       type == VXGBP_CIPSO_TAG_RANGE || type == VXGBP_CIPSO_TAG_PBM;
}

/* Findings of a MAC tag's category data (the bytes after the level). */
static uint64_t check_cats(uint8_t type, const struct vxc *d)
{
	size_t n = vxc_left(d), i;
	uint64_t f = 0;

	switch (type) {
	case VXGBP_CIPSO_TAG_RBM:
	case VXGBP_CIPSO_TAG_PBM:
		if (n > BITMAP_MAX)
			f |= VXGBP_RB(VXGBP_R_CIPSO_TAG_LEN);
		if (n && n != BITMAP_OPTIMIZED && vxc_u8_at(d, n - 1) == 0)
			f |= VXGBP_RB(VXGBP_R_CIPSO_BITMAP_PAD);
		break;
	case VXGBP_CIPSO_TAG_ENUM: {
		long prev = -1;

		if (n % 2 || n / 2 > ENUM_MAX)
			f |= VXGBP_RB(VXGBP_R_CIPSO_TAG_LEN);
		for (i = 0; i + 2 <= n; i += 2) {
			uint16_t v = vxc_be16_at(d, i);

			if (v > VXGBP_CIPSO_CAT_MAX)
				f |= VXGBP_RB(VXGBP_R_CIPSO_CAT_INVALID);
			if ((long)v <= prev)
				f |= VXGBP_RB(VXGBP_R_CIPSO_CAT_ORDER);
			prev = v;
		}
		break;
	}
	case VXGBP_CIPSO_TAG_RANGE: {
		long prev_bottom = 0x10000; /* the next top must lie below it */

		if (n % 2 || (n + 2) / 4 > RANGE_MAX)
			f |= VXGBP_RB(VXGBP_R_CIPSO_TAG_LEN);
		for (i = 0; i + 2 <= n; i += 4) {
			uint16_t top = vxc_be16_at(d, i);
			uint16_t bottom = i + 4 <= n ? vxc_be16_at(d, i + 2) : 0;

			if (top > VXGBP_CIPSO_CAT_MAX || bottom > VXGBP_CIPSO_CAT_MAX)
				f |= VXGBP_RB(VXGBP_R_CIPSO_CAT_INVALID);
			if (top < bottom || (long)top >= prev_bottom)
				f |= VXGBP_RB(VXGBP_R_CIPSO_RANGE);
			prev_bottom = bottom;
		}
		break;
	}
	default:
		break;
	}
	return f;
}

/* Decode one tag of tlen bytes at o's position (tlen >= 2 and within o). */
static void parse_tag(struct vxgbp_cipso_tag *t, const struct vxc *o, uint8_t tlen,
		      uint64_t *f)
{
	struct vxc d;

	memset(t, 0, sizeof(*t));
	t->type = vxc_u8_at(o, 0);
	t->len = tlen;
	if (is_mac_tag(t->type)) {
		if (tlen < TAG_MAC_HDR) {
			*f |= VXGBP_RB(VXGBP_R_CIPSO_TAG_LEN);
			return;
		}
		if (vxc_u8_at(o, 2) != 0)
			*f |= VXGBP_RB(VXGBP_R_CIPSO_ALIGN);
		t->has_level = 1;
		t->level = vxc_u8_at(o, 3);
		t->data_len = (uint8_t)(tlen - TAG_MAC_HDR);
		t->data = vxc_ptr_at(o, TAG_MAC_HDR, t->data_len);
		d = *o;
		vxc_skip(&d, TAG_MAC_HDR);
		vxc_limit(&d, t->data_len);
		*f |= check_cats(t->type, &d);
		return;
	}
	t->data_len = (uint8_t)(tlen - 2);
	t->data = vxc_ptr_at(o, 2, t->data_len);
	if (t->type == VXGBP_CIPSO_TAG_LOCAL) {
		*f |= VXGBP_RB(VXGBP_R_CIPSO_LOCAL);
		if (tlen != LOCAL_LEN)
			*f |= VXGBP_RB(VXGBP_R_CIPSO_TAG_LEN);
	} else if (t->type != VXGBP_CIPSO_TAG_FREE) {
		*f |= VXGBP_RB(VXGBP_R_CIPSO_TAG_UNKNOWN);
	}
}

int vxgbp_cipso_parse(struct vxgbp_cipso *c, const void *opt, size_t len)
{
	uint8_t seen[32] = { 0 }; /* tag types met, one bit each */
	struct vxc o;
	size_t olen;

	if (!c)
		return VXGBP_E_INVAL;
	memset(c, 0, sizeof(*c));
	if (!opt && len)
		return VXGBP_E_INVAL;
	vxc_init(&o, opt, len);
	if (!vxc_need(&o, 2))
		return VXGBP_E_TRUNCATED;
	if (vxc_u8_at(&o, 0) != VXGBP_CIPSO_OPT)
		return VXGBP_E_INVAL;
	olen = vxc_u8_at(&o, 1);
	c->len = (uint8_t)olen;
	if (olen < VXGBP_CIPSO_HDR_LEN || olen > VXGBP_CIPSO_MAX_LEN)
		c->findings |= VXGBP_RB(VXGBP_R_CIPSO_LEN);
	if (olen < VXGBP_CIPSO_HDR_LEN)
		return VXGBP_E_MALFORMED;
	if (!vxc_need(&o, olen))
		return VXGBP_E_TRUNCATED;
	vxc_limit(&o, olen);
	c->doi = vxc_be32_at(&o, 2);
	if (c->doi == 0)
		c->findings |= VXGBP_RB(VXGBP_R_CIPSO_DOI);
	vxc_skip(&o, VXGBP_CIPSO_HDR_LEN);

	while (vxc_left(&o)) {
		struct vxgbp_cipso_tag t;
		uint8_t type, tlen;

		if (!vxc_need(&o, 2)) { /* one byte left: no room for a tag */
			c->findings |= VXGBP_RB(VXGBP_R_CIPSO_TAG_LEN);
			break;
		}
		type = vxc_u8_at(&o, 0);
		tlen = vxc_u8_at(&o, 1);
		if (tlen < 2 || !vxc_need(&o, tlen)) {
			c->findings |= VXGBP_RB(VXGBP_R_CIPSO_TAG_LEN);
			break;
		}
		if (seen[type / 8] & (1u << (type % 8)))
			c->findings |= VXGBP_RB(VXGBP_R_CIPSO_TAG_ORDER);
		seen[type / 8] |= (uint8_t)(1u << (type % 8));
		parse_tag(&t, &o, tlen, &c->findings);
		if (c->n_tags < VXGBP_CIPSO_MAX_TAGS)
			c->tags[c->n_tags++] = t;
		vxc_skip(&o, tlen);
	}
	return (int)olen;
}

/* ------------------------------------------------------------------------
 * Categories.
 */
int vxgbp_cipso_cat_next(const struct vxgbp_cipso_tag *t, unsigned *iter,
			 uint16_t *lo, uint16_t *hi)
{
	struct vxc d;
	size_t n, i;

	if (!t || !iter || !lo || !hi || !t->has_level || !t->data)
		return 0;
	vxc_init(&d, t->data, t->data_len);
	n = t->data_len;
	switch (t->type) {
	case VXGBP_CIPSO_TAG_RBM:
	case VXGBP_CIPSO_TAG_PBM:
		return vxc_bitmap_next(t->data, n, iter, lo, hi);
	case VXGBP_CIPSO_TAG_ENUM:
		i = (size_t)*iter * 2;
		if (i + 2 > n)
			return 0;
		*lo = *hi = vxc_be16_at(&d, i);
		while (i + 4 <= n && *hi < 0xffff && vxc_be16_at(&d, i + 2) == *hi + 1) {
			*hi = (uint16_t)(*hi + 1);
			i += 2;
		}
		*iter = (unsigned)(i / 2 + 1);
		return 1;
	case VXGBP_CIPSO_TAG_RANGE: {
		size_t n16 = n / 2, npairs = (n16 + 1) / 2, j;
		uint16_t top, bottom;

		if (*iter >= npairs)
			return 0;
		j = npairs - 1 - *iter; /* last pair first: ascending output */
		top = vxc_be16_at(&d, j * 4);
		bottom = j * 2 + 1 < n16 ? vxc_be16_at(&d, j * 4 + 2) : 0;
		*lo = top < bottom ? top : bottom;
		*hi = top < bottom ? bottom : top;
		(*iter)++;
		return 1;
	}
	default:
		return 0;
	}
}

const struct vxgbp_cipso_tag *vxgbp_cipso_label_tag(const struct vxgbp_cipso *c)
{
	if (!c)
		return NULL;
	for (unsigned i = 0; i < c->n_tags && i < VXGBP_CIPSO_MAX_TAGS; i++)
		if (c->tags[i].has_level)
			return &c->tags[i];
	return NULL;
}

const char *vxgbp_cipso_tag_name(uint8_t type)
{
	switch (type) {
	case VXGBP_CIPSO_TAG_RBM:
		return "bitmap";
	case VXGBP_CIPSO_TAG_ENUM:
		return "enumerated";
	case VXGBP_CIPSO_TAG_RANGE:
		return "ranged";
	case VXGBP_CIPSO_TAG_PBM:
		return "permissive";
	case VXGBP_CIPSO_TAG_FREE:
		return "freeform";
	case VXGBP_CIPSO_TAG_LOCAL:
		return "local";
	default:
		return "unknown";
	}
}

/* ------------------------------------------------------------------------
 * Category text, written once for CIPSO and CALIPSO (cats.h): runs as
 * "0,1,5-9", a run of two as two numbers.
 */

/* Decimal v at s; returns the number of digits (no NUL). */
static size_t utoa16(char *s, uint16_t v)
{
	char t[5];
	size_t n = 0;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		s[i] = t[n - 1 - i];
	return n;
}

/* One run, after a comma unless first: ",65534-65534" at most. */
static size_t run_text(char *s, int first, uint16_t lo, uint16_t hi)
{
	size_t n = 0;

	if (!first)
		s[n++] = ',';
	n += utoa16(s + n, lo);
	if (hi == lo)
		return n;
	s[n++] = hi == lo + 1 ? ',' : '-';
	return n + utoa16(s + n, hi);
}

int vxgbpi_cats_put(vxgbpi_cat_next_fn next, const void *obj, vxgbp_put_fn put, void *ctx)
{
	unsigned it = 0;
	uint16_t lo, hi;
	size_t total = 0;
	char s[16];

	if (!put)
		return VXGBP_E_INVAL;
	while (next(obj, &it, &lo, &hi)) {
		size_t n = run_text(s, total == 0, lo, hi);
		int r = put(ctx, s, n);

		if (r < 0)
			return r;
		total += n;
	}
	return (int)total; /* at most 65535 categories: far below INT_MAX */
}

struct fixed_buf {
	char *buf;
	size_t cap, pos; /* pos < cap: room for the NUL */
};

/* put() into a fixed buffer: as much as fits, NUL-terminated, then
 * VXGBP_E_NOSPACE. */
static int fixed_put(void *ctx, const char *s, size_t n)
{
	struct fixed_buf *f = ctx;
	size_t room = f->cap - 1 - f->pos;

	if (n > room) {
		memcpy(f->buf + f->pos, s, room);
		f->pos += room;
		f->buf[f->pos] = '\0';
		return VXGBP_E_NOSPACE;
	}
	memcpy(f->buf + f->pos, s, n);
	f->pos += n;
	f->buf[f->pos] = '\0';
	return 0;
}

int vxgbpi_cats_format(vxgbpi_cat_next_fn next, const void *obj, char *buf, size_t buflen)
{
	struct fixed_buf f = { buf, buflen, 0 };

	if (!buf || !buflen)
		return VXGBP_E_NOSPACE;
	buf[0] = '\0';
	return vxgbpi_cats_put(next, obj, fixed_put, &f);
}

static int cipso_next(const void *tag, unsigned *iter, uint16_t *lo, uint16_t *hi)
{
	return vxgbp_cipso_cat_next(tag, iter, lo, hi);
}

int vxgbp_cipso_cats_put(const struct vxgbp_cipso_tag *t, vxgbp_put_fn put, void *ctx)
{
	return vxgbpi_cats_put(cipso_next, t, put, ctx);
}

int vxgbp_cipso_cats_format(char *buf, size_t buflen, const struct vxgbp_cipso_tag *t)
{
	return vxgbpi_cats_format(cipso_next, t, buf, buflen);
}

/* ------------------------------------------------------------------------
 * Builder.
 */
static void put16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

/* The body (after type, length, alignment, level) of a MAC tag into b
 * (room for VXGBP_CIPSO_MAX_LEN bytes).  Returns its length or an error. */
static int mac_body(uint8_t *b, const struct vxgbp_cipso_tag_spec *ts)
{
	uint8_t set[(VXGBP_CIPSO_CAT_MAX + 8) / 8];
	size_t n = ts->n_cats, len = 0;

	if (n && !ts->cats)
		return VXGBP_E_INVAL;
	switch (ts->type) {
	case VXGBP_CIPSO_TAG_RBM:
	case VXGBP_CIPSO_TAG_PBM:
		memset(b, 0, BITMAP_MAX);
		for (size_t i = 0; i < n; i++) {
			uint16_t v = ts->cats[i];

			if (v >= BITMAP_MAX * 8)
				return VXGBP_E_INVAL;
			b[v / 8] |= (uint8_t)(0x80u >> (v % 8));
			if ((size_t)v / 8 + 1 > len)
				len = (size_t)v / 8 + 1;
		}
		return (int)len;
	case VXGBP_CIPSO_TAG_ENUM:
		if (n > ENUM_MAX)
			return VXGBP_E_INVAL;
		for (size_t i = 0; i < n; i++) {
			if (ts->cats[i] > VXGBP_CIPSO_CAT_MAX)
				return VXGBP_E_INVAL;
			put16(b + 2 * i, ts->cats[i]);
		}
		return (int)(2 * n);
	case VXGBP_CIPSO_TAG_RANGE: {
		long c, top;
		size_t runs = 0;

		memset(set, 0, sizeof(set));
		for (size_t i = 0; i < n; i++) {
			if (ts->cats[i] > VXGBP_CIPSO_CAT_MAX)
				return VXGBP_E_INVAL;
			set[ts->cats[i] / 8] |= (uint8_t)(1u << (ts->cats[i] % 8));
		}
		/* Runs from the highest down: top, bottom, top, bottom ... */
		for (c = VXGBP_CIPSO_CAT_MAX; c >= 0; c--) {
			if (!(set[c / 8] & (1u << (c % 8))))
				continue;
			top = c;
			while (c > 0 && (set[(c - 1) / 8] & (1u << ((c - 1) % 8))))
				c--;
			if (++runs > RANGE_MAX)
				return VXGBP_E_INVAL;
			put16(b + len, (uint16_t)top);
			len += 2;
			if (c != 0) { /* Linux omits a last bottom of 0 */
				put16(b + len, (uint16_t)c);
				len += 2;
			}
		}
		return (int)len;
	}
	default:
		return VXGBP_E_INVAL;
	}
}

int vxgbp_cipso_build(void *out, size_t outlen, uint32_t doi,
		      const struct vxgbp_cipso_tag_spec *tags, unsigned n_tags)
{
	uint8_t b[VXGBP_CIPSO_MAX_LEN + 64];
	size_t pos = VXGBP_CIPSO_HDR_LEN;

	if (!out || (n_tags && !tags))
		return VXGBP_E_INVAL;
	for (unsigned i = 0; i < n_tags; i++) {
		const struct vxgbp_cipso_tag_spec *ts = &tags[i];
		uint8_t body[VXGBP_CIPSO_MAX_LEN];
		size_t tlen, hdr;
		int r;

		if (ts->raw || ts->raw_len) {
			if (!ts->raw || ts->raw_len > VXGBP_CIPSO_MAX_LEN)
				return VXGBP_E_INVAL;
			hdr = 2;
			r = (int)ts->raw_len;
			memcpy(body, ts->raw, ts->raw_len);
		} else if (is_mac_tag(ts->type)) {
			hdr = TAG_MAC_HDR;
			if ((r = mac_body(body, ts)) < 0)
				return r;
		} else {
			return VXGBP_E_INVAL; /* 7, 128, others need raw bytes */
		}
		tlen = hdr + (size_t)r;
		if (pos + tlen > VXGBP_CIPSO_MAX_LEN)
			return VXGBP_E_INVAL;
		b[pos] = ts->type;
		b[pos + 1] = ts->len_override ? ts->len_override : (uint8_t)tlen;
		if (hdr == TAG_MAC_HDR) {
			b[pos + 2] = 0;
			b[pos + 3] = ts->level;
		}
		memcpy(b + pos + hdr, body, (size_t)r);
		pos += tlen;
	}
	if (pos > outlen)
		return VXGBP_E_NOSPACE;
	b[0] = VXGBP_CIPSO_OPT;
	b[1] = (uint8_t)pos;
	put16(b + 2, (uint16_t)(doi >> 16));
	put16(b + 4, (uint16_t)doi);
	memcpy(out, b, pos);
	return (int)pos;
}
