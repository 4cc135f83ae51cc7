// SPDX-License-Identifier: BSD-2-Clause
/*
 * pkt.c - bounds-checked parsers of the layers of a frame, one at a time:
 *
 *   link header (Ethernet II [802.1Q/802.1ad tags], Linux cooked, raw IP,
 *   BSD loopback), IPv4 (options, CIPSO) | IPv6 (extension headers,
 *   CALIPSO, jumbograms) | ARP, TCP | UDP | ICMP | ICMPv6.
 *
 * pkt_walk.c strings them together (outer layers, tunnels, VXLAN, inner
 * frame, nested VXLAN), pkt_tunnel.c reads the tunnel headers.
 *
 * Every read goes through the checked cursor (cursor.h).  Two kinds of
 * failure are kept apart, as tcpdump does:
 *   VXGBP_E_TRUNCATED  the capture (snap length) ends before a header does;
 *   VXGBP_E_MALFORMED  the bytes contradict themselves (an IPv4 IHL below 5,
 *                      a total length beyond the frame on the wire, a UDP
 *                      length shorter than its header, ...).
 * Either stops the parse; every layer before it stays filled in, and
 * err_off/err_layer say where it stopped.
 */
#include <stddef.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

#include "cursor.h"
#include "pkt.h"

#define ETH_P_ARP 0x0806
#define ETH_P_8021Q 0x8100
#define ETH_P_8021AD 0x88a8
#define ETH_P_QINQ1 0x9100

#define IPPROTO_HOPOPTS_ 0
#define IPPROTO_ROUTING_ 43
#define IPPROTO_FRAGMENT_ 44
#define IPPROTO_AH_ 51
#define IPPROTO_ICMPV6_ 58
#define IPPROTO_NONE_ 59
#define IPPROTO_DSTOPTS_ 60
#define IPPROTO_MH_ 135

#define IPOPT_EOL 0
#define IPOPT_NOP 1
#define IP6OPT_PAD1 0
#define IP6OPT_CALIPSO 0x07
#define IP6OPT_JUMBO 0xc2

#define IP_MAX_LEN 65535u /* beyond it only BIG TCP's lengths reach */

int vxgbpi_fail(struct vxgbp_pkt *p, int err, size_t off, const char *layer)
{
	p->err = err;
	p->err_off = (int)off;
	p->err_layer = layer;
	if (err == VXGBP_E_TRUNCATED)
		p->findings |= VXGBP_RB(VXGBP_R_TRUNCATED);
	else if (err == VXGBP_E_MALFORMED)
		p->findings |= VXGBP_RB(VXGBP_R_MALFORMED);
	return err;
}
#define fail vxgbpi_fail

int vxgbpi_need_fail(struct vxgbp_pkt *p, const struct level *lv, size_t n, const char *layer)
{
	if (lv->c.pos + n <= lv->wire_end)
		return fail(p, VXGBP_E_TRUNCATED, lv->c.pos, layer);
	return fail(p, VXGBP_E_MALFORMED, lv->c.pos, layer);
}
#define need vxgbpi_need

void vxgbpi_declare_len(struct level *lv, size_t n)
{
	vxc_limit(&lv->c, n);
	if (lv->c.pos + n < lv->wire_end)
		lv->wire_end = lv->c.pos + n;
}
#define declare_len vxgbpi_declare_len

static int is_vlan_tpid(uint16_t t)
{
	return t == ETH_P_8021Q || t == ETH_P_8021AD || t == ETH_P_QINQ1;
}

/* The 802.1Q/802.1ad tags at the cursor while *et names one; *et ends as
 * the ethertype after them. */
static int vlan_tags(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_l2 *l2, uint16_t *et)
{
	int r;

	while (is_vlan_tpid(*et)) {
		if ((r = need(p, lv, 4, lv->inner ? "inner-vlan" : "vlan")))
			return r;
		if (l2->n_vlan < VXGBP_MAX_VLAN) {
			l2->vlan_tpid[l2->n_vlan] = *et;
			l2->vlan_tci[l2->n_vlan] = vxc_be16_at(&lv->c, 0);
			l2->n_vlan++;
		}
		*et = vxc_be16_at(&lv->c, 2);
		vxc_skip(&lv->c, 4);
	}
	return 0;
}

