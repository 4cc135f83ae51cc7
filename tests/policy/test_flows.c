// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_flows.c - the tracker's bidirectional flows (VXGBP_TRACK_FLOWS,
 * vxgbp_track_flows): both directions in one flow, the initiator (first
 * frame, or the first TCP SYN without ACK), the source group from the
 * initiator's frames, the destination group learned from the responder's
 * own frames (later, in another flow), UNKNOWN for a silent or plain-VXLAN
 * responder, A frames, VNIs apart, IPv6, ICMP; the same flows with MATRIX
 * and RULES on; a tiny budget (flows dropped and counted, never more held
 * than the budget); API errors.
 */
#include <stdlib.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "unit.h"

#define GI (VXGBP_F_G | VXGBP_F_I)
#define GIA (VXGBP_F_G | VXGBP_F_I | VXGBP_F_A)
#define NONE VXGBP_GROUP_NONE
#define UNKNOWN VXGBP_GROUP_UNKNOWN

/* ---- an allocator that keeps count ---- */

struct talloc {
	size_t held, peak;
	unsigned n_alloc, n_free;
};

static void *t_zalloc(void *ctx, size_t size)
{
	struct talloc *ta = ctx;
	size_t *p = calloc(1, size + sizeof(size_t) * 2);

	if (!p)
		return NULL;
	p[0] = size;
	ta->held += size;
	ta->n_alloc++;
	if (ta->held > ta->peak)
		ta->peak = ta->held;
	return p + 2;
}

static void t_free(void *ctx, void *ptr, size_t size)
{
	struct talloc *ta = ctx;
	size_t *p = (size_t *)ptr - 2;

	ck_assert_uint_eq(p[0], size);
	ta->held -= size;
	ta->n_free++;
	free(p);
}

/* ---- frames ---- */

struct fspec {
	uint32_t vni;
	uint16_t flags;
	uint16_t group;
	int v6;
	uint8_t src, dst;      /* last byte of 10.0.0.x / fd00::x */
	uint8_t proto;
	uint16_t sport, dport;
	uint8_t tcp_flags;
};

static int build(uint8_t *b, size_t n, const struct fspec *s)
{
	struct vxgbp_eth_spec ieth = { { 2, 0, 0, 0, 1, 0 }, { 2, 0, 0, 0, 1, 0 }, 0, { 0 }, { 0 } };
	struct vxgbp_eth_spec oeth = { { 2, 0, 0, 0, 0, 2 }, { 2, 0, 0, 0, 0, 1 }, 0, { 0 }, { 0 } };
	struct vxgbp_ip_spec ip = { 0 }, oip = { 0 };
	struct vxgbp_l4_spec l4 = { 0 }, udp = { 0 };
	struct vxgbp_hdr h = { s->flags, s->group, s->vni, 0 };
	uint8_t in[256], payload[20] = { 0 };
	int len;

	ieth.dst[5] = s->dst;
	ieth.src[5] = s->src;
	ip.version = s->v6 ? 6 : 4;
	if (s->v6) {
		ip.src[0] = ip.dst[0] = 0xfd;
		ip.src[15] = s->src;
		ip.dst[15] = s->dst;
	} else {
		memcpy(ip.src, (const uint8_t[4]){ 10, 0, 0, s->src }, 4);
		memcpy(ip.dst, (const uint8_t[4]){ 10, 0, 0, s->dst }, 4);
	}
	l4.proto = s->proto;
	l4.sport = s->sport;
	l4.dport = s->dport;
	l4.tcp_flags = s->tcp_flags;
	l4.icmp_type = 8;
	if (s->proto == 0) /* an ARP request of src for dst */
		len = vxgbp_arp_build(in, sizeof(in), &ieth, VXGBP_ARP_REQUEST, ieth.src, ip.src,
				      NULL, ip.dst);
	else
		len = vxgbp_frame_build(in, sizeof(in), &ieth, &ip, &l4, payload,
					sizeof(payload));
	ck_assert_int_gt(len, 0);
	oip.version = 4;
	memcpy(oip.src, (const uint8_t[4]){ 192, 0, 2, 1 }, 4);
	memcpy(oip.dst, (const uint8_t[4]){ 192, 0, 2, 2 }, 4);
	udp.proto = 17;
	udp.sport = 49152;
	udp.dport = 4789;
	len = vxgbp_vxlan_build(b, n, &oeth, &oip, &udp, &h, in, (size_t)len);
	ck_assert_int_gt(len, 0);
	return len;
}

