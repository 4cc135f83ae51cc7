// SPDX-License-Identifier: BSD-2-Clause
/*
 * build.c - frame builder: Ethernet [VLAN tags] IPv4|IPv6 UDP|TCP|ICMP +
 * payload, with correct IPv4 header and L4 checksums (or the partial sum a
 * sender that offloads them leaves), any other IP protocol with the payload
 * right after the IP header, BIG TCP lengths; and the VXLAN frame
 * as a UDP datagram whose payload is the 8-byte header plus the inner frame;
 * and the Ethernet ARP packet for IPv4 (RFC 826).
 *
 * The builder writes only inside [out, out+outlen) and checks the total
 * before writing anything.
 */
#include <string.h>

#include "vxgbp_internal.h"

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

static size_t l4_hdr_len(const struct vxgbp_l4_spec *l4)
{
	switch (l4->proto) {
	case 17:
	case 1:
	case 58:
		return 8;
	case 6:
		return 20;
	default:
		return 0;
	}
}

/* Where everything of a frame goes (frame_layout). */
struct layout {
	size_t l2len;  /* Ethernet and VLAN tags; 0 for a raw IP packet */
	size_t optlen; /* IPv4 options / IPv6 hop-by-hop header, padded */
	size_t ihl;    /* the whole IP header with them */
	size_t l4len;  /* the L4 header (0: none) */
	size_t seglen; /* L4 header and payload */
	size_t at;     /* where the payload starts */
	size_t total;
	int big;       /* written with BIG TCP lengths (IPv4 0, IPv6 jumbo) */
};

/* RFC 2675: the Jumbo Payload option, 2 bytes type and length, 4 bytes
 * the length; put first in the hop-by-hop header, so at 4n+2. */
#define JUMBO_OPT 0xc2
#define JUMBO_OPT_LEN 6
#define IP_MAX_LEN 0xffffu

static size_t ip_opts_padded(const struct vxgbp_ip_spec *ip, int jumbo)
{
	size_t n = ip->options_len + (jumbo ? JUMBO_OPT_LEN : 0);

	if (!n)
		return 0;
	if (ip->version == 4)
		return (n + 3) & ~(size_t)3;
	/* IPv6 hop-by-hop header: next header + length + options, to 8 */
	return (n + 2 + 7) & ~(size_t)7;
}

/* The pseudo-header sum of an L4 segment of len bytes (RFC 768, RFC 793,
 * RFC 8200 sec. 8.1: the length as 32 bits), not folded. */
static uint32_t pseudo_sum(const struct vxgbp_ip_spec *ip, uint8_t proto, size_t len)
{
	uint8_t ph[8] = { 0 };
	size_t alen = ip->version == 4 ? 4 : 16;
	uint32_t sum;

	sum = vxgbp_csum_add(0, ip->src, alen);
	sum = vxgbp_csum_add(sum, ip->dst, alen);
	put32(ph, (uint32_t)len);
	ph[7] = proto;
	return vxgbp_csum_add(sum, ph, sizeof(ph));
}

/* Checksum of an L4 segment with the IP pseudo-header. */
static uint16_t l4_csum(const struct vxgbp_ip_spec *ip, uint8_t proto,
			const uint8_t *seg, size_t len)
{
	uint32_t sum = 0;

	if (proto != 1) /* ICMPv4 has no pseudo-header */
		sum = pseudo_sum(ip, proto, len);
	sum = vxgbp_csum_add(sum, seg, len);
	return vxgbp_csum_fold(sum);
}

static int l4_spec_ok(const struct vxgbp_l4_spec *l4)
{
	if (l4->csum_mode < VXGBP_CSUM_COMPUTE || l4->csum_mode > VXGBP_CSUM_PARTIAL)
		return 0;
	/* a partial sum is the pseudo-header's: UDP and TCP have one */
	return l4->csum_mode != VXGBP_CSUM_PARTIAL || l4->proto == 17 || l4->proto == 6 ||
	       !l4_hdr_len(l4);
}

/* Sizes of a frame's headers into *lo; 0 or a vxgbp_err. */
static int frame_layout(const struct vxgbp_eth_spec *eth, const struct vxgbp_ip_spec *ip,
			const struct vxgbp_l4_spec *l4, size_t payload_len,
			struct layout *lo)
{
	size_t maxpay, iplen;
	int big;