int vxgbpi_parse_eth(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_l2 *l2)
{
	const char *layer = lv->inner ? "inner-eth" : "eth";
	int r;

	if ((r = need(p, lv, 14, layer)))
		return r;
	l2->off = (int)lv->c.pos;
	l2->dst = vxc_ptr_at(&lv->c, 0, 6);
	l2->src = vxc_ptr_at(&lv->c, 6, 6);
	l2->ethertype = vxc_be16_at(&lv->c, 12);
	vxc_skip(&lv->c, 14);
	return vlan_tags(p, lv, l2, &l2->ethertype);
}

/* Walk IPv4 options for CIPSO (type 134).  A bad option length is a
 * malformed header. */
static int scan_ipv4_opts(struct vxgbp_pkt *p, const struct level *lv, struct vxgbp_l3 *l3)
{
	size_t i = 0, n = l3->opt_len;
	struct vxc o = lv->c; /* positioned at the options */
	const char *layer = lv->inner ? "inner-ipv4-options" : "ipv4-options";

	vxc_limit(&o, n);
	while (i < n) {
		uint8_t type = vxc_u8_at(&o, i), len;

		if (type == IPOPT_EOL)
			break;
		if (type == IPOPT_NOP) {
			i++;
			continue;
		}
		if (i + 1 >= n)
			return fail(p, VXGBP_E_MALFORMED, o.pos + i, layer);
		len = vxc_u8_at(&o, i + 1);
		if (len < 2 || len > n - i)
			return fail(p, VXGBP_E_MALFORMED, o.pos + i, layer);
		if (type == VXGBP_CIPSO_OPT && l3->cipso_off < 0) {
			l3->cipso_off = (int)(o.pos + i);
			l3->cipso_len = len;
		}
		i += len;
	}
	return 0;
}

/* Label rules: decode the CIPSO / CALIPSO option the scans found and add
 * its findings to the frame's (cipso.c, calipso.c). */
static void label_findings(struct vxgbp_pkt *p, const struct level *lv,
			   const struct vxgbp_l3 *l3)
{
	if (l3->cipso_off >= 0) {
		struct vxgbp_cipso c;

		vxgbp_cipso_parse(&c, lv->c.base + l3->cipso_off, l3->cipso_len);
		p->findings |= c.findings;
	}
	if (l3->calipso_off >= 0) {
		struct vxgbp_calipso c;

		vxgbp_calipso_parse(&c, lv->c.base + l3->calipso_off, l3->calipso_len);
		p->findings |= c.findings;
	}
}

static int ipv4_csum_ok(const struct level *lv, size_t hlen)
{
	const uint8_t *h = vxc_ptr_at(&lv->c, 0, hlen);

	if (h && hlen == 20)
		return vxgbpi_ipv4_hdr20_ok(h);
	return h && vxgbp_csum_fold(vxgbp_csum_add(0, h, hlen)) == 0;
}

