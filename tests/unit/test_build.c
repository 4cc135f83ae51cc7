// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_build.c - the frame builder's ARP packet (vxgbp_arp_build), its
 * tunnel headers (vxgbp_tunnel_build), checksum-offload partial sums,
 * protocols without an L4 header and BIG TCP lengths.
 *
 * ARP:
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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

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
	struct vxgbp_pkt p = { .size = sizeof(p) };
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
		struct vxgbp_pkt p = { .size = sizeof(p) };
		int r = vxgbp_pkt_parse(&p, f, (size_t)len, (size_t)n, NULL);

		CTX("prefix %d of %d", len, n);
		EXPECT_EQ(r, len == n ? 0 : VXGBP_E_TRUNCATED);
	}
	guard_free(&g);
}
END_TEST

/* ------------------------------------------------------------------------
 * Tunnel headers.  The expected bytes are written here from the layouts of
 * the RFCs, bit by bit, not from the library:
 *
 *   GRE (RFC 2784 sec. 2, RFC 2890 sec. 2): |C|R|K|S| Reserved0 | Ver |,
 *       C = 0x80, K = 0x20, S = 0x10 of byte 0, version 0; Protocol Type;
 *       then Checksum + Reserved1 (C), Key (K), Sequence Number (S).  The
 *       checksum is the one's complement of the one's complement sum of
 *       the GRE header and payload, the field taken as zero.
 *   ERSPAN II:  Ver(4)=1 VLAN(12) | COS(3) En(2) T(1) Session ID(10) |
 *               Reserved(12) Index(20)
 *   ERSPAN III: Ver(4)=2 VLAN(12) | COS(3) BSO(2) T(1) Session ID(10) |
 *               Timestamp(32) | SGT(16) P FT(5) Hw ID(6) D Gra(2) O
 *   Geneve (RFC 8926 sec. 3.4): Ver(2) Opt Len(6) | O C Rsvd(6) |
 *       Protocol Type(16) | VNI(24) Reserved(8) | options; an option is
 *       Class(16) Type(8) R(3) Length(5) (4-byte words), C says one has
 *       the critical bit (the high bit of Type).
 *   MPLS (RFC 3032 sec. 2.1): Label(20) TC(3) S(1) TTL(8).
 */

/* RFC 1071 the slow way: 16-bit big-endian words, an odd byte padded. */
static uint32_t rfc_sum(uint32_t sum, const uint8_t *b, size_t len)
{
	for (size_t i = 0; i < len; i += 2)
		sum += (uint32_t)b[i] << 8 | (i + 1 < len ? b[i + 1] : 0);
	return sum;
}

static uint16_t rfc_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

static const uint8_t PAY[13] = { 'p', 'a', 'y', 'l', 'o', 'a', 'd', 0xff, 0x00, 0x80, 1, 2, 3 };

static size_t put_be(uint8_t *w, size_t n, uint32_t v, int bytes)
{
	while (bytes--)
		w[n++] = (uint8_t)(v >> (8 * bytes));
	return n;
}

/* Build t with PAY into a buffer of 0xa5, compare with want[0..wn). */
static void check_tunnel(const struct vxgbp_tunnel_spec *t, const uint8_t *want, size_t wn)
{
	uint8_t got[512];
	int n;

	memset(got, 0xa5, sizeof(got));
	n = vxgbp_tunnel_build(got, sizeof(got), t, PAY, sizeof(PAY));
	EXPECT_EQ(n, wn);
	for (size_t i = 0; i < wn; i++)
		EXPECT(got[i] == want[i], "byte %zu: 0x%02x, want 0x%02x", i, got[i], want[i]);
	for (size_t i = wn; i < sizeof(got); i++)
		EXPECT(got[i] == 0xa5, "byte %zu past the header written", i);
	/* exactly the size it needs: one byte less is no room, nothing written */
	memset(got, 0xa5, sizeof(got));
	EXPECT_EQ(vxgbp_tunnel_build(got, wn - 1, t, PAY, sizeof(PAY)), VXGBP_E_NOSPACE);
	for (size_t i = 0; i < sizeof(got); i++)
		EXPECT(got[i] == 0xa5, "byte %zu written without room", i);
	EXPECT_EQ(vxgbp_tunnel_build(got, wn, t, PAY, sizeof(PAY)), wn);
}

