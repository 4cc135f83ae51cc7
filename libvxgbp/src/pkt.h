/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pkt.h - what the frame parser's two files share (internal, not
 * installed): pkt.c parses any frame layer by layer, pkt_fast.c the common
 * VXLAN-over-IPv4 shape in one pass.  vxgbpi_ names stay out of the shared
 * library's exports (libvxgbp.map exports vxgbp_*).
 */
#ifndef VXGBP_PKT_H
#define VXGBP_PKT_H

#include <stddef.h>
#include <stdint.h>

#include <vxgbp/vxgbp.h>

#define ETHERTYPE_IPV4 0x0800
#define IPPROTO_ICMP_ 1
#define IPPROTO_TCP_ 6
#define IPPROTO_UDP_ 17

/* RFC 7348 sec. 5: the outer UDP source port SHOULD be in 49152-65535. */
#define VXLAN_SPORT_DYNAMIC_MIN 49152

/* A frame before its parse: all zero, no layer (offsets -1). */
void vxgbpi_pkt_init(struct vxgbp_pkt *p);

/* Is port a VXLAN destination port under these options? */
int vxgbpi_is_vxlan_port(const struct vxgbp_parse_opts *o, uint16_t port);

/* The UDP checksum of the ulen-byte datagram u over the pseudo-header
 * (RFC 768; RFC 8200 sec. 8.1 for alen 16): 1 good, 0 bad. */
int vxgbpi_udp_csum_ok(const uint8_t *src, const uint8_t *dst, size_t alen,
		       const uint8_t *u, size_t ulen);

/* Findings about the VXLAN packet as a whole: the header's own, and those
 * of the outer layers the parse found (none when it started at the VXLAN
 * header).  One place for both parsers: pkt.c and pkt_fast.c call it
 * (inline, so the one-pass parse, where every layer is known to be there,
 * keeps only the tests it needs). */
static inline void vxgbpi_vxlan_findings(struct vxgbp_pkt *p)
{
	const struct vxgbp_layers *o = &p->outer;

	p->findings |= vxgbp_hdr_check(&p->vx);
	if (p->ip_csum_ok == 0)
		p->findings |= VXGBP_RB(VXGBP_R_IP_CSUM);
	if (p->udp_csum_ok == 0)
		p->findings |= VXGBP_RB(VXGBP_R_UDP_CSUM);
	if (p->have & VXGBP_HAVE_L3) {
		if (o->l3.more_frags || o->l3.frag_off)
			p->findings |= VXGBP_RB(VXGBP_R_FRAGMENT);
		if (o->l3.ttl == 0)
			p->findings |= VXGBP_RB(VXGBP_R_OUTER_TTL);
	}
	if (p->have & VXGBP_HAVE_L4) {
		if (o->l3.version == 6 && o->l4.csum == 0)
			p->findings |= VXGBP_RB(VXGBP_R_UDP_ZERO_CSUM6);
		if (o->l4.sport < VXLAN_SPORT_DYNAMIC_MIN)
			p->findings |= VXGBP_RB(VXGBP_R_SPORT_RANGE);
	}
}


/* pkt_fast.c: 1 when the frame is the common shape and p (initialised,
 * caplen/wirelen set, wirelen >= caplen) is filled in as pkt.c would;
 * 0, with p untouched, otherwise. */
int vxgbpi_parse_fast(struct vxgbp_pkt *p, const uint8_t *frame, size_t caplen,
		      size_t wirelen, const struct vxgbp_parse_opts *o);

#endif /* VXGBP_PKT_H */
