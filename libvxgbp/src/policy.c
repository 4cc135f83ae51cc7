// SPDX-License-Identifier: BSD-2-Clause
/*
 * policy.c - the group-based policy language (docs/policy.md): one rule a
 * line, parsed into the caller's array; its judgement; and the audit of a
 * tracked flow (denied, bypassed, where each finding is raised).
 *
 *     default deny
 *     allow client -> web tcp 80,443,8000-8080
 *     deny  * -> unknown any        # a comment
 *
 * First match wins.  Tokens are separated by blanks; "->" needs none
 * around it; '#' starts a comment anywhere.  Every error gives the column
 * of the token at fault and a one-line reason.
 */
#include <string.h>

#include <vxgbp/vxgbp.h>

#include "policy_index.h"

void vxgbp_policy_init(struct vxgbp_policy *p, struct vxgbp_policy_rule *storage,
		       size_t cap, const struct vxgbp_groups *groups)
{
	p->v = storage;
	p->n = 0;
	p->cap = storage ? cap : 0;
	p->groups = groups;
	p->dflt = VXGBP_POLICY_DENY;
	p->dflt_line = 0;
	p->index = NULL;
}

/* ---- the lexer ---- */

struct lex {
	const char *s;
	size_t len, i;  /* the line, and where the next token may start */
	size_t at, n;   /* the current token: start and length (n 0: none) */
	size_t col;     /* error: column */
	const char *msg;/* error: reason */
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The next token: "->", or a run up to a blank, '#' or "->".  0 at the end
 * of the statement (end of line or a comment). */
static int lex_next(struct lex *x)
{
	size_t i = x->i;

	while (i < x->len && is_blank(x->s[i]))
		i++;
	x->at = i;
	x->n = 0;
	if (i == x->len || x->s[i] == '#') {
		x->i = i;
		return 0;
	}
	if (i + 1 < x->len && x->s[i] == '-' && x->s[i + 1] == '>') {
		x->n = 2;
	} else {
		while (i < x->len && !is_blank(x->s[i]) && x->s[i] != '#' &&
		       !(i + 1 < x->len && x->s[i] == '-' && x->s[i + 1] == '>'))
			i++;
		x->n = i - x->at;
	}
	x->i = x->at + x->n;
	return 1;
}

static int tok_is(const struct lex *x, const char *word)
{
	size_t wl = strlen(word);

	return x->n == wl && memcmp(x->s + x->at, word, wl) == 0;
}

static int fail(struct lex *x, size_t col, const char *msg)
{
	x->col = col;
	x->msg = msg;
	return VXGBP_E_SYNTAX;
}

/* A whole-token number: decimal, or 0x-hex when hex_ok.  0 with *v, or -1
 * (not a number), or -2 (above max). */
static int tok_num(const struct lex *x, size_t at, size_t n, int hex_ok, unsigned long max,
		   unsigned long *v)
{
	const char *s = x->s + at;
	unsigned base = 10;
	size_t i = 0;

	*v = 0;
	if (hex_ok && n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == n)
		return -1;
	for (; i < n; i++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -1;
		if (*v > (max - d) / base)
			return -2;
		*v = *v * base + d;
	}
	return 0;
}

/* ---- the parser ---- */

/* A group by name: its one ID in the groups table.  0, or the error. */
static int group_by_name(struct lex *x, const struct vxgbp_groups *g, uint32_t *out)
{
	int found = 0;

	for (size_t i = 0; g && i < g->n; i++) {
		const char *nm = g->v[i].name;

		if (strlen(nm) != x->n || memcmp(nm, x->s + x->at, x->n) != 0)
			continue;
		if (found)
			return fail(x, x->at, "group name given to more than one ID in the groups file");
		*out = g->v[i].id;
		found = 1;
	}
	return found ? 0 : fail(x, x->at, "unknown group name (not in the --groups file)");
}

static int parse_group(struct lex *x, const struct vxgbp_policy *p, uint32_t *out)
{
	unsigned long v;
	int r;

	if (!lex_next(x) || tok_is(x, "->"))
		return fail(x, x->at, "expected a group: a name, an ID, 'none', 'unknown' or '*'");
	if (tok_is(x, "*")) {
		*out = VXGBP_POLICY_ANY_GROUP;
		return 0;
	}
	if (tok_is(x, "none") || tok_is(x, "unknown")) {
		*out = tok_is(x, "none") ? VXGBP_GROUP_NONE : VXGBP_GROUP_UNKNOWN;
		return 0;
	}
	if (x->s[x->at] >= '0' && x->s[x->at] <= '9') {
		if ((r = tok_num(x, x->at, x->n, 1, 0xffff, &v)) == -2)
			return fail(x, x->at, "group ID out of range (0-65535)");
		if (r == 0) {
			*out = (uint32_t)v;
			return 0;
		}
	}
	return group_by_name(x, p->groups, out);
}

static int proto_keyword(const struct lex *x, unsigned p)
{
	const struct vxgbp_ipproto_info *pi = vxgbp_ipproto_get((uint8_t)p);

	return pi && pi->keyword && tok_is(x, pi->keyword);
}

/* "any", a keyword of the protocol table (vxgbp_ipproto_get()), or a
 * number.  The keywords start with a letter and are unique; tcp and udp
 * are tried first, since each try scans the table and a big policy is
 * mostly them. */
static int parse_proto(struct lex *x, struct vxgbp_policy_rule *r)
{
	unsigned long v;
	int e;

	if (tok_is(x, "any")) {
		r->proto = VXGBP_POLICY_ANY_PROTO;
		return 0;
	}
	for (unsigned i = 0; i < 258 && (x->s[x->at] < '0' || x->s[x->at] > '9'); i++) {
		unsigned p = i == 0 ? 6 : i == 1 ? 17 : i - 2;

		if (proto_keyword(x, p)) {
			r->proto = (uint16_t)p;
			return 0;
		}
	}
	if ((e = tok_num(x, x->at, x->n, 0, 255, &v)) == 0) {
		r->proto = (uint16_t)v;
		return 0;
	}
	return fail(x, x->at, e == -2 ? "protocol number out of range (0-255)"
		    : "expected a protocol: tcp, udp, icmp, icmpv6, any or a number 0-255");
}

/* One port at [at, at+n). */
static int parse_port(struct lex *x, size_t at, size_t n, uint16_t *out)
{
	unsigned long v;
	int e;

	if (!n)
		return fail(x, at, "expected a port number");
	if ((e = tok_num(x, at, n, 0, 65535, &v)) < 0)
		return fail(x, at, e == -2 ? "port out of range (0-65535)" : "expected a port number");
	*out = (uint16_t)v;
	return 0;
}

/* "80,443,8000-8080": the whole current token. */
static int parse_ports(struct lex *x, struct vxgbp_policy_rule *r)
{
	size_t i = x->at, end = x->at + x->n;

	if (r->proto != 6 && r->proto != 17)
		return fail(x, x->at, "ports need protocol tcp or udp");
	while (i <= end) {
		size_t item = i, dash = 0, stop;
		uint16_t lo, hi;

		for (stop = i; stop < end && x->s[stop] != ','; stop++)
			if (x->s[stop] == '-' && !dash)
				dash = stop;
		if (r->n_ports == VXGBP_POLICY_MAX_PORTS)
			return fail(x, item, "too many port ranges (at most 16 in a rule)");
		if (parse_port(x, item, (dash ? dash : stop) - item, &lo) < 0 ||
		    (dash && parse_port(x, dash + 1, stop - dash - 1, &hi) < 0))
			return VXGBP_E_SYNTAX;
		if (!dash)
			hi = lo;
		if (hi < lo)
			return fail(x, item, "port range reversed (low-high)");
		r->port_lo[r->n_ports] = lo;
		r->port_hi[r->n_ports++] = hi;
		i = stop + 1;
	}
	return 0;
}

/* action src -> dst [proto [ports]], after the action word. */
static int parse_rule(struct lex *x, const struct vxgbp_policy *p, struct vxgbp_policy_rule *r)
{
	if (parse_group(x, p, &r->src) < 0)
		return VXGBP_E_SYNTAX;
	if (!lex_next(x) || !tok_is(x, "->"))
		return fail(x, x->at, "expected '->' between the two groups");
	if (parse_group(x, p, &r->dst) < 0)
		return VXGBP_E_SYNTAX;
	r->proto = VXGBP_POLICY_ANY_PROTO;
	if (!lex_next(x))
		return 0;
	if (parse_proto(x, r) < 0)
		return VXGBP_E_SYNTAX;
	if (!lex_next(x))
		return 0;
	return parse_ports(x, r);
}

/* "default allow|deny", after the word default. */
static int parse_default(struct lex *x, struct vxgbp_policy *p, uint32_t lineno)
{
	size_t at = x->at;

	if (!lex_next(x) || !(tok_is(x, "allow") || tok_is(x, "deny")))
		return fail(x, x->at, "expected 'allow' or 'deny' after 'default'");
	if (p->dflt_line)
		return fail(x, at, "a second 'default' line");
	p->dflt = tok_is(x, "allow") ? VXGBP_POLICY_ALLOW : VXGBP_POLICY_DENY;
	p->dflt_line = lineno ? lineno : 1;
	return 0;
}

static int parse_stmt(struct lex *x, struct vxgbp_policy *p, uint32_t lineno)
{
	struct vxgbp_policy_rule r;

	if (!lex_next(x))
		return 0; /* blank or comment */
	if (tok_is(x, "default"))
		return parse_default(x, p, lineno);
	if (!tok_is(x, "allow") && !tok_is(x, "deny"))
		return fail(x, x->at, "expected 'allow', 'deny' or 'default'");
	memset(&r, 0, sizeof(r));
	r.action = tok_is(x, "allow") ? VXGBP_POLICY_ALLOW : VXGBP_POLICY_DENY;
	r.line = lineno;
	if (parse_rule(x, p, &r) < 0)
		return VXGBP_E_SYNTAX;
	if (lex_next(x))
		return fail(x, x->at, "unexpected text after the rule");
	if (p->n >= p->cap)
		return VXGBP_E_NOSPACE;
	p->v[p->n++] = r;
	p->index = NULL; /* it describes the rules before this one */
	return 0;
}

int vxgbp_policy_parse_line(struct vxgbp_policy *p, const char *line, size_t len,
			    uint32_t lineno, size_t *col, const char **msg)
{
	struct lex x = { line, len, 0, 0, 0, 0, NULL };
	int r;

	if (col)
		*col = 0;
	if (msg)
		*msg = NULL;
	if (!p || (!line && len))
		return VXGBP_E_INVAL;
	r = parse_stmt(&x, p, lineno);
	if (r == VXGBP_E_SYNTAX) {
		if (col)
			*col = x.col;
		if (msg)
			*msg = x.msg;
	} else if (r == 0 && lex_next(&x)) {
		/* `default allow` followed by more words */
		if (col)
			*col = x.at;
		if (msg)
			*msg = "unexpected text after the statement";
		r = VXGBP_E_SYNTAX;
	}
	return r;
}

/* ---- the judgement ---- */

static int group_match(uint32_t rule, uint32_t g)
{
	return rule == VXGBP_POLICY_ANY_GROUP || rule == g;
}

static int rule_match(const struct vxgbp_policy_rule *r, uint32_t src, uint32_t dst,
		      uint8_t proto, uint16_t dport)
{
	if (!group_match(r->src, src) || !group_match(r->dst, dst))
		return 0;
	if (r->proto != VXGBP_POLICY_ANY_PROTO && r->proto != proto)
		return 0;
	for (unsigned i = 0; i < r->n_ports; i++)
		if (dport >= r->port_lo[i] && dport <= r->port_hi[i])
			return 1;
	return r->n_ports == 0;
}

int vxgbp_policy_judge(const struct vxgbp_policy *p, uint32_t src, uint32_t dst,
		       uint8_t ipproto, uint16_t dport, unsigned *rule_index)
{
	const struct vxgbp_policy_index *ix;

	if (rule_index)
		*rule_index = VXGBP_POLICY_DEFAULT;
	if (!p)
		return VXGBP_E_INVAL;
	if ((ix = vxgbpi_policy_index(p))) {
		uint32_t i = vxgbpi_policy_index_judge(ix, src, dst, ipproto, dport);

		if (i == VXGBPI_NO_RULE)
			return p->dflt;
		if (rule_index)
			*rule_index = i;
		return p->v[i].action;
	}
	for (size_t i = 0; i < p->n; i++) {
		if (rule_match(&p->v[i], src, dst, ipproto, dport)) {
			if (rule_index)
				*rule_index = (unsigned)i;
			return p->v[i].action;
		}
	}
	return p->dflt;
}

/* Judge one point of the (protocol, port) space into *seen (bit per
 * verdict).  Returns 1 when both verdicts have been seen. */
static int point(const struct vxgbp_policy *p, uint32_t src, uint32_t dst, unsigned proto,
		 unsigned port, unsigned *seen)
{
	if (port > 0xffff)
		return 0;
	*seen |= 1u << vxgbp_policy_judge(p, src, dst, (uint8_t)proto, (uint16_t)port, NULL);
	return *seen == 3u;
}

/*
 * The verdict over a protocol is constant between the port bounds of the
 * rules, so judging every rule's protocol at port 0 and at each of its
 * ranges' ends (lo, hi + 1) visits every piece; one protocol no rule names
 * stands for all the others.
 */
int vxgbp_policy_pair(const struct vxgbp_policy *p, uint32_t src, uint32_t dst)
{
	uint8_t named[32] = { 0 };
	unsigned seen = 0, other = 0;

	if (!p)
		return VXGBP_E_INVAL;
	for (size_t i = 0; i < p->n; i++) {
		const struct vxgbp_policy_rule *r = &p->v[i];

		if (!group_match(r->src, src) || !group_match(r->dst, dst) ||
		    r->proto == VXGBP_POLICY_ANY_PROTO)
			continue;
		named[r->proto >> 3] |= (uint8_t)(1u << (r->proto & 7));
		if (point(p, src, dst, r->proto, 0, &seen))
			return VXGBP_POLICY_SOME;
		for (unsigned k = 0; k < r->n_ports; k++)
			if (point(p, src, dst, r->proto, r->port_lo[k], &seen) ||
			    point(p, src, dst, r->proto, r->port_hi[k] + 1u, &seen))
				return VXGBP_POLICY_SOME;
	}
	while (other < 256 && (named[other >> 3] & (1u << (other & 7))))
		other++;
	if (other < 256 && point(p, src, dst, other, 0, &seen))
		return VXGBP_POLICY_SOME;
	return seen == 1u ? VXGBP_POLICY_DENY : VXGBP_POLICY_ALLOW;
}

/* (policy_index.h) */
int vxgbpi_policy_ports_cover(const struct vxgbp_policy_rule *a,
			      const struct vxgbp_policy_rule *b)
{
	if (!a->n_ports)
		return 1;
	if (!b->n_ports)
		return 0;
	for (unsigned k = 0; k < b->n_ports; k++) {
		uint32_t pos = b->port_lo[k];
		int moved = 1;

		while (pos <= b->port_hi[k] && moved) {
			moved = 0;
			for (unsigned j = 0; j < a->n_ports; j++) {
				if (pos >= a->port_lo[j] && pos <= a->port_hi[j]) {
					pos = a->port_hi[j] + 1u;
					moved = 1;
				}
			}
		}
		if (pos <= b->port_hi[k])
			return 0;
	}
	return 1;
}

int vxgbp_policy_shadowed(const struct vxgbp_policy *p, size_t i, size_t *by)
{
	const struct vxgbp_policy_index *ix;
	const struct vxgbp_policy_rule *b;

	if (!p || i >= p->n)
		return 0;
	if ((ix = vxgbpi_policy_index(p))) {
		uint32_t j = vxgbpi_policy_index_shadowed(ix, i);

		if (j == VXGBPI_NO_RULE)
			return 0;
		if (by)
			*by = j;
		return 1;
	}
	b = &p->v[i];
	for (size_t j = 0; j < i; j++) {
		const struct vxgbp_policy_rule *a = &p->v[j];

		if ((a->src != VXGBP_POLICY_ANY_GROUP && a->src != b->src) ||
		    (a->dst != VXGBP_POLICY_ANY_GROUP && a->dst != b->dst) ||
		    (a->proto != VXGBP_POLICY_ANY_PROTO && a->proto != b->proto) ||
		    !vxgbpi_policy_ports_cover(a, b))
			continue;
		if (by)
			*by = j;
		return 1;
	}
	return 0;
}

/* ---- the audit of a tracked flow ---- */

int vxgbp_policy_audit(const struct vxgbp_policy *p, const struct vxgbp_track_flow *f,
		       struct vxgbp_policy_verdict *v)
{
	int verdict;

	if (!v)
		return VXGBP_E_INVAL;
	memset(v, 0, sizeof(*v));
	v->rule = VXGBP_POLICY_DEFAULT;
	if (!p || !f)
		return VXGBP_E_INVAL;
	verdict = vxgbp_policy_judge(p, f->src_group, f->dst_group, f->proto, f->dport, &v->rule);
	v->verdict = (uint8_t)verdict;
	if (verdict != VXGBP_POLICY_DENY)
		return verdict;
	v->findings = VXGBP_RB(VXGBP_R_POLICY_DENIED);
	v->denied_at = f->first_frame;
	/* the tracker counts A only with G set: a frame that says a policy
	 * device passed it */
	if (f->a_frames) {
		v->findings |= VXGBP_RB(VXGBP_R_POLICY_BYPASSED);
		v->bypassed_at = f->first_a_frame;
	}
	return verdict;
}
