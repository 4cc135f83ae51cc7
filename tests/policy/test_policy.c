// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_policy.c - the policy language (vxgbp_policy_*): every statement
 * form, every error with its column and reason, first-match judgement,
 * exact pair verdicts (checked against a brute force over every protocol
 * and port), shadowed rules, the audit of a tracked flow; the index
 * (vxgbp_policy_index_*) against the plain linear definitions, kept here,
 * on many small random policies.
 */
#include <stdint.h>
#include <stdlib.h>

#include <vxgbp/vxgbp.h>

#include "unit.h"

#define NONE VXGBP_GROUP_NONE
#define UNKNOWN VXGBP_GROUP_UNKNOWN
#define ANYG VXGBP_POLICY_ANY_GROUP
#define ALLOW VXGBP_POLICY_ALLOW
#define DENY VXGBP_POLICY_DENY
#define SOME VXGBP_POLICY_SOME

static struct vxgbp_group_name gstore[8];
static struct vxgbp_groups groups;
static struct vxgbp_policy_rule rstore[32];

/* Groups client 0x100, web 0x200, db 0x300, twin 0x401 and 0x402. */
static void groups_make(void)
{
	static const char *lines[] = { "0x100 client", "0x200 web", "0x300 db",
				       "0x401 twin", "0x402 twin" };

	vxgbp_groups_init(&groups, gstore, 8);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		ck_assert_int_eq(vxgbp_groups_parse_line(&groups, lines[i], strlen(lines[i]),
							 NULL), 0);
}

/* p from the lines of text (one string per line); aborts on an error. */
static void load(struct vxgbp_policy *p, const char *const *lines, size_t n)
{
	groups_make();
	vxgbp_policy_init(p, rstore, 32, &groups);
	for (size_t i = 0; i < n; i++) {
		size_t col;
		const char *msg;

		CTX("line %zu \"%s\"", i + 1, lines[i]);
		EXPECT_EQ(vxgbp_policy_parse_line(p, lines[i], strlen(lines[i]), (uint32_t)(i + 1),
						  &col, &msg), 0);
	}
}

START_TEST(test_statements)
{
	static const char *const lines[] = {
		"# a comment", "", "   \t", "default allow   # trailing comment",
		"allow client -> web tcp 80,443,8000-8080",
		"deny web->db", "allow 0x300 -> 512 udp 53#c",
		"allow * -> unknown icmp", "deny none -> * 47", "allow 1->2 any",
		"deny * -> * icmpv6", "allow 65535 -> 0 17 0-65535",
	};
	struct vxgbp_policy p;
	const struct vxgbp_policy_rule *r;

	load(&p, lines, sizeof(lines) / sizeof(lines[0]));
	EXPECT_EQ(p.n, 8);
	EXPECT_EQ(p.dflt, ALLOW);
	EXPECT_EQ(p.dflt_line, 4);
	r = &p.v[0];
	EXPECT_EQ(r->line, 5);
	EXPECT_EQ(r->action, ALLOW);
	EXPECT_EQ(r->src, 0x100);
	EXPECT_EQ(r->dst, 0x200);
	EXPECT_EQ(r->proto, 6);
	EXPECT_EQ(r->n_ports, 3);
	EXPECT_EQ(r->port_lo[0], 80);
	EXPECT_EQ(r->port_hi[0], 80);
	EXPECT_EQ(r->port_lo[2], 8000);
	EXPECT_EQ(r->port_hi[2], 8080);
	r = &p.v[1];
	EXPECT_EQ(r->action, DENY);
	EXPECT_EQ(r->src, 0x200);
	EXPECT_EQ(r->dst, 0x300);
	EXPECT_EQ(r->proto, VXGBP_POLICY_ANY_PROTO);
	EXPECT_EQ(r->n_ports, 0);
	EXPECT_EQ(p.v[2].src, 0x300);
	EXPECT_EQ(p.v[2].dst, 512);
	EXPECT_EQ(p.v[2].proto, 17);
	EXPECT_EQ(p.v[3].src, ANYG);
	EXPECT_EQ(p.v[3].dst, UNKNOWN);
	EXPECT_EQ(p.v[3].proto, 1);
	EXPECT_EQ(p.v[4].src, NONE);
	EXPECT_EQ(p.v[4].proto, 47);
	EXPECT_EQ(p.v[5].proto, VXGBP_POLICY_ANY_PROTO);
	EXPECT_EQ(p.v[6].proto, 58);
	EXPECT_EQ(p.v[7].src, 65535);
	EXPECT_EQ(p.v[7].dst, 0);
	EXPECT_EQ(p.v[7].port_hi[0], 65535);
}
END_TEST

