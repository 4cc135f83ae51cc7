// SPDX-License-Identifier: BSD-2-Clause
/* test_profiles.c - the library data every front end reads (libvxgbp 1.4):
 * the conformance profiles, the rule categories, the IP protocol names and
 * the header summary. */
#include <string.h>

#include <vxgbp/vxgbp.h>

#include "unit.h"

static unsigned profile(const char *name)
{
	int p = vxgbp_profile_lookup(name);

	EXPECT(p >= 0, "no profile %s", name);
	return p < 0 ? 0 : (unsigned)p;
}

START_TEST(test_profile_table)
{
	const struct vxgbp_profile_info *pi;
	unsigned n = 0;

	EXPECT_STR(vxgbp_profile_get(0)->name, "strict");
	for (unsigned i = 0; (pi = vxgbp_profile_get(i)); i++, n++) {
		CTX("profile %u", i);
		EXPECT(pi->name && pi->name[0] && pi->text && pi->text[0], "unnamed");
		EXPECT(strlen(pi->text) <= 53, "\"%s\": longer than --help's column", pi->text);
		EXPECT(pi->flagsets & VXGBP_FLAGSET_DRAFT, "without the draft's flags");
		EXPECT_EQ(vxgbp_profile_lookup(pi->name), (int)i);
		for (unsigned q = 0; q < i; q++)
			EXPECT(strcmp(vxgbp_profile_get(q)->name, pi->name), "name twice");
	}
	CTX("the table");
	EXPECT_EQ(n, 4);
	EXPECT_EQ(vxgbp_profile_lookup(NULL), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_profile_lookup(""), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_profile_lookup("stric"), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_profile_lookup("strictly"), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_profile_lookup("Strict"), VXGBP_E_INVAL);
	EXPECT(vxgbp_profile_get(n) == NULL && vxgbp_profile_get(1000) == NULL, "past the end");
	EXPECT(vxgbp_profile_get(profile("vpp"))->flagsets & VXGBP_FLAGSET_VPP, "vpp's flags");
	EXPECT(vxgbp_profile_get(profile("offload"))->flags & VXGBP_PROFILE_NO_CSUM, "offload");
	EXPECT(vxgbp_profile_get(profile("linux"))->flags & VXGBP_PROFILE_LINUX, "linux");
}
END_TEST

/* The levels that differ from the rule table's, and nothing else. */
START_TEST(test_profile_levels)
{
	unsigned strict = profile("strict"), lx = profile("linux"), vpp = profile("vpp");
	unsigned off = profile("offload");

	for (unsigned r = 0; r < VXGBP_R__COUNT; r++) {
		int table = (int)vxgbp_rule_get(r)->level, want = table;

		CTX("rule %s", vxgbp_rule_get(r)->id);
		EXPECT_EQ(vxgbp_profile_level(strict, r, NULL), table);
		EXPECT_EQ(vxgbp_profile_level(vpp, r, NULL), table);
		EXPECT_EQ(vxgbp_profile_level(off, r, NULL),
			  vxgbp_rule_cats(r) & VXGBP_CAT_NIC_CSUM ? VXGBP_LEVEL_OFF : table);
		if (r == VXGBP_R_RSVD_FLAGS || r == VXGBP_R_D_WITHOUT_G ||
		    r == VXGBP_R_A_WITHOUT_G || r == VXGBP_R_ID_WITHOUT_G)
			want = VXGBP_LEVEL_SHOULD;
		else if (r == VXGBP_R_UDP_ZERO_CSUM6)
			want = VXGBP_LEVEL_MUST;
		else if (r == VXGBP_R_FRAGMENT)
			want = VXGBP_LEVEL_INFO;
		else if (r == VXGBP_R_SPORT_RANGE)
			want = VXGBP_LEVEL_OFF;
		EXPECT_EQ(vxgbp_profile_level(lx, r, NULL), want);
	}
	CTX("unknown");
	EXPECT_EQ(vxgbp_profile_level(4, 0, NULL), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_profile_level(0, VXGBP_R__COUNT, NULL), VXGBP_E_INVAL);
	EXPECT_STR(vxgbp_level_name(VXGBP_LEVEL_OFF), "off");
}
END_TEST

