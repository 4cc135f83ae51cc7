// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_labels.c - Check unit tests of libvxgbp's CIPSO and CALIPSO codec:
 * every tag type, every finding, build -> parse round trips, every prefix of
 * every option and of labelled frames under a guard page.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "guard.h"

#define RB VXGBP_RB
#define N(a) (sizeof(a) / sizeof((a)[0]))

static int build1(uint8_t *out, size_t outlen, uint32_t doi,
		  const struct vxgbp_cipso_tag_spec *ts)
{
	return vxgbp_cipso_build(out, outlen, doi, ts, 1);
}

static const char *cats_of(const struct vxgbp_cipso_tag *t)
{
	static char buf[1024];

	ck_assert_int_ge(vxgbp_cipso_cats_format(buf, sizeof(buf), t), 0);
	return buf;
}

/* ------------------------------------------------------------------------
 * Tag types
 */
static const uint16_t cats_0_1_5_9[] = { 0, 1, 5, 6, 7, 8, 9 };

START_TEST(tag1_bitmap)
{
	struct vxgbp_cipso_tag_spec ts = { .type = 1, .level = 1, .cats = cats_0_1_5_9,
					   .n_cats = N(cats_0_1_5_9) };
	static const uint8_t want[] = { 134, 12, 0, 0, 0, 16, 1, 6, 0, 1, 0xc7, 0xc0 };
	struct vxgbp_cipso c;
	uint8_t b[40];
	int n = build1(b, sizeof(b), 16, &ts);

	ck_assert_int_eq(n, (int)sizeof(want));
	ck_assert_mem_eq(b, want, sizeof(want));
	ck_assert_int_eq(vxgbp_cipso_parse(&c, b, (size_t)n), n);
	ck_assert_uint_eq(c.doi, 16);
	ck_assert_uint_eq(c.n_tags, 1);
	ck_assert_uint_eq(c.tags[0].type, 1);
	ck_assert_uint_eq(c.tags[0].has_level, 1);
	ck_assert_uint_eq(c.tags[0].level, 1);
	ck_assert_uint_eq(c.tags[0].data_len, 2);
	ck_assert_str_eq(cats_of(&c.tags[0]), "0,1,5-9");
	ck_assert_uint_eq(c.findings, 0);
	ck_assert_ptr_eq(vxgbp_cipso_label_tag(&c), &c.tags[0]);
	ck_assert_str_eq(vxgbp_cipso_tag_name(1), "bitmap");
}
END_TEST

START_TEST(tag1_linux_s1_c0_c1)
{
	/* what NetLabel sends for s1:c0.c1 with `cipsov4 add pass doi:16 tags:1` */
	static const uint16_t cats[] = { 0, 1 };
	struct vxgbp_cipso_tag_spec ts = { .type = 1, .level = 1, .cats = cats, .n_cats = 2 };
	static const uint8_t want[] = { 134, 11, 0, 0, 0, 16, 1, 5, 0, 1, 0xc0 };
	uint8_t b[40];

	ck_assert_int_eq(build1(b, sizeof(b), 16, &ts), (int)sizeof(want));
	ck_assert_mem_eq(b, want, sizeof(want));
}
END_TEST

/* Bytes Linux 6.12 sent for s1:c0.c1 in qemu/scenarios/netlabel
 * (fixtures/labels/linux/netlabel-h1.pcap): the builders must agree. */
START_TEST(linux_observed)
{
	static const uint16_t cats[] = { 0, 1 };
	static const uint8_t tag2[] = { 0x86, 0x0e, 0, 0, 0, 0x11, 2, 8, 0, 1, 0, 0, 0, 1 };
	static const uint8_t tag5[] = { 0x86, 0x0c, 0, 0, 0, 0x12, 5, 6, 0, 1, 0, 1 };
	static const uint8_t calipso[] = { 7, 0x0c, 0, 0, 0, 0x10, 1, 1, 0x16, 0x38, 0xc0, 0, 0, 0 };
	struct vxgbp_cipso_tag_spec ts = { .type = 2, .level = 1, .cats = cats, .n_cats = 2 };
	struct vxgbp_calipso l;
	uint8_t b[40];

	ck_assert_int_eq(build1(b, sizeof(b), 17, &ts), (int)sizeof(tag2));
	ck_assert_mem_eq(b, tag2, sizeof(tag2));
	ts.type = 5;
	ck_assert_int_eq(build1(b, sizeof(b), 18, &ts), (int)sizeof(tag5));
	ck_assert_mem_eq(b, tag5, sizeof(tag5));
	ck_assert_int_eq(vxgbp_calipso_build(b, sizeof(b), 16, 1, cats, 2, 0), (int)sizeof(calipso));
	ck_assert_mem_eq(b, calipso, sizeof(calipso));
	ck_assert_int_eq(vxgbp_calipso_parse(&l, calipso, sizeof(calipso)), (int)sizeof(calipso));
	ck_assert_int_eq(l.csum_ok, 1);
	ck_assert_uint_eq(l.csum, 0x3816);
}
END_TEST

START_TEST(tag1_no_categories)
{
	struct vxgbp_cipso_tag_spec ts = { .type = 1, .level = 3 };
	struct vxgbp_cipso c;
	uint8_t b[40];
	unsigned it = 0;
	uint16_t lo, hi;

	ck_assert_int_eq(build1(b, sizeof(b), 7, &ts), 10);
	ck_assert_int_eq(vxgbp_cipso_parse(&c, b, 10), 10);
	ck_assert_uint_eq(c.tags[0].len, 4);
	ck_assert_uint_eq(c.tags[0].level, 3);
	ck_assert_int_eq(vxgbp_cipso_cat_next(&c.tags[0], &it, &lo, &hi), 0);
	ck_assert_uint_eq(c.findings, 0);
}
END_TEST

START_TEST(tag2_enumerated)
{
	struct vxgbp_cipso_tag_spec ts = { .type = 2, .level = 2, .cats = cats_0_1_5_9,
					   .n_cats = N(cats_0_1_5_9) };
	struct vxgbp_cipso c;
	uint8_t b[40];
	int n = build1(b, sizeof(b), 16, &ts);

	ck_assert_int_eq(n, 6 + 4 + 14);
	ck_assert_int_eq(vxgbp_cipso_parse(&c, b, (size_t)n), n);
	ck_assert_uint_eq(c.tags[0].type, 2);
	ck_assert_uint_eq(c.tags[0].level, 2);
	ck_assert_str_eq(cats_of(&c.tags[0]), "0,1,5-9");
	ck_assert_uint_eq(c.findings, 0);
}
END_TEST

START_TEST(tag5_ranged)
{
	struct vxgbp_cipso_tag_spec ts = { .type = 5, .level = 5, .cats = cats_0_1_5_9,
					   .n_cats = N(cats_0_1_5_9) };
	/* runs 5-9 and 0-1, highest first, last bottom 0 omitted */
	static const uint8_t want_tags[] = { 5, 10, 0, 5, 0, 9, 0, 5, 0, 1 };
	struct vxgbp_cipso c;
	uint8_t b[40];
	int n = build1(b, sizeof(b), 16, &ts);

	ck_assert_int_eq(n, 6 + (int)sizeof(want_tags));
	ck_assert_mem_eq(b + 6, want_tags, sizeof(want_tags));
	ck_assert_int_eq(vxgbp_cipso_parse(&c, b, (size_t)n), n);
	ck_assert_str_eq(cats_of(&c.tags[0]), "0,1,5-9");
	ck_assert_uint_eq(c.findings, 0);
}
END_TEST