START_TEST(test_errors)
{
	static const struct {
		const char *line;
		size_t col;
		const char *msg;
	} c[] = {
		{ "permit a -> b", 0, "expected 'allow', 'deny' or 'default'" },
		{ "  allowed web -> db", 2, "expected 'allow', 'deny' or 'default'" },
		{ "default", 7, "expected 'allow' or 'deny' after 'default'" },
		{ "default maybe", 8, "expected 'allow' or 'deny' after 'default'" },
		{ "default deny now", 13, "unexpected text after the statement" },
		{ "allow", 5, "expected a group: a name, an ID, 'none', 'unknown' or '*'" },
		{ "allow -> web", 6, "expected a group: a name, an ID, 'none', 'unknown' or '*'" },
		{ "allow web", 9, "expected '->' between the two groups" },
		{ "allow web db", 10, "expected '->' between the two groups" },
		{ "allow web ->", 12, "expected a group: a name, an ID, 'none', 'unknown' or '*'" },
		{ "allow web -> # db", 13, "expected a group: a name, an ID, 'none', 'unknown' or '*'" },
		{ "allow nosuch -> web", 6, "unknown group name (not in the --groups file)" },
		{ "allow web -> 3tier", 13, "unknown group name (not in the --groups file)" },
		{ "allow twin -> web", 6, "group name given to more than one ID in the groups file" },
		{ "allow 65536 -> web", 6, "group ID out of range (0-65535)" },
		{ "allow 0x10000 -> web", 6, "group ID out of range (0-65535)" },
		{ "allow web -> db sctp", 16, "expected a protocol: tcp, udp, icmp, icmpv6, any or a number 0-255" },
		{ "allow web -> db TCP", 16, "expected a protocol: tcp, udp, icmp, icmpv6, any or a number 0-255" },
		{ "allow web -> db 256", 16, "protocol number out of range (0-255)" },
		{ "allow web -> db icmp 8", 21, "ports need protocol tcp or udp" },
		{ "allow web -> db any 80", 20, "ports need protocol tcp or udp" },
		{ "allow web -> db tcp http", 20, "expected a port number" },
		{ "allow web -> db tcp 80,", 23, "expected a port number" },
		{ "allow web -> db tcp ,80", 20, "expected a port number" },
		{ "allow web -> db tcp 80-", 23, "expected a port number" },
		{ "allow web -> db tcp -80", 20, "expected a port number" },
		{ "allow web -> db tcp 1-2-3", 22, "expected a port number" },
		{ "allow web -> db tcp 65536", 20, "port out of range (0-65535)" },
		{ "allow web -> db tcp 90-80", 20, "port range reversed (low-high)" },
		{ "allow web -> db tcp 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", 59,
		  "too many port ranges (at most 16 in a rule)" },
		{ "allow web -> db tcp 80 443", 23, "unexpected text after the rule" },
	};
	struct vxgbp_policy p;

	groups_make();
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		size_t col = 999;
		const char *msg = NULL;

		CTX("line \"%s\"", c[i].line);
		vxgbp_policy_init(&p, rstore, 32, &groups);
		EXPECT_EQ(vxgbp_policy_parse_line(&p, c[i].line, strlen(c[i].line), 1, &col, &msg),
			  VXGBP_E_SYNTAX);
		EXPECT_EQ(col, c[i].col);
		EXPECT_STR(msg, c[i].msg);
		EXPECT_EQ(p.n, 0);
	}
}
END_TEST