/* linux: gbp.reserved-flags is MUST exactly for the headers a Linux gbp
 * device drops for their flag bits, on every flag word. */
START_TEST(test_profile_linux_rsvd)
{
	unsigned lx = profile("linux"), must = 0, should = 0;

	for (unsigned w = 0; w < 65536; w++) {
		struct vxgbp_hdr h = { (uint16_t)w, 0x0200, 100, 0xff }, x = h;
		struct vxgbp_verdict v;
		int lv = vxgbp_profile_level(lx, VXGBP_R_RSVD_FLAGS, &h);

		x.flags |= VXGBP_F_I;
		x.rsvd = 0;
		vxgbp_verdict_linux(&x, VXGBP_DEV_GBP, &v);
		CTX("flags 0x%04x", w);
		EXPECT_EQ(lv, !v.accept && v.why == VXGBP_DROP_RSVD_FLAGS ? VXGBP_LEVEL_MUST
									  : VXGBP_LEVEL_SHOULD);
		must += lv == VXGBP_LEVEL_MUST;
		should += lv == VXGBP_LEVEL_SHOULD;
		EXPECT_EQ(vxgbp_profile_level(0, VXGBP_R_RSVD_FLAGS, &h), VXGBP_LEVEL_MUST);
	}
	CTX("both");
	EXPECT(must && should, "%u MUST, %u SHOULD", must, should);
}
END_TEST

START_TEST(test_profile_findings)
{
	const struct vxgbp_hdr es = { VXGBP_F_G | VXGBP_F_I | 0x0020 | 0x0010, 0x0200, 100, 0 };
	const struct vxgbp_hdr r1 = { VXGBP_F_G | VXGBP_F_I | 0x0100, 0x0200, 100, 0 };
	uint64_t rsvd = VXGBP_RB(VXGBP_R_RSVD_FLAGS), sport = VXGBP_RB(VXGBP_R_SPORT_RANGE);
	uint64_t csum = VXGBP_RB(VXGBP_R_UDP_CSUM) | VXGBP_RB(VXGBP_R_CALIPSO_CSUM);

	CTX("vpp's E and S");
	EXPECT_EQ(vxgbp_profile_findings(profile("strict"), &es, VXGBP_VX_VXLAN, rsvd), rsvd);
	EXPECT_EQ(vxgbp_profile_findings(profile("vpp"), &es, VXGBP_VX_VXLAN, rsvd), 0);
	EXPECT_EQ(vxgbp_profile_findings(profile("vpp"), &es, VXGBP_VX_GPE, rsvd), rsvd);
	EXPECT_EQ(vxgbp_profile_findings(profile("vpp"), &r1, VXGBP_VX_VXLAN, rsvd), rsvd);
	CTX("rules off");
	EXPECT_EQ(vxgbp_profile_findings(profile("linux"), &r1, VXGBP_VX_VXLAN, sport | rsvd), rsvd);
	EXPECT_EQ(vxgbp_profile_findings(profile("strict"), &r1, VXGBP_VX_VXLAN, sport), sport);
	EXPECT_EQ(vxgbp_profile_findings(profile("offload"), &r1, VXGBP_VX_VXLAN, csum),
		  VXGBP_RB(VXGBP_R_CALIPSO_CSUM));
	EXPECT_EQ(vxgbp_profile_findings(profile("strict"), NULL, VXGBP_VX_VXLAN, csum), csum);
	EXPECT_EQ(vxgbp_profile_findings(99, &r1, VXGBP_VX_VXLAN, csum), 0);
}
END_TEST

