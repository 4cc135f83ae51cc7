// SPDX-License-Identifier: BSD-2-Clause
/*
 * pkt_fast.c - the parse of the frames almost every VXLAN capture is made
 * of, in one pass, each layer checked once:
 *
 *   outer Ethernet II [one 802.1Q tag]
 *   outer IPv4 (IHL 5, not a fragment) | IPv6 (no extension header)
 *     UDP to a VXLAN port, then
 *       VXLAN(-GBP) header, inner Ethernet II (no tag),
 *       inner IPv4 (IHL 5, not a fragment), TCP | UDP | ICMP;
 *     or a frame that is not VXLAN: TCP | UDP to another port | ICMP(v6)
 *   outer ARP
 *
 * Everything is first checked and read into locals; only a frame that is
 * exactly one of these shapes, whole as far as the parse reads, with
 * lengths that agree, is written to the vxgbp_pkt - the same fields,
 * findings and checksum verdicts pkt.c's layer-by-layer parser gives it
 * (tests compare the two on every fixture, and fuzz_pkt on every input it
 * makes: VXGBP_PARSE_GENERIC skips this file).  Anything else - two tags,
 * options, extension headers, fragments, a truncated or contradicting
 * length, a GPE or Geneve port or header, tunnels, VXLAN nested in the
 * inner frame - returns 0 without touching the result, and pkt.c parses it.
 *
 * Each layer is read through a cursor of its own that starts at the layer
 * (layer()), so that the offsets in a layer are constants: after one
 * vxc_need() the compiler drops the accessors' own checks.
 *
 * Why: the general parser reads each field through the cursor and keeps
 * per-layer state, which the common shapes do not need.
 */
#include <vxgbp/vxgbp.h>

#include "cursor.h"
#include "pkt.h"

#define ETH_P_ARP_ 0x0806
#define ETH_P_8021Q_ 0x8100
#define IPPROTO_ICMPV6_ 58
#define IN_L4 42 /* from the VXLAN header to the inner L4 header */

/* What the checks found, for the fill.  Offsets are from the frame. */
struct fast {
	size_t l3, l4, vx; /* outer IP (or ARP), outer L4, VXLAN header */
	size_t end;        /* bytes the parse may read (capture and lengths) */
	size_t tot;        /* outer IPv4 total length / IPv6 40 + payload */
	size_t ulen, itot;
	uint16_t et, tci, frag, ifrag, dport, ucsum;
	uint8_t proto, iproto, tcp_hlen, itcp_hlen;
	int udp_ok;
};

/* A cursor over the frame's bytes [off, end): the layer at off. */
VXC_INLINE struct vxc layer(const uint8_t *frame, size_t off, size_t end)
{
	struct vxc c;

	vxc_init(&c, frame + off, end > off ? end - off : 0);
	return c;
}

/* Outer IPv4 without options or IPv6 without extension headers, not a
 * fragment, whose length fits the wire: f->tot, f->proto, f->l4, f->end
 * (the IP length bounds what follows: pkt.c declare_len). */
VXC_INLINE int fast_l3(struct fast *f, const uint8_t *frame, size_t caplen, size_t wirelen)
{
	struct vxc c = layer(frame, f->l3, caplen);

	if (f->et == ETH_P_IP) {
		if (!vxc_need(&c, 20) || vxc_u8_at(&c, 0) != 0x45)
			return 0;
		f->tot = vxc_be16_at(&c, 2);
		f->frag = vxc_be16_at(&c, 6);
		f->proto = vxc_u8_at(&c, 9);
		f->l4 = f->l3 + 20;
		if ((f->frag & 0x3fff) || f->tot < 20)
			return 0;
	} else if (f->et == ETH_P_IPV6) {
		if (!vxc_need(&c, 40) || vxc_u8_at(&c, 0) >> 4 != 6)
			return 0;
		/* 0: a jumbogram or nothing (pkt.c sorts it out) */
		f->tot = 40 + (size_t)vxc_be16_at(&c, 4);
		f->proto = vxc_u8_at(&c, 6);
		f->l4 = f->l3 + 40;
		if (f->tot == 40 || (f->proto != IPPROTO_UDP_ && f->proto != IPPROTO_TCP_ &&
				     f->proto != IPPROTO_ICMPV6_ && f->proto != IPPROTO_ICMP_))
			return 0;
	} else {
		return 0;
	}
	if (f->l3 + f->tot > wirelen)
		return 0;
	f->end = caplen < f->l3 + f->tot ? caplen : f->l3 + f->tot;
	return 1;
}

/* What the outer layers say follows them (fast_outer()). */
enum shape { NOT_FAST = 0, SH_VXLAN, SH_PLAIN, SH_ARP };