START_TEST(test_limits)
{
	struct vxgbp_policy p;
	size_t col;
	const char *msg = "x";

	groups_make();
	/* a second default */
	vxgbp_policy_init(&p, rstore, 32, &groups);
	EXPECT_EQ(vxgbp_policy_parse_line(&p, "default allow", 13, 3, NULL, NULL), 0);
	EXPECT_EQ(vxgbp_policy_parse_line(&p, "default deny", 12, 4, &col, &msg), VXGBP_E_SYNTAX);
	EXPECT_EQ(col, 0);
	EXPECT_STR(msg, "a second 'default' line");
	EXPECT_EQ(p.dflt, ALLOW);
	EXPECT_EQ(p.dflt_line, 3);
	/* storage full, then no storage at all */
	vxgbp_policy_init(&p, rstore, 1, &groups);
	EXPECT_EQ(vxgbp_policy_parse_line(&p, "allow 1 -> 2", 12, 1, NULL, NULL), 0);
	EXPECT_EQ(vxgbp_policy_parse_line(&p, "allow 1 -> 3", 12, 2, &col, &msg), VXGBP_E_NOSPACE);
	EXPECT_EQ(p.n, 1);
	EXPECT_EQ(vxgbp_policy_parse_line(&p, "# only a comment", 16, 3, NULL, NULL), 0);
	vxgbp_policy_init(&p, NULL, 5, NULL);
	EXPECT_EQ(p.cap, 0);
	EXPECT_EQ(vxgbp_policy_parse_line(&p, "deny 1 -> 2", 11, 1, NULL, NULL), VXGBP_E_NOSPACE);
	/* names without a groups table; IDs still work */
	EXPECT_EQ(vxgbp_policy_parse_line(&p, "deny web -> 2", 13, 1, &col, &msg), VXGBP_E_SYNTAX);
	EXPECT_EQ(col, 5);
	/* length, not NUL, ends the line */
	vxgbp_policy_init(&p, rstore, 32, &groups);
	EXPECT_EQ(vxgbp_policy_parse_line(&p, "allow web -> db tcp 80 garbage", 22, 1, NULL, NULL),
		  0);
	EXPECT_EQ(p.v[0].n_ports, 1);
	EXPECT_EQ(vxgbp_policy_parse_line(NULL, "x", 1, 1, NULL, NULL), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_policy_parse_line(&p, NULL, 3, 1, NULL, NULL), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_policy_parse_line(&p, NULL, 0, 1, NULL, NULL), 0);
	EXPECT_EQ(vxgbp_policy_judge(NULL, 1, 2, 6, 80, NULL), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_policy_pair(NULL, 1, 2), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_policy_shadowed(NULL, 0, NULL), 0);
}
END_TEST

static const char *const acl[] = {
	"allow client -> web tcp 80,443",   /* 0 */
	"deny  client -> web",              /* 1 */
	"allow web -> db tcp 5432",         /* 2 */
	"allow * -> 0x53 udp 53",           /* 3 */
	"allow * -> 0x53 tcp 53",           /* 4 */
	"deny  none -> *",                  /* 5 */
	"allow * -> unknown icmp",          /* 6 */
	"allow 0x300 -> *",                 /* 7 */
	"deny  0x300 -> web tcp 22",        /* 8: shadowed by 7 */
	"allow client -> web tcp 443",      /* 9: shadowed by 0 */
	"allow 0x600 -> 0x700 tcp 1-100",   /* 10 */
	"allow 0x600 -> 0x700 tcp 101-200", /* 11 */
	"deny  0x600 -> 0x700 tcp 60-150",  /* 12: shadowed by 10 and 11 together only */
	"allow 0x600 -> 0x700 tcp 80",      /* 13: shadowed by 10 */
};

START_TEST(test_judge)
{
	static const struct {
		uint32_t src, dst;
		uint8_t proto;
		uint16_t port;
		int verdict;
		unsigned rule;
	} c[] = {
		{ 0x100, 0x200, 6, 80, ALLOW, 0 },
		{ 0x100, 0x200, 6, 443, ALLOW, 0 },
		{ 0x100, 0x200, 6, 22, DENY, 1 },
		{ 0x100, 0x200, 17, 80, DENY, 1 },
		{ 0x100, 0x200, 1, 0, DENY, 1 },
		{ 0x200, 0x300, 6, 5432, ALLOW, 2 },
		{ 0x200, 0x300, 17, 5432, DENY, VXGBP_POLICY_DEFAULT },
		{ NONE, 0x53, 17, 53, ALLOW, 3 },
		{ NONE, 0x53, 6, 54, DENY, 5 },
		{ NONE, UNKNOWN, 1, 0, DENY, 5 },
		{ 0x200, UNKNOWN, 1, 0, ALLOW, 6 },
		{ 0x200, UNKNOWN, 58, 0, DENY, VXGBP_POLICY_DEFAULT },
		{ 0x300, 0x200, 6, 22, ALLOW, 7 },
		{ 0x300, UNKNOWN, 50, 0, ALLOW, 7 },
		{ 0x600, 0x700, 6, 100, ALLOW, 10 },
		{ 0x600, 0x700, 6, 150, ALLOW, 11 },
		{ 0x600, 0x700, 6, 201, DENY, VXGBP_POLICY_DEFAULT },
		{ 0x600, 0x700, 17, 80, DENY, VXGBP_POLICY_DEFAULT },
	};
	struct vxgbp_policy p;

	load(&p, acl, sizeof(acl) / sizeof(acl[0]));
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned rule = 12345;

		CTX("case %zu", i);
		EXPECT_EQ(vxgbp_policy_judge(&p, c[i].src, c[i].dst, c[i].proto, c[i].port, &rule),
			  c[i].verdict);
		EXPECT_EQ(rule, c[i].rule);
	}
	/* default allow flips only what no rule decides */
	p.dflt = ALLOW;
	EXPECT_EQ(vxgbp_policy_judge(&p, 0x200, 0x300, 17, 5432, NULL), ALLOW);
	EXPECT_EQ(vxgbp_policy_judge(&p, 0x100, 0x200, 17, 5432, NULL), DENY);
}
END_TEST

