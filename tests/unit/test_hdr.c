// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_hdr.c - the 8-byte VXLAN-GBP header: every bit position, the
 * findings of vxgbp_hdr_check(), decode/encode round trips.
 *
 * Bit k (0..63) is numbered as in the draft's diagram: byte k / 8, most
 * significant bit first.  Expectations are written from the draft
 * (draft-smith-vxlan-group-policy sec. 2.1) and RFC 7348 sec. 5, not from
 * the library's constants:
 *   k = 0 G, k = 4 I, k = 9 D, k = 12 A, other k < 16 reserved flags,
 *   16..31 Group Policy ID, 32..55 VNI, 56..63 reserved byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

#include "guard.h"
#include "unit.h"

#define K_G 0
#define K_I 4
#define K_D 9
#define K_A 12

#define RB(r) VXGBP_RB(VXGBP_R_##r)
#define HDR_RULES (RB(I_CLEAR) | RB(RSVD_FLAGS) | RB(RSVD_BYTE) | RB(D_WITHOUT_G) | \
		   RB(A_WITHOUT_G) | RB(ID_WITHOUT_G) | RB(ZERO_ID))

static void set_bit(uint8_t b[8], int k)
{
	b[k / 8] ^= (uint8_t)(0x80u >> (k % 8));
}

/* The 16 flag bits of the first two bytes, as a word with bit k at 15 - k. */
static unsigned fbit(int k)
{
	return 1u << (15 - k);
}

static int is_reserved_flag(int k)
{
	return k < 16 && k != K_G && k != K_I && k != K_D && k != K_A;
}

/* Findings written from the draft, for any header. */
static uint64_t expect_findings(unsigned flags, unsigned group, unsigned rsvd)
{
	uint64_t f = 0;
	int g = (flags & fbit(K_G)) != 0;

	if (!(flags & fbit(K_I)))
		f |= RB(I_CLEAR);
	if (rsvd)
		f |= RB(RSVD_BYTE);
	for (int k = 0; k < 16; k++)
		if ((flags & fbit(k)) && is_reserved_flag(k))
			f |= RB(RSVD_FLAGS);
	if (g && group == 0)
		f |= RB(ZERO_ID);
	if (!g && (flags & fbit(K_D)))
		f |= RB(D_WITHOUT_G);
	if (!g && (flags & fbit(K_A)))
		f |= RB(A_WITHOUT_G);
	if (!g && group)
		f |= RB(ID_WITHOUT_G);
	return f;
}

static void roundtrip(const uint8_t b[8])
{
	struct vxgbp_hdr h;
	uint8_t out[8];

	EXPECT_EQ(vxgbp_hdr_decode(&h, b, 8), 8);
	memset(out, 0xcc, sizeof(out));
	EXPECT_EQ(vxgbp_hdr_encode(&h, out, sizeof(out)), 8);
	EXPECT_MEM(out, b, 8);
}

/* Each of the 64 bits alone: where it lands, what the checker says. */
START_TEST(test_every_bit_alone)
{
	for (int k = 0; k < 64; k++) {
		uint8_t b[8] = { 0 };
		struct vxgbp_hdr h;
		uint64_t f;

		CTX("bit %d alone", k);
		set_bit(b, k);
		EXPECT_EQ(vxgbp_hdr_decode(&h, b, 8), VXGBP_HDR_LEN);
		EXPECT_EQ(h.flags, k < 16 ? fbit(k) : 0);
		EXPECT_EQ(h.group, k >= 16 && k < 32 ? 1u << (31 - k) : 0);
		EXPECT_EQ(h.vni, k >= 32 && k < 56 ? 1u << (55 - k) : 0);
		EXPECT_EQ(h.rsvd, k >= 56 ? 1u << (63 - k) : 0);
		EXPECT_EQ(vxgbp_hdr_has_gbp(&h), k == K_G);
		/* the named flags sit where the draft puts them */
		EXPECT_EQ((h.flags & VXGBP_F_G) != 0, k == K_G);
		EXPECT_EQ((h.flags & VXGBP_F_I) != 0, k == K_I);
		EXPECT_EQ((h.flags & VXGBP_F_D) != 0, k == K_D);
		EXPECT_EQ((h.flags & VXGBP_F_A) != 0, k == K_A);
		EXPECT_EQ((h.flags & VXGBP_F_RSVD_GBP) != 0, is_reserved_flag(k));
		EXPECT_EQ((h.flags & VXGBP_F_RSVD_7348) != 0, k < 16 && k != K_I);

		f = vxgbp_hdr_check(&h);
		EXPECT_EQ(f, expect_findings(h.flags, h.group, h.rsvd));
		/* spelled out, so the table above cannot drift with the model */
		EXPECT_EQ((f & RB(I_CLEAR)) != 0, k != K_I);
		EXPECT_EQ((f & RB(RSVD_FLAGS)) != 0, is_reserved_flag(k));
		EXPECT_EQ((f & RB(RSVD_BYTE)) != 0, k >= 56);
		EXPECT_EQ((f & RB(D_WITHOUT_G)) != 0, k == K_D);
		EXPECT_EQ((f & RB(A_WITHOUT_G)) != 0, k == K_A);
		EXPECT_EQ((f & RB(ID_WITHOUT_G)) != 0, k >= 16 && k < 32);
		EXPECT_EQ((f & RB(ZERO_ID)) != 0, k == K_G);
		EXPECT_EQ(f & ~HDR_RULES, 0);
		roundtrip(b);
	}
}
END_TEST