struct tk {
	struct vxgbp_track *t;
	struct talloc a;
	uint64_t no;
	uint64_t wire[64]; /* each frame's length, by number */
};

static int tk_init(struct tk *k, unsigned what, size_t budget)
{
	struct vxgbp_track_opts o = { .size = sizeof(o), .what = what, .budget = budget,
				      .zalloc = t_zalloc, .free = t_free, .ctx = &k->a };

	memset(&k->a, 0, sizeof(k->a));
	k->no = 0;
	k->t = malloc(vxgbp_track_size());
	ck_assert_ptr_nonnull(k->t);
	return vxgbp_track_init(k->t, &o);
}

static void tk_stop(struct tk *k)
{
	vxgbp_track_fini(k->t);
	EXPECT_EQ(k->a.held, 0);
	EXPECT_EQ(k->a.n_alloc, k->a.n_free);
	free(k->t);
}

static int feed(struct tk *k, const struct fspec *s)
{
	struct vxgbp_pkt p = { .size = sizeof(p) };
	uint8_t b[512];
	int len = build(b, sizeof(b), s);

	ck_assert_int_eq(vxgbp_pkt_parse(&p, b, (size_t)len, (size_t)len, NULL), 0);
	k->no++;
	if (k->no < 64)
		k->wire[k->no] = (uint64_t)len;
	return vxgbp_track_frame(k->t, &p, k->no, NULL);
}

static struct fspec tcp(uint8_t src, uint8_t dst, uint16_t sp, uint16_t dp, uint16_t flags,
			uint16_t group, uint8_t tcp_flags)
{
	struct fspec s = { 100, flags, group, 0, src, dst, 6, sp, dp, tcp_flags };

	return s;
}

static void expect_ends(const struct vxgbp_track_flow *f, uint8_t src, uint8_t dst,
			uint16_t sp, uint16_t dp)
{
	EXPECT_EQ(f->src[3], src);
	EXPECT_EQ(f->dst[3], dst);
	EXPECT_EQ(f->src[0], 10);
	EXPECT_EQ(f->sport, sp);
	EXPECT_EQ(f->dport, dp);
}