START_TEST(tag5_bottom_kept)
{
	static const uint16_t cats[] = { 3, 4, 5, 100 };
	struct vxgbp_cipso_tag_spec ts = { .type = 5, .level = 0, .cats = cats, .n_cats = 4 };
	static const uint8_t want_tags[] = { 5, 12, 0, 0, 0, 100, 0, 100, 0, 5, 0, 3 };
	struct vxgbp_cipso c;
	uint8_t b[40];
	int n = build1(b, sizeof(b), 1, &ts);

	ck_assert_int_eq(n, 6 + (int)sizeof(want_tags));
	ck_assert_mem_eq(b + 6, want_tags, sizeof(want_tags));
	ck_assert_int_eq(vxgbp_cipso_parse(&c, b, (size_t)n), n);
	ck_assert_str_eq(cats_of(&c.tags[0]), "3-5,100");
	ck_assert_uint_eq(c.findings, 0);
}
END_TEST

START_TEST(tag6_permissive)
{
	static const uint16_t cats[] = { 239 };
	struct vxgbp_cipso_tag_spec ts = { .type = 6, .level = 9, .cats = cats, .n_cats = 1 };
	struct vxgbp_cipso c;
	uint8_t b[40];
	int n = build1(b, sizeof(b), 16, &ts);

	ck_assert_int_eq(n, 40);
	ck_assert_int_eq(vxgbp_cipso_parse(&c, b, (size_t)n), 40);
	ck_assert_uint_eq(c.tags[0].type, 6);
	ck_assert_uint_eq(c.tags[0].data_len, 30);
	ck_assert_str_eq(cats_of(&c.tags[0]), "239");
	ck_assert_uint_eq(c.findings, 0);
	ck_assert_str_eq(vxgbp_cipso_tag_name(6), "permissive");
}
END_TEST

START_TEST(tag7_freeform)
{
	static const uint8_t data[] = { 'S', 'E', 'C', 'R', 'E', 'T' };
	struct vxgbp_cipso_tag_spec ts = { .type = 7, .raw = data, .raw_len = sizeof(data) };
	struct vxgbp_cipso c;
	uint8_t b[40];
	unsigned it = 0;
	uint16_t lo, hi;
	int n = build1(b, sizeof(b), 16, &ts);

	ck_assert_int_eq(n, 14);
	ck_assert_int_eq(vxgbp_cipso_parse(&c, b, (size_t)n), n);
	ck_assert_uint_eq(c.tags[0].type, 7);
	ck_assert_uint_eq(c.tags[0].has_level, 0);
	ck_assert_uint_eq(c.tags[0].data_len, 6);
	ck_assert_mem_eq(c.tags[0].data, data, 6);
	ck_assert_int_eq(vxgbp_cipso_cat_next(&c.tags[0], &it, &lo, &hi), 0);
	ck_assert_ptr_null(vxgbp_cipso_label_tag(&c));
	ck_assert_uint_eq(c.findings, 0);
}
END_TEST

START_TEST(tag128_local)
{
	static const uint8_t secid[] = { 0x2a, 0, 0, 0 };
	struct vxgbp_cipso_tag_spec ts = { .type = 128, .raw = secid, .raw_len = 4 };
	struct vxgbp_cipso c;
	uint8_t b[40];
	int n = build1(b, sizeof(b), 3, &ts);

	ck_assert_int_eq(n, 12);
	ck_assert_int_eq(vxgbp_cipso_parse(&c, b, (size_t)n), n);
	ck_assert_uint_eq(c.tags[0].type, 128);
	ck_assert_uint_eq(c.tags[0].len, 6);
	ck_assert_mem_eq(c.tags[0].data, secid, 4);
	ck_assert_uint_eq(c.findings, RB(VXGBP_R_CIPSO_LOCAL));
	ck_assert_str_eq(vxgbp_cipso_tag_name(128), "local");
}
END_TEST

START_TEST(several_tags)
{
	static const uint16_t cats[] = { 2, 3 };
	static const uint8_t ff[] = { 1, 2 };
	struct vxgbp_cipso_tag_spec ts[] = {
		{ .type = 7, .raw = ff, .raw_len = 2 },
		{ .type = 2, .level = 4, .cats = cats, .n_cats = 2 },
		{ .type = 1, .level = 4, .cats = cats, .n_cats = 2 },
	};
	struct vxgbp_cipso c;
	uint8_t b[40];
	int n = vxgbp_cipso_build(b, sizeof(b), 99, ts, 3);

	ck_assert_int_eq(n, 6 + 4 + 8 + 5);
	ck_assert_int_eq(vxgbp_cipso_parse(&c, b, (size_t)n), n);
	ck_assert_uint_eq(c.n_tags, 3);
	ck_assert_ptr_eq(vxgbp_cipso_label_tag(&c), &c.tags[1]);
	ck_assert_str_eq(cats_of(&c.tags[1]), "2,3");
	ck_assert_str_eq(cats_of(&c.tags[2]), "2,3");
	ck_assert_uint_eq(c.findings, 0);
}
END_TEST

/* ------------------------------------------------------------------------
 * Findings, one test each
 */
static uint64_t findings_of(const uint8_t *b, size_t n, int want_ret)
{
	struct vxgbp_cipso c;

	ck_assert_int_eq(vxgbp_cipso_parse(&c, b, n), want_ret);
	return c.findings;
}

START_TEST(f_len_short)
{
	static const uint8_t b[] = { 134, 4, 0, 0 };

	ck_assert_uint_eq(findings_of(b, sizeof(b), VXGBP_E_MALFORMED), RB(VXGBP_R_CIPSO_LEN));
}
END_TEST

START_TEST(f_len_long)
{
	static const uint16_t cats[] = { 200 };
	static const uint8_t pad[] = { 0, 0, 0, 0, 0, 0 };
	struct vxgbp_cipso_tag_spec ts[] = {
		{ .type = 1, .level = 1, .cats = cats, .n_cats = 1 }, /* 30 bytes */
	};
	uint8_t b[64];
	int n = vxgbp_cipso_build(b, sizeof(b), 5, ts, 1);

	ck_assert_int_eq(n, 36);
	/* grow it past 40 by hand with a free-form tag */
	b[n] = 7;
	b[n + 1] = 8;
	memcpy(b + n + 2, pad, 6);
	b[1] = (uint8_t)(n + 8);
	ck_assert_uint_eq(findings_of(b, (size_t)n + 8, n + 8), RB(VXGBP_R_CIPSO_LEN));
}
END_TEST

START_TEST(f_tag_len)
{
	static const uint8_t one_left[] = { 134, 7, 0, 0, 0, 1, 7 };
	static const uint8_t zero_len[] = { 134, 8, 0, 0, 0, 1, 7, 0 };
	static const uint8_t beyond[] = { 134, 9, 0, 0, 0, 1, 1, 5, 0 };
	static const uint8_t rbm3[] = { 134, 9, 0, 0, 0, 1, 1, 3, 0 };
	static const uint8_t enum_odd[] = { 134, 11, 0, 0, 0, 1, 2, 5, 0, 1, 7 };
	static const uint8_t rng_odd[] = { 134, 11, 0, 0, 0, 1, 5, 5, 0, 1, 7 };
	static const uint8_t local5[] = { 134, 11, 0, 0, 0, 1, 128, 5, 1, 2, 3 };
	const uint64_t tl = RB(VXGBP_R_CIPSO_TAG_LEN);

	ck_assert_uint_eq(findings_of(one_left, sizeof(one_left), 7), tl);
	ck_assert_uint_eq(findings_of(zero_len, sizeof(zero_len), 8), tl);
	ck_assert_uint_eq(findings_of(beyond, sizeof(beyond), 9), tl);
	ck_assert_uint_eq(findings_of(rbm3, sizeof(rbm3), 9), tl);
	ck_assert_uint_eq(findings_of(enum_odd, sizeof(enum_odd), 11), tl);
	ck_assert_uint_eq(findings_of(rng_odd, sizeof(rng_odd), 11), tl);
	ck_assert_uint_eq(findings_of(local5, sizeof(local5), 11), tl | RB(VXGBP_R_CIPSO_LOCAL));
}
END_TEST