/* Each bit toggled on a conforming plain VXLAN header (I only, VNI 0x123456). */
START_TEST(test_every_bit_on_plain)
{
	static const uint8_t base[8] = { 0x08, 0, 0, 0, 0x12, 0x34, 0x56, 0 };

	for (int k = 0; k < 64; k++) {
		uint8_t b[8];
		struct vxgbp_hdr h;
		uint64_t f;

		CTX("bit %d on I-only header", k);
		memcpy(b, base, 8);
		set_bit(b, k);
		vxgbp_hdr_decode(&h, b, 8);
		f = vxgbp_hdr_check(&h);
		EXPECT_EQ(f, expect_findings(h.flags, h.group, h.rsvd));
		if (k == K_G)
			EXPECT_EQ(f, RB(ZERO_ID));
		else if (k == K_I)
			EXPECT_EQ(f, RB(I_CLEAR));
		else if (k == K_D)
			EXPECT_EQ(f, RB(D_WITHOUT_G));
		else if (k == K_A)
			EXPECT_EQ(f, RB(A_WITHOUT_G));
		else if (k < 16)
			EXPECT_EQ(f, RB(RSVD_FLAGS));
		else if (k < 32)
			EXPECT_EQ(f, RB(ID_WITHOUT_G));
		else if (k < 56)
			EXPECT_EQ(f, 0);
		else
			EXPECT_EQ(f, RB(RSVD_BYTE));
		roundtrip(b);
	}
}
END_TEST

/* Each bit toggled on a conforming GBP header (G, I, ID 0x0200, VNI 1). */
START_TEST(test_every_bit_on_gbp)
{
	static const uint8_t base[8] = { 0x88, 0, 0x02, 0x00, 0, 0, 1, 0 };

	for (int k = 0; k < 64; k++) {
		uint8_t b[8];
		struct vxgbp_hdr h;
		uint64_t f;

		CTX("bit %d on GBP header", k);
		memcpy(b, base, 8);
		set_bit(b, k);
		vxgbp_hdr_decode(&h, b, 8);
		f = vxgbp_hdr_check(&h);
		EXPECT_EQ(f, expect_findings(h.flags, h.group, h.rsvd));
		if (k == K_G) /* now an ID without G */
			EXPECT_EQ(f, RB(ID_WITHOUT_G));
		else if (k == K_I)
			EXPECT_EQ(f, RB(I_CLEAR));
		else if (k == K_D || k == K_A)
			EXPECT_EQ(f, 0);
		else if (k < 16)
			EXPECT_EQ(f, RB(RSVD_FLAGS));
		else if (k == 22) /* clears the only ID bit */
			EXPECT_EQ(f, RB(ZERO_ID));
		else if (k < 56)
			EXPECT_EQ(f, 0);
		else
			EXPECT_EQ(f, RB(RSVD_BYTE));
		EXPECT_EQ(vxgbp_hdr_has_gbp(&h), k != K_G);
		roundtrip(b);
	}
}
END_TEST