START_TEST(test_gre_layout)
{
	for (unsigned f = 0; f < 8; f++) {
		struct vxgbp_tunnel_spec t = { .kind = VXGBP_ENCAP_GRE, .flags = f,
					       .id = 0x01020304, .seq = 0xfffffffe };
		uint8_t want[64];
		size_t n = 0, csum_at = 0;
		uint16_t proto = f & 1 ? 0x0800 : 0x6558;

		t.proto = f & 1 ? 0x0800 : 0; /* 0: transparent Ethernet bridging */
		CTX("GRE flags %u", f);
		want[n++] = (uint8_t)((f & VXGBP_TUN_CSUM ? 0x80 : 0) |
				      (f & VXGBP_TUN_KEY ? 0x20 : 0) |
				      (f & VXGBP_TUN_SEQ ? 0x10 : 0));
		want[n++] = 0; /* Reserved0, Ver 0 */
		n = put_be(want, n, proto, 2);
		if (f & VXGBP_TUN_CSUM) {
			csum_at = n;
			n = put_be(want, n, 0, 4);
		}
		if (f & VXGBP_TUN_KEY)
			n = put_be(want, n, 0x01020304, 4);
		if (f & VXGBP_TUN_SEQ)
			n = put_be(want, n, 0xfffffffe, 4);
		memcpy(want + n, PAY, sizeof(PAY));
		n += sizeof(PAY);
		if (f & VXGBP_TUN_CSUM) {
			uint16_t c = (uint16_t)~rfc_fold(rfc_sum(0, want, n));

			put_be(want, csum_at, c, 2);
			/* and it verifies: the sum over everything is all ones */
			EXPECT_EQ(rfc_fold(rfc_sum(0, want, n)), 0xffff);
		}
		check_tunnel(&t, want, n);
	}
}
END_TEST

START_TEST(test_erspan_layout)
{
	struct vxgbp_tunnel_spec t = { .kind = VXGBP_ENCAP_ERSPAN1 };
	static const uint8_t e1[] = { 0x00, 0x00, 0x88, 0xbe };
	/* S, 0x88be, sequence 7; Ver 1, VLAN 0x123; session 0x2a5; index 0xabcde */
	static const uint8_t e2[] = { 0x10, 0x00, 0x88, 0xbe, 0, 0, 0, 7,
				      0x11, 0x23, 0x02, 0xa5, 0x00, 0x0a, 0xbc, 0xde };
	/* S, 0x22eb, sequence 7; Ver 2, VLAN 0x123; session 0x2a5; timestamp
	 * 0xdeadbeef; SGT, P, FT, Hw ID, D, Gra, O all 0 */
	static const uint8_t e3[] = { 0x10, 0x00, 0x22, 0xeb, 0, 0, 0, 7,
				      0x21, 0x23, 0x02, 0xa5, 0xde, 0xad, 0xbe, 0xef,
				      0, 0, 0, 0 };
	uint8_t want[64];

	CTX("ERSPAN I");
	memcpy(want, e1, sizeof(e1));
	memcpy(want + sizeof(e1), PAY, sizeof(PAY));
	check_tunnel(&t, want, sizeof(e1) + sizeof(PAY));
	t.proto = 0x6558; /* Ethernet said aloud is Ethernet too */
	check_tunnel(&t, want, sizeof(e1) + sizeof(PAY));

	CTX("ERSPAN II");
	t = (struct vxgbp_tunnel_spec){ .kind = VXGBP_ENCAP_ERSPAN2, .id = 0x2a5, .seq = 7,
					.vlan = 0x123, .index = 0xabcde };
	memcpy(want, e2, sizeof(e2));
	memcpy(want + sizeof(e2), PAY, sizeof(PAY));
	check_tunnel(&t, want, sizeof(e2) + sizeof(PAY));
	t.flags = VXGBP_TUN_SEQ; /* implied, may be said */
	check_tunnel(&t, want, sizeof(e2) + sizeof(PAY));

	CTX("ERSPAN III");
	t = (struct vxgbp_tunnel_spec){ .kind = VXGBP_ENCAP_ERSPAN3, .id = 0x2a5, .seq = 7,
					.vlan = 0x123, .index = 0xdeadbeef };
	memcpy(want, e3, sizeof(e3));
	memcpy(want + sizeof(e3), PAY, sizeof(PAY));
	check_tunnel(&t, want, sizeof(e3) + sizeof(PAY));

	CTX("ERSPAN II, the largest fields");
	t = (struct vxgbp_tunnel_spec){ .kind = VXGBP_ENCAP_ERSPAN2, .id = 0x3ff,
					.seq = 0xffffffff, .vlan = 0xfff, .index = 0xfffff };
	{
		static const uint8_t m[] = { 0x10, 0x00, 0x88, 0xbe, 0xff, 0xff, 0xff, 0xff,
					     0x1f, 0xff, 0x03, 0xff, 0x00, 0x0f, 0xff, 0xff };

		memcpy(want, m, sizeof(m));
		memcpy(want + sizeof(m), PAY, sizeof(PAY));
		check_tunnel(&t, want, sizeof(m) + sizeof(PAY));
	}
}
END_TEST

