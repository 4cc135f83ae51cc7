// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_boundaries.c - rules at the exact values where they switch (issue
 * 12: mutation testing found udp.source-port-range untested at 49151).
 *
 * Each case builds a whole VXLAN frame with vxgbp_vxlan_build() and parses
 * it with both whole-frame parsers (the one-pass parse of the common shape
 * and the layer-by-layer one, VXGBP_PARSE_GENERIC), over IPv4 and IPv6,
 * and checks the one rule on both sides of its boundary.
 */
#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "unit.h"

#define MAXF 512

/* A frame: outer IPv`ov` UDP from sport with TTL ttl, header h, a small
 * inner Ethernet/IPv4/ICMP frame.  Returns its length. */
static size_t build(uint8_t *f, unsigned ov, uint16_t sport, uint8_t ttl,
		    const struct vxgbp_hdr *h)
{
	struct vxgbp_eth_spec eth = { .dst = { 2, 0, 0, 0, 0, 2 }, .src = { 2, 0, 0, 0, 0, 1 } };
	struct vxgbp_eth_spec ieth = { .dst = { 2, 0, 0, 0, 1, 2 }, .src = { 2, 0, 0, 0, 1, 1 } };
	struct vxgbp_ip_spec ip = { .version = (uint8_t)ov, .ttl = ttl };
	struct vxgbp_ip_spec iip = { .version = 4, .src = { 198, 51, 100, 1 },
				     .dst = { 198, 51, 100, 2 } };
	struct vxgbp_l4_spec udp = { .proto = 17, .sport = sport, .dport = VXGBP_PORT_IANA };
	struct vxgbp_l4_spec icmp = { .proto = 1, .icmp_type = 8, .sport = 1, .dport = 1 };
	uint8_t inner[128];
	int in, n;

	if (ov == 4) {
		memcpy(ip.src, (const uint8_t[]){ 192, 0, 2, 1 }, 4);
		memcpy(ip.dst, (const uint8_t[]){ 192, 0, 2, 2 }, 4);
	} else {
		ip.src[0] = ip.dst[0] = 0x20;
		ip.src[1] = ip.dst[1] = 0x01;
		ip.src[15] = 1;
		ip.dst[15] = 2;
	}
	in = vxgbp_frame_build(inner, sizeof(inner), &ieth, &iip, &icmp, NULL, 0);
	ck_assert_int_gt(in, 0);
	n = vxgbp_vxlan_build(f, MAXF, &eth, &ip, &udp, h, inner, (size_t)in);
	ck_assert_int_gt(n, 0);
	return (size_t)n;
}

/* The findings of both whole-frame parsers, which must agree. */
static uint64_t parse_both(const uint8_t *f, size_t n)
{
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt a = { .size = sizeof(a) }, b = { .size = sizeof(b) };

	vxgbp_parse_opts_init(&o);
	EXPECT_EQ(vxgbp_pkt_parse(&a, f, n, n, &o), 0);
	o.flags |= VXGBP_PARSE_GENERIC;
	EXPECT_EQ(vxgbp_pkt_parse(&b, f, n, n, &o), 0);
	EXPECT(a.have & VXGBP_HAVE_VXLAN, "no VXLAN header found");
	EXPECT(a.findings == b.findings, "fast parse 0x%llx, generic parse 0x%llx",
	       (unsigned long long)a.findings, (unsigned long long)b.findings);
	return a.findings;
}

START_TEST(test_source_port_range)
{
	/* RFC 7348 sec. 5: the source port SHOULD be in 49152-65535 */
	static const struct {
		uint16_t sport;
		int finding;
	} c[] = {
		{ 0, 1 },     { 1, 1 },     { 4789, 1 },  { 32768, 1 }, { 49150, 1 },
		{ 49151, 1 }, { 49152, 0 }, { 49153, 0 }, { 60999, 0 }, { 65535, 0 },
	};
	struct vxgbp_hdr h;
	static uint8_t f[MAXF];

	vxgbp_hdr_init(&h, 100, VXGBP_F_G, 0x200);
	for (unsigned ov = 4; ov <= 6; ov += 2) {
		for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			size_t n = build(f, ov, c[i].sport, 64, &h);
			uint64_t fi;

			CTX("IPv%u source port %u", ov, c[i].sport);
			fi = parse_both(f, n);
			EXPECT_EQ((fi & VXGBP_RB(VXGBP_R_SPORT_RANGE)) != 0, c[i].finding);
			/* nothing else: the frame is otherwise conforming */
			EXPECT_EQ(fi & ~VXGBP_RB(VXGBP_R_SPORT_RANGE), 0);
		}
	}
}
END_TEST