/* The pair verdict by brute force: every protocol, every port of TCP/UDP. */
static int pair_brute(const struct vxgbp_policy *p, uint32_t src, uint32_t dst)
{
	unsigned seen = 0;

	for (unsigned proto = 0; proto < 256; proto++) {
		unsigned top = proto == 6 || proto == 17 ? 65535 : 0;

		for (unsigned port = 0; port <= top; port++)
			seen |= 1u << vxgbp_policy_judge(p, src, dst, (uint8_t)proto,
							 (uint16_t)port, NULL);
	}
	return seen == 3 ? SOME : seen == 1 ? DENY : ALLOW;
}

START_TEST(test_pair)
{
	static const uint32_t g[] = { 0x100, 0x200, 0x300, 0x53, 0x600, 0x700, 0x999, NONE,
				      UNKNOWN };
	static const struct {
		uint32_t src, dst;
		int verdict;
	} c[] = {
		{ 0x100, 0x200, SOME }, { 0x200, 0x300, SOME }, { 0x300, 0x200, ALLOW },
		{ NONE, 0x53, SOME }, { NONE, 0x200, DENY }, { 0x999, 0x999, DENY },
		{ 0x600, 0x700, SOME }, { 0x200, UNKNOWN, SOME },
	};
	struct vxgbp_policy p;

	load(&p, acl, sizeof(acl) / sizeof(acl[0]));
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		CTX("pair %zu", i);
		EXPECT_EQ(vxgbp_policy_pair(&p, c[i].src, c[i].dst), c[i].verdict);
	}
	for (int d = 0; d < 2; d++) {
		p.dflt = (uint8_t)d;
		for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++)
			for (size_t j = 0; j < sizeof(g) / sizeof(g[0]); j++) {
				CTX("default %d pair 0x%x -> 0x%x", d, g[i], g[j]);
				EXPECT_EQ(vxgbp_policy_pair(&p, g[i], g[j]),
					  pair_brute(&p, g[i], g[j]));
			}
	}
}
END_TEST

/* Pair verdicts the single-point shortcuts would get wrong. */
START_TEST(test_pair_exact)
{
	static const char *const a[] = {
		/* every TCP port allowed in two pieces, everything else too */
		"allow 1 -> 2 tcp 0-1000", "allow 1 -> 2 tcp 1001-65535", "allow 1 -> 2",
		/* a deny that only a union of earlier rules hides */
		"allow 3 -> 4 tcp 0-100", "allow 3 -> 4 tcp 101-65535", "deny 3 -> 4 tcp 99-102",
		"allow 3 -> 4",
		/* TCP to 0-80 allowed, the rest of TCP denied: a port range
		 * that ends below 65535 next to a broader deny (issue 33) */
		"allow 7 -> 8 tcp 0-80", "deny 7 -> 8 tcp",
		/* protocols 0-24 denied below, the rest allowed */
		"default allow",
	};
	struct vxgbp_policy p;
	char line[40];

	load(&p, a, sizeof(a) / sizeof(a[0]));
	EXPECT_EQ(vxgbp_policy_pair(&p, 1, 2), ALLOW);
	EXPECT_EQ(vxgbp_policy_pair(&p, 3, 4), ALLOW);
	EXPECT_EQ(vxgbp_policy_pair(&p, 5, 6), ALLOW);
	CTX("pair 7 -> 8");
	EXPECT_EQ(vxgbp_policy_pair(&p, 7, 8), SOME);
	EXPECT_EQ(vxgbp_policy_pair(&p, 7, 8), pair_brute(&p, 7, 8));
	EXPECT_EQ(vxgbp_policy_shadowed(&p, 5, NULL), 0); /* (one earlier rule only) */
	for (unsigned proto = 0; proto < 256; proto++) {
		int n = snprintf(line, sizeof(line), "deny 5 -> 6 %u", proto);

		ck_assert_int_eq(vxgbp_policy_parse_line(&p, line, (size_t)n, 100, NULL, NULL), 0);
		if (p.n == p.cap)
			break;
	}
	/* rstore holds 32: not all 256 fit; the brute force still agrees */
	EXPECT_EQ(vxgbp_policy_pair(&p, 5, 6), pair_brute(&p, 5, 6));
	EXPECT_EQ(vxgbp_policy_pair(&p, 5, 6), SOME);
}
END_TEST

