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
 * port - returns 0 without touching the result, and pkt.c parses it.
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

int vxgbpi_parse_fast(struct vxgbp_pkt *p, const uint8_t *frame, size_t caplen,
		      size_t wirelen, const struct vxgbp_parse_opts *o)
{
	struct vxc c;
	size_t end, wend, tot, ulen, itot, l4need = 0, tcp_hlen = 0;
	uint16_t frag, ifrag, dport;
	uint8_t iproto;
	int csum = !(o->flags & VXGBP_PARSE_NO_CSUM);
	int ip_ok = -1, udp_ok = -1;
	uint16_t ucsum;

	vxc_init(&c, frame, caplen);
	if (!vxc_need(&c, FAST_MIN))
		return 0;
	/* outer Ethernet, IPv4 without options, UDP */
	if (vxc_be16_at(&c, 12) != ETHERTYPE_IPV4 || vxc_u8_at(&c, 14) != 0x45 ||
	    vxc_u8_at(&c, 23) != IPPROTO_UDP_)
		return 0;
	tot = vxc_be16_at(&c, 16);
	frag = vxc_be16_at(&c, 20);
	if ((frag & 0x3fff) || tot < 20 || 14 + tot > wirelen)
		return 0;
	/* the IPv4 total length bounds what follows (pkt.c declare_len) */
	end = caplen < 14 + tot ? caplen : 14 + tot;
	wend = 14 + tot;
	if (end < 42)
		return 0;
	ulen = vxc_be16_at(&c, 38);
	if (ulen < 8 || 34 + ulen > wend)
		return 0;
	dport = vxc_be16_at(&c, 36);
	if (!vxgbpi_is_vxlan_port(o, dport))
		return 0;
	ucsum = vxc_be16_at(&c, 40);
	/* the UDP checksum covers the datagram if it was captured whole */
	if (csum && ucsum)
		udp_ok = 34 + ulen <= end
			 ? vxgbpi_udp_csum_ok(frame + 26, frame + 30, 4, frame + 34, ulen) : -1;
	end = end < 34 + ulen ? end : 34 + ulen;
	wend = 34 + ulen;
	/* VXLAN, inner Ethernet, inner IPv4 without options */
	if (end < FAST_MIN || vxc_be16_at(&c, 62) != ETHERTYPE_IPV4 || vxc_u8_at(&c, 64) != 0x45)
		return 0;
	itot = vxc_be16_at(&c, 66);
	ifrag = vxc_be16_at(&c, 70);
	if ((ifrag & 0x3fff) || itot < 20 || 64 + itot > wend)
		return 0;
	end = end < 64 + itot ? end : 64 + itot;
	if (end < FAST_MIN)
		return 0;
	iproto = vxc_u8_at(&c, 73);
	switch (iproto) {
	case IPPROTO_UDP_:
		l4need = 8;
		break;
	case IPPROTO_TCP_:
		l4need = 20;
		break;
	case IPPROTO_ICMP_:
		l4need = 4;
		break;
	default:
		return 0;
	}
	if (end < FAST_MIN + l4need)
		return 0;
	if (iproto == IPPROTO_UDP_) {
		size_t n = vxc_be16_at(&c, 88);

		if (n < 8 || 84 + n > 64 + itot)
			return 0;
	} else if (iproto == IPPROTO_TCP_) {
		tcp_hlen = (size_t)(vxc_u8_at(&c, 96) >> 4) * 4;
		if (tcp_hlen < 20 || end < FAST_MIN + tcp_hlen)
			return 0;
	}

	/* The frame is the common shape: fill in what pkt.c would. */
	if (csum)
		ip_ok = vxgbp_csum_fold(vxgbp_csum_add(0, frame + 14, 20)) == 0;
	p->have = VXGBP_HAVE_L2 | VXGBP_HAVE_L3 | VXGBP_HAVE_L4 | VXGBP_HAVE_VXLAN |
		  VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3 | VXGBP_HAVE_INNER_L4;
	fill_eth_ipv4(&p->outer, &c, 0, tot, frag, IPPROTO_UDP_);
	p->ip_csum_ok = ip_ok;
	p->outer.l4.off = 34;
	p->outer.l4.proto = IPPROTO_UDP_;
	p->outer.l4.sport = vxc_be16_at(&c, 34);
	p->outer.l4.dport = dport;
	p->outer.l4.len = (uint16_t)ulen;
	p->outer.l4.csum = ucsum;
	p->udp_csum_ok = udp_ok;

	p->vxlan_off = 42;
	vxgbp_hdr_decode(&p->vx, frame + 42, VXGBP_HDR_LEN);
	vxgbpi_vxlan_findings(p); /* the same rules as pkt.c, written once */

	fill_eth_ipv4(&p->inner, &c, 50, itot, ifrag, iproto);
	p->inner.l4.off = 84;
	p->inner.l4.proto = iproto;
	switch (iproto) {
	case IPPROTO_UDP_:
		p->inner.l4.sport = vxc_be16_at(&c, 84);
		p->inner.l4.dport = vxc_be16_at(&c, 86);
		p->inner.l4.len = vxc_be16_at(&c, 88);
		p->inner.l4.csum = vxc_be16_at(&c, 90);
		break;
	case IPPROTO_TCP_:
		p->inner.l4.sport = vxc_be16_at(&c, 84);
		p->inner.l4.dport = vxc_be16_at(&c, 86);
		p->inner.l4.tcp_seq = vxc_be32_at(&c, 88);
		p->inner.l4.tcp_ack = vxc_be32_at(&c, 92);
		p->inner.l4.tcp_flags = vxc_u8_at(&c, 97);
		p->inner.l4.csum = vxc_be16_at(&c, 100);
		break;
	default: /* ICMP: echo identifier / sequence when there are 8 bytes */
		p->inner.l4.icmp_type = vxc_u8_at(&c, 84);
		p->inner.l4.icmp_code = vxc_u8_at(&c, 85);
		p->inner.l4.csum = vxc_be16_at(&c, 86);
		if (end >= FAST_MIN + 8) {
			p->inner.l4.sport = vxc_be16_at(&c, 88);
			p->inner.l4.dport = vxc_be16_at(&c, 90);
		}
		break;
	}
	return 1;
}
