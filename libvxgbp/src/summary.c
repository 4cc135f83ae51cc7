// SPDX-License-Identifier: BSD-2-Clause
/*
 * summary.c - the one-line summary of a VXLAN(-GBP/-GPE) header that
 * gbpdump's text and the Wireshark plugin's Info column both print.
 *
 * gbpdump writes one for every frame, so the common call (a buffer with
 * room for the whole summary) writes straight into the caller's buffer
 * with plain stores: no bounds check a piece, no printf.  A buffer that
 * may be too small gets the same text through a local copy, cut as
 * snprintf cuts.
 */
#include <string.h>

#include <vxgbp/vxgbp.h>

/* The summary without a group name is shorter than this, NUL included
 * (unit_profiles checks every flag word). */
#define PART_MAX VXGBP_HDR_SUMMARY_LEN

#define LIT(d, s) (memcpy((d), (s), sizeof(s) - 1), (d) + sizeof(s) - 1)

#define N(n) ((n) < 10 ? '0' + (n) : 'a' + (n) - 10)
#define H(x) { N((x) >> 4), N((x) & 15) }
#define H4(x) H(x), H((x) + 1), H((x) + 2), H((x) + 3)
#define H16(x) H4(x), H4((x) + 4), H4((x) + 8), H4((x) + 12)
static const char hex2[256][2] = {
	H16(0x00), H16(0x10), H16(0x20), H16(0x30), H16(0x40), H16(0x50), H16(0x60), H16(0x70),
	H16(0x80), H16(0x90), H16(0xa0), H16(0xb0), H16(0xc0), H16(0xd0), H16(0xe0), H16(0xf0),
};
#undef H16
#undef H4
#undef H
#undef N
static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
			    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
			    "8081828384858687888990919293949596979899";

/* The pair of digits of the integer part of a 32.32 fixed-point y at d;
 * y's fraction times 100 holds the next pair. */
#define PAIR(d, y) memcpy((d), pairs + 2 * ((y) >> 32), 2)
#define NEXT(y) ((uint64_t)(uint32_t)(y) * 100)

/* Decimal digits of v, at most 10 bytes.  Below 10^6 (VNIs and groups,
 * mostly) without a division: v times 2^32 / 100^k, rounded up, holds the
 * leading one or two digits in its integer part and the rest as a binary
 * fraction, each fraction times 100 the next pair (the rounding error
 * stays below what would change a pair there: unit_profiles checks). */
static char *put_dec(char *d, uint32_t v)
{
	uint64_t y;
	unsigned n;
	char *e;

	if (v < 100) {
		if (v < 10) {
			*d = (char)('0' + v);
			return d + 1;
		}
		memcpy(d, pairs + 2 * v, 2);
		return d + 2;
	}
	if (v < 10000) {
		y = (uint64_t)v * 42949673u; /* ceil(2^32 / 100) */
		if (v < 1000)
			*d++ = (char)('0' + (y >> 32));
		else
			PAIR(d, y), d += 2;
		y = NEXT(y);
		PAIR(d, y);
		return d + 2;
	}
	if (v < 1000000) {
		y = (uint64_t)v * 429497u; /* ceil(2^32 / 10^4) */
		if (v < 100000)
			*d++ = (char)('0' + (y >> 32));
		else
			PAIR(d, y), d += 2;
		y = NEXT(y);
		PAIR(d, y);
		y = NEXT(y);
		PAIR(d + 2, y);
		return d + 4;
	}
	n = v < 10000000 ? 7 : v < 100000000 ? 8 : v < 1000000000 ? 9 : 10;
	e = d + n;
	for (; v >= 100; v /= 100) {
		e -= 2;
		memcpy(e, pairs + 2 * (v % 100), 2);
	}
	if (v >= 10)
		memcpy(e - 2, pairs + 2 * v, 2);
	else
		e[-1] = (char)('0' + v);
	return d + n;
}

/* "0x" and two or four lower-case hex digits of v */
static char *put_hex2(char *d, uint32_t v)
{
	memcpy(d, "0x", 2);
	memcpy(d + 2, hex2[v & 0xff], 2);
	return d + 4;
}

static char *put_hex4(char *d, uint32_t v)
{
	memcpy(d, "0x", 2);
	memcpy(d + 2, hex2[(v >> 8) & 0xff], 2);
	memcpy(d + 4, hex2[v & 0xff], 2);
	return d + 6;
}

/* The flag word by name (vxgbp_flags_format(), which is given its
 * VXGBP_FLAGS_STRLEN bytes: the part's room holds them). */
static char *put_flags(char *d, uint16_t flags, unsigned sets)
{
	int n = vxgbp_flags_format(d, VXGBP_FLAGS_STRLEN, flags, sets);

	return d + (n > 0 ? n : 0);
}

/* "VXLAN-GPE vni 10 flags [I,P] next-proto Ethernet": the GPE bits by
 * name (I, P, B, O, a version other than 0, the reserved bits), the Next
 * Protocol when P says there is one, a reserved field that is not zero. */