	if (!ip || !l4 || (ip->version != 4 && ip->version != 6) ||
	    (ip->options_len && !ip->options) || (ip->flags & ~(VXGBP_IP_BIG | VXGBP_IP_CSUM_BAD)) ||
	    (ip->version == 6 && (ip->flags & VXGBP_IP_CSUM_BAD)) ||
	    !l4_spec_ok(l4))
		return VXGBP_E_INVAL;
	big = (ip->flags & VXGBP_IP_BIG) != 0;
	/* before any size arithmetic, so that nothing below can wrap */
	maxpay = big ? (size_t)INT32_MAX : IP_MAX_LEN;
	if (payload_len > maxpay || ip->options_len > IP_MAX_LEN)
		return VXGBP_E_INVAL;
	if (eth && eth->n_vlan > VXGBP_MAX_VLAN)
		return VXGBP_E_INVAL;
	lo->l2len = eth ? 14 + 4 * (size_t)eth->n_vlan : 0;
	lo->l4len = l4_hdr_len(l4);
	lo->seglen = lo->l4len + payload_len;
	lo->optlen = ip_opts_padded(ip, 0);
	/* IPv6: a jumbogram only when the payload length cannot hold it */
	if (big && ip->version == 6 && lo->optlen + lo->seglen > IP_MAX_LEN)
		lo->optlen = ip_opts_padded(ip, 1);
	if ((ip->version == 4 && lo->optlen > 40) || (ip->version == 6 && lo->optlen > 2048))
		return VXGBP_E_INVAL;
	lo->ihl = (ip->version == 4 ? 20 : 40) + lo->optlen;
	iplen = ip->version == 4 ? lo->ihl + lo->seglen : lo->optlen + lo->seglen;
	if (!big && (lo->seglen > IP_MAX_LEN || iplen > IP_MAX_LEN))
		return VXGBP_E_INVAL;
	lo->big = big && iplen > IP_MAX_LEN;
	lo->at = lo->l2len + lo->ihl + lo->l4len;
	lo->total = lo->at + payload_len;
	return 0;
}

/* The Ethernet header and VLAN tags with ethertype et; returns its length. */
static size_t fill_eth(uint8_t *b, const struct vxgbp_eth_spec *eth, uint16_t et)
{
	size_t off = 12;

	memcpy(b, eth->dst, 6);
	memcpy(b + 6, eth->src, 6);
	for (unsigned i = 0; i < eth->n_vlan; i++) {
		put16(b + off, eth->vlan_tpid[i] ? eth->vlan_tpid[i] : 0x8100);
		put16(b + off + 2, eth->vlan_tci[i]);
		off += 4;
	}
	put16(b + off, et);
	return off + 2;
}

static void fill_ipv4(uint8_t *iph, const struct vxgbp_ip_spec *ip, uint8_t proto,
		      const struct layout *lo)
{
	size_t ihl = lo->ihl;
	uint16_t csum;

	iph[0] = (uint8_t)(0x40 | (ihl / 4));
	iph[1] = ip->tos;
	/* BIG TCP: 0, the length is the capture's (Linux iph_set_totlen()) */
	put16(iph + 2, lo->big ? 0 : (uint16_t)(ihl + lo->seglen));
	put16(iph + 4, ip->ip_id);
	put16(iph + 6, ip->dont_frag ? 0x4000 : 0);
	iph[8] = ip->ttl ? ip->ttl : 64;
	iph[9] = proto;
	memcpy(iph + 12, ip->src, 4);
	memcpy(iph + 16, ip->dst, 4);
	if (ihl > 20) /* padded with EOL (0) */
		memcpy(iph + 20, ip->options, ip->options_len);
	csum = vxgbp_csum_fold(vxgbp_csum_add(0, iph, ihl));
	if (ip->flags & VXGBP_IP_CSUM_BAD) /* never the right one: 0x5a5a is not 0 */
		csum ^= 0x5a5a;
	put16(iph + 10, csum);
}

