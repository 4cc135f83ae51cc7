// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_policy.c - libFuzzer harness for the policy language
 * (vxgbp_policy_parse_line) and its judgement.  The input is split into
 * lines, each copied into a buffer of exactly its length (no NUL
 * terminator), parsed into a small rule array (VXGBP_E_NOSPACE is reached
 * too) with group names from a fixed table.  Then, for points taken from
 * the input's bytes: vxgbp_policy_judge gives ALLOW or DENY and a rule
 * that matches; vxgbp_policy_pair never contradicts a judged point; a
 * shadowed rule never decides.
 */
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = { "0x100 client", "0x200 web", "0x300 db", "7 twin",
				      "8 twin" };

static void parse_all(struct vxgbp_policy *p, const uint8_t *data, size_t size)
{
	size_t at = 0;

	while (at < size) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (data + at)) + 1 : size - at;
		char *line = malloc(len ? len : 1);
		size_t col = (size_t)-1;
		const char *msg = NULL;
		int r;

		if (!line)
			return;
		memcpy(line, data + at, len);
		r = vxgbp_policy_parse_line(p, line, len, (uint32_t)at + 1, &col, &msg);
		if (r == VXGBP_E_SYNTAX && (col > len || !msg))
			abort();
		if (r != 0 && r != VXGBP_E_SYNTAX && r != VXGBP_E_NOSPACE)
			abort();
		free(line);
		at += len;
	}
}

static uint32_t group_of(uint8_t b)
{
	static const uint32_t g[] = { 0x100, 0x200, 0x300, 7, 8, 0, 0xffff,
				      VXGBP_GROUP_NONE, VXGBP_GROUP_UNKNOWN };

	return g[b % (sizeof(g) / sizeof(g[0]))];
}

/* One point (src, dst, proto, port) against the pair verdict and the
 * shadowed rules. */
static void judge_point(const struct vxgbp_policy *p, const uint8_t *b)
{
	uint32_t src = group_of(b[0]), dst = group_of(b[1]);
	uint16_t port = (uint16_t)(b[3] << 8 | b[4]);
	unsigned rule;
	int v = vxgbp_policy_judge(p, src, dst, b[2], port, &rule);
	int pair = vxgbp_policy_pair(p, src, dst);

	if (v != VXGBP_POLICY_ALLOW && v != VXGBP_POLICY_DENY)
		abort();
	if (rule == VXGBP_POLICY_DEFAULT ? v != p->dflt
	    : rule >= p->n || p->v[rule].action != v || vxgbp_policy_shadowed(p, rule, NULL))
		abort();
	if (pair != VXGBP_POLICY_SOME && pair != v)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vxgbp_group_name gstore[8];
	struct vxgbp_policy_rule rules[12];
	struct vxgbp_groups g;
	struct vxgbp_policy p;

	vxgbp_groups_init(&g, gstore, 8);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (vxgbp_groups_parse_line(&g, names[i], strlen(names[i]), NULL))
			abort();
	vxgbp_policy_init(&p, rules, sizeof(rules) / sizeof(rules[0]), &g);
	parse_all(&p, data, size);
	if (p.n > p.cap || p.dflt > VXGBP_POLICY_ALLOW)
		abort();
	for (size_t i = 0; i < p.n; i++) {
		size_t by = (size_t)-1;

		if (p.v[i].n_ports > VXGBP_POLICY_MAX_PORTS || p.v[i].action > 1)
			abort();
		if (vxgbp_policy_shadowed(&p, i, &by) && by >= i)
			abort();
	}
	for (size_t i = 0; i + 5 <= size && i < 200; i += 5)
		judge_point(&p, data + i);
	return 0;
}