/* The outer TCP or ICMP header whole, or the UDP header with a length
 * that agrees: SH_VXLAN when it goes to a VXLAN port (f->vx), SH_PLAIN
 * when it is not VXLAN, GPE or Geneve, NOT_FAST otherwise. */
VXC_INLINE enum shape fast_l4(struct fast *f, const uint8_t *frame,
			      const struct vxgbp_parse_opts *o)
{
	struct vxc c = layer(frame, f->l4, f->end);

	if (f->proto == IPPROTO_UDP_) {
		if (!vxc_need(&c, 8))
			return NOT_FAST;
		f->dport = vxc_be16_at(&c, 2);
		f->ulen = vxc_be16_at(&c, 4);
		f->ucsum = vxc_be16_at(&c, 6);
		if (f->ulen < 8 || f->l4 + f->ulen > f->l3 + f->tot)
			return NOT_FAST;
		if (f->l4 + f->ulen < f->end) /* pkt.c declare_len */
			f->end = f->l4 + f->ulen;
		if (vxgbpi_is_vxlan_port(o, f->dport)) {
			f->vx = f->l4 + 8;
			return SH_VXLAN;
		}
		/* vxgbp_udp_kind()'s other ports: pkt_walk.c walks them */
		if (!(o->flags & VXGBP_PARSE_NO_WALK) &&
		    (f->dport == VXGBP_PORT_GPE || f->dport == VXGBP_PORT_GENEVE))
			return NOT_FAST;
		return SH_PLAIN;
	}
	if (f->proto == IPPROTO_TCP_) {
		if (!vxc_need(&c, 20))
			return NOT_FAST;
		f->tcp_hlen = (uint8_t)((vxc_u8_at(&c, 12) >> 4) * 4);
		return f->tcp_hlen >= 20 && vxc_need(&c, f->tcp_hlen) ? SH_PLAIN : NOT_FAST;
	}
	if (f->proto == IPPROTO_ICMP_ || f->proto == IPPROTO_ICMPV6_)
		return vxc_need(&c, 4) ? SH_PLAIN : NOT_FAST;
	return NOT_FAST; /* other protocols, tunnels among them: pkt_walk.c */
}

/* An ARP header as pkt.c's parse_arp() reads it without failing. */
VXC_INLINE int fast_arp(const struct fast *f, const uint8_t *frame, size_t caplen)
{
	struct vxc c = layer(frame, f->l3, caplen);

	if (!vxc_need(&c, 8))
		return 0;
	if (vxc_be16_at(&c, 2) == ETH_P_IP && vxc_u8_at(&c, 4) == 6 && vxc_u8_at(&c, 5) == 4)
		return vxc_need(&c, 28);
	return 1;
}

/* Outer Ethernet [one 802.1Q tag], then IPv4 / IPv6 and their L4 header,
 * or ARP: what follows them. */
VXC_INLINE enum shape fast_outer(struct fast *f, const uint8_t *frame, size_t caplen,
				 size_t wirelen, const struct vxgbp_parse_opts *o)
{
	struct vxc c = layer(frame, 0, caplen);
	size_t tagged;

	if (!vxc_need(&c, 18))
		return NOT_FAST;
	/* without a branch: with one GCC carries both values of f->l3 as
	 * constants through the whole parse and spills them (36 moves) */
	tagged = vxc_be16_at(&c, 12) == ETH_P_8021Q_;
	f->l3 = 14 + 4 * tagged;
	f->tci = tagged ? vxc_be16_at(&c, 14) : 0;
	f->et = vxc_be16_at(&c, f->l3 - 2); /* a second tag: not IP nor ARP */
	if (f->et == ETH_P_ARP_)
		return fast_arp(f, frame, caplen) ? SH_ARP : NOT_FAST;
	if (!fast_l3(f, frame, caplen, wirelen))
		return NOT_FAST;
	return fast_l4(f, frame, o);
}

/* Inner Ethernet, IPv4 without options, TCP/UDP/ICMP with its header
 * whole and lengths that agree, behind a VXLAN (not GPE) header at f->vx.
 * Offsets here are from the VXLAN header.  1 when it is that shape. */