START_TEST(f_tag_len_enum_too_many)
{
	/* 16 enumerated categories do not fit 40 bytes, so only a hand-made
	 * long option shows it (it is too long as well) */
	uint8_t b[6 + 4 + 32];
	memset(b, 0, sizeof(b));
	b[0] = 134;
	b[1] = sizeof(b);
	b[5] = 1;
	b[6] = 2;
	b[7] = 36;
	for (int i = 0; i < 16; i++)
		b[10 + 2 * i + 1] = (uint8_t)i;
	ck_assert_uint_eq(findings_of(b, sizeof(b), (int)sizeof(b)),
			  RB(VXGBP_R_CIPSO_TAG_LEN) | RB(VXGBP_R_CIPSO_LEN));
}
END_TEST

START_TEST(f_tag_order)
{
	static const uint16_t cats[] = { 1 };
	struct vxgbp_cipso_tag_spec ts[] = {
		{ .type = 1, .level = 1, .cats = cats, .n_cats = 1 },
		{ .type = 1, .level = 2, .cats = cats, .n_cats = 1 },
	};
	uint8_t b[40];
	int n = vxgbp_cipso_build(b, sizeof(b), 5, ts, 2);

	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_TAG_ORDER));
}
END_TEST

START_TEST(f_cat_order)
{
	static const uint16_t desc[] = { 5, 3 };
	static const uint16_t dup[] = { 3, 3 };
	struct vxgbp_cipso_tag_spec a = { .type = 2, .level = 1, .cats = desc, .n_cats = 2 };
	struct vxgbp_cipso_tag_spec d = { .type = 2, .level = 1, .cats = dup, .n_cats = 2 };
	struct vxgbp_cipso c;
	uint8_t b[40];
	int n = build1(b, sizeof(b), 5, &a);

	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_CAT_ORDER));
	/* the iterator still shows what is there, in wire order */
	vxgbp_cipso_parse(&c, b, (size_t)n);
	ck_assert_str_eq(cats_of(&c.tags[0]), "5,3");
	n = build1(b, sizeof(b), 5, &d);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_CAT_ORDER));
}
END_TEST

START_TEST(f_range)
{
	static const uint8_t reversed[] = { 0, 3, 0, 9 };            /* top 3 < bottom 9 */
	static const uint8_t ascending[] = { 0, 3, 0, 1, 0, 9, 0, 5 }; /* 1-3 then 5-9 */
	static const uint8_t overlap[] = { 0, 9, 0, 5, 0, 6, 0, 0 }; /* 5-9, 0-6 */
	static const uint8_t touching[] = { 0, 9, 0, 5, 0, 4, 0, 0 };/* 5-9, 0-4: fine */
	/* The boundary (issue 12): the draft says "the ranges MUST be
	 * non-overlapping and be listed in descending order", and ranges are
	 * inclusive, so a top equal to the previous bottom shares that
	 * category: overlapping.  One below it is the touching case above. */
	static const uint8_t shared[] = { 0, 9, 0, 5, 0, 5, 0, 0 };  /* 5-9, 0-5 */
	static const uint8_t shared_last[] = { 0, 9, 0, 5, 0, 5 };  /* 5-9, 5 to the omitted 0 */
	static const uint8_t below_last[] = { 0, 9, 0, 5, 0, 4 };   /* 5-9, 4 to the omitted 0 */
	static const uint8_t last_zero[] = { 0, 9, 0, 5, 0, 0 };    /* 5-9, 0 to the omitted 0 */
	/* within a pair, top == bottom is a range of one category */
	static const uint8_t single[] = { 0, 9, 0, 9, 0, 5, 0, 5 };  /* 9, 5 */
	static const uint8_t one_below[] = { 0, 8, 0, 9 };           /* top 8 < bottom 9 */
	struct vxgbp_cipso_tag_spec ts = { .type = 5 };
	uint8_t b[40], raw[16];
	int n;

	raw[0] = 0; /* alignment */
	raw[1] = 1; /* level */
#define RAWRANGE(x)                                                           \
	do {                                                                  \
		memcpy(raw + 2, x, sizeof(x));                                \
		ts.raw = raw;                                                 \
		ts.raw_len = 2 + sizeof(x);                                   \
		n = build1(b, sizeof(b), 5, &ts);                             \
	} while (0)
	RAWRANGE(reversed);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_RANGE));
	RAWRANGE(ascending);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_RANGE));
	RAWRANGE(overlap);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_RANGE));
	RAWRANGE(touching);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), 0);
	RAWRANGE(shared);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_RANGE));
	RAWRANGE(shared_last);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_RANGE));
	RAWRANGE(below_last);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), 0);
	RAWRANGE(last_zero);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), 0);
	RAWRANGE(single);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), 0);
	RAWRANGE(one_below);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_RANGE));
#undef RAWRANGE
}
END_TEST

START_TEST(f_tag_unknown)
{
	static const uint8_t three[] = { 0, 1 };
	struct vxgbp_cipso_tag_spec ts = { .type = 3, .raw = three, .raw_len = 2 };
	struct vxgbp_cipso_tag_spec ts0 = { .type = 0, .raw = three, .raw_len = 0 };
	uint8_t b[40];
	int n = build1(b, sizeof(b), 5, &ts);

	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_TAG_UNKNOWN));
	n = build1(b, sizeof(b), 5, &ts0);
	ck_assert_int_eq(n, 8);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_TAG_UNKNOWN));
	ck_assert_str_eq(vxgbp_cipso_tag_name(3), "unknown");
}
END_TEST

START_TEST(f_doi)
{
	struct vxgbp_cipso_tag_spec ts = { .type = 1, .level = 1 };
	uint8_t b[40];
	int n = build1(b, sizeof(b), 0, &ts);

	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_DOI));
}
END_TEST

START_TEST(f_align)
{
	static const uint8_t raw[] = { 1, 1, 0x80 }; /* alignment 1, level 1, c0 */
	struct vxgbp_cipso_tag_spec ts = { .type = 1, .raw = raw, .raw_len = 3 };
	struct vxgbp_cipso c;
	uint8_t b[40];
	int n = build1(b, sizeof(b), 5, &ts);

	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_ALIGN));
	vxgbp_cipso_parse(&c, b, (size_t)n);
	ck_assert_str_eq(cats_of(&c.tags[0]), "0");
}
END_TEST

START_TEST(f_cat_invalid)
{
	static const uint8_t en[] = { 0, 1, 0xff, 0xff };
	static const uint8_t rn[] = { 0, 1, 0xff, 0xff, 0, 3 };
	struct vxgbp_cipso_tag_spec ts = { .type = 2, .raw = en, .raw_len = sizeof(en) };
	uint8_t b[40];
	int n = build1(b, sizeof(b), 5, &ts);

	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_CAT_INVALID));
	ts.type = 5;
	ts.raw = rn;
	ts.raw_len = sizeof(rn);
	n = build1(b, sizeof(b), 5, &ts);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_CAT_INVALID));
}
END_TEST

