// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_pkt.c - the frame builder and the bounds-checked frame parser.
 *
 * Each case is built with vxgbp_frame_build()/vxgbp_vxlan_build() from a
 * spec; the expected offsets are worked out here from the spec (header
 * sizes from the RFCs), not from the parser.  Then:
 *   - the whole frame parses, every decoded field matches the spec, and
 *     both checksums verify (also with an RFC 1071 sum written here);
 *   - every prefix 0..len, placed right before a PROT_NONE page, parses
 *     without reading past it: TRUNCATED at the layer that is cut (never
 *     MALFORMED) while the capture is short of the last header, identical
 *     to the whole-frame parse once it is not;
 *   - mutated frames whose lengths contradict each other are MALFORMED
 *     at the right layer and offset.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "guard.h"
#include "pkt.h" /* libvxgbp/src: the fast path's entry, to see it is taken */
#include "unit.h"

#define RB(r) VXGBP_RB(VXGBP_R_##r)
#define MAXF 2048
/* CIPSO/CALIPSO findings belong to the label tests (tests/labels): the
 * options here only need to be found, not to be valid labels. */
#define LABEL_RULES (RB(CIPSO_LEN) | RB(CIPSO_TAG_LEN) | RB(CIPSO_TAG_ORDER) | RB(CIPSO_CAT_ORDER) | \
		     RB(CIPSO_RANGE) | RB(CIPSO_TAG_UNKNOWN) | RB(CIPSO_DOI) | RB(CALIPSO_LEN) | \
		     RB(CALIPSO_CSUM) | RB(CALIPSO_DOI))