START_TEST(test_geneve_layout)
{
	/* class 0x0102 type 0x03 length 1 word: 0xcafef00d; class 0xffff type
	 * 0x80 (critical) length 0 */
	uint8_t opts[12] = { 0x01, 0x02, 0x03, 0x01, 0xca, 0xfe, 0xf0, 0x0d,
			     0xff, 0xff, 0x80, 0x00 };
	struct vxgbp_tunnel_spec t = { .kind = VXGBP_ENCAP_GENEVE, .id = 0x123456,
				       .options = opts, .options_len = 8 };
	uint8_t want[64];
	size_t n;

	CTX("Geneve, one option, Ethernet");
	n = put_be(want, 0, 0x02006558, 4); /* Ver 0, Opt Len 2, O 0, C 0 */
	n = put_be(want, n, 0x12345600, 4);
	memcpy(want + n, opts, 8);
	memcpy(want + n + 8, PAY, sizeof(PAY));
	check_tunnel(&t, want, n + 8 + sizeof(PAY));

	CTX("Geneve, a critical option, O, IPv4");
	t.options_len = 12;
	t.flags = VXGBP_TUN_OAM;
	t.proto = 0x0800;
	t.id = VXGBP_VNI_MAX;
	n = put_be(want, 0, 0x03c00800, 4); /* Opt Len 3, O, C */
	n = put_be(want, n, 0xffffff00, 4);
	memcpy(want + n, opts, 12);
	memcpy(want + n + 12, PAY, sizeof(PAY));
	check_tunnel(&t, want, n + 12 + sizeof(PAY));

	CTX("Geneve, no options");
	t = (struct vxgbp_tunnel_spec){ .kind = VXGBP_ENCAP_GENEVE, .id = 1 };
	n = put_be(want, 0, 0x00006558, 4);
	n = put_be(want, n, 0x00000100, 4);
	memcpy(want + n, PAY, sizeof(PAY));
	check_tunnel(&t, want, n + sizeof(PAY));

	CTX("Geneve, an option longer than the area is written as given, no C");
	opts[3] = 0x05; /* 5 words in an 8-byte area */
	opts[2] = 0x83;
	t = (struct vxgbp_tunnel_spec){ .kind = VXGBP_ENCAP_GENEVE, .id = 1,
					.options = opts, .options_len = 8 };
	n = put_be(want, 0, 0x02006558, 4);
	n = put_be(want, n, 0x00000100, 4);
	memcpy(want + n, opts, 8);
	memcpy(want + n + 8, PAY, sizeof(PAY));
	check_tunnel(&t, want, n + 8 + sizeof(PAY));
}
END_TEST

START_TEST(test_mpls_layout)
{
	struct vxgbp_tunnel_spec t = { .kind = VXGBP_ENCAP_MPLS, .id = 100, .n_labels = 3 };
	uint8_t want[64];
	size_t n;

	CTX("three labels");
	/* 100 << 12 = 0x64000, TC 0, S 0, TTL 64 */
	n = put_be(want, 0, 0x00064040, 4);
	n = put_be(want, n, 0x00065040, 4);
	n = put_be(want, n, 0x00066140, 4); /* S on the last */
	memcpy(want + n, PAY, sizeof(PAY));
	check_tunnel(&t, want, n + sizeof(PAY));
	CTX("one label, the largest");
	t.n_labels = 1;
	t.id = 0xfffff;
	t.proto = 0x1234; /* ignored */
	n = put_be(want, 0, 0xfffff140, 4);
	memcpy(want + n, PAY, sizeof(PAY));
	check_tunnel(&t, want, n + sizeof(PAY));
}
END_TEST

