// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_tunnel.c - the parser's walk (pkt_walk.c, pkt_tunnel.c, gpe.c):
 * VXLAN behind GRE, ERSPAN I/II/III, Geneve, IP in IP, MPLS; VXLAN in
 * VXLAN with its bound; VXLAN-GPE by port and by P bit; BIG TCP lengths;
 * the checksum-offload hint; the one UDP port rule.
 *
 * The frames are assembled here from the RFC layouts, byte by byte, from
 * the inside out (wrap() puts a header in front of what is there), so the
 * parser is checked against the specifications, not against our builder
 * of tunnel headers.  Every frame is also parsed at every prefix length,
 * placed before a PROT_NONE page (guard.c), by both whole-frame parsers.
 */
#include <stddef.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "guard.h"
#include "pkt.h"
#include "unit.h"

#define MAXF 80000

static uint8_t F[MAXF];

/* Put n bytes of h in front of the len bytes at b. */
static void wrap(uint8_t *b, size_t *len, const uint8_t *h, size_t n)
{
	ck_assert_uint_le(*len + n, MAXF);
	memmove(b + n, b, *len);
	memcpy(b, h, n);
	*len += n;
}

static void be16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

static void be32(uint8_t *b, uint32_t v)
{
	be16(b, (uint16_t)(v >> 16));
	be16(b + 2, (uint16_t)v);
}

static void wrap_eth(uint8_t *b, size_t *len, uint16_t et)
{
	uint8_t h[14] = { 2, 0, 0, 0, 0, 0xb, 2, 0, 0, 0, 0, 0xa };

	be16(h + 12, et);
	wrap(b, len, h, sizeof(h));
}

/* IPv4 192.0.2.<src> > 192.0.2.<src+1>; tot 0 writes total length 0. */
static void wrap_ipv4(uint8_t *b, size_t *len, uint8_t proto, uint8_t src, int tot0)
{
	uint8_t h[20] = { 0x45, 0, 0, 0, 0, 1, 0, 0, 64, proto, 0, 0, 192, 0, 2, src,
			  192, 0, 2, (uint8_t)(src + 1) };

	be16(h + 2, tot0 ? 0 : (uint16_t)(*len + 20));
	be16(h + 10, vxgbp_csum_fold(vxgbp_csum_add(0, h, 20)));
	wrap(b, len, h, sizeof(h));
}

/* IPv6 2001:db8::<src> > 2001:db8::<src+1>. */
static void wrap_ipv6(uint8_t *b, size_t *len, uint8_t nh, uint8_t src)
{
	uint8_t h[40] = { 0x60, 0, 0, 0, 0, 0, nh, 64, 0x20, 0x01, 0x0d, 0xb8 };

	h[23] = src;
	h[24] = 0x20;
	h[25] = 0x01;
	h[26] = 0x0d;
	h[27] = 0xb8;
	h[39] = (uint8_t)(src + 1);
	be16(h + 4, (uint16_t)*len);
	wrap(b, len, h, sizeof(h));
}

/* UDP with checksum 0 (the outer rules of mirrors are not under test). */
static void wrap_udp(uint8_t *b, size_t *len, uint16_t sport, uint16_t dport)
{
	uint8_t h[8];

	be16(h, sport);
	be16(h + 2, dport);
	be16(h + 4, (uint16_t)(*len + 8));
	be16(h + 6, 0);
	wrap(b, len, h, sizeof(h));
}

static void wrap_vxlan(uint8_t *b, size_t *len, uint16_t flags, uint16_t group, uint32_t vni)
{
	uint8_t h[8];

	be16(h, flags);
	be16(h + 2, group);
	be32(h + 4, vni << 8);
	wrap(b, len, h, sizeof(h));
}

/* The innermost frame: Ethernet, IPv4 198.51.100.1 > .2, TCP 40000 > 80 SYN. */
static size_t endpoint_frame(uint8_t *b)
{
	uint8_t tcp[20] = { 0x9c, 0x40, 0, 80, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02, 0xff, 0xff };
	uint8_t ip[20] = { 0x45, 0, 0, 40, 0, 2, 0x40, 0, 64, 6, 0, 0, 198, 51, 100, 1,
			   198, 51, 100, 2 };
	size_t len = 0;

	wrap(b, &len, tcp, sizeof(tcp));
	be16(ip + 10, vxgbp_csum_fold(vxgbp_csum_add(0, ip, 20)));
	wrap(b, &len, ip, sizeof(ip));
	wrap_eth(b, &len, 0x0800);
	return len;
}

/* A VXLAN-GBP packet as IPv4 (no link header): vni 100, group 256. */
static size_t vxlan_packet(uint8_t *b)
{
	size_t len = endpoint_frame(b);

	wrap_vxlan(b, &len, VXGBP_F_G | VXGBP_F_I, 0x100, 100);
	wrap_udp(b, &len, 50000, VXGBP_PORT_IANA);
	wrap_ipv4(b, &len, 17, 10, 0);
	return len;
}

/* Parse f both ways at every length (all must agree and stay inside); the
 * whole frame's parse in *p. */
static void parse_all(const uint8_t *f, size_t n, const struct vxgbp_parse_opts *o,
		      struct vxgbp_pkt *p)
{
	struct vxgbp_parse_opts og = *o;
	struct vxgbp_pkt a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	struct guard g;
	size_t step = n > 2000 ? 97 : 1;

