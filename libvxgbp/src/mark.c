// SPDX-License-Identifier: BSD-2-Clause
/*
 * mark.c - the Linux skb->mark mapping and the receive verdict of a Linux
 * 6.12 VXLAN device.
 *
 * The mark word is struct vxlan_metadata's gbp field (include/net/vxlan.h):
 *   bits 0-15  Group Policy ID       (VXLAN_GBP_ID_MASK)
 *   bit  19    Policy Applied        (VXLAN_GBP_POLICY_APPLIED = BIT(3) << 16)
 *   bit  22    Don't Learn           (VXLAN_GBP_DONT_LEARN = BIT(6) << 16)
 * Note these are the header's own bit positions in the first 32-bit word,
 * which is why the kernel can use the same constants for both.
 */
#include <vxgbp/vxgbp.h>

/* Mirrors vxlan_parse_gbp_hdr() in drivers/net/vxlan/vxlan_core.c:
 * md->gbp = ntohs(policy_id), |= DONT_LEARN if D, |= POLICY_APPLIED if A;
 * nothing at all when G is clear. */
uint32_t vxgbp_mark_from_hdr(const struct vxgbp_hdr *h)
{
	uint32_t m;

	if (!(h->flags & VXGBP_F_G))
		return 0;
	m = h->group;
	if (h->flags & VXGBP_F_D)
		m |= VXGBP_MARK_D;
	if (h->flags & VXGBP_F_A)
		m |= VXGBP_MARK_A;
	return m;
}

/* Mirrors vxlan_build_gbp_hdr() in include/net/vxlan.h as called from
 * vxlan_xmit_one() (md->gbp = skb->mark): nothing when the word is 0,
 * otherwise G, D/A from the mark and the ID from its low 16 bits.  The
 * kernel tests "!md->gbp", so a mark with none of the GBP bits (a routing
 * fwmark such as 0x1000000) still sends G=1 with ID 0; VXGBP_MARK_TX_STRICT
 * models the fixed behaviour (G only when a GBP bit is set). */
void vxgbp_mark_to_hdr(struct vxgbp_hdr *h, uint32_t mark, uint32_t vni,
		       unsigned flags)
{
	uint32_t test = (flags & VXGBP_MARK_TX_STRICT) ? mark & VXGBP_MARK_USED : mark;

	vxgbp_hdr_init(h, vni & VXGBP_VNI_MAX, 0, 0);
	if (!test)
		return;
	h->flags |= VXGBP_F_G;
	if (mark & VXGBP_MARK_D)
		h->flags |= VXGBP_F_D;
	if (mark & VXGBP_MARK_A)
		h->flags |= VXGBP_F_A;
	h->group = (uint16_t)(mark & VXGBP_MARK_ID_MASK);
}

/* Mirrors vxlan_rcv() in drivers/net/vxlan/vxlan_core.c (6.12):
 *  1. I clear: drop (SKB_DROP_REASON_VXLAN_INVALID_HDR), before anything.
 *  2. unparsed = header less I and less the VNI bits (the tail byte stays).
 *  3. on a gbp socket vxlan_parse_gbp_hdr() sets the mark when G is set (not
 *     on collect_md devices, where it goes to the tunnel metadata) and then
 *     always clears G, byte 1 and the ID field from unparsed
 *     (VXLAN_GBP_USED_BITS), whether G was set or not.
 *  4. any bit left in unparsed drops the frame, RFC 7348's "ignore on
 *     receipt" notwithstanding (see the comment in vxlan_rcv()).
 * VNI lookup and the rest of the datapath are not modelled. */
static int verdict_drop(struct vxgbp_verdict *v, enum vxgbp_drop why)
{
	v->accept = 0;
	v->why = why;
	v->mark = 0;
	v->mark_set = 0;
	v->md_gbp = 0;
	return 0;
}

int vxgbp_verdict_linux(const struct vxgbp_hdr *h, unsigned dev_flags,
			struct vxgbp_verdict *v)
{
	uint16_t unparsed = h->flags & (uint16_t)~VXGBP_F_I;

	v->accept = 0;
	v->why = VXGBP_DROP_NONE;
	v->mark = 0;
	v->mark_set = 0;
	v->md_gbp = 0;

	if (!(h->flags & VXGBP_F_I))
		return verdict_drop(v, VXGBP_DROP_I_CLEAR);
	if (dev_flags & VXGBP_DEV_GBP) {
		if (h->flags & VXGBP_F_G) {
			v->md_gbp = vxgbp_mark_from_hdr(h);
			if (!(dev_flags & VXGBP_DEV_COLLECT_MD)) {
				v->mark = v->md_gbp;
				v->mark_set = 1;
			}
		}
		unparsed &= (uint16_t)~(VXGBP_F_G | 0x00ffu);
	}
	if (unparsed & VXGBP_F_G)
		return verdict_drop(v, VXGBP_DROP_GBP_NOT_ENABLED);
	/* The ID field is part of vx_flags too: without gbp it must be 0. */
	if (unparsed || (!(dev_flags & VXGBP_DEV_GBP) && h->group))
		return verdict_drop(v, VXGBP_DROP_RSVD_FLAGS);
	if (h->rsvd)
		return verdict_drop(v, VXGBP_DROP_RSVD_VNI);
	v->accept = 1;
	return 0;
}

const char *vxgbp_drop_name(enum vxgbp_drop why)
{
	switch (why) {
	case VXGBP_DROP_NONE:
		return "accept";
	case VXGBP_DROP_I_CLEAR:
		return "i-flag-clear";
	case VXGBP_DROP_GBP_NOT_ENABLED:
		return "gbp-not-enabled";
	case VXGBP_DROP_RSVD_FLAGS:
		return "reserved-flags";
	case VXGBP_DROP_RSVD_VNI:
		return "reserved-byte";
	}
	return "unknown";
}
