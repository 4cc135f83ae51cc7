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
#include <string.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#define ETHERTYPE_IPV4 0x0800
#define IPPROTO_ICMP_ 1
#define IPPROTO_TCP_ 6
#define IPPROTO_UDP_ 17

/* RFC 7348 sec. 5: the outer UDP source port SHOULD be in 49152-65535. */
#define VXLAN_SPORT_DYNAMIC_MIN 49152

#include "cursor.h"
#include "size.h"

#define ETH_P_IP ETHERTYPE_IPV4
#define ETH_P_IPV6 0x86dd
#define ETH_P_TEB 0x6558   /* transparent Ethernet bridging */
#define ETH_P_ERSPAN 0x88be
#define ETH_P_ERSPAN3 0x22eb
#define ETH_P_MPLS_UC 0x8847
#define ETH_P_MPLS_MC 0x8848
#define IPPROTO_IPIP_ 4
#define IPPROTO_IPV6_ 41
#define IPPROTO_GRE_ 47

/* A frame before its parse: all zero, no layer (offsets -1). */
void vxgbpi_pkt_init(struct vxgbp_pkt *p);
/* The caller's struct vxgbp_parse_opts is o->size bytes (size.h). */
static inline int vxgbpi_opts_size(const struct vxgbp_parse_opts *o)
{
	return vxgbpi_size_in(o, o->size, sizeof(*o), VXGBPI_PARSE_OPTS_SIZE_MIN);
}
/* vxgbp_udp_kind() for an opts already checked. */
enum vxgbp_udp_kind vxgbpi_udp_kind(const struct vxgbp_parse_opts *o, uint16_t dport);
/* The caller's struct vxgbp_pkt is p->size bytes (size.h). */
static inline int vxgbpi_pkt_size(struct vxgbp_pkt *p)
{
	return vxgbpi_size_out(&p->size, sizeof(*p), VXGBPI_PKT_SIZE_MIN);
}

/* Per-level parse state: the cursor plus how many bytes of this level the
 * wire carried (capture-independent), so truncation can be told from
 * contradiction; and where this level's "how far" bits go. */
struct level {
	struct vxc c;
	size_t wire_end; /* offset one past the last byte on the wire */
	int inner;
	int no_csum;
	unsigned *have;  /* &p->have, or a nested header's have */
};

/* Stop the parse with err at off in layer (frame.truncated/malformed). */
int vxgbpi_fail(struct vxgbp_pkt *p, int err, size_t off, const char *layer);
/* The failure half of vxgbpi_need(), out of line. */
int vxgbpi_need_fail(struct vxgbp_pkt *p, const struct level *lv, size_t n, const char *layer);
/* Need n bytes at the cursor: VXGBP_E_TRUNCATED if the wire had them,
 * VXGBP_E_MALFORMED if even the wire did not (p->err set); 0 when there.
 * Inline: asked a few times a layer, and almost always the bytes are
 * there. */
static inline int vxgbpi_need(struct vxgbp_pkt *p, const struct level *lv, size_t n,
			      const char *layer)
{
	if (vxc_need(&lv->c, n))
		return 0;
	return vxgbpi_need_fail(p, lv, n, layer);
}
/* Restrict a level to the n bytes a length field declares, from pos. */
void vxgbpi_declare_len(struct level *lv, size_t n);

/* pkt.c: the layers one at a time, at the cursor. */
/* A level with no layer yet (offsets -1); inline: every parse runs it */
static inline void vxgbpi_layers_init(struct vxgbp_layers *ls)
{
	ls->l2.off = -1;
	ls->l3.off = -1;
	ls->l3.opt_off = -1;
	ls->l3.cipso_off = -1;
	ls->l3.calipso_off = -1;
	ls->l4.off = -1;
}
int vxgbpi_parse_eth(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_l2 *l2);
/* L3 and L4 of one level, given its ethertype (others: nothing, 0). */
int vxgbpi_parse_l3_l4(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_layers *ls,
		       uint16_t ethertype);
/* The link-layer header of the capture; leaves the cursor at the network
 * header and returns its ethertype through *et. */
int vxgbpi_parse_link(struct vxgbp_pkt *p, struct level *lv, int linktype, uint16_t *et);

/* pkt_tunnel.c: one tunnel header at the cursor, recorded in e (kind, off,
 * hdr_len, proto, id ...) and skipped; *et gets what it carries as an
 * ethertype (0: nothing the walk follows).  0, or p->err. */
int vxgbpi_parse_gre(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_encap *e,
		     uint16_t *et);
int vxgbpi_parse_geneve(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_encap *e,
			uint16_t *et);
int vxgbpi_parse_mpls(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_encap *e,
		      uint16_t *et);
/* An NSH header (RFC 8300) at the cursor, skipped; *et as above. */
int vxgbpi_parse_nsh(struct vxgbp_pkt *p, struct level *lv, uint16_t *et);
/* The ethertype a GPE Next Protocol stands for (0: none the walk follows). */
uint16_t vxgbpi_gpe_np_ethertype(uint8_t np);