/* The capture of test_flows, fed to a tracker doing `what`; checked. */
static void check_flows(unsigned what)
{
	struct vxgbp_track_flow f[8];
	struct fspec x;
	struct tk k;
	size_t held = 99;
	uint64_t dropped = 99;
	int n;

	ck_assert_int_eq(tk_init(&k, what, 0), 0);
	/* 1-3: 1 -> 2 TCP 80, the reply from group 0x200, A on the reply */
	x = tcp(1, 2, 40000, 80, GI, 0x100, 0x02);
	feed(&k, &x);
	x = tcp(2, 1, 80, 40000, GIA, 0x200, 0x12);
	feed(&k, &x);
	x = tcp(1, 2, 40000, 80, GI, 0x100, 0x10);
	feed(&k, &x);
	/* 4-5: a mid-stream ACK from 3 (first seen), then 4's SYN: 4 initiates */
	x = tcp(3, 4, 5432, 50000, GI, 0x300, 0x10);
	feed(&k, &x);
	x = tcp(4, 3, 50000, 5432, GIA, 0x400, 0x02);
	feed(&k, &x);
	/* 6: 1 -> 5 UDP 53; 5 never speaks; 7: plain VXLAN 6 -> 7 ICMP, twice */
	x = (struct fspec){ 100, GI, 0x100, 0, 1, 5, 17, 3333, 53, 0 };
	feed(&k, &x);
	x = (struct fspec){ 100, VXGBP_F_I, 0, 0, 6, 7, 1, 1, 1, 0 };
	feed(&k, &x);
	x.sport = 2; /* another echo id: the same flow */
	feed(&k, &x);
	/* 9: the same 1 -> 2 TCP 80 in VNI 200: another flow; 2 unknown there */
	x = tcp(1, 2, 40000, 80, GI, 0x100, 0x02);
	x.vni = 200;
	feed(&k, &x);
	/* 10: IPv6 8 -> 9 TCP 22, then 11: 9 speaks in another flow, later */
	x = tcp(8, 9, 1024, 22, GI, 0x800, 0x02);
	x.v6 = 1;
	feed(&k, &x);
	x = (struct fspec){ 100, GI, 0x900, 1, 9, 10, 17, 5000, 6000, 0 };
	feed(&k, &x);
	/* 12: 4's later SYN in 3 -> 4's flow does not move the initiator */
	x = tcp(3, 4, 5432, 50000, GI, 0x301, 0x02);
	feed(&k, &x);

	EXPECT_EQ(vxgbp_track_flow_stats(k.t, &held, &dropped), 0);
	EXPECT_EQ(held, 7);
	EXPECT_EQ(dropped, 0);
	EXPECT_EQ(vxgbp_track_flows(k.t, f, 6), VXGBP_E_NOSPACE);
	n = vxgbp_track_flows(k.t, f, 8);
	EXPECT_EQ(n, 7);

	CTX("what %u flow 1", what);
	EXPECT_EQ(f[0].first_frame, 1);
	expect_ends(&f[0], 1, 2, 40000, 80);
	EXPECT_EQ(f[0].ip_version, 4);
	EXPECT_EQ(f[0].proto, 6);
	EXPECT_EQ(f[0].vni, 100);
	EXPECT_EQ(f[0].frames[0], 2);
	EXPECT_EQ(f[0].frames[1], 1);
	EXPECT_EQ(f[0].bytes[0], k.wire[1] + k.wire[3]);
	EXPECT_EQ(f[0].bytes[1], k.wire[2]);
	EXPECT_EQ(f[0].src_group, 0x100);
	EXPECT_EQ(f[0].dst_group, 0x200);
	EXPECT_EQ(f[0].a_frames, 1);
	EXPECT_EQ(f[0].first_a_frame, 2);
	EXPECT_EQ(f[0].syn, 1);

	CTX("what %u flow 2 (SYN names the initiator)", what);
	EXPECT_EQ(f[1].first_frame, 4);
	expect_ends(&f[1], 4, 3, 50000, 5432);
	EXPECT_EQ(f[1].frames[0], 1);
	EXPECT_EQ(f[1].frames[1], 2);
	EXPECT_EQ(f[1].src_group, 0x400);
	EXPECT_EQ(f[1].dst_group, 0x301); /* what 3 last sent with */
	EXPECT_EQ(f[1].a_frames, 1);
	EXPECT_EQ(f[1].first_a_frame, 5);

	CTX("what %u flow 3 (silent responder)", what);
	EXPECT_EQ(f[2].first_frame, 6);
	expect_ends(&f[2], 1, 5, 3333, 53);
	EXPECT_EQ(f[2].proto, 17);
	EXPECT_EQ(f[2].dst_group, UNKNOWN);
	EXPECT_EQ(f[2].frames[1], 0);
	EXPECT_EQ(f[2].a_frames, 0);
	EXPECT_EQ(f[2].first_a_frame, 0);
	EXPECT_EQ(f[2].syn, 0);

	CTX("what %u flow 4 (plain VXLAN ICMP)", what);
	EXPECT_EQ(f[3].first_frame, 7);
	expect_ends(&f[3], 6, 7, 0, 0);
	EXPECT_EQ(f[3].proto, 1);
	EXPECT_EQ(f[3].frames[0], 2);
	EXPECT_EQ(f[3].src_group, NONE);
	EXPECT_EQ(f[3].dst_group, UNKNOWN);

	CTX("what %u flow 5 (another VNI)", what);
	EXPECT_EQ(f[4].first_frame, 9);
	EXPECT_EQ(f[4].vni, 200);
	EXPECT_EQ(f[4].dst_group, UNKNOWN);

	CTX("what %u flow 6 (IPv6, destination learned later)", what);
	EXPECT_EQ(f[5].first_frame, 10);
	EXPECT_EQ(f[5].ip_version, 6);
	EXPECT_EQ(f[5].src[0], 0xfd);
	EXPECT_EQ(f[5].src[15], 8);
	EXPECT_EQ(f[5].dst[15], 9);
	EXPECT_EQ(f[5].dport, 22);
	EXPECT_EQ(f[5].src_group, 0x800);
	EXPECT_EQ(f[5].dst_group, 0x900);
	EXPECT_EQ(f[6].first_frame, 11);
	EXPECT_EQ(f[6].dst_group, UNKNOWN);
	tk_stop(&k);
}

START_TEST(test_flows)
{
	check_flows(VXGBP_TRACK_FLOWS);
	check_flows(VXGBP_TRACK_FLOWS | VXGBP_TRACK_MATRIX);
	check_flows(VXGBP_TRACK_FLOWS | VXGBP_TRACK_RULES);
	check_flows(VXGBP_TRACK_FLOWS | VXGBP_TRACK_RULES | VXGBP_TRACK_MATRIX);
}
END_TEST

