// SPDX-License-Identifier: BSD-2-Clause
/*
 * pkt_tunnel.c - the tunnel headers the parser walks through on its way to
 * a VXLAN header (pkt.c calls them; each reads through the checked cursor,
 * records one struct vxgbp_encap and says what comes next as an
 * ethertype).
 *
 * GRE (RFC 2784, RFC 2890):
 *   |C|R|K|S|s|Recur|  Flags  | Ver |         Protocol Type         |
 *   |      Checksum (optional)      |       Offset (optional)       |
 *   |                          Key (optional)                       |
 *   |                 Sequence Number (optional)                    |
 * C or R: checksum and offset present; K: key; S: sequence.  Version 0
 * only (1 is PPTP's enhanced GRE, not a tunnel that carries VXLAN).
 *
 * ERSPAN, inside GRE (draft-foschiano-erspan; Linux include/net/erspan.h):
 *   type I    protocol 0x88be, no sequence number: the mirrored frame follows
 *   type II   protocol 0x88be with a sequence number, then 8 bytes:
 *             |Ver=1 (4)| VLAN (12) |COS(3)|En(2)|T|  Session ID (10)  |
 *             |     Reserved (12)    |          Index (20)             |
 *   type III  protocol 0x22eb, then 12 bytes (+8 when O is set):
 *             |Ver=2 (4)| VLAN (12) |COS(3)|BSO(2)|T| Session ID (10)  |
 *             |                       Timestamp (32)                   |
 *             |          SGT (16)            |P| FT (5) |HwID(6)|D|Gra|O|
 *   (the tell-tale of type I vs II is the sequence number, as Wireshark and
 *   Linux's ip_gre do).
 *
 * Geneve (RFC 8926), UDP port 6081:
 *   |Ver|Opt Len|O|C|  Rsvd.  |          Protocol Type        |
 *   |        Virtual Network Identifier (VNI)       |    Reserved   |
 *   |                  Variable-Length Options (Opt Len x 4)        |
 *
 * MPLS (RFC 3032): 4-byte labels |Label (20)|TC (3)|S|TTL (8)| until S.
 * What follows the bottom label is not named on the wire: 4 or 6 in the
 * first nibble is IP; 0 is a pseudowire control word (RFC 4385) before an
 * Ethernet frame; anything else is taken as Ethernet (RFC 4448 without the
 * control word), as Wireshark's default does.
 *
 * NSH (RFC 8300), after a VXLAN-GPE header with Next Protocol 4:
 *   |Ver|O|U|    TTL    |   Length  |U|U|U|U|MD Type| Next Protocol |
 *   |          Service Path Identifier (SPI)        | Service Index |
 * Length counts 4-byte words of the whole NSH header.
 */
#include <stddef.h>

#include <vxgbp/vxgbp.h>

#include "cursor.h"
#include "pkt.h"

#define GRE_C 0x8000u
#define GRE_R 0x4000u
#define GRE_K 0x2000u
#define GRE_S 0x1000u
#define GRE_VER 0x0007u

#define ERSPAN2_LEN 8
#define ERSPAN3_LEN 12
#define ERSPAN3_O 0x1u      /* platform-specific subheader follows */
#define ERSPAN3_SUB_LEN 8

#define GENEVE_LEN 8
#define GENEVE_VER 0xc000u
#define GENEVE_OPTLEN 0x3f00u

#define MPLS_S 0x100u
#define MPLS_MAX_LABELS 16

#define NSH_LEN 8
#define NSH_NP_IPV4 1
#define NSH_NP_IPV6 2
#define NSH_NP_ETHERNET 3

static const struct vxgbp_encap_info encaps[VXGBP_ENCAP__COUNT] = {
	[VXGBP_ENCAP_GRE] = { "GRE", "gre" },
	[VXGBP_ENCAP_ERSPAN1] = { "ERSPAN-I", "erspan1" },
	[VXGBP_ENCAP_ERSPAN2] = { "ERSPAN-II", "erspan2" },
	[VXGBP_ENCAP_ERSPAN3] = { "ERSPAN-III", "erspan3" },
	[VXGBP_ENCAP_GENEVE] = { "Geneve", "geneve" },
	[VXGBP_ENCAP_IP] = { "IP", "ip" },
	[VXGBP_ENCAP_MPLS] = { "MPLS", "mpls" },
};

const struct vxgbp_encap_info *vxgbp_encap_get(unsigned kind)
{
	if (kind >= VXGBP_ENCAP__COUNT || !encaps[kind].name)
		return NULL;
	return &encaps[kind];
}

