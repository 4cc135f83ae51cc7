// SPDX-License-Identifier: BSD-2-Clause
/*
 * hdr.c - the 8-byte VXLAN header with the Group Based Policy extension.
 *
 * draft-smith-vxlan-group-policy sec. 2.1, RFC 7348 sec. 5:
 *
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |G|R|R|R|I|R|R|R|R|D|R|R|A|R|R|R|        Group Policy ID        |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |          VXLAN Network Identifier (VNI)       |   Reserved    |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * G: the Group Policy ID is present.  I: the VNI is valid (MUST be 1).
 * D: Don't Learn - the egress VTEP MUST NOT learn the inner source address.
 * A: Policy Applied - devices MUST NOT apply policy again.
 * R: reserved, MUST be zero on transmission and ignored on receipt.
 * Without G the whole second byte and the ID field are reserved (RFC 7348).
 *
 * The decoder keeps every bit so encode(decode(b)) == b for all 2^64 inputs.
 */
#include <vxgbp/vxgbp.h>

#include "cursor.h"

int vxgbp_hdr_decode(struct vxgbp_hdr *h, const void *buf, size_t len)
{
	struct vxc c;

	vxc_init(&c, buf, len);
	if (!vxc_need(&c, VXGBP_HDR_LEN))
		return VXGBP_E_TRUNCATED;
	h->flags = vxc_be16_at(&c, 0);
	h->group = vxc_be16_at(&c, 2);
	h->vni = vxc_be32_at(&c, 4) >> 8;
	h->rsvd = vxc_u8_at(&c, 7);
	return VXGBP_HDR_LEN;
}

int vxgbp_hdr_encode(const struct vxgbp_hdr *h, void *buf, size_t len)
{
	uint8_t *b = buf;

	if (len < VXGBP_HDR_LEN)
		return VXGBP_E_NOSPACE;
	if (h->vni > VXGBP_VNI_MAX)
		return VXGBP_E_INVAL;
	b[0] = (uint8_t)(h->flags >> 8);
	b[1] = (uint8_t)h->flags;
	b[2] = (uint8_t)(h->group >> 8);
	b[3] = (uint8_t)h->group;
	b[4] = (uint8_t)(h->vni >> 16);
	b[5] = (uint8_t)(h->vni >> 8);
	b[6] = (uint8_t)h->vni;
	b[7] = h->rsvd;
	return VXGBP_HDR_LEN;
}

int vxgbp_hdr_init(struct vxgbp_hdr *h, uint32_t vni, uint16_t flags, uint16_t group)
{
	const uint16_t with_g = VXGBP_F_D | VXGBP_F_A;

	if (flags & ~(VXGBP_F_G | with_g) || vni > VXGBP_VNI_MAX)
		return VXGBP_E_INVAL;
	if (!(flags & VXGBP_F_G) && ((flags & with_g) || group))
		return VXGBP_E_INVAL;
	h->flags = (uint16_t)(VXGBP_F_I | flags);
	h->group = group;
	h->vni = vni;
	h->rsvd = 0;
	return 0;
}

uint64_t vxgbp_hdr_check(const struct vxgbp_hdr *h)
{
	uint64_t f = 0;

	if (!(h->flags & VXGBP_F_I))
		f |= VXGBP_RB(VXGBP_R_I_CLEAR);
	if (h->rsvd)
		f |= VXGBP_RB(VXGBP_R_RSVD_BYTE);
	if (h->flags & VXGBP_F_G) {
		if (h->flags & VXGBP_F_RSVD_GBP)
			f |= VXGBP_RB(VXGBP_R_RSVD_FLAGS);
		if (h->group == 0)
			f |= VXGBP_RB(VXGBP_R_ZERO_ID);
		return f;
	}
	/* Without G, D/A/ID are plain reserved bits: name the likely intent. */
	if (h->flags & VXGBP_F_D)
		f |= VXGBP_RB(VXGBP_R_D_WITHOUT_G);
	if (h->flags & VXGBP_F_A)
		f |= VXGBP_RB(VXGBP_R_A_WITHOUT_G);
	if (h->group)
		f |= VXGBP_RB(VXGBP_R_ID_WITHOUT_G);
	if (h->flags & VXGBP_F_RSVD_GBP)
		f |= VXGBP_RB(VXGBP_R_RSVD_FLAGS);
	return f;
}

uint16_t vxgbp_hdr_rsvd_flags(const struct vxgbp_hdr *h)
{
	return (uint16_t)(h->flags & ~vxgbp_flags_defined(h->flags, VXGBP_FLAGSET_DRAFT));
}