static const uint8_t omac_d[6] = { 0x02, 0, 0, 0, 0, 0x02 }, omac_s[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t imac_d[6] = { 0x52, 0x54, 0, 0xaa, 0xbb, 0x02 },
		     imac_s[6] = { 0x52, 0x54, 0, 0xaa, 0xbb, 0x01 };
static const uint8_t o4s[4] = { 192, 0, 2, 1 }, o4d[4] = { 198, 51, 100, 2 };
static const uint8_t o6s[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
		     o6d[16] = { 0x20, 0x01, 0x0d, 0xb8, [14] = 0x12, [15] = 2 };
static const uint8_t i4s[4] = { 10, 0, 0, 1 }, i4d[4] = { 10, 0, 0, 2 };
static const uint8_t i6s[16] = { 0xfd, [15] = 1 }, i6d[16] = { 0xfd, [15] = 2 };

/* IPv4 options: NOP, then CIPSO (DOI 4, tag 1 level 3): 11 bytes, padded to 12 */
static const uint8_t opt_cipso[] = { 1, 134, 10, 0, 0, 0, 4, 1, 4, 0, 3 };
/* IPv4 record route, length 7: padded to 8 */
static const uint8_t opt_rr[] = { 7, 7, 4, 0, 0, 0, 0 };
/* IPv6 hop-by-hop: router alert; a CALIPSO-shaped option (type 7, 8 bytes) */
static const uint8_t hbh_ra[] = { 5, 2, 0, 0 };
static const uint8_t hbh_calipso[] = { 7, 8, 0, 0, 0, 9, 0, 2, 0, 0 };

enum { IN_ARP = 0 };

struct fcase {
	const char *name;
	int link;
	int ov;                 /* outer IP version */
	unsigned n_vlan;
	uint16_t tpid[2], tci[2];
	const uint8_t *opts;
	size_t opts_len;
	uint16_t sport, dport;
	int csum;
	uint16_t extra_port;
	struct vxgbp_hdr hdr;
	int iv;                 /* inner IP version, IN_ARP for ARP */
	unsigned in_vlan;
	uint8_t iproto;
	size_t payload;
	int cipso_at, calipso_at; /* offset from the option area; -1 */
	const uint8_t *iopts;     /* inner IPv4 options / IPv6 hop-by-hop options */
	size_t iopts_len;
};

#define GI (VXGBP_F_G | VXGBP_F_I)
static const struct fcase cases[] = {
	{ "v4 tcp", VXGBP_LINK_ETHERNET, 4, 0, { 0 }, { 0 }, NULL, 0, 50000, 4789, 0, 0,
	  { GI, 0x200, 0x123456, 0 }, 4, 0, 6, 20, -1, -1, NULL, 0 },
	{ "v4 vlan, port 8472, inner v6 udp", VXGBP_LINK_ETHERNET, 4, 1, { 0 }, { 100 }, NULL, 0,
	  60001, 8472, 0, 0, { GI | VXGBP_F_D, 0xbeef, 1, 0 }, 6, 0, 17, 7, -1, -1, NULL, 0 },
	{ "v4 802.1ad+802.1Q, plain vxlan, icmp", VXGBP_LINK_ETHERNET, 4, 2, { 0x88a8, 0x8100 },
	  { 10, 0x2014 }, NULL, 0, 49152, 4789, 0, 0, { VXGBP_F_I, 0, 77, 0 }, 4, 0, 1, 16, -1, -1, NULL, 0 },
	{ "v4 cipso option, inner arp", VXGBP_LINK_ETHERNET, 4, 0, { 0 }, { 0 }, opt_cipso,
	  sizeof(opt_cipso), 65535, 4789, 0, 0, { GI | VXGBP_F_A, 1, 0xffffff, 0 }, IN_ARP, 0, 0, 0,
	  1, -1, NULL, 0 },
	{ "v4 rr option, zero udp csum", VXGBP_LINK_ETHERNET, 4, 0, { 0 }, { 0 }, opt_rr,
	  sizeof(opt_rr), 55555, 4789, VXGBP_CSUM_ZERO, 0, { GI, 0xffff, 2, 0 }, 4, 0, 17, 0, -1, -1, NULL, 0 },
	{ "v4 bad udp csum", VXGBP_LINK_ETHERNET, 4, 0, { 0 }, { 0 }, NULL, 0, 50001, 4789,
	  VXGBP_CSUM_BAD, 0, { GI, 0x300, 3, 0 }, 4, 0, 6, 1, -1, -1, NULL, 0 },
	{ "v6 outer, inner v4 udp", VXGBP_LINK_ETHERNET, 6, 0, { 0 }, { 0 }, NULL, 0, 50002, 4789, 0, 0,
	  { GI, 0x1234, 4, 0 }, 4, 0, 17, 33, -1, -1, NULL, 0 },
	{ "v6 hop-by-hop, inner icmpv6", VXGBP_LINK_ETHERNET, 6, 0, { 0 }, { 0 }, hbh_ra,
	  sizeof(hbh_ra), 50003, 4789, 0, 0, { GI | VXGBP_F_D | VXGBP_F_A, 5, 5, 0 }, 6, 0, 58, 8,
	  -1, -1, NULL, 0 },
	{ "v6 vlan calipso, inner vlan", VXGBP_LINK_ETHERNET, 6, 1, { 0 }, { 4094 }, hbh_calipso,
	  sizeof(hbh_calipso), 50004, 4789, 0, 0, { GI, 0x600, 6, 0 }, 4, 1, 6, 3, -1, 2, NULL, 0 },
	{ "v6 zero udp csum", VXGBP_LINK_ETHERNET, 6, 0, { 0 }, { 0 }, NULL, 0, 50005, 4789,
	  VXGBP_CSUM_ZERO, 0, { GI, 0x700, 7, 0 }, 6, 0, 6, 0, -1, -1, NULL, 0 },
	{ "custom port 6000, low sport", VXGBP_LINK_ETHERNET, 4, 0, { 0 }, { 0 }, NULL, 0, 1234, 6000,
	  0, 6000, { GI, 0x800, 8, 0 }, 4, 2, 17, 5, -1, -1, NULL, 0 },
	{ "linux sll", VXGBP_LINK_LINUX_SLL, 4, 0, { 0 }, { 0 }, NULL, 0, 50006, 4789, 0, 0,
	  { GI, 0x900, 9, 0 }, 6, 0, 6, 2, -1, -1, NULL, 0 },
	{ "linux sll2 v6", VXGBP_LINK_LINUX_SLL2, 6, 0, { 0 }, { 0 }, NULL, 0, 50007, 8472, 0, 0,
	  { GI, 0xa00, 10, 0 }, 4, 0, 1, 0, -1, -1, NULL, 0 },
	{ "raw v4", VXGBP_LINK_RAW, 4, 0, { 0 }, { 0 }, opt_rr, sizeof(opt_rr), 50008, 4789, 0, 0,
	  { GI, 0xb00, 11, 0 }, 4, 0, 6, 9, -1, -1, NULL, 0 },
	{ "raw ipv6 link type", VXGBP_LINK_IPV6, 6, 0, { 0 }, { 0 }, hbh_ra, sizeof(hbh_ra), 50009, 4789,
	  0, 0, { GI, 0xc00, 12, 0 }, 6, 0, 17, 1, -1, -1, NULL, 0 },
	{ "non-conforming header", VXGBP_LINK_ETHERNET, 4, 0, { 0 }, { 0 }, NULL, 0, 50010, 4789, 0, 0,
	  { 0x7377, 0x55, 0xabcdef, 0x99 }, 4, 0, 17, 4, -1, -1, NULL, 0 },
	{ "raw ipv4 link type, arp with inner 802.1ad", VXGBP_LINK_IPV4, 4, 0, { 0 }, { 0 }, NULL, 0,
	  50011, 4789, 0, 0, { GI, 0xd00, 13, 0 }, IN_ARP, 2, 0, 0, -1, -1, NULL, 0 },
	{ "inner ipv4 options", VXGBP_LINK_ETHERNET, 4, 0, { 0 }, { 0 }, NULL, 0, 50012, 4789, 0, 0,
	  { GI, 0xe00, 14, 0 }, 4, 0, 17, 6, -1, -1, opt_rr, sizeof(opt_rr) },
	{ "inner ipv6 hop-by-hop", VXGBP_LINK_ETHERNET, 6, 0, { 0 }, { 0 }, NULL, 0, 50013, 4789, 0, 0,
	  { GI, 0xf00, 15, 0 }, 6, 0, 6, 6, -1, -1, hbh_ra, sizeof(hbh_ra) },
	{ "v6 vlan, inner v4 tcp", VXGBP_LINK_ETHERNET, 6, 1, { 0 }, { 0x3007 }, NULL, 0, 50014,
	  4789, 0, 0, { GI, 0xf01, 16, 0 }, 4, 0, 6, 40, -1, -1, NULL, 0 },
	{ "v4 802.1ad tag, inner v4 tcp", VXGBP_LINK_ETHERNET, 4, 1, { 0x88a8 }, { 7 }, NULL, 0, 50015,
	  4789, 0, 0, { GI, 0xf02, 17, 0 }, 4, 0, 6, 12, -1, -1, NULL, 0 },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

struct bnd {
	size_t off;
	const char *layer;
};

struct lay {
	size_t len, link_len, l2, l3, l3_hlen, l4, vx, il2, il3, il3_hlen, il4, needed, ilen;
	size_t ul4_len; /* inner L4 header bytes the parser needs */
	struct bnd b[24];
	size_t nb;
	unsigned have;
};

static void put16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

static uint16_t get16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

/* RFC 1071, written out here so the test does not check the library with
 * itself: the one's-complement sum of 16-bit words. */
static uint16_t sum16(const uint8_t *b, size_t n, uint32_t s)
{
	for (size_t i = 0; i < n; i++)
		s += (i & 1) ? b[i] : (uint32_t)b[i] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

static void bnd(struct lay *l, size_t off, const char *layer)
{
	l->b[l->nb].off = off;
	l->b[l->nb].layer = layer;
	l->nb++;
}

static size_t pad(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

/* Build a case into out; fill l with what the spec implies. */
static void build_case(const struct fcase *c, uint8_t *out, struct lay *l)
{
	uint8_t inner[512], payload[256];
	struct vxgbp_eth_spec oeth, ieth;
	struct vxgbp_ip_spec oip, iip;
	struct vxgbp_l4_spec udp, il4;
	int n;
	int eth = c->link == VXGBP_LINK_ETHERNET;

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 7 + 3);

	/* inner frame */
	memset(&ieth, 0, sizeof(ieth));
	memcpy(ieth.dst, imac_d, 6);
	memcpy(ieth.src, imac_s, 6);
	ieth.n_vlan = c->in_vlan;
	ieth.vlan_tpid[0] = c->in_vlan == 2 ? 0x88a8 : 0;
	ieth.vlan_tci[0] = 0x0123;
	ieth.vlan_tci[1] = 0x0456;
	if (c->iv == IN_ARP) {
		size_t o = 12;

		memcpy(inner, imac_d, 6);
		memset(inner, 0xff, 6);
		memcpy(inner + 6, imac_s, 6);
		for (unsigned i = 0; i < c->in_vlan; i++, o += 4) {
			put16(inner + o, i == 0 && c->in_vlan == 2 ? 0x88a8 : 0x8100);
			put16(inner + o + 2, ieth.vlan_tci[i]);
		}
		put16(inner + o, 0x0806);
		o += 2;
		put16(inner + o, 1);          /* Ethernet */
		put16(inner + o + 2, 0x0800); /* IPv4 */
		inner[o + 4] = 6;
		inner[o + 5] = 4;
		put16(inner + o + 6, 1);      /* request */
		memcpy(inner + o + 8, imac_s, 6);
		memcpy(inner + o + 14, i4s, 4);
		memset(inner + o + 18, 0, 6);
		memcpy(inner + o + 24, i4d, 4);
		l->ilen = o + 28;
	} else {
		memset(&iip, 0, sizeof(iip));
		iip.version = (uint8_t)c->iv;
		memcpy(iip.src, c->iv == 4 ? i4s : i6s, c->iv == 4 ? 4 : 16);
		memcpy(iip.dst, c->iv == 4 ? i4d : i6d, c->iv == 4 ? 4 : 16);
		iip.ttl = 33;
		iip.tos = 0x28;
		iip.ip_id = 0x4242;
		iip.flow_label = 0x12345;
		iip.options = c->iopts;
		iip.options_len = c->iopts_len;
		memset(&il4, 0, sizeof(il4));
		il4.proto = c->iproto;
		il4.sport = 40000;
		il4.dport = 80;
		il4.tcp_flags = 0x12;
		il4.tcp_seq = 0x01020304;
		il4.tcp_ack = 0xa0b0c0d0;
		il4.icmp_type = c->iproto == 58 ? 128 : 8;
		n = vxgbp_frame_build(inner, sizeof(inner), &ieth, &iip, &il4, payload, c->payload);
		ck_assert_int_gt(n, 0);
		l->ilen = (size_t)n;
	}

	/* outer */
	memset(&oeth, 0, sizeof(oeth));
	memcpy(oeth.dst, omac_d, 6);
	memcpy(oeth.src, omac_s, 6);
	oeth.n_vlan = c->n_vlan;
	memcpy(oeth.vlan_tpid, c->tpid, sizeof(oeth.vlan_tpid));
	memcpy(oeth.vlan_tci, c->tci, sizeof(oeth.vlan_tci));
	memset(&oip, 0, sizeof(oip));
	oip.version = (uint8_t)c->ov;
	memcpy(oip.src, c->ov == 4 ? o4s : o6s, c->ov == 4 ? 4 : 16);
	memcpy(oip.dst, c->ov == 4 ? o4d : o6d, c->ov == 4 ? 4 : 16);
	oip.tos = 0x10;
	oip.ip_id = 0x1111;
	oip.dont_frag = 1;
	oip.flow_label = 0xabcde;
	oip.options = c->opts;
	oip.options_len = c->opts_len;
	memset(&udp, 0, sizeof(udp));
	udp.proto = 17;
	udp.sport = c->sport;
	udp.dport = c->dport;
	udp.csum_mode = c->csum;

	switch (c->link) {
	case VXGBP_LINK_LINUX_SLL:
		l->link_len = 16;
		memset(out, 0, 16);
		put16(out, 4);     /* sent by us */
		put16(out + 2, 1);
		put16(out + 4, 6);
		memcpy(out + 6, omac_s, 6);
		put16(out + 14, c->ov == 4 ? 0x0800 : 0x86dd);
		bnd(l, 0, "sll");
		break;
	case VXGBP_LINK_LINUX_SLL2:
		l->link_len = 20;
		memset(out, 0, 20);
		put16(out, c->ov == 4 ? 0x0800 : 0x86dd);
		out[7] = 3; /* ifindex */
		put16(out + 8, 1);
		out[10] = 2;       /* multicast */
		out[11] = 6;
		memcpy(out + 12, omac_s, 6);
		bnd(l, 0, "sll2");
		break;
	case VXGBP_LINK_ETHERNET:
		break;
	default:
		bnd(l, 0, "raw");
		break;
	}
	n = vxgbp_vxlan_build(out + l->link_len, MAXF - l->link_len, eth ? &oeth : NULL, &oip, &udp,
			      &c->hdr, inner, l->ilen);
	ck_assert_int_gt(n, 0);
	l->len = l->link_len + (size_t)n;

	/* where everything must be */
	l->l2 = l->link_len;
	l->l3 = l->l2;
	if (eth) {
		bnd(l, l->l2, "eth");
		for (unsigned i = 0; i < c->n_vlan; i++)
			bnd(l, l->l2 + 14 + 4 * i, "vlan");
		l->l3 += 14 + 4 * c->n_vlan;
		l->have |= VXGBP_HAVE_L2;
	}
	bnd(l, l->l3, c->ov == 4 ? "ipv4" : "ipv6");
	if (c->ov == 4) {
		l->l3_hlen = 20 + pad(c->opts_len, 4);
	} else {
		l->l3_hlen = 40 + (c->opts_len ? pad(c->opts_len + 2, 8) : 0);
		if (c->opts_len)
			bnd(l, l->l3 + 40, "ipv6");
	}
	l->l4 = l->l3 + l->l3_hlen;
	bnd(l, l->l4, "udp");
	l->vx = l->l4 + 8;
	bnd(l, l->vx, "vxlan");
	l->il2 = l->vx + 8;
	bnd(l, l->il2, "inner-eth");
	for (unsigned i = 0; i < c->in_vlan; i++)
		bnd(l, l->il2 + 14 + 4 * i, "inner-vlan");
	l->il3 = l->il2 + 14 + 4 * c->in_vlan;
	l->have |= VXGBP_HAVE_L3 | VXGBP_HAVE_L4 | VXGBP_HAVE_VXLAN | VXGBP_HAVE_INNER_L2 |
		   VXGBP_HAVE_INNER_L3;
	if (c->iv == IN_ARP) {
		bnd(l, l->il3, "inner-arp");
		l->il3_hlen = 28;
		l->il4 = 0;
		l->needed = l->il3 + 28;
	} else {
		bnd(l, l->il3, c->iv == 4 ? "inner-ipv4" : "inner-ipv6");
		if (c->iv == 4) {
			l->il3_hlen = 20 + pad(c->iopts_len, 4);
		} else {
			l->il3_hlen = 40 + (c->iopts_len ? pad(c->iopts_len + 2, 8) : 0);
			if (c->iopts_len)
				bnd(l, l->il3 + 40, "inner-ipv6");
		}
		l->il4 = l->il3 + l->il3_hlen;
		bnd(l, l->il4, c->iproto == 6 ? "inner-tcp" : c->iproto == 17 ? "inner-udp" : "inner-icmp");
		l->ul4_len = c->iproto == 6 ? 20 : c->iproto == 17 ? 8 : 4;
		l->needed = l->il4 + l->ul4_len;
		l->have |= VXGBP_HAVE_INNER_L4;
	}
	ck_assert_uint_eq(l->il2 + l->ilen, l->len);
}

static struct vxgbp_parse_opts case_opts(const struct fcase *c)
{
	struct vxgbp_parse_opts o;

	vxgbp_parse_opts_init(&o);
	o.linktype = c->link;
	if (c->extra_port)
		ck_assert_int_eq(vxgbp_parse_opts_add_port(&o, c->extra_port), 0);
	return o;
}

static long poff(const uint8_t *p, const uint8_t *base)
{
	return p ? (long)(p - base) : -1;
}

static uint64_t expect_findings(const struct fcase *c)
{
	uint64_t f = vxgbp_hdr_check(&c->hdr);

	if (c->csum == VXGBP_CSUM_BAD)
		f |= RB(UDP_CSUM);
	if (c->csum == VXGBP_CSUM_ZERO && c->ov == 6)
		f |= RB(UDP_ZERO_CSUM6);
	if (c->in_vlan)
		f |= RB(INNER_VLAN);
	if (c->sport < 49152)
		f |= RB(SPORT_RANGE);
	return f;
}

/* Independent checksum verification of the built frame. */
static void verify_csums(const struct fcase *c, const uint8_t *f, const struct lay *l)
{
	uint32_t s;
	size_t ulen = l->len - l->l4;
	uint8_t ph[4] = { 0, 17, (uint8_t)(ulen >> 8), (uint8_t)ulen };

	if (c->ov == 4)
		EXPECT_EQ(sum16(f + l->l3, l->l3_hlen, 0), 0xffff);
	if (c->csum == VXGBP_CSUM_ZERO) {
		EXPECT_EQ(get16(f + l->l4 + 6), 0);
		return;
	}
	s = sum16(f + l->l3 + (c->ov == 4 ? 12 : 8), c->ov == 4 ? 8 : 32, 0);
	s = sum16(ph, 4, s);
	s = sum16(f + l->l4, ulen, s);
	EXPECT_EQ(s == 0xffff, c->csum != VXGBP_CSUM_BAD);
	EXPECT(get16(f + l->l4 + 6) != 0, "UDP checksum 0 though computed");
}

/* Every field of a whole-frame parse against the spec. */
static void check_full(const struct fcase *c, const uint8_t *f, const struct lay *l,
		       const struct vxgbp_pkt *p)
{
	const struct vxgbp_layers *o = &p->outer, *in = &p->inner;
	int eth = c->link == VXGBP_LINK_ETHERNET;
	size_t alen = c->ov == 4 ? 4 : 16;

	EXPECT_EQ(p->err, 0);
	EXPECT_EQ(p->err_off, -1);
	EXPECT(p->err_layer == NULL, "err_layer %s", p->err_layer);
	EXPECT_EQ(p->caplen, l->len);
	EXPECT_EQ(p->wirelen, l->len);
	EXPECT_EQ(p->have, l->have);
	/* the link header */
	EXPECT_EQ(p->has_cooked, c->link == VXGBP_LINK_LINUX_SLL || c->link == VXGBP_LINK_LINUX_SLL2);
	if (p->has_cooked) {
		int v2 = c->link == VXGBP_LINK_LINUX_SLL2;

		EXPECT_EQ(p->cooked.version, v2 ? 2 : 1);
		EXPECT_EQ(p->cooked.pkttype, v2 ? 2 : 4);
		EXPECT_EQ(p->cooked.hatype, 1);
		EXPECT_EQ(p->cooked.addr_len, 6);
		EXPECT_EQ(p->cooked.ifindex, v2 ? 3 : 0);
		EXPECT_EQ(p->cooked.proto, c->ov == 4 ? 0x0800 : 0x86dd);
		EXPECT_EQ(poff(p->cooked.addr, f), v2 ? 12 : 6);
		EXPECT_MEM(p->cooked.addr, omac_s, 6);
	}
	/* outer L2 */
	EXPECT_EQ(o->l2.ethertype, c->ov == 4 ? 0x0800 : 0x86dd);
	if (eth) {
		EXPECT_EQ(o->l2.off, l->l2);
		EXPECT_MEM(o->l2.dst, omac_d, 6);
		EXPECT_MEM(o->l2.src, omac_s, 6);
		EXPECT_EQ(poff(o->l2.dst, f), l->l2);
		EXPECT_EQ(o->l2.n_vlan, c->n_vlan);
		for (unsigned i = 0; i < c->n_vlan; i++) {
			EXPECT_EQ(o->l2.vlan_tpid[i], c->tpid[i] ? c->tpid[i] : 0x8100);
			EXPECT_EQ(o->l2.vlan_tci[i], c->tci[i]);
		}
	} else {
		EXPECT_EQ(o->l2.off, -1);
		EXPECT(o->l2.dst == NULL && o->l2.src == NULL, "MACs without L2");
	}
	/* outer L3 */
	EXPECT_EQ(o->l3.off, l->l3);
	EXPECT_EQ(o->l3.version, c->ov);
	EXPECT_EQ(o->l3.proto, 17);
	EXPECT_EQ(o->l3.ttl, 64);
	EXPECT_EQ(o->l3.tos, 0x10);
	EXPECT_EQ(o->l3.hdr_len, l->l3_hlen);
	EXPECT_EQ(o->l3.tot_len, l->len - l->l3);
	EXPECT_EQ(o->l3.frag_off, 0);
	EXPECT_EQ(o->l3.more_frags, 0);
	EXPECT_MEM(o->l3.src, c->ov == 4 ? o4s : o6s, alen);
	EXPECT_MEM(o->l3.dst, c->ov == 4 ? o4d : o6d, alen);
	EXPECT_EQ(poff(o->l3.src, f), l->l3 + (c->ov == 4 ? 12 : 8));
	if (c->ov == 4) {
		EXPECT_EQ(o->l3.ip_id, 0x1111);
		EXPECT_EQ(o->l3.dont_frag, 1);
		EXPECT_EQ(p->ip_csum_ok, 1);
	} else {
		EXPECT_EQ(o->l3.flow_label, 0xabcde);
		EXPECT_EQ(p->ip_csum_ok, -1);
	}
	if (c->opts_len) {
		EXPECT_EQ(o->l3.opt_off, l->l3 + (c->ov == 4 ? 20 : 40));
		EXPECT_EQ(o->l3.opt_len, l->l3_hlen - (c->ov == 4 ? 20 : 40));
	} else {
		EXPECT_EQ(o->l3.opt_off, -1);
		EXPECT_EQ(o->l3.opt_len, 0);
	}
	EXPECT_EQ(o->l3.cipso_off, c->cipso_at < 0 ? -1 : (long)(l->l3 + 20 + (size_t)c->cipso_at));
	if (c->cipso_at >= 0)
		EXPECT_EQ(o->l3.cipso_len, 10);
	EXPECT_EQ(o->l3.calipso_off, c->calipso_at < 0 ? -1 : (long)(l->l3 + 40 + (size_t)c->calipso_at));
	if (c->calipso_at >= 0)
		EXPECT_EQ(o->l3.calipso_len, 10);
	/* outer UDP */
	EXPECT_EQ(o->l4.off, l->l4);
	EXPECT_EQ(o->l4.proto, 17);
	EXPECT_EQ(o->l4.sport, c->sport);
	EXPECT_EQ(o->l4.dport, c->dport);
	EXPECT_EQ(o->l4.len, l->len - l->l4);
	EXPECT_EQ(o->l4.payload_len, l->len - l->l4 - 8);
	EXPECT_EQ(o->l4.csum, get16(f + l->l4 + 6));
	EXPECT_EQ(p->udp_csum_ok, c->csum == VXGBP_CSUM_ZERO ? -1 : c->csum == VXGBP_CSUM_BAD ? 0 : 1);
	/* VXLAN */
	EXPECT_EQ(p->vxlan_off, l->vx);
	EXPECT_EQ(p->vx.flags, c->hdr.flags);
	EXPECT_EQ(p->vx.group, c->hdr.group);
	EXPECT_EQ(p->vx.vni, c->hdr.vni);
	EXPECT_EQ(p->vx.rsvd, c->hdr.rsvd);
	EXPECT_EQ(p->findings & ~LABEL_RULES, expect_findings(c));
	/* inner L2 */
	EXPECT_EQ(in->l2.off, l->il2);
	EXPECT_MEM(in->l2.dst, c->iv == IN_ARP ? (const uint8_t *)"\xff\xff\xff\xff\xff\xff" : imac_d, 6);
	EXPECT_MEM(in->l2.src, imac_s, 6);
	EXPECT_EQ(in->l2.n_vlan, c->in_vlan);
	for (unsigned i = 0; i < c->in_vlan; i++) {
		EXPECT_EQ(in->l2.vlan_tpid[i], i == 0 && c->in_vlan == 2 ? 0x88a8 : 0x8100);
		EXPECT_EQ(in->l2.vlan_tci[i], i ? 0x0456 : 0x0123);
	}
	/* inner L3/L4 */
	EXPECT_EQ(in->l3.off, l->il3);
	if (c->iv == IN_ARP) {
		EXPECT_EQ(in->l2.ethertype, 0x0806);
		EXPECT_EQ(in->l3.version, 0);
		EXPECT_EQ(in->l3.arp_op, 1);
		EXPECT_EQ(in->l3.arp_hrd, 1);
		EXPECT_EQ(in->l3.arp_pro, 0x0800);
		EXPECT_EQ(in->l3.arp_hln, 6);
		EXPECT_EQ(in->l3.arp_pln, 4);
		EXPECT_MEM(in->l3.arp_sha, imac_s, 6);
		EXPECT_MEM(in->l3.arp_spa, i4s, 4);
		EXPECT_MEM(in->l3.arp_tha, "\0\0\0\0\0\0", 6);
		EXPECT_EQ(in->l3.arp_tha - in->l3.arp_spa, 4);
		EXPECT_MEM(in->l3.arp_tpa, i4d, 4);
		EXPECT_EQ(in->l4.off, -1);
		return;
	}
	EXPECT_EQ(in->l2.ethertype, c->iv == 4 ? 0x0800 : 0x86dd);
	EXPECT_EQ(in->l3.version, c->iv);
	EXPECT_EQ(in->l3.proto, c->iproto);
	EXPECT_EQ(in->l3.ttl, 33);
	EXPECT_EQ(in->l3.tos, 0x28);
	EXPECT_EQ(in->l3.hdr_len, l->il3_hlen);
	EXPECT_EQ(in->l3.tot_len, l->len - l->il3);
	EXPECT_MEM(in->l3.src, c->iv == 4 ? i4s : i6s, c->iv == 4 ? 4 : 16);
	EXPECT_MEM(in->l3.dst, c->iv == 4 ? i4d : i6d, c->iv == 4 ? 4 : 16);
	if (c->iv == 4)
		EXPECT_EQ(in->l3.ip_id, 0x4242);
	else
		EXPECT_EQ(in->l3.flow_label, 0x12345);
	if (c->iopts_len) {
		EXPECT_EQ(in->l3.opt_off, l->il3 + (c->iv == 4 ? 20 : 40));
		EXPECT_EQ(in->l3.opt_len, l->il3_hlen - (c->iv == 4 ? 20 : 40));
	} else {
		EXPECT_EQ(in->l3.opt_off, -1);
	}
	EXPECT_EQ(in->l4.off, l->il4);
	EXPECT_EQ(in->l4.proto, c->iproto);
	if (c->iproto == 6) {
		EXPECT_EQ(in->l4.sport, 40000);
		EXPECT_EQ(in->l4.dport, 80);
		EXPECT_EQ(in->l4.tcp_flags, 0x12);
		EXPECT_EQ(in->l4.tcp_seq, 0x01020304);
		EXPECT_EQ(in->l4.tcp_ack, 0xa0b0c0d0);
		EXPECT_EQ(in->l4.tcp_win, 65535); /* the builder's */
		EXPECT_EQ(in->l4.tcp_urg, 0);
		EXPECT_EQ(in->l4.tcp_hlen, 20);
		EXPECT_EQ(in->l4.payload_len, c->payload);
	} else if (c->iproto == 17) {
		EXPECT_EQ(in->l4.sport, 40000);
		EXPECT_EQ(in->l4.dport, 80);
		EXPECT_EQ(in->l4.len, 8 + c->payload);
		EXPECT_EQ(in->l4.payload_len, c->payload);
	} else {
		EXPECT_EQ(in->l4.icmp_type, c->iproto == 58 ? 128 : 8);
		EXPECT_EQ(in->l4.icmp_code, 0);
		EXPECT_EQ(in->l4.sport, 40000); /* echo identifier */
		EXPECT_EQ(in->l4.dport, 80);    /* echo sequence */
	}
	/* inner L4 checksum: the builder's, verified here */
	{
		size_t seg = l->len - l->il4;
		uint32_t s = 0;

		if (c->iproto != 1) {
			uint8_t ph[4] = { 0, c->iproto, (uint8_t)(seg >> 8), (uint8_t)seg };

			s = sum16(f + l->il3 + (c->iv == 4 ? 12 : 8), c->iv == 4 ? 8 : 32, 0);
			s = sum16(ph, 4, s);
		}
		EXPECT_EQ(sum16(f + l->il4, seg, s), 0xffff);
	}
	if (c->iv == 4)
		EXPECT_EQ(sum16(f + l->il3, l->il3_hlen, 0), 0xffff);
}

/* Same layer contents, with pointers compared as offsets from each base. */
static void same_layers(const struct vxgbp_layers *a, const uint8_t *ab,
			const struct vxgbp_layers *b, const uint8_t *bb, unsigned have, int inner,
			int icmp_echo)
{
	unsigned h2 = inner ? VXGBP_HAVE_INNER_L2 : VXGBP_HAVE_L2;
	unsigned h3 = inner ? VXGBP_HAVE_INNER_L3 : VXGBP_HAVE_L3;
	unsigned h4 = inner ? VXGBP_HAVE_INNER_L4 : VXGBP_HAVE_L4;

	if (have & h2) {
		EXPECT_EQ(a->l2.off, b->l2.off);
		EXPECT_EQ(poff(a->l2.dst, ab), poff(b->l2.dst, bb));
		EXPECT_EQ(poff(a->l2.src, ab), poff(b->l2.src, bb));
		EXPECT_EQ(a->l2.n_vlan, b->l2.n_vlan);
		EXPECT(!memcmp(a->l2.vlan_tci, b->l2.vlan_tci, sizeof(a->l2.vlan_tci)) &&
		       !memcmp(a->l2.vlan_tpid, b->l2.vlan_tpid, sizeof(a->l2.vlan_tpid)), "VLANs differ");
		EXPECT_EQ(a->l2.ethertype, b->l2.ethertype);
	}
	if (have & h3) {
		struct vxgbp_l3 x = a->l3, y = b->l3;

		EXPECT_EQ(poff(x.src, ab), poff(y.src, bb));
		EXPECT_EQ(poff(x.dst, ab), poff(y.dst, bb));
		EXPECT_EQ(poff(x.arp_spa, ab), poff(y.arp_spa, bb));
		EXPECT_EQ(poff(x.arp_tpa, ab), poff(y.arp_tpa, bb));
		EXPECT_EQ(poff(x.arp_sha, ab), poff(y.arp_sha, bb));
		EXPECT_EQ(poff(x.arp_tha, ab), poff(y.arp_tha, bb));
		x.src = x.dst = x.arp_spa = x.arp_tpa = x.arp_sha = x.arp_tha = NULL;
		y.src = y.dst = y.arp_spa = y.arp_tpa = y.arp_sha = y.arp_tha = NULL;
		EXPECT(memcmp(&x, &y, sizeof(x)) == 0, "L3 differs");
	}
	if (have & h4) {
		struct vxgbp_l4 x = a->l4, y = b->l4;

		if (!icmp_echo && (x.proto == 1 || x.proto == 58)) {
			EXPECT_EQ(y.sport, 0);
			EXPECT_EQ(y.dport, 0);
			x.sport = x.dport = 0;
		}
		EXPECT(memcmp(&x, &y, sizeof(x)) == 0, "L4 differs");
	}
}

/* One case: whole frame, every prefix at a page end, short frames. */
static void run_case(const struct fcase *c, struct guard *gp)
{
	static uint8_t f[MAXF];
	struct vxgbp_parse_opts o = case_opts(c);
	struct vxgbp_pkt full = { .size = sizeof(full) }, p = { .size = sizeof(p) };
	const uint8_t *fb;
	struct lay l;
	int prev_off = -1;

	CTX("%s: build", c->name);
	build_case(c, f, &l);
	verify_csums(c, f, &l);
	CTX("%s: whole frame", c->name);
	fb = guard_place(gp, f, l.len);
	EXPECT_EQ(vxgbp_pkt_parse(&full, fb, l.len, l.len, &o), 0);
	check_full(c, fb, &l, &full);

	for (size_t n = 0; n <= l.len; n++) {
		const uint8_t *pb = guard_place(gp, f, n);
		int r;

		CTX("%s: prefix %zu of %zu", c->name, n, l.len);
		r = vxgbp_pkt_parse(&p, pb, n, l.len, &o);
		EXPECT_EQ(r, p.err);
		EXPECT_EQ(p.caplen, n);
		EXPECT_EQ(p.wirelen, l.len);
		if (n >= l.needed) {
			int csum_whole = n == l.len;

			EXPECT_EQ(r, 0);
			EXPECT_EQ(p.have, full.have);
			EXPECT_EQ(p.vxlan_off, full.vxlan_off);
			EXPECT(memcmp(&p.vx, &full.vx, sizeof(p.vx)) == 0, "VXLAN header differs");
			EXPECT_EQ(p.ip_csum_ok, full.ip_csum_ok);
			EXPECT_EQ(p.udp_csum_ok, csum_whole ? full.udp_csum_ok : -1);
			EXPECT_EQ(p.findings, csum_whole ? full.findings
							 : full.findings & ~RB(UDP_CSUM));
			same_layers(&full.outer, fb, &p.outer, pb, full.have, 0, 1);
			same_layers(&full.inner, fb, &p.inner, pb, full.have, 1,
				    n >= l.il4 + 8);
			continue;
		}
		/* cut inside the headers: truncated, where it was cut */
		{
			unsigned want_have = 0;
			size_t next = l.needed;
			int in_set = 0;

			EXPECT_EQ(r, VXGBP_E_TRUNCATED);
			EXPECT(p.err_layer != NULL, "no err_layer");
			EXPECT(p.err_off >= 0 && (size_t)p.err_off <= n, "err_off %d", p.err_off);
			EXPECT(p.err_off >= prev_off, "err_off went back: %d < %d", p.err_off, prev_off);
			prev_off = p.err_off;
			for (size_t i = 0; i < l.nb; i++) {
				if (l.b[i].off == (size_t)p.err_off &&
				    strcmp(l.b[i].layer, p.err_layer) == 0)
					in_set = 1;
				if (l.b[i].off > (size_t)p.err_off && l.b[i].off < next)
					next = l.b[i].off;
			}
			EXPECT(in_set, "stopped at %d in %s: not a header start", p.err_off,
			       p.err_layer);
			EXPECT(next > n, "stopped at %s (%d) but the header there is complete",
			       p.err_layer, p.err_off);
			EXPECT(p.findings & RB(TRUNCATED), "no frame.truncated finding");
			EXPECT(!(p.findings & RB(MALFORMED)), "malformed by truncation");
			/* exactly the complete layers */
			if ((full.have & VXGBP_HAVE_L2) && n >= l.l3)
				want_have |= VXGBP_HAVE_L2;
			if (n >= l.l4)
				want_have |= VXGBP_HAVE_L3;
			if (n >= l.vx)
				want_have |= VXGBP_HAVE_L4;
			if (n >= l.il2)
				want_have |= VXGBP_HAVE_VXLAN;
			if (n >= l.il3)
				want_have |= VXGBP_HAVE_INNER_L2;
			if (c->iv != IN_ARP && n >= l.il4)
				want_have |= VXGBP_HAVE_INNER_L3;
			EXPECT_EQ(p.have, want_have);
			same_layers(&full.outer, fb, &p.outer, pb, p.have, 0, 1);
			same_layers(&full.inner, fb, &p.inner, pb, p.have, 1, 1);
			if (p.have & VXGBP_HAVE_VXLAN)
				EXPECT(memcmp(&p.vx, &full.vx, sizeof(p.vx)) == 0, "VXLAN header differs");
			else
				EXPECT_EQ(p.vxlan_off, -1);
		}
	}
	/* caplen == wirelen: a short frame may be malformed, never over-read */
	for (size_t n = 0; n < l.len; n++) {
		const uint8_t *pb = guard_place(gp, f, n);
		int r;

		CTX("%s: short frame %zu of %zu", c->name, n, l.len);
		r = vxgbp_pkt_parse(&p, pb, n, n, &o);
		EXPECT(r == 0 || r == VXGBP_E_TRUNCATED || r == VXGBP_E_MALFORMED, "r = %d", r);
		EXPECT(r == 0 || (p.err_off >= 0 && (size_t)p.err_off <= n), "err_off %d", p.err_off);
	}
}

START_TEST(test_frames)
{
	struct guard g;

	ck_assert_int_eq(guard_init(&g, MAXF), 0);
	for (size_t ci = 0; ci < NCASES; ci++)
		run_case(&cases[ci], &g);
	guard_free(&g);
}
END_TEST

/* Pseudo-random specs (fixed seed) through the same checks: sizes, option
 * lengths, VLAN stacks, link types and header bits the table does not have. */
START_TEST(test_random_frames)
{
	static uint8_t o4[40], o6[64];
	unsigned long long s = 0x5eed;
	struct guard g;

	ck_assert_int_eq(guard_init(&g, MAXF), 0);
	for (int it = 0; it < 400; it++) {
		static const uint16_t tpids[] = { 0, 0x8100, 0x88a8, 0x9100 };
		static const int links4[] = { VXGBP_LINK_ETHERNET, VXGBP_LINK_LINUX_SLL,
					      VXGBP_LINK_LINUX_SLL2, VXGBP_LINK_RAW, VXGBP_LINK_IPV4 };
		static const int links6[] = { VXGBP_LINK_ETHERNET, VXGBP_LINK_LINUX_SLL,
					      VXGBP_LINK_LINUX_SLL2, VXGBP_LINK_RAW, VXGBP_LINK_IPV6 };
		struct fcase c;
		unsigned long long x = unit_rand(&s), y = unit_rand(&s);
		char name[64];
		size_t n;

		memset(&c, 0, sizeof(c));
		snprintf(name, sizeof(name), "random spec %d", it);
		c.name = name;
		c.ov = x & 1 ? 6 : 4;
		c.link = (c.ov == 4 ? links4 : links6)[(x >> 1) % 5];
		if (c.link == VXGBP_LINK_ETHERNET) {
			c.n_vlan = (unsigned)((x >> 4) % 3);
			for (unsigned i = 0; i < c.n_vlan; i++) {
				c.tpid[i] = tpids[(x >> (6 + 2 * i)) & 3];
				c.tci[i] = (uint16_t)(y >> (16 * i));
			}
		}
		c.cipso_at = c.calipso_at = -1;
		switch ((x >> 10) & 3) {
		case 1:
			c.opts = c.ov == 4 ? opt_cipso : hbh_calipso;
			c.opts_len = c.ov == 4 ? sizeof(opt_cipso) : sizeof(hbh_calipso);
			if (c.ov == 4)
				c.cipso_at = 1;
			else
				c.calipso_at = 2;
			break;
		case 2: /* NOPs / one PadN of a random length */
			n = 1 + (size_t)((x >> 12) % (c.ov == 4 ? 40 : 60));
			if (c.ov == 4) {
				memset(o4, 1, n);
				c.opts = o4;
			} else {
				memset(o6, 0, sizeof(o6));
				if (n > 1) {
					o6[0] = 1;
					o6[1] = (uint8_t)(n - 2);
				}
				c.opts = o6;
			}
			c.opts_len = n;
			break;
		case 3:
			c.opts = c.ov == 4 ? opt_rr : hbh_ra;
			c.opts_len = c.ov == 4 ? sizeof(opt_rr) : sizeof(hbh_ra);
			break;
		}
		c.sport = (uint16_t)(x >> 20);
		switch ((x >> 36) & 3) {
		case 0:
		case 1:
			c.dport = 4789;
			break;
		case 2:
			c.dport = 8472;
			break;
		case 3:
			c.dport = (uint16_t)(y >> 32) | 1;
			c.extra_port = c.dport;
			break;
		}
		c.csum = (int)((x >> 38) % 3);
		c.hdr.flags = (uint16_t)(y >> 48);
		if ((c.hdr.flags & (VXGBP_F_G | VXGBP_GPE_F_P)) == VXGBP_GPE_F_P)
			c.hdr.flags &= (uint16_t)~VXGBP_GPE_F_P; /* GPE: test_tunnel.c */
		c.hdr.group = (uint16_t)(y >> 8);
		c.hdr.vni = (uint32_t)(y >> 24) & VXGBP_VNI_MAX;
		c.hdr.rsvd = (x >> 40) & 7 ? 0 : (uint8_t)y;
		switch ((x >> 43) % 3) {
		case 0:
			c.iv = 4;
			break;
		case 1:
			c.iv = 6;
			break;
		default:
			c.iv = IN_ARP;
			break;
		}
		c.in_vlan = (unsigned)((x >> 45) % 4 == 3 ? (x >> 47) % 3 : 0);
		if (c.iv != IN_ARP) {
			static const uint8_t p4[] = { 6, 17, 1 }, p6[] = { 6, 17, 58 };

			c.iproto = (c.iv == 4 ? p4 : p6)[(x >> 49) % 3];
			c.payload = (size_t)((x >> 51) % 256);
			if (((x >> 59) & 3) == 0) {
				c.iopts = c.iv == 4 ? opt_rr : hbh_ra;
				c.iopts_len = c.iv == 4 ? sizeof(opt_rr) : sizeof(hbh_ra);
			}
		}
		run_case(&c, &g);
	}
	guard_free(&g);
}
END_TEST

/* ---- malformed frames ---- */

enum mut {
	M_IHL4,
	M_TOT_BEYOND,
	M_TOT_LT_IHL,
	M_VERSION,
	M_UDP_LEN7,
	M_UDP_BEYOND,
	M_V6_PLEN,
	M_OPT_LEN1,
	M_OPT_LEN_BEYOND,
	M_HBH_OPT_LEN,
	M_HBH_LEN,
	M_INNER_IHL4,
	M_INNER_TCP_DOFF,
	M_INNER_V6_PLEN,
	M_INNER_UDP_LEN,
	M_UDP_SHORT_INNER_ETH,
	M_INNER_OPT_LEN,
	M_INNER_HBH_OPT_LEN,
};

static const struct mcase {
	const char *name;
	size_t ci;            /* base case */
	enum mut m;
	const char *layer;
} mcases[] = {
	{ "IHL 4", 0, M_IHL4, "ipv4" },
	{ "IPv4 total length beyond the frame", 0, M_TOT_BEYOND, "ipv4" },
	{ "IPv4 total length below IHL", 5, M_TOT_LT_IHL, "ipv4" },
	{ "IPv4 ethertype, version 6", 2, M_VERSION, "ipv4" },
	{ "UDP length 7", 0, M_UDP_LEN7, "udp" },
	{ "UDP length beyond IP payload", 6, M_UDP_BEYOND, "udp" },
	{ "UDP length beyond IPv4 payload", 1, M_UDP_BEYOND, "udp" },
	{ "IPv6 payload length beyond frame", 6, M_V6_PLEN, "ipv6" },
	{ "IPv4 option length 1", 3, M_OPT_LEN1, "ipv4-options" },
	{ "IPv4 option length beyond options", 3, M_OPT_LEN_BEYOND, "ipv4-options" },
	{ "IPv4 rr option length beyond options", 4, M_OPT_LEN_BEYOND, "ipv4-options" },
	{ "hop-by-hop option length beyond header", 7, M_HBH_OPT_LEN, "ipv6-hbh" },
	{ "hop-by-hop header beyond payload", 7, M_HBH_LEN, "ipv6" },
	{ "inner IHL 4", 0, M_INNER_IHL4, "inner-ipv4" },
	{ "inner TCP data offset 4", 0, M_INNER_TCP_DOFF, "inner-tcp" },
	{ "inner IPv6 payload beyond UDP", 1, M_INNER_V6_PLEN, "inner-ipv6" },
	{ "inner UDP length beyond", 6, M_INNER_UDP_LEN, "inner-udp" },
	{ "outer UDP too short for the inner Ethernet", 0, M_UDP_SHORT_INNER_ETH, "inner-eth" },
	{ "inner IPv4 option length beyond options", 17, M_INNER_OPT_LEN, "inner-ipv4-options" },
	{ "inner hop-by-hop option length beyond header", 18, M_INNER_HBH_OPT_LEN, "inner-ipv6-hbh" },
};

/* Apply a mutation; return the offset the parser must report. */
static size_t mutate(uint8_t *f, const struct lay *l, enum mut m)
{
	switch (m) {
	case M_IHL4:
		f[l->l3] = 0x44;
		return l->l3;
	case M_TOT_BEYOND:
		put16(f + l->l3 + 2, (uint16_t)(l->len - l->l3 + 1));
		return l->l3;
	case M_TOT_LT_IHL:
		put16(f + l->l3 + 2, 19);
		return l->l3;
	case M_VERSION:
		f[l->l3] = 0x65;
		return l->l3;
	case M_UDP_LEN7:
		put16(f + l->l4 + 4, 7);
		return l->l4;
	case M_UDP_BEYOND:
		put16(f + l->l4 + 4, (uint16_t)(l->len - l->l4 + 1));
		return l->l4;
	case M_V6_PLEN:
		put16(f + l->l3 + 4, (uint16_t)(l->len - l->l3 - 40 + 1));
		return l->l3;
	case M_OPT_LEN1: /* the first non-NOP option */
		f[l->l3 + 22] = 1;
		return l->l3 + 21;
	case M_OPT_LEN_BEYOND:
		if (f[l->l3 + 20] == 1) {
			f[l->l3 + 22] = (uint8_t)(l->l3_hlen - 20); /* one more than is left */
			return l->l3 + 21;
		}
		f[l->l3 + 21] = (uint8_t)(l->l3_hlen - 20 + 1);
		return l->l3 + 20;
	case M_HBH_OPT_LEN:
		f[l->l3 + 43] = 5; /* router alert in an 8-byte header */
		return l->l3 + 42;
	case M_HBH_LEN:
		f[l->l3 + 41] = 255;
		return l->l3 + 40;
	case M_INNER_IHL4:
		f[l->il3] = 0x43;
		return l->il3;
	case M_INNER_TCP_DOFF:
		f[l->il4 + 12] = 0x40;
		return l->il4;
	case M_INNER_V6_PLEN:
		put16(f + l->il3 + 4, (uint16_t)(l->len - l->il3 - 40 + 1));
		return l->il3;
	case M_INNER_UDP_LEN:
		put16(f + l->il4 + 4, (uint16_t)(l->len - l->il4 + 1));
		return l->il4;
	case M_UDP_SHORT_INNER_ETH: {
		uint16_t ulen = 8 + 8 + 10;

		put16(f + l->l4 + 4, ulen);
		put16(f + l->l3 + 2, (uint16_t)(l->l3_hlen + ulen));
		return l->il2;
	}
	case M_INNER_OPT_LEN: /* record route, 7 bytes in an 8-byte area */
		f[l->il3 + 21] = 9;
		return l->il3 + 20;
	case M_INNER_HBH_OPT_LEN:
		f[l->il3 + 43] = 5;
		return l->il3 + 42;
	}
	return 0;
}

START_TEST(test_malformed)
{
	static uint8_t f[MAXF];
	struct guard g;

	ck_assert_int_eq(guard_init(&g, MAXF), 0);
	for (size_t mi = 0; mi < sizeof(mcases) / sizeof(mcases[0]); mi++) {
		const struct mcase *mc = &mcases[mi];
		const struct fcase *c = &cases[mc->ci];
		struct vxgbp_parse_opts o = case_opts(c);
		struct vxgbp_pkt p = { .size = sizeof(p) };
		struct lay l;
		size_t at;
		int seen_malformed = 0;

		CTX("%s", mc->name);
		build_case(c, f, &l);
		at = mutate(f, &l, mc->m);
		EXPECT_EQ(vxgbp_pkt_parse(&p, guard_place(&g, f, l.len), l.len, l.len, &o),
			  VXGBP_E_MALFORMED);
		EXPECT_EQ(p.err, VXGBP_E_MALFORMED);
		EXPECT_STR(p.err_layer, mc->layer);
		EXPECT_EQ(p.err_off, at);
		EXPECT(p.findings & RB(MALFORMED), "no frame.malformed finding");
		EXPECT(!(p.findings & RB(TRUNCATED)), "frame.truncated on a whole frame");
		/* every prefix: truncated, then malformed once the bad field is in */
		for (size_t n = 0; n <= l.len; n++) {
			int r;

			CTX("%s: prefix %zu of %zu", mc->name, n, l.len);
			r = vxgbp_pkt_parse(&p, guard_place(&g, f, n), n, l.len, &o);
			EXPECT(r == VXGBP_E_TRUNCATED || r == VXGBP_E_MALFORMED, "r = %d", r);
			EXPECT(p.err_off >= 0 && (size_t)p.err_off <= n, "err_off %d", p.err_off);
			if (seen_malformed)
				EXPECT_EQ(r, VXGBP_E_MALFORMED);
			if (r == VXGBP_E_MALFORMED) {
				seen_malformed = 1;
				EXPECT_STR(p.err_layer, mc->layer);
				EXPECT_EQ(p.err_off, at);
			}
			r = vxgbp_pkt_parse(&p, guard_place(&g, f, n), n, n, &o);
			EXPECT(r == VXGBP_E_TRUNCATED || r == VXGBP_E_MALFORMED, "r = %d", r);
		}
	}
	guard_free(&g);
}
END_TEST

/* Random byte flips in every test frame, parsed at a page end: whatever
 * comes back, nothing is read past the frame and the result is coherent. */
START_TEST(test_mutations)
{
	static uint8_t f[MAXF], m[MAXF];
	unsigned long long s = 0xfeedbeef;
	struct guard g;

	ck_assert_int_eq(guard_init(&g, MAXF), 0);
	for (size_t ci = 0; ci < NCASES; ci++) {
		const struct fcase *c = &cases[ci];
		struct vxgbp_parse_opts o = case_opts(c);
		struct lay l;

		build_case(c, f, &l);
		for (int it = 0; it < 3000; it++) {
			struct vxgbp_pkt p = { .size = sizeof(p) };
			size_t n = (size_t)(unit_rand(&s) % (l.len + 1));
			int flips = 1 + (int)(unit_rand(&s) % 4), r;

			memcpy(m, f, l.len);
			for (int k = 0; k < flips; k++) {
				/* mostly header bytes */
				size_t at = (size_t)(unit_rand(&s) % (l.needed + 4 < l.len ? l.needed + 4 : l.len));

				m[at] = (uint8_t)unit_rand(&s);
			}
			r = vxgbp_pkt_parse(&p, guard_place(&g, m, n), n, l.len, &o);
			unit_nchecks++;
			if (!(r == 0 || r == VXGBP_E_TRUNCATED || r == VXGBP_E_MALFORMED) || r != p.err ||
			    (r && (p.err_off < 0 || (size_t)p.err_off > n || !p.err_layer)) ||
			    (!r && (p.err_off != -1 || p.err_layer))) {
				CTX("%s: mutation %d, %zu bytes", c->name, it, n);
				EXPECT(0, "r %d err %d off %d layer %s", r, p.err, p.err_off,
				       p.err_layer ? p.err_layer : "-");
			}
		}
	}
	guard_free(&g);
}
END_TEST

/* ---- the one-pass parser of the common shape (pkt_fast.c) ---- */

/* Two parses agree byte for byte: everything up to the arrays, the
 * entries of encap[] and nested[] their counts make valid, and the cooked
 * header when there is one. */
static int pkt_differ(const struct vxgbp_pkt *a, const struct vxgbp_pkt *b)
{
	return memcmp(a, b, offsetof(struct vxgbp_pkt, encap)) ||
	       memcmp(a->encap, b->encap, a->n_encap * sizeof(a->encap[0])) ||
	       memcmp(a->nested, b->nested, a->n_nested * sizeof(a->nested[0])) ||
	       (a->has_cooked && memcmp(&a->cooked, &b->cooked, sizeof(a->cooked)));
}

/* The same frame parsed both ways gives the same struct, byte for byte
 * (both start from the same cleared struct; pointers point into the same
 * frame).  Returns 1 when the fast path took the frame. */
static int same_both_ways(const uint8_t *f, size_t n, size_t wire,
			  const struct vxgbp_parse_opts *o)
{
	struct vxgbp_parse_opts og = *o;
	struct vxgbp_pkt a = { .size = sizeof(a) }, b = { .size = sizeof(b) }, z = { .size = sizeof(z) };
	int ra, rb, took;

	og.flags |= VXGBP_PARSE_GENERIC;
	ra = vxgbp_pkt_parse(&a, f, n, wire, o);
	rb = vxgbp_pkt_parse(&b, f, n, wire, &og);
	unit_nchecks++;
	if (ra != rb || pkt_differ(&a, &b)) {
		EXPECT(0, "fast %d and generic %d parses differ (%zu of %zu bytes, have %#x/%#x, "
		       "findings %#llx/%#llx)", ra, rb, n, wire, a.have, b.have,
		       (unsigned long long)a.findings, (unsigned long long)b.findings);
		return 0;
	}
	/* did the fast path take it?  (its own result, on a copy) */
	vxgbpi_pkt_init(&z); /* as vxgbp_pkt_parse() starts */
	z.caplen = (uint32_t)n;
	z.wirelen = (uint32_t)(wire < n ? n : wire);
	took = o->linktype == VXGBP_LINK_ETHERNET &&
	       vxgbpi_parse_fast(&z, f, n, wire < n ? n : wire, o);
	if (took && pkt_differ(&z, &a))
		EXPECT(0, "vxgbpi_parse_fast differs from vxgbp_pkt_parse (%zu bytes)", n);
	return took;
}

START_TEST(test_fast_path)
{
	static uint8_t f[MAXF], m[MAXF];
	unsigned long long s = 0xfa57;
	unsigned taken = 0, taken_full = 0;

	for (size_t ci = 0; ci < NCASES; ci++) {
		const struct fcase *c = &cases[ci];
		struct vxgbp_parse_opts o = case_opts(c), on = o;
		struct lay l;
		int common;

		on.flags |= VXGBP_PARSE_NO_CSUM;
		build_case(c, f, &l);
		/* the shape pkt_fast.c is for */
		common = c->link == VXGBP_LINK_ETHERNET && !c->opts &&
			 (!c->n_vlan || (c->n_vlan == 1 && (!c->tpid[0] || c->tpid[0] == 0x8100))) &&
			 c->iv == 4 && !c->in_vlan && !c->iopts &&
			 (c->iproto == 6 || c->iproto == 17 || c->iproto == 1);
		CTX("%s", c->name);
		if (same_both_ways(f, l.len, l.len, &o) != common)
			EXPECT(0, "%s: fast path %s", c->name, common ? "not taken" : "taken");
		taken_full += (unsigned)common;
		for (size_t n = 0; n <= l.len; n++) {
			taken += (unsigned)same_both_ways(f, n, l.len, &o);
			same_both_ways(f, n, n, &on);
			same_both_ways(f, n, l.len + 100, &o);
		}
		/* every header byte set to 0, 0xff and flipped in its low bit */
		for (size_t at = 0; at < l.needed + 4 && at < l.len; at++) {
			static const int vals[] = { 0x00, 0xff, -1 };

			for (size_t v = 0; v < 3; v++) {
				memcpy(m, f, l.len);
				m[at] = vals[v] < 0 ? (uint8_t)(f[at] ^ 1) : (uint8_t)vals[v];
				taken += (unsigned)same_both_ways(m, l.len, l.len, &o);
				same_both_ways(m, l.len, l.len, &on);
			}
		}
		for (int it = 0; it < 3000; it++) {
			size_t n = (size_t)(unit_rand(&s) % (l.len + 1));
			int flips = 1 + (int)(unit_rand(&s) % 4);

			memcpy(m, f, l.len);
			for (int k = 0; k < flips; k++) {
				size_t at = (size_t)(unit_rand(&s) % (l.needed + 4 < l.len ? l.needed + 4 : l.len));

				m[at] = (uint8_t)unit_rand(&s);
			}
			taken += (unsigned)same_both_ways(m, n, l.len, (it & 1) ? &on : &o);
		}
	}
	ck_assert_uint_gt(taken_full, 2);
	ck_assert_uint_gt(taken, 200); /* 429 when written */
}
END_TEST

/* Every truncation, wire length and one-byte change of the first hdr
 * bytes of f: the one-pass parse agrees with the layered one.  Returns
 * how often the one-pass parser took the frame. */
static unsigned fast_variants(const uint8_t *f, size_t len, size_t hdr,
			      const struct vxgbp_parse_opts *o)
{
	static uint8_t m[MAXF];
	struct vxgbp_parse_opts on = *o;
	unsigned taken = 0;

	on.flags |= VXGBP_PARSE_NO_CSUM;
	for (size_t n = 0; n <= len; n++) {
		taken += (unsigned)same_both_ways(f, n, len, o);
		same_both_ways(f, n, n, &on);
		same_both_ways(f, n, len + 100, o);
	}
	for (size_t at = 0; at < hdr && at < len; at++) {
		static const int vals[] = { 0x00, 0xff, -1 };

		for (size_t v = 0; v < 3; v++) {
			memcpy(m, f, len);
			m[at] = vals[v] < 0 ? (uint8_t)(f[at] ^ 1) : (uint8_t)vals[v];
			taken += (unsigned)same_both_ways(m, len, len, o);
			same_both_ways(m, len, len, &on);
		}
	}
	return taken;
}

/* f with an 802.1Q tag after the MAC addresses; its new length. */
static size_t add_tag(uint8_t *f, size_t n, uint16_t tci)
{
	memmove(f + 16, f + 12, n - 12);
	put16(f + 12, 0x8100);
	put16(f + 14, tci);
	return n + 4;
}

/* Frames that are not VXLAN (pkt_fast.c takes TCP, UDP to other ports,
 * ICMP over IPv4 or IPv6, with or without one tag, and ARP): the same
 * struct both ways, and the one-pass parser takes the whole frame. */
START_TEST(test_fast_not_vxlan)
{
	static uint8_t f[MAXF];
	static const uint8_t pl[40] = "a payload that is not a VXLAN header";
	static const struct { uint8_t proto; uint16_t dport; int fast; } l4s[] = {
		{ 6, 4789, 1 }, { 17, 53, 1 }, { 17, 4790, 0 }, { 17, 6081, 0 },
		{ 1, 0, 1 }, { 58, 0, 1 }, { 6, 443, 1 },
	};
	struct vxgbp_eth_spec eth = { .dst = { 1 }, .src = { 2 } };
	struct vxgbp_parse_opts o;
	unsigned taken = 0;

	vxgbp_parse_opts_init(&o);
	for (int v = 4; v <= 6; v += 2)
		for (size_t i = 0; i < sizeof(l4s) / sizeof(l4s[0]); i++)
			for (int tag = 0; tag < 2; tag++) {
				struct vxgbp_ip_spec ip = { .version = (uint8_t)v, .ttl = 9 };
				struct vxgbp_l4_spec l4 = { .proto = l4s[i].proto, .sport = 1000,
							    .dport = l4s[i].dport, .tcp_seq = 7,
							    .icmp_type = 8 };
				int n;
				size_t len;

				memcpy(ip.src, v == 4 ? o4s : o6s, v == 4 ? 4 : 16);
				memcpy(ip.dst, v == 4 ? o4d : o6d, v == 4 ? 4 : 16);
				CTX("v%d proto %u port %u tag %d", v, l4.proto, l4.dport, tag);
				n = vxgbp_frame_build(f, sizeof(f), &eth, &ip, &l4, pl, sizeof(pl));
				EXPECT(n > 0, "build %d", n);
				if (n <= 0)
					continue;
				len = tag ? add_tag(f, (size_t)n, 0x2005) : (size_t)n;
				EXPECT_EQ(same_both_ways(f, len, len, &o), l4s[i].fast);
				taken += fast_variants(f, len, len - sizeof(pl) + 4, &o);
			}
	/* ARP request, IPv4 over Ethernet; and one of another protocol */
	for (int kind = 0; kind < 2; kind++) {
		size_t len = 14 + 28;

		memset(f, 0, len);
		memcpy(f, "\xff\xff\xff\xff\xff\xff\x02\0\0\0\0\x01\x08\x06", 14);
		memcpy(f + 14, kind ? "\0\x01\x86\xdd\x06\x10\0\x01" : "\0\x01\x08\0\x06\x04\0\x01", 8);
		memcpy(f + 22, "\x02\0\0\0\0\x01\xc0\0\x02\x01", 10);
		memcpy(f + 38, "\xc0\0\x02\x02", 4);
		CTX("arp %d", kind);
		EXPECT_EQ(same_both_ways(f, len, len, &o), 1);
		taken += fast_variants(f, len, len, &o);
		len = add_tag(f, len, 3);
		EXPECT_EQ(same_both_ways(f, len, len, &o), 1);
		taken += fast_variants(f, len, len, &o);
	}
	ck_assert_uint_gt(taken, 1000);
}
END_TEST

/* ---- parse from where you are: the VXLAN payload, the inner frame ---- */

#define OUTER_RULES (RB(UDP_CSUM) | RB(UDP_ZERO_CSUM6) | RB(IP_CSUM) | RB(FRAGMENT) | \
		     RB(SPORT_RANGE) | RB(OUTER_TTL) | RB(CSUM_OFFLOAD) | RB(GSO_LENGTH))
#define ALL_LABEL_RULES (LABEL_RULES | RB(CIPSO_ALIGN) | RB(CIPSO_CAT_INVALID) | \
			 RB(CIPSO_BITMAP_PAD) | RB(CIPSO_LOCAL))
#define INNER_RULES (RB(INNER_VLAN) | RB(TRUNCATED) | RB(MALFORMED) | ALL_LABEL_RULES)

/* ls with every offset moved back by off, as a parse starting off bytes
 * later finds it (pointers stay: they point into the same bytes). */
static struct vxgbp_layers shifted(struct vxgbp_layers ls, int off)
{
	int *o[] = { &ls.l2.off, &ls.l3.off, &ls.l3.opt_off, &ls.l3.cipso_off,
		     &ls.l3.calipso_off, &ls.l4.off };

	for (size_t i = 0; i < sizeof(o) / sizeof(o[0]); i++)
		if (*o[i] >= 0)
			*o[i] -= off;
	return ls;
}

/* What a parse from byte off must agree on with the whole-frame parse a:
 * the inner layers, the VXLAN header (with_vx), the error and where, and
 * the findings of mask. */
static void same_from(const struct vxgbp_pkt *a, const struct vxgbp_pkt *b, int off,
		      int with_vx, uint64_t mask, const char *what)
{
	struct vxgbp_layers in = shifted(a->inner, off);
	unsigned have = a->have & (VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3 | VXGBP_HAVE_INNER_L4 |
				   (with_vx ? VXGBP_HAVE_VXLAN : 0));

	unit_nchecks++;
	if (memcmp(&in, &b->inner, sizeof(in)) || b->have != have ||
	    (b->findings ^ a->findings) & mask || b->err != a->err ||
	    (a->err && (b->err_off != a->err_off - off || strcmp(b->err_layer, a->err_layer))) ||
	    (with_vx && (b->vxlan_off != 0 || memcmp(&a->vx, &b->vx, sizeof(a->vx)))) ||
	    b->outer.l2.off != -1 || b->outer.l3.off != -1 || b->outer.l4.off != -1)
		EXPECT(0, "%s: from byte %d: have %#x/%#x findings %#llx/%#llx err %d/%d at %d/%d",
		       what, off, a->have, b->have, (unsigned long long)a->findings,
		       (unsigned long long)b->findings, a->err, b->err, a->err_off, b->err_off);
}

/* Parse f (n of wire bytes captured) whole, then again from its VXLAN
 * header and from its inner frame, and compare. */
static void entry_points_agree(const uint8_t *f, size_t n, size_t wire,
			       const struct vxgbp_parse_opts *o, unsigned *compared)
{
	struct vxgbp_parse_opts og = *o;
	struct vxgbp_pkt a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	uint64_t mask;
	size_t off, uend, wend;

	og.flags |= VXGBP_PARSE_GENERIC;
	vxgbp_pkt_parse(&a, f, n, wire, &og);
	if (!(a.have & VXGBP_HAVE_VXLAN) || a.outer.l3.more_frags || a.outer.l3.frag_off)
		return; /* a fragment's cut inner frame is not an error there */
	/* outer labels add label findings the payload does not have */
	mask = a.outer.l3.cipso_off >= 0 || a.outer.l3.calipso_off >= 0 ? ~(OUTER_RULES | ALL_LABEL_RULES)
									  : ~OUTER_RULES;
	off = (size_t)a.vxlan_off;
	wend = (size_t)a.outer.l4.off + a.outer.l4.len; /* the UDP datagram bounds both */
	uend = n < wend ? n : wend;
	/* a header that came to the GPE port is GPE: the caller says so */
	og = *o;
	if (vxgbp_udp_kind(o, a.outer.l4.dport) == VXGBP_UDP_GPE)
		og.flags |= VXGBP_PARSE_GPE;
	vxgbp_pkt_parse_vxlan(&b, f + off, uend - off, wend - off, &og);
	same_from(&a, &b, (int)off, 1, mask, "vxlan payload");
	if (a.have & VXGBP_HAVE_INNER_L2) {
		off = (size_t)a.inner.l2.off;
		vxgbp_pkt_parse_inner(&b, f + off, uend - off, wend - off, o);
		same_from(&a, &b, (int)off, 0, mask & INNER_RULES, "inner frame");
		EXPECT_EQ(b.vxlan_off, -1);
	}
	(*compared)++;
}

START_TEST(test_entry_points)
{
	static uint8_t f[MAXF], m[MAXF];
	unsigned long long s = 0xe27;
	unsigned compared = 0;

	for (size_t ci = 0; ci < NCASES; ci++) {
		const struct fcase *c = &cases[ci];
		struct vxgbp_parse_opts o = case_opts(c);
		struct lay l;

		build_case(c, f, &l);
		CTX("%s", c->name);
		for (size_t n = 0; n <= l.len; n++)
			entry_points_agree(f, n, l.len, &o, &compared);
		for (int it = 0; it < 3000; it++) {
			size_t n = (size_t)(unit_rand(&s) % (l.len + 1));
			int flips = 1 + (int)(unit_rand(&s) % 4);

			memcpy(m, f, l.len);
			for (int k = 0; k < flips; k++)
				m[unit_rand(&s) % l.len] = (uint8_t)unit_rand(&s);
			entry_points_agree(m, n, l.len, &o, &compared);
		}
	}
	ck_assert_uint_gt(compared, 1000);
}
END_TEST

/* The payload parser never reads outside its buffer, whatever it is. */
START_TEST(test_entry_points_guarded)
{
	static uint8_t f[MAXF];
	struct guard g;
	struct vxgbp_pkt p = { .size = sizeof(p) };

	ck_assert_int_eq(guard_init(&g, MAXF), 0);
	for (size_t ci = 0; ci < NCASES; ci++) {
		struct lay l;

		build_case(&cases[ci], f, &l);
		if (!l.vx)
			continue;
		for (size_t n = l.vx; n <= l.len; n++) {
			size_t k = n - l.vx;
			int r = vxgbp_pkt_parse_vxlan(&p, guard_place(&g, f + l.vx, k), k, k, NULL);

			EXPECT(r == 0 || r == VXGBP_E_TRUNCATED || r == VXGBP_E_MALFORMED, "r %d", r);
			EXPECT_EQ(r, p.err);
			if (k < VXGBP_HDR_LEN)
				EXPECT_EQ(r, VXGBP_E_MALFORMED); /* the wire had no more either */
			r = vxgbp_pkt_parse_inner(&p, guard_place(&g, f + l.vx, k), k, k, NULL);
			EXPECT_EQ(r, p.err);
		}
	}
	guard_free(&g);
	/* NULL with a length is refused, NULL empty is a cut header */
	EXPECT_EQ(vxgbp_pkt_parse_vxlan(&p, NULL, 8, 8, NULL), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_pkt_parse_vxlan(&p, NULL, 0, 8, NULL), VXGBP_E_TRUNCATED);
}
END_TEST

/* ---- ports, link types, options ---- */

START_TEST(test_ports)
{
	static uint8_t f[MAXF];
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	struct lay l;

	/* port 6000 is VXLAN only when added */
	build_case(&cases[10], f, &l);
	vxgbp_parse_opts_init(&o);
	CTX("6000 without the port");
	EXPECT_EQ(vxgbp_pkt_parse(&p, f, l.len, l.len, &o), 0);
	EXPECT_EQ(p.have, VXGBP_HAVE_L2 | VXGBP_HAVE_L3 | VXGBP_HAVE_L4);
	EXPECT_EQ(p.vxlan_off, -1);
	EXPECT_EQ(p.inner.l2.off, -1);
	EXPECT_EQ(p.findings, 0);
	CTX("6000 with the port");
	EXPECT_EQ(vxgbp_parse_opts_add_port(&o, 6000), 0);
	EXPECT_EQ(vxgbp_pkt_parse(&p, f, l.len, l.len, &o), 0);
	EXPECT_EQ(p.vxlan_off, l.vx);

	/* 4789 and 8472 are defaults unless turned off */
	for (size_t ci = 0; ci < 2; ci++) {
		build_case(&cases[ci], f, &l);
		CTX("%s: no default ports", cases[ci].name);
		vxgbp_parse_opts_init(&o);
		o.flags = VXGBP_PARSE_NO_DEFAULT_PORTS;
		EXPECT_EQ(vxgbp_pkt_parse(&p, f, l.len, l.len, &o), 0);
		EXPECT_EQ(p.vxlan_off, -1);
		EXPECT_EQ(vxgbp_parse_opts_add_port(&o, cases[ci].dport), 0);
		EXPECT_EQ(vxgbp_pkt_parse(&p, f, l.len, l.len, &o), 0);
		EXPECT_EQ(p.vxlan_off, l.vx);
		CTX("%s: NULL opts", cases[ci].name);
		EXPECT_EQ(vxgbp_pkt_parse(&p, f, l.len, l.len, NULL), 0);
		EXPECT_EQ(p.vxlan_off, l.vx);
	}

	/* the port table is bounded */
	vxgbp_parse_opts_init(&o);
	EXPECT_EQ(o.linktype, VXGBP_LINK_ETHERNET);
	EXPECT_EQ(o.n_ports, 0);
	for (unsigned i = 0; i < VXGBP_MAX_PORTS; i++)
		EXPECT_EQ(vxgbp_parse_opts_add_port(&o, (uint16_t)(10000 + i)), 0);
	EXPECT_EQ(vxgbp_parse_opts_add_port(&o, 1), VXGBP_E_NOSPACE);
	EXPECT_EQ(o.n_ports, VXGBP_MAX_PORTS);
}
END_TEST

START_TEST(test_not_vxlan)
{
	static uint8_t f[MAXF];
	static const uint8_t pl[12] = "not vxlan!!";
	struct vxgbp_eth_spec eth = { .dst = { 1 }, .src = { 2 } };
	struct vxgbp_ip_spec ip = { .version = 4 };
	struct vxgbp_l4_spec l4 = { .proto = 17, .sport = 4789, .dport = 53 };
	struct vxgbp_pkt p = { .size = sizeof(p) };
	int n;

	memcpy(ip.src, o4s, 4);
	memcpy(ip.dst, o4d, 4);
	CTX("udp to 53 from 4789");
	n = vxgbp_frame_build(f, sizeof(f), &eth, &ip, &l4, pl, sizeof(pl));
	EXPECT_EQ(n, 14 + 20 + 8 + 12);
	EXPECT_EQ(vxgbp_pkt_parse(&p, f, (size_t)n, (size_t)n, NULL), 0);
	EXPECT_EQ(p.have, VXGBP_HAVE_L2 | VXGBP_HAVE_L3 | VXGBP_HAVE_L4);
	EXPECT_EQ(p.outer.l4.dport, 53);
	EXPECT_EQ(p.udp_csum_ok, 1);
	EXPECT_EQ(p.ip_csum_ok, 1);
	EXPECT_EQ(p.findings, 0);
	CTX("tcp to 4789");
	l4.proto = 6;
	l4.dport = 4789;
	n = vxgbp_frame_build(f, sizeof(f), &eth, &ip, &l4, pl, sizeof(pl));
	EXPECT_EQ(n, 14 + 20 + 20 + 12);
	EXPECT_EQ(vxgbp_pkt_parse(&p, f, (size_t)n, (size_t)n, NULL), 0);
	EXPECT_EQ(p.have, VXGBP_HAVE_L2 | VXGBP_HAVE_L3 | VXGBP_HAVE_L4);
	EXPECT_EQ(p.vxlan_off, -1);
	EXPECT_EQ(p.outer.l4.proto, 6);
	CTX("unknown ethertype");
	f[12] = 0x88;
	f[13] = 0xb5;
	EXPECT_EQ(vxgbp_pkt_parse(&p, f, (size_t)n, (size_t)n, NULL), 0);
	EXPECT_EQ(p.have, VXGBP_HAVE_L2);
	EXPECT_EQ(p.outer.l2.ethertype, 0x88b5);
	CTX("unsupported link type");
	{
		struct vxgbp_parse_opts o;

		vxgbp_parse_opts_init(&o);
		o.linktype = 12345;
		EXPECT_EQ(vxgbp_pkt_parse(&p, f, (size_t)n, (size_t)n, &o), VXGBP_E_UNSUPPORTED);
		EXPECT_STR(p.err_layer, "link");
	}
	CTX("empty and NULL");
	/* nothing captured of a 60-byte frame: truncated; a 0-byte frame
	 * cannot be Ethernet: malformed */
	EXPECT_EQ(vxgbp_pkt_parse(&p, NULL, 0, 60, NULL), VXGBP_E_TRUNCATED);
	EXPECT_EQ(p.err_off, 0);
	EXPECT_STR(p.err_layer, "eth");
	EXPECT_EQ(vxgbp_pkt_parse(&p, NULL, 0, 0, NULL), VXGBP_E_MALFORMED);
	EXPECT_EQ(vxgbp_pkt_parse(&p, NULL, 10, 10, NULL), VXGBP_E_INVAL);
}
END_TEST

/* Outer header findings the builder cannot produce directly. */
START_TEST(test_findings)
{
	static uint8_t f[MAXF];
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	struct lay l;

	vxgbp_parse_opts_init(&o);
	build_case(&cases[0], f, &l);

	CTX("corrupt IPv4 header");
	f[l.l3 + 5] ^= 1; /* IP ID */
	EXPECT_EQ(vxgbp_pkt_parse(&p, f, l.len, l.len, &o), 0);
	EXPECT_EQ(p.ip_csum_ok, 0);
	EXPECT(p.findings & RB(IP_CSUM), "no ip.bad-checksum");
	CTX("not verified when asked not to");
	o.flags = VXGBP_PARSE_NO_CSUM;
	EXPECT_EQ(vxgbp_pkt_parse(&p, f, l.len, l.len, &o), 0);
	EXPECT_EQ(p.ip_csum_ok, -1);
	EXPECT_EQ(p.udp_csum_ok, -1);
	EXPECT(!(p.findings & (RB(IP_CSUM) | RB(UDP_CSUM))), "checksum findings with NO_CSUM");
	o.flags = 0;
	f[l.l3 + 5] ^= 1;

	CTX("corrupt inner payload byte");
	f[l.len - 1] ^= 0x80;
	EXPECT_EQ(vxgbp_pkt_parse(&p, f, l.len, l.len, &o), 0);
	EXPECT_EQ(p.ip_csum_ok, 1);
	EXPECT_EQ(p.udp_csum_ok, 0);
	EXPECT(p.findings & RB(UDP_CSUM), "no udp.bad-checksum");
	f[l.len - 1] ^= 0x80;

	CTX("ttl 0 and MF, checksum fixed up");
	f[l.l3 + 8] = 0;
	f[l.l3 + 6] = 0x20; /* MF, offset 0 */
	put16(f + l.l3 + 10, 0);
	put16(f + l.l3 + 10, (uint16_t)~sum16(f + l.l3, 20, 0));
	EXPECT_EQ(vxgbp_pkt_parse(&p, f, l.len, l.len, &o), 0);
	EXPECT_EQ(p.ip_csum_ok, 1);
	EXPECT_EQ(p.outer.l3.more_frags, 1);
	EXPECT_EQ(p.udp_csum_ok, -1); /* a first fragment's checksum covers later ones */
	EXPECT_EQ(p.findings, RB(OUTER_TTL) | RB(FRAGMENT) | vxgbp_hdr_check(&cases[0].hdr));
}
END_TEST

START_TEST(test_csum_helpers)
{
	/* RFC 1071 sec. 3 example: 00 01 f2 03 f4 f5 f6 f7 sums to ddf2 */
	static const uint8_t ex[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
	static uint8_t big[70000];
	unsigned long long s = 99;

	EXPECT_EQ(vxgbp_csum_fold(vxgbp_csum_add(0, ex, 8)), (uint16_t)~0xddf2);
	EXPECT_EQ(vxgbp_csum_fold(vxgbp_csum_add(0, ex, 7)), (uint16_t)~sum16(ex, 7, 0));
	EXPECT_EQ(vxgbp_csum_fold(0), 0xffff);
	EXPECT_EQ(vxgbp_csum_fold(0xffff), 0);
	EXPECT_EQ(vxgbp_csum_fold(vxgbp_csum_add(vxgbp_csum_add(0, ex, 4), ex + 4, 4)),
		  (uint16_t)~0xddf2);
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)unit_rand(&s);
	for (size_t n = 0; n < sizeof(big); n = n * 3 + 1) {
		CTX("length %zu", n);
		EXPECT_EQ(vxgbp_csum_fold(vxgbp_csum_add(0, big, n)), (uint16_t)~sum16(big, n, 0));
	}
	memset(big, 0xff, sizeof(big));
	CTX("all ones");
	EXPECT_EQ(vxgbp_csum_fold(vxgbp_csum_add(0, big, sizeof(big))),
		  (uint16_t)~sum16(big, sizeof(big), 0));
}
END_TEST

/* Where a parse stopped, as a scope (vxgbp_pkt_err_scope): a frame cut
 * in the outer headers, in the VXLAN header and in the inner frame. */
START_TEST(test_err_scope)
{
	static uint8_t f[MAXF];
	struct vxgbp_eth_spec eth = { .n_vlan = 0 };
	struct vxgbp_ip_spec ip = { .version = 4 };
	struct vxgbp_l4_spec u = { .proto = 17, .sport = 1, .dport = 4789 };
	struct vxgbp_hdr h = { VXGBP_F_I, 0, 1, 0 };
	uint8_t inner[60] = { 0 };
	static const struct {
		size_t caplen;
		enum vxgbp_scope scope;
	} c[] = {
		{ 20, VXGBP_SCOPE_OUTER },  /* in the outer IPv4 header */
		{ 38, VXGBP_SCOPE_OUTER },  /* in the UDP header */
		{ 46, VXGBP_SCOPE_HEADER }, /* in the VXLAN header */
		{ 55, VXGBP_SCOPE_INNER },  /* in the inner Ethernet header */
	};
	struct vxgbp_pkt p = { .size = sizeof(p) };
	int n = vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, inner, sizeof(inner)), nested;

	ck_assert_int_gt(n, 60);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		CTX("caplen %zu", c[i].caplen);
		EXPECT(vxgbp_pkt_parse(&p, f, c[i].caplen, (size_t)n, NULL) < 0, "parsed");
		nested = 7;
		EXPECT_EQ(vxgbp_pkt_err_scope(&p, &nested), c[i].scope);
		EXPECT_EQ(nested, -1);
	}
}
END_TEST

