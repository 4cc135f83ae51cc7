// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_build.c - the frame builder's ARP packet (vxgbp_arp_build).
 *
 * Expected bytes are written from RFC 826 ("An Ethernet Address Resolution
 * Protocol") and IEEE 802.3/802.1Q, not from the library's constants:
 *
 *   Ethernet:  dst(6) src(6) [TPID(2) TCI(2)]... type 0x0806
 *   ARP:       ar$hrd 1 (Ethernet)     2 bytes
 *              ar$pro 0x0800 (IPv4)    2 bytes
 *              ar$hln 6, ar$pln 4      1 byte each
 *              ar$op  1 request, 2 reply
 *              ar$sha(6) ar$spa(4) ar$tha(6) ar$tpa(4)
 *
 * and read back with vxgbp_pkt_parse().
 */
#include <stdio.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

#include "guard.h"
#include "unit.h"

static const uint8_t SHA[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const uint8_t SPA[4] = { 198, 51, 100, 7 };
static const uint8_t THA[6] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
static const uint8_t TPA[4] = { 198, 51, 100, 1 };
static const uint8_t BCAST[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* The expected frame, byte by byte. */
static size_t expect_arp(uint8_t *w, const struct vxgbp_eth_spec *e, unsigned op,
			 const uint8_t *tha)
{
	size_t n = 0;

	for (int i = 0; i < 6; i++)
		w[n++] = e->dst[i];
	for (int i = 0; i < 6; i++)
		w[n++] = e->src[i];
	for (unsigned v = 0; v < e->n_vlan; v++) {
		unsigned tpid = e->vlan_tpid[v] ? e->vlan_tpid[v] : 0x8100;

		w[n++] = (uint8_t)(tpid >> 8);
		w[n++] = (uint8_t)tpid;
		w[n++] = (uint8_t)(e->vlan_tci[v] >> 8);
		w[n++] = (uint8_t)e->vlan_tci[v];
	}
	w[n++] = 0x08; /* ARP */
	w[n++] = 0x06;
	w[n++] = 0x00; /* ar$hrd: Ethernet */
	w[n++] = 0x01;
	w[n++] = 0x08; /* ar$pro: IPv4 */
	w[n++] = 0x00;
	w[n++] = 6;    /* ar$hln */
	w[n++] = 4;    /* ar$pln */
	w[n++] = (uint8_t)(op >> 8);
	w[n++] = (uint8_t)op;
	for (int i = 0; i < 6; i++)
		w[n++] = SHA[i];
	for (int i = 0; i < 4; i++)
		w[n++] = SPA[i];
	for (int i = 0; i < 6; i++)
		w[n++] = tha ? tha[i] : 0;
	for (int i = 0; i < 4; i++)
		w[n++] = TPA[i];
	return n;
}

/* Build, compare every byte, parse back. */
static void check_one(const struct vxgbp_eth_spec *e, uint16_t op, const uint8_t *tha)
{
	uint8_t got[128], want[128];
	size_t wn = expect_arp(want, e, op, tha), l2 = 14 + 4 * (size_t)e->n_vlan;
	struct vxgbp_pkt p;
	int n;

	memset(got, 0xa5, sizeof(got));
	n = vxgbp_arp_build(got, sizeof(got), e, op, SHA, SPA, tha, TPA);
	EXPECT_EQ(n, wn);
	EXPECT_EQ(n, 42 + 4 * e->n_vlan);
	for (size_t i = 0; i < wn; i++)
		EXPECT(got[i] == want[i], "byte %zu: 0x%02x, want 0x%02x", i, got[i], want[i]);
	for (size_t i = wn; i < sizeof(got); i++)
		EXPECT(got[i] == 0xa5, "byte %zu past the frame written", i);

	EXPECT_EQ(vxgbp_pkt_parse(&p, got, (size_t)n, (size_t)n, NULL), 0);
	EXPECT_EQ(p.err, 0);
	EXPECT(p.have & VXGBP_HAVE_L2, "no L2");
	EXPECT(!(p.have & VXGBP_HAVE_VXLAN), "an ARP frame parsed as VXLAN");
	EXPECT_EQ(p.outer.l2.ethertype, 0x0806);
	EXPECT_EQ(p.outer.l2.n_vlan, e->n_vlan);
	for (unsigned v = 0; v < e->n_vlan; v++) {
		EXPECT_EQ(p.outer.l2.vlan_tci[v], e->vlan_tci[v]);
		EXPECT_EQ(p.outer.l2.vlan_tpid[v], e->vlan_tpid[v] ? e->vlan_tpid[v] : 0x8100);
	}
	EXPECT_MEM(p.outer.l2.dst, e->dst, 6);
	EXPECT_MEM(p.outer.l2.src, e->src, 6);
	EXPECT_EQ(p.outer.l3.off, l2);
	EXPECT_EQ(p.outer.l3.arp_op, op);
	EXPECT(p.outer.l3.arp_spa == got + l2 + 14, "arp_spa not at ar$spa");
	EXPECT(p.outer.l3.arp_tpa == got + l2 + 24, "arp_tpa not at ar$tpa");
	EXPECT_MEM(p.outer.l3.arp_spa, SPA, 4);
	EXPECT_MEM(p.outer.l3.arp_tpa, TPA, 4);
}

START_TEST(test_arp_layout)
{
	struct vxgbp_eth_spec e = { .n_vlan = 0 };

	memcpy(e.dst, BCAST, 6);
	memcpy(e.src, SHA, 6);
	CTX("request, untagged, tha NULL");
	check_one(&e, VXGBP_ARP_REQUEST, NULL);
	CTX("request, untagged, tha given");
	check_one(&e, VXGBP_ARP_REQUEST, THA);
	memcpy(e.dst, THA, 6);
	CTX("reply, untagged");
	check_one(&e, VXGBP_ARP_REPLY, THA);
	e.n_vlan = 1;
	e.vlan_tci[0] = 0xa123;
	CTX("reply, one 802.1Q tag");
	check_one(&e, VXGBP_ARP_REPLY, THA);
	e.n_vlan = 2;
	e.vlan_tpid[0] = 0x88a8;
	e.vlan_tci[1] = 0x0fff;
	CTX("request, 802.1ad + 802.1Q");
	check_one(&e, VXGBP_ARP_REQUEST, NULL);
}
END_TEST

START_TEST(test_arp_errors)
{
	struct vxgbp_eth_spec e = { .n_vlan = 1 };
	uint8_t b[64], ref[64];

	memset(b, 0x5a, sizeof(b));
	memcpy(ref, b, sizeof(b));
	CTX("bad arguments");
	EXPECT_EQ(vxgbp_arp_build(NULL, 64, &e, 1, SHA, SPA, NULL, TPA), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_arp_build(b, 64, NULL, 1, SHA, SPA, NULL, TPA), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_arp_build(b, 64, &e, 1, NULL, SPA, NULL, TPA), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_arp_build(b, 64, &e, 1, SHA, NULL, NULL, TPA), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_arp_build(b, 64, &e, 1, SHA, SPA, NULL, NULL), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_arp_build(b, 64, &e, 0, SHA, SPA, NULL, TPA), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_arp_build(b, 64, &e, 3, SHA, SPA, NULL, TPA), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_arp_build(b, 64, &e, 0x0100, SHA, SPA, NULL, TPA), VXGBP_E_INVAL);
	e.n_vlan = VXGBP_MAX_VLAN + 1;
	EXPECT_EQ(vxgbp_arp_build(b, 64, &e, 1, SHA, SPA, NULL, TPA), VXGBP_E_INVAL);
	EXPECT_MEM(b, ref, sizeof(b));
	e.n_vlan = 1;
	for (size_t cap = 0; cap < 46; cap++) {
		CTX("outlen %zu", cap);
		EXPECT_EQ(vxgbp_arp_build(b, cap, &e, 2, SHA, SPA, THA, TPA), VXGBP_E_NOSPACE);
		EXPECT_MEM(b, ref, sizeof(b));
	}
	CTX("outlen 46");
	EXPECT_EQ(vxgbp_arp_build(b, 46, &e, 2, SHA, SPA, THA, TPA), 46);
}
END_TEST

/* The addresses may live in the output buffer (a reply built over the
 * request it answers). */
START_TEST(test_arp_in_place)
{
	struct vxgbp_eth_spec e = { .n_vlan = 0 };
	uint8_t b[64], want[64];
	size_t wn;

	memcpy(e.dst, BCAST, 6);
	memcpy(e.src, SHA, 6);
	EXPECT_EQ(vxgbp_arp_build(b, sizeof(b), &e, 1, SHA, SPA, NULL, TPA), 42);
	/* answer it: swap roles, the addresses read from b itself */
	memcpy(e.dst, b + 22, 6);
	memcpy(e.src, THA, 6);
	EXPECT_EQ(vxgbp_arp_build(b, sizeof(b), &e, 2, THA, b + 38, b + 22, b + 28), 42);
	memcpy(e.src, SHA, 6);
	wn = expect_arp(want, &e, 1, NULL);
	EXPECT_EQ(wn, 42);
	EXPECT_MEM(b, SHA, 6);          /* dst: the requester */
	EXPECT_MEM(b + 6, THA, 6);      /* src: us */
	EXPECT_EQ(b[21], 2);
	EXPECT_MEM(b + 22, THA, 6);     /* sha */
	EXPECT_MEM(b + 28, TPA, 4);     /* spa: the address asked for */
	EXPECT_MEM(b + 32, SHA, 6);     /* tha: the requester */
	EXPECT_MEM(b + 38, SPA, 4);     /* tpa */
	EXPECT_MEM(b + 12, want + 12, 8); /* type, hrd, pro, hln, pln */
}
END_TEST

/* Every prefix of a built ARP frame, ending at a protected page: the
 * parser never reads past it, and only the whole frame parses clean. */
START_TEST(test_arp_prefixes)
{
	struct vxgbp_eth_spec e = { .n_vlan = 2 };
	struct guard g;
	uint8_t b[64];
	int n;

	memcpy(e.dst, BCAST, 6);
	memcpy(e.src, SHA, 6);
	n = vxgbp_arp_build(b, sizeof(b), &e, 1, SHA, SPA, NULL, TPA);
	EXPECT_EQ(n, 50);
	ck_assert_int_eq(guard_init(&g, sizeof(b)), 0);
	for (int len = 0; len <= n; len++) {
		const uint8_t *f = guard_place(&g, b, (size_t)len);
		struct vxgbp_pkt p;
		int r = vxgbp_pkt_parse(&p, f, (size_t)len, (size_t)n, NULL);

		CTX("prefix %d of %d", len, n);
		EXPECT_EQ(r, len == n ? 0 : VXGBP_E_TRUNCATED);
	}
	guard_free(&g);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("build");
	TCase *tc = unit_tcase(s, "arp");

	tcase_add_test(tc, test_arp_layout);
	tcase_add_test(tc, test_arp_errors);
	tcase_add_test(tc, test_arp_in_place);
	tcase_add_test(tc, test_arp_prefixes);
	return unit_run(s, "build");
}
