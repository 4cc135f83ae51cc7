// SPDX-License-Identifier: BSD-2-Clause
/*
 * tunnels.c - write a capture of VXLAN inside other tunnels, built with
 * libvxgbp's builders (vxgbp_vxlan_build, vxgbp_tunnel_build,
 * vxgbp_frame_build), for the tshark tests of the plugin:
 *
 *   tunnels OUT.pcap     the capture (one frame per line of frames[])
 *   tunnels --rules      print the id of every rule of libvxgbp's table
 *
 * Every frame carries VXLAN (or VXLAN-GPE) where Wireshark, gbpdump and
 * the plugin must all find it: GRE (plain; checksum, key and sequence),
 * ERSPAN I, II and III, Geneve with options, IPv4 and IPv6 in IPv4, MPLS
 * over Ethernet, VXLAN in VXLAN, VXLAN in VXLAN-GPE (UDP 4790), VXLAN-GPE
 * carrying IPv4, a GPE header on 4789, VXLAN in VXLAN in ERSPAN II.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#define BUF 2048

static void put32(FILE *f, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	fwrite(b, 1, 4, f);
}

static void eth_spec(struct vxgbp_eth_spec *eth, uint8_t host)
{
	memset(eth, 0, sizeof(*eth));
	eth->src[0] = eth->dst[0] = 0x02;
	eth->src[5] = (uint8_t)(host + 1);
	eth->dst[5] = (uint8_t)(host + 2);
}

static void ip_spec(struct vxgbp_ip_spec *ip, int version, uint8_t net)
{
	memset(ip, 0, sizeof(*ip));
	ip->version = (uint8_t)version;
	if (version == 4) {
		ip->src[0] = ip->dst[0] = 192;
		ip->src[2] = ip->dst[2] = net;
		ip->src[3] = 1;
		ip->dst[3] = 2;
	} else {
		ip->src[0] = ip->dst[0] = 0x20;
		ip->src[1] = ip->dst[1] = 0x01;
		ip->src[2] = ip->dst[2] = 0x0d;
		ip->src[3] = ip->dst[3] = 0xb8;
		ip->src[5] = ip->dst[5] = net;
		ip->src[15] = 1;
		ip->dst[15] = 2;
	}
}

/* An ICMP echo, in Ethernet (with_eth) or as a bare IPv4 packet. */
static int echo(uint8_t *out, size_t outlen, int with_eth)
{
	static const uint8_t payload[16] = "vxlan in tunnel";
	struct vxgbp_eth_spec eth;
	struct vxgbp_ip_spec ip;
	struct vxgbp_l4_spec icmp;

	eth_spec(&eth, 0xa0);
	ip_spec(&ip, 4, 99);
	memset(&icmp, 0, sizeof(icmp));
	icmp.proto = 1;
	icmp.icmp_type = 8;
	icmp.sport = 1;
	icmp.dport = 1;
	return vxgbp_frame_build(out, outlen, with_eth ? &eth : NULL, &ip, &icmp, payload,
				 sizeof(payload));
}

/* UDP to dport with header h around inner: in Ethernet (with_eth) or as a
 * bare IP packet of version ipv. */
static int vxlan(uint8_t *out, size_t outlen, int with_eth, int ipv, uint16_t dport,
		 const struct vxgbp_hdr *h, const uint8_t *inner, size_t inner_len)
{
	struct vxgbp_eth_spec eth;
	struct vxgbp_ip_spec ip;
	struct vxgbp_l4_spec udp;

	eth_spec(&eth, 0x10);
	ip_spec(&ip, ipv, 10);
	memset(&udp, 0, sizeof(udp));
	udp.proto = 17;
	udp.sport = 49200;
	udp.dport = dport;
	return vxgbp_vxlan_build(out, outlen, with_eth ? &eth : NULL, &ip, &udp, h, inner,
				 inner_len);
}