START_TEST(test_builder_errors)
{
	static uint8_t f[MAXF];
	struct vxgbp_eth_spec eth = { .n_vlan = 0 };
	struct vxgbp_ip_spec ip = { .version = 4 };
	struct vxgbp_l4_spec u = { .proto = 17, .sport = 1, .dport = 4789 };
	struct vxgbp_hdr h = { VXGBP_F_I, 0, 1, 0 };
	uint8_t inner[60] = { 0 };
	static const uint8_t opts40[41] = { 0 };
	struct guard g;
	int n;

	CTX("sizes");
	n = vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, inner, sizeof(inner));
	EXPECT_EQ(n, 14 + 20 + 8 + 8 + 60);
	ck_assert_int_eq(guard_init(&g, MAXF), 0);
	/* exactly enough room, at a page end; one byte less is NOSPACE */
	{
		uint8_t *at = (uint8_t *)guard_place(&g, f, (size_t)n);

		EXPECT_EQ(vxgbp_vxlan_build(at, (size_t)n, &eth, &ip, &u, &h, inner, sizeof(inner)), n);
		EXPECT_EQ(vxgbp_vxlan_build(f, (size_t)n - 1, &eth, &ip, &u, &h, inner, sizeof(inner)),
			  VXGBP_E_NOSPACE);
	}
	guard_free(&g);
	CTX("invalid");
	h.vni = VXGBP_VNI_MAX + 1;
	EXPECT_EQ(vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, inner, sizeof(inner)), VXGBP_E_INVAL);
	h.vni = 1;
	ip.version = 5;
	EXPECT_EQ(vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, inner, sizeof(inner)), VXGBP_E_INVAL);
	ip.version = 4;
	eth.n_vlan = 3;
	EXPECT_EQ(vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, inner, sizeof(inner)), VXGBP_E_INVAL);
	eth.n_vlan = 0;
	ip.options = opts40;
	ip.options_len = 41;
	EXPECT_EQ(vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, inner, sizeof(inner)), VXGBP_E_INVAL);
	ip.options_len = 40;
	EXPECT_EQ(vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, inner, sizeof(inner)),
		  14 + 60 + 8 + 8 + 60);
	ip.options = NULL;
	EXPECT_EQ(vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, inner, sizeof(inner)), VXGBP_E_INVAL);
	ip.options_len = 0;
	EXPECT_EQ(vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, NULL, 5), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_vxlan_build(NULL, 100, &eth, &ip, &u, &h, inner, sizeof(inner)), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_vxlan_build(f, sizeof(f), &eth, NULL, &u, &h, inner, sizeof(inner)), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_frame_build(f, sizeof(f), &eth, &ip, NULL, inner, 4), VXGBP_E_INVAL);
	/* absurd lengths must not wrap the size computation */
	CTX("huge lengths");
	{
		static const uint8_t one[1] = { 0 };

		EXPECT_EQ(vxgbp_frame_build(f, sizeof(f), &eth, &ip, &u, one, SIZE_MAX - 3), VXGBP_E_INVAL);
		EXPECT_EQ(vxgbp_frame_build(f, sizeof(f), NULL, &ip, &u, one, SIZE_MAX - 27), VXGBP_E_INVAL);
		EXPECT_EQ(vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, one, SIZE_MAX - 7), VXGBP_E_INVAL);
		EXPECT_EQ(vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, one, SIZE_MAX - 50), VXGBP_E_INVAL);
		/* an options length whose padding wraps to 0 is not "no options" */
		ip.options = one;
		ip.options_len = SIZE_MAX;
		EXPECT_EQ(vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, inner, 4), VXGBP_E_INVAL);
		ip.version = 6;
		ip.options_len = SIZE_MAX - 5;
		EXPECT_EQ(vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, inner, 4), VXGBP_E_INVAL);
		ip.version = 4;
		ip.options = NULL;
		ip.options_len = 0;
	}
	/* IPv4 total length must fit 16 bits */
	{
		static uint8_t huge[65536];

		EXPECT_EQ(vxgbp_frame_build(f, sizeof(f), &eth, &ip, &u, huge, 65536 - 28),
			  VXGBP_E_INVAL);
		EXPECT_EQ(vxgbp_frame_build(f, sizeof(f), &eth, &ip, &u, huge, 65535 - 28),
			  VXGBP_E_NOSPACE);
	}
}
END_TEST