START_TEST(test_all_protocols_named)
{
	static struct vxgbp_policy_rule big[257];
	struct vxgbp_policy p;
	char line[40];

	vxgbp_policy_init(&p, big, 257, NULL);
	for (unsigned proto = 0; proto < 256; proto++) {
		int n = snprintf(line, sizeof(line), "deny 5 -> 6 %u", proto);

		ck_assert_int_eq(vxgbp_policy_parse_line(&p, line, (size_t)n, proto + 1, NULL,
							 NULL), 0);
	}
	ck_assert_int_eq(vxgbp_policy_parse_line(&p, "default allow", 13, 300, NULL, NULL), 0);
	EXPECT_EQ(vxgbp_policy_pair(&p, 5, 6), DENY);
	EXPECT_EQ(vxgbp_policy_pair(&p, 5, 7), ALLOW);
	EXPECT_EQ(vxgbp_policy_shadowed(&p, 255, NULL), 0);
}
END_TEST

START_TEST(test_shadowed)
{
	struct vxgbp_policy p;
	size_t by = 99;

	load(&p, acl, sizeof(acl) / sizeof(acl[0]));
	for (size_t i = 0; i < p.n; i++) {
		int want = i == 8 || i == 9 || i == 13;

		CTX("rule %zu", i);
		EXPECT_EQ(vxgbp_policy_shadowed(&p, i, &by), want);
	}
	vxgbp_policy_shadowed(&p, 8, &by);
	EXPECT_EQ(by, 7);
	vxgbp_policy_shadowed(&p, 9, &by);
	EXPECT_EQ(by, 0);
	vxgbp_policy_shadowed(&p, 13, &by);
	EXPECT_EQ(by, 10);
	EXPECT_EQ(vxgbp_policy_shadowed(&p, p.n, &by), 0);
}
END_TEST

/* The audit of a tracked flow: the verdict, the rule, and which findings
 * fire at which frame (denied at the first frame; bypassed, on a denied
 * flow only, at the first frame with A). */
START_TEST(test_audit)
{
	static const struct {
		uint32_t src, dst;
		uint8_t proto;
		uint16_t dport;
		uint64_t a_frames, first_a;
		int verdict;
		unsigned rule;
		uint64_t findings, denied_at, bypassed_at;
	} c[] = {
		/* allowed: nothing fires, A or not */
		{ 0x100, 0x200, 6, 80, 0, 0, ALLOW, 0, 0, 0, 0 },
		{ 0x100, 0x200, 6, 80, 3, 9, ALLOW, 0, 0, 0, 0 },
		/* denied by a rule, then by the default */
		{ 0x100, 0x200, 6, 22, 0, 0, DENY, 1, VXGBP_RB(VXGBP_R_POLICY_DENIED), 7, 0 },
		{ 0x200, 0x300, 17, 5432, 0, 0, DENY, VXGBP_POLICY_DEFAULT,
		  VXGBP_RB(VXGBP_R_POLICY_DENIED), 7, 0 },
		/* denied with A set: bypassed at the first A frame */
		{ 0x100, 0x200, 6, 22, 2, 11, DENY, 1,
		  VXGBP_RB(VXGBP_R_POLICY_DENIED) | VXGBP_RB(VXGBP_R_POLICY_BYPASSED), 7, 11 },
	};
	struct vxgbp_policy p;
	struct vxgbp_policy_verdict v;

	load(&p, acl, sizeof(acl) / sizeof(acl[0]));
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct vxgbp_track_flow f = { 0 };

		CTX("case %zu", i);
		f.first_frame = 7;
		f.src_group = c[i].src;
		f.dst_group = c[i].dst;
		f.proto = c[i].proto;
		f.dport = c[i].dport;
		f.a_frames = c[i].a_frames;
		f.first_a_frame = c[i].first_a;
		EXPECT_EQ(vxgbp_policy_audit(&p, &f, &v), c[i].verdict);
		EXPECT_EQ(v.verdict, c[i].verdict);
		EXPECT_EQ(v.rule, c[i].rule);
		EXPECT_EQ(v.findings, c[i].findings);
		EXPECT_EQ(v.denied_at, c[i].denied_at);
		EXPECT_EQ(v.bypassed_at, c[i].bypassed_at);
	}
	EXPECT_EQ(vxgbp_policy_audit(NULL, &(struct vxgbp_track_flow){ 0 }, &v), VXGBP_E_INVAL);
	EXPECT_EQ(v.findings, 0);
	EXPECT_EQ(vxgbp_policy_audit(&p, NULL, &v), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_policy_audit(&p, &(struct vxgbp_track_flow){ 0 }, NULL), VXGBP_E_INVAL);
}
END_TEST


/* ---- the index against the plain definitions ---- */

static int ref_has_port(const struct vxgbp_policy_rule *r, uint32_t x)
{
	for (unsigned k = 0; k < r->n_ports; k++)
		if (x >= r->port_lo[k] && x <= r->port_hi[k])
			return 1;
	return 0;
}

