// SPDX-License-Identifier: BSD-2-Clause
/*
 * policy.c - gbpdump --policy FILE (docs/policy.md): the file loaded
 * through libvxgbp's line parser, the tracker's flows judged by
 * vxgbp_policy_audit(), and the audit printed: every denied flow, by
 * first frame, then a summary; or, under --check, the findings
 * policy.denied and policy.bypassed and the same list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "group.h"
#include "lines.h"
#include "policy.h"

/* ---- loading ---- */

#define SHADOW_SHOWN 20 /* shadowed-rule warnings printed; then a count */

/* The policy and the memory of its index. */
struct policy {
	struct vxgbp_policy p; /* first: policy_free() gets &p */
	void *index;
};

/* One line into p, growing its array when full.  0, or -1 after a message. */
static int load_line(struct vxgbp_policy *p, const char *path, unsigned long lineno,
		     const char *line, size_t len)
{
	const char *msg;
	size_t col;
	int r;

	while ((r = vxgbp_policy_parse_line(p, line, len, (uint32_t)lineno, &col, &msg)) ==
	       VXGBP_E_NOSPACE) {
		size_t ncap = p->cap ? p->cap * 2 : 64;
		struct vxgbp_policy_rule *nv = realloc(p->v, ncap * sizeof(*nv));

		if (!nv) {
			fprintf(stderr, "gbpdump: out of memory\n");
			return -1;
		}
		p->v = nv;
		p->cap = ncap;
	}
	if (r == VXGBP_E_SYNTAX)
		fprintf(stderr, "gbpdump: %s:%lu:%zu: %s\n", path, lineno, col + 1, msg);
	else if (r < 0)
		fprintf(stderr, "gbpdump: %s:%lu: %s\n", path, lineno, vxgbp_strerror(r));
	return r < 0 ? -1 : 0;
}

/* Rules no flow can reach: a warning each for the first SHADOW_SHOWN,
 * then how many more (a generated policy can have thousands). */
static void warn_shadowed(const struct vxgbp_policy *p, const char *path)
{
	size_t by, more = 0, shown = 0;

	for (size_t i = 0; i < p->n; i++) {
		if (!vxgbp_policy_shadowed(p, i, &by))
			continue;
		if (shown == SHADOW_SHOWN) {
			more++;
			continue;
		}
		shown++;
		fprintf(stderr, "gbpdump: %s:%u: warning: rule never decides: line %u "
			"before it matches every flow it matches\n", path, p->v[i].line,
			p->v[by].line);
	}
	if (more)
		fprintf(stderr, "gbpdump: %s: warning: %zu more shadowed rule%s not shown\n", path,
			more, more == 1 ? "" : "s");
}

/* The rules indexed (vxgbp_policy_index_init), so that neither the check
 * above nor judging a flow scans every rule.  0, or -1 after a message. */
static int index_rules(struct policy *pl, const char *path)
{
	size_t len = vxgbp_policy_index_size(&pl->p);
	int r;

	if (!len) {
		fprintf(stderr, "gbpdump: %s: too many rules to index\n", path);
		return -1;
	}
	if (!(pl->index = malloc(len))) {
		fprintf(stderr, "gbpdump: %s: out of memory for the index of %zu rules\n", path,
			pl->p.n);
		return -1;
	}
	if ((r = vxgbp_policy_index_init(&pl->p, pl->index, len)) < 0) {
		fprintf(stderr, "gbpdump: %s: %s\n", path, vxgbp_strerror(r));
		return -1;
	}
	return 0;
}

struct load {
	struct vxgbp_policy *p;
	const char *path;
};

static int load_one(void *ctx, unsigned long lineno, char *line, size_t len)
{
	struct load *l = ctx;

	return load_line(l->p, l->path, lineno, line, len);
}

static int load_file(struct vxgbp_policy *p, const char *path, FILE *f)
{
	struct load l = { p, path };

	return lines_read(f, "gbpdump", path, 1023, load_one, &l) ? -1 : 0;
}

