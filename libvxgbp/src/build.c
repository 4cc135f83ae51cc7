// SPDX-License-Identifier: BSD-2-Clause
/*
 * build.c - frame builder: Ethernet [VLAN tags] IPv4|IPv6 UDP|TCP|ICMP +
 * payload, with correct IPv4 header and L4 checksums; and the VXLAN frame
 * as a UDP datagram whose payload is the 8-byte header plus the inner frame;
 * and the Ethernet ARP packet for IPv4 (RFC 826).
 *
 * The builder writes only inside [out, out+outlen) and checks the total
 * before writing anything.
 */
#include <string.h>

#include <vxgbp/vxgbp.h>

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

static size_t ip_opts_padded(const struct vxgbp_ip_spec *ip)
{
	if (!ip->options_len)
		return 0;
	if (ip->version == 4)
		return (ip->options_len + 3) & ~(size_t)3;
	/* IPv6 hop-by-hop header: next header + length + options, to 8 */
	return (ip->options_len + 2 + 7) & ~(size_t)7;
}

/* Checksum of an L4 segment with the IP pseudo-header. */
static uint16_t l4_csum(const struct vxgbp_ip_spec *ip, uint8_t proto,
			const uint8_t *seg, size_t len)
{
	uint8_t ph[8] = { 0 };
	uint32_t sum = 0;
	size_t alen = ip->version == 4 ? 4 : 16;

	if (proto != 1) { /* ICMPv4 has no pseudo-header */
		sum = vxgbp_csum_add(sum, ip->src, alen);
		sum = vxgbp_csum_add(sum, ip->dst, alen);
		put32(ph, (uint32_t)len);
		ph[7] = proto;
		sum = vxgbp_csum_add(sum, ph, sizeof(ph));
	}
	sum = vxgbp_csum_add(sum, seg, len);
	return vxgbp_csum_fold(sum);
}

/* Sizes of a frame's headers; 0 or a vxgbp_err. */
static int frame_layout(const struct vxgbp_eth_spec *eth, const struct vxgbp_ip_spec *ip,
			const struct vxgbp_l4_spec *l4, size_t payload_len,
			size_t *payload_at, size_t *total)
{
	size_t l2len = 0, ihl, optlen, seglen;

	if (!ip || !l4 || (ip->version != 4 && ip->version != 6) ||
	    (ip->options_len && !ip->options))
		return VXGBP_E_INVAL;
	/* before any size arithmetic, so that nothing below can wrap */
	if (payload_len > 0xffff || ip->options_len > 0xffff)
		return VXGBP_E_INVAL;
	if (eth && eth->n_vlan > VXGBP_MAX_VLAN)
		return VXGBP_E_INVAL;
	optlen = ip_opts_padded(ip);
	if ((ip->version == 4 && optlen > 40) || (ip->version == 6 && optlen > 2048))
		return VXGBP_E_INVAL;
	if (eth)
		l2len = 14 + 4 * (size_t)eth->n_vlan;
	ihl = (ip->version == 4 ? 20 : 40) + optlen;
	seglen = l4_hdr_len(l4) + payload_len;
	if (seglen > 0xffff || (ip->version == 4 && ihl + seglen > 0xffff) ||
	    (ip->version == 6 && optlen + seglen > 0xffff))
		return VXGBP_E_INVAL;
	*payload_at = l2len + ihl + l4_hdr_len(l4);
	*total = *payload_at + payload_len;
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
		      size_t ihl, size_t seglen)
{
	iph[0] = (uint8_t)(0x40 | (ihl / 4));
	iph[1] = ip->tos;
	put16(iph + 2, (uint16_t)(ihl + seglen));
	put16(iph + 4, ip->ip_id);
	put16(iph + 6, ip->dont_frag ? 0x4000 : 0);
	iph[8] = ip->ttl ? ip->ttl : 64;
	iph[9] = proto;
	memcpy(iph + 12, ip->src, 4);
	memcpy(iph + 16, ip->dst, 4);
	if (ihl > 20) /* padded with EOL (0) */
		memcpy(iph + 20, ip->options, ip->options_len);
	put16(iph + 10, vxgbp_csum_fold(vxgbp_csum_add(0, iph, ihl)));
}

