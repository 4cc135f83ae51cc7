// SPDX-License-Identifier: BSD-2-Clause
/*
 * pkt_fast.c - the parse of the frame almost every VXLAN capture is made
 * of, in one pass with one bounds check:
 *
 *    0  outer Ethernet II (no tag)               dst src 0x0800
 *   14  outer IPv4, IHL 5, not a fragment        ... proto 17
 *   34  UDP to a VXLAN port
 *   42  VXLAN(-GBP) header
 *   50  inner Ethernet II (no tag)               dst src 0x0800
 *   64  inner IPv4, IHL 5, not a fragment
 *   84  TCP | UDP | ICMP
 *
 * Everything is first checked and read into locals; only a frame that is
 * exactly this shape, whole as far as the parse reads, with lengths that
 * agree, is written to the vxgbp_pkt - the same fields, findings and
 * checksum verdicts pkt.c's layer-by-layer parser gives it (tests compare
 * the two on every fixture, and fuzz_pkt on every input it makes:
 * VXGBP_PARSE_GENERIC skips this file).  Anything else - tags, options,
 * IPv6, ARP, fragments, a truncated or contradicting length, a non-VXLAN
 * port, a GPE header, VXLAN nested in the inner frame - returns 0
 * without touching the result, and pkt.c parses it.
 *
 * Why: the general parser reads each field through the cursor and keeps
 * per-layer state; this is a third of its instructions (bench/RESULTS.md).
 */
#include <vxgbp/vxgbp.h>

#include "cursor.h"
#include "pkt.h"

#define FAST_MIN 84 /* bytes up to the inner L4 header */

/* An untagged Ethernet header at eth and an IPv4 header without options
 * right after it, both checked to be in the cursor's window, filled in as
 * pkt.c's parse_eth() and parse_ipv4() would. */
VXC_INLINE void fill_eth_ipv4(struct vxgbp_layers *ls, const struct vxc *c, size_t eth,
			      size_t tot, uint16_t frag, uint8_t proto)
{
	size_t ip = eth + 14;

	ls->l2.off = (int)eth;
	ls->l2.dst = vxc_ptr_at(c, eth, 6);
	ls->l2.src = vxc_ptr_at(c, eth + 6, 6);
	ls->l2.ethertype = ETHERTYPE_IPV4;
	ls->l3.off = (int)ip;
	ls->l3.version = 4;
	ls->l3.tos = vxc_u8_at(c, ip + 1);
	ls->l3.tot_len = (uint16_t)tot;
	ls->l3.hdr_len = 20;
	ls->l3.ip_id = vxc_be16_at(c, ip + 4);
	ls->l3.dont_frag = (frag & 0x4000) != 0;
	ls->l3.ttl = vxc_u8_at(c, ip + 8);
	ls->l3.proto = proto;
	ls->l3.src = vxc_ptr_at(c, ip + 12, 4);
	ls->l3.dst = vxc_ptr_at(c, ip + 16, 4);
}

/* What the checks found, for the fill. */
struct fast {
	size_t end;      /* bytes the parse may read (capture and lengths) */
	size_t tot, ulen, itot;
	uint16_t frag, ifrag, dport, ucsum;
	uint8_t iproto, tcp_hlen;
	int udp_ok;
};

/* Outer Ethernet, IPv4 without options, UDP to a VXLAN port, the UDP
 * checksum when asked for.  1 when the frame is that shape. */
VXC_INLINE int fast_outer(struct fast *f, const struct vxc *c, const uint8_t *frame,
			  size_t wirelen, const struct vxgbp_parse_opts *o, int csum)
{
	size_t wend;

	if (vxc_be16_at(c, 12) != ETHERTYPE_IPV4 || vxc_u8_at(c, 14) != 0x45 ||
	    vxc_u8_at(c, 23) != IPPROTO_UDP_)
		return 0;
	f->tot = vxc_be16_at(c, 16);
	f->frag = vxc_be16_at(c, 20);
	if ((f->frag & 0x3fff) || f->tot < 20 || 14 + f->tot > wirelen)
		return 0;
	/* the IPv4 total length bounds what follows (pkt.c declare_len) */
	f->end = c->end < 14 + f->tot ? c->end : 14 + f->tot;
	wend = 14 + f->tot;
	if (f->end < 42)
		return 0;
	f->ulen = vxc_be16_at(c, 38);
	if (f->ulen < 8 || 34 + f->ulen > wend)
		return 0;
	f->dport = vxc_be16_at(c, 36);
	if (!vxgbpi_is_vxlan_port(o, f->dport))
		return 0;
	/* P without G: a GPE header on a VXLAN port (pkt.c decodes it) */
	if ((vxc_be16_at(c, 42) & (VXGBP_F_G | VXGBP_GPE_F_P)) == VXGBP_GPE_F_P)
		return 0;
	f->ucsum = vxc_be16_at(c, 40);
	f->udp_ok = -1;
	/* the UDP checksum covers the datagram if it was captured whole */
	if (csum && f->ucsum && 34 + f->ulen <= f->end)
		f->udp_ok = vxgbpi_udp_csum_ok(frame + 26, frame + 30, 4, frame + 34, f->ulen);
	f->end = f->end < 34 + f->ulen ? f->end : 34 + f->ulen;
	return 1;
}

