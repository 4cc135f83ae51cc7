// SPDX-License-Identifier: BSD-2-Clause
/* test_size.c - the size-versioned structs (docs/api.md): struct vxgbp_pkt
 * and struct vxgbp_track_summary out, struct vxgbp_parse_opts and struct
 * vxgbp_track_opts in.  A caller's bigger struct (a newer header) gets the
 * library's fields, is told their size, and its tail is never written; an
 * input tail that asks for something (non-zero) is refused; a size below
 * the first release's is refused with nothing written. */
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "unit.h"

#define TAIL 64

static uint8_t frame[256];
static int frame_len;

/* Ethernet/IPv4/UDP 4789/VXLAN-GBP group 0x200/Ethernet/IPv4/UDP. */
static void build(void)
{
	const struct vxgbp_eth_spec eth = { .dst = { 2, 0, 0, 0, 0, 2 }, .src = { 2, 0, 0, 0, 0, 1 } };
	const struct vxgbp_ip_spec in_ip = { .version = 4, .src = { 10, 0, 0, 1 },
					     .dst = { 10, 0, 0, 2 } };
	const struct vxgbp_ip_spec out_ip = { .version = 4, .src = { 192, 0, 2, 1 },
					      .dst = { 192, 0, 2, 2 } };
	const struct vxgbp_l4_spec in_udp = { .proto = 17, .sport = 5000, .dport = 53 };
	const struct vxgbp_l4_spec out_udp = { .proto = 17, .sport = 49152,
					       .dport = VXGBP_PORT_IANA };
	struct vxgbp_hdr h;
	uint8_t inner[128];
	int n;

	ck_assert_int_eq(vxgbp_hdr_init(&h, 100, VXGBP_F_G, 0x200), 0);
	n = vxgbp_frame_build(inner, sizeof(inner), &eth, &in_ip, &in_udp, "x", 1);
	ck_assert_int_gt(n, 0);
	frame_len = vxgbp_vxlan_build(frame, sizeof(frame), &eth, &out_ip, &out_udp, &h, inner,
				      (size_t)n);
	ck_assert_int_gt(frame_len, 0);
}

static int tail_is(const uint8_t *t, uint8_t v)
{
	for (size_t i = 0; i < TAIL; i++)
		if (t[i] != v)
			return 0;
	return 1;
}

START_TEST(pkt_out)
{
	struct vxgbp_pkt want = { .size = sizeof(want) }, small;
	struct {
		struct vxgbp_pkt p;
		uint8_t tail[TAIL];
	} big;
	size_t n;

	build();
	n = (size_t)frame_len;
	ck_assert_int_eq(vxgbp_pkt_parse(&want, frame, n, n, NULL), 0);
	ck_assert_uint_eq(want.size, sizeof(want));
	ck_assert(want.have & VXGBP_HAVE_INNER_L4);
	EXPECT(VXGBP_HAS(&want, struct vxgbp_pkt, cooked), "the last field is filled");

	/* a newer caller's bigger struct: our fields, our size, its tail alone */
	memset(&big, 0x5a, sizeof(big));
	big.p.size = sizeof(big);
	ck_assert_int_eq(vxgbp_pkt_parse(&big.p, frame, n, n, NULL), 0);
	EXPECT_EQ(big.p.size, sizeof(struct vxgbp_pkt));
	EXPECT(tail_is(big.tail, 0x5a), "the tail past the library's struct was written");
	EXPECT_EQ(big.p.findings, want.findings);
	EXPECT_EQ(big.p.vx.group, 0x200);
	EXPECT_EQ(big.p.inner.l4.dport, 53);
	big.p.size = sizeof(big);
	ck_assert_int_eq(vxgbp_pkt_parse_vxlan(&big.p, frame + want.vxlan_off,
					       n - (size_t)want.vxlan_off,
					       n - (size_t)want.vxlan_off, NULL), 0);
	EXPECT_EQ(big.p.size, sizeof(struct vxgbp_pkt));
	EXPECT(tail_is(big.tail, 0x5a), "parse_vxlan wrote the tail");

	/* below the first release's size: refused, nothing written */
	for (uint32_t sz = 0; sz < sizeof(small); sz += sizeof(small) / 7) {
		memset(&small, 0x33, sizeof(small));
		small.size = sz;
		EXPECT_EQ(vxgbp_pkt_parse(&small, frame, n, n, NULL), VXGBP_E_INVAL);
		EXPECT_EQ(vxgbp_pkt_parse_vxlan(&small, frame, n, n, NULL), VXGBP_E_INVAL);
		EXPECT_EQ(vxgbp_pkt_parse_inner(&small, frame, n, n, NULL), VXGBP_E_INVAL);
		EXPECT_EQ(small.size, sz);
		EXPECT_EQ(small.caplen, 0x33333333u);
	}
}
END_TEST