static int parse_ipv4(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_l3 *l3)
{
	const char *layer = lv->inner ? "inner-ipv4" : "ipv4";
	size_t hlen, tot;
	uint16_t frag;
	int r;

	if ((r = need(p, lv, 20, layer)))
		return r;
	if (vxc_u8_at(&lv->c, 0) >> 4 != 4)
		return fail(p, VXGBP_E_MALFORMED, lv->c.pos, layer);
	hlen = (size_t)(vxc_u8_at(&lv->c, 0) & 0x0f) * 4;
	tot = vxc_be16_at(&lv->c, 2);
	if (tot == 0 && lv->wire_end > lv->c.pos + IP_MAX_LEN) {
		/* Linux BIG TCP (iph_set_totlen()): a GSO packet over 64 KiB
		 * has total length 0; the capture says how long it is, as
		 * tcpdump takes it */
		tot = lv->wire_end - lv->c.pos;
		p->findings |= VXGBP_RB(VXGBP_R_GSO_LENGTH);
	}
	if (hlen < 20 || tot < hlen || lv->c.pos + tot > lv->wire_end)
		return fail(p, VXGBP_E_MALFORMED, lv->c.pos, layer);
	declare_len(lv, tot);
	if ((r = need(p, lv, hlen, layer)))
		return r;
	l3->off = (int)lv->c.pos;
	l3->version = 4;
	l3->tos = vxc_u8_at(&lv->c, 1);
	l3->tot_len = (uint32_t)tot;
	l3->hdr_len = (uint16_t)hlen;
	l3->ip_id = vxc_be16_at(&lv->c, 4);
	frag = vxc_be16_at(&lv->c, 6);
	l3->dont_frag = (frag & 0x4000) != 0;
	l3->more_frags = (frag & 0x2000) != 0;
	l3->frag_off = (uint16_t)((frag & 0x1fff) * 8);
	l3->ttl = vxc_u8_at(&lv->c, 8);
	l3->proto = vxc_u8_at(&lv->c, 9);
	l3->src = vxc_ptr_at(&lv->c, 12, 4);
	l3->dst = vxc_ptr_at(&lv->c, 16, 4);
	if (!lv->inner && !lv->no_csum)
		p->ip_csum_ok = ipv4_csum_ok(lv, hlen);
	vxc_skip(&lv->c, 20);
	if (hlen > 20) {
		l3->opt_off = (int)lv->c.pos;
		l3->opt_len = (uint16_t)(hlen - 20);
		if ((r = scan_ipv4_opts(p, lv, l3)))
			return r;
		label_findings(p, lv, l3);
		vxc_skip(&lv->c, hlen - 20);
	}
	return 0;
}

/* Walk an IPv6 hop-by-hop option area for CALIPSO. */
static int scan_hbh_opts(struct vxgbp_pkt *p, const struct level *lv, size_t hlen,
			 struct vxgbp_l3 *l3)
{
	struct vxc o = lv->c;
	size_t i = 2;
	const char *layer = lv->inner ? "inner-ipv6-hbh" : "ipv6-hbh";

	vxc_limit(&o, hlen);
	while (i < hlen) {
		uint8_t type = vxc_u8_at(&o, i), len;

		if (type == IP6OPT_PAD1) {
			i++;
			continue;
		}
		if (i + 2 > hlen)
			return fail(p, VXGBP_E_MALFORMED, o.pos + i, layer);
		len = vxc_u8_at(&o, i + 1);
		if ((size_t)len + 2 > hlen - i)
			return fail(p, VXGBP_E_MALFORMED, o.pos + i, layer);
		if (type == IP6OPT_CALIPSO && l3->calipso_off < 0) {
			l3->calipso_off = (int)(o.pos + i);
			l3->calipso_len = (uint16_t)(len + 2);
		}
		i += (size_t)len + 2;
	}
	return 0;
}

/* An IPv6 payload length of 0 with a hop-by-hop Jumbo Payload option
 * (RFC 2675), as Linux BIG TCP writes GSO packets over 64 KiB
 * (ipv6_hopopt_jumbo): the option's length, or 0 when there is none. */
static size_t ipv6_jumbo_len(const struct level *lv)
{
	size_t elen, i = 2;

	if (vxc_u8_at(&lv->c, 6) != IPPROTO_HOPOPTS_ || !vxc_need(&lv->c, 42))
		return 0;
	elen = ((size_t)vxc_u8_at(&lv->c, 41) + 1) * 8;
	if (!vxc_need(&lv->c, 40 + elen))
		return 0;
	while (i + 2 <= elen) {
		uint8_t type = vxc_u8_at(&lv->c, 40 + i);
		size_t len = type == IP6OPT_PAD1 ? 0 : vxc_u8_at(&lv->c, 41 + i);

		if (type == IP6OPT_PAD1) {
			i++;
			continue;
		}
		if (type == IP6OPT_JUMBO && len == 4 && i + 6 <= elen) {
			size_t v = vxc_be32_at(&lv->c, 42 + i);

			return v > IP_MAX_LEN ? v : 0;
		}
		i += len + 2;
	}
	return 0;
}