/* All 2^16 flag words x some IDs, VNIs and tail bytes. */
START_TEST(test_exhaustive_flags)
{
	static const uint16_t ids[] = { 0, 1, 0x0200, 0x8000, 0xffff };
	static const uint32_t vnis[] = { 0, 1, 0xabcdef, 0xffffff };
	static const uint8_t tails[] = { 0, 0x01, 0xa5 };

	for (unsigned fl = 0; fl <= 0xffff; fl++)
		for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
			for (size_t v = 0; v < sizeof(vnis) / sizeof(vnis[0]); v++)
				for (size_t t = 0; t < sizeof(tails); t++) {
					uint8_t b[8] = { (uint8_t)(fl >> 8), (uint8_t)fl,
							 (uint8_t)(ids[i] >> 8), (uint8_t)ids[i],
							 (uint8_t)(vnis[v] >> 16), (uint8_t)(vnis[v] >> 8),
							 (uint8_t)vnis[v], tails[t] };
					struct vxgbp_hdr h;
					uint8_t out[8];

					vxgbp_hdr_decode(&h, b, 8);
					vxgbp_hdr_encode(&h, out, 8);
					if (h.flags != fl || h.group != ids[i] || h.vni != vnis[v] ||
					    h.rsvd != tails[t] || memcmp(out, b, 8) ||
					    vxgbp_hdr_check(&h) != expect_findings(fl, ids[i], tails[t])) {
						CTX("flags %#06x id %#x vni %#x tail %#x", fl, ids[i],
						    vnis[v], tails[t]);
						EXPECT_EQ(h.flags, fl);
						EXPECT_EQ(h.group, ids[i]);
						EXPECT_EQ(h.vni, vnis[v]);
						EXPECT_EQ(h.rsvd, tails[t]);
						EXPECT_MEM(out, b, 8);
						EXPECT_EQ(vxgbp_hdr_check(&h),
							  expect_findings(fl, ids[i], tails[t]));
					}
					unit_nchecks += 6;
				}
}
END_TEST

/* A few million pseudo-random headers from a fixed seed. */
START_TEST(test_random_roundtrip)
{
	unsigned long long s = 0x9e3779b97f4a7c15ull;

	for (long n = 0; n < 4000000; n++) {
		unsigned long long x = unit_rand(&s);
		uint8_t b[8], out[8];
		struct vxgbp_hdr h;

		for (int i = 0; i < 8; i++)
			b[i] = (uint8_t)(x >> (56 - 8 * i));
		vxgbp_hdr_decode(&h, b, 8);
		vxgbp_hdr_encode(&h, out, 8);
		unit_nchecks += 5;
		if (h.flags != (x >> 48) || h.group != ((x >> 32) & 0xffff) ||
		    h.vni != ((x >> 8) & 0xffffff) || h.rsvd != (x & 0xff) || memcmp(out, b, 8)) {
			CTX("random %#018llx", x);
			EXPECT_EQ(h.flags, x >> 48);
			EXPECT_EQ(h.group, (x >> 32) & 0xffff);
			EXPECT_EQ(h.vni, (x >> 8) & 0xffffff);
			EXPECT_EQ(h.rsvd, x & 0xff);
			EXPECT_MEM(out, b, 8);
		}
	}
}
END_TEST

/* Short input: truncated, and no byte past the end is read. */
START_TEST(test_decode_bounds)
{
	static const uint8_t b[8] = { 0x88, 0x48, 0x12, 0x34, 0xab, 0xcd, 0xef, 0x00 };
	struct guard g;
	struct vxgbp_hdr h;

	ck_assert_int_eq(guard_init(&g, 64), 0);
	for (size_t len = 0; len < 8; len++) {
		CTX("len %zu", len);
		EXPECT_EQ(vxgbp_hdr_decode(&h, guard_place(&g, b, len), len), VXGBP_E_TRUNCATED);
	}
	CTX("len 8");
	EXPECT_EQ(vxgbp_hdr_decode(&h, guard_place(&g, b, 8), 8), 8);
	EXPECT_EQ(h.flags, 0x8848);
	EXPECT_EQ(h.group, 0x1234);
	EXPECT_EQ(h.vni, 0xabcdef);
	/* longer buffers: only the first 8 bytes count */
	{
		uint8_t l[12] = { 0x08, 0, 0, 0, 0, 0, 7, 0, 0xff, 0xff, 0xff, 0xff };

		EXPECT_EQ(vxgbp_hdr_decode(&h, l, sizeof(l)), 8);
		EXPECT_EQ(h.vni, 7);
		EXPECT_EQ(h.rsvd, 0);
	}
	guard_free(&g);
}
END_TEST