/* The first rule that matches, or VXGBP_POLICY_DEFAULT. */
static unsigned ref_judge(const struct vxgbp_policy *p, uint32_t src, uint32_t dst,
			  uint8_t proto, uint16_t port)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct vxgbp_policy_rule *r = &p->v[i];

		if ((r->src == ANYG || r->src == src) && (r->dst == ANYG || r->dst == dst) &&
		    (r->proto == VXGBP_POLICY_ANY_PROTO || r->proto == proto) &&
		    (!r->n_ports || ref_has_port(r, port)))
			return (unsigned)i;
	}
	return VXGBP_POLICY_DEFAULT;
}

/* a's ports hold every port of b's: where coverage can change (the ends
 * of b's ranges, and a's ends and their neighbours inside them), each
 * port of b is in a.  Without ports: every port, and only a rule without
 * ports covers one without. */
static int ref_cover(const struct vxgbp_policy_rule *a, const struct vxgbp_policy_rule *b)
{
	if (!a->n_ports)
		return 1;
	if (!b->n_ports)
		return 0;
	for (unsigned k = 0; k < b->n_ports; k++) {
		uint32_t lo = b->port_lo[k], hi = b->port_hi[k];
		uint32_t pts[2 + 4 * VXGBP_POLICY_MAX_PORTS];
		unsigned n = 0;

		pts[n++] = lo;
		pts[n++] = hi;
		for (unsigned j = 0; j < a->n_ports; j++) {
			pts[n++] = a->port_lo[j] - 1u;
			pts[n++] = a->port_lo[j];
			pts[n++] = a->port_hi[j];
			pts[n++] = a->port_hi[j] + 1u;
		}
		for (unsigned j = 0; j < n; j++)
			if (pts[j] >= lo && pts[j] <= hi && !ref_has_port(a, pts[j]))
				return 0;
	}
	return 1;
}

/* The first earlier rule covering rule i, or -1. */
static long ref_shadowed(const struct vxgbp_policy *p, size_t i)
{
	const struct vxgbp_policy_rule *b = &p->v[i];

	for (size_t j = 0; j < i; j++) {
		const struct vxgbp_policy_rule *a = &p->v[j];

		if ((a->src == ANYG || a->src == b->src) && (a->dst == ANYG || a->dst == b->dst) &&
		    (a->proto == VXGBP_POLICY_ANY_PROTO || a->proto == b->proto) && ref_cover(a, b))
			return (long)j;
	}
	return -1;
}

static uint32_t pick(unsigned long long *s, const uint32_t *v, size_t n)
{
	return v[unit_rand(s) % n];
}

/* A random rule over few groups, protocols and ports, so that rules meet:
 * wildcards, no ports, port lists, ranges touching, the last port. */
static void random_rule(unsigned long long *s, struct vxgbp_policy_rule *r, uint32_t line,
			int dense)
{
	static const uint32_t g[] = { 1, ANYG, 2, 3, NONE, UNKNOWN, ANYG };
	static const uint32_t pr[] = { 6, VXGBP_POLICY_ANY_PROTO, 6, 17, 1 };
	static const uint32_t edge[] = { 0, 1, 20, 39, 40, 65534, 65535 };

	memset(r, 0, sizeof(*r));
	r->src = pick(s, g, dense ? 2 : 7);
	r->dst = pick(s, g, dense ? 2 : 7);
	r->proto = (uint16_t)pick(s, pr, dense ? 2 : 5);
	r->action = (uint8_t)(unit_rand(s) & 1);
	r->line = line;
	if ((r->proto == 6 || r->proto == 17 || unit_rand(s) % 8 == 0) && unit_rand(s) % 4)
		r->n_ports = (uint8_t)(1 + unit_rand(s) % (unit_rand(s) % 5 ? 3 : 16));
	if (dense && unit_rand(s) % 8) { /* port lists that only a later rule covers */
		r->proto = 6;
		r->n_ports = (uint8_t)(1 + unit_rand(s) % 3);
	}
	for (unsigned k = 0; k < r->n_ports; k++) {
		uint32_t a = unit_rand(s) % 8 ? unit_rand(s) % 41 : pick(s, edge, 7);
		uint32_t b = unit_rand(s) % 3 ? a + unit_rand(s) % 12 : pick(s, edge, 7);

		if (b > 65535)
			b = 65535;
		r->port_lo[k] = (uint16_t)(a < b ? a : b);
		r->port_hi[k] = (uint16_t)(a < b ? b : a);
	}
}

/* Every rule's shadowing, and every flow over the groups, protocols and
 * ports in use, indexed and not, against the definitions. */