START_TEST(test_tunnel_errors)
{
	static const uint8_t opts[8] = { 0 };
	static const struct {
		const char *what;
		struct vxgbp_tunnel_spec t;
	} bad[] = {
		{ "kind 0", { .kind = 0 } },
		{ "kind IP (not a header of its own)", { .kind = VXGBP_ENCAP_IP } },
		{ "kind past the last", { .kind = VXGBP_ENCAP__COUNT } },
		{ "GRE with the OAM flag", { .kind = VXGBP_ENCAP_GRE, .flags = VXGBP_TUN_OAM } },
		{ "GRE with an unknown flag", { .kind = VXGBP_ENCAP_GRE, .flags = 0x100 } },
		{ "ERSPAN I with a sequence", { .kind = VXGBP_ENCAP_ERSPAN1, .flags = VXGBP_TUN_SEQ } },
		{ "ERSPAN I with a key", { .kind = VXGBP_ENCAP_ERSPAN1, .flags = VXGBP_TUN_KEY } },
		{ "ERSPAN II with a key", { .kind = VXGBP_ENCAP_ERSPAN2, .flags = VXGBP_TUN_KEY } },
		{ "ERSPAN III with a checksum", { .kind = VXGBP_ENCAP_ERSPAN3,
						  .flags = VXGBP_TUN_CSUM } },
		{ "ERSPAN II carrying IPv4", { .kind = VXGBP_ENCAP_ERSPAN2, .proto = 0x0800 } },
		{ "ERSPAN II session 0x400", { .kind = VXGBP_ENCAP_ERSPAN2, .id = 0x400 } },
		{ "ERSPAN III session 0x400", { .kind = VXGBP_ENCAP_ERSPAN3, .id = 0x400 } },
		{ "ERSPAN II VLAN 0x1000", { .kind = VXGBP_ENCAP_ERSPAN2, .vlan = 0x1000 } },
		{ "ERSPAN III VLAN 0x1000", { .kind = VXGBP_ENCAP_ERSPAN3, .vlan = 0x1000 } },
		{ "ERSPAN II index 0x100000", { .kind = VXGBP_ENCAP_ERSPAN2, .index = 0x100000 } },
		{ "Geneve VNI 2^24", { .kind = VXGBP_ENCAP_GENEVE, .id = 0x1000000 } },
		{ "Geneve with a key", { .kind = VXGBP_ENCAP_GENEVE, .flags = VXGBP_TUN_KEY } },
		{ "Geneve options not words", { .kind = VXGBP_ENCAP_GENEVE, .options = opts,
						.options_len = 6 } },
		{ "Geneve 256 option bytes", { .kind = VXGBP_ENCAP_GENEVE, .options = opts,
					       .options_len = 256 } },
		{ "Geneve options NULL", { .kind = VXGBP_ENCAP_GENEVE, .options_len = 4 } },
		{ "MPLS no label", { .kind = VXGBP_ENCAP_MPLS, .n_labels = 0 } },
		{ "MPLS 5 labels", { .kind = VXGBP_ENCAP_MPLS, .n_labels = 5 } },
		{ "MPLS label 2^20", { .kind = VXGBP_ENCAP_MPLS, .n_labels = 1, .id = 0x100000 } },
		{ "MPLS labels past 2^20-1", { .kind = VXGBP_ENCAP_MPLS, .n_labels = 2,
					       .id = 0xfffff } },
		{ "MPLS with a flag", { .kind = VXGBP_ENCAP_MPLS, .n_labels = 1,
					.flags = VXGBP_TUN_SEQ } },
	};
	struct vxgbp_tunnel_spec ok = { .kind = VXGBP_ENCAP_GRE };
	uint8_t b[600], ref[600];

	memset(b, 0x5a, sizeof(b));
	memcpy(ref, b, sizeof(b));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CTX("%s", bad[i].what);
		EXPECT_EQ(vxgbp_tunnel_build(b, sizeof(b), &bad[i].t, PAY, sizeof(PAY)),
			  VXGBP_E_INVAL);
		EXPECT_MEM(b, ref, sizeof(b));
	}
	CTX("NULL arguments");
	EXPECT_EQ(vxgbp_tunnel_build(NULL, 64, &ok, PAY, sizeof(PAY)), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_tunnel_build(b, 64, NULL, PAY, sizeof(PAY)), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_tunnel_build(b, 64, &ok, NULL, 1), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_tunnel_build(b, 64, &ok, NULL, 0), 4);
	CTX("a payload that cannot fit an int");
	EXPECT_EQ(vxgbp_tunnel_build(b, SIZE_MAX, &ok, PAY, (size_t)INT32_MAX),
		  VXGBP_E_NOSPACE);
	EXPECT_EQ(vxgbp_tunnel_build(b, SIZE_MAX, &ok, PAY, SIZE_MAX), VXGBP_E_NOSPACE);
	ok.kind = VXGBP_ENCAP_MPLS;
	ok.n_labels = 4;
	EXPECT_EQ(vxgbp_tunnel_build(b, SIZE_MAX, &ok, PAY, (size_t)INT32_MAX - 15),
		  VXGBP_E_NOSPACE);
	ok.kind = VXGBP_ENCAP_GENEVE;
	EXPECT_EQ(vxgbp_tunnel_build(b, SIZE_MAX, &ok, PAY, (size_t)INT32_MAX - 7),
		  VXGBP_E_NOSPACE);
	EXPECT_MEM(b + 4, ref + 4, sizeof(b) - 4);
}
END_TEST

/* The payload may already sit at the start of out (gbpgen wraps a frame in
 * place). */