START_TEST(f_bitmap_pad)
{
	static const uint8_t padded[] = { 0, 1, 0x80, 0 };
	uint8_t opt10[2 + 10] = { 0, 1, 0x80 };
	struct vxgbp_cipso_tag_spec ts = { .type = 1, .raw = padded, .raw_len = sizeof(padded) };
	uint8_t b[40];
	int n = build1(b, sizeof(b), 5, &ts);

	ck_assert_uint_eq(findings_of(b, (size_t)n, n), RB(VXGBP_R_CIPSO_BITMAP_PAD));
	/* the optimized 10-octet form is allowed */
	ts.raw = opt10;
	ts.raw_len = sizeof(opt10);
	n = build1(b, sizeof(b), 5, &ts);
	ck_assert_int_eq(n, 20);
	ck_assert_uint_eq(findings_of(b, (size_t)n, n), 0);
}
END_TEST

START_TEST(f_parse_errors)
{
	struct vxgbp_cipso c;
	static const uint8_t notcipso[] = { 130, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t short_buf[] = { 134, 10, 0, 0, 0, 1, 1, 4 };

	ck_assert_int_eq(vxgbp_cipso_parse(&c, notcipso, sizeof(notcipso)), VXGBP_E_INVAL);
	ck_assert_int_eq(vxgbp_cipso_parse(&c, short_buf, sizeof(short_buf)), VXGBP_E_TRUNCATED);
	ck_assert_int_eq(vxgbp_cipso_parse(&c, NULL, 0), VXGBP_E_TRUNCATED);
	ck_assert_int_eq(vxgbp_cipso_parse(&c, NULL, 4), VXGBP_E_INVAL);
	ck_assert_int_eq(vxgbp_cipso_parse(NULL, short_buf, 8), VXGBP_E_INVAL);
}
END_TEST

START_TEST(build_errors)
{
	static const uint16_t c240[] = { 240 };
	static const uint16_t c65535[] = { 65535 };
	static const uint16_t sparse[] = { 0, 2, 4, 6, 8, 10, 12, 14 };
	uint16_t many[16];
	struct vxgbp_cipso_tag_spec ts = { .type = 1, .level = 1, .cats = c240, .n_cats = 1 };
	uint8_t b[40];

	for (int i = 0; i < 16; i++)
		many[i] = (uint16_t)(i * 3);
	ck_assert_int_eq(build1(b, sizeof(b), 1, &ts), VXGBP_E_INVAL);
	ts.type = 2;
	ts.cats = c65535;
	ck_assert_int_eq(build1(b, sizeof(b), 1, &ts), VXGBP_E_INVAL);
	ts.cats = many;
	ts.n_cats = 16;
	ck_assert_int_eq(build1(b, sizeof(b), 1, &ts), VXGBP_E_INVAL);
	ts.n_cats = 15; /* 6 + 4 + 30 = 40: fits exactly */
	ck_assert_int_eq(build1(b, sizeof(b), 1, &ts), 40);
	ck_assert_int_eq(build1(b, 39, 1, &ts), VXGBP_E_NOSPACE);
	ts.type = 5;
	ts.cats = sparse;
	ts.n_cats = 8; /* 8 runs */
	ck_assert_int_eq(build1(b, sizeof(b), 1, &ts), VXGBP_E_INVAL);
	ts.n_cats = 7;
	ck_assert_int_gt(build1(b, sizeof(b), 1, &ts), 0);
	ts.type = 7; /* free form needs raw bytes */
	ck_assert_int_eq(build1(b, sizeof(b), 1, &ts), VXGBP_E_INVAL);
	ck_assert_int_eq(vxgbp_cipso_build(NULL, 40, 1, &ts, 1), VXGBP_E_INVAL);
}
END_TEST

/* ------------------------------------------------------------------------
 * CALIPSO
 */

/* CRC-16/X.25 written differently from the library (table, built at run
 * time from the non-reflected polynomial by reflecting each byte). */
static uint16_t ref_crc16_x25(const uint8_t *p, size_t n)
{
	uint16_t table[256];
	uint16_t crc = 0xffff;

	for (unsigned i = 0; i < 256; i++) {
		uint16_t r = (uint16_t)i;

		for (int k = 0; k < 8; k++)
			r = (r & 1) ? (uint16_t)((r >> 1) ^ 0x8408) : (uint16_t)(r >> 1);
		table[i] = r;
	}
	for (size_t i = 0; i < n; i++)
		crc = (uint16_t)((crc >> 8) ^ table[(crc ^ p[i]) & 0xff]);
	return (uint16_t)~crc;
}

START_TEST(calipso_crc_reference)
{
	static const uint8_t check[] = "123456789";
	uint8_t b[64];
	uint8_t z[64];
	static const uint16_t cats[] = { 0, 1, 40, 63 };
	int n;

	/* the published check value of CRC-16/X.25 */
	ck_assert_uint_eq(ref_crc16_x25(check, 9), 0x906e);
	n = vxgbp_calipso_build(b, sizeof(b), 16, 1, cats, 4, 0);
	ck_assert_int_eq(n, 18);
	memcpy(z, b, (size_t)n);
	z[8] = z[9] = 0;
	ck_assert_uint_eq(vxgbp_calipso_csum(b, (size_t)n), ref_crc16_x25(z, (size_t)n));
	/* low byte first on the wire */
	ck_assert_uint_eq(b[8] | b[9] << 8, ref_crc16_x25(z, (size_t)n));
	ck_assert_uint_eq(vxgbp_calipso_csum(b, 9), 0);
}
END_TEST

START_TEST(calipso_parse_build)
{
	static const uint16_t cats[] = { 0, 1 };
	struct vxgbp_calipso c;
	uint8_t b[64];
	int n = vxgbp_calipso_build(b, sizeof(b), 16, 1, cats, 2, 0);
	char s[64];

	ck_assert_int_eq(n, 14);
	ck_assert_uint_eq(b[0], 7);
	ck_assert_uint_eq(b[1], 12);
	ck_assert_uint_eq(b[6], 1);
	ck_assert_uint_eq(b[10], 0xc0);
	ck_assert_int_eq(vxgbp_calipso_parse(&c, b, (size_t)n), n);
	ck_assert_uint_eq(c.doi, 16);
	ck_assert_uint_eq(c.level, 1);
	ck_assert_uint_eq(c.cmpt_len, 1);
	ck_assert_uint_eq(c.cmpt_bytes, 4);
	ck_assert_int_eq(c.csum_ok, 1);
	ck_assert_uint_eq(c.findings, 0);
	ck_assert_int_eq(vxgbp_calipso_cats_format(s, sizeof(s), &c), 3);
	ck_assert_str_eq(s, "0,1");
	/* no categories: no bitmap */
	n = vxgbp_calipso_build(b, sizeof(b), 16, 2, NULL, 0, 0);
	ck_assert_int_eq(n, 10);
	ck_assert_int_eq(vxgbp_calipso_parse(&c, b, (size_t)n), 10);
	ck_assert_uint_eq(c.cmpt_len, 0);
	ck_assert_int_eq(vxgbp_calipso_cats_format(s, sizeof(s), &c), 0);
	ck_assert_uint_eq(c.findings, 0);
}
END_TEST

START_TEST(calipso_findings)
{
	static const uint16_t cats[] = { 5, 6, 7, 100 };
	static const uint8_t short_data[] = { 7, 7, 0, 0, 0, 1, 0, 0, 0 };
	struct vxgbp_calipso c;
	uint8_t b[64];
	int n;

	n = vxgbp_calipso_build(b, sizeof(b), 16, 1, cats, 4, VXGBP_CALIPSO_BAD_CSUM);
	ck_assert_int_eq(vxgbp_calipso_parse(&c, b, (size_t)n), n);
	ck_assert_int_eq(c.csum_ok, 0);
	ck_assert_uint_eq(c.findings, RB(VXGBP_R_CALIPSO_CSUM));
	n = vxgbp_calipso_build(b, sizeof(b), 0, 1, cats, 4, 0);
	ck_assert_int_eq(vxgbp_calipso_parse(&c, b, (size_t)n), n);
	ck_assert_uint_eq(c.findings, RB(VXGBP_R_CALIPSO_DOI));
	/* compartment length says 2 words, the option carries 4 */
	n = vxgbp_calipso_build(b, sizeof(b), 16, 1, cats, 4, 0);
	b[6] = 2;
	{
		uint16_t crc = vxgbp_calipso_csum(b, (size_t)n);

		b[8] = (uint8_t)crc;
		b[9] = (uint8_t)(crc >> 8);
	}
	ck_assert_int_eq(vxgbp_calipso_parse(&c, b, (size_t)n), n);
	ck_assert_uint_eq(c.findings, RB(VXGBP_R_CALIPSO_LEN));
	/* the bitmap is the declared 2 words (as Linux and Wireshark read it) */
	ck_assert_uint_eq(c.cmpt_bytes, 8);
	{
		char s[64];

		vxgbp_calipso_cats_format(s, sizeof(s), &c);
		ck_assert_str_eq(s, "5-7");
	}
	/* 6 words declared, 4 sent: the 4 */
	b[6] = 6;
	{
		uint16_t crc = vxgbp_calipso_csum(b, (size_t)n);

		b[8] = (uint8_t)crc;
		b[9] = (uint8_t)(crc >> 8);
	}
	ck_assert_int_eq(vxgbp_calipso_parse(&c, b, (size_t)n), n);
	ck_assert_uint_eq(c.findings, RB(VXGBP_R_CALIPSO_LEN));
	ck_assert_uint_eq(c.cmpt_bytes, 16);
	ck_assert_int_eq(vxgbp_calipso_parse(&c, short_data, sizeof(short_data)),
			 VXGBP_E_MALFORMED);
	ck_assert_uint_eq(c.findings, RB(VXGBP_R_CALIPSO_LEN));
	ck_assert_int_eq(vxgbp_calipso_parse(&c, b, 5), VXGBP_E_TRUNCATED);
	b[0] = 8;
	ck_assert_int_eq(vxgbp_calipso_parse(&c, b, (size_t)n), VXGBP_E_INVAL);
	ck_assert_int_eq(vxgbp_calipso_build(b, sizeof(b), 1, 1, (const uint16_t[]){ 1952 }, 1, 0),
			 VXGBP_E_INVAL);
	ck_assert_int_eq(vxgbp_calipso_build(b, 13, 1, 1, cats, 1, 0), VXGBP_E_NOSPACE);
}
END_TEST

/* ------------------------------------------------------------------------
 * Round trips with pseudo-random category sets
 */
static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return rng_state >> 8;
}

