// SPDX-License-Identifier: BSD-2-Clause
/*
 * build_tunnel.c - the tunnel headers vxgbp_pkt_parse() walks, for gbpgen
 * and the tests: GRE (RFC 2784, key and sequence RFC 2890), ERSPAN type I,
 * II and III over GRE, Geneve (RFC 8926) and an MPLS label stack
 * (RFC 3032).  One header, then the payload.
 *
 *   GRE        |C| |K|S| Reserved0 (9) | Ver (3) |  Protocol Type (16)  |
 *              [ Checksum (16)         | Reserved1 (16)                 ]
 *              [ Key (32)                                               ]
 *              [ Sequence Number (32)                                   ]
 *   ERSPAN II  | Ver=1 (4) | VLAN (12) | COS (3) | En (2) |T| Session (10) |
 *              | Reserved (12)         | Index (20)                         |
 *   ERSPAN III | Ver=2 (4) | VLAN (12) | COS (3) | BSO (2)|T| Session (10) |
 *              | Timestamp (32)                                             |
 *              | SGT (16) |P| FT (5) | Hw ID (6) |D| Gra (2) |O|           |
 *   Geneve     |Ver|Opt Len|O|C| Rsvd (6) |  Protocol Type (16)  |
 *              | VNI (24)                           | Reserved (8) |
 *              | options (Opt Len * 4 bytes)                          |
 *   MPLS       | Label (20) | TC (3) |S| TTL (8) |  a label
 *
 * ERSPAN I is GRE protocol 0x88be without a sequence number and without an
 * ERSPAN header; II is 0x88be with one, III 0x22eb.  Every size is checked
 * before a byte is written; the payload may already sit in out (it is
 * moved, never copied over itself), Geneve options may not.
 */
#include <string.h>

#include "vxgbp_internal.h"

#define GRE_C 0x8000u
#define GRE_K 0x2000u
#define GRE_S 0x1000u
#define ETH_P_TEB 0x6558u
#define ETH_P_ERSPAN 0x88beu
#define ETH_P_ERSPAN3 0x22ebu
#define ERSPAN_II_VER 1u
#define ERSPAN_III_VER 2u
#define GENEVE_HDR_LEN 8
#define GENEVE_OPT_MAX 252  /* Opt Len is 6 bits of 4-byte words */
#define MPLS_MAX_LABELS 4
#define MPLS_LABEL_MAX 0xfffffu
#define MPLS_TTL 64

static void put16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

static void put32(uint8_t *b, uint32_t v)
{
	put16(b, (uint16_t)(v >> 16));
	put16(b + 2, (uint16_t)v);
}

/* The GRE flags (VXGBP_TUN_*) a kind takes, its GRE protocol, and whether
 * the sequence number is always there (ERSPAN II and III). */
static int gre_params(const struct vxgbp_tunnel_spec *t, unsigned *flags, uint16_t *proto)
{
	unsigned allowed;

	switch (t->kind) {
	case VXGBP_ENCAP_GRE:
		allowed = VXGBP_TUN_KEY | VXGBP_TUN_SEQ | VXGBP_TUN_CSUM;
		*proto = t->proto ? t->proto : ETH_P_TEB;
		*flags = t->flags;
		break;
	case VXGBP_ENCAP_ERSPAN1:
		allowed = 0; /* a sequence number would make it type II */
		*proto = ETH_P_ERSPAN;
		*flags = 0;
		break;
	case VXGBP_ENCAP_ERSPAN2:
	case VXGBP_ENCAP_ERSPAN3:
		allowed = VXGBP_TUN_SEQ; /* implied; the key would clash with id */
		*proto = t->kind == VXGBP_ENCAP_ERSPAN2 ? ETH_P_ERSPAN : ETH_P_ERSPAN3;
		*flags = VXGBP_TUN_SEQ;
		break;
	default:
		return VXGBP_E_INVAL;
	}
	if (t->flags & ~allowed)
		return VXGBP_E_INVAL;
	/* ERSPAN mirrors Ethernet frames, nothing else */
	if (t->kind != VXGBP_ENCAP_GRE && t->proto && t->proto != ETH_P_TEB)
		return VXGBP_E_INVAL;
	return 0;
}

static size_t gre_hdr_len(unsigned flags)
{
	return 4 + (flags & VXGBP_TUN_CSUM ? 4 : 0) + (flags & VXGBP_TUN_KEY ? 4 : 0) +
	       (flags & VXGBP_TUN_SEQ ? 4 : 0);
}

/* The ERSPAN header of a kind, checked; its length (0 for type I) or
 * VXGBP_E_INVAL. */
static int erspan_hdr(const struct vxgbp_tunnel_spec *t, uint8_t h[12])
{
	if (t->kind == VXGBP_ENCAP_ERSPAN1 || t->kind == VXGBP_ENCAP_GRE)
		return 0;
	if (t->id > 0x3ff || t->vlan > 0xfff)
		return VXGBP_E_INVAL;
	if (t->kind == VXGBP_ENCAP_ERSPAN2) {
		if (t->index > 0xfffff)
			return VXGBP_E_INVAL;
		/* COS, En, T 0; Reserved 0 */
		put16(h, (uint16_t)(ERSPAN_II_VER << 12 | t->vlan));
		put16(h + 2, (uint16_t)t->id);
		put32(h + 4, t->index);
		return 8;
	}
	/* III: COS, BSO, T 0; timestamp from index; SGT, P, FT, Hw ID, D,
	 * Gra, O 0 (no platform-specific subheader) */
	put16(h, (uint16_t)(ERSPAN_III_VER << 12 | t->vlan));
	put16(h + 2, (uint16_t)t->id);
	put32(h + 4, t->index);
	memset(h + 8, 0, 4);
	return 12;
}