START_TEST(test_tunnel_in_place)
{
	static const uint8_t opts[4] = { 0x01, 0x02, 0x03, 0x00 };
	struct vxgbp_tunnel_spec t[] = {
		{ .kind = VXGBP_ENCAP_GRE, .flags = 7, .id = 9, .seq = 10, .proto = 0x86dd },
		{ .kind = VXGBP_ENCAP_ERSPAN3, .id = 3, .seq = 4 },
		{ .kind = VXGBP_ENCAP_GENEVE, .id = 5, .options = opts, .options_len = 4 },
		{ .kind = VXGBP_ENCAP_MPLS, .id = 16, .n_labels = 4 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint8_t a[64], b[64];
		int na, nb;

		CTX("kind %u", t[i].kind);
		na = vxgbp_tunnel_build(a, sizeof(a), &t[i], PAY, sizeof(PAY));
		memcpy(b, PAY, sizeof(PAY));
		nb = vxgbp_tunnel_build(b, sizeof(b), &t[i], b, sizeof(PAY));
		EXPECT(na > (int)sizeof(PAY), "built %d", na);
		EXPECT_EQ(na, nb);
		EXPECT_MEM(a, b, (size_t)na);
	}
}
END_TEST

/* ------------------------------------------------------------------------
 * The IP layer: checksum offload, no L4 header, BIG TCP. */
static const uint8_t SRC4[4] = { 192, 0, 2, 10 }, DST4[4] = { 198, 51, 100, 20 };
static const uint8_t SRC6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const uint8_t DST6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 2 };

static void ip_init(struct vxgbp_ip_spec *ip, int version)
{
	memset(ip, 0, sizeof(*ip));
	ip->version = (uint8_t)version;
	memcpy(ip->src, version == 4 ? SRC4 : SRC6, version == 4 ? 4 : 16);
	memcpy(ip->dst, version == 4 ? DST4 : DST6, version == 4 ? 4 : 16);
}

/* The pseudo-header sum of RFC 768 / 793 / 8200 sec. 8.1 (32-bit length). */
static uint32_t pseudo(const struct vxgbp_ip_spec *ip, uint8_t proto, uint32_t len)
{
	size_t alen = ip->version == 4 ? 4 : 16;
	uint32_t s = rfc_sum(0, ip->src, alen);

	s = rfc_sum(s, ip->dst, alen);
	return s + proto + (len >> 16) + (len & 0xffff);
}

static uint16_t get16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

START_TEST(test_csum_partial)
{
	static const struct { int version; uint8_t proto; size_t csum_at; } c[] = {
		{ 4, 17, 6 }, { 6, 17, 6 }, { 4, 6, 16 }, { 6, 6, 16 },
	};
	uint8_t part[256], full[256];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct vxgbp_ip_spec ip;
		struct vxgbp_l4_spec l4 = { .proto = c[i].proto, .sport = 4242, .dport = 4789,
					    .tcp_flags = 0x18, .tcp_seq = 77 };
		size_t ihl = c[i].version == 4 ? 20 : 40, l4len = c[i].proto == 6 ? 20 : 8;
		size_t seg = l4len + sizeof(PAY);
		uint16_t field, want;
		int np, nf;

		CTX("IPv%d protocol %u", c[i].version, c[i].proto);
		ip_init(&ip, c[i].version);
		l4.csum_mode = VXGBP_CSUM_PARTIAL;
		np = vxgbp_frame_build(part, sizeof(part), NULL, &ip, &l4, PAY, sizeof(PAY));
		l4.csum_mode = VXGBP_CSUM_COMPUTE;
		nf = vxgbp_frame_build(full, sizeof(full), NULL, &ip, &l4, PAY, sizeof(PAY));
		EXPECT_EQ(np, ihl + seg);
		EXPECT_EQ(nf, np);
		/* Linux: check = ~csum_tcpudp_magic(saddr, daddr, len, proto, 0),
		 * the folded pseudo-header sum */
		field = get16(part + ihl + c[i].csum_at);
		want = rfc_fold(pseudo(&ip, c[i].proto, (uint32_t)seg));
		EXPECT_EQ(field, want);
		/* only the checksum differs from the computed frame */
		EXPECT_MEM(part, full, ihl + c[i].csum_at);
		EXPECT_MEM(part + ihl + c[i].csum_at + 2, full + ihl + c[i].csum_at + 2,
			   (size_t)np - ihl - c[i].csum_at - 2);
		/* and the device finishes it: sum the segment from csum_start
		 * with the partial sum in place, complement, store */
		EXPECT_EQ((uint16_t)~rfc_fold(rfc_sum(0, part + ihl, seg)),
			  get16(full + ihl + c[i].csum_at));
	}
}
END_TEST

