// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_track.c - libvxgbp's cross-frame tracker (vxgbp_track_*).
 *
 * Frames are built with vxgbp_frame_build()/vxgbp_vxlan_build() (ARP and
 * non-IP inner frames by hand) and parsed with vxgbp_pkt_parse(); what the
 * tracker must find is worked out here from the specs:
 *   - each cross-frame rule triggered, and its near misses not, with the
 *     hit's rule, key kind, previous frame, group and flags;
 *   - a re-sighting already reported is not also an endpoint/flow change,
 *     and does not update the endpoints;
 *   - the group-to-group matrix of a small capture (destinations learned
 *     from their own frames, later groups, plain VXLAN, ARP, non-IP),
 *     with and without the one-frame pipeline;
 *   - a tiny budget: the keys stored are exact, the others counted as
 *     dropped, nothing invented, never more held than the budget;
 *   - an allocator that fails, fini then init again, every byte given back
 *     with the size it was asked for;
 *   - plain VXLAN, non-VXLAN and unparsable frames counted;
 *   - MATRIX trackers fed disjoint frames, absorbed into one, equal to
 *     one tracker fed them all, or refused (never inexact) under a budget;
 *   - the read-outs of many VNIs, groups and cells (the radix sort's
 *     sizes) equal to a model worked out here, and the radix sort itself
 *     equal to qsort on keys of every digit, stable.
 */
#include <stdlib.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "track_sort.h" /* white-box: the read-out's radix sort */
#include "unit.h"

#define GI (VXGBP_F_G | VXGBP_F_I)
#define GIA (VXGBP_F_G | VXGBP_F_I | VXGBP_F_A)
#define RB(r) VXGBP_RB(VXGBP_R_##r)
#define NONE VXGBP_GROUP_NONE
#define UNKNOWN VXGBP_GROUP_UNKNOWN

/* ---- an allocator that keeps count ---- */

#define MAXA 64

struct talloc {
	size_t held, peak;
	unsigned n_alloc, n_free;
	long ok_left;          /* allocations that may still succeed; < 0: any */
	int bad_free;          /* a pointer not ours, or a size not as asked */
	struct {
		void *p;
		size_t size;
	} a[MAXA];
};

static void *t_zalloc(void *ctx, size_t size)
{
	struct talloc *ta = ctx;
	void *p;

	if (ta->ok_left == 0)
		return NULL;
	if (ta->ok_left > 0)
		ta->ok_left--;
	if (!(p = calloc(1, size)))
		return NULL;
	for (int i = 0; i < MAXA; i++) {
		if (!ta->a[i].p) {
			ta->a[i].p = p;
			ta->a[i].size = size;
			ta->held += size;
			ta->n_alloc++;
			if (ta->held > ta->peak)
				ta->peak = ta->held;
			return p;
		}
	}
	free(p);
	return NULL;
}

static void t_free(void *ctx, void *ptr, size_t size)
{
	struct talloc *ta = ctx;

	for (int i = 0; i < MAXA; i++) {
		if (ta->a[i].p == ptr) {
			ta->bad_free |= ta->a[i].size != size;
			ta->held -= ta->a[i].size;
			ta->a[i].p = NULL;
			ta->n_free++;
			free(ptr);
			return;
		}
	}
	ta->bad_free = 1;
}

/* ---- frames ---- */

enum { K_V4 = 0, K_V6, K_ARP, K_L2 };

struct fspec {
	uint32_t vni;
	uint16_t flags;   /* the raw flag word */
	uint16_t group;
	uint8_t smac, dmac; /* last byte of the inner MACs 02:00:00:00:01:xx */
	int kind;         /* K_V4, K_V6 (inner IP), K_ARP (request), K_L2 (0x88b5) */
	uint8_t src, dst; /* last byte of 10.0.0.x / fd00::x (ARP: sender, target) */
	uint8_t proto;    /* 6, 17, 1 / 58 */
	uint16_t sport, dport; /* ICMP: echo id and sequence */
	uint8_t tag;      /* the payload's bytes: frames otherwise alike differ */
};

struct fbuf {
	uint8_t b[1024];
	int len;
	struct vxgbp_pkt p;
};

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void mac(uint8_t *m, uint8_t last)
{
	static const uint8_t base[6] = { 0x02, 0, 0, 0, 0x01, 0 };

	memcpy(m, base, 6);
	m[5] = last;
}

/* The inner frame of s into in; its length. */
static int inner_build(uint8_t *in, size_t n, const struct fspec *s)
{
	struct vxgbp_eth_spec eth = { 0 };
	struct vxgbp_ip_spec ip = { 0 };
	struct vxgbp_l4_spec l4 = { 0 };
	uint8_t payload[40];

	memset(payload, s->tag, sizeof(payload));
	mac(eth.src, s->smac);
	mac(eth.dst, s->dmac);
	if (s->kind == K_ARP || s->kind == K_L2) {
		memcpy(in, eth.dst, 6);
		memcpy(in + 6, eth.src, 6);
		put16(in + 12, s->kind == K_ARP ? 0x0806 : 0x88b5);
		memset(in + 14, s->tag, 46);
		if (s->kind == K_L2)
			return 60;
		put16(in + 14, 1);      /* Ethernet */
		put16(in + 16, 0x0800); /* IPv4 */
		in[18] = 6;
		in[19] = 4;
		put16(in + 20, 1);      /* request */
		memcpy(in + 22, eth.src, 6);
		memcpy(in + 28, (const uint8_t[4]){ 10, 0, 0, s->src }, 4);
		memset(in + 32, 0, 6);
		memcpy(in + 38, (const uint8_t[4]){ 10, 0, 0, s->dst }, 4);
		return 60;
	}
	ip.version = s->kind == K_V6 ? 6 : 4;
	if (ip.version == 4) {
		memcpy(ip.src, (const uint8_t[4]){ 10, 0, 0, s->src }, 4);
		memcpy(ip.dst, (const uint8_t[4]){ 10, 0, 0, s->dst }, 4);
	} else {
		ip.src[0] = ip.dst[0] = 0xfd;
		ip.src[15] = s->src;
		ip.dst[15] = s->dst;
	}
	l4.proto = s->proto;
	l4.sport = s->sport;
	l4.dport = s->dport;
	l4.icmp_type = s->proto == 58 ? 128 : 8;
	return vxgbp_frame_build(in, n, &eth, &ip, &l4, payload, sizeof(payload));
}

/* The whole frame of s, parsed; caplen 0 means all of it. */
static void build(struct fbuf *f, const struct fspec *s, int caplen)
{
	struct vxgbp_eth_spec oeth = { { 2, 0, 0, 0, 0, 2 }, { 2, 0, 0, 0, 0, 1 }, 0, { 0 }, { 0 } };
	struct vxgbp_ip_spec oip = { 0 };
	struct vxgbp_l4_spec udp = { 0 };
	struct vxgbp_hdr h = { s->flags, s->group, s->vni, 0 };
	uint8_t in[512];
	int n = inner_build(in, sizeof(in), s);

	ck_assert_int_gt(n, 0);
	oip.version = 4;
	memcpy(oip.src, (const uint8_t[4]){ 192, 0, 2, 1 }, 4);
	memcpy(oip.dst, (const uint8_t[4]){ 192, 0, 2, 2 }, 4);
	udp.proto = 17;
	udp.sport = 49152;
	udp.dport = 4789;
	f->len = vxgbp_vxlan_build(f->b, sizeof(f->b), &oeth, &oip, &udp, &h, in, (size_t)n);
	ck_assert_int_gt(f->len, 0);
	f->p.size = sizeof(f->p);
	vxgbp_pkt_parse(&f->p, f->b, caplen ? (size_t)caplen : (size_t)f->len, (size_t)f->len,
			NULL);
	if (!caplen)
		ck_assert_int_eq(f->p.err, 0);
}

/* ---- a tracker on the counting allocator ---- */

struct tk {
	struct vxgbp_track *t;
	struct talloc a;
	struct vxgbp_track_result r;
	uint64_t no; /* the last frame number fed */
};

static int tk_init(struct tk *k, unsigned what, size_t budget, long ok_allocs)
{
	struct vxgbp_track_opts o = { .size = sizeof(o), .what = what, .budget = budget,
				      .zalloc = t_zalloc, .free = t_free, .ctx = &k->a };

	memset(&k->a, 0, sizeof(k->a));
	k->a.ok_left = ok_allocs;
	k->no = 0;
	if (!k->t)
		k->t = malloc(vxgbp_track_size());
	ck_assert_ptr_nonnull(k->t);
	return vxgbp_track_init(k->t, &o);
}

static void tk_start(struct tk *k, unsigned what, size_t budget)
{
	k->t = NULL;
	ck_assert_int_eq(tk_init(k, what, budget, -1), 0);
}

static void tk_stop(struct tk *k)
{
	vxgbp_track_fini(k->t);
	EXPECT_EQ(k->a.held, 0);
	EXPECT_EQ(k->a.n_alloc, k->a.n_free);
	EXPECT(!k->a.bad_free, "freed with another size, or not ours");
	free(k->t);
	k->t = NULL;
}

/* Feed s as the next frame; the result in k->r, the return value back. */
static int feed(struct tk *k, const struct fspec *s)
{
	struct fbuf f;

	build(&f, s, 0);
	return vxgbp_track_frame(k->t, &f.p, ++k->no, &k->r);
}

/* The one hit k->r must hold. */
static void expect_hit(const struct tk *k, unsigned i, unsigned rule, enum vxgbp_track_key key,
		       uint64_t prev_frame, uint16_t prev_group, uint16_t prev_flags)
{
	const struct vxgbp_track_hit *h = &k->r.hit[i];

	EXPECT(i < k->r.n_hits, "hit %u of %u", i, k->r.n_hits);
	EXPECT_EQ(h->rule, rule);
	EXPECT_EQ(h->key, key);
	EXPECT_EQ(h->prev_frame, prev_frame);
	EXPECT_EQ(h->prev_group, prev_group);
	EXPECT_EQ(h->prev_flags, prev_flags);
	EXPECT(k->r.findings & VXGBP_RB(rule), "rule %u not in findings", rule);
}

static void expect_none(const struct tk *k)
{
	EXPECT_EQ(k->r.n_hits, 0);
	EXPECT_EQ(k->r.findings, 0);
}

/* A TCP frame from endpoint src to dst in VNI 100. */
static struct fspec tcp(uint8_t src, uint8_t dst, uint16_t flags, uint16_t group, uint8_t tag)
{
	struct fspec s = { 100, flags, group, src, dst, K_V4, src, dst, 6, 40000, 80, tag };

	return s;
}

/* ---- the re-sighting rules ---- */