/* Parse a frame whole, at a page end; returns the parse result. */
static int parse_at(struct guard *g, struct vxgbp_pkt *p, const uint8_t *f, size_t n,
		    const struct vxgbp_parse_opts *o, const uint8_t **base)
{
	const uint8_t *b = guard_place(g, f, n);

	if (base)
		*base = b;
	return vxgbp_pkt_parse(p, b, n, n, o);
}

/* A destination-options header instead of hop-by-hop: walked, not scanned. */
START_TEST(test_ipv6_ext_chain)
{
	static uint8_t f[MAXF];
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) }, q = { .size = sizeof(q) };
	const uint8_t *pb, *qb;
	struct guard g, g2;
	struct lay l;

	ck_assert_int_eq(guard_init(&g, MAXF), 0);
	ck_assert_int_eq(guard_init(&g2, MAXF), 0);
	vxgbp_parse_opts_init(&o);
	build_case(&cases[7], f, &l);
	EXPECT_EQ(parse_at(&g, &p, f, l.len, &o, &pb), 0);
	f[l.l3 + 6] = 60; /* next header: destination options */
	EXPECT_EQ(parse_at(&g2, &q, f, l.len, &o, &qb), 0);
	EXPECT_EQ(q.outer.l3.opt_off, -1);
	EXPECT_EQ(q.outer.l3.hdr_len, l.l3_hlen);
	EXPECT_EQ(q.outer.l4.off, l.l4);
	EXPECT_EQ(q.have, p.have);
	EXPECT_EQ(q.udp_csum_ok, 1);
	same_layers(&p.inner, pb, &q.inner, qb, p.have, 1, 1);
	/* the same 8 bytes as routing header and as AH (length in 4-byte units
	 * minus 2), then as a fragment header */
	CTX("routing header");
	f[l.l3 + 6] = 43;
	EXPECT_EQ(parse_at(&g2, &q, f, l.len, &o, NULL), 0);
	EXPECT_EQ(q.outer.l4.off, l.l4);
	EXPECT_EQ(q.vxlan_off, l.vx);
	CTX("AH");
	f[l.l3 + 6] = 51;
	f[l.l3 + 41] = 0;
	EXPECT_EQ(parse_at(&g2, &q, f, l.len, &o, NULL), 0);
	EXPECT_EQ(q.outer.l3.hdr_len, 48);
	EXPECT_EQ(q.outer.l4.off, l.l4);
	f[l.l3 + 41] = 1; /* 12 bytes: "UDP" now starts 4 bytes in, its length is 0x8800 */
	EXPECT_EQ(parse_at(&g2, &q, f, l.len, &o, NULL), VXGBP_E_MALFORMED);
	EXPECT_EQ(q.outer.l3.hdr_len, 52);
	EXPECT_STR(q.err_layer, "udp");
	EXPECT_EQ(q.err_off, l.l4 + 4);
	CTX("atomic fragment header");
	f[l.l3 + 6] = 44;
	f[l.l3 + 41] = 0;
	memset(f + l.l3 + 42, 0, 6); /* offset 0, M 0, id 0 */
	EXPECT_EQ(parse_at(&g2, &q, f, l.len, &o, NULL), 0);
	EXPECT_EQ(q.outer.l3.proto, 17);
	EXPECT_EQ(q.outer.l3.more_frags, 0);
	EXPECT_EQ(q.vxlan_off, l.vx);
	EXPECT_EQ(q.udp_csum_ok, 1);
	EXPECT(!(q.findings & RB(FRAGMENT)), "atomic fragment reported as a fragment");
	CTX("first fragment");
	f[l.l3 + 43] = 1; /* M */
	f[l.l3 + 47] = 0x42;
	EXPECT_EQ(parse_at(&g2, &q, f, l.len, &o, NULL), 0);
	EXPECT_EQ(q.outer.l3.more_frags, 1);
	EXPECT_EQ(q.outer.l3.ip_id, 0x42);
	EXPECT_EQ(q.udp_csum_ok, -1);
	EXPECT(q.findings & RB(FRAGMENT), "no ip.fragment");
	CTX("later fragment");
	put16(f + l.l3 + 42, 0x0100); /* offset 32 units of 8 bytes, M 0 */
	EXPECT_EQ(parse_at(&g2, &q, f, l.len, &o, NULL), 0);
	EXPECT_EQ(q.outer.l3.frag_off, 256);
	EXPECT_EQ(q.have, VXGBP_HAVE_L2 | VXGBP_HAVE_L3);
	/* a hop-by-hop header after another header is out of place */
	CTX("hop-by-hop second");
	f[l.l3 + 6] = 60;
	memcpy(f + l.l3 + 40, (const uint8_t[]){ 0, 0, 1, 4, 0, 0, 0, 0 }, 8);
	EXPECT_EQ(parse_at(&g2, &q, f, l.len, &o, NULL), VXGBP_E_MALFORMED);
	EXPECT_STR(q.err_layer, "ipv6");
	EXPECT_EQ(q.err_off, l.l3 + 48);
	guard_free(&g);
	guard_free(&g2);
}
END_TEST