enum vxgbp_udp_kind vxgbp_udp_kind(const struct vxgbp_parse_opts *o, uint16_t dport)
{
	if (vxgbpi_opts_size(o))
		return VXGBP_UDP_OTHER;
	return vxgbpi_udp_kind(o, dport);
}

enum vxgbp_udp_kind vxgbpi_udp_kind(const struct vxgbp_parse_opts *o, uint16_t dport)
{
	if (vxgbpi_is_vxlan_port(o, dport))
		return VXGBP_UDP_VXLAN;
	if (o->flags & VXGBP_PARSE_NO_WALK)
		return VXGBP_UDP_OTHER;
	if (dport == VXGBP_PORT_GPE)
		return VXGBP_UDP_GPE;
	if (dport == VXGBP_PORT_GENEVE)
		return VXGBP_UDP_GENEVE;
	return VXGBP_UDP_OTHER;
}

/* The ERSPAN header after a GRE header that carries protocol proto. */
static int parse_erspan(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_encap *e,
			uint16_t proto)
{
	size_t n = proto == ETH_P_ERSPAN3 ? ERSPAN3_LEN : ERSPAN2_LEN;
	uint16_t w0;
	int r;

	if (proto == ETH_P_ERSPAN && !e->has_seq) {
		e->kind = VXGBP_ENCAP_ERSPAN1; /* no header of its own */
		return 0;
	}
	e->kind = proto == ETH_P_ERSPAN3 ? VXGBP_ENCAP_ERSPAN3 : VXGBP_ENCAP_ERSPAN2;
	if ((r = vxgbpi_need(p, lv, n, "erspan")))
		return r;
	w0 = vxc_be16_at(&lv->c, 0);
	e->erspan_ver = (uint8_t)(w0 >> 12);
	e->erspan_vlan = w0 & 0x0fff; /* the mirrored frame's VLAN */
	e->erspan_session = vxc_be16_at(&lv->c, 2) & 0x03ff;
	if (e->kind == VXGBP_ENCAP_ERSPAN3 && (vxc_u8_at(&lv->c, 11) & ERSPAN3_O)) {
		n += ERSPAN3_SUB_LEN;
		if ((r = vxgbpi_need(p, lv, n, "erspan")))
			return r;
	}
	e->hdr_len = (uint16_t)(e->hdr_len + n);
	vxc_skip(&lv->c, n);
	return 0;
}

int vxgbpi_parse_gre(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_encap *e,
		     uint16_t *et)
{
	uint16_t fl;
	size_t n = 4, at;
	int r;

	if ((r = vxgbpi_need(p, lv, 4, "gre")))
		return r;
	fl = vxc_be16_at(&lv->c, 0);
	e->kind = VXGBP_ENCAP_GRE;
	e->flags = fl;
	e->ver = fl & GRE_VER;
	e->proto = vxc_be16_at(&lv->c, 2);
	n += (fl & (GRE_C | GRE_R)) ? 4 : 0;
	at = n;
	n += (fl & GRE_K) ? 4 : 0;
	n += (fl & GRE_S) ? 4 : 0;
	if ((r = vxgbpi_need(p, lv, n, "gre")))
		return r;
	if (fl & (GRE_C | GRE_R)) {
		e->gre_csum = vxc_be16_at(&lv->c, 4);
		e->gre_off = vxc_be16_at(&lv->c, 6);
	}
	if (fl & GRE_K) {
		e->id = vxc_be32_at(&lv->c, at);
		e->has_id = 1;
		at += 4;
	}
	if (fl & GRE_S) {
		e->seq = vxc_be32_at(&lv->c, at);
		e->has_seq = 1;
	}
	e->hdr_len = (uint16_t)n;
	vxc_skip(&lv->c, n);
	*et = e->ver == 0 ? e->proto : 0;
	if (*et == ETH_P_ERSPAN || *et == ETH_P_ERSPAN3) {
		if ((r = parse_erspan(p, lv, e, *et)))
			return r;
		*et = ETH_P_TEB;
	}
	return 0;
}