START_TEST(test_reapplied)
{
	static const struct {
		const char *name;
		uint16_t f1, g1, f2, g2;
		int rule; /* 0: no re-sighting finding */
	} cases[] = {
		{ "A on both, new ID", GIA, 100, GIA, 200, VXGBP_R_POLICY_REAPPLIED },
		{ "A only now, new ID", GI, 100, GIA, 200, VXGBP_R_POLICY_REAPPLIED },
		{ "A then cleared, new ID", GIA, 100, GI, 200, VXGBP_R_A_CLEARED },
		{ "A then cleared, same ID", GIA, 100, GI, 100, VXGBP_R_A_CLEARED },
		{ "A then plain VXLAN", GIA, 100, VXGBP_F_I, 0, VXGBP_R_A_CLEARED },
		{ "A on both, same ID", GIA, 100, GIA, 100, 0 },
		{ "no A, same ID", GI, 100, GI, 100, 0 },
		{ "plain VXLAN, then A", VXGBP_F_I, 0, GIA, 200, 0 },
		{ "A without G, then G", VXGBP_F_I | VXGBP_F_A, 0, GI, 200, 0 },
	};
	struct tk k;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fspec a = tcp(1, 2, cases[i].f1, cases[i].g1, 7);
		struct fspec b = tcp(1, 2, cases[i].f2, cases[i].g2, 7);

		CTX("%s", cases[i].name);
		tk_start(&k, VXGBP_TRACK_RULES, 0);
		EXPECT_EQ(feed(&k, &a), 0);
		expect_none(&k);
		EXPECT_EQ(feed(&k, &b), 0);
		if (cases[i].rule) {
			EXPECT_EQ(k.r.n_hits, 1);
			EXPECT_EQ(k.r.findings, VXGBP_RB(cases[i].rule));
			expect_hit(&k, 0, (unsigned)cases[i].rule, VXGBP_KEY_FRAME, 1, cases[i].g1,
				   cases[i].f1);
		} else {
			/* no re-sighting finding; the same flow, same ID (or a
			 * first GBP sighting): no change either */
			expect_none(&k);
		}
		tk_stop(&k);
	}
}
END_TEST

/* The same short inner frame in two VNIs is two frames, not a re-sighting
 * (a hash that dropped its VNI seed for inputs under 64 bytes made it one). */
START_TEST(test_resighting_per_vni)
{
	struct tk k;

	for (int kind = K_V4; kind <= K_ARP; kind++) {
		struct fspec a = { 1001, GI, 0x100, 1, 2, kind, 1, 2, 1, 1, 1, 7 };
		struct fspec b = a;

		CTX("inner kind %d", kind);
		b.vni = 1002;
		b.flags = GIA;
		b.group = 0x200;
		tk_start(&k, VXGBP_TRACK_RULES, 0);
		EXPECT_EQ(feed(&k, &a), 0);
		EXPECT_EQ(feed(&k, &b), 0);
		EXPECT_EQ(k.r.findings & (VXGBP_RB(VXGBP_R_POLICY_REAPPLIED) |
					  VXGBP_RB(VXGBP_R_A_CLEARED)), 0);
		tk_stop(&k);
	}
}
END_TEST

START_TEST(test_resighting_details)
{
	struct fspec a = tcp(1, 2, GI, 100, 7), b = tcp(1, 2, GI, 200, 7);
	struct fspec c, d;
	struct tk k;

	/* The same inner frame, no A, another ID: not a re-sighting finding,
	 * so the endpoint and flow rules judge it: MAC, IP, flow in order. */
	CTX("re-sighting without A");
	tk_start(&k, VXGBP_TRACK_RULES, 0);
	feed(&k, &a);
	feed(&k, &b);
	EXPECT_EQ(k.r.n_hits, 3);
	EXPECT_EQ(k.r.findings, RB(GROUP_CONFLICT) | RB(FLOW_GROUP_CHANGE));
	expect_hit(&k, 0, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_MAC, 1, 100, GI);
	expect_hit(&k, 1, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_IP, 1, 100, GI);
	expect_hit(&k, 2, VXGBP_R_FLOW_GROUP_CHANGE, VXGBP_KEY_FLOW, 1, 100, GI);
	tk_stop(&k);

	/* A re-sighting reported is not also a change, and does not teach
	 * the endpoints: the next frame of that source is judged against
	 * frame 1. */
	CTX("reported re-sighting");
	tk_start(&k, VXGBP_TRACK_RULES, 0);
	a.flags = GIA;
	feed(&k, &a);
	feed(&k, &b); /* A cleared, ID 100 -> 200 */
	EXPECT_EQ(k.r.n_hits, 1);
	expect_hit(&k, 0, VXGBP_R_A_CLEARED, VXGBP_KEY_FRAME, 1, 100, GIA);
	c = tcp(1, 3, GI, 200, 8); /* another destination: another flow */
	feed(&k, &c);
	EXPECT_EQ(k.r.n_hits, 2);
	expect_hit(&k, 0, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_MAC, 1, 100, GIA);
	expect_hit(&k, 1, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_IP, 1, 100, GIA);
	tk_stop(&k);

	/* The cache is per VNI and per byte: another VNI, or one byte more,
	 * is another frame. */
	CTX("other VNI, other bytes");
	tk_start(&k, VXGBP_TRACK_RULES, 0);
	feed(&k, &a); /* A=1, ID 100 */
	c = a;
	c.vni = 101;
	c.group = 200;
	feed(&k, &c);
	expect_none(&k);
	d = a;
	d.tag = 9;
	d.group = 200;
	feed(&k, &d); /* not the same frame: a change of the endpoint and flow */
	EXPECT_EQ(k.r.findings, RB(GROUP_CONFLICT) | RB(FLOW_GROUP_CHANGE));
	EXPECT_EQ(k.r.n_hits, 3);
	tk_stop(&k);

	/* Re-sightings of frames cut short: the captured bytes are compared. */
	CTX("cut short");
	{
		struct fbuf f1, f2;

		tk_start(&k, VXGBP_TRACK_RULES, 0);
		a.flags = GIA;
		build(&f1, &a, 90);
		EXPECT(f1.p.have & VXGBP_HAVE_INNER_L2, "inner Ethernet of a cut frame");
		EXPECT_EQ(vxgbp_track_frame(k.t, &f1.p, 1, &k.r), 0);
		b.flags = GIA;
		build(&f2, &b, 90);
		EXPECT_EQ(vxgbp_track_frame(k.t, &f2.p, 2, &k.r), 0);
		expect_hit(&k, 0, VXGBP_R_POLICY_REAPPLIED, VXGBP_KEY_FRAME, 1, 100, GIA);
		tk_stop(&k);
	}
}
END_TEST

/* The frame seen whole and then as a VXLAN payload alone (a socket's
 * view): the same inner bytes, the same re-sighting. */
START_TEST(test_entry_points)
{
	struct fspec a = tcp(1, 2, GIA, 100, 7), b = tcp(1, 2, GIA, 200, 7);
	struct fbuf f;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	struct tk k;

	tk_start(&k, VXGBP_TRACK_RULES, 0);
	build(&f, &a, 0);
	EXPECT_EQ(vxgbp_track_frame(k.t, &f.p, 1, &k.r), 0);
	build(&f, &b, 0);
	EXPECT_EQ(vxgbp_pkt_parse_vxlan(&p, f.b + f.p.vxlan_off,
					(size_t)(f.len - f.p.vxlan_off),
					(size_t)(f.len - f.p.vxlan_off), NULL), 0);
	EXPECT_EQ(vxgbp_track_frame(k.t, &p, 2, &k.r), 0);
	EXPECT_EQ(k.r.n_hits, 1);
	expect_hit(&k, 0, VXGBP_R_POLICY_REAPPLIED, VXGBP_KEY_FRAME, 1, 100, GIA);
	tk_stop(&k);
}
END_TEST

/* ---- endpoints and flows ---- */

START_TEST(test_group_conflict)
{
	struct fspec s;
	struct tk k;

	tk_start(&k, VXGBP_TRACK_RULES, 0);
	s = tcp(1, 2, GI, 100, 1);
	feed(&k, &s);
	expect_none(&k);
	s = tcp(1, 3, GI | VXGBP_F_D, 200, 2); /* other flow, new ID */
	EXPECT_EQ(feed(&k, &s), 0);
	EXPECT_EQ(k.r.n_hits, 2);
	EXPECT_EQ(k.r.findings, RB(GROUP_CONFLICT));
	expect_hit(&k, 0, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_MAC, 1, 100, GI);
	expect_hit(&k, 1, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_IP, 1, 100, GI);
	s = tcp(1, 4, GI, 200, 3); /* the ID it now has: nothing */
	feed(&k, &s);
	expect_none(&k);
	/* the endpoint in another VNI is another endpoint */
	s = tcp(1, 4, GI, 300, 4);
	s.vni = 7;
	feed(&k, &s);
	expect_none(&k);
	/* plain VXLAN teaches nothing: G clear, then the old ID again */
	s = tcp(1, 5, VXGBP_F_I, 0, 5);
	feed(&k, &s);
	expect_none(&k);
	s = tcp(1, 6, GI, 200, 6);
	feed(&k, &s);
	expect_none(&k);
	/* the MAC alone moves: a new IP behind the same MAC */
	s = tcp(1, 2, GI, 500, 7);
	s.src = 9;
	feed(&k, &s); /* frame 7 */
	EXPECT_EQ(k.r.n_hits, 1);
	expect_hit(&k, 0, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_MAC, 6, 200, GI);
	/* an ARP sender is the IP endpoint of that address */
	s = (struct fspec){ 100, GI, 600, 20, 0xff, K_ARP, 9, 1, 0, 0, 0, 8 };
	feed(&k, &s); /* frame 8: 10.0.0.9 was ID 500 at frame 7 */
	EXPECT_EQ(k.r.n_hits, 1);
	expect_hit(&k, 0, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_IP, 7, 500, GI);
	/* a non-IP inner frame: the MAC only */
	s = (struct fspec){ 100, GI, 700, 20, 21, K_L2, 0, 0, 0, 0, 0, 9 };
	feed(&k, &s);
	EXPECT_EQ(k.r.n_hits, 1);
	expect_hit(&k, 0, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_MAC, 8, 600, GI);
	/* IPv6 endpoints */
	s = tcp(30, 31, GI, 100, 10);
	s.kind = K_V6;
	feed(&k, &s); /* frame 10 */
	s.group = 101;
	s.dst = 32;
	feed(&k, &s);
	EXPECT_EQ(k.r.n_hits, 2);
	expect_hit(&k, 1, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_IP, 10, 100, GI);
	tk_stop(&k);
}
END_TEST

/* ---- a key's entries appended across captures (--merge) ---- */

/* The frames of the append test: endpoints and flows that change group,
 * keep it, and come back, with G clear among them. */
static const struct fspec ap_frames[] = {
	{ 100, GI, 100, 1, 2, K_V4, 1, 2, 6, 40000, 80, 1 },
	{ 100, GI, 100, 3, 2, K_V4, 3, 2, 6, 40001, 80, 2 },
	{ 100, GI, 200, 1, 2, K_V4, 1, 2, 6, 40000, 80, 3 },  /* 1 and its flow change */
	{ 100, VXGBP_F_I, 0, 1, 4, K_V4, 1, 4, 17, 53, 53, 4 }, /* G clear */
	{ 100, GI, 200, 1, 2, K_V4, 1, 2, 6, 40000, 80, 5 },  /* the same again */
	{ 100, GI, 300, 3, 5, K_V4, 3, 5, 6, 40001, 80, 6 },  /* 3 changes, new flow */
	{ 100, GI, 100, 1, 2, K_V4, 1, 2, 6, 40000, 80, 7 },  /* back to 100 */
	{ 7, GI, 500, 1, 2, K_V4, 1, 2, 6, 40000, 80, 8 },    /* another VNI: new */
	{ 100, GI, 300, 3, 2, K_V4, 3, 2, 6, 40001, 80, 9 },  /* 3's first flow again */
};
#define AP_N (sizeof(ap_frames) / sizeof(ap_frames[0]))

/* Feed frames [from, to) to k; add each group-change hit to cnt[rule
 * index][frame] (frames numbered from base + 1). */