/* Ethernet padding after the IP packet changes nothing. */
START_TEST(test_trailing_padding)
{
	static const size_t which[] = { 0, 1, 6, 7, 16 };
	static uint8_t f[MAXF];
	struct guard g, g2;

	ck_assert_int_eq(guard_init(&g, MAXF), 0);
	ck_assert_int_eq(guard_init(&g2, MAXF), 0);
	for (size_t i = 0; i < sizeof(which) / sizeof(which[0]); i++) {
		const struct fcase *c = &cases[which[i]];
		struct vxgbp_parse_opts o = case_opts(c);
		struct vxgbp_pkt p = { .size = sizeof(p) }, q = { .size = sizeof(q) };
		const uint8_t *pb, *qb;
		struct lay l;

		CTX("%s + 13 bytes of padding", c->name);
		build_case(c, f, &l);
		memset(f + l.len, 0xee, 13);
		EXPECT_EQ(parse_at(&g, &p, f, l.len, &o, &pb), 0);
		EXPECT_EQ(parse_at(&g2, &q, f, l.len + 13, &o, &qb), 0);
		EXPECT_EQ(q.have, p.have);
		EXPECT_EQ(q.findings, p.findings);
		EXPECT_EQ(q.udp_csum_ok, p.udp_csum_ok);
		same_layers(&p.outer, pb, &q.outer, qb, p.have, 0, 1);
		same_layers(&p.inner, pb, &q.inner, qb, p.have, 1, 1);
		/* and the padding cut short is no truncation of the packet */
		q.err = 99;
		EXPECT_EQ(vxgbp_pkt_parse(&q, guard_place(&g2, f, l.len + 5), l.len + 5, l.len + 13, &o), 0);
	}
	guard_free(&g);
	guard_free(&g2);
}
END_TEST