/* GRE and ERSPAN: the GRE header, the ERSPAN header, the payload. */
static int gre_build(uint8_t *b, size_t outlen, const struct vxgbp_tunnel_spec *t,
		     const void *payload, size_t payload_len)
{
	unsigned flags;
	uint16_t proto, word = 0;
	uint8_t eh[12];
	size_t glen, off = 4;
	int r, elen;

	if ((r = gre_params(t, &flags, &proto)) < 0)
		return r;
	if ((elen = erspan_hdr(t, eh)) < 0)
		return elen;
	glen = gre_hdr_len(flags);
	if (payload_len > (size_t)INT32_MAX - glen - (size_t)elen)
		return VXGBP_E_NOSPACE;
	if (glen + (size_t)elen + payload_len > outlen)
		return VXGBP_E_NOSPACE;
	if (payload_len)
		memmove(b + glen + (size_t)elen, payload, payload_len);
	word |= flags & VXGBP_TUN_CSUM ? GRE_C : 0;
	word |= flags & VXGBP_TUN_KEY ? GRE_K : 0;
	word |= flags & VXGBP_TUN_SEQ ? GRE_S : 0;
	put16(b, word); /* version 0 */
	put16(b + 2, proto);
	if (flags & VXGBP_TUN_CSUM) {
		memset(b + off, 0, 4); /* checksum taken as 0, Reserved1 0 */
		off += 4;
	}
	if (flags & VXGBP_TUN_KEY) {
		put32(b + off, t->id);
		off += 4;
	}
	if (flags & VXGBP_TUN_SEQ) {
		put32(b + off, t->seq);
		off += 4;
	}
	memcpy(b + off, eh, (size_t)elen);
	if (flags & VXGBP_TUN_CSUM) /* RFC 2784: header and payload */
		put16(b + 4, vxgbp_csum_fold(vxgbp_csum_add(0, b,
					     glen + (size_t)elen + payload_len)));
	return (int)(glen + (size_t)elen + payload_len);
}

/* C: an option of the area is critical (the high bit of its type).  The
 * area is written as given; a walk that overruns it stops there. */
static int geneve_critical(const uint8_t *o, size_t len)
{
	size_t at = 0;

	while (at + 4 <= len) {
		size_t olen = 4 + 4 * (size_t)(o[at + 3] & 0x1f);

		if (at + olen > len)
			break;
		if (o[at + 2] & 0x80)
			return 1;
		at += olen;
	}
	return 0;
}

static int geneve_build(uint8_t *b, size_t outlen, const struct vxgbp_tunnel_spec *t,
			const void *payload, size_t payload_len)
{
	size_t hlen = GENEVE_HDR_LEN + t->options_len;

	if (t->flags & ~VXGBP_TUN_OAM || t->id > VXGBP_VNI_MAX ||
	    t->options_len % 4 || t->options_len > GENEVE_OPT_MAX ||
	    (t->options_len && !t->options))
		return VXGBP_E_INVAL;
	if (payload_len > (size_t)INT32_MAX - hlen || hlen + payload_len > outlen)
		return VXGBP_E_NOSPACE;
	if (payload_len)
		memmove(b + hlen, payload, payload_len);
	if (t->options_len) /* the caller's, not inside out */
		memcpy(b + GENEVE_HDR_LEN, t->options, t->options_len);
	b[0] = (uint8_t)(t->options_len / 4); /* Ver 0 */
	b[1] = (uint8_t)((t->flags & VXGBP_TUN_OAM ? 0x80 : 0) |
			 (geneve_critical(b + GENEVE_HDR_LEN, t->options_len) ? 0x40 : 0));
	put16(b + 2, t->proto ? t->proto : ETH_P_TEB);
	put32(b + 4, t->id << 8); /* Reserved 0 */
	return (int)(hlen + payload_len);
}

static int mpls_build(uint8_t *b, size_t outlen, const struct vxgbp_tunnel_spec *t,
		      const void *payload, size_t payload_len)
{
	size_t hlen = 4 * (size_t)t->n_labels;

	if (t->flags || t->n_labels < 1 || t->n_labels > MPLS_MAX_LABELS ||
	    t->id > MPLS_LABEL_MAX - (t->n_labels - 1))
		return VXGBP_E_INVAL;
	if (payload_len > (size_t)INT32_MAX - hlen || hlen + payload_len > outlen)
		return VXGBP_E_NOSPACE;
	if (payload_len)
		memmove(b + hlen, payload, payload_len);
	for (unsigned i = 0; i < t->n_labels; i++) {
		uint32_t bos = i + 1 == t->n_labels ? 1 : 0;

		/* TC 0 */
		put32(b + 4 * i, (t->id + i) << 12 | bos << 8 | MPLS_TTL);
	}
	return (int)(hlen + payload_len);
}

int vxgbp_tunnel_build(void *out, size_t outlen, const struct vxgbp_tunnel_spec *t,
		       const void *payload, size_t payload_len)
{
	if (!out || !t || (payload_len && !payload))
		return VXGBP_E_INVAL;
	switch (t->kind) {
	case VXGBP_ENCAP_GRE:
	case VXGBP_ENCAP_ERSPAN1:
	case VXGBP_ENCAP_ERSPAN2:
	case VXGBP_ENCAP_ERSPAN3:
		return gre_build(out, outlen, t, payload, payload_len);
	case VXGBP_ENCAP_GENEVE:
		return geneve_build(out, outlen, t, payload, payload_len);
	case VXGBP_ENCAP_MPLS:
		return mpls_build(out, outlen, t, payload, payload_len);
	default:
		return VXGBP_E_INVAL;
	}
}