START_TEST(test_encode_errors)
{
	struct vxgbp_hdr h = { .flags = 0x0800, .group = 0, .vni = 5, .rsvd = 0 };
	uint8_t buf[10];
	struct guard g;

	ck_assert_int_eq(guard_init(&g, 64), 0);
	for (size_t len = 0; len < 8; len++) {
		CTX("len %zu", len);
		memset(buf, 0xee, sizeof(buf));
		EXPECT_EQ(vxgbp_hdr_encode(&h, buf, len), VXGBP_E_NOSPACE);
		EXPECT_EQ(buf[0], 0xee); /* nothing written */
	}
	CTX("encode at page end");
	{
		uint8_t *at = (uint8_t *)guard_place(&g, buf, 8);

		EXPECT_EQ(vxgbp_hdr_encode(&h, at, 8), 8);
		EXPECT_EQ(at[6], 5);
	}
	h.vni = VXGBP_VNI_MAX + 1;
	EXPECT_EQ(vxgbp_hdr_encode(&h, buf, sizeof(buf)), VXGBP_E_INVAL);
	h.vni = VXGBP_VNI_MAX;
	EXPECT_EQ(vxgbp_hdr_encode(&h, buf, sizeof(buf)), 8);
	EXPECT_EQ(buf[4], 0xff);
	EXPECT_EQ(buf[5], 0xff);
	EXPECT_EQ(buf[6], 0xff);
	guard_free(&g);
}
END_TEST

/* Read a rendered flags word back: names through the table, "R=0x...". */
static uint16_t unformat(const char *s, unsigned sets, uint16_t *named)
{
	uint16_t f = 0;

	*named = 0;
	while (*s) {
		const struct vxgbp_flag_info *fi;
		size_t len = strcspn(s, ",");
		int hit = 0;

		if (!strncmp(s, "R=0x", 4)) {
			f |= (uint16_t)strtoul(s + 4, NULL, 16);
			hit = 1;
		}
		for (unsigned i = 0; !hit && (fi = vxgbp_flag_get(i)); i++)
			if ((fi->set & sets) && strlen(fi->name) == len && !strncmp(s, fi->name, len)) {
				f |= fi->mask;
				*named |= fi->mask;
				hit = 1;
			}
		EXPECT(hit, "unknown piece in \"%s\"", s);
		if (!hit)
			return 0;
		s += len + (s[len] == ',');
	}
	return f;
}

/* Every flags word: the text names exactly the defined bits (D and A only
 * with G), the rest is R=..., and reading it back gives the word again;
 * the reserved bits agree with vxgbp_hdr_rsvd_flags(). */
START_TEST(test_flags_format)
{
	static const unsigned sets[] = { VXGBP_FLAGSET_DRAFT, VXGBP_FLAGSET_DRAFT | VXGBP_FLAGSET_VPP };
	char buf[VXGBP_FLAGS_STRLEN], small[4];

	for (size_t k = 0; k < 2; k++) {
		for (uint32_t f = 0; f <= 0xffff; f++) {
			struct vxgbp_hdr h = { .flags = (uint16_t)f };
			uint16_t named = 0, def = vxgbp_flags_defined((uint16_t)f, sets[k]);
			uint16_t want = (uint16_t)(f & (VXGBP_F_G | VXGBP_F_I));
			int n = vxgbp_flags_format(buf, sizeof(buf), (uint16_t)f, sets[k]);

			if (f & VXGBP_F_G)
				want |= (uint16_t)(f & (VXGBP_F_D | VXGBP_F_A |
							(k ? 0x0030u : 0)));
			unit_nchecks++;
			if (n != (int)strlen(buf) || unformat(buf, sets[k], &named) != f ||
			    named != want || (def & f) != want) {
				CTX("flags %#06x sets %u", f, sets[k]);
				EXPECT(0, "rendered \"%s\" (%d), named %#x, defined %#x", buf, n, named,
				       def);
			}
			if (k == 0 && (uint16_t)(f & ~def) != vxgbp_hdr_rsvd_flags(&h)) {
				CTX("flags %#06x", f);
				EXPECT(0, "reserved bits %#x, hdr_rsvd_flags %#x", f & ~def,
				       vxgbp_hdr_rsvd_flags(&h));
			}
		}
	}
	/* the examples the docs give, and the errors */
	vxgbp_flags_format(buf, sizeof(buf), 0x0848, 0);
	EXPECT_STR(buf, "I,R=0x0048");
	vxgbp_flags_format(buf, sizeof(buf), 0x8848, 0);
	EXPECT_STR(buf, "G,I,D,A");
	vxgbp_flags_format(buf, sizeof(buf), 0x8830, VXGBP_FLAGSET_DRAFT | VXGBP_FLAGSET_VPP);
	EXPECT_STR(buf, "G,I,E,S");
	EXPECT_EQ(vxgbp_flags_format(buf, sizeof(buf), 0, 0), 0);
	EXPECT_STR(buf, "");
	EXPECT_EQ(vxgbp_flags_format(small, sizeof(small), 0x8848, 0), VXGBP_E_NOSPACE);
	EXPECT_STR(small, "G,I");
	EXPECT_EQ(vxgbp_flags_format(buf, sizeof(buf), 0xffff, VXGBP_FLAGSET_DRAFT | VXGBP_FLAGSET_VPP),
		  (int)strlen("G,I,D,A,E,S,R=0x7787"));
	EXPECT(vxgbp_flag_get(6) == NULL, "a seventh flag");
}
END_TEST