static void ap_feed(struct tk *k, size_t from, size_t to, uint64_t base, unsigned cnt[2][AP_N + 1])
{
	for (size_t i = from; i < to; i++) {
		feed(k, &ap_frames[i]);
		for (unsigned h = 0; h < k->r.n_hits; h++)
			if (k->r.hit[h].rule == VXGBP_R_GROUP_CONFLICT ||
			    k->r.hit[h].rule == VXGBP_R_FLOW_GROUP_CHANGE)
				cnt[k->r.hit[h].rule == VXGBP_R_FLOW_GROUP_CHANGE][base + k->no]++;
	}
}

static int ap_same_key(const struct vxgbp_track_entry *x, const struct vxgbp_track_entry *y)
{
	return x->vni == y->vni && x->family == y->family && x->proto == y->proto &&
	       x->sport == y->sport && x->dport == y->dport && !memcmp(x->addr, y->addr, 16) &&
	       !memcmp(x->addr2, y->addr2, 16);
}

/* The entry of t with y's key, or 0. */
static int ap_find(const struct vxgbp_track *t, enum vxgbp_track_kind kind,
		   const struct vxgbp_track_entry *y, struct vxgbp_track_entry *x)
{
	size_t it = 0;

	while (vxgbp_track_next(t, kind, &it, x) == 1)
		if (ap_same_key(x, y))
			return 1;
	return 0;
}

/* Every split of the frames in two: the findings of the two trackers plus
 * those vxgbp_track_entry_append finds between them are one tracker's, at
 * the same frames, and each appended entry's last sighting is its. */
START_TEST(test_entry_append)
{
	const unsigned what = VXGBP_TRACK_RULES | VXGBP_TRACK_FIRSTS;
	static const enum vxgbp_track_kind kinds[] = { VXGBP_ENT_ENDPOINT, VXGBP_ENT_FLOW };
	unsigned one[2][AP_N + 1] = { { 0 } };
	struct tk k1, ka, kb;

	tk_start(&k1, what, 0);
	ap_feed(&k1, 0, AP_N, 0, one);
	for (size_t split = 1; split < AP_N; split++) {
		unsigned two[2][AP_N + 1] = { { 0 } };

		tk_start(&ka, what, 0);
		tk_start(&kb, what, 0);
		ap_feed(&ka, 0, split, 0, two);
		ap_feed(&kb, split, AP_N, split, two);
		for (unsigned kk = 0; kk < 2; kk++) {
			struct vxgbp_track_entry x, y, o, w;
			size_t it = 0;

			while (vxgbp_track_next(kb.t, kinds[kk], &it, &y) == 1) {
				int had = ap_find(ka.t, kinds[kk], &y, &x), rule;

				CTX("split %zu kind %u", split, kinds[kk]);
				rule = vxgbp_track_entry_append(&o, had ? &x : NULL, &y, kinds[kk],
								split);
				EXPECT(rule >= 0, "append: %d", rule);
				if (rule > 0) {
					EXPECT_EQ(rule, kk ? VXGBP_R_FLOW_GROUP_CHANGE
							   : VXGBP_R_GROUP_CONFLICT);
					two[kk][y.first_frame + split]++;
				}
				EXPECT(ap_find(k1.t, kinds[kk], &y, &w), "key not in one tracker");
				EXPECT_EQ(o.last_frame, w.last_frame);
				EXPECT_EQ(o.last_group, w.last_group);
				EXPECT_EQ(o.first_frame, w.first_frame);
				EXPECT_EQ(o.first_group, w.first_group);
			}
		}
		for (unsigned kk = 0; kk < 2; kk++)
			for (size_t f = 0; f <= AP_N; f++) {
				CTX("split %zu kind %u frame %zu", split, kk, f);
				EXPECT_EQ(two[kk][f], one[kk][f]);
			}
		tk_stop(&ka);
		tk_stop(&kb);
	}
	tk_stop(&k1);
}
END_TEST

/* What vxgbp_track_entry_append does with counts, missing sightings and
 * the limits of its numbers. */
START_TEST(test_entry_append_edges)
{
	struct vxgbp_track_entry x = { 0 }, y = { 0 }, o;

	x.frames = 5;
	x.bytes = UINT64_MAX - 10;
	y.frames = 7;
	y.bytes = 10;
	EXPECT_EQ(vxgbp_track_entry_append(&o, &x, &y, VXGBP_ENT_PAIR, 3), 0);
	EXPECT_EQ(o.frames, 12);
	EXPECT_EQ(o.bytes, UINT64_MAX);
	y.bytes = 11; /* past UINT64_MAX: refused, o untouched */
	EXPECT_EQ(vxgbp_track_entry_append(&o, &x, &y, VXGBP_ENT_VNI, 3), VXGBP_E_INVAL);
	EXPECT_EQ(o.frames, 12);
	/* endpoints: x's last against y's first; in place (out == x) */
	memset(&x, 0, sizeof(x));
	memset(&y, 0, sizeof(y));
	x.last_frame = 4;
	x.last_group = 100;
	x.first_frame = 2;
	x.first_group = 50;
	x.learned = 100;
	y.first_frame = 1;
	y.first_group = 200;
	y.last_frame = 3;
	y.last_group = 300;
	y.learned = VXGBP_GROUP_UNKNOWN;
	EXPECT_EQ(vxgbp_track_entry_append(&x, &x, &y, VXGBP_ENT_ENDPOINT, 10),
		  VXGBP_R_GROUP_CONFLICT);
	EXPECT_EQ(x.first_frame, 2);
	EXPECT_EQ(x.first_group, 50);
	EXPECT_EQ(x.last_frame, 13);
	EXPECT_EQ(x.last_group, 300);
	EXPECT_EQ(x.learned, 100);
	/* the same group: nothing; no first sighting in y: nothing */
	y.first_group = 300;
	EXPECT_EQ(vxgbp_track_entry_append(&o, &x, &y, VXGBP_ENT_FLOW, 10), 0);
	y.first_group = 1;
	y.first_frame = 0;
	EXPECT_EQ(vxgbp_track_entry_append(&o, &x, &y, VXGBP_ENT_FLOW, 10), 0);
	/* nothing in x: y, moved up */
	y.first_frame = 1;
	EXPECT_EQ(vxgbp_track_entry_append(&o, NULL, &y, VXGBP_ENT_FLOW, 10), 0);
	EXPECT_EQ(o.first_frame, 11);
	EXPECT_EQ(o.last_frame, 13);
	/* x without a last sighting (the matrix's alone): no change to find */
	x.last_frame = 0;
	EXPECT_EQ(vxgbp_track_entry_append(&o, &x, &y, VXGBP_ENT_ENDPOINT, 10), 0);
	/* frame numbers past UINT64_MAX, bad arguments */
	EXPECT_EQ(vxgbp_track_entry_append(&o, &x, &y, VXGBP_ENT_ENDPOINT, UINT64_MAX - 1),
		  VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_entry_append(NULL, &x, &y, VXGBP_ENT_ENDPOINT, 0), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_entry_append(&o, &x, NULL, VXGBP_ENT_ENDPOINT, 0), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_entry_append(&o, &x, &y, (enum vxgbp_track_kind)0, 0),
		  VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_entry_append(&o, &x, &y, (enum vxgbp_track_kind)5, 0),
		  VXGBP_E_INVAL);
}
END_TEST

START_TEST(test_flow_change)
{
	struct fspec s;
	struct tk k;

	tk_start(&k, VXGBP_TRACK_RULES, 0);
	s = tcp(1, 2, GI, 100, 1);
	feed(&k, &s); /* frame 1: flow 1>2 */
	s = tcp(1, 3, GI, 200, 2);
	feed(&k, &s); /* frame 2: the endpoint to 200 (a conflict) */
	EXPECT_EQ(k.r.findings, RB(GROUP_CONFLICT));
	s = tcp(1, 2, GI, 200, 3);
	feed(&k, &s); /* frame 3: the endpoint agrees, flow 1>2 changed */
	EXPECT_EQ(k.r.n_hits, 1);
	expect_hit(&k, 0, VXGBP_R_FLOW_GROUP_CHANGE, VXGBP_KEY_FLOW, 1, 100, GI);
	/* other ports, other protocol: other flows */
	s = tcp(1, 2, GI, 200, 4);
	s.sport = 40001;
	feed(&k, &s);
	s.group = 200;
	s.proto = 17;
	s.sport = 40000;
	feed(&k, &s);
	expect_none(&k);
	/* ICMP: no ports in the key (echo id and sequence differ) */
	s = tcp(1, 2, GI, 200, 5);
	s.proto = 1;
	s.sport = 1;
	s.dport = 1;
	feed(&k, &s); /* frame 6 */
	s = tcp(1, 8, GI, 300, 6);
	feed(&k, &s); /* frame 7: the endpoint to 300 */
	s = tcp(1, 2, GI, 300, 7);
	s.proto = 1;
	s.sport = 2;
	s.dport = 9;
	feed(&k, &s);
	EXPECT_EQ(k.r.n_hits, 1);
	expect_hit(&k, 0, VXGBP_R_FLOW_GROUP_CHANGE, VXGBP_KEY_FLOW, 6, 200, GI);
	tk_stop(&k);
}
END_TEST

/* ---- the matrix ---- */

struct mframe {
	struct fspec s;
	int wire; /* filled in: the frame's length */
};

/* A small capture (VNI 100 unless said):
 *   A 10.0.0.1 (0x100), B .2 (0x200 at first, 0x300 later), C .3 (never
 *   sends), D .4 (plain VXLAN only), E .5 (ARP only, 0x500), F (non-IP). */
static struct mframe cap[] = {
	{ { 100, GI, 0x100, 1, 2, K_V4, 1, 2, 6, 1000, 80, 1 }, 0 },  /* A > B */
	{ { 100, GI, 0x100, 1, 2, K_V4, 1, 2, 6, 1000, 80, 2 }, 0 },  /* A > B */
	{ { 100, GI, 0x200, 2, 1, K_V4, 2, 1, 6, 80, 1000, 3 }, 0 },  /* B > A */
	{ { 100, GI, 0x100, 1, 3, K_V4, 1, 3, 17, 5, 53, 4 }, 0 },    /* A > C */
	{ { 100, VXGBP_F_I, 0, 4, 1, K_V4, 4, 1, 17, 6, 7, 5 }, 0 },  /* D > A, plain */
	{ { 200, GI, 0x100, 1, 2, K_V4, 1, 2, 6, 1000, 80, 6 }, 0 },  /* A > B in VNI 200 */
	{ { 100, GI, 0x100, 1, 0xff, K_ARP, 1, 5, 0, 0, 0, 7 }, 0 },  /* A asks for E */
	{ { 100, GI, 0x500, 5, 1, K_ARP, 5, 1, 0, 0, 0, 8 }, 0 },     /* E asks for A */
	{ { 100, GI, 0x100, 1, 6, K_L2, 0, 0, 0, 0, 0, 9 }, 0 },      /* A > F, non-IP */
	{ { 100, GI, 0x600, 6, 1, K_L2, 0, 0, 0, 0, 0, 10 }, 0 },     /* F > A, non-IP */
	{ { 100, GI, 0x300, 2, 1, K_V4, 2, 1, 6, 80, 1000, 11 }, 0 }, /* B > A, new ID */
};
#define NCAP (sizeof(cap) / sizeof(cap[0]))