/* A third VLAN tag is skipped; the first two are reported. */
START_TEST(test_three_vlans)
{
	static uint8_t f[MAXF], t[MAXF];
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	struct guard g;
	struct lay l;

	ck_assert_int_eq(guard_init(&g, MAXF), 0);
	vxgbp_parse_opts_init(&o);
	build_case(&cases[2], f, &l);
	memcpy(t, f, 20); /* MACs and two tags; the third goes before the ethertype */
	put16(t + 20, 0x8100);
	put16(t + 22, 0x0333);
	memcpy(t + 24, f + 20, l.len - 20);
	EXPECT_EQ(parse_at(&g, &p, t, l.len + 4, &o, NULL), 0);
	EXPECT_EQ(p.outer.l2.n_vlan, 2);
	EXPECT_EQ(p.outer.l2.vlan_tci[1], 0x2014);
	EXPECT_EQ(p.outer.l2.ethertype, 0x0800);
	EXPECT_EQ(p.outer.l3.off, l.l3 + 4);
	EXPECT_EQ(p.vxlan_off, l.vx + 4);
	for (size_t n = 0; n < l.l3 + 4; n++) {
		CTX("prefix %zu", n);
		EXPECT_EQ(vxgbp_pkt_parse(&p, guard_place(&g, t, n), n, l.len + 4, &o),
			  VXGBP_E_TRUNCATED);
		EXPECT_STR(p.err_layer, n < 14 ? "eth" : "vlan");
	}
	guard_free(&g);
}
END_TEST

