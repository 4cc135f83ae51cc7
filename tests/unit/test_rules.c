// SPDX-License-Identifier: BSD-2-Clause
/* test_rules.c - the rule table, rule lookup, error and level names. */
#include <vxgbp/vxgbp.h>

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

int main(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = unit_tcase(s, "rules");

	tcase_add_test(tc, test_every_rule_described);
	tcase_add_test(tc, test_rule_ids_stable);
	tcase_add_test(tc, test_rule_lookup_misses);
	tcase_add_test(tc, test_strerror);
	tcase_add_test(tc, test_level_names);
	return unit_run(s, "rules");
}