/* IPv4 in Ethernet to the mirror, protocol proto, with payload. */
static int deliver(uint8_t *out, size_t outlen, uint8_t proto, uint16_t dport,
		   const uint8_t *payload, size_t len)
{
	struct vxgbp_eth_spec eth;
	struct vxgbp_ip_spec ip;
	struct vxgbp_l4_spec l4;

	eth_spec(&eth, 0x30);
	ip_spec(&ip, 4, 30);
	memset(&l4, 0, sizeof(l4));
	l4.proto = proto;
	l4.sport = 50000;
	l4.dport = dport;
	return vxgbp_frame_build(out, outlen, &eth, &ip, &l4, payload, len);
}

enum shape { GRE, GRE_KSC, ERSPAN1, ERSPAN2, ERSPAN3, GENEVE, IPIP, IP6IP, MPLS, VX_VX,
	     VX_GPE, GPE_IP, GPE_4789, VX_VX_ERSPAN2, N_SHAPES };

static const struct vxgbp_hdr gbp = { VXGBP_F_G | VXGBP_F_I, 0x0200, 100, 0 };
static const struct vxgbp_hdr gbp_inner = { VXGBP_F_G | VXGBP_F_I | VXGBP_F_A, 0x0300, 7, 0 };
static const struct vxgbp_hdr gpe_eth = { VXGBP_F_I | VXGBP_GPE_F_P, VXGBP_GPE_NP_ETHERNET, 300, 0 };
static const struct vxgbp_hdr gpe_ip = { VXGBP_F_I | VXGBP_GPE_F_P, VXGBP_GPE_NP_IPV4, 301, 0 };

/* A tunnel of kind around payload, delivered in IPv4 (GRE, or UDP 6081). */
static int tunnel(uint8_t *out, size_t outlen, const struct vxgbp_tunnel_spec *t,
		  const uint8_t *payload, size_t len)
{
	uint8_t tmp[BUF];
	int n = vxgbp_tunnel_build(tmp, sizeof(tmp), t, payload, len);

	if (n < 0)
		return n;
	if (t->kind == VXGBP_ENCAP_GENEVE)
		return deliver(out, outlen, 17, VXGBP_PORT_GENEVE, tmp, (size_t)n);
	return deliver(out, outlen, 47, 0, tmp, (size_t)n);
}

/* MPLS over Ethernet: the Ethernet header by hand (the builder writes IP). */
static int mpls(uint8_t *out, size_t outlen, const uint8_t *payload, size_t len)
{
	struct vxgbp_tunnel_spec t = { .kind = VXGBP_ENCAP_MPLS, .id = 1000, .n_labels = 2 };
	static const uint8_t hdr[14] = { 2, 0, 0, 0, 0, 0x42, 2, 0, 0, 0, 0, 0x41, 0x88, 0x47 };
	int n;

	if (outlen < sizeof(hdr))
		return VXGBP_E_NOSPACE;
	memcpy(out, hdr, sizeof(hdr));
	n = vxgbp_tunnel_build(out + sizeof(hdr), outlen - sizeof(hdr), &t, payload, len);
	return n < 0 ? n : n + (int)sizeof(hdr);
}