/* A flow to an address that sent only plain VXLAN, and to one that sent
 * only ARP with GBP: the rules keep an ARP sender in the endpoint table,
 * with no group learned.  The flow's destination group is what the
 * matrix learns (the ARP sender's group); without the matrix, flows learn
 * from IP frames only and say unknown (docs/testing.md); never 0x0000. */
START_TEST(test_unlearned_dst)
{
	static const unsigned what[] = {
		VXGBP_TRACK_FLOWS, VXGBP_TRACK_FLOWS | VXGBP_TRACK_RULES,
		VXGBP_TRACK_FLOWS | VXGBP_TRACK_MATRIX,
		VXGBP_TRACK_FLOWS | VXGBP_TRACK_RULES | VXGBP_TRACK_MATRIX,
	};
	struct vxgbp_track_flow f[3];
	struct fspec x;
	struct tk k;

	for (size_t i = 0; i < sizeof(what) / sizeof(what[0]); i++) {
		CTX("what %u", what[i]);
		ck_assert_int_eq(tk_init(&k, what[i], 0), 0);
		x = (struct fspec){ 100, VXGBP_F_I, 0, 0, 6, 7, 1, 1, 1, 0 };
		feed(&k, &x);
		x = (struct fspec){ 100, GI, 0x100, 0, 1, 6, 17, 3333, 53, 0 };
		feed(&k, &x);
		x = (struct fspec){ 100, GI, 0x900, 0, 9, 1, 0, 0, 0, 0 }; /* ARP */
		feed(&k, &x);
		x = (struct fspec){ 100, GI, 0x100, 0, 1, 9, 17, 3333, 53, 0 };
		feed(&k, &x);
		EXPECT_EQ(vxgbp_track_flows(k.t, f, 3), 3);
		EXPECT_EQ(f[0].src_group, NONE);
		EXPECT_EQ(f[0].dst_group, UNKNOWN);
		EXPECT_EQ(f[1].src_group, 0x100);
		EXPECT_EQ(f[1].dst_group, UNKNOWN);
		EXPECT_EQ(f[2].first_frame, 4);
		EXPECT(f[2].dst_group == 0x900 ||
		       (!(what[i] & VXGBP_TRACK_MATRIX) && f[2].dst_group == UNKNOWN),
		       "ARP sender's group %#x", f[2].dst_group);
		tk_stop(&k);
	}
}
END_TEST

#define TAB1 (64 * 64 + 63) /* the first table: 64 slots of 64 bytes, aligned */

START_TEST(test_budget)
{
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	struct vxgbp_track_flow *f = calloc(200, sizeof(*f));
	size_t fixed, held, room;
	uint64_t dropped;
	struct fspec x;
	struct tk k;
	int n;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(tk_init(&k, VXGBP_TRACK_FLOWS, 0), 0);
	vxgbp_track_summary(k.t, &s);
	fixed = s.mem;
	tk_stop(&k);
	/* the endpoint table (one sender), the flow table and 64 records,
	 * but no room to grow: 48 flows (3/4 of 64) stored */
	room = fixed + 2 * TAB1 + 64 * 128;
	ck_assert_int_eq(tk_init(&k, VXGBP_TRACK_FLOWS, room), 0);
	for (int i = 0; i < 100; i++) {
		x = tcp(1, 2, (uint16_t)(1000 + i), 80, GI, 0x100, 0x02);
		n = feed(&k, &x);
		CTX("frame %d", i + 1);
		EXPECT_EQ(n, i < 48 ? 0 : VXGBP_E_NOSPACE);
	}
	x = tcp(2, 1, 80, 1000, GI, 0x200, 0x12); /* a stored flow still counts */
	EXPECT_EQ(feed(&k, &x), 0);
	EXPECT_EQ(vxgbp_track_flow_stats(k.t, &held, &dropped), 0);
	EXPECT_EQ(held, 48);
	EXPECT_EQ(dropped, 52);
	vxgbp_track_summary(k.t, &s);
	EXPECT_EQ(s.full, VXGBP_TRACK_FULL_BIFLOWS);
	EXPECT(s.mem <= room && k.a.peak <= room, "held %zu, peak %zu, budget %zu", s.mem,
	       k.a.peak, room);
	n = vxgbp_track_flows(k.t, f, 200);
	EXPECT_EQ(n, 48);
	for (int i = 0; i < n; i++) {
		CTX("flow %d", i);
		EXPECT_EQ(f[i].first_frame, (uint64_t)i + 1);
		EXPECT_EQ(f[i].sport, 1000 + i);
		EXPECT_EQ(f[i].frames[0], 1);
		EXPECT_EQ(f[i].frames[1], i == 0);
		EXPECT_EQ(f[i].dst_group, 0x200);
	}
	tk_stop(&k);
	/* the records cannot be had: nothing stored, all counted */
	ck_assert_int_eq(tk_init(&k, VXGBP_TRACK_FLOWS, fixed + TAB1), 0);
	for (int i = 0; i < 10; i++) {
		x = tcp(1, 2, (uint16_t)(1000 + i), 80, VXGBP_F_I, 0, 0x02);
		EXPECT_EQ(feed(&k, &x), VXGBP_E_NOSPACE);
	}
	EXPECT_EQ(vxgbp_track_flow_stats(k.t, &held, &dropped), 0);
	EXPECT_EQ(held, 0);
	EXPECT_EQ(dropped, 10);
	EXPECT_EQ(vxgbp_track_flows(k.t, f, 0), 0);
	tk_stop(&k);
	free(f);
}
END_TEST