/* Expand iterated runs into a membership array. */
static void expand_cipso(const struct vxgbp_cipso_tag *t, uint8_t *in, size_t max)
{
	unsigned it = 0;
	uint16_t lo, hi;

	memset(in, 0, max);
	while (vxgbp_cipso_cat_next(t, &it, &lo, &hi)) {
		ck_assert_uint_le(lo, hi);
		for (unsigned v = lo; v <= hi && v < max; v++) {
			ck_assert_uint_eq(in[v], 0); /* runs never repeat a category */
			in[v] = 1;
		}
	}
}

START_TEST(roundtrip_cipso)
{
	static const uint8_t types[] = { 1, 2, 5, 6 };
	uint8_t want[2048], got[2048];

	for (int iter = 0; iter < 2000; iter++) {
		uint8_t type = types[iter % 4];
		uint16_t cats[64];
		unsigned n = 0, maxcat = type == 2 ? 2000 : type == 5 ? 2000 : 240;
		unsigned count = rnd() % (type == 2 ? 16 : 40);
		struct vxgbp_cipso_tag_spec ts = { .type = type, .level = (uint8_t)rnd() };
		struct vxgbp_cipso c;
		uint8_t b[40];
		int r;

		memset(want, 0, sizeof(want));
		for (unsigned i = 0; i < count; i++) {
			uint16_t v = (uint16_t)(rnd() % maxcat);

			if (type == 5 && i && rnd() % 2) /* make runs */
				v = (uint16_t)(cats[n - 1] + 1u < maxcat ? cats[n - 1] + 1 : 0);
			if (want[v])
				continue;
			want[v] = 1;
			cats[n++] = v;
		}
		if (type == 2) { /* enumerations are written as given: sort them */
			for (unsigned i = 1; i < n; i++)
				for (unsigned j = i; j > 0 && cats[j - 1] > cats[j]; j--) {
					uint16_t t = cats[j];
					cats[j] = cats[j - 1];
					cats[j - 1] = t;
				}
		}
		ts.cats = cats;
		ts.n_cats = n;
		r = build1(b, sizeof(b), 1 + rnd(), &ts);
		if (r == VXGBP_E_INVAL) /* too many ranges for 40 bytes */
			continue;
		ck_assert_int_gt(r, 0);
		ck_assert_int_eq(vxgbp_cipso_parse(&c, b, (size_t)r), r);
		ck_assert_uint_eq(c.findings & ~RB(VXGBP_R_CIPSO_DOI), 0);
		ck_assert_uint_eq(c.tags[0].level, ts.level);
		expand_cipso(&c.tags[0], got, sizeof(got));
		ck_assert_mem_eq(got, want, sizeof(want));
	}
}
END_TEST

START_TEST(roundtrip_calipso)
{
	uint8_t want[1952], got[1952];

	for (int iter = 0; iter < 1000; iter++) {
		uint16_t cats[128];
		unsigned n = 0, count = rnd() % 128, maxcat = 1 + rnd() % 1952;
		struct vxgbp_calipso c;
		uint8_t b[300];
		uint16_t lo, hi;
		unsigned it = 0;
		int r;

		memset(want, 0, sizeof(want));
		for (unsigned i = 0; i < count; i++) {
			uint16_t v = (uint16_t)(rnd() % maxcat);

			want[v] = 1;
			cats[n++] = v;
		}
		r = vxgbp_calipso_build(b, sizeof(b), 1 + rnd(), (uint8_t)rnd(), cats, n, 0);
		ck_assert_int_gt(r, 0);
		ck_assert_int_eq(vxgbp_calipso_parse(&c, b, (size_t)r), r);
		ck_assert_uint_eq(c.findings & ~RB(VXGBP_R_CALIPSO_DOI), 0);
		memset(got, 0, sizeof(got));
		while (vxgbp_calipso_cat_next(&c, &it, &lo, &hi))
			for (unsigned v = lo; v <= hi; v++)
				got[v] = 1;
		ck_assert_mem_eq(got, want, sizeof(want));
	}
}
END_TEST

/* ------------------------------------------------------------------------
 * Every prefix under a guard page
 */
static struct guard g;

static void guard_setup(void)
{
	ck_assert_int_eq(guard_init(&g), 0);
}

static void guard_teardown(void)
{
	guard_free(&g);
}

/* Parse every prefix of opt at the end of the readable page. */
static void prefixes_cipso(const uint8_t *opt, size_t n)
{
	for (size_t k = 0; k <= n; k++) {
		const uint8_t *p = guard_place(&g, opt, k);
		struct vxgbp_cipso c;
		int r = vxgbp_cipso_parse(&c, p, k);

		if (k < 2)
			ck_assert_int_eq(r, VXGBP_E_TRUNCATED);
		if (r > 0) {
			ck_assert_int_le(r, (int)k);
			for (unsigned i = 0; i < c.n_tags; i++) {
				unsigned it = 0;
				uint16_t lo, hi;
				char s[512];

				while (vxgbp_cipso_cat_next(&c.tags[i], &it, &lo, &hi))
					;
				vxgbp_cipso_cats_format(s, sizeof(s), &c.tags[i]);
			}
		} else if (k >= 2 && opt[1] >= 6 && k < opt[1]) {
			ck_assert_int_eq(r, VXGBP_E_TRUNCATED);
		}
	}
}