static void fill_ipv6(uint8_t *iph, const struct vxgbp_ip_spec *ip, uint8_t proto,
		      const struct layout *lo)
{
	size_t optlen = lo->optlen, seglen = lo->seglen;

	put32(iph, 0x60000000u | (uint32_t)ip->tos << 20 | (ip->flow_label & 0xfffff));
	/* a jumbogram: payload length 0, the Jumbo Payload option says it */
	put16(iph + 4, lo->big ? 0 : (uint16_t)(optlen + seglen));
	iph[6] = optlen ? 0 : proto;
	iph[7] = ip->ttl ? ip->ttl : 64;
	memcpy(iph + 8, ip->src, 16);
	memcpy(iph + 24, ip->dst, 16);
	if (optlen) {
		uint8_t *h = iph + 40, *o = h + 2;
		size_t pad = optlen - 2 - ip->options_len;

		h[0] = proto;
		h[1] = (uint8_t)(optlen / 8 - 1);
		if (lo->big) {
			o[0] = JUMBO_OPT;
			o[1] = JUMBO_OPT_LEN - 2;
			put32(o + 2, (uint32_t)(optlen + seglen));
			o += JUMBO_OPT_LEN;
			pad -= JUMBO_OPT_LEN;
		}
		if (ip->options_len) /* options may be NULL with a jumbo option alone */
			memcpy(o, ip->options, ip->options_len);
		/* the rest is Pad1 or PadN (RFC 8200 sec. 4.2) */
		if (pad > 1) {
			o[ip->options_len] = 1;
			o[ip->options_len + 1] = (uint8_t)(pad - 2);
		}
	}
}

/* The L4 header at seg (zeroed), then its checksum over the final bytes. */
static void fill_l4(uint8_t *seg, const struct vxgbp_ip_spec *ip,
		    const struct vxgbp_l4_spec *l4, size_t seglen)
{
	uint16_t csum;

	switch (l4->proto) {
	case 17: /* a jumbogram's UDP length is 0 (RFC 2675 sec. 4) */
		put16(seg, l4->sport);
		put16(seg + 2, l4->dport);
		put16(seg + 4, seglen > IP_MAX_LEN ? 0 : (uint16_t)seglen);
		break;
	case 6:
		put16(seg, l4->sport);
		put16(seg + 2, l4->dport);
		put32(seg + 4, l4->tcp_seq);
		put32(seg + 8, l4->tcp_ack);
		seg[12] = 5 << 4;
		seg[13] = l4->tcp_flags;
		put16(seg + 14, 65535);
		break;
	case 1:
	case 58: /* echo identifier and sequence from sport/dport */
		seg[0] = l4->icmp_type;
		seg[1] = l4->icmp_code;
		put16(seg + 4, l4->sport);
		put16(seg + 6, l4->dport);
		break;
	default:
		return; /* no L4 header, no checksum */
	}
	if (l4->csum_mode == VXGBP_CSUM_ZERO && l4->proto == 17) {
		csum = 0;
	} else if (l4->csum_mode == VXGBP_CSUM_PARTIAL) {
		/* ~csum_tcpudp_magic(saddr, daddr, len, proto, 0): the folded
		 * pseudo-header sum, not complemented; the device adds the rest */
		csum = (uint16_t)~vxgbp_csum_fold(pseudo_sum(ip, l4->proto, seglen));
	} else {
		csum = l4_csum(ip, l4->proto, seg, seglen);
		if (l4->proto == 17 && csum == 0)
			csum = 0xffff; /* RFC 768: 0 would mean "no checksum" */
		if (l4->csum_mode == VXGBP_CSUM_BAD)
			csum = (uint16_t)(csum ^ 0x5a5a) ? (uint16_t)(csum ^ 0x5a5a) : 1;
	}
	put16(seg + (l4->proto == 17 ? 6 : l4->proto == 6 ? 16 : 2), csum);
}

/* Write every header of a frame whose payload already sits at its place
 * (lo->at), then the checksums over the final bytes. */