/* Is port one of the caller's extra VXLAN ports (o->ports)? */
int vxgbpi_is_extra_port(const struct vxgbp_parse_opts *o, uint16_t port);

/* Is port a VXLAN destination port under these options?  Inline for the
 * default ports (almost every frame): no call and no spills around it. */
VXC_INLINE int vxgbpi_is_vxlan_port(const struct vxgbp_parse_opts *o, uint16_t port)
{
	if (!(o->flags & VXGBP_PARSE_NO_DEFAULT_PORTS) &&
	    (port == VXGBP_PORT_IANA || port == VXGBP_PORT_LINUX))
		return 1;
	return o->n_ports && vxgbpi_is_extra_port(o, port);
}

/* The UDP checksum of the ulen-byte datagram u over the pseudo-header
 * (RFC 768; RFC 8200 sec. 8.1 for alen 16): 1 good, 0 bad. */
int vxgbpi_udp_csum_ok(const uint8_t *src, const uint8_t *dst, size_t alen,
		       const uint8_t *u, size_t ulen);

/* csum.c: vxgbp_csum_add() with the instruction set chosen by the caller
 * (tests: every path on one machine): 2 AVX2 when the CPU has it, 1 SSE2,
 * 0 the portable loop (the only one off x86-64). */
uint32_t vxgbpi_csum_add_isa(uint32_t sum, const void *buf, size_t len, int isa);

/* Does the checksum of the 20-byte IPv4 header h verify, i.e. is
 * vxgbp_csum_fold(vxgbp_csum_add(0, h, 20)) == 0?  Inline, every IPv4
 * frame asks: the words summed in host order (the folded sum is 0xffff in
 * either byte order or in neither). */
static inline int vxgbpi_ipv4_hdr20_ok(const uint8_t *h)
{
	uint64_t a, b, s;
	uint32_t c;

	/* two 64-bit words and one 32-bit word with end-around carry (2^64
	 * and 2^32 are 1 mod 0xffff), not folded: s is 0 only for a zero
	 * header, and folds to 0xffff exactly when it is a nonzero multiple
	 * of 0xffff, which GCC tests with one multiply (no folds) */
	memcpy(&a, h, 8);
	memcpy(&b, h + 8, 8);
	memcpy(&c, h + 16, 4);
	s = a + b;
	s += s < a;
	s += c;
	s += s < c;
	return s != 0 && s % 0xffff == 0;
}

/* A bad outer UDP checksum that looks offloaded: the field holds the
 * folded pseudo-header sum (what Linux leaves under CHECKSUM_PARTIAL for
 * the NIC to finish), or the packet is longer than any MTU (a GSO
 * super-frame, captured before segmentation). */
int vxgbpi_csum_offloaded(const struct vxgbp_pkt *p);

/* Findings about the VXLAN packet as a whole: the header's own, and those
 * of the outer layers the parse found (none when it started at the VXLAN
 * header).  One place for both parsers: pkt.c and pkt_fast.c call it
 * (inline, so the one-pass parse, where every layer is known to be there,
 * keeps only the tests it needs).  gpe_port: the header came to the GPE
 * port (or the caller said so), so a GPE header there is where it belongs. */
static inline void vxgbpi_vxlan_findings(struct vxgbp_pkt *p, int gpe_port)
{
	const struct vxgbp_layers *o = &p->outer;

	if (p->vx_kind == VXGBP_VX_GPE)
		p->findings |= vxgbp_gpe_check(&p->vx, !gpe_port);
	else
		p->findings |= vxgbp_hdr_check(&p->vx);
	if (p->ip_csum_ok == 0)
		p->findings |= VXGBP_RB(VXGBP_R_IP_CSUM);
	if (p->udp_csum_ok == 0) {
		p->findings |= VXGBP_RB(VXGBP_R_UDP_CSUM);
		if (vxgbpi_csum_offloaded(p))
			p->findings |= VXGBP_RB(VXGBP_R_CSUM_OFFLOAD);
	}
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
/* VXGBP_PARSE_SUMMARY on an Ethernet frame, any buffer vxgbp_pkt_parse()
 * is given: the summary's fields of a frame of the one-pass shapes, else
 * the full parse (vxgbpi_parse_walk); vxgbp_pkt_parse's return
 * (pkt_fast.c). */
int vxgbpi_parse_summary(struct vxgbp_pkt *p, const uint8_t *frame, size_t caplen,
			 size_t wirelen, const struct vxgbp_parse_opts *o);
/* vxgbp_pkt_parse() without the summary's path (pkt_walk.c); fast 0: not
 * trying vxgbpi_parse_fast() first (the caller's checks refused the frame). */
int vxgbpi_parse_walk(struct vxgbp_pkt *p, const void *frame, size_t caplen, size_t wirelen,
		      const struct vxgbp_parse_opts *opts, int fast);

#endif /* VXGBP_PKT_H */