/* 300 flows: the records and the table double past 64, 128, 256 and keep
 * every flow as it was. */
START_TEST(test_growth)
{
	struct vxgbp_track_flow *f = calloc(300, sizeof(*f));
	struct fspec x;
	struct tk k;
	size_t held;
	uint64_t dropped;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(tk_init(&k, VXGBP_TRACK_FLOWS, 0), 0);
	for (int i = 0; i < 300; i++) {
		x = tcp(1, 2, (uint16_t)(2000 + i), 80, GI, 0x100, 0x02);
		EXPECT_EQ(feed(&k, &x), 0);
		if (i % 3 == 0) { /* every third flow gets a reply now */
			x = tcp(2, 1, 80, (uint16_t)(2000 + i), GI, 0x200, 0x12);
			EXPECT_EQ(feed(&k, &x), 0);
		}
	}
	EXPECT_EQ(vxgbp_track_flow_stats(k.t, &held, &dropped), 0);
	EXPECT_EQ(held, 300);
	EXPECT_EQ(dropped, 0);
	EXPECT_EQ(vxgbp_track_flows(k.t, f, 300), 300);
	for (int i = 0; i < 300; i++) {
		CTX("flow %d", i);
		EXPECT_EQ(f[i].sport, 2000 + i);
		EXPECT_EQ(f[i].dport, 80);
		EXPECT_EQ(f[i].frames[0], 1);
		EXPECT_EQ(f[i].frames[1], i % 3 == 0);
		EXPECT_EQ(f[i].src_group, 0x100);
		EXPECT_EQ(f[i].dst_group, 0x200);
		EXPECT(i == 0 || f[i].first_frame > f[i - 1].first_frame, "sorted by first frame");
	}
	tk_stop(&k);
	free(f);
}
END_TEST

START_TEST(test_api)
{
	struct vxgbp_track_flow f[1];
	size_t held;
	struct tk k;

	EXPECT_EQ(vxgbp_track_flows(NULL, f, 1), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_flow_stats(NULL, &held, NULL), VXGBP_E_INVAL);
	ck_assert_int_eq(tk_init(&k, VXGBP_TRACK_MATRIX, 0), 0);
	EXPECT_EQ(vxgbp_track_flows(k.t, f, 1), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_flow_stats(k.t, &held, NULL), VXGBP_E_INVAL);
	tk_stop(&k);
	ck_assert_int_eq(tk_init(&k, VXGBP_TRACK_FLOWS, 0), 0);
	EXPECT_EQ(vxgbp_track_flow_stats(k.t, NULL, NULL), 0);
	EXPECT_EQ(vxgbp_track_flows(k.t, NULL, 0), 0);
	tk_stop(&k);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("flows");
	TCase *tc = unit_tcase(s, "flows");

	tcase_add_test(tc, test_flows);
	tcase_add_test(tc, test_unlearned_dst);
	tcase_add_test(tc, test_budget);
	tcase_add_test(tc, test_growth);
	tcase_add_test(tc, test_api);
	return unit_run(s, "flows");
}