static void prefixes_calipso(const uint8_t *opt, size_t n)
{
	for (size_t k = 0; k <= n; k++) {
		const uint8_t *p = guard_place(&g, opt, k);
		struct vxgbp_calipso c;
		int r = vxgbp_calipso_parse(&c, p, k);
		char s[8192];

		if (r > 0) {
			ck_assert_int_le(r, (int)k);
			vxgbp_calipso_cats_format(s, sizeof(s), &c);
		} else if (k >= 2 && opt[1] >= 8 && k < (size_t)opt[1] + 2) {
			ck_assert_int_eq(r, VXGBP_E_TRUNCATED);
		}
	}
}

START_TEST(guard_options)
{
	static const uint16_t cats[] = { 0, 1, 5, 6, 7, 8, 9, 200, 239 };
	static const uint8_t ff[] = { 9, 8, 7 };
	static const uint8_t secid[] = { 1, 2, 3, 4 };
	static const uint8_t badrange[] = { 0, 1, 0, 3, 0, 9, 0 };
	struct vxgbp_cipso_tag_spec all[][2] = {
		{ { .type = 1, .level = 1, .cats = cats, .n_cats = 9 } },
		{ { .type = 2, .level = 1, .cats = cats, .n_cats = 9 } },
		{ { .type = 5, .level = 1, .cats = cats, .n_cats = 9 } },
		{ { .type = 6, .level = 1, .cats = cats, .n_cats = 7 } },
		{ { .type = 7, .raw = ff, .raw_len = 3 }, { .type = 2, .level = 3, .cats = cats, .n_cats = 3 } },
		{ { .type = 128, .raw = secid, .raw_len = 4 } },
		{ { .type = 5, .raw = badrange, .raw_len = sizeof(badrange) } },
		{ { .type = 2, .raw = badrange, .raw_len = sizeof(badrange), .len_override = 30 } },
	};
	uint16_t many[300];
	uint8_t b[300];

	for (size_t i = 0; i < N(all); i++) {
		int n = vxgbp_cipso_build(b, sizeof(b), 16, all[i], all[i][1].type ? 2 : 1);

		ck_assert_int_gt(n, 0);
		prefixes_cipso(b, (size_t)n);
	}
	for (unsigned i = 0; i < N(many); i++)
		many[i] = (uint16_t)(i * 6 + 1);
	for (unsigned n_cats = 0; n_cats <= N(many); n_cats += 50) {
		int n = vxgbp_calipso_build(b, sizeof(b), 16, 1, many, n_cats, n_cats % 100 ? 1 : 0);

		ck_assert_int_gt(n, 0);
		prefixes_calipso(b, (size_t)n);
	}
}
END_TEST

/* A labelled VXLAN-GBP frame: outer IPv4 + CIPSO, inner IPv6 + CALIPSO;
 * and the reverse.  Every prefix through vxgbp_pkt_parse. */
START_TEST(guard_frames)
{
	static const uint16_t cats[] = { 0, 1 };
	struct vxgbp_cipso_tag_spec ts = { .type = 1, .level = 1, .cats = cats, .n_cats = 2 };
	struct vxgbp_eth_spec eth = { .dst = { 2, 0, 0, 0, 0, 2 }, .src = { 2, 0, 0, 0, 0, 1 } };
	struct vxgbp_ip_spec o4 = { .version = 4, .src = { 10, 0, 0, 1 }, .dst = { 10, 0, 0, 2 } };
	struct vxgbp_ip_spec o6 = { .version = 6, .src = { 0xfd, [15] = 1 }, .dst = { 0xfd, [15] = 2 } };
	struct vxgbp_l4_spec udp = { .proto = 17, .sport = 50000, .dport = 4789 };
	struct vxgbp_l4_spec icmp4 = { .proto = 1, .icmp_type = 8 };
	struct vxgbp_l4_spec icmp6 = { .proto = 58, .icmp_type = 128 };
	struct vxgbp_hdr h;
	uint8_t copt[40], lopt[40], inner[256], frame[512];
	int cn, ln, in, fn;

	cn = vxgbp_cipso_build(copt, sizeof(copt), 16, &ts, 1);
	ln = vxgbp_calipso_build(lopt, sizeof(lopt), 0, 1, cats, 2, VXGBP_CALIPSO_BAD_CSUM);
	ck_assert_int_gt(cn, 0);
	ck_assert_int_gt(ln, 0);
	vxgbp_hdr_init(&h, 100, VXGBP_F_G, 0x200);
	for (int variant = 0; variant < 2; variant++) {
		struct vxgbp_ip_spec oip = variant ? o6 : o4, iip = variant ? o4 : o6;
		struct vxgbp_pkt p = { .size = sizeof(p) };

		oip.options = variant ? lopt : copt;
		oip.options_len = (size_t)(variant ? ln : cn);
		iip.options = variant ? copt : lopt;
		iip.options_len = (size_t)(variant ? cn : ln);
		in = vxgbp_frame_build(inner, sizeof(inner), &eth, &iip, variant ? &icmp4 : &icmp6,
				       "abcdefgh", 8);
		ck_assert_int_gt(in, 0);
		fn = vxgbp_vxlan_build(frame, sizeof(frame), &eth, &oip, &udp, &h, inner, (size_t)in);
		ck_assert_int_gt(fn, 0);
		ck_assert_int_eq(vxgbp_pkt_parse(&p, frame, (size_t)fn, (size_t)fn, NULL), 0);
		ck_assert_uint_eq(p.have & VXGBP_HAVE_INNER_L3, VXGBP_HAVE_INNER_L3);
		if (variant) {
			ck_assert_int_ge(p.outer.l3.calipso_off, 0);
			ck_assert_int_ge(p.inner.l3.cipso_off, 0);
		} else {
			ck_assert_int_ge(p.outer.l3.cipso_off, 0);
			ck_assert_int_ge(p.inner.l3.calipso_off, 0);
		}
		/* the CALIPSO option (DOI 0, bad checksum) reaches the frame's findings */
		ck_assert_uint_eq(p.findings & (RB(VXGBP_R_CALIPSO_DOI) | RB(VXGBP_R_CALIPSO_CSUM)),
				  RB(VXGBP_R_CALIPSO_DOI) | RB(VXGBP_R_CALIPSO_CSUM));
		for (int k = 0; k <= fn; k++) {
			const uint8_t *q = guard_place(&g, frame, (size_t)k);

			vxgbp_pkt_parse(&p, q, (size_t)k, (size_t)fn, NULL);
		}
	}
}
END_TEST

/* Random options (and random IPv4 option areas in whole frames) against the
 * guard page: no crash, no read past the end, consistent results. */