int vxgbpi_parse_geneve(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_encap *e,
			uint16_t *et)
{
	uint16_t w0;
	size_t n;
	int r;

	if ((r = vxgbpi_need(p, lv, GENEVE_LEN, "geneve")))
		return r;
	w0 = vxc_be16_at(&lv->c, 0);
	e->kind = VXGBP_ENCAP_GENEVE;
	e->flags = w0;
	e->ver = (uint8_t)((w0 & GENEVE_VER) >> 14);
	e->opt_len = (uint16_t)(((w0 & GENEVE_OPTLEN) >> 8) * 4);
	e->proto = vxc_be16_at(&lv->c, 2);
	e->id = vxc_be32_at(&lv->c, 4) >> 8;
	e->has_id = 1;
	n = GENEVE_LEN + e->opt_len;
	if ((r = vxgbpi_need(p, lv, n, "geneve")))
		return r;
	e->hdr_len = (uint16_t)n;
	vxc_skip(&lv->c, n);
	/* a version this parser does not know says nothing of what follows */
	*et = e->ver == 0 ? e->proto : 0;
	return 0;
}

/* What follows a bottom-of-stack label, by its first nibble. */
static int mpls_payload(struct vxgbp_pkt *p, struct level *lv, uint16_t *et)
{
	uint8_t nib;
	int r;

	if ((r = vxgbpi_need(p, lv, 1, "mpls")))
		return r;
	nib = vxc_u8_at(&lv->c, 0) >> 4;
	if (nib == 4 || nib == 6) {
		*et = nib == 4 ? ETH_P_IP : ETH_P_IPV6;
		return 0;
	}
	if (nib == 0) { /* pseudowire control word */
		if ((r = vxgbpi_need(p, lv, 4, "mpls")))
			return r;
		vxc_skip(&lv->c, 4);
	}
	*et = ETH_P_TEB;
	return 0;
}

int vxgbpi_parse_mpls(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_encap *e,
		      uint16_t *et)
{
	uint32_t lse = 0;
	unsigned n = 0;
	int r;

	e->kind = VXGBP_ENCAP_MPLS;
	e->proto = 0;
	do {
		if (n == MPLS_MAX_LABELS)
			return vxgbpi_fail(p, VXGBP_E_MALFORMED, lv->c.pos, "mpls");
		if ((r = vxgbpi_need(p, lv, 4, "mpls")))
			return r;
		lse = vxc_be32_at(&lv->c, 0);
		if (n == 0) {
			e->id = lse >> 12;
			e->has_id = 1;
		}
		vxc_skip(&lv->c, 4);
		n++;
	} while (!(lse & MPLS_S));
	e->ver = (uint8_t)n;
	e->hdr_len = (uint16_t)(4 * n);
	if ((r = mpls_payload(p, lv, et)))
		return r;
	e->proto = *et;
	return 0;
}

int vxgbpi_parse_nsh(struct vxgbp_pkt *p, struct level *lv, uint16_t *et)
{
	size_t n;
	uint8_t np;
	int r;

	if ((r = vxgbpi_need(p, lv, NSH_LEN, "nsh")))
		return r;
	n = (size_t)(vxc_u8_at(&lv->c, 1) & 0x3f) * 4;
	if (n < NSH_LEN)
		return vxgbpi_fail(p, VXGBP_E_MALFORMED, lv->c.pos, "nsh");
	if ((r = vxgbpi_need(p, lv, n, "nsh")))
		return r;
	p->nsh_off = (int)lv->c.pos;
	np = vxc_u8_at(&lv->c, 3);
	vxc_skip(&lv->c, n);
	*et = np == NSH_NP_IPV4 ? ETH_P_IP : np == NSH_NP_IPV6 ? ETH_P_IPV6
	      : np == NSH_NP_ETHERNET ? ETH_P_TEB : 0;
	return 0;
}

/* Longer than the largest jumbo frame any MTU allows: a GSO super-frame. */
#define GSO_MIN_LEN 9217u

int vxgbpi_csum_offloaded(const struct vxgbp_pkt *p)
{
	const struct vxgbp_l3 *l3 = &p->outer.l3;
	size_t alen = l3->version == 4 ? 4 : 16;
	uint16_t partial;
	uint32_t sum;

	if (!l3->src || !l3->dst || p->outer.l4.off < 0)
		return 0;
	if (l3->tot_len >= GSO_MIN_LEN)
		return 1;
	/* Linux's CHECKSUM_PARTIAL: ~csum_tcpudp_magic(saddr, daddr, len,
	 * proto, 0), i.e. the folded pseudo-header sum itself */
	sum = vxgbp_csum_add(0, l3->src, alen);
	sum = vxgbp_csum_add(sum, l3->dst, alen);
	sum += IPPROTO_UDP_ + p->outer.l4.len;
	partial = (uint16_t)(0xffffu ^ vxgbp_csum_fold(sum));
	return partial == p->outer.l4.csum;
}