	og.flags |= VXGBP_PARSE_GENERIC;
	ck_assert_int_eq(guard_init(&g, n), 0);
	for (size_t k = 0; k <= n; k += step) {
		int ra = vxgbp_pkt_parse(&a, guard_place(&g, f, k), k, n, o);
		int rb = vxgbp_pkt_parse(&b, guard_place(&g, f, k), k, n, &og);

		EXPECT(ra == rb && a.findings == b.findings && a.have == b.have &&
		       a.n_encap == b.n_encap && a.n_nested == b.n_nested,
		       "prefix %zu: fast and generic parses differ", k);
		EXPECT(ra == 0 || ra == VXGBP_E_TRUNCATED, "prefix %zu of %zu: %d at %s", k, n,
		       ra, a.err_layer ? a.err_layer : "-");
	}
	guard_free(&g);
	EXPECT_EQ(vxgbp_pkt_parse(p, f, n, n, o), 0);
}

/* The VXLAN packet of vxlan_packet() was found behind the tunnels. */
static void expect_found(const struct vxgbp_pkt *p, unsigned n_encap)
{
	EXPECT(p->have & VXGBP_HAVE_VXLAN, "no VXLAN header");
	EXPECT_EQ(p->n_encap, n_encap);
	EXPECT_EQ(p->vx.vni, 100);
	EXPECT_EQ(p->vx.group, 0x100);
	EXPECT_EQ(p->vx_kind, VXGBP_VX_VXLAN);
	EXPECT_EQ(p->outer.l3.src[3], 10); /* the VXLAN packet's own delivery */
	EXPECT_EQ(p->outer.l4.dport, VXGBP_PORT_IANA);
	EXPECT_EQ(p->inner.l4.dport, 80);
	EXPECT_EQ(p->findings & ~VXGBP_RB(VXGBP_R_SPORT_RANGE), 0);
}

static void opts(struct vxgbp_parse_opts *o)
{
	vxgbp_parse_opts_init(o);
}

START_TEST(test_gre)
{
	static const struct {
		uint16_t flags;
		size_t len;
	} shapes[] = { { 0x0000, 4 }, { 0x2000, 8 }, { 0x1000, 8 }, { 0x3000, 12 }, { 0xb000, 16 },
		       /* R alone (RFC 1701 routing present): checksum and offset
			* fields are there too */
		       { 0x4000, 8 }, { 0x6000, 12 }, { 0x7000, 16 } };
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };

	opts(&o);
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		uint8_t g[16] = { 0 };
		size_t len = vxlan_packet(F), at = 4;

		CTX("GRE flags %#x", shapes[i].flags);
		be16(g, shapes[i].flags);
		be16(g + 2, 0x0800);
		if (shapes[i].flags & 0xc000) { /* checksum and offset */
			be16(g + 4, 0xabcd);
			be16(g + 6, 0x0012);
			at += 4;
		}
		if (shapes[i].flags & 0x2000) {
			be32(g + at, 0xdeadbeef);
			at += 4;
		}
		if (shapes[i].flags & 0x1000)
			be32(g + at, 7);
		wrap(F, &len, g, shapes[i].len);
		wrap_ipv4(F, &len, 47, 1, 0);
		wrap_eth(F, &len, 0x0800);
		parse_all(F, len, &o, &p);
		expect_found(&p, 1);
		EXPECT_EQ(p.encap[0].kind, VXGBP_ENCAP_GRE);
		EXPECT_EQ(p.encap[0].off, 34);
		EXPECT_EQ(p.encap[0].hdr_len, shapes[i].len);
		EXPECT_EQ(p.encap[0].proto, 0x0800);
		EXPECT_EQ(p.encap[0].ip_version, 4);
		EXPECT_EQ(p.encap[0].ip_src[3], 1);
		EXPECT(p.encap[0].eth_src != NULL, "no Ethernet named");
		EXPECT_EQ(p.encap[0].has_id, !!(shapes[i].flags & 0x2000));
		EXPECT_EQ(p.encap[0].id, (shapes[i].flags & 0x2000) ? 0xdeadbeef : 0);
		EXPECT_EQ(p.encap[0].has_seq, !!(shapes[i].flags & 0x1000));
		EXPECT_EQ(p.encap[0].seq, (shapes[i].flags & 0x1000) ? 7 : 0);
		EXPECT_EQ(p.encap[0].flags, shapes[i].flags);
		EXPECT_EQ(p.encap[0].gre_csum, (shapes[i].flags & 0xc000) ? 0xabcd : 0);
		EXPECT_EQ(p.encap[0].gre_off, (shapes[i].flags & 0xc000) ? 0x0012 : 0);
		EXPECT_EQ(p.encap[0].erspan_ver, 0);
		EXPECT(!(p.have & VXGBP_HAVE_L2), "the VXLAN packet came with no Ethernet");
	}
	/* version 1 (PPTP's enhanced GRE) is not followed, whatever its
	 * protocol field says */
	for (uint16_t ver = 1; ver <= 7; ver++) {
		uint8_t g[4] = { 0 };
		size_t len = vxlan_packet(F);

		CTX("GRE version %u", ver);
		be16(g, ver);
		be16(g + 2, 0x0800);
		wrap(F, &len, g, sizeof(g));
		wrap_ipv4(F, &len, 47, 1, 0);
		wrap_eth(F, &len, 0x0800);
		parse_all(F, len, &o, &p);
		EXPECT_EQ(p.n_encap, 1);
		EXPECT_EQ(p.encap[0].ver, ver);
		EXPECT(!(p.have & VXGBP_HAVE_VXLAN), "VXLAN found behind GRE version %u", ver);
	}
}
END_TEST