START_TEST(guard_random)
{
	uint8_t b[300], frame[256];

	for (int iter = 0; iter < 20000; iter++) {
		size_t n = rnd() % sizeof(b);
		const uint8_t *p;
		struct vxgbp_cipso c;
		struct vxgbp_calipso l;
		char s[8192];
		int r;

		for (size_t i = 0; i < n; i++)
			b[i] = (uint8_t)rnd();
		if (n > 0)
			b[0] = iter % 2 ? VXGBP_CIPSO_OPT : VXGBP_CALIPSO_OPT;
		if (n > 1 && rnd() % 2) /* a plausible length more often */
			b[1] = (uint8_t)(rnd() % (n + 1));
		if (n > 7 && iter % 2)   /* tag-like bytes */
			b[6] = (uint8_t)(1 + rnd() % 7);
		p = guard_place(&g, b, n);
		if (iter % 2) {
			r = vxgbp_cipso_parse(&c, p, n);
			if (r > 0) {
				ck_assert_int_le(r, (int)n);
				ck_assert_uint_le(c.n_tags, VXGBP_CIPSO_MAX_TAGS);
				for (unsigned i = 0; i < c.n_tags; i++)
					vxgbp_cipso_cats_format(s, sizeof(s), &c.tags[i]);
			}
		} else {
			r = vxgbp_calipso_parse(&l, p, n);
			if (r > 0) {
				ck_assert_int_le(r, (int)n);
				ck_assert_int_eq(l.csum_ok, vxgbp_calipso_csum(p, (size_t)r) == l.csum);
				vxgbp_calipso_cats_format(s, sizeof(s), &l);
			}
		}
		if (iter % 10 == 0) { /* a whole frame with random IPv4 options */
			struct vxgbp_ip_spec ip = { .version = 4, .src = { 10, 0, 0, 1 },
						    .dst = { 10, 0, 0, 2 }, .options = b,
						    .options_len = n % 41 };
			struct vxgbp_l4_spec icmp = { .proto = 1, .icmp_type = 8 };
			struct vxgbp_pkt pk = { .size = sizeof(pk) };
			int fn = vxgbp_frame_build(frame, sizeof(frame), NULL, &ip, &icmp, "x", 1);

			ck_assert_int_gt(fn, 0);
			for (int k = 0; k <= fn; k += 7) {
				const uint8_t *q = guard_place(&g, frame, (size_t)k);

				vxgbp_pkt_parse(&pk, q, (size_t)k, (size_t)fn,
						&(struct vxgbp_parse_opts){
							.size = sizeof(struct vxgbp_parse_opts),
							.linktype = VXGBP_LINK_RAW });
			}
		}
	}
}
END_TEST

START_TEST(pkt_findings)
{
	struct vxgbp_cipso_tag_spec ts = { .type = 3, .raw = (const uint8_t *)"xy", .raw_len = 2 };
	struct vxgbp_ip_spec ip = { .version = 4, .src = { 10, 0, 0, 1 }, .dst = { 10, 0, 0, 2 } };
	struct vxgbp_l4_spec icmp = { .proto = 1, .icmp_type = 8 };
	struct vxgbp_pkt p = { .size = sizeof(p) };
	uint8_t opt[40], frame[128];
	int on = vxgbp_cipso_build(opt, sizeof(opt), 0, &ts, 1), fn;

	ip.options = opt;
	ip.options_len = (size_t)on;
	fn = vxgbp_frame_build(frame, sizeof(frame), NULL, &ip, &icmp, NULL, 0);
	ck_assert_int_gt(fn, 0);
	ck_assert_int_eq(vxgbp_pkt_parse(&p, frame, (size_t)fn, (size_t)fn,
					 &(struct vxgbp_parse_opts){
						.size = sizeof(struct vxgbp_parse_opts),
						.linktype = VXGBP_LINK_RAW }),
			 0);
	ck_assert_int_eq(p.outer.l3.cipso_off, 20);
	ck_assert_uint_eq(p.outer.l3.cipso_len, (unsigned)on);
	ck_assert_uint_eq(p.findings, RB(VXGBP_R_CIPSO_DOI) | RB(VXGBP_R_CIPSO_TAG_UNKNOWN));
}
END_TEST

START_TEST(rules_named)
{
	static const unsigned r[] = {
		VXGBP_R_CIPSO_LEN, VXGBP_R_CIPSO_TAG_LEN, VXGBP_R_CIPSO_TAG_ORDER,
		VXGBP_R_CIPSO_CAT_ORDER, VXGBP_R_CIPSO_RANGE, VXGBP_R_CIPSO_TAG_UNKNOWN,
		VXGBP_R_CIPSO_DOI, VXGBP_R_CALIPSO_LEN, VXGBP_R_CALIPSO_CSUM,
		VXGBP_R_CALIPSO_DOI, VXGBP_R_CIPSO_ALIGN, VXGBP_R_CIPSO_CAT_INVALID,
		VXGBP_R_CIPSO_BITMAP_PAD, VXGBP_R_CIPSO_LOCAL,
	};

	ck_assert_uint_le(VXGBP_R__COUNT, 64);
	for (size_t i = 0; i < N(r); i++) {
		const struct vxgbp_rule_info *ri = vxgbp_rule_get(r[i]);

		ck_assert_ptr_nonnull(ri);
		ck_assert_int_eq(vxgbp_rule_lookup(ri->id), (int)r[i]);
		ck_assert(strncmp(ri->id, "cipso.", 6) == 0 || strncmp(ri->id, "calipso.", 8) == 0);
	}
}
END_TEST

/* ------------------------------------------------------------------------
 * Streaming category text (vxgbp_cipso_cats_put, vxgbp_calipso_cats_put):
 * no length limit, one run a call, the same text as the _format functions.
 */
#define BIG_TEXT 16384

struct sink {
	char text[BIG_TEXT];
	size_t len;
	unsigned calls;
	unsigned stop_at;      /* return -77 on this call (1-based); 0: never */
	int bad_piece;         /* a piece that is not one whole run */
};

static int sink_put(void *ctx, const char *s, size_t n)
{
	struct sink *k = ctx;

	k->calls++;
	if (k->stop_at && k->calls == k->stop_at)
		return -77;
	/* a piece is one run: digits, then an optional ,N or -N; after the
	 * first, led by a comma */
	if (!n || (k->calls > 1) != (s[0] == ',') || (k->len + n >= BIG_TEXT)) {
		k->bad_piece = 1;
		return 0;
	}
	memcpy(k->text + k->len, s, n);
	k->len += n;
	k->text[k->len] = '\0';
	return 0;
}

/* The reference text of a set given as a membership table, written here
 * from the documented format, not with the library's code. */
static size_t ref_text(char *out, size_t cap, const uint8_t *in, unsigned ncat, unsigned *runs)
{
	size_t len = 0;

	*runs = 0;
	out[0] = '\0';
	for (unsigned c = 0; c < ncat; c++) {
		unsigned e = c;

		if (!in[c])
			continue;
		while (e + 1 < ncat && in[e + 1])
			e++;
		len += (size_t)snprintf(out + len, cap - len, "%s%u", *runs ? "," : "", c);
		if (e == c + 1)
			len += (size_t)snprintf(out + len, cap - len, ",%u", e);
		else if (e > c)
			len += (size_t)snprintf(out + len, cap - len, "-%u", e);
		(*runs)++;
		c = e;
	}
	return len;
}

/* A CALIPSO set of every category up to 1951 that makes the longest text:
 * singles, pairs and a long run. */
static unsigned big_calipso_set(uint8_t in[1952], uint16_t *cats)
{
	unsigned n = 0;

	memset(in, 0, 1952);
	for (unsigned c = 0; c < 1952; c++) {
		if (c < 1800 ? c % 2 == 0 : c < 1900 ? c % 3 != 2 : c >= 1910)
			in[c] = 1;
		if (in[c])
			cats[n++] = (uint16_t)c;
	}
	return n;
}