START_TEST(test_other_proto)
{
	static const uint8_t protos[] = { 47, 4, 41, 0x84, 2 };
	uint8_t b[256];
	struct vxgbp_eth_spec e = { .n_vlan = 0 };

	for (size_t i = 0; i < sizeof(protos); i++) {
		for (int v = 4; v <= 6; v += 2) {
			struct vxgbp_ip_spec ip;
			struct vxgbp_l4_spec l4 = { .proto = protos[i], .sport = 1, .dport = 2,
						    .csum_mode = VXGBP_CSUM_BAD };
			size_t ihl = v == 4 ? 20 : 40;
			int n;

			CTX("IPv%d protocol %u", v, protos[i]);
			ip_init(&ip, v);
			memset(b, 0xa5, sizeof(b));
			n = vxgbp_frame_build(b, sizeof(b), &e, &ip, &l4, PAY, sizeof(PAY));
			EXPECT_EQ(n, 14 + ihl + sizeof(PAY));
			EXPECT_EQ(get16(b + 12), v == 4 ? 0x0800 : 0x86dd);
			EXPECT_EQ(b[14 + (v == 4 ? 9 : 6)], protos[i]);
			EXPECT_EQ(get16(b + 14 + (v == 4 ? 2 : 4)),
				  v == 4 ? 20 + sizeof(PAY) : sizeof(PAY));
			if (v == 4)
				EXPECT_EQ(rfc_fold(rfc_sum(0, b + 14, 20)), 0xffff);
			EXPECT_MEM(b + 14 + ihl, PAY, sizeof(PAY)); /* untouched */
			EXPECT_EQ(b[n], 0xa5);
			/* a partial sum of no header is no header either */
			l4.csum_mode = VXGBP_CSUM_PARTIAL;
			EXPECT_EQ(vxgbp_frame_build(b, sizeof(b), &e, &ip, &l4, PAY, sizeof(PAY)),
				  n);
		}
	}
}
END_TEST

START_TEST(test_l4_errors)
{
	struct vxgbp_ip_spec ip;
	struct vxgbp_l4_spec l4 = { .proto = 1, .csum_mode = VXGBP_CSUM_PARTIAL };
	uint8_t b[256];

	ip_init(&ip, 4);
	CTX("ICMP has no partial sum");
	EXPECT_EQ(vxgbp_frame_build(b, sizeof(b), NULL, &ip, &l4, PAY, sizeof(PAY)),
		  VXGBP_E_INVAL);
	ip_init(&ip, 6);
	l4.proto = 58;
	EXPECT_EQ(vxgbp_frame_build(b, sizeof(b), NULL, &ip, &l4, PAY, sizeof(PAY)),
		  VXGBP_E_INVAL);
	CTX("unknown checksum modes");
	l4.proto = 17;
	l4.csum_mode = VXGBP_CSUM_PARTIAL + 1;
	EXPECT_EQ(vxgbp_frame_build(b, sizeof(b), NULL, &ip, &l4, PAY, sizeof(PAY)),
		  VXGBP_E_INVAL);
	l4.csum_mode = -1;
	EXPECT_EQ(vxgbp_frame_build(b, sizeof(b), NULL, &ip, &l4, PAY, sizeof(PAY)),
		  VXGBP_E_INVAL);
	CTX("unknown IP flags");
	l4.csum_mode = 0;
	ip.flags = 0x4;
	EXPECT_EQ(vxgbp_frame_build(b, sizeof(b), NULL, &ip, &l4, PAY, sizeof(PAY)),
		  VXGBP_E_INVAL);
	CTX("a wrong header checksum over IPv6");
	ip.flags = VXGBP_IP_CSUM_BAD;
	ip.version = 6;
	EXPECT_EQ(vxgbp_frame_build(b, sizeof(b), NULL, &ip, &l4, PAY, sizeof(PAY)),
		  VXGBP_E_INVAL);
}
END_TEST

