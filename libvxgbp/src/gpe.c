// SPDX-License-Identifier: BSD-2-Clause
/*
 * gpe.c - VXLAN-GPE (draft-ietf-nvo3-vxlan-gpe), the other reading of the
 * 8-byte VXLAN header:
 *
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |R|R|Ver|I|P|B|O|       Reserved                | Next Protocol |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |          VXLAN Network Identifier (VNI)       |   Reserved    |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * GBP's G bit is GPE's first R, GBP's Group Policy ID covers GPE's
 * reserved byte and Next Protocol.  Which reading applies is decided once,
 * here (vxgbp_vx_kind; the reasons are in vxgbp.h).  The checks mirror
 * Linux's vxlan_parse_gpe_proto() (drivers/net/vxlan/vxlan_core.c): a
 * receiver drops a header without P, with a version other than 0, with O
 * set (it does no OAM processing), or with a Next Protocol it does not
 * know; and vxlan_rcv() drops any reserved bit left over.
 */
#include <stddef.h>

#include <vxgbp/vxgbp.h>

#include "pkt.h"

static const struct {
	const char *name;
	uint16_t ethertype; /* what the walk follows (0: nothing) */
} next_protos[] = {
	[VXGBP_GPE_NP_IPV4] = { "IPv4", ETH_P_IP },
	[VXGBP_GPE_NP_IPV6] = { "IPv6", ETH_P_IPV6 },
	[VXGBP_GPE_NP_ETHERNET] = { "Ethernet", ETH_P_TEB },
	[VXGBP_GPE_NP_NSH] = { "NSH", 0x894f },
	[VXGBP_GPE_NP_MPLS] = { "MPLS", ETH_P_MPLS_UC },
};
#define N_NEXT_PROTOS (sizeof(next_protos) / sizeof(next_protos[0]))

enum vxgbp_vx_kind vxgbp_vx_kind(const struct vxgbp_hdr *h, uint16_t dport)
{
	if (dport == VXGBP_PORT_GPE)
		return VXGBP_VX_GPE;
	if ((h->flags & (VXGBP_F_G | VXGBP_GPE_F_P)) == VXGBP_GPE_F_P)
		return VXGBP_VX_GPE;
	return VXGBP_VX_VXLAN;
}

const char *vxgbp_gpe_np_name(uint8_t np)
{
	return np < N_NEXT_PROTOS ? next_protos[np].name : NULL;
}

uint16_t vxgbpi_gpe_np_ethertype(uint8_t np)
{
	return np < N_NEXT_PROTOS ? next_protos[np].ethertype : 0;
}

uint64_t vxgbp_gpe_check(const struct vxgbp_hdr *h, int on_vxlan_port)
{
	uint64_t f = 0;

	if (!(h->flags & VXGBP_F_I))
		f |= VXGBP_RB(VXGBP_R_I_CLEAR);
	if (h->rsvd)
		f |= VXGBP_RB(VXGBP_R_RSVD_BYTE);
	if (h->flags & VXGBP_GPE_F_VER)
		f |= VXGBP_RB(VXGBP_R_GPE_VERSION);
	if ((h->flags & VXGBP_GPE_F_RSVD) || (h->group >> 8))
		f |= VXGBP_RB(VXGBP_R_GPE_RSVD);
	if (h->flags & VXGBP_GPE_F_O)
		f |= VXGBP_RB(VXGBP_R_GPE_OAM);
	if (!(h->flags & VXGBP_GPE_F_P) || !vxgbp_gpe_np_name(vxgbp_gpe_next_proto(h)))
		f |= VXGBP_RB(VXGBP_R_GPE_NEXT_PROTO);
	if (on_vxlan_port)
		f |= VXGBP_RB(VXGBP_R_GPE_ON_VXLAN_PORT);
	return f;
}
