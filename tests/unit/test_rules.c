// SPDX-License-Identifier: BSD-2-Clause
/* test_rules.c - the rule table, rule lookup, error and level names; the
 * recent-frame cache's hash (track_rules.c) against a plain copy. */
#include <string.h>

#include <vxgbp/vxgbp.h>

#include "guard.h"
#include "track_rules.h"
#include "unit.h"

START_TEST(test_every_rule_described)
{
	for (unsigned r = 0; r < VXGBP_R__COUNT; r++) {
		const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);

		CTX("rule %u", r);
		EXPECT(ri != NULL, "rule %u has no entry", r);
		EXPECT(ri->id && ri->id[0], "rule %u has no id", r);
		EXPECT(ri->source && ri->source[0], "rule %s has no source", ri->id);
		EXPECT(ri->text && ri->text[0], "rule %s has no text", ri->id);
		EXPECT(strchr(ri->text, '\n') == NULL, "rule %s text is not one line", ri->id);
		EXPECT(ri->level == VXGBP_LEVEL_MUST || ri->level == VXGBP_LEVEL_SHOULD ||
		       ri->level == VXGBP_LEVEL_INFO, "rule %s level %d", ri->id, (int)ri->level);
		/* ids are "area.name": lower case, digits, '.', '-' */
		EXPECT(strchr(ri->id, '.') != NULL, "rule id %s has no area", ri->id);
		for (const char *c = ri->id; *c; c++)
			EXPECT((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
			       *c == '.' || *c == '-', "rule id %s has character '%c'", ri->id, *c);
		/* the id maps back to its number */
		EXPECT_EQ(vxgbp_rule_lookup(ri->id), r);
		/* unique */
		for (unsigned q = 0; q < r; q++)
			EXPECT(strcmp(vxgbp_rule_get(q)->id, ri->id) != 0,
			       "rules %u and %u share id %s", q, r, ri->id);
	}
	/* findings are a uint64_t bitmask */
	EXPECT(VXGBP_R__COUNT <= 64, "more than 64 rules");
}
END_TEST