START_TEST(test_rule_cats)
{
	unsigned all = 0;

	for (unsigned r = 0; r < VXGBP_R__COUNT; r++) {
		unsigned c = vxgbp_rule_cats(r);

		CTX("rule %s", vxgbp_rule_get(r)->id);
		all |= c;
		if (c & VXGBP_CAT_NIC_CSUM)
			EXPECT(c & VXGBP_CAT_CHECKSUM, "a NIC checksum that is no checksum");
		if (c & VXGBP_CAT_CROSS_FRAME)
			EXPECT_EQ(vxgbp_rule_get(r)->scope, VXGBP_SCOPE_HEADER);
		EXPECT(!(c & VXGBP_CAT_MALFORMED) || !(c & VXGBP_CAT_TRUNCATED), "both");
	}
	CTX("rows");
	EXPECT_EQ(all, 0x3f);
	EXPECT_EQ(vxgbp_rule_cats(VXGBP_R_MALFORMED), VXGBP_CAT_MALFORMED);
	EXPECT_EQ(vxgbp_rule_cats(VXGBP_R_CIPSO_LEN), VXGBP_CAT_MALFORMED);
	EXPECT_EQ(vxgbp_rule_cats(VXGBP_R_TRUNCATED), VXGBP_CAT_TRUNCATED);
	EXPECT_EQ(vxgbp_rule_cats(VXGBP_R_UDP_CSUM), VXGBP_CAT_CHECKSUM | VXGBP_CAT_NIC_CSUM);
	EXPECT_EQ(vxgbp_rule_cats(VXGBP_R_IP_CSUM), VXGBP_CAT_CHECKSUM | VXGBP_CAT_NIC_CSUM);
	EXPECT_EQ(vxgbp_rule_cats(VXGBP_R_CSUM_OFFLOAD), VXGBP_CAT_CHECKSUM | VXGBP_CAT_NIC_CSUM);
	EXPECT_EQ(vxgbp_rule_cats(VXGBP_R_CALIPSO_CSUM), VXGBP_CAT_CHECKSUM);
	EXPECT_EQ(vxgbp_rule_cats(VXGBP_R_UDP_ZERO_CSUM6), 0);
	EXPECT_EQ(vxgbp_rule_cats(VXGBP_R_DEPTH), VXGBP_CAT_UNDECODED);
	EXPECT_EQ(vxgbp_rule_cats(VXGBP_R_UNJUDGED), VXGBP_CAT_UNDECODED);
	EXPECT_EQ(vxgbp_rule_cats(VXGBP_R_GROUP_CONFLICT), VXGBP_CAT_CROSS_FRAME);
	EXPECT_EQ(vxgbp_rule_cats(VXGBP_R_I_CLEAR), 0);
	EXPECT_EQ(vxgbp_rule_cats(VXGBP_R__COUNT), 0);
}
END_TEST

START_TEST(test_ipproto)
{
	static const struct {
		uint8_t p;
		const char *name, *key, *keyword;
	} want[] = {
		{ 0, "Options", NULL, NULL },      { 1, "ICMP", "icmp", "icmp" },
		{ 2, "IGMP", "igmp", NULL },       { 4, "IPIP", "ipip", NULL },
		{ 6, "TCP", "tcp", "tcp" },        { 17, "UDP", "udp", "udp" },
		{ 41, "IPv6", "ipv6", NULL },      { 43, "Routing", NULL, NULL },
		{ 44, "Fragment", NULL, NULL },    { 47, "GRE", "gre", NULL },
		{ 50, "ESP", "esp", NULL },        { 51, "AH", "ah", NULL },
		{ 58, "ICMPv6", "icmp6", "icmpv6" }, { 132, "SCTP", "sctp", NULL },
	};
	unsigned named = 0;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct vxgbp_ipproto_info *pi = vxgbp_ipproto_get(want[i].p);

		CTX("protocol %u", want[i].p);
		EXPECT(pi != NULL, "no names");
		if (!pi)
			continue;
		EXPECT_EQ(pi->proto, want[i].p);
		EXPECT_STR(pi->name, want[i].name);
		EXPECT((pi->key == NULL) == (want[i].key == NULL), "key");
		if (pi->key && want[i].key)
			EXPECT_STR(pi->key, want[i].key);
		EXPECT((pi->keyword == NULL) == (want[i].keyword == NULL), "keyword");
		if (pi->keyword && want[i].keyword)
			EXPECT_STR(pi->keyword, want[i].keyword);
	}
	for (unsigned p = 0; p < 256; p++)
		named += vxgbp_ipproto_get((uint8_t)p) != NULL;
	CTX("the rest");
	EXPECT_EQ(named, sizeof(want) / sizeof(want[0]));
}
END_TEST