struct vxgbp_policy *policy_load(const char *path, const struct vxgbp_groups *groups)
{
	struct policy *pl = calloc(1, sizeof(*pl));
	FILE *f;
	int rc;

	if (!pl) {
		fprintf(stderr, "gbpdump: out of memory\n");
		return NULL;
	}
	vxgbp_policy_init(&pl->p, NULL, 0, groups);
	if (!(f = fopen(path, "r"))) {
		fprintf(stderr, "gbpdump: %s: %s\n", path, strerror(errno));
		policy_free(&pl->p);
		return NULL;
	}
	rc = load_file(&pl->p, path, f);
	fclose(f);
	if (rc < 0 || index_rules(pl, path) < 0) {
		policy_free(&pl->p);
		return NULL;
	}
	warn_shadowed(&pl->p, path);
	return &pl->p;
}

void policy_free(struct vxgbp_policy *p)
{
	struct policy *pl = (struct policy *)p; /* p is its first member */

	if (!pl)
		return;
	free(pl->p.v);
	free(pl->index);
	free(pl);
}

/* ---- the audit ---- */

void policy_audit_free(struct gd_audit *a)
{
	free(a->f);
	free(a->v);
	a->f = NULL;
	a->v = NULL;
}

int policy_audit(struct gd_audit *a, const struct vxgbp_policy *p, const char *path,
		 const struct vxgbp_track *t, const struct vxgbp_groups *groups)
{
	size_t held = 0;
	int n;

	memset(a, 0, sizeof(*a));
	a->p = p;
	a->path = path;
	a->groups = groups;
	if (vxgbp_track_flow_stats(t, &held, &a->dropped) < 0)
		return -1;
	a->f = malloc((held ? held : 1) * sizeof(*a->f));
	a->v = malloc((held ? held : 1) * sizeof(*a->v));
	if (!a->f || !a->v || (n = vxgbp_track_flows(t, a->f, held)) < 0)
		return -1;
	a->n = (size_t)n;
	for (size_t i = 0; i < a->n; i++) {
		if (vxgbp_policy_audit(p, &a->f[i], &a->v[i]) < 0)
			return -1;
		a->allowed += a->v[i].verdict == VXGBP_POLICY_ALLOW;
		a->denied += a->v[i].verdict == VXGBP_POLICY_DENY;
		a->bypassed += (a->v[i].findings & VXGBP_RB(VXGBP_R_POLICY_BYPASSED)) != 0;
	}
	return 0;
}

/* ---- text ---- */

/* tcpdump's name of a protocol the policy language has a keyword for
 * ("TCP"), else NULL (libvxgbp's protocol table). */
static const char *proto_name(uint8_t proto)
{
	const struct vxgbp_ipproto_info *pi = vxgbp_ipproto_get(proto);

	return pi && pi->keyword ? pi->name : NULL;
}

/* addr:port ([addr]:port for IPv6), or addr alone without ports. */
static void text_end(struct gd_out *o, const struct vxgbp_track_flow *f, const uint8_t *addr,
		     uint16_t port)
{
	int ports = f->proto == 6 || f->proto == 17, v6 = f->ip_version == 6;

	if (ports && v6)
		out_putc(o, '[');
	out_addr(o, addr, v6 ? 16 : 4);
	if (ports)
		out_printf(o, "%s:%u", v6 ? "]" : "", port);
}

/* "line 7" or "default". */
static void text_rule(struct gd_out *o, const struct gd_audit *a, size_t i)
{
	if (a->v[i].rule == VXGBP_POLICY_DEFAULT)
		out_str(o, "the default");
	else
		out_printf(o, "line %u", a->p->v[a->v[i].rule].line);
}