VXC_INLINE int fast_inner(struct fast *f, const uint8_t *frame,
			  const struct vxgbp_parse_opts *o)
{
	struct vxc c = layer(frame, f->vx, f->end);
	size_t l4need, wend = f->ulen - 8; /* the UDP payload on the wire */

	if (!vxc_need(&c, IN_L4) ||
	    /* P without G: a GPE header on a VXLAN port (pkt.c decodes it) */
	    (vxc_be16_at(&c, 0) & (VXGBP_F_G | VXGBP_GPE_F_P)) == VXGBP_GPE_F_P ||
	    vxc_be16_at(&c, 20) != ETHERTYPE_IPV4 || vxc_u8_at(&c, 22) != 0x45)
		return 0;
	f->itot = vxc_be16_at(&c, 24);
	f->ifrag = vxc_be16_at(&c, 28);
	f->iproto = vxc_u8_at(&c, 31);
	if ((f->ifrag & 0x3fff) || f->itot < 20 || 22 + f->itot > wend)
		return 0;
	if (f->vx + 22 + f->itot < f->end)
		f->end = f->vx + 22 + f->itot;
	l4need = f->iproto == IPPROTO_UDP_ ? 8 : f->iproto == IPPROTO_TCP_ ? 20
		 : f->iproto == IPPROTO_ICMP_ ? 4 : 0;
	c = layer(frame, f->vx + IN_L4, f->end);
	if (!l4need || !vxc_need(&c, l4need))
		return 0;
	if (f->iproto == IPPROTO_UDP_) {
		size_t n = vxc_be16_at(&c, 4);
		uint16_t d = vxc_be16_at(&c, 2);

		/* VXLAN in VXLAN: pkt_walk.c walks the nested header (the
		 * default ports tested inline: most inner UDP is not VXLAN) */
		if ((d == VXGBP_PORT_IANA || d == VXGBP_PORT_LINUX || d == VXGBP_PORT_GPE ||
		     o->n_ports) && !(o->flags & VXGBP_PARSE_NO_WALK) &&
		    vxgbpi_udp_kind(o, d) != VXGBP_UDP_OTHER)
			return 0;
		return n >= 8 && 20 + n <= f->itot;
	}
	if (f->iproto == IPPROTO_TCP_) {
		f->itcp_hlen = (uint8_t)((vxc_u8_at(&c, 12) >> 4) * 4);
		return f->itcp_hlen >= 20 && vxc_need(&c, f->itcp_hlen);
	}
	return 1;
}

/* The Ethernet header at off (14 bytes there, checked), as pkt.c's
 * parse_eth() fills it: its ethertype et, after one 802.1Q tag when
 * tagged. */
VXC_INLINE void fill_eth(struct vxgbp_l2 *l2, const uint8_t *frame, size_t off, uint16_t et,
			 int tagged, uint16_t tci)
{
	l2->off = (int)off;
	l2->dst = frame + off;
	l2->src = frame + off + 6;
	l2->ethertype = et;
	if (tagged) {
		l2->n_vlan = 1;
		l2->vlan_tpid[0] = ETH_P_8021Q_;
		l2->vlan_tci[0] = tci;
	}
}

/* The IPv4 header at off (20 bytes there: fast_l3(), fast_inner()), as
 * pkt.c's parse_ipv4() fills it. */
VXC_INLINE void fill_ipv4(struct vxgbp_l3 *l3, const uint8_t *frame, size_t off, size_t tot,
			  uint16_t frag, uint8_t proto)
{
	const uint8_t *h = frame + off;

	l3->off = (int)off;
	l3->version = 4;
	l3->tos = h[1];
	l3->tot_len = (uint32_t)tot;
	l3->hdr_len = 20;
	l3->ip_id = vxc_be16(h + 4);
	l3->dont_frag = (frag & 0x4000) != 0;
	l3->ttl = h[8];
	l3->proto = proto;
	l3->src = h + 12;
	l3->dst = h + 16;
}

/* The IPv6 header at off (40 bytes there: fast_l3(); no extension
 * header), as pkt.c's parse_ipv6() fills it. */
VXC_INLINE void fill_ipv6(struct vxgbp_l3 *l3, const uint8_t *frame, size_t off, size_t tot,
			  uint8_t proto)
{
	const uint8_t *h = frame + off;

	l3->off = (int)off;
	l3->version = 6;
	l3->tos = (uint8_t)(vxc_be16(h) >> 4);
	l3->flow_label = vxc_be32(h) & 0xfffff;
	l3->tot_len = (uint32_t)tot;
	l3->hdr_len = 40;
	l3->ttl = h[7];
	l3->proto = proto;
	l3->src = h + 8;
	l3->dst = h + 24;
}