static void summary_is(const struct vxgbp_hdr *h, enum vxgbp_vx_kind kind, unsigned sets,
		       const char *name, const char *want)
{
	char buf[VXGBP_HDR_SUMMARY_LEN + 40];
	int n = vxgbp_hdr_summary(buf, sizeof(buf), h, kind, sets, name);

	CTX("flags 0x%04x kind %d", h->flags, (int)kind);
	EXPECT_EQ(n, (int)strlen(want));
	EXPECT_STR(buf, want);
}

START_TEST(test_hdr_summary)
{
	const struct vxgbp_hdr gbp = { VXGBP_F_G | VXGBP_F_I, 512, 100, 0 };
	const struct vxgbp_hdr plain = { VXGBP_F_I | 0x0040, 0x0042, 10, 0x01 };
	const struct vxgbp_hdr gpe = { VXGBP_F_I | VXGBP_GPE_F_P, 0x0003, 10, 0 };
	const struct vxgbp_hdr gpe2 = { 0x3000 | VXGBP_GPE_F_O | VXGBP_GPE_F_P | 0xc001, 0x12fe,
					16777215, 0xff };
	const struct vxgbp_hdr es = { VXGBP_F_G | VXGBP_F_I | 0x0030, 65535, 1, 0 };

	summary_is(&gbp, VXGBP_VX_VXLAN, VXGBP_FLAGSET_DRAFT, "web",
		   "VXLAN-GBP vni 100 flags [G,I] group 512 (0x0200) web");
	summary_is(&gbp, VXGBP_VX_VXLAN, 0, NULL, "VXLAN-GBP vni 100 flags [G,I] group 512 (0x0200)");
	summary_is(&plain, VXGBP_VX_VXLAN, 0, "web",
		   "VXLAN vni 10 flags [I,R=0x0040] id-field 0x0042 rsvd 0x01");
	summary_is(&gpe, VXGBP_VX_GPE, 0, "web", "VXLAN-GPE vni 10 flags [I,P] next-proto Ethernet");
	summary_is(&gpe2, VXGBP_VX_GPE, 0, NULL,
		   "VXLAN-GPE vni 16777215 flags [P,O,ver=3,R=0xc001] next-proto 0xfe "
		   "rsvd-field 0x12 rsvd 0xff");
	summary_is(&(struct vxgbp_hdr){ VXGBP_F_I, 0x0103, 7, 0 }, VXGBP_VX_GPE, 0, NULL,
		   "VXLAN-GPE vni 7 flags [I] rsvd-field 0x01");
	summary_is(&(struct vxgbp_hdr){ 0x0001, 0x0203, 263430, 7 }, VXGBP_VX_GPE, 0, NULL,
		   "VXLAN-GPE vni 263430 flags [R=0x0001] rsvd-field 0x02 rsvd 0x07");
	summary_is(&(struct vxgbp_hdr){ 0, 0, 0, 0 }, VXGBP_VX_GPE, 0, NULL,
		   "VXLAN-GPE vni 0 flags []");
	summary_is(&es, VXGBP_VX_VXLAN, VXGBP_FLAGSET_DRAFT | VXGBP_FLAGSET_VPP, NULL,
		   "VXLAN-GBP vni 1 flags [G,I,E,S] group 65535 (0xffff)");
	summary_is(&es, VXGBP_VX_VXLAN, VXGBP_FLAGSET_DRAFT, NULL,
		   "VXLAN-GBP vni 1 flags [G,I,R=0x0030] group 65535 (0xffff)");
	CTX("invalid");
	EXPECT_EQ(vxgbp_hdr_summary(NULL, 0, NULL, VXGBP_VX_VXLAN, 0, NULL), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_hdr_summary(NULL, 0, &gbp, (enum vxgbp_vx_kind)2, 0, NULL), VXGBP_E_INVAL);
}
END_TEST

/* Cut short at every length: snprintf's contract.  And the longest of
 * every flag word within VXGBP_HDR_SUMMARY_LEN. */