/* One flow, one line. */
static void text_flow(const struct gd_audit *a, size_t i, struct gd_out *o)
{
	const struct vxgbp_track_flow *f = &a->f[i];
	const char *pn = proto_name(f->proto);

	out_printf(o, "frame %llu: ", (unsigned long long)f->first_frame);
	group_text(o, f->src_group, a->groups);
	out_str(o, " -> ");
	group_text(o, f->dst_group, a->groups);
	out_printf(o, ", VNI %u, ", f->vni);
	if (pn)
		out_printf(o, "%s ", pn);
	else
		out_printf(o, "proto %u ", f->proto);
	text_end(o, f, f->src, f->sport);
	out_str(o, " -> ");
	text_end(o, f, f->dst, f->dport);
	out_printf(o, ", frames %llu/%llu, bytes %llu/%llu, %s by ",
		   (unsigned long long)f->frames[0], (unsigned long long)f->frames[1],
		   (unsigned long long)f->bytes[0], (unsigned long long)f->bytes[1],
		   a->v[i].verdict == VXGBP_POLICY_DENY ? "denied" : "allowed");
	text_rule(o, a, i);
	if (a->v[i].bypassed_at)
		out_printf(o, "; A set on %llu frame%s (first %llu): bypassed",
			   (unsigned long long)f->a_frames, f->a_frames == 1 ? "" : "s",
			   (unsigned long long)a->v[i].bypassed_at);
	out_putc(o, '\n');
}

static void text_summary(const struct gd_audit *a, struct gd_out *o)
{
	out_printf(o, "policy %s (default %s): %zu flows judged: %llu allowed, %llu denied, "
		   "%llu bypassed (A set on a denied flow)", a->path,
		   group_verdict_name(a->p->dflt), a->n, (unsigned long long)a->allowed,
		   (unsigned long long)a->denied, (unsigned long long)a->bypassed);
	if (a->dropped)
		out_printf(o, "; undetermined: %llu frames in flows not tracked (tables full)",
			   (unsigned long long)a->dropped);
	out_putc(o, '\n');
}

/* ---- JSON ---- */

static void json_flow(const struct gd_audit *a, size_t i, struct gd_out *o)
{
	const struct vxgbp_track_flow *f = &a->f[i];
	size_t alen = f->ip_version == 6 ? 16 : 4;

	out_printf(o, "{\"first_frame\":%llu,\"vni\":%u,", (unsigned long long)f->first_frame,
		   f->vni);
	group_json(o, "src", f->src_group, a->groups);
	out_putc(o, ',');
	group_json(o, "dst", f->dst_group, a->groups);
	out_printf(o, ",\"ip_version\":%u,\"proto\":%u,\"src_addr\":\"", f->ip_version, f->proto);
	out_addr(o, f->src, alen);
	out_printf(o, "\",\"sport\":%u,\"dst_addr\":\"", f->sport);
	out_addr(o, f->dst, alen);
	out_printf(o, "\",\"dport\":%u,\"frames\":[%llu,%llu],\"bytes\":[%llu,%llu],"
		   "\"a_frames\":%llu,\"first_a_frame\":", f->dport,
		   (unsigned long long)f->frames[0], (unsigned long long)f->frames[1],
		   (unsigned long long)f->bytes[0], (unsigned long long)f->bytes[1],
		   (unsigned long long)f->a_frames);
	if (f->first_a_frame)
		out_u64(o, f->first_a_frame);
	else
		out_str(o, "null");
	out_str(o, ",\"rule_line\":");
	if (a->v[i].rule == VXGBP_POLICY_DEFAULT)
		out_str(o, "null");
	else
		out_u64(o, a->p->v[a->v[i].rule].line);
	out_putc(o, '}');
}