/* The ARP header at off (checked: fast_arp()), as pkt.c's parse_arp(). */
VXC_INLINE void fill_arp(struct vxgbp_l3 *l3, const uint8_t *frame, size_t off, size_t caplen)
{
	struct vxc c = layer(frame, off, caplen);

	l3->off = (int)off;
	l3->arp_hrd = vxc_be16_at(&c, 0);
	l3->arp_pro = vxc_be16_at(&c, 2);
	l3->arp_hln = vxc_u8_at(&c, 4);
	l3->arp_pln = vxc_u8_at(&c, 5);
	l3->arp_op = vxc_be16_at(&c, 6);
	if (l3->arp_pro == ETH_P_IP && l3->arp_hln == 6 && l3->arp_pln == 4) {
		l3->arp_sha = vxc_ptr_at(&c, 8, 6);
		l3->arp_spa = vxc_ptr_at(&c, 14, 4);
		l3->arp_tha = vxc_ptr_at(&c, 18, 6);
		l3->arp_tpa = vxc_ptr_at(&c, 24, 4);
	}
}

/* The TCP/UDP/ICMP header at off (whole before end: fast_l4(),
 * fast_inner()), as pkt.c's parse_l4() fills it; ip_pay: the bytes of the
 * IP payload (TCP's payload_len). */
VXC_INLINE void fill_l4(struct vxgbp_l4 *l4, const uint8_t *frame, size_t off, size_t end,
			uint8_t proto, uint8_t tcp_hlen, size_t ip_pay)
{
	const uint8_t *h = frame + off;

	l4->off = (int)off;
	l4->proto = proto;
	switch (proto) {
	case IPPROTO_UDP_:
		l4->sport = vxc_be16(h);
		l4->dport = vxc_be16(h + 2);
		l4->len = vxc_be16(h + 4);
		l4->payload_len = l4->len - 8; /* >= 8: checked */
		l4->csum = vxc_be16(h + 6);
		break;
	case IPPROTO_TCP_:
		l4->sport = vxc_be16(h);
		l4->dport = vxc_be16(h + 2);
		l4->tcp_seq = vxc_be32(h + 4);
		l4->tcp_ack = vxc_be32(h + 8);
		l4->tcp_flags = h[13];
		l4->tcp_win = vxc_be16(h + 14);
		l4->csum = vxc_be16(h + 16);
		l4->tcp_urg = vxc_be16(h + 18);
		l4->tcp_hlen = tcp_hlen;
		/* the header is within the IP payload (checked) */
		l4->payload_len = (uint32_t)(ip_pay - tcp_hlen);
		break;
	default: /* ICMP, ICMPv6: echo identifier / sequence when 8 bytes */
		l4->icmp_type = h[0];
		l4->icmp_code = h[1];
		l4->csum = vxc_be16(h + 2);
		if (end >= off + 8) {
			l4->sport = vxc_be16(h + 4);
			l4->dport = vxc_be16(h + 6);
		}
		break;
	}
}

/* The outer layers of a frame of shape s into p: Ethernet, ARP or IP and
 * its L4 header, with the checksums when csum. */
VXC_INLINE void fill_outer(struct vxgbp_pkt *p, const struct fast *f, const uint8_t *frame,
			   size_t caplen, enum shape s, int csum)
{
	struct vxgbp_layers *ls = &p->outer;
	size_t alen = f->et == ETH_P_IP ? 4 : 16;

	fill_eth(&ls->l2, frame, 0, f->et, f->l3 == 18, f->tci);
	if (s == SH_ARP) {
		p->have = VXGBP_HAVE_L2 | VXGBP_HAVE_L3;
		fill_arp(&ls->l3, frame, f->l3, caplen);
		return;
	}
	p->have = VXGBP_HAVE_L2 | VXGBP_HAVE_L3 | VXGBP_HAVE_L4;
	if (f->et == ETH_P_IP) {
		fill_ipv4(&ls->l3, frame, f->l3, f->tot, f->frag, f->proto);
		if (csum)
			p->ip_csum_ok = vxgbpi_ipv4_hdr20_ok(frame + f->l3);
	} else {
		fill_ipv6(&ls->l3, frame, f->l3, f->tot, f->proto);
	}
	fill_l4(&ls->l4, frame, f->l4, f->end, f->proto, f->tcp_hlen,
		f->tot - ls->l3.hdr_len);
	/* the UDP checksum covers the datagram if it was captured whole */
	if (f->proto == IPPROTO_UDP_ && csum && f->ucsum && f->l4 + f->ulen <= caplen)
		p->udp_csum_ok = vxgbpi_udp_csum_ok(ls->l3.src, ls->l3.dst, alen,
						    frame + f->l4, f->ulen);
}

/* The VXLAN header at h, its 8 bytes checked by fast_inner(): what
 * vxgbp_hdr_decode() stores, without the call and its length check (most
 * frames of a fabric's capture are VXLAN). */
VXC_INLINE void fast_hdr(struct vxgbp_hdr *vx, const uint8_t *h)
{
	vx->flags = vxc_be16(h);
	vx->group = vxc_be16(h + 2);
	vx->vni = vxc_be32(h + 4) >> 8;
	vx->rsvd = h[7];
}