/* The tunnel kind of ERSPAN type (1, 2, 3). */
static unsigned kinds_of_erspan(unsigned type)
{
	return type == 1 ? VXGBP_ENCAP_ERSPAN1 : type == 2 ? VXGBP_ENCAP_ERSPAN2
							  : VXGBP_ENCAP_ERSPAN3;
}

/* ERSPAN type (1, 2, 3) around an Ethernet frame around the VXLAN packet,
 * in GRE with a key (0x77) and, for II and III, a sequence number (99). */
static size_t erspan_frame(unsigned type, int o_bit)
{
	uint8_t g[12] = { 0 }, e[20] = { 0 };
	size_t len = vxlan_packet(F), elen = 0;

	wrap_eth(F, &len, 0x0800);
	if (type == 2) {
		be16(e, 0x1000 | 42);  /* ver 1, VLAN 42 */
		be16(e + 2, 0xe000 | 5); /* COS 7, session 5 */
		be32(e + 4, 12345);
		elen = 8;
	} else if (type == 3) {
		be16(e, 0x2000 | 42);
		be16(e + 2, 0x1c00 | 0x3ff); /* session 1023 */
		be32(e + 4, 0x01020304);
		e[11] = o_bit ? 1 : 0;
		elen = o_bit ? 20 : 12;
	}
	if (elen)
		wrap(F, &len, e, elen);
	be16(g, type == 1 ? 0x2000 : 0x3000);
	be16(g + 2, type == 3 ? 0x22eb : 0x88be);
	be32(g + 4, 0x77);
	be32(g + 8, 99);
	wrap(F, &len, g, type == 1 ? 8 : 12);
	wrap_ipv4(F, &len, 47, 1, 0);
	wrap_eth(F, &len, 0x0800);
	return len;
}

START_TEST(test_erspan)
{
	static const unsigned kinds[] = { 0, VXGBP_ENCAP_ERSPAN1, VXGBP_ENCAP_ERSPAN2,
					  VXGBP_ENCAP_ERSPAN3 };
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };

	opts(&o);
	for (unsigned type = 1; type <= 3; type++) {
		for (int ob = 0; ob <= (type == 3); ob++) {
			size_t len = erspan_frame(type, ob);

			CTX("ERSPAN type %u, O %d", type, ob);
			parse_all(F, len, &o, &p);
			expect_found(&p, 1);
			EXPECT_EQ(p.encap[0].kind, kinds[type]);
			EXPECT_EQ(p.encap[0].hdr_len, (type == 1 ? 8 : 12) +
				  (type == 2 ? 8 : type == 3 ? (ob ? 20 : 12) : 0));
			/* the GRE header, intact */
			EXPECT_EQ(p.encap[0].flags, type == 1 ? 0x2000 : 0x3000);
			EXPECT_EQ(p.encap[0].ver, 0);
			EXPECT_EQ(p.encap[0].has_id, 1);
			EXPECT_EQ(p.encap[0].id, 0x77);
			EXPECT_EQ(p.encap[0].has_seq, type != 1);
			EXPECT_EQ(p.encap[0].seq, type == 1 ? 0 : 99);
			EXPECT_EQ(p.encap[0].proto, type == 3 ? 0x22eb : 0x88be);
			/* the ERSPAN header */
			EXPECT_EQ(p.encap[0].erspan_ver, type == 1 ? 0 : type - 1);
			EXPECT_EQ(p.encap[0].erspan_session, type == 2 ? 5 : type == 3 ? 1023 : 0);
			EXPECT_EQ(p.encap[0].erspan_vlan, type == 1 ? 0 : 42);
			EXPECT(p.have & VXGBP_HAVE_L2, "the mirrored frame's Ethernet");
		}
	}
}
END_TEST