static char *gpe(char *d, const struct vxgbp_hdr *h)
{
	static const struct {
		uint16_t bit;
		char name;
	} bits[] = { { VXGBP_F_I, 'I' }, { VXGBP_GPE_F_P, 'P' }, { VXGBP_GPE_F_B, 'B' },
		     { VXGBP_GPE_F_O, 'O' } };
	char *f;

	d = put_dec(LIT(d, "VXLAN-GPE vni "), h->vni);
	d = f = LIT(d, " flags [");
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (h->flags & bits[i].bit) {
			if (d != f)
				*d++ = ',';
			*d++ = bits[i].name;
		}
	if (h->flags & VXGBP_GPE_F_VER) {
		if (d != f)
			*d++ = ',';
		d = put_dec(LIT(d, "ver="), (h->flags & VXGBP_GPE_F_VER) >> 12);
	}
	if (h->flags & VXGBP_GPE_F_RSVD) {
		if (d != f)
			*d++ = ',';
		d = put_hex4(LIT(d, "R="), h->flags & VXGBP_GPE_F_RSVD);
	}
	*d++ = ']';
	if (h->flags & VXGBP_GPE_F_P) {
		const char *np = vxgbp_gpe_np_name(vxgbp_gpe_next_proto(h));

		d = LIT(d, " next-proto ");
		if (np) {
			size_t n = strlen(np);

			memcpy(d, np, n);
			d += n;
		} else {
			d = put_hex2(d, vxgbp_gpe_next_proto(h));
		}
	}
	if (h->group >> 8)
		d = put_hex2(LIT(d, " rsvd-field "), h->group >> 8);
	return d;
}

/* What comes before the group name: "VXLAN-GBP vni 100 flags [G,I] group
 * 512 (0x0200)", "VXLAN vni 10 flags [I] id-field 0x0042", or GPE's. */
static char *head(char *d, const struct vxgbp_hdr *h, enum vxgbp_vx_kind kind, unsigned sets)
{
	if (kind == VXGBP_VX_GPE)
		return gpe(d, h);
	if (vxgbp_hdr_has_gbp(h)) {
		d = put_dec(LIT(d, "VXLAN-GBP vni "), h->vni);
		d = put_flags(LIT(d, " flags ["), h->flags, sets);
		d = put_dec(LIT(d, "] group "), h->group);
		return LIT(put_hex4(LIT(d, " ("), h->group), ")");
	}
	d = put_dec(LIT(d, "VXLAN vni "), h->vni);
	d = put_flags(LIT(d, " flags ["), h->flags, sets);
	*d++ = ']';
	if (h->group)
		d = put_hex4(LIT(d, " id-field "), h->group);
	return d;
}

/* What comes after it: " rsvd 0x01" */
static char *tail(char *d, const struct vxgbp_hdr *h)
{
	if (h->rsvd)
		d = put_hex2(LIT(d, " rsvd "), h->rsvd);
	return d;
}

/* The cut copy: what fits of s[0, n) at *at in buf, which has cap bytes
 * (the NUL's included); *at counts the whole. */
static void put_cut(char *buf, size_t cap, size_t *at, const char *s, size_t n)
{
	if (*at + 1 < cap) {
		size_t room = cap - 1 - *at;

		memcpy(buf + *at, s, n < room ? n : room);
	}
	*at += n;
}

int vxgbp_hdr_summary(char *buf, size_t buflen, const struct vxgbp_hdr *h,
		      enum vxgbp_vx_kind kind, unsigned sets, const char *group_name)
{
	char t[PART_MAX];
	size_t nl, mid, len = 0;
	char *e;

	if (!h || (kind != VXGBP_VX_VXLAN && kind != VXGBP_VX_GPE))
		return VXGBP_E_INVAL;
	if (kind == VXGBP_VX_GPE || !vxgbp_hdr_has_gbp(h))
		group_name = NULL;
	nl = group_name ? 1 + strlen(group_name) : 0;
	if (buf && buflen >= PART_MAX && buflen - PART_MAX >= nl) {
		e = head(buf, h, kind, sets);
		if (nl) {
			*e = ' ';
			memcpy(e + 1, group_name, nl - 1);
			e += nl;
		}
		e = tail(e, h);
		*e = '\0';
		return (int)(e - buf);
	}
	e = head(t, h, kind, sets);
	mid = (size_t)(e - t);
	e = tail(e, h);
	put_cut(buf, buf ? buflen : 0, &len, t, mid);
	if (nl) {
		put_cut(buf, buf ? buflen : 0, &len, " ", 1);
		put_cut(buf, buf ? buflen : 0, &len, group_name, nl - 1);
	}
	put_cut(buf, buf ? buflen : 0, &len, t + mid, (size_t)(e - t) - mid);
	if (buf && buflen)
		buf[len < buflen ? len : buflen - 1] = '\0';
	return len > 0x7fffffff ? VXGBP_E_NOSPACE : (int)len;
}