/* Frames of a non-VXLAN kind fed too: a DNS query, a cut outer header. */
static int other_frames(struct tk *k, int *wire)
{
	struct vxgbp_eth_spec eth = { { 2, 0, 0, 0, 0, 2 }, { 2, 0, 0, 0, 0, 1 }, 0, { 0 }, { 0 } };
	struct vxgbp_ip_spec ip = { 0 };
	struct vxgbp_l4_spec l4 = { 0 };
	uint8_t b[128], pl[20] = { 0 };
	struct vxgbp_pkt p = { .size = sizeof(p) };
	int n;

	ip.version = 4;
	ip.src[0] = ip.dst[0] = 10;
	l4.proto = 17;
	l4.sport = 5353;
	l4.dport = 53;
	n = vxgbp_frame_build(b, sizeof(b), &eth, &ip, &l4, pl, sizeof(pl));
	ck_assert_int_gt(n, 0);
	EXPECT_EQ(vxgbp_pkt_parse(&p, b, (size_t)n, (size_t)n, NULL), 0);
	EXPECT_EQ(vxgbp_track_frame(k->t, &p, ++k->no, NULL), 0);
	EXPECT(vxgbp_pkt_parse(&p, b, 20, (size_t)n, NULL) < 0, "a cut frame parses");
	EXPECT_EQ(vxgbp_track_frame(k->t, &p, ++k->no, NULL), 0);
	*wire = 2 * n;
	return 2;
}

static void check_matrix(unsigned what)
{
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	struct vxgbp_track_count v[8], g[8];
	struct vxgbp_track_cell c[16];
	uint64_t bytes = 0;
	int w[NCAP], other_wire, n;
	struct tk k;

	tk_start(&k, what, 0);
	for (size_t i = 0; i < NCAP; i++) {
		struct fbuf f;

		build(&f, &cap[i].s, 0);
		w[i] = f.len;
		bytes += (uint64_t)f.len;
		EXPECT_EQ(vxgbp_track_frame(k.t, &f.p, ++k.no, &k.r), 0);
	}
	other_frames(&k, &other_wire);
	vxgbp_track_summary(k.t, &s);
	EXPECT_EQ(s.frames, NCAP + 2);
	EXPECT_EQ(s.bytes, bytes + (uint64_t)other_wire);
	EXPECT_EQ(s.vxlan, NCAP);
	EXPECT_EQ(s.gbp, NCAP - 1);
	EXPECT_EQ(s.other, 2);
	EXPECT_EQ(s.unparsed, 1);
	EXPECT_EQ(s.vnis, 2);
	EXPECT_EQ(s.groups, 6);
	EXPECT_EQ(s.full, 0);
	EXPECT_EQ(s.mem, k.a.held);

	n = vxgbp_track_vnis(k.t, v, s.vnis);
	EXPECT_EQ(n, 2);
	EXPECT_EQ(v[0].key, 100);
	EXPECT_EQ(v[0].frames, NCAP - 1);
	EXPECT_EQ(v[0].bytes, bytes - (uint64_t)w[5]);
	EXPECT_EQ(v[1].key, 200);
	EXPECT_EQ(v[1].bytes, w[5]);

	n = vxgbp_track_groups(k.t, g, s.groups);
	EXPECT_EQ(n, 6);
	EXPECT_EQ(g[0].key, 0x100);
	EXPECT_EQ(g[0].frames, 6);
	EXPECT_EQ(g[0].bytes, w[0] + w[1] + w[3] + w[5] + w[6] + w[8]);
	EXPECT_EQ(g[1].key, 0x200);
	EXPECT_EQ(g[2].key, 0x300);
	EXPECT_EQ(g[3].key, 0x500);
	EXPECT_EQ(g[4].key, 0x600);
	EXPECT_EQ(g[5].key, NONE);
	EXPECT_EQ(g[5].bytes, w[4]);

	/* B's group is the last one it sent with (0x300); C never sent; B in
	 * VNI 200 never sent there; ARP targets and MACs are endpoints too. */
	n = vxgbp_track_matrix(k.t, c, s.pairs);
	EXPECT_EQ(n, 9);
	{
		static const uint32_t want[][3] = {
			{ 0x100, 0x300, 2 }, { 0x100, 0x500, 1 }, { 0x100, 0x600, 1 },
			{ 0x100, UNKNOWN, 2 }, { 0x200, 0x100, 1 }, { 0x300, 0x100, 1 },
			{ 0x500, 0x100, 1 }, { 0x600, 0x100, 1 }, { NONE, 0x100, 1 },
		};
		for (int i = 0; i < 9; i++) {
			CTX("matrix %u cell %d", what, i);
			EXPECT_EQ(c[i].src, want[i][0]);
			EXPECT_EQ(c[i].dst, want[i][1]);
			EXPECT_EQ(c[i].frames, want[i][2]);
		}
	}
	EXPECT_EQ(c[0].bytes, w[0] + w[1]);
	EXPECT_EQ(c[3].bytes, w[3] + w[5]);
	EXPECT_EQ(c[8].bytes, w[4]);
	/* ten (source group, VNI, destination) pairs made the nine cells */
	EXPECT_EQ(s.pairs, 10);
	n = vxgbp_track_matrix(k.t, c, s.pairs - 1);
	EXPECT_EQ(n, VXGBP_E_NOSPACE);
	EXPECT_EQ(vxgbp_track_vnis(k.t, v, 1), VXGBP_E_NOSPACE);
	EXPECT_EQ(vxgbp_track_groups(k.t, g, 5), VXGBP_E_NOSPACE);
	tk_stop(&k);
}

START_TEST(test_matrix)
{
	CTX("matrix, pipelined");
	check_matrix(VXGBP_TRACK_MATRIX);
	CTX("matrix with the rules");
	check_matrix(VXGBP_TRACK_MATRIX | VXGBP_TRACK_RULES);
}
END_TEST

/* A non-IP, non-ARP frame to a MAC the tracker knows only as the rules'
 * source endpoint (A's frames taught the matrix A's IP address, not its
 * MAC): the destination is unknown, not group 0x0000.  With RULES the
 * endpoint table holds A's MAC without a learned group. */
START_TEST(test_matrix_unlearned_mac)
{
	static const struct fspec a = { 100, GI, 0x100, 1, 2, K_V4, 1, 2, 6, 1000, 80, 1 };
	static const struct fspec g = { 100, GI, 0x700, 7, 1, K_L2, 0, 0, 0, 0, 0, 2 };
	static const unsigned what[] = { VXGBP_TRACK_MATRIX,
					 VXGBP_TRACK_MATRIX | VXGBP_TRACK_RULES };
	struct vxgbp_track_cell c[4];
	struct tk k;

	for (size_t i = 0; i < sizeof(what) / sizeof(what[0]); i++) {
		CTX("tracker %#x", what[i]);
		tk_start(&k, what[i], 0);
		EXPECT_EQ(feed(&k, &a), 0);
		EXPECT_EQ(feed(&k, &g), 0);
		EXPECT_EQ(vxgbp_track_matrix(k.t, c, 4), 2);
		EXPECT_EQ(c[0].src, 0x100);
		EXPECT_EQ(c[0].dst, UNKNOWN);
		EXPECT_EQ(c[1].src, 0x700);
		EXPECT_EQ(c[1].dst, UNKNOWN);
		tk_stop(&k);
	}
}
END_TEST

/* The summary of a pipelined tracker is never a frame behind, and reading
 * twice changes nothing. */
START_TEST(test_pipeline_flush)
{
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	struct vxgbp_track_count v[2];
	struct vxgbp_track_cell c[2];
	struct fspec a = tcp(1, 2, GI, 100, 1), b = tcp(2, 1, GI, 200, 2);
	struct tk k;

	tk_start(&k, VXGBP_TRACK_MATRIX, 0);
	feed(&k, &a);
	vxgbp_track_summary(k.t, &s);
	EXPECT_EQ(s.vnis, 1);
	EXPECT_EQ(s.pairs, 1);
	EXPECT_EQ(vxgbp_track_vnis(k.t, v, 1), 1);
	EXPECT_EQ(v[0].frames, 1);
	EXPECT_EQ(vxgbp_track_matrix(k.t, c, 1), 1);
	EXPECT_EQ(c[0].dst, UNKNOWN);
	feed(&k, &b); /* B speaks: A > B now resolves */
	EXPECT_EQ(vxgbp_track_matrix(k.t, c, 2), 2);
	EXPECT_EQ(c[0].src, 100);
	EXPECT_EQ(c[0].dst, 200);
	EXPECT_EQ(c[1].dst, 100);
	EXPECT_EQ(vxgbp_track_vnis(k.t, v, 1), 1);
	EXPECT_EQ(v[0].frames, 2);
	vxgbp_track_summary(k.t, &s);
	EXPECT_EQ(s.frames, 2);
	EXPECT_EQ(s.endpoints, 2);
	tk_stop(&k);
}
END_TEST

/* ---- budget and allocator ---- */

/* The fixed part of a tracker doing `what`: what it holds before any frame. */
static size_t fixed_part(unsigned what)
{
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	struct tk k;

	tk_start(&k, what, 0);
	vxgbp_track_summary(k.t, &s);
	tk_stop(&k);
	return s.mem;
}

/* Source i: its own MAC, IP and flow. */
static struct fspec source(int i, uint16_t group)
{
	struct fspec s = tcp((uint8_t)i, 250, GI, group, (uint8_t)i);

	s.kind = K_V6; /* 200 sources */
	return s;
}

#define TAB1 (64 * 64 + 63) /* the first table: 64 slots of 64 bytes, aligned */

START_TEST(test_budget_rules)
{
	size_t fixed = fixed_part(VXGBP_TRACK_RULES);
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	struct fspec x;
	struct tk k;
	int rc;

	EXPECT(fixed >= (size_t)65536 * 24, "fixed part %zu: the re-sighting cache", fixed);
	/* room for one table: the endpoints get it (the first key is a MAC),
	 * the flows none; 48 keys (3/4 of 64): sources 1-24 */
	tk_start(&k, VXGBP_TRACK_RULES, fixed + TAB1);
	for (int i = 1; i <= 200; i++) {
		x = source(i, 100);
		rc = feed(&k, &x);
		EXPECT_EQ(rc, VXGBP_E_NOSPACE);
		EXPECT_EQ(k.r.full, i <= 24 ? VXGBP_TRACK_FULL_FLOWS
			  : VXGBP_TRACK_FULL_FLOWS | VXGBP_TRACK_FULL_ENDPOINTS);
		expect_none(&k);
	}
	vxgbp_track_summary(k.t, &s);
	EXPECT_EQ(s.endpoints, 48);
	EXPECT_EQ(s.dropped_endpoints, 2 * 200 - 48);
	EXPECT_EQ(s.flows, 0);
	EXPECT_EQ(s.dropped_flows, 200);
	EXPECT_EQ(s.full, VXGBP_TRACK_FULL_ENDPOINTS | VXGBP_TRACK_FULL_FLOWS);
	EXPECT_EQ(s.frames, 200);
	EXPECT(s.mem <= fixed + TAB1 && k.a.peak <= fixed + TAB1, "held %zu, peak %zu",
	       s.mem, k.a.peak);
	/* a stored source still conflicts; an unstored one finds nothing */
	x = source(24, 200);
	x.dst = 251;
	feed(&k, &x);
	EXPECT_EQ(k.r.n_hits, 2);
	expect_hit(&k, 0, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_MAC, 24, 100, GI);
	expect_hit(&k, 1, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_IP, 24, 100, GI);
	x = source(25, 200);
	x.dst = 251;
	feed(&k, &x);
	expect_none(&k);
	/* the re-sighting cache is fixed: it works whatever the budget */
	x = source(150, 100);
	x.flags = GIA;
	x.tag = 150;
	feed(&k, &x);
	x.group = 300;
	feed(&k, &x);
	EXPECT_EQ(k.r.n_hits, 1);
	expect_hit(&k, 0, VXGBP_R_POLICY_REAPPLIED, VXGBP_KEY_FRAME, k.no - 1, 100, GIA);
	tk_stop(&k);

	/* room for the tables to grow once (64 -> 128 slots while holding 64) */
	tk_start(&k, VXGBP_TRACK_RULES, fixed + 2 * TAB1 + (128 * 64 + 63));
	for (int i = 1; i <= 200; i++) {
		x = source(i, 100);
		feed(&k, &x);
	}
	vxgbp_track_summary(k.t, &s);
	EXPECT_EQ(s.endpoints + s.dropped_endpoints, 400);
	EXPECT_EQ(s.flows + s.dropped_flows, 200);
	EXPECT_EQ(s.endpoints, 96);
	EXPECT_EQ(s.flows, 48);
	EXPECT(k.a.peak <= fixed + 2 * TAB1 + (128 * 64 + 63), "peak %zu", k.a.peak);
	tk_stop(&k);

	/* no room for the fixed part */
	k.t = NULL;
	EXPECT_EQ(tk_init(&k, VXGBP_TRACK_RULES, fixed - 1, -1), VXGBP_E_NOSPACE);
	EXPECT_EQ(k.a.held, 0);
	vxgbp_track_fini(k.t); /* not started: nothing */
	free(k.t);
}
END_TEST