/* Inner Ethernet, IPv4 without options, TCP/UDP/ICMP with its header
 * whole and lengths that agree.  1 when the inner frame is that shape. */
VXC_INLINE int fast_inner(struct fast *f, const struct vxc *c,
			  const struct vxgbp_parse_opts *o)
{
	size_t l4need, wend = 34 + f->ulen;

	if (f->end < FAST_MIN || vxc_be16_at(c, 62) != ETHERTYPE_IPV4 || vxc_u8_at(c, 64) != 0x45)
		return 0;
	f->itot = vxc_be16_at(c, 66);
	f->ifrag = vxc_be16_at(c, 70);
	if ((f->ifrag & 0x3fff) || f->itot < 20 || 64 + f->itot > wend)
		return 0;
	f->end = f->end < 64 + f->itot ? f->end : 64 + f->itot;
	f->iproto = vxc_u8_at(c, 73);
	l4need = f->iproto == IPPROTO_UDP_ ? 8 : f->iproto == IPPROTO_TCP_ ? 20
		 : f->iproto == IPPROTO_ICMP_ ? 4 : 0;
	if (!l4need || f->end < FAST_MIN + l4need)
		return 0;
	if (f->iproto == IPPROTO_UDP_) {
		size_t n = vxc_be16_at(c, 88);
		uint16_t d = vxc_be16_at(c, 86);

		/* VXLAN in VXLAN: pkt_walk.c walks the nested header (the
		 * default ports tested inline: most inner UDP is not VXLAN) */
		if ((d == VXGBP_PORT_IANA || d == VXGBP_PORT_LINUX || d == VXGBP_PORT_GPE ||
		     o->n_ports) && !(o->flags & VXGBP_PARSE_NO_WALK) &&
		    vxgbp_udp_kind(o, d) != VXGBP_UDP_OTHER)
			return 0;
		return n >= 8 && 84 + n <= 64 + f->itot;
	}
	if (f->iproto == IPPROTO_TCP_) {
		f->tcp_hlen = (uint8_t)((vxc_u8_at(c, 96) >> 4) * 4);
		return f->tcp_hlen >= 20 && f->end >= FAST_MIN + (size_t)f->tcp_hlen;
	}
	return 1;
}

/* The inner TCP/UDP/ICMP header at 84, as pkt.c's parse_l4() fills it. */
VXC_INLINE void fill_inner_l4(struct vxgbp_l4 *l4, const struct vxc *c, const struct fast *f)
{
	l4->off = 84;
	l4->proto = f->iproto;
	switch (f->iproto) {
	case IPPROTO_UDP_:
		l4->sport = vxc_be16_at(c, 84);
		l4->dport = vxc_be16_at(c, 86);
		l4->len = vxc_be16_at(c, 88);
		l4->payload_len = (uint32_t)l4->len - 8; /* >= 8: fast_inner() */
		l4->csum = vxc_be16_at(c, 90);
		break;
	case IPPROTO_TCP_:
		l4->sport = vxc_be16_at(c, 84);
		l4->dport = vxc_be16_at(c, 86);
		l4->tcp_seq = vxc_be32_at(c, 88);
		l4->tcp_ack = vxc_be32_at(c, 92);
		l4->tcp_flags = vxc_u8_at(c, 97);
		l4->tcp_win = vxc_be16_at(c, 98);
		l4->csum = vxc_be16_at(c, 100);
		l4->tcp_urg = vxc_be16_at(c, 102);
		l4->tcp_hlen = f->tcp_hlen;
		/* the header is within the IP length (fast_inner()) */
		l4->payload_len = (uint32_t)(f->itot - 20 - f->tcp_hlen);
		break;
	default: /* ICMP: echo identifier / sequence when there are 8 bytes */
		l4->icmp_type = vxc_u8_at(c, 84);
		l4->icmp_code = vxc_u8_at(c, 85);
		l4->csum = vxc_be16_at(c, 86);
		if (f->end >= FAST_MIN + 8) {
			l4->sport = vxc_be16_at(c, 88);
			l4->dport = vxc_be16_at(c, 90);
		}
		break;
	}
}