START_TEST(test_source_port_needs_outer)
{
	/* A parse from the VXLAN header has no UDP header: no port rule. */
	struct vxgbp_parse_opts o;
	struct vxgbp_hdr h;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	static uint8_t f[MAXF];
	size_t n;

	vxgbp_parse_opts_init(&o);
	vxgbp_hdr_init(&h, 100, VXGBP_F_G, 0x200);
	n = build(f, 4, 49151, 64, &h);
	CTX("parse_vxlan");
	EXPECT_EQ(vxgbp_pkt_parse_vxlan(&p, f + 42, n - 42, n - 42, &o), 0);
	EXPECT_EQ(p.findings & VXGBP_RB(VXGBP_R_SPORT_RANGE), 0);
}
END_TEST

START_TEST(test_outer_ttl)
{
	struct vxgbp_hdr h;
	static uint8_t f[MAXF];

	vxgbp_hdr_init(&h, 100, VXGBP_F_G, 0x200);
	for (unsigned ov = 4; ov <= 6; ov += 2) {
		for (unsigned ttl = 0; ttl <= 2; ttl++) {
			/* 0 in the builder means 64: TTL 0 is patched in below */
			size_t n = build(f, ov, 49152, ttl ? (uint8_t)ttl : 64, &h);

			if (!ttl && ov == 4) {
				uint32_t s;

				f[14 + 8] = 0;
				f[14 + 10] = f[14 + 11] = 0;
				s = vxgbp_csum_add(0, f + 14, 20);
				f[14 + 10] = (uint8_t)(vxgbp_csum_fold(s) >> 8);
				f[14 + 11] = (uint8_t)vxgbp_csum_fold(s);
			} else if (!ttl) {
				f[14 + 7] = 0; /* hop limit: not in the UDP checksum */
			}
			CTX("IPv%u TTL %u", ov, ttl);
			EXPECT_EQ(parse_both(f, n), ttl ? 0 : VXGBP_RB(VXGBP_R_OUTER_TTL));
		}
	}
}
END_TEST

START_TEST(test_zero_id)
{
	/* gbp.zero-id (INFO) for ID 0 with G; ID 1 and 0xffff are fine */
	static const uint16_t ids[] = { 0, 1, 0xffff };
	static uint8_t f[MAXF];

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct vxgbp_hdr h;
		size_t n;

		vxgbp_hdr_init(&h, 100, VXGBP_F_G, ids[i]);
		n = build(f, 4, 49152, 64, &h);
		CTX("ID %u", ids[i]);
		EXPECT_EQ(parse_both(f, n), ids[i] ? 0 : VXGBP_RB(VXGBP_R_ZERO_ID));
	}
}
END_TEST

START_TEST(test_vni_range)
{
	struct vxgbp_hdr h;
	uint8_t b[VXGBP_HDR_LEN];

	CTX("VNI bounds");
	EXPECT_EQ(vxgbp_hdr_init(&h, VXGBP_VNI_MAX, 0, 0), 0);
	EXPECT_EQ(h.vni, 0xffffffu);
	EXPECT_EQ(vxgbp_hdr_encode(&h, b, sizeof(b)), VXGBP_HDR_LEN);
	EXPECT_EQ(b[4] & b[5] & b[6], 0xff);
	EXPECT_EQ(b[7], 0);
	EXPECT_EQ(vxgbp_hdr_init(&h, VXGBP_VNI_MAX + 1, 0, 0), VXGBP_E_INVAL);
	h.vni = VXGBP_VNI_MAX + 1;
	EXPECT_EQ(vxgbp_hdr_encode(&h, b, sizeof(b)), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_hdr_init(&h, 0, 0, 0), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("boundaries");
	TCase *tc = unit_tcase(s, "frame");

	tcase_add_test(tc, test_source_port_range);
	tcase_add_test(tc, test_source_port_needs_outer);
	tcase_add_test(tc, test_outer_ttl);
	tcase_add_test(tc, test_zero_id);
	tc = unit_tcase(s, "header");
	tcase_add_test(tc, test_vni_range);
	return unit_run(s, "boundaries");
}