static int parse_ipv6(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_l3 *l3)
{
	const char *layer = lv->inner ? "inner-ipv6" : "ipv6";
	size_t plen, hlen = 40;
	uint8_t nh;
	int r;

	if ((r = need(p, lv, 40, layer)))
		return r;
	if (vxc_u8_at(&lv->c, 0) >> 4 != 6)
		return fail(p, VXGBP_E_MALFORMED, lv->c.pos, layer);
	plen = vxc_be16_at(&lv->c, 4);
	if (plen == 0 && (plen = ipv6_jumbo_len(lv)) != 0)
		p->findings |= VXGBP_RB(VXGBP_R_GSO_LENGTH);
	if (lv->c.pos + 40 + plen > lv->wire_end)
		return fail(p, VXGBP_E_MALFORMED, lv->c.pos, layer);
	declare_len(lv, 40 + plen);
	l3->off = (int)lv->c.pos;
	l3->version = 6;
	l3->tos = (uint8_t)(vxc_be16_at(&lv->c, 0) >> 4);
	l3->flow_label = vxc_be32_at(&lv->c, 0) & 0xfffff;
	l3->tot_len = (uint32_t)(40 + plen);
	nh = vxc_u8_at(&lv->c, 6);
	l3->ttl = vxc_u8_at(&lv->c, 7);
	l3->src = vxc_ptr_at(&lv->c, 8, 16);
	l3->dst = vxc_ptr_at(&lv->c, 24, 16);
	vxc_skip(&lv->c, 40);

	for (;;) {
		size_t elen;

		if (nh == IPPROTO_HOPOPTS_ || nh == IPPROTO_ROUTING_ ||
		    nh == IPPROTO_DSTOPTS_ || nh == IPPROTO_MH_ || nh == IPPROTO_AH_) {
			if ((r = need(p, lv, 2, layer)))
				return r;
			if (nh == IPPROTO_AH_)
				elen = ((size_t)vxc_u8_at(&lv->c, 1) + 2) * 4;
			else
				elen = ((size_t)vxc_u8_at(&lv->c, 1) + 1) * 8;
			if ((r = need(p, lv, elen, layer)))
				return r;
			if (nh == IPPROTO_HOPOPTS_) {
				if (hlen != 40) /* HBH must come first */
					return fail(p, VXGBP_E_MALFORMED, lv->c.pos, layer);
				l3->opt_off = (int)lv->c.pos;
				l3->opt_len = (uint16_t)elen;
				if ((r = scan_hbh_opts(p, lv, elen, l3)))
					return r;
				label_findings(p, lv, l3);
			}
		} else if (nh == IPPROTO_FRAGMENT_) {
			uint16_t fo;

			elen = 8;
			if ((r = need(p, lv, elen, layer)))
				return r;
			fo = vxc_be16_at(&lv->c, 2);
			l3->frag_off = (uint16_t)(fo & 0xfff8);
			l3->more_frags = fo & 1;
			l3->ip_id = (uint16_t)vxc_be32_at(&lv->c, 4);
		} else {
			break;
		}
		nh = vxc_u8_at(&lv->c, 0);
		vxc_skip(&lv->c, elen);
		hlen += elen;
		if (l3->frag_off)
			break;
	}
	l3->proto = nh;
	l3->hdr_len = (uint16_t)hlen;
	return 0;
}

static int parse_arp(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_l3 *l3)
{
	const char *layer = lv->inner ? "inner-arp" : "arp";
	int r;

	if ((r = need(p, lv, 8, layer)))
		return r;
	l3->off = (int)lv->c.pos;
	l3->arp_hrd = vxc_be16_at(&lv->c, 0);
	l3->arp_pro = vxc_be16_at(&lv->c, 2);
	l3->arp_hln = vxc_u8_at(&lv->c, 4);
	l3->arp_pln = vxc_u8_at(&lv->c, 5);
	l3->arp_op = vxc_be16_at(&lv->c, 6);
	if (l3->arp_pro == ETH_P_IP && l3->arp_hln == 6 && l3->arp_pln == 4) {
		if ((r = need(p, lv, 28, layer)))
			return r;
		l3->arp_sha = vxc_ptr_at(&lv->c, 8, 6);
		l3->arp_spa = vxc_ptr_at(&lv->c, 14, 4);
		l3->arp_tha = vxc_ptr_at(&lv->c, 18, 6);
		l3->arp_tpa = vxc_ptr_at(&lv->c, 24, 4);
	}
	return 0;
}