START_TEST(test_hdr_summary_bounds)
{
	const struct vxgbp_hdr h = { VXGBP_F_G | VXGBP_F_I | 0x0100, 512, 100, 7 };
	char full[256], buf[256];
	int n = vxgbp_hdr_summary(full, sizeof(full), &h, VXGBP_VX_VXLAN, 0, "web"), most = 0;

	for (size_t len = 0; len <= (size_t)n + 1; len++) {
		memset(buf, 'x', sizeof(buf));
		CTX("buflen %zu", len);
		EXPECT_EQ(vxgbp_hdr_summary(len ? buf : NULL, len, &h, VXGBP_VX_VXLAN, 0, "web"), n);
		if (len) {
			EXPECT_EQ(strlen(buf), len - 1 < (size_t)n ? len - 1 : (size_t)n);
			EXPECT(!strncmp(buf, full, strlen(buf)), "not a prefix");
		}
		EXPECT(buf[len] == 'x', "wrote past buflen");
	}
	for (unsigned w = 0; w < 65536; w++)
		for (int k = 0; k < 2; k++) {
			struct vxgbp_hdr x = { (uint16_t)w, 0xffff, 16777215, 0xff };
			int m = vxgbp_hdr_summary(buf, sizeof(buf), &x, (enum vxgbp_vx_kind)k,
						  VXGBP_FLAGSET_DRAFT | VXGBP_FLAGSET_VPP, NULL);

			most = m > most ? m : most;
		}
	CTX("longest");
	EXPECT(most < VXGBP_HDR_SUMMARY_LEN, "%d bytes", most);
}
END_TEST

/* Every VNI below 2^21 and a stride above, every group: the summary's
 * decimal and hex digits against printf's. */
START_TEST(test_hdr_summary_numbers)
{
	char buf[VXGBP_HDR_SUMMARY_LEN], want[VXGBP_HDR_SUMMARY_LEN];

	for (uint32_t v = 0; v <= VXGBP_VNI_MAX; v += v < (1u << 21) ? 1 : 997) {
		struct vxgbp_hdr h = { VXGBP_F_G | VXGBP_F_I, (uint16_t)(v * 40503u >> 8), v, 0 };

		snprintf(want, sizeof(want), "VXLAN-GBP vni %u flags [G,I] group %u (0x%04x)", v,
			 h.group, h.group);
		vxgbp_hdr_summary(buf, sizeof(buf), &h, VXGBP_VX_VXLAN, 0, NULL);
		if (strcmp(buf, want)) {
			CTX("vni %u", v);
			EXPECT_STR(buf, want);
			return;
		}
	}
	for (uint32_t g = 0; g < 65536; g++) {
		struct vxgbp_hdr h = { VXGBP_F_I, (uint16_t)g, 16777215 - g, (uint8_t)g };

		snprintf(want, sizeof(want), "VXLAN vni %u flags [I]", 16777215 - g);
		if (g)
			snprintf(want + strlen(want), sizeof(want) - strlen(want),
				 " id-field 0x%04x", g);
		if (g & 0xff)
			snprintf(want + strlen(want), sizeof(want) - strlen(want), " rsvd 0x%02x",
				 g & 0xff);
		vxgbp_hdr_summary(buf, sizeof(buf), &h, VXGBP_VX_VXLAN, 0, NULL);
		if (strcmp(buf, want)) {
			CTX("group %u", g);
			EXPECT_STR(buf, want);
			return;
		}
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("profiles");
	TCase *tc = unit_tcase(s, "profiles");

	tcase_add_test(tc, test_profile_table);
	tcase_add_test(tc, test_profile_levels);
	tcase_add_test(tc, test_profile_linux_rsvd);
	tcase_add_test(tc, test_profile_findings);
	tcase_add_test(tc, test_rule_cats);
	tcase_add_test(tc, test_ipproto);
	tcase_add_test(tc, test_hdr_summary);
	tcase_add_test(tc, test_hdr_summary_bounds);
	tcase_add_test(tc, test_hdr_summary_numbers);
	return unit_run(s, "profiles");
}