/* VXGBP_IP_CSUM_BAD: the one field wrong, and the parser says so. */
START_TEST(test_ip_csum_bad)
{
	struct vxgbp_ip_spec ip = { .version = 4, .src = { 192, 0, 2, 1 }, .dst = { 192, 0, 2, 2 } };
	struct vxgbp_l4_spec l4 = { .proto = 17, .sport = 49152, .dport = 53 };
	struct vxgbp_eth_spec e = { .n_vlan = 0 };
	struct vxgbp_pkt p = { .size = sizeof(p) };
	uint8_t good[256], bad[256];
	int n, m;

	n = vxgbp_frame_build(good, sizeof(good), &e, &ip, &l4, PAY, sizeof(PAY));
	ip.flags = VXGBP_IP_CSUM_BAD;
	m = vxgbp_frame_build(bad, sizeof(bad), &e, &ip, &l4, PAY, sizeof(PAY));
	ck_assert_int_gt(n, 34);
	ck_assert_int_eq(n, m);
	/* bytes 24-25: the IPv4 header checksum after 14 bytes of Ethernet */
	ck_assert_int_ne(good[24] << 8 | good[25], bad[24] << 8 | bad[25]);
	ck_assert_mem_eq(good, bad, 24);
	ck_assert_mem_eq(good + 26, bad + 26, (size_t)n - 26);
	ck_assert_int_ge(vxgbp_pkt_parse(&p, good, (size_t)n, (size_t)n, NULL), 0);
	ck_assert_int_eq(p.ip_csum_ok, 1);
	ck_assert_int_ge(vxgbp_pkt_parse(&p, bad, (size_t)n, (size_t)n, NULL), 0);
	ck_assert_int_eq(p.ip_csum_ok, 0);
}
END_TEST

#define BIG_PAY 70000

/* Check the BIG TCP frame in b (n bytes): Ethernet, IPv4 or IPv6 with
 * hop-by-hop header of hbh bytes, TCP, BIG_PAY bytes of payload. */
static void check_big(const uint8_t *b, int n, const struct vxgbp_ip_spec *ip, size_t hbh)
{
	size_t ihl = (ip->version == 4 ? 20 : 40) + hbh, seg = 20 + BIG_PAY;
	const uint8_t *iph = b + 14, *tcp = iph + ihl;

	EXPECT_EQ(n, 14 + ihl + seg);
	if (ip->version == 4) {
		EXPECT_EQ(get16(iph + 2), 0); /* total length 0 */
		EXPECT_EQ(iph[9], 6);
		EXPECT_EQ(rfc_fold(rfc_sum(0, iph, 20)), 0xffff);
	} else {
		EXPECT_EQ(get16(iph + 4), 0); /* payload length 0 */
		EXPECT_EQ(iph[6], 0);         /* hop-by-hop */
		EXPECT_EQ(iph[40], 6);        /* then TCP */
		EXPECT_EQ(iph[41], hbh / 8 - 1);
		EXPECT_EQ(iph[42], 0xc2);     /* Jumbo Payload, at 4n+2 */
		EXPECT_EQ(iph[43], 4);
		EXPECT_EQ((uint32_t)get16(iph + 44) << 16 | get16(iph + 46), hbh + seg);
	}
	EXPECT_EQ(get16(tcp), 4000);
	EXPECT_EQ(rfc_fold(rfc_sum(pseudo(ip, 6, (uint32_t)seg), tcp, seg)), 0xffff);
	for (size_t i = 0; i < BIG_PAY; i += 997)
		EXPECT(tcp[20 + i] == (uint8_t)(i * 7), "payload byte %zu", i);
}

START_TEST(test_big_tcp)
{
	struct vxgbp_eth_spec e = { .n_vlan = 0 };
	struct vxgbp_l4_spec l4 = { .proto = 6, .sport = 4000, .dport = 5000, .tcp_flags = 0x10 };
	uint8_t *pay = malloc(BIG_PAY), *b = malloc(BIG_PAY + 200), small[256], ref[256];
	static const uint8_t opt[4] = { 0x1e, 0x02, 0xab, 0xcd }; /* an experimental TLV */
	struct vxgbp_ip_spec ip;
	int n;

	ck_assert_ptr_nonnull(pay);
	ck_assert_ptr_nonnull(b);
	for (size_t i = 0; i < BIG_PAY; i++)
		pay[i] = (uint8_t)(i * 7);
	for (int v = 4; v <= 6; v += 2) {
		CTX("IPv%d without BIG", v);
		ip_init(&ip, v);
		EXPECT_EQ(vxgbp_frame_build(b, BIG_PAY + 200, &e, &ip, &l4, pay, BIG_PAY),
			  VXGBP_E_INVAL);
		CTX("IPv%d BIG", v);
		ip.flags = VXGBP_IP_BIG;
		n = vxgbp_frame_build(b, BIG_PAY + 200, &e, &ip, &l4, pay, BIG_PAY);
		check_big(b, n, &ip, v == 6 ? 8 : 0);
		EXPECT_EQ(vxgbp_frame_build(b, (size_t)n - 1, &e, &ip, &l4, pay, BIG_PAY),
			  VXGBP_E_NOSPACE);
		CTX("IPv%d BIG, a short packet is written as usual", v);
		n = vxgbp_frame_build(small, sizeof(small), &e, &ip, &l4, PAY, sizeof(PAY));
		ip.flags = 0;
		EXPECT_EQ(vxgbp_frame_build(ref, sizeof(ref), &e, &ip, &l4, PAY, sizeof(PAY)), n);
		EXPECT_MEM(small, ref, (size_t)n);
	}
	CTX("IPv6 BIG with options of its own: the jumbo option first");
	ip_init(&ip, 6);
	ip.flags = VXGBP_IP_BIG;
	ip.options = opt;
	ip.options_len = sizeof(opt);
	n = vxgbp_frame_build(b, BIG_PAY + 200, &e, &ip, &l4, pay, BIG_PAY);
	check_big(b, n, &ip, 16);
	EXPECT_MEM(b + 14 + 48, opt, sizeof(opt));
	/* 2 + 6 + 4 bytes padded to 16: a PadN of the 4 left */
	EXPECT_EQ(b[14 + 52], 1);
	EXPECT_EQ(b[14 + 53], 2);
	EXPECT_EQ(get16(b + 14 + 54), 0);
	free(pay);
	free(b);
}
END_TEST