int vxgbpi_parse_fast(struct vxgbp_pkt *p, const uint8_t *frame, size_t caplen,
		      size_t wirelen, const struct vxgbp_parse_opts *o)
{
	struct fast f = { 0 }; /* all set before use; GCC cannot see it */
	enum shape s = fast_outer(&f, frame, caplen, wirelen, o);
	size_t in;

	if (s == NOT_FAST || (s == SH_VXLAN && !fast_inner(&f, frame, o)))
		return 0;
	/* The frame is one of the shapes: fill in what pkt.c would. */
	fill_outer(p, &f, frame, caplen, s,
		   !(o->flags & (VXGBP_PARSE_NO_CSUM | VXGBP_PARSE_SUMMARY)));
	if (s != SH_VXLAN)
		return 1;
	p->have |= VXGBP_HAVE_VXLAN | VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3 |
		   VXGBP_HAVE_INNER_L4;
	p->vxlan_off = (int)f.vx;
	fast_hdr(&p->vx, frame + f.vx);
	vxgbpi_vxlan_findings(p, 0); /* the same rules as pkt.c, written once */

	in = f.vx + VXGBP_HDR_LEN;
	fill_eth(&p->inner.l2, frame, in, ETHERTYPE_IPV4, 0, 0);
	fill_ipv4(&p->inner.l3, frame, in + 14, f.itot, f.ifrag, f.iproto);
	fill_l4(&p->inner.l4, frame, f.vx + IN_L4, f.end, f.iproto, f.itcp_hlen, f.itot - 20);
	return 1;
}

/* A summary of a frame that is not VXLAN: no VXLAN header, no inner
 * frame, as pkt.c's init leaves them. */
VXC_INLINE void summary_plain(struct vxgbp_pkt *p)
{
	p->vxlan_off = -1;
	p->vx.flags = 0;
	p->vx.group = 0;
	p->vx.vni = 0;
	p->vx.rsvd = 0;
	p->vx_kind = VXGBP_VX_VXLAN;
	p->inner.l2.off = -1;
	p->inner.l2.dst = NULL;
	p->inner.l2.src = NULL;
	p->inner.l2.ethertype = 0;
	p->inner.l2.n_vlan = 0;
	p->inner.l3.off = -1;
	p->inner.l3.version = 0;
	p->inner.l3.src = NULL;
	p->inner.l3.dst = NULL;
	p->inner.l3.arp_spa = NULL;
	p->inner.l3.arp_tpa = NULL;
}

/* The fields every summary sets, for a frame of one of the shapes. */
VXC_INLINE void summary_head(struct vxgbp_pkt *p, size_t caplen, size_t wirelen)
{
	p->caplen = (uint32_t)caplen;
	p->wirelen = wirelen > UINT32_MAX ? UINT32_MAX : (uint32_t)wirelen;
	p->err = 0;
	p->err_layer = NULL;
	p->n_encap = 0;
	p->n_nested = 0;
	p->has_cooked = 0;
}

/* The summary of a VXLAN frame of the shape: its header at vx, inner
 * Ethernet and IPv4 (IHL 5; v6: IPv6) behind it, all checked and
 * captured.  The header is decoded here as vxgbp_hdr_decode() does (the
 * call cost a sixth of the summary of a common frame). */
VXC_INLINE void summary_vxlan(struct vxgbp_pkt *p, const uint8_t *frame, size_t vx, int v6)
{
	struct vxgbp_l2 *l2 = &p->inner.l2;
	struct vxgbp_l3 *l3 = &p->inner.l3;
	const uint8_t *h = frame + vx, *in = h + VXGBP_HDR_LEN;

	p->have = VXGBP_HAVE_L2 | VXGBP_HAVE_L3 | VXGBP_HAVE_L4 | VXGBP_HAVE_VXLAN |
		  VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3 | VXGBP_HAVE_INNER_L4;
	p->vxlan_off = (int)vx;
	p->vx_kind = VXGBP_VX_VXLAN;
	p->vx.flags = vxc_be16(h);
	p->vx.group = vxc_be16(h + 2);
	p->vx.vni = vxc_be32(h + 4) >> 8;
	p->vx.rsvd = h[7];
	l2->off = (int)(vx + VXGBP_HDR_LEN);
	l2->dst = in;
	l2->src = in + 6;
	l2->ethertype = v6 ? ETH_P_IPV6 : ETHERTYPE_IPV4;
	l2->n_vlan = 0;
	l3->off = l2->off + 14;
	l3->version = v6 ? 6 : 4;
	l3->src = in + (v6 ? 22 : 26);
	l3->dst = in + (v6 ? 38 : 30);
	l3->arp_spa = NULL;
	l3->arp_tpa = NULL;
}