static void index_compare(struct vxgbp_policy *p)
{
	static const uint32_t g[] = { 1, 2, 3, 4, NONE, UNKNOWN };
	static const uint8_t pr[] = { 6, 17, 1, 58 };
	static const uint16_t ports[] = { 0, 1, 2, 5, 11, 12, 19, 20, 21, 30, 39, 40,
					  41, 50, 52, 53, 1000, 65534, 65535 };
	const struct vxgbp_policy_index *ix = p->index;

	for (size_t i = 0; i < p->n; i++) {
		size_t by = 12345;
		long want = ref_shadowed(p, i);

		CTX("rule %zu of %zu", i, p->n);
		EXPECT_EQ(vxgbp_policy_shadowed(p, i, &by), want >= 0);
		if (want >= 0)
			EXPECT_EQ(by, want);
	}
	for (size_t a = 0; a < 6; a++)
		for (size_t b = 0; b < 6; b++)
			for (size_t c = 0; c < 4; c++)
				for (size_t d = 0; d < sizeof(ports) / sizeof(ports[0]); d++) {
					unsigned rule = 12345, want;

					want = ref_judge(p, g[a], g[b], pr[c], ports[d]);
					CTX("flow %x -> %x proto %u port %u", g[a], g[b], pr[c],
					    ports[d]);
					EXPECT_EQ(vxgbp_policy_judge(p, g[a], g[b], pr[c], ports[d],
								     &rule),
						  want == VXGBP_POLICY_DEFAULT ? p->dflt
									       : p->v[want].action);
					EXPECT_EQ(rule, want);
				}
	for (size_t a = 0; a < 6; a++) {
		int with = vxgbp_policy_pair(p, g[a], g[(a + 1) % 6]), without;

		p->index = NULL;
		without = vxgbp_policy_pair(p, g[a], g[(a + 1) % 6]);
		p->index = ix;
		EXPECT_EQ(with, without);
	}
}

START_TEST(test_index_random)
{
	static struct vxgbp_policy_rule v[48];
	unsigned long long seed = 0x5eed1dcull;
	size_t cap = 0;
	void *mem = NULL;

	for (unsigned round = 0; round < 1500; round++) {
		struct vxgbp_policy p;
		int dense = round % 3 == 0; /* few buckets: more cover to find */
		size_t n = 1 + unit_rand(&seed) % (dense || round % 10 == 0 ? 48 : 12), len;

		vxgbp_policy_init(&p, v, 48, NULL);
		for (size_t i = 0; i < n; i++)
			random_rule(&seed, &v[i], (uint32_t)i + 1, dense);
		p.n = n;
		p.dflt = (uint8_t)(round & 1);
		len = vxgbp_policy_index_size(&p);
		ck_assert_uint_gt(len, 0);
		if (len > cap) {
			free(mem);
			ck_assert_ptr_nonnull(mem = malloc(cap = len));
		}
		CTX("round %u", round);
		EXPECT_EQ(vxgbp_policy_index_init(&p, mem, len), 0);
		EXPECT(p.index != NULL, "attached");
		index_compare(&p);
		/* the library's own linear path agrees too */
		p.index = NULL;
		index_compare(&p);
	}
	free(mem);
}
END_TEST

/* A rule of several ranges covered by none of the rules that first cover
 * each range, but by a later one; a rule without ports covered only by
 * another without. */
START_TEST(test_index_cover)
{
	static const char *const lines[] = {
		"allow 1 -> 2 tcp 1-10",       /* 0 */
		"allow * -> 2 tcp 20-30",      /* 1 */
		"allow 1 -> * any",            /* 2: udp, icmp, ... too */
		"deny 1 -> 2 tcp 1-10,20-30",  /* 3 */
		"deny 1 -> 2 tcp 5,25",        /* 4: by 2 (all ports) */
		"deny 3 -> 2 tcp 1-10,20-30",  /* 5: not by 1 alone */
		"deny 3 -> 2 tcp 0-10,11-65535", /* 6 */
		"deny * -> 2 tcp 1-9,21-29",   /* 7: by nothing (1 has 20-30 only) */
		"deny 3 -> 2 tcp 5,25",        /* 8: by 6 */
		"allow 3 -> 2 tcp",            /* 9: by nothing (6 has ports) */
		"allow 3 -> 2 tcp 1-10,20-30", /* 10: by 5 */
		"allow 4 -> 5 tcp 1-10",       /* 11 */
		"allow 4 -> 5 tcp 20-30",      /* 12 */
		"allow 4 -> 5 tcp 1-10,20-30", /* 13 */
		"deny 4 -> 5 tcp 5,25",        /* 14: by 13, after 11 and 12 */
	};
	static const long want[] = { -1, -1, -1, 2, 2, -1, -1, -1, 5, -1, 5, -1, -1, -1, 13 };
	struct vxgbp_policy p;
	size_t len;
	void *mem;

	load(&p, lines, sizeof(lines) / sizeof(lines[0]));
	len = vxgbp_policy_index_size(&p);
	ck_assert_ptr_nonnull(mem = malloc(len));
	EXPECT_EQ(vxgbp_policy_index_init(&p, mem, len), 0);
	for (size_t i = 0; i < p.n; i++) {
		size_t by = 99;

		CTX("rule %zu", i);
		EXPECT_EQ(ref_shadowed(&p, i), want[i]);
		EXPECT_EQ(vxgbp_policy_shadowed(&p, i, &by), want[i] >= 0);
		EXPECT_EQ(want[i] >= 0 ? (long)by : -1, want[i]);
	}
	index_compare(&p);
	free(mem);
}
END_TEST