START_TEST(put_calipso_long)
{
	static uint8_t in[1952];
	static uint16_t cats[1952];
	static struct sink k;
	static char want[BIG_TEXT], fixed[1024], exact[BIG_TEXT];
	unsigned n = big_calipso_set(in, cats), runs;
	size_t wlen = ref_text(want, sizeof(want), in, 1952, &runs);
	struct vxgbp_calipso c;
	uint8_t b[260];
	int olen = vxgbp_calipso_build(b, sizeof(b), 16, 3, cats, n, 0);

	ck_assert_int_eq(olen, 254);
	ck_assert_int_eq(vxgbp_calipso_parse(&c, b, (size_t)olen), olen);
	ck_assert_uint_gt(wlen, 4 * sizeof(fixed)); /* longer than any fixed buffer here */
	memset(&k, 0, sizeof(k));
	ck_assert_int_eq(vxgbp_calipso_cats_put(&c, sink_put, &k), (int)wlen);
	ck_assert_int_eq(k.bad_piece, 0);
	ck_assert_uint_eq(k.calls, runs); /* one call a run */
	ck_assert_uint_eq(k.len, wlen);
	ck_assert_str_eq(k.text, want);
	/* the bounded formatter: the same text, cut */
	ck_assert_int_eq(vxgbp_calipso_cats_format(fixed, sizeof(fixed), &c), VXGBP_E_NOSPACE);
	ck_assert_uint_eq(strlen(fixed), sizeof(fixed) - 1);
	ck_assert(memcmp(fixed, want, sizeof(fixed) - 1) == 0);
	ck_assert_int_eq(vxgbp_calipso_cats_format(exact, wlen + 1, &c), (int)wlen);
	ck_assert_str_eq(exact, want);
	ck_assert_int_eq(vxgbp_calipso_cats_format(exact, wlen, &c), VXGBP_E_NOSPACE);
	ck_assert_uint_eq(strlen(exact), wlen - 1);
}
END_TEST

START_TEST(put_cipso_tags)
{
	/* categories of each tag type, their reference text, through put and
	 * through format */
	static const uint16_t bm[] = { 0, 2, 3, 5, 6, 7, 8, 100, 101, 239 };
	static const uint16_t en[] = { 1, 2, 4, 5, 6, 9, 65534 };
	static const uint16_t rg[] = { 3, 10, 11, 12, 13, 40000, 40001, 65534 };
	static const struct { uint8_t type; const uint16_t *cats; unsigned n; const char *want; }
	cases[] = {
		{ 1, bm, N(bm), "0,2,3,5-8,100,101,239" },
		{ 6, bm, N(bm), "0,2,3,5-8,100,101,239" },
		{ 2, en, N(en), "1,2,4-6,9,65534" },
		{ 5, rg, N(rg), "3,10-13,40000,40001,65534" },
	};

	for (size_t i = 0; i < N(cases); i++) {
		struct vxgbp_cipso_tag_spec ts = { .type = cases[i].type, .level = 2,
						   .cats = cases[i].cats, .n_cats = cases[i].n };
		struct vxgbp_cipso c;
		struct sink k;
		char f[128];
		uint8_t b[40];
		int n = build1(b, sizeof(b), 7, &ts);

		ck_assert_int_gt(n, 0);
		ck_assert_int_eq(vxgbp_cipso_parse(&c, b, (size_t)n), n);
		memset(&k, 0, sizeof(k));
		ck_assert_int_eq(vxgbp_cipso_cats_put(&c.tags[0], sink_put, &k),
				 (int)strlen(cases[i].want));
		ck_assert_int_eq(k.bad_piece, 0);
		ck_assert_str_eq(k.text, cases[i].want);
		ck_assert_int_eq(vxgbp_cipso_cats_format(f, sizeof(f), &c.tags[0]),
				 (int)strlen(cases[i].want));
		ck_assert_str_eq(f, cases[i].want);
	}
}
END_TEST

START_TEST(put_stop_and_errors)
{
	static const uint16_t cats[] = { 1, 3, 5, 7, 9 };
	static struct sink k;
	struct vxgbp_calipso c;
	struct vxgbp_cipso_tag none = { .type = 7 };
	uint8_t b[64];
	int n = vxgbp_calipso_build(b, sizeof(b), 16, 1, cats, N(cats), 0);

	ck_assert_int_eq(vxgbp_calipso_parse(&c, b, (size_t)n), n);
	/* put's negative return stops the walk and is returned */
	memset(&k, 0, sizeof(k));
	k.stop_at = 3;
	ck_assert_int_eq(vxgbp_calipso_cats_put(&c, sink_put, &k), -77);
	ck_assert_uint_eq(k.calls, 3);
	ck_assert_str_eq(k.text, "1,3");
	/* no callback */
	ck_assert_int_eq(vxgbp_calipso_cats_put(&c, NULL, &k), VXGBP_E_INVAL);
	ck_assert_int_eq(vxgbp_cipso_cats_put(&none, NULL, &k), VXGBP_E_INVAL);
	/* nothing to say: no call, length 0 */
	memset(&k, 0, sizeof(k));
	ck_assert_int_eq(vxgbp_cipso_cats_put(&none, sink_put, &k), 0);
	ck_assert_int_eq(vxgbp_cipso_cats_put(NULL, sink_put, &k), 0);
	ck_assert_int_eq(vxgbp_calipso_cats_put(NULL, sink_put, &k), 0);
	ck_assert_uint_eq(k.calls, 0);
}
END_TEST

static Suite *labels_suite(void)
{
	Suite *s = suite_create("labels");
	TCase *t = tcase_create("tags");
	TCase *f = tcase_create("findings");
	TCase *l = tcase_create("calipso");
	TCase *r = tcase_create("roundtrip");
	TCase *gp = tcase_create("guard");

	tcase_add_test(t, tag1_bitmap);
	tcase_add_test(t, tag1_linux_s1_c0_c1);
	tcase_add_test(t, tag1_no_categories);
	tcase_add_test(t, linux_observed);
	tcase_add_test(t, tag2_enumerated);
	tcase_add_test(t, tag5_ranged);
	tcase_add_test(t, tag5_bottom_kept);
	tcase_add_test(t, tag6_permissive);
	tcase_add_test(t, tag7_freeform);
	tcase_add_test(t, tag128_local);
	tcase_add_test(t, several_tags);
	tcase_add_test(f, f_len_short);
	tcase_add_test(f, f_len_long);
	tcase_add_test(f, f_tag_len);
	tcase_add_test(f, f_tag_len_enum_too_many);
	tcase_add_test(f, f_tag_order);
	tcase_add_test(f, f_cat_order);
	tcase_add_test(f, f_range);
	tcase_add_test(f, f_tag_unknown);
	tcase_add_test(f, f_doi);
	tcase_add_test(f, f_align);
	tcase_add_test(f, f_cat_invalid);
	tcase_add_test(f, f_bitmap_pad);
	tcase_add_test(f, f_parse_errors);
	tcase_add_test(f, build_errors);
	tcase_add_test(f, pkt_findings);
	tcase_add_test(f, rules_named);
	tcase_add_test(l, calipso_crc_reference);
	tcase_add_test(l, calipso_parse_build);
	tcase_add_test(l, calipso_findings);
	tcase_add_test(l, put_calipso_long);
	tcase_add_test(t, put_cipso_tags);
	tcase_add_test(t, put_stop_and_errors);
	tcase_add_test(r, roundtrip_cipso);
	tcase_add_test(r, roundtrip_calipso);
	tcase_add_checked_fixture(gp, guard_setup, guard_teardown);
	tcase_add_test(gp, guard_options);
	tcase_add_test(gp, guard_frames);
	tcase_add_test(gp, guard_random);
	tcase_set_timeout(gp, 120);
	tcase_set_timeout(r, 120);
	suite_add_tcase(s, t);
	suite_add_tcase(s, f);
	suite_add_tcase(s, l);
	suite_add_tcase(s, r);
	suite_add_tcase(s, gp);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(labels_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