static void frame_fill(uint8_t *b, const struct vxgbp_eth_spec *eth,
		       const struct vxgbp_ip_spec *ip, const struct vxgbp_l4_spec *l4,
		       const struct layout *lo)
{
	uint8_t *iph = b + lo->l2len;

	if (eth)
		fill_eth(b, eth, ip->version == 4 ? 0x0800 : 0x86dd);
	memset(iph, 0, lo->ihl + lo->l4len);
	if (ip->version == 4)
		fill_ipv4(iph, ip, l4->proto, lo);
	else
		fill_ipv6(iph, ip, l4->proto, lo);
	fill_l4(iph + lo->ihl, ip, l4, lo->seglen);
}

int vxgbp_frame_build(void *out, size_t outlen, const struct vxgbp_eth_spec *eth,
		      const struct vxgbp_ip_spec *ip, const struct vxgbp_l4_spec *l4,
		      const void *payload, size_t payload_len)
{
	struct layout lo;
	int r;

	if (!out || (payload_len && !payload))
		return VXGBP_E_INVAL;
	if ((r = frame_layout(eth, ip, l4, payload_len, &lo)))
		return r;
	if (lo.total > outlen || lo.total > INT32_MAX)
		return VXGBP_E_NOSPACE;
	if (payload_len)
		memmove((uint8_t *)out + lo.at, payload, payload_len);
	frame_fill(out, eth, ip, l4, &lo);
	return (int)lo.total;
}

int vxgbp_vxlan_build(void *out, size_t outlen, const struct vxgbp_eth_spec *eth,
		      const struct vxgbp_ip_spec *ip, const struct vxgbp_l4_spec *udp,
		      const struct vxgbp_hdr *hdr, const void *inner, size_t inner_len)
{
	struct vxgbp_l4_spec u;
	struct layout lo;
	uint8_t *b = out;
	int r;

	if (!out || !udp || !hdr || (inner_len && !inner))
		return VXGBP_E_INVAL;
	/* frame_layout judges the length; this only keeps the sum below from
	 * wrapping */
	if (hdr->vni > VXGBP_VNI_MAX || inner_len > INT32_MAX)
		return VXGBP_E_INVAL;
	u = *udp;
	u.proto = 17;
	if ((r = frame_layout(eth, ip, &u, VXGBP_HDR_LEN + inner_len, &lo)))
		return r;
	if (lo.total > outlen || lo.total > INT32_MAX)
		return VXGBP_E_NOSPACE;
	if (inner_len)
		memmove(b + lo.at + VXGBP_HDR_LEN, inner, inner_len);
	vxgbp_hdr_encode(hdr, b + lo.at, VXGBP_HDR_LEN);
	frame_fill(b, eth, ip, &u, &lo);
	return (int)lo.total;
}

/* RFC 826 for Ethernet and IPv4: hardware type 1, protocol 0x0800, address
 * lengths 6 and 4, then op, sender MAC and IP, target MAC and IP. */
#define ETH_P_ARP 0x0806
#define ARP_LEN 28

int vxgbp_arp_build(void *out, size_t outlen, const struct vxgbp_eth_spec *eth,
		    uint16_t op, const uint8_t sha[6], const uint8_t spa[4],
		    const uint8_t tha[6], const uint8_t tpa[4])
{
	uint8_t b[14 + 4 * VXGBP_MAX_VLAN + ARP_LEN], *a;
	size_t len;

	if (!out || !eth || !sha || !spa || !tpa || eth->n_vlan > VXGBP_MAX_VLAN ||
	    (op != VXGBP_ARP_REQUEST && op != VXGBP_ARP_REPLY))
		return VXGBP_E_INVAL;
	len = 14 + 4 * (size_t)eth->n_vlan + ARP_LEN;
	if (len > outlen)
		return VXGBP_E_NOSPACE;
	/* built aside: the addresses may point into out */
	a = b + fill_eth(b, eth, ETH_P_ARP);
	put16(a, 1);
	put16(a + 2, 0x0800);
	a[4] = 6;
	a[5] = 4;
	put16(a + 6, op);
	memcpy(a + 8, sha, 6);
	memcpy(a + 14, spa, 4);
	if (tha)
		memcpy(a + 18, tha, 6);
	else
		memset(a + 18, 0, 6);
	memcpy(a + 24, tpa, 4);
	memcpy(out, b, len);
	return (int)len;
}