/* Sizes, errors, and an index that no longer describes the rules. */
START_TEST(test_index_api)
{
	static const char *const lines[] = { "allow 1 -> 2 tcp 80", "deny 1 -> 2 tcp 80" };
	struct vxgbp_policy p;
	size_t len, by = 0;
	void *mem;
	unsigned rule;

	EXPECT_EQ(vxgbp_policy_index_size(NULL), 0);
	load(&p, lines, 2);
	len = vxgbp_policy_index_size(&p);
	ck_assert_ptr_nonnull(mem = malloc(len + 8));
	EXPECT_EQ(vxgbp_policy_index_init(NULL, mem, len), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_policy_index_init(&p, NULL, len), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_policy_index_init(&p, (char *)mem + 4, len), VXGBP_E_INVAL);
	EXPECT_EQ(vxgbp_policy_index_init(&p, mem, len - 1), VXGBP_E_NOSPACE);
	EXPECT(p.index == NULL, "not attached after an error");
	EXPECT_EQ(vxgbp_policy_index_init(&p, mem, len), 0);
	EXPECT_EQ(vxgbp_policy_shadowed(&p, 1, &by), 1);
	EXPECT_EQ(by, 0);
	/* a rule added drops the index; judging still sees every rule */
	EXPECT_EQ(vxgbp_policy_parse_line(&p, "deny 3 -> 4", 11, 3, NULL, NULL), 0);
	EXPECT(p.index == NULL, "detached by a new rule");
	EXPECT_EQ(vxgbp_policy_judge(&p, 3, 4, 6, 1, &rule), DENY);
	EXPECT_EQ(rule, 2);
	/* an index of fewer rules than p has is ignored */
	EXPECT_EQ(vxgbp_policy_index_init(&p, mem, len), VXGBP_E_NOSPACE);
	p.n = 2;
	EXPECT_EQ(vxgbp_policy_index_init(&p, mem, len), 0);
	p.n = 3;
	EXPECT_EQ(vxgbp_policy_judge(&p, 3, 4, 6, 1, &rule), DENY);
	EXPECT_EQ(rule, 2);
	/* rules the parser cannot make */
	p.n = 2;
	p.v[1].port_lo[0] = 81;
	EXPECT_EQ(vxgbp_policy_index_init(&p, mem, len), VXGBP_E_INVAL);
	p.v[1].port_lo[0] = 80;
	p.v[1].n_ports = VXGBP_POLICY_MAX_PORTS + 1;
	free(mem);
	len = vxgbp_policy_index_size(&p);
	ck_assert_ptr_nonnull(mem = malloc(len));
	EXPECT_EQ(vxgbp_policy_index_init(&p, mem, len), VXGBP_E_INVAL);
	EXPECT(p.index == NULL, "not attached after an error");
	/* no rules at all */
	p.n = 0;
	len = vxgbp_policy_index_size(&p);
	EXPECT_EQ(vxgbp_policy_index_init(&p, mem, len), 0);
	EXPECT_EQ(vxgbp_policy_judge(&p, 1, 2, 6, 80, &rule), p.dflt);
	EXPECT_EQ(rule, VXGBP_POLICY_DEFAULT);
	free(mem);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("policy");
	TCase *tc = unit_tcase(s, "parse");

	tcase_add_test(tc, test_statements);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_limits);
	tc = unit_tcase(s, "judge");
	tcase_add_test(tc, test_judge);
	tcase_add_test(tc, test_pair);
	tcase_add_test(tc, test_pair_exact);
	tcase_add_test(tc, test_all_protocols_named);
	tcase_add_test(tc, test_shadowed);
	tcase_add_test(tc, test_audit);
	tc = unit_tcase(s, "index");
	tcase_add_test(tc, test_index_random);
	tcase_add_test(tc, test_index_cover);
	tcase_add_test(tc, test_index_api);
	return unit_run(s, "policy");
}