START_TEST(test_budget_matrix)
{
	size_t fixed = fixed_part(VXGBP_TRACK_MATRIX);
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	struct vxgbp_track_count v[2], g[2];
	struct vxgbp_track_cell c[2];
	uint64_t bytes = 0;
	struct tk k;

	/* one table: the VNIs (the first key applied), no pairs, no endpoints */
	tk_start(&k, VXGBP_TRACK_MATRIX, fixed + TAB1);
	for (int i = 1; i <= 50; i++) {
		struct fspec x = source(i, 100);
		struct fbuf f;

		build(&f, &x, 0);
		bytes += (uint64_t)f.len;
		vxgbp_track_frame(k.t, &f.p, ++k.no, &k.r);
		/* the pipeline: the full keys reported are the frame before's */
		EXPECT_EQ(k.r.full, i == 1 ? 0
			  : VXGBP_TRACK_FULL_PAIRS | VXGBP_TRACK_FULL_ENDPOINTS);
	}
	vxgbp_track_summary(k.t, &s);
	EXPECT_EQ(s.vnis, 1);
	EXPECT_EQ(s.dropped_vnis, 0);
	EXPECT_EQ(s.pairs, 0);
	EXPECT_EQ(s.dropped_pairs, 50);
	EXPECT_EQ(s.dropped_pair_bytes, bytes);
	EXPECT_EQ(s.endpoints, 0);
	EXPECT_EQ(s.dropped_endpoints, 50);
	EXPECT_EQ(s.full, VXGBP_TRACK_FULL_PAIRS | VXGBP_TRACK_FULL_ENDPOINTS);
	EXPECT_EQ(vxgbp_track_vnis(k.t, v, 2), 1);
	EXPECT_EQ(v[0].frames, 50);
	EXPECT_EQ(v[0].bytes, bytes);
	EXPECT_EQ(vxgbp_track_groups(k.t, g, 2), 1); /* counters are fixed */
	EXPECT_EQ(g[0].frames, 50);
	EXPECT_EQ(vxgbp_track_matrix(k.t, c, 2), 0); /* no cell made up */
	tk_stop(&k);
}
END_TEST

START_TEST(test_alloc_fails)
{
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	struct fspec x;
	struct tk k = { 0 };

	/* not even the fixed part */
	EXPECT_EQ(tk_init(&k, VXGBP_TRACK_RULES, 0, 0), VXGBP_E_NOSPACE);
	EXPECT_EQ(k.a.n_alloc, 0);
	/* the fixed part only: every key dropped, frames still counted */
	EXPECT_EQ(tk_init(&k, VXGBP_TRACK_RULES | VXGBP_TRACK_MATRIX, 0, 1), 0);
	for (int i = 1; i <= 10; i++) {
		x = source(i, 100);
		EXPECT_EQ(feed(&k, &x), VXGBP_E_NOSPACE);
	}
	vxgbp_track_summary(k.t, &s);
	EXPECT_EQ(s.frames, 10);
	EXPECT_EQ(s.gbp, 10);
	EXPECT_EQ(s.endpoints + s.flows + s.pairs + s.vnis, 0);
	EXPECT_EQ(s.dropped_endpoints, 30); /* MAC, IP and the matrix's source */
	EXPECT_EQ(s.dropped_flows, 10);
	EXPECT_EQ(s.dropped_vnis, 10);
	EXPECT_EQ(s.dropped_pairs, 10);
	tk_stop(&k);

	/* the fixed part and one table: growth fails at 48 keys; the stored
	 * keys keep working */
	EXPECT_EQ(tk_init(&k, VXGBP_TRACK_RULES, 0, 2), 0);
	for (int i = 1; i <= 40; i++) {
		x = source(i, 100);
		feed(&k, &x);
	}
	vxgbp_track_summary(k.t, &s);
	EXPECT_EQ(s.endpoints, 48);
	EXPECT_EQ(s.dropped_endpoints, 80 - 48);
	EXPECT_EQ(s.flows, 0);
	x = source(3, 200);
	x.dst = 251;
	feed(&k, &x);
	EXPECT_EQ(k.r.n_hits, 2);
	expect_hit(&k, 0, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_MAC, 3, 100, GI);
	tk_stop(&k);
}
END_TEST

START_TEST(test_fini_init)
{
	struct fspec a = tcp(1, 2, GI, 100, 1), b = tcp(1, 3, GI, 200, 2);
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	struct tk k;

	tk_start(&k, VXGBP_TRACK_RULES | VXGBP_TRACK_MATRIX, 0);
	feed(&k, &a);
	feed(&k, &b);
	EXPECT_EQ(k.r.n_hits, 2);
	vxgbp_track_fini(k.t);
	EXPECT_EQ(k.a.held, 0);
	vxgbp_track_fini(k.t); /* twice: nothing */
	EXPECT_EQ(vxgbp_track_frame(k.t, &(struct vxgbp_pkt){ 0 }, 1, &k.r), VXGBP_E_INVAL);
	vxgbp_track_summary(k.t, &s);
	EXPECT_EQ(s.frames, 0);
	/* again, fresh: the same frames, the same finding, nothing of before */
	EXPECT_EQ(tk_init(&k, VXGBP_TRACK_RULES, 0, -1), 0);
	feed(&k, &b);
	expect_none(&k);
	feed(&k, &a);
	EXPECT_EQ(k.r.n_hits, 2);
	expect_hit(&k, 0, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_MAC, 1, 200, GI);
	vxgbp_track_summary(k.t, &s);
	EXPECT_EQ(s.frames, 2);
	EXPECT_EQ(s.groups, 0); /* no matrix this time */
	tk_stop(&k);
}
END_TEST

START_TEST(test_api_errors)
{
	struct vxgbp_track_opts o = { .size = sizeof(o), .what = VXGBP_TRACK_RULES,
				      .zalloc = t_zalloc, .free = t_free };
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	struct vxgbp_track_result r;
	struct talloc ta = { 0 };
	struct vxgbp_track *t = malloc(vxgbp_track_size());
	struct fspec a = tcp(1, 2, GI, 100, 1);
	struct fbuf f;

	ck_assert_ptr_nonnull(t);
	o.ctx = &ta;
	ta.ok_left = -1;
	EXPECT_EQ(vxgbp_track_init(NULL, &o), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_init(t, NULL), VXGBP_E_INVAL);
	o.what = 0;
	EXPECT_EQ(vxgbp_track_init(t, &o), VXGBP_E_INVAL);
	o.what = 8; /* no such mode (4 is VXGBP_TRACK_FLOWS since 1.1) */
	EXPECT_EQ(vxgbp_track_init(t, &o), VXGBP_E_INVAL);
	o.what = VXGBP_TRACK_MATRIX;
	o.zalloc = NULL;
	EXPECT_EQ(vxgbp_track_init(t, &o), VXGBP_E_INVAL);
	o.zalloc = t_zalloc;
	o.free = NULL;
	EXPECT_EQ(vxgbp_track_init(t, &o), VXGBP_E_INVAL);
	EXPECT_EQ(ta.n_alloc, 0);
	vxgbp_track_fini(t);
	vxgbp_track_summary(t, &s);
	EXPECT_EQ(s.mem, 0);
	EXPECT_EQ(vxgbp_track_vnis(t, NULL, 0), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_groups(NULL, NULL, 0), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_matrix(t, NULL, 0), VXGBP_E_INVAL);
	o.free = t_free;
	EXPECT_EQ(vxgbp_track_init(t, &o), 0);
	build(&f, &a, 0);
	EXPECT_EQ(vxgbp_track_frame(t, &f.p, 0, &r), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_frame(t, NULL, 1, &r), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_frame(NULL, &f.p, 1, &r), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_frame(t, &f.p, 1, NULL), 0);
	EXPECT_EQ(vxgbp_track_frame(t, &f.p, 2, &r), 0);
	EXPECT_EQ(r.findings, 0); /* RULES off */
	vxgbp_track_summary(t, &s);
	EXPECT_EQ(s.frames, 2);
	EXPECT_EQ(s.flows, 0);
	EXPECT_EQ(s.vnis, 1);
	EXPECT_EQ(vxgbp_track_vnis(t, NULL, 0), VXGBP_E_NOSPACE);
	vxgbp_track_fini(t);
	EXPECT_EQ(ta.held, 0);
	EXPECT(!ta.bad_free, "bad free");
	free(t);
}
END_TEST

/* Plain VXLAN, non-VXLAN, unparsable frames, a VXLAN frame cut in its
 * inner frame: each counted where it belongs. */