START_TEST(test_geneve_ipip_mpls)
{
	uint8_t gen[16] = { 0x02, 0, 0x65, 0x58, 0, 0, 7, 0, 0x01, 0x02, 0x80, 0x01 };
	uint8_t mpls[8];
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	size_t len;

	opts(&o);
	CTX("Geneve with 8 bytes of options");
	len = vxlan_packet(F);
	wrap_eth(F, &len, 0x0800);
	wrap(F, &len, gen, sizeof(gen));
	wrap_udp(F, &len, 51000, VXGBP_PORT_GENEVE);
	wrap_ipv6(F, &len, 17, 1);
	wrap_eth(F, &len, 0x86dd);
	parse_all(F, len, &o, &p);
	expect_found(&p, 1);
	EXPECT_EQ(p.encap[0].kind, VXGBP_ENCAP_GENEVE);
	EXPECT_EQ(p.encap[0].id, 7);
	EXPECT_EQ(p.encap[0].opt_len, 8);
	EXPECT_EQ(p.encap[0].hdr_len, 16);
	EXPECT_EQ(p.encap[0].dport, VXGBP_PORT_GENEVE);
	EXPECT_EQ(p.encap[0].ip_version, 6);

	/* a fragment's Geneve header is not entered (the options and the
	 * frame may go on in the next fragment), even a first one that
	 * holds all of it */
	CTX("Geneve in the first fragment of an IPv4 datagram");
	len = vxlan_packet(F);
	wrap_eth(F, &len, 0x0800);
	wrap(F, &len, gen, sizeof(gen));
	wrap_udp(F, &len, 51000, VXGBP_PORT_GENEVE);
	wrap_ipv4(F, &len, 17, 1, 0);
	F[6] = 0x20; /* MF */
	be16(F + 10, 0);
	be16(F + 10, vxgbp_csum_fold(vxgbp_csum_add(0, F, 20)));
	wrap_eth(F, &len, 0x0800);
	parse_all(F, len, &o, &p);
	EXPECT_EQ(p.n_encap, 0);
	EXPECT(!(p.have & VXGBP_HAVE_VXLAN), "VXLAN found behind a fragment's Geneve header");
	EXPECT_EQ(p.outer.l3.more_frags, 1);
	EXPECT_EQ(p.outer.l4.dport, VXGBP_PORT_GENEVE);

	CTX("IPv4 in IPv6 in IPv4, then MPLS over Ethernet");
	len = vxlan_packet(F);
	wrap_ipv6(F, &len, 4, 3);
	wrap_ipv4(F, &len, 41, 1, 0);
	be32(mpls, (16u << 12) | 64);
	be32(mpls + 4, (17u << 12) | 0x100 | 64);
	wrap(F, &len, mpls, sizeof(mpls));
	wrap_eth(F, &len, 0x8847);
	parse_all(F, len, &o, &p);
	expect_found(&p, 3);
	EXPECT_EQ(p.encap[0].kind, VXGBP_ENCAP_MPLS);
	EXPECT_EQ(p.encap[0].id, 16);
	EXPECT_EQ(p.encap[0].ver, 2);
	EXPECT_EQ(p.encap[0].proto, 0x0800);
	EXPECT_EQ(p.encap[1].kind, VXGBP_ENCAP_IP);
	EXPECT_EQ(p.encap[1].proto, 0x86dd);
	EXPECT_EQ(p.encap[1].ip_version, 4);
	EXPECT_EQ(p.encap[2].kind, VXGBP_ENCAP_IP);
	EXPECT_EQ(p.encap[2].proto, 0x0800);
	EXPECT_EQ(p.encap[2].ip_version, 6);

	CTX("not walked with VXGBP_PARSE_NO_WALK");
	o.flags |= VXGBP_PARSE_NO_WALK;
	EXPECT_EQ(vxgbp_pkt_parse(&p, F, len, len, &o), 0);
	EXPECT_EQ(p.n_encap, 0);
	EXPECT(!(p.have & VXGBP_HAVE_VXLAN), "found though not walked");
}
END_TEST

START_TEST(test_encap_depth)
{
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	size_t len = vxlan_packet(F);

	opts(&o);
	o.linktype = VXGBP_LINK_RAW;
	for (int i = 0; i < VXGBP_MAX_ENCAP + 1; i++)
		wrap_ipv4(F, &len, 4, (uint8_t)(20 + 2 * i), 0);
	parse_all(F, len, &o, &p);
	EXPECT_EQ(p.n_encap, VXGBP_MAX_ENCAP);
	EXPECT(!(p.have & VXGBP_HAVE_VXLAN), "found past the bound");
	EXPECT(p.findings & VXGBP_RB(VXGBP_R_DEPTH), "no tunnel.depth");
}
END_TEST

/* depth VXLAN headers, each carried in the frame of the one before;
 * the innermost has vni 100 + depth - 1. */
static size_t nested_frame(unsigned depth)
{
	size_t len = endpoint_frame(F);

	for (unsigned d = depth; d-- > 0;) {
		wrap_vxlan(F, &len, VXGBP_F_I | (d == depth - 1 ? VXGBP_F_G : 0),
			   d == depth - 1 ? 0x200 : 0, 100 + d);
		wrap_udp(F, &len, (uint16_t)(50000 + d), VXGBP_PORT_IANA);
		wrap_ipv4(F, &len, 17, (uint8_t)(10 + 2 * d), 0);
		wrap_eth(F, &len, 0x0800);
	}
	return len;
}

START_TEST(test_nested)
{
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };

	opts(&o);
	for (unsigned depth = 2; depth <= VXGBP_MAX_NESTED + 2; depth++) {
		size_t len = nested_frame(depth);
		unsigned n = depth - 1 > VXGBP_MAX_NESTED ? VXGBP_MAX_NESTED : depth - 1;

		CTX("%u VXLAN headers", depth);
		parse_all(F, len, &o, &p);
		EXPECT_EQ(p.vx.vni, 100);
		EXPECT_EQ(p.n_nested, n);
		EXPECT_EQ(p.inner.l4.dport, VXGBP_PORT_IANA);
		for (unsigned i = 0; i < n; i++) {
			EXPECT_EQ(p.nested[i].vx.vni, 101 + i);
			EXPECT_EQ(p.nested[i].kind, VXGBP_VX_VXLAN);
			EXPECT_EQ(p.nested[i].ip_src[3], 12 + 2 * i);
			EXPECT_EQ(p.nested[i].sport, 50001 + i);
			EXPECT(p.nested[i].have & VXGBP_HAVE_INNER_L4, "frame of nested[%u]", i);
		}
		EXPECT_EQ(!!(p.findings & VXGBP_RB(VXGBP_R_DEPTH)), depth - 1 > VXGBP_MAX_NESTED);
		if (depth - 1 <= VXGBP_MAX_NESTED) {
			const struct vxgbp_nested *x = &p.nested[n - 1];

			EXPECT_EQ(x->vx.group, 0x200);
			EXPECT_EQ(x->inner.l4.dport, 80);
			/* G with group 0x200: nothing to report, here or outside */
			EXPECT_EQ(x->findings, 0);
		}
	}
}
END_TEST

/* A tunnel's own delivery judged apart (encap_findings): a wrong IPv4
 * header checksum on the GRE packet that carries ERSPAN is that layer's,
 * not the VXLAN packet's. */