/* BSD loopback: the address family in either byte order. */
START_TEST(test_link_null)
{
	static const struct {
		uint8_t hdr[4];
		size_t ci;
	} c[] = {
		{ { 2, 0, 0, 0 }, 13 },  { { 0, 0, 0, 2 }, 13 },  { { 24, 0, 0, 0 }, 14 },
		{ { 0, 0, 0, 28 }, 14 }, { { 30, 0, 0, 0 }, 14 },
	};
	static uint8_t f[MAXF], t[MAXF];
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	struct guard g;
	struct lay l;

	ck_assert_int_eq(guard_init(&g, MAXF), 0);
	vxgbp_parse_opts_init(&o);
	o.linktype = VXGBP_LINK_NULL;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		CTX("null header %u %u %u %u", c[i].hdr[0], c[i].hdr[1], c[i].hdr[2], c[i].hdr[3]);
		build_case(&cases[c[i].ci], f, &l);
		memcpy(t, c[i].hdr, 4);
		memcpy(t + 4, f, l.len);
		EXPECT_EQ(parse_at(&g, &p, t, l.len + 4, &o, NULL), 0);
		EXPECT_EQ(p.outer.l3.off, 4);
		EXPECT_EQ(p.outer.l3.version, cases[c[i].ci].ov);
		EXPECT_EQ(p.vxlan_off, l.vx + 4);
		for (size_t n = 0; n < 4; n++) {
			EXPECT_EQ(vxgbp_pkt_parse(&p, guard_place(&g, t, n), n, l.len + 4, &o),
				  VXGBP_E_TRUNCATED);
			EXPECT_STR(p.err_layer, "null");
		}
	}
	CTX("unknown family");
	t[0] = 99;
	EXPECT_EQ(parse_at(&g, &p, t, l.len + 4, &o, NULL), 0);
	EXPECT_EQ(p.have, 0);
	guard_free(&g);
}
END_TEST