/* A summary of a frame that is not VXLAN (SH_PLAIN): the outer layers. */
VXC_INLINE int summary_plain_l4(struct vxgbp_pkt *p, size_t caplen, size_t wirelen)
{
	summary_head(p, caplen, wirelen);
	p->have = VXGBP_HAVE_L2 | VXGBP_HAVE_L3 | VXGBP_HAVE_L4;
	summary_plain(p);
	return 1;
}

/*
 * The summary's fixed-offset shapes: untagged Ethernet, IPv4 without
 * options or IPv6, then TCP, ICMP(v6), UDP to another port, or UDP to a
 * default VXLAN port carrying VXLAN, inner untagged Ethernet, inner IPv4
 * without options and TCP/UDP/ICMP.  With the outer IP at 14 every offset
 * is a constant of the IP version (u, the UDP header: 34 or 54), so each
 * check is a compare of a byte or two at a fixed place, where
 * fast_outer() and fast_inner() go through a cursor a layer.  They accept
 * what those accept for these shapes, or less (0 sends the frame on to
 * summary_general(), nothing written); each check names its original.
 * Checks that others imply are left out, said where.  One shape more than
 * the one-pass parser's: inner IPv6 without extension headers
 * (sum_inner6(), pkt.c's checks), whose full parse costs several times
 * the summary's.
 */

/* The smallest capture the fixed-offset shapes read: Ethernet and IPv6
 * (sum_l4() checks what it reads after the IP header). */
#define SUM_MIN 54u

/* The inner L4 header at l4 (TCP, UDP, ICMP; after IPv6 ICMPv6 too:
 * iproto), whole before end, and for UDP a length inside the inner IP
 * datagram, which ends at ipend: as fast_inner() (and pkt.c parse_l4()).
 * Inner UDP that fast_inner() would look at twice (to a VXLAN or GPE
 * port, or with ports added) is left to summary_general(). */
VXC_INLINE int sum_inner_l4(const uint8_t *frame, size_t l4, size_t end, size_t ipend,
			    uint8_t iproto, int v6, const struct vxgbp_parse_opts *o)
{
	const uint8_t *h = frame + l4;
	uint16_t d;

	if (iproto == IPPROTO_TCP_) /* the data offset's byte is inside 20 */
		return end >= l4 + 20 && h[12] >> 4 >= 5 && end >= l4 + (size_t)(h[12] >> 4) * 4;
	if (iproto == IPPROTO_ICMP_ || (v6 && iproto == IPPROTO_ICMPV6_))
		return end >= l4 + 4;
	if (iproto != IPPROTO_UDP_ || end < l4 + 8)
		return 0;
	d = vxc_be16(h + 2);
	if (d == VXGBP_PORT_IANA || d == VXGBP_PORT_LINUX || d == VXGBP_PORT_GPE || o->n_ports)
		return 0;
	return vxc_be16(h + 4) >= 8 && l4 + vxc_be16(h + 4) <= ipend;
}

/* Inner IPv6 without extension headers behind the VXLAN header at vx (in
 * a UDP datagram of ulen bytes that ends at or before the IP datagram's
 * end), then TCP, UDP, ICMP or ICMPv6: what pkt.c's parse_ipv6() and
 * parse_l4() take without an error, written as the full parse writes it
 * (vxgbpi_parse_fast() does not take this shape; fuzz_pkt and
 * tests/summary compare the fields). */
VXC_INLINE int sum_inner6(struct vxgbp_pkt *p, const uint8_t *frame, size_t caplen,
			  size_t wirelen, const struct vxgbp_parse_opts *o, size_t vx, size_t ulen)
{
	const size_t ip = vx + VXGBP_HDR_LEN + 14;
	const uint8_t *h = frame + ip;
	size_t plen, end;

	/* the header captured; version 6; a payload length that is not 0 (a
	 * jumbogram or nothing: parse_ipv6()) and whose datagram ends inside
	 * the UDP datagram, at vx - 8 + ulen: ip + 40 + plen <= vx - 8 + ulen
	 * with ip = vx + 22, so 70 + plen <= ulen (the UDP header counts:
	 * fuzz_pkt found 62 here taking a payload 8 bytes past the UDP end,
	 * which parse_ipv6() calls malformed) */
	if (caplen < ip + 40 || h[0] >> 4 != 6)
		return 0;
	plen = vxc_be16(h + 4);
	if (plen == 0 || 70 + plen > ulen)
		return 0;
	end = ip + 40 + plen < caplen ? ip + 40 + plen : caplen;
	if (!sum_inner_l4(frame, ip + 40, end, ip + 40 + plen, h[6], 1, o))
		return 0;
	summary_head(p, caplen, wirelen);
	summary_vxlan(p, frame, vx, 1);
	return 1;
}