START_TEST(test_encap_findings)
{
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	size_t len = erspan_frame(2, 0);

	opts(&o);
	EXPECT_EQ(vxgbp_pkt_parse(&p, F, len, len, &o), 0);
	EXPECT_EQ(p.encap_findings[0], 0);
	F[14 + 10] ^= 0x5a; /* the delivering IPv4 header's checksum */
	EXPECT_EQ(vxgbp_pkt_parse(&p, F, len, len, &o), 0);
	expect_found(&p, 1);
	EXPECT_EQ(p.encap_findings[0], VXGBP_RB(VXGBP_R_IP_CSUM));
	o.flags |= VXGBP_PARSE_NO_CSUM; /* not verified: not judged */
	EXPECT_EQ(vxgbp_pkt_parse(&p, F, len, len, &o), 0);
	EXPECT_EQ(p.encap_findings[0], 0);
}
END_TEST

/* The mirror a frame came through (vxgbp_pkt_mirror()): the outermost
 * session around the fabric header, by fabric mode. */
START_TEST(test_mirror)
{
	static const unsigned erspan[] = { 0, VXGBP_MIRROR_ERSPAN1, VXGBP_MIRROR_ERSPAN2,
					   VXGBP_MIRROR_ERSPAN3 };
	struct vxgbp_parse_opts o;
	static const uint8_t gen[8] = { 0, 0, 0x65, 0x58, 0, 0, 7, 0 };
	struct vxgbp_pkt p = { .size = sizeof(p) };
	uint32_t id = 99;
	unsigned idx = 99;

	opts(&o);
	/* VXLAN in VXLAN: the GBP header is the innermost; the first is the
	 * mirror's unless the fabric is the first header */
	for (unsigned depth = 2; depth <= 3; depth++) {
		size_t len = nested_frame(depth);

		CTX("%u VXLAN headers", depth);
		EXPECT_EQ(vxgbp_pkt_parse(&p, F, len, len, &o), 0);
		EXPECT_EQ(vxgbp_pkt_fabric(&p, VXGBP_FABRIC_GBP), (int)depth - 1);
		EXPECT_EQ(vxgbp_pkt_mirror(&p, VXGBP_FABRIC_GBP, &id), VXGBP_MIRROR_VXLAN);
		EXPECT_EQ(id, 100);
		EXPECT_EQ(vxgbp_pkt_mirror(&p, VXGBP_FABRIC_INNERMOST, &id), VXGBP_MIRROR_VXLAN);
		EXPECT_EQ(vxgbp_pkt_mirror(&p, VXGBP_FABRIC_FIRST, &id), VXGBP_MIRROR_NONE);
		EXPECT_EQ(id, 0);
		EXPECT_EQ(vxgbp_pkt_mirror(&p, 3, &id), VXGBP_E_INVAL);
		EXPECT_EQ(vxgbp_pkt_mirror_encap(&p, VXGBP_FABRIC_GBP, &idx), 0);
	}
	/* Geneve in IP in IP: the mirror is the second layer, not the first */
	{
		size_t len = vxlan_packet(F);

		CTX("Geneve in IP in IP");
		wrap_eth(F, &len, 0x0800);
		wrap(F, &len, gen, sizeof(gen));
		wrap_udp(F, &len, 51000, VXGBP_PORT_GENEVE);
		wrap_ipv4(F, &len, 17, 3, 0);
		wrap_ipv4(F, &len, 4, 1, 0);
		wrap_eth(F, &len, 0x0800);
		EXPECT_EQ(vxgbp_pkt_parse(&p, F, len, len, &o), 0);
		EXPECT_EQ(p.n_encap, 2);
		EXPECT_EQ(vxgbp_pkt_mirror(&p, VXGBP_FABRIC_GBP, &id), VXGBP_MIRROR_GENEVE);
		EXPECT_EQ(id, 7);
		EXPECT_EQ(vxgbp_pkt_mirror_encap(&p, VXGBP_FABRIC_GBP, &idx), 1);
		EXPECT_EQ(idx, 1);
		EXPECT_EQ(vxgbp_pkt_mirror_encap(&p, VXGBP_FABRIC_GBP, NULL), VXGBP_E_INVAL);
	}
	/* ERSPAN around the VXLAN packet: the session, in every mode */
	for (unsigned type = 1; type <= 3; type++) {
		size_t len = erspan_frame(type, 0);

		CTX("ERSPAN type %u", type);
		EXPECT_EQ(vxgbp_pkt_parse(&p, F, len, len, &o), 0);
		for (unsigned m = 0; m < 3; m++) {
			EXPECT_EQ(vxgbp_pkt_mirror(&p, m, &id), (int)erspan[type]);
			EXPECT_EQ(id, type == 2 ? 5 : type == 3 ? 1023 : 0);
			EXPECT_EQ(vxgbp_pkt_mirror_encap(&p, m, &idx), 1);
			EXPECT_EQ(idx, 0);
		}
		EXPECT_STR(vxgbp_mirror_get(erspan[type])->key,
			      vxgbp_encap_get(kinds_of_erspan(type))->key);
	}
	/* one VXLAN header, no tunnel: no mirror */
	{
		size_t len = vxlan_packet(F);

		o.linktype = VXGBP_LINK_RAW;
		EXPECT_EQ(vxgbp_pkt_parse(&p, F, len, len, &o), 0);
		EXPECT_EQ(vxgbp_pkt_mirror(&p, VXGBP_FABRIC_GBP, NULL), VXGBP_MIRROR_NONE);
		EXPECT_EQ(vxgbp_pkt_mirror_encap(&p, VXGBP_FABRIC_GBP, &idx), 0);
	}
	EXPECT(vxgbp_mirror_get(VXGBP_MIRROR_NONE) == NULL, "no name for none");
	EXPECT(vxgbp_mirror_get(VXGBP_MIRROR__COUNT) == NULL, "no name past the last");
	EXPECT(vxgbp_mirror_get(VXGBP_MIRROR_ERSPAN1)->id_name == NULL, "ERSPAN I: no ID");
	EXPECT_STR(vxgbp_mirror_get(VXGBP_MIRROR_GENEVE)->id_name, "vni");
	EXPECT_EQ(vxgbp_pkt_mirror(NULL, 0, &id), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_pkt_mirror_encap(NULL, 0, &idx), VXGBP_E_INVAL);
}
END_TEST

