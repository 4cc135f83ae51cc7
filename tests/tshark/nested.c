// SPDX-License-Identifier: BSD-2-Clause
/*
 * nested.c - write a capture of VXLAN inside VXLAN (gbpgen builds one level
 * only): each frame is Ethernet/IPv4/UDP 4789/VXLAN, whose inner frame is
 * Ethernet/IPv4/UDP 4789/VXLAN again, whose inner frame is an ICMP echo.
 * Built with libvxgbp's vxgbp_vxlan_build twice.
 *
 *   nested OUT.pcap
 *
 * Frame 1: outer G 0x0100 VNI 100, inner G 0x0200 VNI 7 with the reserved
 *          byte set (gbp.reserved-byte, on the inner header only);
 * frame 2: outer plain VXLAN VNI 200, inner G 0x0300 D VNI 8;
 * frame 3: outer G 0x0100 A VNI 100, inner G 0x0200 VNI 7.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

struct level {
	uint32_t vni;
	uint16_t flags, group;
	uint8_t rsvd;
};

static void put32(FILE *f, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	fwrite(b, 1, 4, f);
}

static void addr4(uint8_t *a, uint8_t net, uint8_t host)
{
	a[0] = 192;
	a[1] = 0;
	a[2] = net;
	a[3] = host;
}

/* One VXLAN level around inner (its outer addresses from depth). */
static int wrap(uint8_t *out, size_t outlen, const struct level *lv, int depth,
		const uint8_t *inner, size_t inner_len)
{
	struct vxgbp_eth_spec eth;
	struct vxgbp_ip_spec ip;
	struct vxgbp_l4_spec udp;
	struct vxgbp_hdr h;

	memset(&eth, 0, sizeof(eth));
	memset(&ip, 0, sizeof(ip));
	memset(&udp, 0, sizeof(udp));
	eth.src[0] = eth.dst[0] = 0x02;
	eth.src[5] = (uint8_t)(0x10 * depth + 1);
	eth.dst[5] = (uint8_t)(0x10 * depth + 2);
	ip.version = 4;
	addr4(ip.src, (uint8_t)(2 + depth), 1);
	addr4(ip.dst, (uint8_t)(2 + depth), 2);
	udp.proto = 17;
	udp.sport = (uint16_t)(49152 + depth);
	udp.dport = VXGBP_PORT_IANA;
	h.flags = lv->flags;
	h.group = lv->group;
	h.vni = lv->vni;
	h.rsvd = lv->rsvd;
	return vxgbp_vxlan_build(out, outlen, &eth, &ip, &udp, &h, inner, inner_len);
}

static int echo(uint8_t *out, size_t outlen)
{
	struct vxgbp_eth_spec eth;
	struct vxgbp_ip_spec ip;
	struct vxgbp_l4_spec icmp;
	static const uint8_t payload[16] = "nested vxlan...";

	memset(&eth, 0, sizeof(eth));
	memset(&ip, 0, sizeof(ip));
	memset(&icmp, 0, sizeof(icmp));
	eth.src[0] = eth.dst[0] = 0x02;
	eth.src[5] = 0xa1;
	eth.dst[5] = 0xa2;
	ip.version = 4;
	ip.src[0] = ip.dst[0] = 198;
	ip.src[1] = ip.dst[1] = 51;
	ip.src[2] = ip.dst[2] = 100;
	ip.src[3] = 1;
	ip.dst[3] = 2;
	icmp.proto = 1;
	icmp.icmp_type = 8;
	icmp.sport = 1;
	icmp.dport = 1;
	return vxgbp_frame_build(out, outlen, &eth, &ip, &icmp, payload, sizeof(payload));
}

static int frame(uint8_t *out, size_t outlen, const struct level *outer, const struct level *inner)
{
	uint8_t a[512], b[512];
	int n;

	if ((n = echo(a, sizeof(a))) < 0 || (n = wrap(b, sizeof(b), inner, 1, a, (size_t)n)) < 0)
		return n;
	return wrap(out, outlen, outer, 0, b, (size_t)n);
}

int main(int argc, char **argv)
{
	static const struct level lv[3][2] = {
		{ { 100, VXGBP_F_G | VXGBP_F_I, 0x0100, 0 }, { 7, VXGBP_F_G | VXGBP_F_I, 0x0200, 0x5a } },
		{ { 200, VXGBP_F_I, 0, 0 }, { 8, VXGBP_F_G | VXGBP_F_I | VXGBP_F_D, 0x0300, 0 } },
		{ { 100, VXGBP_F_G | VXGBP_F_I | VXGBP_F_A, 0x0100, 0 }, { 7, VXGBP_F_G | VXGBP_F_I, 0x0200, 0 } },
	};
	uint8_t buf[1024];
	FILE *f;
	int i, n;

	if (argc != 2) {
		fprintf(stderr, "usage: nested OUT.pcap\n");
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
	for (i = 0; i < 3; i++) {
		if ((n = frame(buf, sizeof(buf), &lv[i][0], &lv[i][1])) < 0) {
			fprintf(stderr, "nested: frame %d: %s\n", i + 1, vxgbp_strerror(n));
			return 1;
		}
		put32(f, 1700000000u + (uint32_t)i);
		put32(f, 0);
		put32(f, (uint32_t)n);
		put32(f, (uint32_t)n);
		fwrite(buf, 1, (size_t)n, f);
	}
	return fclose(f) ? 2 : 0;
}