int vxgbpi_parse_fast(struct vxgbp_pkt *p, const uint8_t *frame, size_t caplen,
		      size_t wirelen, const struct vxgbp_parse_opts *o)
{
	struct vxc c;
	struct fast f;

	vxc_init(&c, frame, caplen);
	if (!vxc_need(&c, FAST_MIN) ||
	    !fast_outer(&f, &c, frame, wirelen, o,
			!(o->flags & (VXGBP_PARSE_NO_CSUM | VXGBP_PARSE_SUMMARY))) ||
	    !fast_inner(&f, &c, o))
		return 0;

	/* The frame is the common shape: fill in what pkt.c would. */
	p->have = VXGBP_HAVE_L2 | VXGBP_HAVE_L3 | VXGBP_HAVE_L4 | VXGBP_HAVE_VXLAN |
		  VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3 | VXGBP_HAVE_INNER_L4;
	fill_eth_ipv4(&p->outer, &c, 0, f.tot, f.frag, IPPROTO_UDP_);
	if (!(o->flags & (VXGBP_PARSE_NO_CSUM | VXGBP_PARSE_SUMMARY)))
		p->ip_csum_ok = vxgbpi_ipv4_hdr20_ok(frame + 14);
	p->outer.l4.off = 34;
	p->outer.l4.proto = IPPROTO_UDP_;
	p->outer.l4.sport = vxc_be16_at(&c, 34);
	p->outer.l4.dport = f.dport;
	p->outer.l4.len = (uint32_t)f.ulen;
	p->outer.l4.payload_len = (uint32_t)f.ulen - 8;
	p->outer.l4.csum = f.ucsum;
	p->udp_csum_ok = f.udp_ok;

	p->vxlan_off = 42;
	vxgbp_hdr_decode(&p->vx, frame + 42, VXGBP_HDR_LEN);
	vxgbpi_vxlan_findings(p, 0); /* the same rules as pkt.c, written once */

	fill_eth_ipv4(&p->inner, &c, 50, f.itot, f.ifrag, f.iproto);
	fill_inner_l4(&p->inner.l4, &c, &f);
	return 1;
}

/* VXGBP_PARSE_SUMMARY (vxgbp.h): the same checks, no checksum, and only the
 * fields a summary reads, on a struct nobody initialised (the full parse's
 * memset of the struct is a sixth of its cost).  fuzz_pkt and
 * tests/summary compare each field with the full parse's. */
int vxgbpi_parse_summary(struct vxgbp_pkt *p, const uint8_t *frame, size_t caplen,
			 size_t wirelen, const struct vxgbp_parse_opts *o)
{
	struct vxc c;
	struct fast f;
	struct vxgbp_l2 *l2 = &p->inner.l2;
	struct vxgbp_l3 *l3 = &p->inner.l3;

	vxc_init(&c, frame, caplen);
	if (!vxc_need(&c, FAST_MIN) || !fast_outer(&f, &c, frame, wirelen, o, 0) ||
	    !fast_inner(&f, &c, o))
		return 0;
	p->caplen = (uint32_t)caplen;
	p->wirelen = wirelen > UINT32_MAX ? UINT32_MAX : (uint32_t)wirelen;
	p->have = VXGBP_HAVE_L2 | VXGBP_HAVE_L3 | VXGBP_HAVE_L4 | VXGBP_HAVE_VXLAN |
		  VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3 | VXGBP_HAVE_INNER_L4;
	p->err = 0;
	p->err_layer = NULL;
	p->vxlan_off = 42;
	p->vx_kind = VXGBP_VX_VXLAN;
	p->n_encap = 0;
	p->n_nested = 0;
	p->has_cooked = 0;
	vxgbp_hdr_decode(&p->vx, frame + 42, VXGBP_HDR_LEN);
	l2->off = 50;
	l2->dst = vxc_ptr_at(&c, 50, 6);
	l2->src = vxc_ptr_at(&c, 56, 6);
	l2->ethertype = ETHERTYPE_IPV4;
	l2->n_vlan = 0;
	l3->off = 64;
	l3->version = 4;
	l3->src = vxc_ptr_at(&c, 76, 4);
	l3->dst = vxc_ptr_at(&c, 80, 4);
	l3->arp_spa = NULL;
	l3->arp_tpa = NULL;
	return 1;
}