/* "policy":{...} */
static void json_audit(const struct gd_audit *a, struct gd_out *o)
{
	size_t k = 0;

	out_str(o, "\"policy\":{\"file\":");
	out_json_str(o, a->path);
	out_printf(o, ",\"default\":\"%s\",\"rules\":%zu,\"flows\":%zu,\"allowed\":%llu,"
		   "\"denied\":%llu,\"bypassed\":%llu,\"undetermined_frames\":%llu,"
		   "\"denied_flows\":[", group_verdict_name(a->p->dflt), a->p->n, a->n,
		   (unsigned long long)a->allowed, (unsigned long long)a->denied,
		   (unsigned long long)a->bypassed, (unsigned long long)a->dropped);
	for (size_t i = 0; i < a->n; i++) {
		if (a->v[i].verdict != VXGBP_POLICY_DENY)
			continue;
		if (k++)
			out_putc(o, ',');
		json_flow(a, i, o);
	}
	out_str(o, "]}");
}

void policy_print(const struct gd_audit *a, struct gd_out *o, int json, int verbose)
{
	if (json) {
		out_putc(o, '{');
		json_audit(a, o);
		out_str(o, "}\n");
		return;
	}
	for (size_t i = 0; i < a->n; i++)
		if (verbose || a->v[i].verdict == VXGBP_POLICY_DENY)
			text_flow(a, i, o);
	text_summary(a, o);
}

/* ---- --check ---- */

/* "0x0100", "none" (G clear), "unknown" (never seen sending GBP). */
static const char *group_str(char *buf, size_t n, uint32_t g)
{
	if (g == VXGBP_GROUP_NONE)
		return "none";
	if (g == VXGBP_GROUP_UNKNOWN)
		return "unknown";
	snprintf(buf, n, "0x%04x", g);
	return buf;
}

/* A one-line description of flow i into buf. */
static void describe(const struct gd_audit *a, size_t i, char *buf, size_t n)
{
	const struct vxgbp_track_flow *f = &a->f[i];
	char s[48], d[48], rule[24], gs[8], gd[8];

	vxgbp_addr_format(s, sizeof(s), f->src, f->ip_version == 6 ? 16 : 4);
	vxgbp_addr_format(d, sizeof(d), f->dst, f->ip_version == 6 ? 16 : 4);
	if (a->v[i].rule == VXGBP_POLICY_DEFAULT)
		snprintf(rule, sizeof(rule), "the default");
	else
		snprintf(rule, sizeof(rule), "line %u", a->p->v[a->v[i].rule].line);
	snprintf(buf, n, "VNI %u proto %u %s.%u > %s.%u, group %s > %s: denied by %s",
		 f->vni, f->proto, s, f->sport, d, f->dport,
		 group_str(gs, sizeof(gs), f->src_group), group_str(gd, sizeof(gd), f->dst_group),
		 rule);
}

void policy_check(const struct gd_audit *a, struct gd_check *c)
{
	char what[160];

	check_judges(c, VXGBP_R_POLICY_DENIED);
	check_judges(c, VXGBP_R_POLICY_BYPASSED);
	for (size_t i = 0; i < a->n; i++) {
		const struct vxgbp_policy_verdict *v = &a->v[i];

		if (!v->findings)
			continue;
		describe(a, i, what, sizeof(what));
		if (v->findings & VXGBP_RB(VXGBP_R_POLICY_DENIED))
			check_add_late(c, VXGBP_R_POLICY_DENIED, v->denied_at, what);
		if (v->findings & VXGBP_RB(VXGBP_R_POLICY_BYPASSED))
			check_add_late(c, VXGBP_R_POLICY_BYPASSED, v->bypassed_at, what);
	}
}

void policy_check_extra(void *ctx, struct gd_out *o, int json)
{
	const struct gd_audit *a = ctx;

	if (json) {
		out_putc(o, ',');
		json_audit(a, o);
		return;
	}
	out_str(o, "\nDenied flows (first frame):\n");
	for (size_t i = 0; i < a->n; i++) {
		if (a->v[i].verdict == VXGBP_POLICY_DENY) {
			out_str(o, "  ");
			text_flow(a, i, o);
		}
	}
	text_summary(a, o);
}