/* UDP checksum of the datagram at the cursor: 1, 0, or -1 when it was not
 * captured whole. */
static int udp_csum_ok(const struct vxgbp_l3 *l3, const struct level *lv, size_t ulen)
{
	const uint8_t *u = vxc_ptr_at(&lv->c, 0, ulen);

	if (!u)
		return -1;
	return vxgbpi_udp_csum_ok(l3->src, l3->dst, l3->version == 4 ? 4 : 16, u, ulen);
}

static int parse_l4(struct vxgbp_pkt *p, struct level *lv, const struct vxgbp_l3 *l3,
		    struct vxgbp_l4 *l4)
{
	const char *layer;
	size_t n;
	int r;

	if (l3->frag_off)
		return 0; /* a non-first fragment carries no L4 header */
	l4->proto = l3->proto;
	switch (l3->proto) {
	case IPPROTO_UDP_:
		layer = lv->inner ? "inner-udp" : "udp";
		if ((r = need(p, lv, 8, layer)))
			return r;
		n = vxc_be16_at(&lv->c, 4);
		if (n == 0 && !l3->more_frags && lv->wire_end > lv->c.pos + IP_MAX_LEN) {
			/* a UDP GSO packet over 64 KiB (BIG TCP through a
			 * tunnel): length 0, the IP header's length counts */
			n = lv->wire_end - lv->c.pos;
			p->findings |= VXGBP_RB(VXGBP_R_GSO_LENGTH);
		}
		if (n < 8 || (!l3->more_frags && lv->c.pos + n > lv->wire_end))
			return fail(p, VXGBP_E_MALFORMED, lv->c.pos, layer);
		l4->off = (int)lv->c.pos;
		l4->sport = vxc_be16_at(&lv->c, 0);
		l4->dport = vxc_be16_at(&lv->c, 2);
		l4->len = (uint32_t)n;
		l4->payload_len = (uint32_t)n - 8;
		l4->csum = vxc_be16_at(&lv->c, 6);
		if (!lv->inner && !lv->no_csum && !l3->more_frags && l4->csum)
			p->udp_csum_ok = udp_csum_ok(l3, lv, n);
		if (!l3->more_frags)
			declare_len(lv, n);
		vxc_skip(&lv->c, 8);
		return 0;
	case IPPROTO_TCP_:
		layer = lv->inner ? "inner-tcp" : "tcp";
		if ((r = need(p, lv, 20, layer)))
			return r;
		n = (size_t)(vxc_u8_at(&lv->c, 12) >> 4) * 4;
		if (n < 20)
			return fail(p, VXGBP_E_MALFORMED, lv->c.pos, layer);
		if ((r = need(p, lv, n, layer)))
			return r;
		l4->off = (int)lv->c.pos;
		l4->sport = vxc_be16_at(&lv->c, 0);
		l4->dport = vxc_be16_at(&lv->c, 2);
		l4->tcp_seq = vxc_be32_at(&lv->c, 4);
		l4->tcp_ack = vxc_be32_at(&lv->c, 8);
		l4->tcp_flags = vxc_u8_at(&lv->c, 13);
		l4->tcp_win = vxc_be16_at(&lv->c, 14);
		l4->csum = vxc_be16_at(&lv->c, 16);
		l4->tcp_urg = vxc_be16_at(&lv->c, 18);
		l4->tcp_hlen = (uint8_t)n;
		/* the header is within the IP payload (need() above) */
		l4->payload_len = l3->tot_len - l3->hdr_len - (uint32_t)n;
		vxc_skip(&lv->c, n);
		return 0;
	case IPPROTO_ICMP_:
	case IPPROTO_ICMPV6_:
		layer = lv->inner ? "inner-icmp" : "icmp";
		if ((r = need(p, lv, 4, layer)))
			return r;
		l4->off = (int)lv->c.pos;
		l4->icmp_type = vxc_u8_at(&lv->c, 0);
		l4->icmp_code = vxc_u8_at(&lv->c, 1);
		l4->csum = vxc_be16_at(&lv->c, 2);
		if (vxc_need(&lv->c, 8)) { /* echo identifier / sequence */
			l4->sport = vxc_be16_at(&lv->c, 4);
			l4->dport = vxc_be16_at(&lv->c, 6);
		}
		vxc_skip(&lv->c, 4);
		return 0;
	default:
		l4->proto = 0;
		return 0;
	}
}

