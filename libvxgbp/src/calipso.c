// SPDX-License-Identifier: BSD-2-Clause
/*
 * calipso.c - the CALIPSO IPv6 hop-by-hop option (RFC 5570): parser with
 * findings, CRC-16 checksum, category iteration and text (cats.h), builder.
 *
 *   +------+------+------------//-----------+------+-------+------------+
 *   |  7   | dlen |  DOI (32 bit)            | cmpt | level | CRC-16     |
 *   +------+------+------------//-----------+------+-------+------------+
 *   |  compartment bitmap, cmpt 32-bit words (MSB of byte 0 = cat 0)   |
 *   +------------------------------------------------------------------+
 *
 * The checksum is the CRC-16 of HDLC (RFC 1662: reflected polynomial
 * x^16 + x^12 + x^5 + 1, initial value 0xffff, complemented) over the whole
 * option with the checksum field as zero, sent low byte first - what Linux
 * computes with ~crc_ccitt(0xffff, ...) in net/ipv6/calipso.c.
 *
 * Every read goes through the checked cursor (cursor.h).
 */
#include <string.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "cats.h"
#include "cursor.h"

#define CALIPSO_HDR 8     /* option data before the bitmap */
#define CALIPSO_CSUM_AT 8 /* offset of the checksum from the type byte */
#define CMPT_WORDS_MAX 61 /* (255 - 8) / 4 */

static uint16_t crc_step(uint16_t crc, uint8_t b)
{
	crc ^= b;
	for (int i = 0; i < 8; i++)
		crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0x8408) : (uint16_t)(crc >> 1);
	return crc;
}

static uint16_t csum_cursor(const struct vxc *o, size_t len)
{
	uint16_t crc = 0xffff;

	for (size_t i = 0; i < len; i++) {
		uint8_t b = (i == CALIPSO_CSUM_AT || i == CALIPSO_CSUM_AT + 1)
				    ? 0 : vxc_u8_at(o, i);

		crc = crc_step(crc, b);
	}
	return (uint16_t)~crc;
}

uint16_t vxgbp_calipso_csum(const void *opt, size_t len)
{
	struct vxc o;

	if (!opt || len < CALIPSO_HDR + 2)
		return 0;
	vxc_init(&o, opt, len);
	return csum_cursor(&o, len);
}

int vxgbp_calipso_parse(struct vxgbp_calipso *c, const void *opt, size_t len)
{
	struct vxc o;
	size_t dlen, olen;

	if (!c)
		return VXGBP_E_INVAL;
	memset(c, 0, sizeof(*c));
	if (!opt && len)
		return VXGBP_E_INVAL;
	vxc_init(&o, opt, len);
	if (!vxc_need(&o, 2))
		return VXGBP_E_TRUNCATED;
	if (vxc_u8_at(&o, 0) != VXGBP_CALIPSO_OPT)
		return VXGBP_E_INVAL;
	dlen = vxc_u8_at(&o, 1);
	olen = dlen + 2;
	c->data_len = (uint8_t)dlen;
	if (dlen < CALIPSO_HDR) {
		c->findings |= VXGBP_RB(VXGBP_R_CALIPSO_LEN);
		return VXGBP_E_MALFORMED;
	}
	if (!vxc_need(&o, olen))
		return VXGBP_E_TRUNCATED;
	vxc_limit(&o, olen);
	c->doi = vxc_be32_at(&o, 2);
	c->cmpt_len = vxc_u8_at(&o, 6);
	c->level = vxc_u8_at(&o, 7);
	c->csum = (uint16_t)(vxc_u8_at(&o, 8) | (unsigned)vxc_u8_at(&o, 9) << 8);
	/* The bitmap is what the compartment length declares (as Linux and
	 * Wireshark read it), cut to what the option holds. */
	c->cmpt_bytes = (uint16_t)((size_t)c->cmpt_len * 4 < dlen - CALIPSO_HDR
					   ? (size_t)c->cmpt_len * 4 : dlen - CALIPSO_HDR);
	c->cmpt = vxc_ptr_at(&o, CALIPSO_HDR + 2, c->cmpt_bytes);
	if ((size_t)c->cmpt_len * 4 != dlen - CALIPSO_HDR)
		c->findings |= VXGBP_RB(VXGBP_R_CALIPSO_LEN);
	if (c->doi == 0)
		c->findings |= VXGBP_RB(VXGBP_R_CALIPSO_DOI);
	c->csum_calc = csum_cursor(&o, olen);
	c->csum_ok = c->csum_calc == c->csum;
	if (!c->csum_ok)
		c->findings |= VXGBP_RB(VXGBP_R_CALIPSO_CSUM);
	return (int)olen;
}

int vxgbp_calipso_cat_next(const struct vxgbp_calipso *c, unsigned *iter,
			   uint16_t *lo, uint16_t *hi)
{
	if (!c || !iter || !lo || !hi || !c->cmpt)
		return 0;
	return vxc_bitmap_next(c->cmpt, c->cmpt_bytes, iter, lo, hi);
}

int vxgbp_calipso_build(void *out, size_t outlen, uint32_t doi, uint8_t level,
			const uint16_t *cats, unsigned n_cats, unsigned flags)
{
	uint8_t b[2 + 255];
	size_t words = 0, olen;
	uint16_t crc;

	if (!out || (n_cats && !cats))
		return VXGBP_E_INVAL;
	for (unsigned i = 0; i < n_cats; i++) {
		if (cats[i] >= CMPT_WORDS_MAX * 32)
			return VXGBP_E_INVAL;
		if ((size_t)cats[i] / 32 + 1 > words)
			words = (size_t)cats[i] / 32 + 1;
	}
	olen = 2 + CALIPSO_HDR + words * 4;
	if (olen > outlen)
		return VXGBP_E_NOSPACE;
	memset(b, 0, olen);
	b[0] = VXGBP_CALIPSO_OPT;
	b[1] = (uint8_t)(olen - 2);
	b[2] = (uint8_t)(doi >> 24);
	b[3] = (uint8_t)(doi >> 16);
	b[4] = (uint8_t)(doi >> 8);
	b[5] = (uint8_t)doi;
	b[6] = (uint8_t)words;
	b[7] = level;
	for (unsigned i = 0; i < n_cats; i++)
		b[10 + cats[i] / 8] |= (uint8_t)(0x80u >> (cats[i] % 8));
	crc = vxgbp_calipso_csum(b, olen);
	if (flags & VXGBP_CALIPSO_BAD_CSUM)
		crc = (uint16_t)(crc ^ 0x5a5a);
	b[8] = (uint8_t)crc;
	b[9] = (uint8_t)(crc >> 8);
	memcpy(out, b, olen);
	return (int)olen;
}

static int calipso_next(const void *c, unsigned *iter, uint16_t *lo, uint16_t *hi)
{
	return vxgbp_calipso_cat_next(c, iter, lo, hi);
}

int vxgbp_calipso_cats_put(const struct vxgbp_calipso *c, vxgbp_put_fn put, void *ctx)
{
	return vxgbpi_cats_put(calipso_next, c, put, ctx);
}

int vxgbp_calipso_cats_format(char *buf, size_t buflen, const struct vxgbp_calipso *c)
{
	return vxgbpi_cats_format(calipso_next, c, buf, buflen);
}