START_TEST(test_rule_ids_stable)
{
	/* ids other tools (gbpdump --json, the dissector) print: never renamed */
	static const struct {
		unsigned r;
		const char *id;
	} c[] = {
		{ VXGBP_R_I_CLEAR, "gbp.i-flag-clear" },
		{ VXGBP_R_RSVD_FLAGS, "gbp.reserved-flags" },
		{ VXGBP_R_RSVD_BYTE, "gbp.reserved-byte" },
		{ VXGBP_R_D_WITHOUT_G, "gbp.d-without-g" },
		{ VXGBP_R_A_WITHOUT_G, "gbp.a-without-g" },
		{ VXGBP_R_ID_WITHOUT_G, "gbp.id-without-g" },
		{ VXGBP_R_ZERO_ID, "gbp.zero-id" },
		{ VXGBP_R_UDP_CSUM, "udp.bad-checksum" },
		{ VXGBP_R_UDP_ZERO_CSUM6, "udp.zero-checksum-ipv6" },
		{ VXGBP_R_IP_CSUM, "ip.bad-checksum" },
		{ VXGBP_R_FRAGMENT, "ip.fragment" },
		{ VXGBP_R_INNER_VLAN, "vxlan.inner-vlan" },
		{ VXGBP_R_TRUNCATED, "frame.truncated" },
		{ VXGBP_R_MALFORMED, "frame.malformed" },
		{ VXGBP_R_CIPSO_TAG_ORDER, "cipso.tag-order" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		CTX("rule %s", c[i].id);
		EXPECT_STR(vxgbp_rule_get(c[i].r)->id, c[i].id);
		EXPECT_EQ(vxgbp_rule_lookup(c[i].id), c[i].r);
	}
	CTX("levels");
	EXPECT_EQ(vxgbp_rule_get(VXGBP_R_I_CLEAR)->level, VXGBP_LEVEL_MUST);
	EXPECT_EQ(vxgbp_rule_get(VXGBP_R_ZERO_ID)->level, VXGBP_LEVEL_INFO);
}
END_TEST

START_TEST(test_rule_lookup_misses)
{
	static const char *bad[] = { "", "gbp", "gbp.", "GBP.I-FLAG-CLEAR", "gbp.i-flag-clea",
				     "gbp.i-flag-clear ", " gbp.i-flag-clear", "nosuch.rule" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CTX("lookup \"%s\"", bad[i]);
		EXPECT_EQ(vxgbp_rule_lookup(bad[i]), VXGBP_E_INVAL);
	}
	CTX("get out of range");
	EXPECT(vxgbp_rule_get(VXGBP_R__COUNT) == NULL, "rule past the end");
	EXPECT(vxgbp_rule_get(1000) == NULL, "rule 1000");
	EXPECT(vxgbp_rule_get((unsigned)-1) == NULL, "rule -1");
}
END_TEST

START_TEST(test_strerror)
{
	static const char *const expect_word[] = {
		[0] = "ok",
		[-VXGBP_E_TRUNCATED] = "truncated",
		[-VXGBP_E_MALFORMED] = "malformed",
		[-VXGBP_E_INVAL] = "invalid",
		[-VXGBP_E_NOSPACE] = "small",
		[-VXGBP_E_UNSUPPORTED] = "unsupported",
		[-VXGBP_E_SYNTAX] = "syntax",
	};
	const char *unknown = vxgbp_strerror(-1000);

	EXPECT(unknown != NULL, "unknown code gives NULL");
	for (int e = 0; e >= VXGBP_E_MIN; e--) {
		const char *t = vxgbp_strerror(e);

		CTX("error %d", e);
		EXPECT(t && t[0], "no text");
		EXPECT(strcmp(t, unknown) != 0, "known code has the unknown text");
		EXPECT(strstr(t, expect_word[-e]) != NULL, "\"%s\" lacks \"%s\"", t, expect_word[-e]);
		for (int q = 0; q > e; q--)
			EXPECT(strcmp(vxgbp_strerror(q), t) != 0, "codes %d and %d share text", q, e);
	}
	CTX("outside the range");
	EXPECT(vxgbp_strerror(VXGBP_E_MIN - 1) != NULL, "NULL below the range");
	EXPECT(vxgbp_strerror(42) != NULL, "NULL for a length");
}
END_TEST

START_TEST(test_level_names)
{
	EXPECT_STR(vxgbp_level_name(VXGBP_LEVEL_MUST), "MUST");
	EXPECT_STR(vxgbp_level_name(VXGBP_LEVEL_SHOULD), "SHOULD");
	EXPECT_STR(vxgbp_level_name(VXGBP_LEVEL_INFO), "INFO");
	EXPECT(vxgbp_level_name((enum vxgbp_level)7) != NULL, "NULL level name");
}
END_TEST

/* ---- the recent-frame cache's hash ---- */

/* Its values are results: the cache's slot is the hash's low bits and
 * --check --json's mergeable summary stores hashes for gbpdump --merge to
 * compare.  So every faster path of vxgbpi_dup_hash() must give what this
 * plain copy of the function as first written gives: 64-byte steps of four
 * 16-byte lanes, the lanes folded, 16-byte steps, the zero-padded tail with
 * the length. */
#define RK0 0x9e3779b97f4a7c15ull
#define RK1 0xc2b2ae3d27d4eb4full
#define RK2 0x165667b19e3779f9ull
#define RK3 0xd6e8feb86659fd93ull

static uint64_t ref_fold(uint64_t a, uint64_t b)
{
	__extension__ typedef unsigned __int128 u128;
	u128 m = (u128)a * b;

	return (uint64_t)m ^ (uint64_t)(m >> 64);
}

static uint64_t ref_word(const uint8_t *b)
{
	uint64_t w;

	memcpy(&w, b, 8);
	return w;
}

static uint64_t ref_hash(uint32_t vni, const uint8_t *b, size_t n)
{
	const uint64_t k[4] = { RK0, RK1, RK2, RK3 };
	uint64_t h = (0x27d4eb2f165667c5ull ^ vni) * 0x9e3779b97f4a7c15ull, l[4], w[2];
	size_t i;

	h ^= h >> 29;
	for (unsigned j = 0; j < 4; j++)
		l[j] = h ^ k[j];
	for (i = 0; i + 64 <= n; i += 64)
		for (unsigned j = 0; j < 4; j++)
			l[j] = ref_fold(ref_word(b + i + 16 * j) ^ k[j],
					ref_word(b + i + 16 * j + 8) ^ l[j]);
	h = ref_fold(l[0] ^ RK2, l[1] ^ RK3) ^ ref_fold(l[2] ^ RK1, l[3] ^ RK0);
	for (; i + 16 <= n; i += 16)
		h = ref_fold(ref_word(b + i) ^ RK0, ref_word(b + i + 8) ^ h);
	w[0] = w[1] = 0;
	memcpy(w, b + i, n - i);
	h = ref_fold(w[0] ^ RK1, w[1] ^ h ^ ((uint64_t)n << 32));
	return ref_fold(h ^ RK2, h ^ RK3) ^ h;
}

#define HMAX 2048

/* Both paths (isa 1: BMI2 where the CPU has it; 0: plain C) on b[0..n). */
static void check_hash(uint32_t vni, const uint8_t *b, const uint8_t *src, size_t n)
{
	uint64_t want = ref_hash(vni, src, n);

	EXPECT(vxgbpi_dup_hash(vni, b, n, 1) == want, "fast path differs");
	EXPECT(vxgbpi_dup_hash(vni, b, n, 0) == want, "plain path differs");
}

/* Random frames of every length 0..HMAX: right before a protected page
 * (a read past the end faults), right after one (a read before the start
 * faults), at every alignment 0..15; random VNIs. */
START_TEST(test_dup_hash)
{
	static uint8_t src[HMAX];
	unsigned long long seed = 0x2545f4914f6cdd1dull;
	struct guard back, front;

	ck_assert_int_eq(guard_init(&back, HMAX), 0);
	ck_assert_int_eq(guard_init(&front, 4 * 4096), 0);
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < HMAX; i++)
			src[i] = pass == 1 ? 0xff : (uint8_t)unit_rand(&seed);
		for (size_t n = 0; n <= HMAX; n++) {
			uint32_t vni = (uint32_t)unit_rand(&seed) & 0xffffff;

			CTX("pass %d: %zu bytes before the guard", pass, n);
			check_hash(vni, guard_place(&back, src, n), src, n);
			for (size_t a = 0; a < 16; a++) {
				memcpy(front.data + a, src, n);
				CTX("pass %d: %zu bytes at alignment %zu", pass, n, a);
				check_hash(vni, front.data + a, src, n);
			}
		}
	}
	guard_free(&back);
	guard_free(&front);
}
END_TEST