static int frame(uint8_t *out, size_t outlen, enum shape s)
{
	static const uint8_t opts[8] = { 0x01, 0x02, 0x80, 0x01, 0xde, 0xad, 0xbe, 0xef };
	struct vxgbp_tunnel_spec t;
	uint8_t e[BUF], v[BUF], w[BUF];
	int ne, nv, nw;

	memset(&t, 0, sizeof(t));
	if ((ne = echo(e, sizeof(e), s != GPE_IP)) < 0)
		return ne;
	switch (s) {
	case IPIP:
	case MPLS:
		nv = vxlan(v, sizeof(v), 0, 4, VXGBP_PORT_IANA, &gbp, e, (size_t)ne);
		if (nv < 0)
			return nv;
		if (s == MPLS)
			return mpls(out, outlen, v, (size_t)nv);
		return deliver(out, outlen, 4, 0, v, (size_t)nv);
	case IP6IP:
		nv = vxlan(v, sizeof(v), 0, 6, VXGBP_PORT_IANA, &gbp, e, (size_t)ne);
		return nv < 0 ? nv : deliver(out, outlen, 41, 0, v, (size_t)nv);
	case GPE_IP:
		return vxlan(out, outlen, 1, 4, VXGBP_PORT_GPE, &gpe_ip, e, (size_t)ne);
	case GPE_4789:
		return vxlan(out, outlen, 1, 4, VXGBP_PORT_IANA, &gpe_eth, e, (size_t)ne);
	default:
		break;
	}
	if ((nv = vxlan(v, sizeof(v), 1, 4, VXGBP_PORT_IANA, &gbp_inner, e, (size_t)ne)) < 0)
		return nv;
	switch (s) {
	case VX_VX:
		return vxlan(out, outlen, 1, 4, VXGBP_PORT_IANA, &gbp, v, (size_t)nv);
	case VX_GPE:
		return vxlan(out, outlen, 1, 4, VXGBP_PORT_GPE, &gpe_eth, v, (size_t)nv);
	case VX_VX_ERSPAN2:
		if ((nw = vxlan(w, sizeof(w), 1, 4, VXGBP_PORT_IANA, &gbp, v, (size_t)nv)) < 0)
			return nw;
		memcpy(v, w, (size_t)nw);
		nv = nw;
		t.kind = VXGBP_ENCAP_ERSPAN2;
		break;
	case GRE:
		t.kind = VXGBP_ENCAP_GRE;
		break;
	case GRE_KSC:
		t.kind = VXGBP_ENCAP_GRE;
		t.flags = VXGBP_TUN_KEY | VXGBP_TUN_SEQ | VXGBP_TUN_CSUM;
		t.id = 42;
		t.seq = 7;
		break;
	case GENEVE:
		t.kind = VXGBP_ENCAP_GENEVE;
		t.id = 5000;
		t.options = opts;
		t.options_len = sizeof(opts);
		break;
	default: /* ERSPAN I, II, III */
		t.kind = s == ERSPAN1 ? VXGBP_ENCAP_ERSPAN1
		       : s == ERSPAN2 ? VXGBP_ENCAP_ERSPAN2 : VXGBP_ENCAP_ERSPAN3;
		t.id = 17;
		t.seq = 1;
		t.vlan = 10;
		t.index = 3;
		break;
	}
	return tunnel(out, outlen, &t, v, (size_t)nv);
}

static int rules(void)
{
	const struct vxgbp_rule_info *ri;
	unsigned r;

	for (r = 0; r < VXGBP_R__COUNT; r++)
		if ((ri = vxgbp_rule_get(r)))
			printf("%s\n", ri->id);
	return 0;
}

int main(int argc, char **argv)
{
	uint8_t buf[BUF];
	FILE *f;
	int s, n;

	if (argc == 2 && !strcmp(argv[1], "--rules"))
		return rules();
	if (argc != 2) {
		fprintf(stderr, "usage: tunnels OUT.pcap | tunnels --rules\n");
		return 2;
	}
	if (!(f = fopen(argv[1], "wb"))) {
		perror(argv[1]);
		return 2;
	}
	put32(f, 0xa1b2c3d4);
	put32(f, 2 | 4u << 16); /* version 2.4 */
	put32(f, 0);
	put32(f, 0);
	put32(f, 65535);
	put32(f, 1); /* LINKTYPE_ETHERNET */
	for (s = 0; s < N_SHAPES; s++) {
		if ((n = frame(buf, sizeof(buf), (enum shape)s)) < 0) {
			fprintf(stderr, "tunnels: frame %d: %s\n", s + 1, vxgbp_strerror(n));
			return 1;
		}
		put32(f, 1700000000u + (uint32_t)s);
		put32(f, 0);
		put32(f, (uint32_t)n);
		put32(f, (uint32_t)n);
		fwrite(buf, 1, (size_t)n, f);
	}
	return fclose(f) ? 2 : 0;
}