/* What a frame is before its parse: all zero, no layer (offsets -1),
 * nothing verified; the encap[] and nested[] arrays are left as they are
 * (their counts say what is valid).  Zeroed 64 bytes a step: one memset() of the whole
 * 368 bytes becomes a "rep stos" whose start-up cost was a quarter of the
 * parse (perf, AMD EPYC); 64-byte pieces are a few wide stores. */
void vxgbpi_pkt_init(struct vxgbp_pkt *p)
{
	unsigned char *d = (unsigned char *)p + offsetof(struct vxgbp_pkt, caplen);
	/* not size (the caller's), not the arrays */
	const size_t n = offsetof(struct vxgbp_pkt, encap) - offsetof(struct vxgbp_pkt, caplen);
	size_t i;

	/* unrolled: the count is a constant, and the loop's own compare and
	 * add would cost more than the stores */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
	for (i = 0; i + 64 <= n; i += 64)
		memset(d + i, 0, 64);
	memset(d + i, 0, n - i);
	vxgbpi_layers_init(&p->outer);
	vxgbpi_layers_init(&p->inner);
	p->vxlan_off = -1;
	p->err_off = -1;
	p->udp_csum_ok = -1;
	p->ip_csum_ok = -1;
	p->nsh_off = -1;
}

int vxgbpi_parse_l3_l4(struct vxgbp_pkt *p, struct level *lv, struct vxgbp_layers *ls,
		       uint16_t ethertype)
{
	unsigned have3 = lv->inner ? VXGBP_HAVE_INNER_L3 : VXGBP_HAVE_L3;
	unsigned have4 = lv->inner ? VXGBP_HAVE_INNER_L4 : VXGBP_HAVE_L4;
	int r;

	switch (ethertype) {
	case ETH_P_IP:
		r = parse_ipv4(p, lv, &ls->l3);
		break;
	case ETH_P_IPV6:
		r = parse_ipv6(p, lv, &ls->l3);
		break;
	case ETH_P_ARP:
		r = parse_arp(p, lv, &ls->l3);
		if (!r)
			*lv->have |= have3;
		return r;
	default:
		return 0;
	}
	if (r)
		return r;
	*lv->have |= have3;
	if ((r = parse_l4(p, lv, &ls->l3, &ls->l4)))
		return r;
	if (ls->l4.off >= 0)
		*lv->have |= have4;
	return 0;
}

int vxgbpi_is_extra_port(const struct vxgbp_parse_opts *o, uint16_t port)
{
	for (unsigned i = 0; i < o->n_ports && i < VXGBP_MAX_PORTS; i++)
		if (o->ports[i] == port)
			return 1;
	return 0;
}

/* A Linux cooked header (libpcap's sll.h):
 *   SLL   |pkttype (16)|hatype (16)|halen (16)|addr (8 bytes)|protocol (16)|
 *   SLL2  |protocol (16)|reserved (16)|ifindex (32)|hatype (16)|pkttype (8)|
 *         |halen (8)|addr (8 bytes)|
 * into p->cooked, skipped. */