static void fill_ipv6(uint8_t *iph, const struct vxgbp_ip_spec *ip, uint8_t proto,
		      size_t optlen, size_t seglen)
{
	put32(iph, 0x60000000u | (uint32_t)ip->tos << 20 | (ip->flow_label & 0xfffff));
	put16(iph + 4, (uint16_t)(optlen + seglen));
	iph[6] = optlen ? 0 : proto;
	iph[7] = ip->ttl ? ip->ttl : 64;
	memcpy(iph + 8, ip->src, 16);
	memcpy(iph + 24, ip->dst, 16);
	if (optlen) {
		uint8_t *h = iph + 40;
		size_t pad = optlen - 2 - ip->options_len;

		h[0] = proto;
		h[1] = (uint8_t)(optlen / 8 - 1);
		memcpy(h + 2, ip->options, ip->options_len);
		/* the rest is Pad1 or PadN (RFC 8200 sec. 4.2) */
		if (pad > 1) {
			h[2 + ip->options_len] = 1;
			h[3 + ip->options_len] = (uint8_t)(pad - 2);
		}
	}
}

/* The L4 header at seg (zeroed), then its checksum over the final bytes. */
static void fill_l4(uint8_t *seg, const struct vxgbp_ip_spec *ip,
		    const struct vxgbp_l4_spec *l4, size_t seglen)
{
	uint16_t csum;

	switch (l4->proto) {
	case 17:
		put16(seg, l4->sport);
		put16(seg + 2, l4->dport);
		put16(seg + 4, (uint16_t)seglen);
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
 * (frame_layout's payload_at), then the checksums over the final bytes. */
static void frame_fill(uint8_t *b, const struct vxgbp_eth_spec *eth,
		       const struct vxgbp_ip_spec *ip, const struct vxgbp_l4_spec *l4,
		       size_t payload_len)
{
	size_t off = 0, optlen = ip_opts_padded(ip), l4len = l4_hdr_len(l4);
	size_t ihl = (ip->version == 4 ? 20 : 40) + optlen;
	size_t seglen = l4len + payload_len;
	uint8_t *iph;

	if (eth)
		off = fill_eth(b, eth, ip->version == 4 ? 0x0800 : 0x86dd);
	iph = b + off;
	memset(iph, 0, ihl + l4len);
	if (ip->version == 4)
		fill_ipv4(iph, ip, l4->proto, ihl, seglen);
	else
		fill_ipv6(iph, ip, l4->proto, optlen, seglen);
	fill_l4(iph + ihl, ip, l4, seglen);
}

int vxgbp_frame_build(void *out, size_t outlen, const struct vxgbp_eth_spec *eth,
		      const struct vxgbp_ip_spec *ip, const struct vxgbp_l4_spec *l4,
		      const void *payload, size_t payload_len)
{
	size_t at, total;
	int r;

	if (!out || (payload_len && !payload))
		return VXGBP_E_INVAL;
	if ((r = frame_layout(eth, ip, l4, payload_len, &at, &total)))
		return r;
	if (total > outlen || total > INT32_MAX)
		return VXGBP_E_NOSPACE;
	if (payload_len)
		memmove((uint8_t *)out + at, payload, payload_len);
	frame_fill(out, eth, ip, l4, payload_len);
	return (int)total;
}

int vxgbp_vxlan_build(void *out, size_t outlen, const struct vxgbp_eth_spec *eth,
		      const struct vxgbp_ip_spec *ip, const struct vxgbp_l4_spec *udp,
		      const struct vxgbp_hdr *hdr, const void *inner, size_t inner_len)
{
	struct vxgbp_l4_spec u;
	size_t at, total;
	uint8_t *b = out;
	int r;

	if (!out || !udp || !hdr || (inner_len && !inner))
		return VXGBP_E_INVAL;
	if (hdr->vni > VXGBP_VNI_MAX || inner_len > 0xffff)
		return VXGBP_E_INVAL;
	u = *udp;
	u.proto = 17;
	if ((r = frame_layout(eth, ip, &u, VXGBP_HDR_LEN + inner_len, &at, &total)))
		return r;
	if (total > outlen || total > INT32_MAX)
		return VXGBP_E_NOSPACE;
	if (inner_len)
		memmove(b + at + VXGBP_HDR_LEN, inner, inner_len);
	vxgbp_hdr_encode(hdr, b + at, VXGBP_HDR_LEN);
	frame_fill(b, eth, ip, &u, VXGBP_HDR_LEN + inner_len);
	return (int)total;
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