START_TEST(test_version)
{
	char want[32];

	snprintf(want, sizeof(want), "%d.%d.%d", VXGBP_VERSION_MAJOR, VXGBP_VERSION_MINOR,
		 VXGBP_VERSION_PATCH);
	EXPECT_STR(VXGBP_VERSION, want);
	EXPECT_STR(vxgbp_version(), VXGBP_VERSION);
	EXPECT_EQ(VXGBP_VERSION_NUMBER, (VXGBP_VERSION_MAJOR << 16) | (VXGBP_VERSION_MINOR << 8) |
						VXGBP_VERSION_PATCH);
}
END_TEST

START_TEST(test_init)
{
	static const struct {
		uint32_t vni;
		uint16_t flags;
		uint16_t id;
		int rc;
		uint8_t want[8];
	} c[] = {
		{ 42, 0, 0, 0, { 0x08, 0, 0, 0, 0, 0, 42, 0 } },
		{ 0x123456, VXGBP_F_G, 0x0200, 0, { 0x88, 0, 0x02, 0, 0x12, 0x34, 0x56, 0 } },
		{ 1, VXGBP_F_G | VXGBP_F_D, 0xffff, 0, { 0x88, 0x40, 0xff, 0xff, 0, 0, 1, 0 } },
		{ 1, VXGBP_F_G | VXGBP_F_A, 1, 0, { 0x88, 0x08, 0, 1, 0, 0, 1, 0 } },
		{ 1, VXGBP_F_G | VXGBP_F_D | VXGBP_F_A, 7, 0, { 0x88, 0x48, 0, 7, 0, 0, 1, 0 } },
		{ VXGBP_VNI_MAX, VXGBP_F_G, 0, 0, { 0x88, 0, 0, 0, 0xff, 0xff, 0xff, 0 } },
		/* what a conforming sender cannot send is refused, h untouched */
		{ 42, VXGBP_F_D, 0, VXGBP_E_INVAL, { 0 } },          /* D without G */
		{ 42, VXGBP_F_A, 0, VXGBP_E_INVAL, { 0 } },          /* A without G */
		{ 42, 0, 0x1234, VXGBP_E_INVAL, { 0 } },             /* ID without G */
		{ 42, VXGBP_F_G | VXGBP_F_I, 1, VXGBP_E_INVAL, { 0 } }, /* I is not the caller's */
		{ 42, VXGBP_F_G | 0x0100, 1, VXGBP_E_INVAL, { 0 } }, /* a reserved bit */
		{ 0x1000000, VXGBP_F_G, 1, VXGBP_E_INVAL, { 0 } },   /* VNI out of range */
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct vxgbp_hdr h;
		uint8_t out[8];

		CTX("init case %zu", i);
		memset(&h, 0xab, sizeof(h));
		EXPECT_EQ(vxgbp_hdr_init(&h, c[i].vni, c[i].flags, c[i].id), c[i].rc);
		if (c[i].rc) {
			EXPECT_EQ(h.flags, 0xabab);
			EXPECT_EQ(h.rsvd, 0xab);
			continue;
		}
		EXPECT_EQ(vxgbp_hdr_encode(&h, out, 8), 8);
		EXPECT_MEM(out, c[i].want, 8);
		/* a conforming sender's header has no MUST findings */
		EXPECT_EQ(vxgbp_hdr_check(&h) & ~RB(ZERO_ID), 0);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hdr");
	TCase *tc = unit_tcase(s, "bits");

	tcase_add_test(tc, test_every_bit_alone);
	tcase_add_test(tc, test_every_bit_on_plain);
	tcase_add_test(tc, test_every_bit_on_gbp);
	tc = unit_tcase(s, "roundtrip");
	tcase_add_test(tc, test_exhaustive_flags);
	tcase_add_test(tc, test_random_roundtrip);
	tc = unit_tcase(s, "bounds");
	tcase_add_test(tc, test_decode_bounds);
	tcase_add_test(tc, test_encode_errors);
	tcase_add_test(tc, test_init);
	tcase_add_test(tc, test_flags_format);
	tcase_add_test(tc, test_version);
	return unit_run(s, "hdr");
}