/* Every key kind has a name, distinct; anything else has none. */
START_TEST(test_key_names)
{
	static const struct {
		enum vxgbp_track_key k;
		const char *name;
	} want[] = {
		{ VXGBP_KEY_FRAME, "inner frame" },
		{ VXGBP_KEY_MAC, "source MAC" },
		{ VXGBP_KEY_IP, "source IP" },
		{ VXGBP_KEY_FLOW, "flow" },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		EXPECT_STR(vxgbp_track_key_name(want[i].k), want[i].name);
	EXPECT(vxgbp_track_key_name((enum vxgbp_track_key)0) == NULL, "a name for key 0");
	EXPECT(vxgbp_track_key_name((enum vxgbp_track_key)(VXGBP_KEY_FLOW + 1)) == NULL,
	       "a name past the last key");
}
END_TEST

START_TEST(test_counts)
{
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	struct vxgbp_track_count g[4];
	struct fspec a = tcp(1, 2, GI, 100, 1), b = tcp(1, 2, VXGBP_F_I, 0, 2);
	struct fbuf f;
	int wire;
	struct tk k;

	tk_start(&k, VXGBP_TRACK_MATRIX | VXGBP_TRACK_RULES, 0);
	feed(&k, &a);
	feed(&k, &b);
	expect_none(&k);
	build(&f, &a, 42 + 8 + 10); /* VXLAN, inner Ethernet cut */
	EXPECT(f.p.err != 0 && (f.p.have & VXGBP_HAVE_VXLAN), "cut in the inner frame");
	EXPECT_EQ(vxgbp_track_frame(k.t, &f.p, ++k.no, &k.r), 0);
	expect_none(&k);
	other_frames(&k, &wire);
	vxgbp_track_summary(k.t, &s);
	EXPECT_EQ(s.frames, 5);
	EXPECT_EQ(s.vxlan, 3);
	EXPECT_EQ(s.gbp, 2);
	EXPECT_EQ(s.other, 2);
	EXPECT_EQ(s.unparsed, 1);
	EXPECT_EQ(s.endpoints, 2); /* MAC and IP of the one whole GBP frame */
	EXPECT_EQ(s.flows, 1);
	EXPECT_EQ(vxgbp_track_groups(k.t, g, 4), 2);
	EXPECT_EQ(g[0].key, 100);
	EXPECT_EQ(g[0].frames, 2);
	EXPECT_EQ(g[1].key, NONE);
	EXPECT_EQ(g[1].frames, 1);
	tk_stop(&k);
}
END_TEST

/* ---- many keys: the read-outs' radix sort ---- */

#define MK_FRAMES 700
#define MK_VNIS 97
#define MK_ADDRS 23

static int mk_count_cmp(const void *a, const void *b)
{
	const struct vxgbp_track_count *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static int mk_cell_cmp(const void *a, const void *b)
{
	const struct vxgbp_track_cell *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

/* The model's counters: key's entry in c[0, *n), added to. */
static void mk_count(struct vxgbp_track_count *c, int *n, uint32_t key, int len)
{
	int i = 0;

	while (i < *n && c[i].key != key)
		i++;
	if (i == *n)
		c[(*n)++].key = key;
	c[i].frames++;
	c[i].bytes += (uint64_t)len;
}

static void mk_cell(struct vxgbp_track_cell *c, int *n, uint32_t src, uint32_t dst,
		    uint64_t frames, uint64_t bytes)
{
	int i = 0;

	while (i < *n && !(c[i].src == src && c[i].dst == dst))
		i++;
	if (i == *n) {
		c[i].src = src;
		c[i].dst = dst;
		(*n)++;
	}
	c[i].frames += frames;
	c[i].bytes += bytes;
}

/* Hundreds of VNIs (over all 24 bits), groups (over all 16 bits, and plain
 * VXLAN) and cells (destinations learned or not): the tracker's read-outs
 * sorted and summed as worked out here. */
START_TEST(test_many_keys)
{
	static struct vxgbp_track_count v[MK_FRAMES], g[MK_FRAMES], mv[MK_FRAMES], mg[MK_FRAMES];
	static struct vxgbp_track_cell c[MK_FRAMES], mc[MK_FRAMES];
	static uint64_t pf[MK_FRAMES], pb[MK_FRAMES];
	static uint32_t learned[MK_VNIS][MK_ADDRS + 1], pg[MK_FRAMES];
	static int pv[MK_FRAMES], pd[MK_FRAMES];
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	int nv = 0, ng = 0, nc = 0, np = 0;
	struct tk k;

	memset(learned, 0, sizeof(learned));
	memset(mv, 0, sizeof(mv));
	memset(mg, 0, sizeof(mg));
	memset(mc, 0, sizeof(mc));
	tk_start(&k, VXGBP_TRACK_MATRIX, 0);
	for (int i = 0; i < MK_FRAMES; i++) {
		int j = i % MK_VNIS, p;
		uint32_t vni = j < 3 ? (uint32_t[]){ 0, VXGBP_VNI_MAX, 0x800000 }[j]
				     : (uint32_t)j * 0x9e3779b1u & VXGBP_VNI_MAX;
		uint16_t grp = (uint16_t)((i % 89) * 0x2e5 + 1);
		int gbp = i % 11 != 0;
		uint8_t sa = (uint8_t)(i % MK_ADDRS + 1), da = (uint8_t)(i * 7 % MK_ADDRS + 1);
		struct fspec x = tcp(sa, da, gbp ? GI : VXGBP_F_I, gbp ? grp : 0, (uint8_t)i);
		uint32_t gk = gbp ? grp : NONE;
		struct fbuf f;

		x.vni = vni;
		build(&f, &x, 0);
		EXPECT_EQ(vxgbp_track_frame(k.t, &f.p, ++k.no, NULL), 0);
		mk_count(mv, &nv, vni, f.len);
		mk_count(mg, &ng, gk, f.len);
		if (gbp) /* the source learns its group: the latest frame's */
			learned[j][sa] = 0x80000000u | grp;
		for (p = 0; p < np && !(pg[p] == gk && pv[p] == j && pd[p] == da); p++)
			;
		if (p == np) {
			pg[p] = gk;
			pv[p] = j;
			pd[p] = da;
			np++;
		}
		pf[p]++;
		pb[p] += (uint64_t)f.len;
	}
	for (int p = 0; p < np; p++) {
		uint32_t l = learned[pv[p]][pd[p]];

		mk_cell(mc, &nc, pg[p], l ? l & 0xffffu : UNKNOWN, pf[p], pb[p]);
	}
	qsort(mv, (size_t)nv, sizeof(*mv), mk_count_cmp);
	qsort(mg, (size_t)ng, sizeof(*mg), mk_count_cmp);
	qsort(mc, (size_t)nc, sizeof(*mc), mk_cell_cmp);
	ck_assert_int_ge(nv, 64); /* the sizes that take the radix sort */
	ck_assert_int_ge(ng, 64);
	ck_assert_int_ge(nc, 64);
	vxgbp_track_summary(k.t, &s);
	EXPECT_EQ(s.vnis, nv);
	EXPECT_EQ(s.groups, ng);
	EXPECT_EQ(s.pairs, np);
	memset(v, 0, sizeof(v)); /* padding too: compared with memcmp */
	memset(g, 0, sizeof(g));
	memset(c, 0, sizeof(c));
	EXPECT_EQ(vxgbp_track_vnis(k.t, v, s.vnis), nv);
	EXPECT_EQ(vxgbp_track_groups(k.t, g, s.groups), ng);
	EXPECT_EQ(vxgbp_track_matrix(k.t, c, s.pairs), nc);
	EXPECT(!memcmp(v, mv, sizeof(v)), "VNI counters differ (first %u, model %u)", v[0].key,
	       mv[0].key);
	EXPECT(!memcmp(g, mg, sizeof(g)), "group counters differ");
	EXPECT(!memcmp(c, mc, sizeof(c)), "matrices differ (first %u > %u, model %u > %u)",
	       c[0].src, c[0].dst, mc[0].src, mc[0].dst);
	tk_stop(&k);
}
END_TEST

static uint64_t rx_count_key(const void *e)
{
	return ((const struct vxgbp_track_count *)e)->key;
}

static uint64_t rx_cell_key(const void *e)
{
	const struct vxgbp_track_cell *c = e;

	return (uint64_t)c->src << 18 | c->dst;
}

/* A pseudo-random number (xorshift64): the same on every run. */
static uint64_t rx_next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* trk_radix() against qsort: sizes around the digits' edges, keys that
 * differ in one digit only (the others skipped), in all, or not at all;
 * equal keys keep their order (frames numbers the input). */
START_TEST(test_radix)
{
	static const uint32_t sizes[] = { 0, 1, 2, 3, 64, 65, 511, 512, 513, 3000 };
	static struct vxgbp_track_count a[3000], b[3000], t[3000];
	static struct vxgbp_track_cell ca[3000], cb[3000], ct[3000];
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (unsigned z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		for (unsigned shape = 0; shape < 6; shape++) {
			uint32_t n = sizes[z];

			CTX("radix n %u shape %u", n, shape);
			for (uint32_t i = 0; i < n; i++) {
				uint64_t r = rx_next(&x);
				/* shape 0-2: one 9-bit digit varies; 3: all 24 bits;
				 * 4: one key; 5: few keys (equal ones kept in order) */
				uint32_t key = shape < 3 ? (uint32_t)(r & 0x1ff) << (9 * shape)
					     : shape == 3 ? (uint32_t)r & 0xffffff
					     : shape == 4 ? 0x123456u : (uint32_t)r % 5 * 0x10101u;

				memset(&a[i], 0, sizeof(a[i]));
				a[i].key = key;
				a[i].frames = i;
				a[i].bytes = r;
				memset(&ca[i], 0, sizeof(ca[i]));
				ca[i].src = shape == 3 ? (uint32_t)(r >> 24) % 0x10001 : (uint32_t)(r >> 30) & 1;
				ca[i].dst = shape == 4 ? UNKNOWN : key & 0x3ffff;
				ca[i].frames = i;
			}
			memcpy(b, a, n * sizeof(*a));
			memcpy(cb, ca, n * sizeof(*ca));
			TRK_RADIX(a, t, n, 3, rx_count_key);
			TRK_RADIX(ca, ct, n, 4, rx_cell_key);
			qsort(b, n, sizeof(*b), mk_count_cmp);
			qsort(cb, n, sizeof(*cb), mk_cell_cmp);
			for (uint32_t i = 0; i < n; i++) {
				EXPECT_EQ(a[i].key, b[i].key);
				EXPECT_EQ(ca[i].src, cb[i].src);
				EXPECT_EQ(ca[i].dst, cb[i].dst);
				if (i && a[i].key == a[i - 1].key)
					EXPECT(a[i].frames > a[i - 1].frames, "not stable at %u", i);
				if (i && ca[i].src == ca[i - 1].src && ca[i].dst == ca[i - 1].dst)
					EXPECT(ca[i].frames > ca[i - 1].frames, "cells not stable at %u", i);
			}
		}
	}
}
END_TEST

/* ---- absorbing: trackers fed disjoint frames (gbpdump -j --stats) ---- */

#define AB_MAX 640

/* All a MATRIX tracker tells: the summary and the three read-outs. */
struct mview {
	struct vxgbp_track_summary s;
	struct vxgbp_track_count v[AB_MAX], g[AB_MAX];
	struct vxgbp_track_cell c[AB_MAX];
	int nv, ng, nc;
};

static void mview_get(struct vxgbp_track *t, struct mview *m)
{
	memset(m, 0, sizeof(*m)); /* padding too: compared with memcmp */
	m->s.size = sizeof(m->s);
	vxgbp_track_summary(t, &m->s);
	m->nv = vxgbp_track_vnis(t, m->v, AB_MAX);
	m->ng = vxgbp_track_groups(t, m->g, AB_MAX);
	m->nc = vxgbp_track_matrix(t, m->c, AB_MAX);
}

static void mview_expect_eq(const struct mview *a, const struct mview *b)
{
	EXPECT(!memcmp(&a->s, &b->s, sizeof(a->s)), "summaries differ (frames %llu/%llu, "
	       "endpoints %zu/%zu, pairs %zu/%zu, mem %zu/%zu)",
	       (unsigned long long)a->s.frames, (unsigned long long)b->s.frames,
	       a->s.endpoints, b->s.endpoints, a->s.pairs, b->s.pairs, a->s.mem, b->s.mem);
	EXPECT_EQ(a->nv, b->nv);
	EXPECT_EQ(a->ng, b->ng);
	EXPECT_EQ(a->nc, b->nc);
	EXPECT(!memcmp(a->v, b->v, sizeof(a->v)), "VNI counters differ");
	EXPECT(!memcmp(a->g, b->g, sizeof(a->g)), "group counters differ");
	EXPECT(!memcmp(a->c, b->c, sizeof(a->c)), "matrices differ");
}

/* A frame that is not VXLAN (a DNS query), whole or cut in its IP header. */
static void dns_frame(struct fbuf *f, int cut)
{
	struct vxgbp_eth_spec eth = { { 2, 0, 0, 0, 0, 2 }, { 2, 0, 0, 0, 0, 1 }, 0, { 0 }, { 0 } };
	struct vxgbp_ip_spec ip = { 0 };
	struct vxgbp_l4_spec l4 = { 0 };
	uint8_t pl[20] = { 0 };

	ip.version = 4;
	ip.src[0] = ip.dst[0] = 10;
	l4.proto = 17;
	l4.sport = 5353;
	l4.dport = 53;
	f->len = vxgbp_frame_build(f->b, sizeof(f->b), &eth, &ip, &l4, pl, sizeof(pl));
	ck_assert_int_gt(f->len, 0);
	f->p.size = sizeof(f->p);
	vxgbp_pkt_parse(&f->p, f->b, cut ? 20 : (size_t)f->len, (size_t)f->len, NULL);
}

#define AB_FRAMES 700

/* The frames for absorbing.  Set 0: the small capture, 200 sources (each
 * a new endpoint, group 0x700 + i % 7) that B (cap[2], cap[10]) answers,
 * changing group as it goes, frames that are not VXLAN.  Set 1: the 200
 * sources (the endpoints grow), then one source sending with 400 groups
 * (the pairs grow, later and larger).  Set 2: 4 frames that are not VXLAN,
 * then the 400 groups' frames. */
static struct fbuf *ab_frames(int set, size_t *n)
{
	struct fbuf *f = calloc(AB_FRAMES, sizeof(*f));
	size_t m = 0;

	ck_assert_ptr_nonnull(f);
	for (size_t i = 0; set == 0 && i < NCAP; i++)
		build(&f[m++], &cap[i].s, 0);
	for (int i = 0; set == 2 && i < 4; i++)
		dns_frame(&f[m++], i & 1);
	for (int i = 1; set < 2 && i <= 200; i++) {
		struct fspec x = source(i, (uint16_t)(0x700 + i % 7));

		build(&f[m++], &x, 0);
		if (set == 0 && i % 4 == 0) {
			struct fspec y = tcp(2, (uint8_t)i, GI, (uint16_t)(0x800 + i % 3), 3);

			build(&f[m++], &y, 0);
		}
		if (set == 0 && i % 50 == 0)
			dns_frame(&f[m++], i % 100 == 0);
	}
	for (int i = 0; set >= 1 && i < 400; i++) {
		struct fspec y = tcp(1, (uint8_t)(i % 250), GI, (uint16_t)(0x1000 + i), 4);

		build(&f[m++], &y, 0);
	}
	*n = m;
	return f;
}

/* Frames [0, n) shared out by who[] to k trackers (budget SIZE_MAX, so
 * that they drop nothing), absorbed into a fresh one of budget b in the
 * order rot, rot + 1, ... (mod k): its return, *out the result's view.
 * rot >= k: the sources share the fresh one's allocator
 * (vxgbp_track_init_like: it may take a source's tables). */
static int ab_run(const struct fbuf *f, size_t n, const uint8_t *who, unsigned k,
		  unsigned rot, size_t b, struct mview *out)
{
	struct tk t[4], d;
	struct vxgbp_track *src[4];
	int rc, like = rot >= k;

	tk_start(&d, VXGBP_TRACK_MATRIX, b);
	for (unsigned j = 0; j < k; j++) {
		if (like) {
			t[j].t = malloc(vxgbp_track_size());
			ck_assert_ptr_nonnull(t[j].t);
			ck_assert_int_eq(vxgbp_track_init_like(t[j].t, d.t, SIZE_MAX), 0);
		} else {
			tk_start(&t[j], VXGBP_TRACK_MATRIX, SIZE_MAX);
		}
		src[(j + k - rot % k) % k] = t[j].t;
	}
	for (size_t i = 0; i < n; i++) /* frame numbers from 1, each tracker's ascending */
		vxgbp_track_frame(t[who[i]].t, &f[i].p, i + 1, NULL);
	rc = vxgbp_track_absorb(d.t, src, k);
	mview_get(d.t, out);
	for (unsigned j = 0; j < k; j++) {
		if (like) {
			vxgbp_track_fini(t[j].t);
			free(t[j].t);
		} else {
			tk_stop(&t[j]);
		}
	}
	tk_stop(&d); /* the scratch memory and every table given back */
	return rc;
}

/* One tracker of budget b fed every frame, in *out. */
static void ab_one(const struct fbuf *f, size_t n, size_t b, struct mview *out)
{
	struct tk t;

	tk_start(&t, VXGBP_TRACK_MATRIX, b);
	for (size_t i = 0; i < n; i++)
		vxgbp_track_frame(t.t, &f[i].p, i + 1, NULL);
	mview_get(t.t, out);
	tk_stop(&t);
}

START_TEST(test_absorb)
{
	struct mview *one = malloc(sizeof(*one)), *got = malloc(sizeof(*got));
	uint8_t who[AB_FRAMES] = { 0 };
	size_t n;
	struct fbuf *f = ab_frames(0, &n);

	ck_assert_ptr_nonnull(one);
	ck_assert_ptr_nonnull(got);
	ab_one(f, n, 0, one);
	EXPECT_EQ(one->s.full, 0);
	CTX("one source");
	EXPECT_EQ(ab_run(f, n, who, 1, 0, 0, got), 0);
	mview_expect_eq(one, got);
	/* splits of the small capture in two, the rest to tracker 0; masks
	 * that put B's two groups (frames 3 and 11) apart included */
	for (unsigned mask = 0; mask < (1u << NCAP); mask += 13) {
		for (unsigned i = 0; i < NCAP; i++)
			who[i] = (uint8_t)(mask >> i & 1);
		for (unsigned rot = 0; rot <= 2; rot++) {
			CTX("mask %#x rot %u", mask, rot);
			EXPECT_EQ(ab_run(f, n, who, 2, rot, 0, got), 0);
			mview_expect_eq(one, got);
		}
	}
	/* three and four ways, round robin and in runs of 5 */
	for (unsigned k = 3; k <= 4; k++)
		for (unsigned rot = 0; rot <= k; rot++) {
			for (size_t i = 0; i < n; i++)
				who[i] = (uint8_t)(i % k);
			CTX("round robin %u ways rot %u", k, rot);
			EXPECT_EQ(ab_run(f, n, who, k, rot, 0, got), 0);
			mview_expect_eq(one, got);
			for (size_t i = 0; i < n; i++)
				who[i] = (uint8_t)(i / 5 % k);
			CTX("runs of 5 %u ways rot %u", k, rot);
			EXPECT_EQ(ab_run(f, n, who, k, rot, 0, got), 0);
			mview_expect_eq(one, got);
		}
	free(f);
	free(one);
	free(got);
}
END_TEST

/* Under budget b: frames f[0, n) shared out by who[] (k ways) and
 * absorbed is what one tracker fed them all gives, drops included
 * (*full counts the budgets where that one dropped keys). */
static void ab_budget(const struct fbuf *f, size_t n, const uint8_t *who, unsigned k,
		      size_t b, unsigned *full)
{
	struct mview *one = malloc(sizeof(*one)), *got = malloc(sizeof(*got));

	ck_assert_ptr_nonnull(one);
	ck_assert_ptr_nonnull(got);
	ab_one(f, n, b, one);
	for (unsigned rot = 0; rot <= k; rot++) { /* k: sharing the allocator */
		EXPECT_EQ(ab_run(f, n, who, k, rot, b, got), 0);
		mview_expect_eq(one, got);
	}
	*full += one->s.full != 0;
	free(one);
	free(got);
}

/* Every budget from the fixed part up, in steps of a quarter of the first
 * table, under which one tracker fed every frame drops keys in every
 * table: set 0 split by parity, in runs of 7 three ways and round robin
 * four ways; set 1 with the endpoints' frames on one side and the pairs'
 * on the other (one tracker's last growth of the pairs sees the endpoints
 * at full size); set 2 with the pairs' frames against frames without keys. */
START_TEST(test_absorb_budget)
{
	size_t fixed = fixed_part(VXGBP_TRACK_MATRIX), n;
	uint8_t who[AB_FRAMES];
	unsigned full = 0, runs = 0;

	for (int set = 0; set < 3; set++) {
		struct fbuf *f = ab_frames(set, &n);

		for (unsigned split = 0; split < (set == 0 ? 3u : 1u); split++) {
			unsigned k = split + 2;

			for (size_t i = 0; i < n; i++)
				who[i] = (uint8_t)(set > 0 ? i < (set == 1 ? 200u : 4u)
						   : split == 0 ? i & 1 : split == 1 ? i / 7 % 3
						   : i % 4);
			for (size_t b = fixed; b <= fixed + 60 * TAB1; b += TAB1 / 4) {
				CTX("set %d %u ways budget fixed + %zu", set, k, b - fixed);
				ab_budget(f, n, who, k, b, &full);
				runs++;
			}
			CTX("set %d %u ways, the default budget", set, k);
			ab_budget(f, n, who, k, 0, &full);
			runs++;
		}
		free(f);
	}
	EXPECT(full > 0 && full < runs, "%u of %u budgets dropped keys", full, runs);
}
END_TEST

/* A VXLAN-GPE frame (port 4790, Next Protocol IPv4) carrying a UDP
 * packet 10.0.0.<src> > 10.0.0.2 straight, no Ethernet, into f. */
static void gpe_ip_frame(struct fbuf *f, uint8_t src)
{
	struct vxgbp_eth_spec eth = { { 2, 0, 0, 0, 1, 2 }, { 2, 0, 0, 0, 1, 1 }, 0, { 0 }, { 0 } };
	struct vxgbp_ip_spec ip = { .version = 4, .src = { 10, 0, 0, src }, .dst = { 10, 0, 0, 2 } };
	struct vxgbp_l4_spec l4 = { .proto = 17, .sport = 40000, .dport = 53 };
	struct vxgbp_hdr h = { VXGBP_F_I | VXGBP_GPE_F_P, VXGBP_GPE_NP_IPV4, 300, 0 };
	uint8_t a[256];
	int n = vxgbp_frame_build(a, sizeof(a), NULL, &ip, &l4, NULL, 0);

	ck_assert_int_gt(n, 0);
	ip.src[3] = 1;
	l4.sport = 50000;
	l4.dport = VXGBP_PORT_GPE;
	f->len = vxgbp_vxlan_build(f->b, sizeof(f->b), &eth, &ip, &l4, &h, a, (size_t)n);
	ck_assert_int_gt(f->len, 0);
	f->p.size = sizeof(f->p);
	ck_assert_int_eq(vxgbp_pkt_parse(&f->p, f->b, (size_t)f->len, (size_t)f->len, NULL), 0);
	ck_assert_int_eq(f->p.vx_kind, VXGBP_VX_GPE);
	ck_assert(!(f->p.have & VXGBP_HAVE_INNER_L2) && (f->p.have & VXGBP_HAVE_INNER_L3));
}

/* GPE carrying IP has no source MAC: the rules say so on each such frame
 * (and go on: the same inner packet is still found in the cache). */
START_TEST(test_unjudged_mac)
{
	struct tk k;
	struct fbuf *f = calloc(1, sizeof(*f));
	struct fspec x = source(1, 100);

	ck_assert_ptr_nonnull(f);
	tk_start(&k, VXGBP_TRACK_RULES, 0);
	gpe_ip_frame(f, 7);
	EXPECT_EQ(vxgbp_track_frame(k.t, &f->p, ++k.no, &k.r), 0);
	EXPECT_EQ(k.r.unjudged, VXGBP_TRACK_UNJUDGED_MAC);
	EXPECT_EQ(feed(&k, &x), 0); /* an Ethernet frame: judged by MAC */
	EXPECT_EQ(k.r.unjudged, 0);
	EXPECT_EQ(vxgbp_track_frame(k.t, &f->p, ++k.no, &k.r), 0);
	EXPECT_EQ(k.r.unjudged, VXGBP_TRACK_UNJUDGED_MAC);
	expect_none(&k);
	tk_stop(&k);
	free(f);
}
END_TEST

/* ---- mirrors: frames per session they came through ---- */

#define MR_FRAMES 8000

/* A VXLAN-GBP frame (group 0x100 + i % 3, VNI 100) inside a mirror's
 * VXLAN header of VNI mvni (G clear), into f. */
static void mirror_frame(struct fbuf *f, uint32_t mvni, unsigned i)
{
	struct vxgbp_eth_spec eth = { { 2, 0, 0, 0, 1, 2 }, { 2, 0, 0, 0, 1, 1 }, 0, { 0 }, { 0 } };
	struct vxgbp_ip_spec ip = { .version = 4, .src = { 10, 0, 0, 1 }, .dst = { 10, 0, 0, 2 } };
	struct vxgbp_l4_spec l4 = { .proto = 17, .sport = 40000, .dport = 53 };
	struct vxgbp_hdr h;
	uint8_t a[256], b[512];
	int n, m;

	ip.src[3] = (uint8_t)i;
	n = vxgbp_frame_build(a, sizeof(a), &eth, &ip, &l4, NULL, 0);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(vxgbp_hdr_init(&h, 100, VXGBP_F_G, (uint16_t)(0x100 + i % 3)), 0);
	ip.src[3] = 1;
	l4.sport = 50000;
	l4.dport = VXGBP_PORT_IANA;
	m = vxgbp_vxlan_build(b, sizeof(b), &eth, &ip, &l4, &h, a, (size_t)n);
	ck_assert_int_gt(m, 0);
	ck_assert_int_eq(vxgbp_hdr_init(&h, mvni, 0, 0), 0);
	f->len = vxgbp_vxlan_build(f->b, sizeof(f->b), &eth, &ip, &l4, &h, b, (size_t)m);
	ck_assert_int_gt(f->len, 0);
	f->p.size = sizeof(f->p);
	ck_assert_int_eq(vxgbp_pkt_parse(&f->p, f->b, (size_t)f->len, (size_t)f->len, NULL), 0);
}

struct mrview {
	struct vxgbp_track_summary s;
	struct vxgbp_track_mirror m[MR_FRAMES];
	int n;
};

static void mrview_get(struct vxgbp_track *t, struct mrview *v)
{
	memset(v, 0, sizeof(*v));
	v->s.size = sizeof(v->s);
	vxgbp_track_summary(t, &v->s);
	v->n = vxgbp_track_mirrors(t, v->m, MR_FRAMES);
}

/* Mirror VNIs 1000 + (i * 37) % 6600: 6,600 sessions, more than a tracker
 * holds, each seen more than once; frames shared out in runs of 3. */
START_TEST(test_absorb_mirrors)
{
	struct fbuf *f = calloc(1, sizeof(*f));
	struct mrview *one = calloc(1, sizeof(*one)), *sum = calloc(1, sizeof(*sum));
	struct tk a, t[2], d;
	struct vxgbp_track *src[2];
	uint64_t frames = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(one);
	ck_assert_ptr_nonnull(sum);
	tk_start(&a, VXGBP_TRACK_MATRIX, 0);
	tk_start(&t[0], VXGBP_TRACK_MATRIX, SIZE_MAX);
	tk_start(&t[1], VXGBP_TRACK_MATRIX, SIZE_MAX);
	tk_start(&d, VXGBP_TRACK_MATRIX, 0);
	for (unsigned i = 0; i < MR_FRAMES; i++) {
		mirror_frame(f, 1000 + (i * 37) % 6600, i);
		vxgbp_track_frame(a.t, &f->p, i + 1, NULL);
		vxgbp_track_frame(t[(i / 3) % 2].t, &f->p, i + 1, NULL);
	}
	mrview_get(a.t, one);
	EXPECT_EQ(one->s.mirror_frames, MR_FRAMES);
	EXPECT_EQ(one->s.mirrors, 6144);
	EXPECT_EQ(one->n, 6144);
	EXPECT(one->s.dropped_mirrors > 0, "no mirror dropped");
	EXPECT(one->s.full & VXGBP_TRACK_FULL_MIRRORS, "the full bit");
	EXPECT_EQ(one->s.dropped_endpoints + one->s.dropped_pairs, 0); /* its own table */
	for (int i = 0; i < one->n; i++) {
		EXPECT_EQ(one->m[i].kind, VXGBP_MIRROR_VXLAN);
		EXPECT(!i || one->m[i].id > one->m[i - 1].id, "not sorted at %d", i);
		frames += one->m[i].frames;
	}
	EXPECT_EQ(frames + one->s.dropped_mirrors, MR_FRAMES);
	/* a source that dropped a mirror cannot be summed */
	src[0] = a.t;
	EXPECT_EQ(vxgbp_track_absorb(d.t, src, 1), VXGBP_E_NOSPACE);
	src[0] = t[0].t;
	src[1] = t[1].t;
	EXPECT_EQ(vxgbp_track_absorb(d.t, src, 2), 0);
	mrview_get(d.t, sum);
	EXPECT_EQ(sum->n, one->n);
	EXPECT(!memcmp(sum->m, one->m, sizeof(one->m)), "mirrors differ");
	EXPECT_EQ(sum->s.mirror_frames, one->s.mirror_frames);
	EXPECT_EQ(sum->s.mirror_bytes, one->s.mirror_bytes);
	EXPECT_EQ(sum->s.dropped_mirrors, one->s.dropped_mirrors);
	EXPECT_EQ(sum->s.dropped_mirror_bytes, one->s.dropped_mirror_bytes);
	EXPECT_EQ(sum->s.full, one->s.full);
	EXPECT_EQ(vxgbp_track_mirrors(d.t, sum->m, 1), VXGBP_E_NOSPACE);
	EXPECT_EQ(vxgbp_track_mirrors(NULL, sum->m, 1), VXGBP_E_INVAL);
	tk_stop(&a);
	tk_stop(&t[0]);
	tk_stop(&t[1]);
	tk_stop(&d);
	free(f);
	free(one);
	free(sum);
}
END_TEST

START_TEST(test_absorb_errors)
{
	struct tk a, b, c, r;
	struct vxgbp_track *idle = malloc(vxgbp_track_size()), *v[2];
	struct vxgbp_track_opts bad = { 0 };
	struct fspec x = source(1, 100);
	struct fbuf f;

	ck_assert_ptr_nonnull(idle);
	EXPECT_EQ(vxgbp_track_init(idle, &bad), VXGBP_E_INVAL); /* never started */
	tk_start(&a, VXGBP_TRACK_MATRIX, 0);
	tk_start(&b, VXGBP_TRACK_MATRIX, 0);
	tk_start(&c, VXGBP_TRACK_MATRIX, fixed_part(VXGBP_TRACK_MATRIX));
	tk_start(&r, VXGBP_TRACK_MATRIX | VXGBP_TRACK_RULES, 0);
	EXPECT_EQ(vxgbp_track_matrix_alone(a.t), 1);
	EXPECT_EQ(vxgbp_track_matrix_alone(r.t), 0);
	EXPECT_EQ(vxgbp_track_matrix_alone(idle), 0);
	EXPECT_EQ(vxgbp_track_matrix_alone(NULL), 0);
	v[0] = b.t;
	EXPECT_EQ(vxgbp_track_absorb(NULL, v, 1), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_absorb(a.t, NULL, 1), VXGBP_E_INVAL);
	v[0] = a.t;
	EXPECT_EQ(vxgbp_track_absorb(a.t, v, 1), VXGBP_E_INVAL);
	v[0] = idle;
	EXPECT_EQ(vxgbp_track_absorb(a.t, v, 1), VXGBP_E_INVAL);
	v[0] = b.t;
	EXPECT_EQ(vxgbp_track_absorb(idle, v, 1), VXGBP_E_INVAL);
	v[0] = r.t;
	EXPECT_EQ(vxgbp_track_absorb(a.t, v, 1), VXGBP_E_INVAL);
	v[0] = a.t;
	EXPECT_EQ(vxgbp_track_absorb(r.t, v, 1), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_track_absorb(a.t, NULL, 0), 0); /* nothing */
	v[0] = b.t;
	v[1] = c.t;
	EXPECT_EQ(vxgbp_track_absorb(a.t, v, 2), 0); /* two empty ones */
	/* a source that dropped a key (no room for a table at all) */
	build(&f, &x, 0);
	vxgbp_track_frame(c.t, &f.p, 1, NULL);
	EXPECT_EQ(vxgbp_track_absorb(a.t, v, 2), VXGBP_E_NOSPACE);
	/* a destination that was fed a frame */
	vxgbp_track_frame(b.t, &f.p, 2, NULL);
	EXPECT_EQ(vxgbp_track_absorb(b.t, v + 1, 1), VXGBP_E_INVAL);
	tk_stop(&a);
	tk_stop(&b);
	tk_stop(&c);
	tk_stop(&r);
	free(idle);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("track");
	TCase *tc = unit_tcase(s, "rules");

	tcase_add_test(tc, test_reapplied);
	tcase_add_test(tc, test_resighting_per_vni);
	tcase_add_test(tc, test_resighting_details);
	tcase_add_test(tc, test_entry_points);
	tcase_add_test(tc, test_group_conflict);
	tcase_add_test(tc, test_flow_change);
	tcase_add_test(tc, test_unjudged_mac);
	tcase_add_test(tc, test_entry_append);
	tcase_add_test(tc, test_entry_append_edges);
	tc = unit_tcase(s, "matrix");
	tcase_add_test(tc, test_matrix);
	tcase_add_test(tc, test_matrix_unlearned_mac);
	tcase_add_test(tc, test_pipeline_flush);
	tcase_add_test(tc, test_counts);
	tcase_add_test(tc, test_many_keys);
	tcase_add_test(tc, test_radix);
	tcase_add_test(tc, test_absorb);
	tcase_add_test(tc, test_absorb_budget);
	tcase_add_test(tc, test_absorb_errors);
	tcase_add_test(tc, test_absorb_mirrors);
	tc = unit_tcase(s, "memory");
	tcase_add_test(tc, test_budget_rules);
	tcase_add_test(tc, test_budget_matrix);
	tcase_add_test(tc, test_alloc_fails);
	tcase_add_test(tc, test_fini_init);
	tcase_add_test(tc, test_api_errors);
	tcase_add_test(tc, test_key_names);
	return unit_run(s, "track");
}