/* A nested VXLAN packet cut short inside its own frame: the cut is the
 * whole packet's (frame.truncated, p->err) as well as the nested header's
 * findings; the nested parse must not drop it from p->findings. */
START_TEST(test_nested_truncated)
{
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	size_t len = nested_frame(2);
	uint64_t tr = VXGBP_RB(VXGBP_R_TRUNCATED);

	opts(&o);
	ck_assert_int_eq(vxgbp_pkt_parse(&p, F, len, len, &o), 0);
	ck_assert_uint_eq(p.n_nested, 1);
	for (size_t cut = (size_t)p.nested[0].off + VXGBP_HDR_LEN; cut < len; cut++) {
		CTX("nested frame cut at %zu of %zu", cut, len);
		EXPECT_EQ(vxgbp_pkt_parse(&p, F, cut, len, &o), VXGBP_E_TRUNCATED);
		EXPECT_EQ(p.n_nested, 1);
		EXPECT(p.findings & tr, "frame.truncated lost: findings %#llx",
		       (unsigned long long)p.findings);
		EXPECT(p.nested[0].findings & tr, "not in the nested header's findings");
		EXPECT(p.have & VXGBP_HAVE_INNER_L4, "the outer frame's own layers");
	}
}
END_TEST

/* gpe.rsvd: each of the eight reserved bits before Next Protocol alone
 * (the 16 bits after the flags are vxgbp_hdr's group) */
START_TEST(test_gpe_reserved_bits)
{
	for (unsigned bit = 0; bit < 16; bit++) {
		struct vxgbp_hdr h = { VXGBP_F_I | VXGBP_GPE_F_P, (uint16_t)(1u << bit), 300, 0 };

		CTX("bit %u of the word after the flags", bit);
		EXPECT_EQ(!!(vxgbp_gpe_check(&h, 0) & VXGBP_RB(VXGBP_R_GPE_RSVD)), bit >= 8);
	}
}
END_TEST

/* A GPE header (flags, next protocol np) on dport around payload. */
static size_t gpe_frame(uint16_t dport, uint16_t flags, uint8_t np)
{
	size_t len = endpoint_frame(F);
	uint8_t nsh[8] = { 0x0f, 0xc2, 0x02, 0x03, 0, 0, 42, 255 };

	if (np == VXGBP_GPE_NP_IPV4)
		memmove(F, F + 14, len -= 14);
	if (np == VXGBP_GPE_NP_NSH)
		wrap(F, &len, nsh, sizeof(nsh));
	wrap_vxlan(F, &len, flags, np, 300);
	wrap_udp(F, &len, 50000, dport);
	wrap_ipv4(F, &len, 17, 10, 0);
	wrap_eth(F, &len, 0x0800);
	return len;
}

START_TEST(test_gpe)
{
	const uint16_t ip = VXGBP_F_I | VXGBP_GPE_F_P;
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	size_t len;

	opts(&o);
	CTX("GPE next-proto Ethernet on 4790");
	len = gpe_frame(VXGBP_PORT_GPE, ip, VXGBP_GPE_NP_ETHERNET);
	parse_all(F, len, &o, &p);
	EXPECT_EQ(p.vx_kind, VXGBP_VX_GPE);
	EXPECT_EQ(vxgbp_gpe_next_proto(&p.vx), 3);
	EXPECT_STR(vxgbp_gpe_np_name(3), "Ethernet");
	EXPECT_EQ(p.inner.l4.dport, 80);
	EXPECT_EQ(p.findings, 0);

	CTX("GPE next-proto IPv4: no inner Ethernet");
	len = gpe_frame(VXGBP_PORT_GPE, ip, VXGBP_GPE_NP_IPV4);
	parse_all(F, len, &o, &p);
	EXPECT_EQ(p.inner.l2.off, -1);
	EXPECT_EQ(p.have & (VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L4), VXGBP_HAVE_INNER_L4);
	EXPECT_EQ(p.inner.l3.src[3], 1);

	CTX("GPE next-proto NSH, NSH next-proto Ethernet");
	len = gpe_frame(VXGBP_PORT_GPE, ip, VXGBP_GPE_NP_NSH);
	parse_all(F, len, &o, &p);
	EXPECT_EQ(p.nsh_off, 50);
	EXPECT_EQ(p.inner.l4.dport, 80);

	CTX("a GPE header sent to 4789: GPE, and said so");
	len = gpe_frame(VXGBP_PORT_IANA, ip, VXGBP_GPE_NP_ETHERNET);
	parse_all(F, len, &o, &p);
	EXPECT_EQ(p.vx_kind, VXGBP_VX_GPE);
	EXPECT_EQ(p.findings, VXGBP_RB(VXGBP_R_GPE_ON_VXLAN_PORT));
	EXPECT_EQ(p.inner.l4.dport, 80);

	CTX("G and P on 4789: GBP, P a reserved bit");
	len = gpe_frame(VXGBP_PORT_IANA, ip | VXGBP_F_G, 3);
	parse_all(F, len, &o, &p);
	EXPECT_EQ(p.vx_kind, VXGBP_VX_VXLAN);
	EXPECT(p.findings & VXGBP_RB(VXGBP_R_RSVD_FLAGS), "P not judged as reserved");

	CTX("version 1, O, reserved bits, unknown next protocol");
	len = gpe_frame(VXGBP_PORT_GPE, ip | 0x1000 | VXGBP_GPE_F_O | 0x0001, 9);
	parse_all(F, len, &o, &p);
	EXPECT_EQ(p.findings, VXGBP_RB(VXGBP_R_GPE_VERSION) | VXGBP_RB(VXGBP_R_GPE_OAM) |
		  VXGBP_RB(VXGBP_R_GPE_RSVD) | VXGBP_RB(VXGBP_R_GPE_NEXT_PROTO));
	EXPECT_EQ(p.have & VXGBP_HAVE_INNER_L2, 0);

	CTX("the same bytes from the payload, told the port");
	o.flags |= VXGBP_PARSE_GPE;
	len = gpe_frame(VXGBP_PORT_GPE, ip, VXGBP_GPE_NP_ETHERNET);
	EXPECT_EQ(vxgbp_pkt_parse_vxlan(&p, F + 42, len - 42, len - 42, &o), 0);
	EXPECT_EQ(p.vx_kind, VXGBP_VX_GPE);
	EXPECT_EQ(p.findings, 0);
	EXPECT_EQ(vxgbp_vx_kind(&p.vx, VXGBP_PORT_GPE), VXGBP_VX_GPE);
	EXPECT_EQ(vxgbp_vx_kind(&p.vx, VXGBP_PORT_IANA), VXGBP_VX_GPE);
	p.vx.flags |= VXGBP_F_G;
	EXPECT_EQ(vxgbp_vx_kind(&p.vx, VXGBP_PORT_IANA), VXGBP_VX_VXLAN);
}
END_TEST