/* The VXLAN header at vx, in a UDP datagram of ulen bytes that ends at
 * or before the IP datagram's end; its inner frame Ethernet / IPv4 (IHL 5)
 * / TCP, UDP or ICMP, or Ethernet / IPv6 (sum_inner6()).  fast_inner(),
 * then the summary. */
VXC_INLINE int sum_vxlan(struct vxgbp_pkt *p, const uint8_t *frame, size_t caplen,
			 size_t wirelen, const struct vxgbp_parse_opts *o, size_t vx,
			 size_t ulen)
{
	const uint8_t *h = frame + vx;
	size_t itot, end;

	/* the headers up to the inner L4 captured (fast_inner() wants them
	 * before the IP and UDP ends too: implied, below); not GPE (P
	 * without G) */
	if (caplen < vx + IN_L4 || (vxc_be16(h) & (VXGBP_F_G | VXGBP_GPE_F_P)) == VXGBP_GPE_F_P)
		return 0;
	if (vxc_be16(h + 20) == ETH_P_IPV6)
		return sum_inner6(p, frame, caplen, wirelen, o, vx, ulen);
	/* inner IPv4, IHL 5, not a fragment */
	if (vxc_be16(h + 20) != ETHERTYPE_IPV4 || h[22] != 0x45 || (vxc_be16(h + 28) & 0x3fff))
		return 0;
	/* its total length inside the UDP payload (22 + itot <= ulen - 8) */
	itot = vxc_be16(h + 24);
	if (30 + itot > ulen)
		return 0;
	/* what fast_inner() may read: the capture, and the IP, UDP and inner
	 * IP lengths, of which the inner is the shortest (checked above and
	 * in sum_udp()).  itot >= 20 and the IN_L4 bytes before the IP and
	 * UDP ends are implied: every branch of sum_inner_l4() wants at least
	 * vx + 46 <= end <= vx + 22 + itot */
	end = vx + 22 + itot < caplen ? vx + 22 + itot : caplen;
	if (!sum_inner_l4(frame, vx + IN_L4, end, vx + 22 + itot, h[31], 0, o))
		return 0;
	summary_head(p, caplen, wirelen);
	summary_vxlan(p, frame, vx, 0);
	return 1;
}

/* The UDP header at u (8 bytes captured, and inside the IP datagram's
 * bytes if ulen fits: sum_l4()), in an IP datagram that ends at ipend.
 * fast_l4()'s UDP branch. */
VXC_INLINE int sum_udp(struct vxgbp_pkt *p, const uint8_t *frame, size_t caplen,
		       size_t wirelen, const struct vxgbp_parse_opts *o, size_t u, size_t ipend)
{
	size_t ulen = vxc_be16(frame + u + 4);
	uint16_t d = vxc_be16(frame + u + 2);

	if (u + ulen > ipend)
		return 0;
	/* ulen >= 8 there: sum_vxlan() wants 30 and more */
	if (!(o->flags & VXGBP_PARSE_NO_DEFAULT_PORTS) &&
	    (d == VXGBP_PORT_IANA || d == VXGBP_PORT_LINUX))
		return sum_vxlan(p, frame, caplen, wirelen, o, u + 8, ulen);
	/* an added port (a call to look up), GPE and Geneve: the general
	 * summary decides */
	if (ulen < 8 || o->n_ports ||
	    (!(o->flags & VXGBP_PARSE_NO_WALK) && (d == VXGBP_PORT_GPE || d == VXGBP_PORT_GENEVE)))
		return 0;
	return summary_plain_l4(p, caplen, wirelen);
}

/* The outer L4 header at u, protocol proto, in an IP datagram that ends
 * at ipend: fast_l4().  ICMP and ICMPv6 are taken after either IP
 * version, as fast_l4() takes them.  lim: the bytes it may read. */
VXC_INLINE int sum_l4(struct vxgbp_pkt *p, const uint8_t *frame, size_t caplen,
		      size_t wirelen, const struct vxgbp_parse_opts *o, uint8_t proto, size_t u,
		      size_t ipend)
{
	size_t lim = caplen < ipend ? caplen : ipend;

	switch (proto) {
	case IPPROTO_UDP_:
		/* the 8 bytes captured (after IPv4: SUM_MIN); before ipend
		 * follows from a UDP length that fits (sum_udp()) */
		return (u + 8 <= SUM_MIN || caplen >= u + 8) &&
		       sum_udp(p, frame, caplen, wirelen, o, u, ipend);
	case IPPROTO_TCP_:
		if (lim < u + 20 || frame[u + 12] >> 4 < 5 || lim < u + (size_t)(frame[u + 12] >> 4) * 4)
			return 0;
		return summary_plain_l4(p, caplen, wirelen);
	case IPPROTO_ICMP_:
	case IPPROTO_ICMPV6_:
		return lim >= u + 4 && summary_plain_l4(p, caplen, wirelen);
	}
	return 0;
}