/* A one-byte change anywhere changes the hash (lanes, steps, tail, the
 * length and the VNI all count). */
START_TEST(test_dup_hash_differs)
{
	uint8_t b[300];
	unsigned long long seed = 7;

	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)unit_rand(&seed);
	for (size_t n = 1; n <= sizeof(b); n += 37) {
		uint64_t h = vxgbpi_dup_hash(100, b, n, 1);

		CTX("%zu bytes", n);
		EXPECT(vxgbpi_dup_hash(101, b, n, 1) != h, "VNI ignored");
		EXPECT(vxgbpi_dup_hash(100, b, n - 1, 1) != h, "length ignored");
		for (size_t i = 0; i < n; i++) {
			b[i] ^= 0x10;
			EXPECT(vxgbpi_dup_hash(100, b, n, 1) != h, "byte %zu ignored", i);
			b[i] ^= 0x10;
		}
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = unit_tcase(s, "rules");

	tcase_add_test(tc, test_every_rule_described);
	tcase_add_test(tc, test_rule_ids_stable);
	tcase_add_test(tc, test_rule_lookup_misses);
	tcase_add_test(tc, test_strerror);
	tcase_add_test(tc, test_level_names);
	tcase_add_test(tc, test_dup_hash);
	tcase_add_test(tc, test_dup_hash_differs);
	return unit_run(s, "rules");
}