START_TEST(parse_opts_in)
{
	struct vxgbp_pkt p = { .size = sizeof(p) };
	struct {
		struct vxgbp_parse_opts o;
		uint8_t tail[TAIL];
	} big;
	struct vxgbp_parse_opts o;
	size_t n;

	build();
	n = (size_t)frame_len;
	vxgbp_parse_opts_init(&o);
	EXPECT_EQ(o.size, sizeof(o));
	EXPECT_EQ(vxgbp_udp_kind(&o, VXGBP_PORT_IANA), VXGBP_UDP_VXLAN);

	/* a newer caller's bigger opts, nothing asked past ours: taken */
	memset(&big, 0, sizeof(big));
	vxgbp_parse_opts_init(&big.o);
	big.o.size = sizeof(big);
	EXPECT_EQ(vxgbp_pkt_parse(&p, frame, n, n, &big.o), 0);
	EXPECT_EQ(p.vx.group, 0x200);
	EXPECT_EQ(vxgbp_parse_opts_add_port(&big.o, 9999), 0);
	EXPECT_EQ(vxgbp_udp_kind(&big.o, 9999), VXGBP_UDP_VXLAN);
	/* something asked that this library does not know: refused */
	big.tail[TAIL - 1] = 1;
	EXPECT_EQ(vxgbp_pkt_parse(&p, frame, n, n, &big.o), VXGBP_E_UNSUPPORTED);
	EXPECT_EQ(vxgbp_pkt_parse_vxlan(&p, frame, n, n, &big.o), VXGBP_E_UNSUPPORTED);
	EXPECT_EQ(vxgbp_pkt_parse_inner(&p, frame, n, n, &big.o), VXGBP_E_UNSUPPORTED);
	EXPECT_EQ(vxgbp_parse_opts_add_port(&big.o, 9998), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_udp_kind(&big.o, 9999), VXGBP_UDP_OTHER);
	/* below the first release's size */
	o.size = sizeof(o) - 4;
	EXPECT_EQ(vxgbp_pkt_parse(&p, frame, n, n, &o), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_parse_opts_add_port(&o, 9999), VXGBP_E_INVAL);
	EXPECT_EQ(o.n_ports, 0);
	EXPECT_EQ(vxgbp_udp_kind(&o, VXGBP_PORT_IANA), VXGBP_UDP_OTHER);
}
END_TEST

static void *t_zalloc(void *ctx, size_t size)
{
	(void)ctx;
	return calloc(1, size);
}

static void t_free(void *ctx, void *ptr, size_t size)
{
	(void)ctx;
	(void)size;
	free(ptr);
}

START_TEST(track_sizes)
{
	struct {
		struct vxgbp_track_opts o;
		uint8_t tail[TAIL];
	} big;
	struct {
		struct vxgbp_track_summary s;
		uint8_t tail[TAIL];
	} bs;
	struct vxgbp_track_summary s;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	struct vxgbp_track *t = malloc(vxgbp_track_size());
	size_t n;

	ck_assert_ptr_nonnull(t);
	build();
	n = (size_t)frame_len;
	memset(&big, 0, sizeof(big));
	big.o.size = sizeof(big);
	big.o.what = VXGBP_TRACK_MATRIX;
	big.o.zalloc = t_zalloc;
	big.o.free = t_free;
	big.tail[0] = 1;
	EXPECT_EQ(vxgbp_track_init(t, &big.o), VXGBP_E_UNSUPPORTED);
	big.o.size = sizeof(big.o) - 1;
	EXPECT_EQ(vxgbp_track_init(t, &big.o), VXGBP_E_INVAL);
	big.o.size = sizeof(big);
	big.tail[0] = 0;
	ck_assert_int_eq(vxgbp_track_init(t, &big.o), 0);
	ck_assert_int_eq(vxgbp_pkt_parse(&p, frame, n, n, NULL), 0);
	ck_assert_int_eq(vxgbp_track_frame(t, &p, 1, NULL), 0);

	memset(&bs, 0x5a, sizeof(bs));
	bs.s.size = sizeof(bs);
	EXPECT_EQ(vxgbp_track_summary(t, &bs.s), 0);
	EXPECT_EQ(bs.s.size, sizeof(struct vxgbp_track_summary));
	EXPECT_EQ(bs.s.frames, 1);
	EXPECT_EQ(bs.s.gbp, 1);
	EXPECT(tail_is(bs.tail, 0x5a), "the summary wrote past the library's struct");
	memset(&s, 0x33, sizeof(s));
	s.size = offsetof(struct vxgbp_track_summary, mem);
	EXPECT_EQ(vxgbp_track_summary(t, &s), VXGBP_E_INVAL);
	EXPECT_EQ(s.frames, 0x3333333333333333u);
	EXPECT_EQ(vxgbp_track_summary(t, NULL), VXGBP_E_INVAL);
	s.size = sizeof(s);
	EXPECT_EQ(vxgbp_track_summary(NULL, &s), 0);
	EXPECT_EQ(s.frames, 0);
	vxgbp_track_fini(t);
	free(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("size");
	TCase *tc = unit_tcase(s, "size");

	tcase_add_test(tc, pkt_out);
	tcase_add_test(tc, parse_opts_in);
	tcase_add_test(tc, track_sizes);
	return unit_run(s, "size");
}