/* Outer IPv4 fragments. */
START_TEST(test_fragments)
{
	static uint8_t f[MAXF];
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	struct guard g;
	struct lay l;
	size_t tot;

	ck_assert_int_eq(guard_init(&g, MAXF), 0);
	vxgbp_parse_opts_init(&o);
	build_case(&cases[0], f, &l);

	/* a first fragment that ends inside the inner IPv4 header: not an
	 * error of this frame (the rest comes in the next fragment) */
	CTX("first fragment");
	tot = l.l3_hlen + 8 + 8 + 14 + 8;
	put16(f + l.l3 + 2, (uint16_t)tot);
	f[l.l3 + 6] = 0x20; /* MF */
	put16(f + l.l3 + 10, 0);
	put16(f + l.l3 + 10, (uint16_t)~sum16(f + l.l3, 20, 0));
	EXPECT_EQ(parse_at(&g, &p, f, l.l3 + tot, &o, NULL), 0);
	EXPECT_EQ(p.err, 0);
	EXPECT_EQ(p.ip_csum_ok, 1);
	EXPECT_EQ(p.udp_csum_ok, -1);
	EXPECT_EQ(p.vxlan_off, l.vx);
	EXPECT_EQ(p.have & (VXGBP_HAVE_VXLAN | VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3),
		  VXGBP_HAVE_VXLAN | VXGBP_HAVE_INNER_L2);
	EXPECT(p.findings & RB(FRAGMENT), "no ip.fragment");
	EXPECT(!(p.findings & (RB(TRUNCATED) | RB(MALFORMED))), "fragment reported as an error");

	/* a later fragment: no UDP header, so no VXLAN */
	CTX("later fragment");
	f[l.l3 + 6] = 0x00;
	f[l.l3 + 7] = 0x10; /* offset 16 * 8 */
	put16(f + l.l3 + 10, 0);
	put16(f + l.l3 + 10, (uint16_t)~sum16(f + l.l3, 20, 0));
	EXPECT_EQ(parse_at(&g, &p, f, l.l3 + tot, &o, NULL), 0);
	EXPECT_EQ(p.have, VXGBP_HAVE_L2 | VXGBP_HAVE_L3);
	EXPECT_EQ(p.outer.l3.frag_off, 128);
	EXPECT_EQ(p.outer.l3.more_frags, 0);
	EXPECT_EQ(p.vxlan_off, -1);

	/* the offset is all thirteen bits of the word, its flags beside it */
	for (unsigned i = 0; i < 4; i++) {
		static const uint16_t word[4] = { 0x0001, 0x1000, 0x1fff, 0x5fff };

		CTX("later fragment, flags and offset %#x", word[i]);
		put16(f + l.l3 + 6, word[i]);
		put16(f + l.l3 + 10, 0);
		put16(f + l.l3 + 10, (uint16_t)~sum16(f + l.l3, 20, 0));
		EXPECT_EQ(parse_at(&g, &p, f, l.l3 + tot, &o, NULL), 0);
		EXPECT_EQ(p.outer.l3.frag_off, (word[i] & 0x1fff) * 8);
		EXPECT_EQ(p.outer.l3.dont_frag, !!(word[i] & 0x4000));
		EXPECT_EQ(p.outer.l3.more_frags, 0);
		EXPECT_EQ(p.vxlan_off, -1);
	}
	guard_free(&g);
}
END_TEST

/* The builder pads IPv4 options to 4 and IPv6 hop-by-hop to 8 bytes (with
 * Pad1/PadN); the parser walks every length. */
START_TEST(test_option_padding)
{
	static uint8_t f[MAXF];
	uint8_t opts[64];
	struct vxgbp_eth_spec eth = { .n_vlan = 0 };
	struct vxgbp_ip_spec ip;
	struct vxgbp_l4_spec u = { .proto = 17, .sport = 50000, .dport = 4789 };
	struct vxgbp_hdr h = { GI, 1, 1, 0 };
	uint8_t inner[60] = { 0 };
	struct vxgbp_pkt p = { .size = sizeof(p) };
	struct guard g;

	ck_assert_int_eq(guard_init(&g, MAXF), 0);
	inner[12] = 0x88; /* an ethertype the parser does not follow */
	inner[13] = 0xb5;
	for (int v = 4; v <= 6; v += 2)
		for (size_t n = 1; n <= (v == 4 ? 40u : 60u); n++) {
			size_t hl = v == 4 ? 20 + pad(n, 4) : 40 + pad(n + 2, 8);
			int len;

			CTX("IPv%d, %zu option bytes", v, n);
			memset(&ip, 0, sizeof(ip));
			ip.version = (uint8_t)v;
			ip.src[0] = 1;
			ip.dst[0] = 2;
			if (v == 4) {
				memset(opts, 1, n); /* NOPs */
			} else if (n == 1) {
				opts[0] = 0; /* Pad1 */
			} else {
				memset(opts, 0, n);
				opts[0] = 1; /* PadN */
				opts[1] = (uint8_t)(n - 2);
			}
			ip.options = opts;
			ip.options_len = n;
			len = vxgbp_vxlan_build(f, sizeof(f), &eth, &ip, &u, &h, inner, sizeof(inner));
			EXPECT_EQ(len, 14 + hl + 8 + 8 + 60);
			EXPECT_EQ(parse_at(&g, &p, f, (size_t)len, NULL, NULL), 0);
			EXPECT_EQ(p.outer.l3.hdr_len, hl);
			EXPECT_EQ(p.outer.l3.opt_len, hl - (v == 4 ? 20 : 40));
			EXPECT_EQ(p.outer.l4.off, 14 + hl);
			EXPECT_EQ(p.vxlan_off, 14 + hl + 8);
			EXPECT_EQ(p.udp_csum_ok, 1);
			EXPECT_EQ(p.ip_csum_ok, v == 4 ? 1 : -1);
			if (v == 4)
				EXPECT_EQ(sum16(f + 14, hl, 0), 0xffff);
		}
	guard_free(&g);
}
END_TEST

/* The checked cursor (cursor.h) itself: at every offset of every short
 * buffer placed right before a PROT_NONE page, a read gives the bytes
 * there and 0 past the end, never the byte past it, and need() counts
 * exactly what is left. */
START_TEST(test_cursor)
{
	static const uint8_t src[8] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
	struct guard g;

	ck_assert_int_eq(guard_init(&g, sizeof(src)), 0);
	for (size_t len = 0; len <= sizeof(src); len++) {
		const uint8_t *b = guard_place(&g, src, len);
		struct vxc c;

		vxc_init(&c, b, len);
		for (size_t n = 0; n <= len + 2; n++) {
			CTX("%zu bytes, need %zu", len, n);
			EXPECT_EQ(vxc_need(&c, n), n <= len);
		}
		for (size_t off = 0; off <= len + 4; off++) {
			unsigned u = off < len ? src[off] : 0;
			unsigned u1 = off + 1 < len ? src[off + 1] : 0;

			CTX("%zu bytes, offset %zu", len, off);
			EXPECT_EQ(vxc_u8_at(&c, off), u);
			EXPECT_EQ(vxc_be16_at(&c, off), u << 8 | u1);
			EXPECT_EQ(vxc_be32_at(&c, off) >> 16, u << 8 | u1);
		}
	}
	guard_free(&g);
}
END_TEST
/* The guard helper itself: a read one byte past the placed data faults. */
static int child_reads(const volatile uint8_t *at)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, 2); /* ASan's report of the fault */
		(void)*at;
		_exit(0);
	}
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

START_TEST(test_guard_faults)
{
	static const uint8_t d[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	struct guard g;
	const uint8_t *at;

	ck_assert_int_eq(guard_init(&g, 100), 0);
	at = guard_place(&g, d, sizeof(d));
	EXPECT_MEM(at, d, sizeof(d));
	EXPECT(child_reads(at + 9), "reading the last byte failed");
	EXPECT(!child_reads(at + 10), "reading one byte past the data did not fault");
	EXPECT(!child_reads(g.data - 1), "reading before the mapping did not fault");
	EXPECT(guard_place(&g, d, g.cap + 1) == NULL, "placed more than fits");
	guard_free(&g);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pkt");
	TCase *tc = unit_tcase(s, "frames");

	tcase_add_test(tc, test_guard_faults);
	tcase_add_test(tc, test_cursor);
	tcase_add_test(tc, test_frames);
	tcase_add_test(tc, test_random_frames);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_mutations);
	tcase_add_test(tc, test_fast_path);
	tcase_add_test(tc, test_fast_not_vxlan);
	tcase_add_test(tc, test_entry_points);
	tcase_add_test(tc, test_entry_points_guarded);
	tc = unit_tcase(s, "misc");
	tcase_add_test(tc, test_ports);
	tcase_add_test(tc, test_not_vxlan);
	tcase_add_test(tc, test_findings);
	tcase_add_test(tc, test_csum_helpers);
	tcase_add_test(tc, test_builder_errors);
	tcase_add_test(tc, test_ipv6_ext_chain);
	tcase_add_test(tc, test_trailing_padding);
	tcase_add_test(tc, test_three_vlans);
	tcase_add_test(tc, test_link_null);
	tcase_add_test(tc, test_fragments);
	tcase_add_test(tc, test_option_padding);
	tcase_add_test(tc, test_err_scope);
	return unit_run(s, "pkt");
}