START_TEST(test_big_udp_and_sizes)
{
	struct vxgbp_l4_spec l4 = { .proto = 17, .sport = 1, .dport = 2 };
	uint8_t *pay = calloc(1, BIG_PAY), *b = malloc(BIG_PAY + 200), ref[64];
	struct vxgbp_ip_spec ip;
	struct vxgbp_hdr h;
	int n;

	ck_assert_ptr_nonnull(pay);
	ck_assert_ptr_nonnull(b);
	CTX("an IPv6 UDP jumbogram: UDP length 0 (RFC 2675 sec. 4)");
	ip_init(&ip, 6);
	ip.flags = VXGBP_IP_BIG;
	n = vxgbp_frame_build(b, BIG_PAY + 200, NULL, &ip, &l4, pay, BIG_PAY);
	EXPECT_EQ(n, 48 + 8 + BIG_PAY);
	EXPECT_EQ(get16(b + 48 + 4), 0);
	EXPECT_EQ(rfc_fold(rfc_sum(pseudo(&ip, 17, 8 + BIG_PAY), b + 48, 8 + BIG_PAY)), 0xffff);
	CTX("a VXLAN frame over a jumbogram");
	vxgbp_hdr_init(&h, 7, VXGBP_F_G, 0x200);
	n = vxgbp_vxlan_build(b, BIG_PAY + 200, NULL, &ip, &l4, &h, pay, BIG_PAY);
	EXPECT_EQ(n, 48 + 8 + 8 + BIG_PAY);
	ip.flags = 0;
	EXPECT_EQ(vxgbp_vxlan_build(b, BIG_PAY + 200, NULL, &ip, &l4, &h, pay, BIG_PAY),
		  VXGBP_E_INVAL);
	CTX("sizes that cannot be an int are no room, checked before writing");
	memset(ref, 0x5a, sizeof(ref));
	memcpy(b, ref, sizeof(ref));
	ip.flags = VXGBP_IP_BIG;
	EXPECT_EQ(vxgbp_frame_build(b, SIZE_MAX, NULL, &ip, &l4, pay, (size_t)INT32_MAX),
		  VXGBP_E_NOSPACE);
	EXPECT_EQ(vxgbp_frame_build(b, SIZE_MAX, NULL, &ip, &l4, pay, (size_t)INT32_MAX + 1),
		  VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_vxlan_build(b, SIZE_MAX, NULL, &ip, &l4, &h, pay, (size_t)INT32_MAX - 8),
		  VXGBP_E_NOSPACE);
	EXPECT_EQ(vxgbp_vxlan_build(b, SIZE_MAX, NULL, &ip, &l4, &h, pay, SIZE_MAX),
		  VXGBP_E_INVAL);
	EXPECT_MEM(b, ref, sizeof(ref));
	free(pay);
	free(b);
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
	tc = unit_tcase(s, "tunnel");
	tcase_add_test(tc, test_gre_layout);
	tcase_add_test(tc, test_erspan_layout);
	tcase_add_test(tc, test_geneve_layout);
	tcase_add_test(tc, test_mpls_layout);
	tcase_add_test(tc, test_tunnel_errors);
	tcase_add_test(tc, test_tunnel_in_place);
	tc = unit_tcase(s, "ip");
	tcase_add_test(tc, test_csum_partial);
	tcase_add_test(tc, test_other_proto);
	tcase_add_test(tc, test_l4_errors);
	tcase_add_test(tc, test_ip_csum_bad);
	tcase_add_test(tc, test_big_tcp);
	tcase_add_test(tc, test_big_udp_and_sizes);
	return unit_run(s, "build");
}