static int parse_cooked(struct vxgbp_pkt *p, struct level *lv, int v2)
{
	struct vxgbp_cooked *k = &p->cooked;
	size_t n = v2 ? 20 : 16, a = v2 ? 12 : 6;
	int r;

	if ((r = need(p, lv, n, v2 ? "sll2" : "sll")))
		return r;
	memset(k, 0, sizeof(*k));
	k->version = v2 ? 2 : 1;
	if (v2) {
		k->proto = vxc_be16_at(&lv->c, 0);
		k->ifindex = vxc_be32_at(&lv->c, 4);
		k->hatype = vxc_be16_at(&lv->c, 8);
		k->pkttype = vxc_u8_at(&lv->c, 10);
		k->addr_len = vxc_u8_at(&lv->c, 11);
	} else {
		k->pkttype = vxc_be16_at(&lv->c, 0);
		k->hatype = vxc_be16_at(&lv->c, 2);
		k->addr_len = vxc_be16_at(&lv->c, 4);
		k->proto = vxc_be16_at(&lv->c, 14);
	}
	k->addr = vxc_ptr_at(&lv->c, a, k->addr_len < 8 ? k->addr_len : 8);
	p->has_cooked = 1;
	vxc_skip(&lv->c, n);
	return 0;
}

int vxgbpi_parse_link(struct vxgbp_pkt *p, struct level *lv, int linktype, uint16_t *et)
{
	uint8_t b0;
	uint32_t fam;
	int r;

	switch (linktype) {
	case VXGBP_LINK_ETHERNET:
		if ((r = vxgbpi_parse_eth(p, lv, &p->outer.l2)))
			return r;
		p->have |= VXGBP_HAVE_L2;
		*et = p->outer.l2.ethertype;
		return 0;
	case VXGBP_LINK_LINUX_SLL:
	case VXGBP_LINK_LINUX_SLL2:
		if ((r = parse_cooked(p, lv, linktype == VXGBP_LINK_LINUX_SLL2)))
			return r;
		*et = p->cooked.proto;
		break;
	case VXGBP_LINK_RAW:
	case VXGBP_LINK_IPV4:
	case VXGBP_LINK_IPV6:
		if ((r = need(p, lv, 1, "raw")))
			return r;
		b0 = vxc_u8_at(&lv->c, 0) >> 4;
		*et = b0 == 6 ? ETH_P_IPV6 : b0 == 4 ? ETH_P_IP : 0;
		break;
	case VXGBP_LINK_NULL:
		if ((r = need(p, lv, 4, "null")))
			return r;
		/* BSD loopback: the family in the capturing host's byte
		 * order, so look at both ends of the word. */
		fam = vxc_u8_at(&lv->c, 0) | (uint32_t)vxc_u8_at(&lv->c, 3);
		*et = fam == 2 ? ETH_P_IP
		      : (fam == 24 || fam == 28 || fam == 30) ? ETH_P_IPV6 : 0;
		vxc_skip(&lv->c, 4);
		break;
	default:
		return fail(p, VXGBP_E_UNSUPPORTED, 0, "link");
	}
	/* a cooked header's protocol may be a VLAN tag (libpcap's "any"
	 * device re-inserts the tag the NIC stripped) */
	if ((r = vlan_tags(p, lv, &p->outer.l2, et)))
		return r;
	p->outer.l2.ethertype = *et;
	return 0;
}

int vxgbp_parse_opts_add_port(struct vxgbp_parse_opts *o, uint16_t port)
{
	if (vxgbpi_opts_size(o))
		return VXGBP_E_INVAL;
	if (o->n_ports >= VXGBP_MAX_PORTS)
		return VXGBP_E_NOSPACE;
	o->ports[o->n_ports++] = port;
	return 0;
}

enum vxgbp_scope vxgbp_pkt_err_scope(const struct vxgbp_pkt *p, int *nested)
{
	const char *l = p->err_layer ? p->err_layer : "";

	*nested = -1;
	for (unsigned i = p->n_nested; i-- > 0;)
		if (i < VXGBP_MAX_NESTED && p->nested[i].off >= 0 && p->err_off >= p->nested[i].off) {
			*nested = (int)i;
			return VXGBP_SCOPE_FRAME;
		}
	if (!strcmp(l, "vxlan"))
		return VXGBP_SCOPE_HEADER;
	if (!strncmp(l, "inner", 5) ||
	    (p->vxlan_off >= 0 && p->err_off >= p->vxlan_off + VXGBP_HDR_LEN))
		return VXGBP_SCOPE_INNER;
	return VXGBP_SCOPE_OUTER;
}