START_TEST(test_big_tcp)
{
	uint8_t tcp[20] = { 0x9c, 0x40, 0, 80, 0, 0, 0, 1, 0, 0, 0, 1, 0x50, 0x10, 0xff, 0xff };
	uint8_t hbh[8] = { 6, 0, 0xc2, 4, 0, 0, 0, 0 };
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	const size_t data = 70000;
	size_t len;

	opts(&o);
	CTX("IPv4 total length 0");
	memset(F, 0, data);
	len = data;
	wrap(F, &len, tcp, sizeof(tcp));
	wrap_ipv4(F, &len, 6, 1, 1);
	wrap_eth(F, &len, 0x0800);
	parse_all(F, len, &o, &p);
	EXPECT_EQ(p.outer.l3.tot_len, len - 14);
	EXPECT_EQ(p.outer.l4.dport, 80);
	EXPECT_EQ(p.findings, VXGBP_RB(VXGBP_R_GSO_LENGTH));
	CTX("IPv4 total length 0 where 64 KiB would do: malformed");
	EXPECT_EQ(vxgbp_pkt_parse(&p, F, 1000, 1000, &o), VXGBP_E_MALFORMED);

	CTX("UDP length 0: BIG TCP through a VXLAN tunnel");
	memset(F, 0, data);
	len = data;
	wrap(F, &len, tcp, sizeof(tcp));
	wrap_ipv4(F, &len, 6, 1, 1);
	wrap_eth(F, &len, 0x0800);
	wrap_vxlan(F, &len, VXGBP_F_G | VXGBP_F_I, 0x100, 100);
	wrap_udp(F, &len, 50000, VXGBP_PORT_IANA);
	be16(F + 4, 0);
	wrap_ipv4(F, &len, 17, 10, 1);
	wrap_eth(F, &len, 0x0800);
	parse_all(F, len, &o, &p);
	EXPECT(p.have & VXGBP_HAVE_VXLAN, "no VXLAN header");
	EXPECT_EQ(p.outer.l4.len, len - 34);
	EXPECT_EQ(p.inner.l3.tot_len, len - 64);
	EXPECT_EQ(p.inner.l4.dport, 80);
	EXPECT_EQ(p.findings, VXGBP_RB(VXGBP_R_GSO_LENGTH));

	CTX("IPv6 jumbogram");
	memset(F, 0, data);
	len = data;
	wrap(F, &len, tcp, sizeof(tcp));
	be32(hbh + 4, (uint32_t)(len + sizeof(hbh)));
	wrap(F, &len, hbh, sizeof(hbh));
	wrap_ipv6(F, &len, 0, 1);
	be16(F + 4, 0); /* payload length 0: the jumbo option says */
	wrap_eth(F, &len, 0x86dd);
	parse_all(F, len, &o, &p);
	EXPECT_EQ(p.outer.l3.tot_len, len - 14);
	EXPECT_EQ(p.outer.l4.dport, 80);
	EXPECT_EQ(p.findings, VXGBP_RB(VXGBP_R_GSO_LENGTH));
	CTX("a jumbo option of 64 KiB or less is no jumbogram");
	be32(F + 14 + 40 + 4, 60000);
	EXPECT_EQ(vxgbp_pkt_parse(&p, F, len, len, &o), VXGBP_E_MALFORMED);
}
END_TEST