/* Outer IPv4 at 14, IHL 5, not a fragment, a total length that fits the
 * wire: fast_l3().  tot >= 20 is implied: sum_l4() wants at least 38 <=
 * lim <= 14 + tot. */
VXC_INLINE int sum_ipv4(struct vxgbp_pkt *p, const uint8_t *frame, size_t caplen,
			size_t wirelen, const struct vxgbp_parse_opts *o)
{
	const uint8_t *ip = frame + 14;
	size_t tot = vxc_be16(ip + 2);

	if (ip[0] != 0x45 || (vxc_be16(ip + 6) & 0x3fff) || 14 + tot > wirelen)
		return 0;
	return sum_l4(p, frame, caplen, wirelen, o, ip[9], 34, 14 + tot);
}

/* Outer IPv6 at 14, no extension header, a payload length that is not 0
 * (a jumbogram or nothing: pkt.c) and fits the wire: fast_l3(). */
VXC_INLINE int sum_ipv6(struct vxgbp_pkt *p, const uint8_t *frame, size_t caplen,
			size_t wirelen, const struct vxgbp_parse_opts *o)
{
	const uint8_t *ip = frame + 14;
	size_t plen = vxc_be16(ip + 4);

	if (ip[0] >> 4 != 6 || plen == 0 || 54 + plen > wirelen)
		return 0;
	return sum_l4(p, frame, caplen, wirelen, o, ip[6], 54, 54 + plen);
}

/* The summary of the other shapes, through the one-pass parser's checks;
 * any other frame gets the full parse (vxgbp_pkt_parse's return), as does
 * a buffer the parse refuses (VXGBP_E_INVAL: start() in pkt_walk.c).  Not
 * inlined: its frame of saved registers would cost the fixed-offset
 * shapes as well. */
#if defined(__GNUC__)
#define SUMMARY_NOINLINE __attribute__((noinline))
#else
#define SUMMARY_NOINLINE
#endif
static SUMMARY_NOINLINE int summary_general(struct vxgbp_pkt *p, const uint8_t *frame,
					    size_t caplen, size_t wirelen,
					    const struct vxgbp_parse_opts *o)
{
	struct fast f = { 0 }; /* all set before use; GCC cannot see it */
	enum shape s;

	if (!frame || caplen > UINT32_MAX)
		return vxgbpi_parse_walk(p, frame, caplen, wirelen, o, 0);
	s = fast_outer(&f, frame, caplen, wirelen, o);
	/* vxgbpi_parse_fast() would refuse it too: the same two checks */
	if (s == NOT_FAST || (s == SH_VXLAN && !fast_inner(&f, frame, o)))
		return vxgbpi_parse_walk(p, frame, caplen, wirelen, o, 0);
	summary_head(p, caplen, wirelen);
	if (s != SH_VXLAN) {
		p->have = VXGBP_HAVE_L2 | VXGBP_HAVE_L3 | (s == SH_ARP ? 0 : VXGBP_HAVE_L4);
		summary_plain(p);
		return 0;
	}
	summary_vxlan(p, frame, f.vx, 0);
	return 0;
}

/* VXGBP_PARSE_SUMMARY (vxgbp.h): the same checks, no checksum, and only the
 * fields a summary reads, on a struct nobody initialised (the full parse's
 * memset of the struct is a sixth of its cost); a frame of no one-pass
 * shape gets the full parse.  fuzz_pkt and tests/summary compare each
 * field with the full parse's.  vxgbp_pkt_parse() checks only the options:
 * the buffer's checks are here, the fixed-offset shapes' first (one
 * compare stands for caplen <= UINT32_MAX too). */
int vxgbpi_parse_summary(struct vxgbp_pkt *p, const uint8_t *frame, size_t caplen,
			 size_t wirelen, const struct vxgbp_parse_opts *o)
{
	if (wirelen < caplen)
		wirelen = caplen;
	if (caplen - SUM_MIN <= UINT32_MAX - SUM_MIN && frame) {
		uint16_t et = vxc_be16(frame + 12);

		if (et == ETH_P_IP ? sum_ipv4(p, frame, caplen, wirelen, o)
				   : et == ETH_P_IPV6 && sum_ipv6(p, frame, caplen, wirelen, o))
			return 0;
	}
	return summary_general(p, frame, caplen, wirelen, o);
}