/* A VXLAN frame with a UDP checksum set to csum (0: computed). */
static size_t csum_frame(int partial, int bad)
{
	struct vxgbp_eth_spec eth = { .dst = { 2, 0, 0, 0, 0, 2 }, .src = { 2, 0, 0, 0, 0, 1 } };
	struct vxgbp_ip_spec ip = { .version = 4, .src = { 192, 0, 2, 1 }, .dst = { 192, 0, 2, 2 } };
	struct vxgbp_l4_spec udp = { .proto = 17, .sport = 50000, .dport = VXGBP_PORT_IANA };
	struct vxgbp_hdr h;
	uint8_t inner[64];
	size_t in = endpoint_frame(inner);
	int n;
	uint32_t sum;

	vxgbp_hdr_init(&h, 100, VXGBP_F_G, 0x100);
	n = vxgbp_vxlan_build(F, MAXF, &eth, &ip, &udp, &h, inner, in);
	ck_assert_int_gt(n, 0);
	sum = vxgbp_csum_add(0, F + 26, 8) + 17 + (uint32_t)(n - 34);
	if (partial) /* Linux's CHECKSUM_PARTIAL: the pseudo-header sum */
		be16(F + 40, (uint16_t)(0xffffu ^ vxgbp_csum_fold(sum)));
	if (bad)
		F[40] ^= 0x55;
	return (size_t)n;
}

START_TEST(test_csum_offload)
{
	const uint64_t bad = VXGBP_RB(VXGBP_R_UDP_CSUM);
	const uint64_t hint = VXGBP_RB(VXGBP_R_CSUM_OFFLOAD);
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	size_t len;

	opts(&o);
	CTX("computed");
	len = csum_frame(0, 0);
	parse_all(F, len, &o, &p);
	EXPECT_EQ(p.findings & (bad | hint), 0);
	CTX("partial sum");
	len = csum_frame(1, 0);
	parse_all(F, len, &o, &p);
	EXPECT_EQ(p.findings & (bad | hint), bad | hint);
	CTX("just wrong");
	len = csum_frame(1, 1);
	parse_all(F, len, &o, &p);
	EXPECT_EQ(p.findings & (bad | hint), bad);
	CTX("not verified with VXGBP_PARSE_NO_CSUM");
	o.flags |= VXGBP_PARSE_NO_CSUM;
	EXPECT_EQ(vxgbp_pkt_parse(&p, F, len, len, &o), 0);
	EXPECT_EQ(p.findings & (bad | hint), 0);
}
END_TEST

START_TEST(test_port_rule)
{
	struct vxgbp_parse_opts o;

	opts(&o);
	EXPECT_EQ(vxgbp_udp_kind(&o, 4789), VXGBP_UDP_VXLAN);
	EXPECT_EQ(vxgbp_udp_kind(&o, 8472), VXGBP_UDP_VXLAN);
	EXPECT_EQ(vxgbp_udp_kind(&o, 4790), VXGBP_UDP_GPE);
	EXPECT_EQ(vxgbp_udp_kind(&o, 6081), VXGBP_UDP_GENEVE);
	EXPECT_EQ(vxgbp_udp_kind(&o, 4788), VXGBP_UDP_OTHER);
	EXPECT_EQ(vxgbp_parse_opts_add_port(&o, 6081), 0);
	EXPECT_EQ(vxgbp_udp_kind(&o, 6081), VXGBP_UDP_VXLAN);
	o.flags = VXGBP_PARSE_NO_DEFAULT_PORTS;
	EXPECT_EQ(vxgbp_udp_kind(&o, 4789), VXGBP_UDP_OTHER);
	EXPECT_EQ(vxgbp_udp_kind(&o, 4790), VXGBP_UDP_GPE);
	o.flags = VXGBP_PARSE_NO_WALK;
	EXPECT_EQ(vxgbp_udp_kind(&o, 4790), VXGBP_UDP_OTHER);
	EXPECT_EQ(vxgbp_udp_kind(&o, 4789), VXGBP_UDP_VXLAN);
	for (unsigned k = 1; k < VXGBP_ENCAP__COUNT; k++)
		EXPECT(vxgbp_encap_get(k) && vxgbp_encap_get(k)->name && vxgbp_encap_get(k)->key,
		       "encap kind %u unnamed", k);
	EXPECT(vxgbp_encap_get(0) == NULL && vxgbp_encap_get(VXGBP_ENCAP__COUNT) == NULL,
	       "names past the table");
}
END_TEST

/* The source port never makes a datagram VXLAN. */
START_TEST(test_source_port_only)
{
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	size_t len = endpoint_frame(F);

	opts(&o);
	wrap_vxlan(F, &len, VXGBP_F_G | VXGBP_F_I, 0x100, 100);
	wrap_udp(F, &len, VXGBP_PORT_IANA, 50000);
	wrap_ipv4(F, &len, 17, 10, 0);
	wrap_eth(F, &len, 0x0800);
	parse_all(F, len, &o, &p);
	EXPECT(!(p.have & VXGBP_HAVE_VXLAN), "VXLAN by source port");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tunnel");
	TCase *tc = unit_tcase(s, "walk");

	tcase_add_test(tc, test_gre);
	tcase_add_test(tc, test_erspan);
	tcase_add_test(tc, test_geneve_ipip_mpls);
	tcase_add_test(tc, test_encap_depth);
	tcase_add_test(tc, test_nested);
	tcase_add_test(tc, test_mirror);
	tcase_add_test(tc, test_encap_findings);
	tcase_add_test(tc, test_nested_truncated);
	tcase_add_test(tc, test_gpe);
	tcase_add_test(tc, test_gpe_reserved_bits);
	tcase_add_test(tc, test_big_tcp);
	tcase_add_test(tc, test_csum_offload);
	tcase_add_test(tc, test_port_rule);
	tcase_add_test(tc, test_source_port_only);
	return unit_run(s, "tunnel");
}
