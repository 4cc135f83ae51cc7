// SPDX-License-Identifier: BSD-2-Clause
/*
 * dot.c - gbpdump --stats --dot: the group-to-group matrix of libvxgbp's
 * tracker as a Graphviz digraph on standard output.  Every group that sent
 * or received is a node (name and ID in its label), every non-empty cell
 * an edge (frames and bytes in its label, pen width by bytes on a log
 * scale).  Past RP_MAX_GROUPS groups, the busiest are nodes and the rest
 * one node, as in the report's graph (report.c: rp_view_get()): a graph of
 * thousands of nodes is one no layout makes readable.  Layout is
 * Graphviz's: `gbpdump ... --stats --dot | dot -Tsvg`.
 */
#include <stdio.h>
#include <stdlib.h>

#include "escape.h"
#include "report_int.h"

/* The node name of a group: g256, plain, unknown. */
static void node_id(char *buf, size_t n, uint32_t g)
{
	if (g == VXGBP_GROUP_NONE)
		snprintf(buf, n, "plain");
	else if (g == VXGBP_GROUP_UNKNOWN)
		snprintf(buf, n, "unknown");
	else if (g == REPORT_OTHER)
		snprintf(buf, n, "other");
	else
		snprintf(buf, n, "g%u", g);
}

static void out_sink(void *ctx, const char *s, size_t n)
{
	out_write(ctx, s, n);
}

/* s inside a DOT double-quoted string (escape.h). */
static void dot_str(struct gd_out *o, const char *s)
{
	esc_dot(&(struct esc_sink){ out_sink, o }, s);
}

static void dot_node(struct gd_out *o, uint32_t g, const struct vxgbp_groups *groups,
		     const struct vxgbp_track_count *sent)
{
	const char *name = report_group_name(g, groups);
	char id[32], nid[16];

	node_id(nid, sizeof(nid), g);
	report_group_id(id, sizeof(id), g);
	out_printf(o, "  %s [label=\"", nid);
	dot_str(o, *name ? name : id);
	if (*name && *id)
		out_printf(o, "\\n%s", id);
	if (sent)
		out_printf(o, "\\n%llu frame%s sent", (unsigned long long)sent->frames,
			   sent->frames == 1 ? "" : "s");
	out_printf(o, "\"%s];\n", g > 0xffffu ? ", style=\"rounded,dashed\"" : "");
}

/* Is g a node yet?  The groups seen, as a bitmap over IDs, NONE, UNKNOWN. */
static int seen(uint8_t *map, uint32_t g)
{
	unsigned k = g == VXGBP_GROUP_NONE ? 65536u : g == VXGBP_GROUP_UNKNOWN ? 65537u
		     : g & 0xffffu;
	int was = map[k / 8] >> (k % 8) & 1;

	map[k / 8] |= (uint8_t)(1u << (k % 8));
	return was;
}

/* An edge: frames and bytes, the pair's verdict pv (-1: none), width w in
 * [0, 1]. */
static void dot_edge(struct gd_out *o, uint32_t src, uint32_t dst, uint64_t frames,
		     uint64_t bytes, int pv, double w)
{
	char s[16], d[16];

	node_id(s, sizeof(s), src);
	node_id(d, sizeof(d), dst);
	out_printf(o, "  %s -> %s [label=\"%llu frame%s\\n%llu bytes%s%s\", penwidth=%.2f",
		   s, d, (unsigned long long)frames, frames == 1 ? "" : "s",
		   (unsigned long long)bytes, pv < 0 ? "" : "\\npolicy: ", report_policy_word(pv),
		   1 + 4 * w);
	if (pv >= 0)
		out_printf(o, ", color=\"%s\", fontcolor=\"%s\"%s", report_policy_color(pv),
			   report_policy_color(pv),
			   pv == VXGBP_POLICY_SOME ? ", style=dashed" : "");
	out_str(o, "];\n");
}

static void dot_body(const struct stats_tables *tb, struct gd_out *o,
		     const struct vxgbp_groups *groups, const struct vxgbp_policy *policy,
		     uint8_t *map)
{
	uint64_t max = 0, min = 0;

	for (int i = 0; i < tb->ng; i++)
		if (!seen(map, tb->g[i].key))
			dot_node(o, tb->g[i].key, groups, &tb->g[i]);
	for (int i = 0; i < tb->nc; i++) {
		if (!seen(map, tb->c[i].src))
			dot_node(o, tb->c[i].src, groups, NULL);
		if (!seen(map, tb->c[i].dst))
			dot_node(o, tb->c[i].dst, groups, NULL);
		if (tb->c[i].bytes > max)
			max = tb->c[i].bytes;
		if (tb->c[i].bytes && (!min || tb->c[i].bytes < min))
			min = tb->c[i].bytes;
	}
	for (int i = 0; i < tb->nc; i++) {
		const struct vxgbp_track_cell *c = &tb->c[i];

		dot_edge(o, c->src, c->dst, c->frames, c->bytes,
			 report_policy(policy, c->src, c->dst), report_log_range(c->bytes, min, max));
	}
}

/* The frames group g sent (NULL: none), from the table of every group. */
static const struct vxgbp_track_count *sent_by(const struct stats_tables *tb, uint32_t g)
{
	for (int i = 0; i < tb->ng; i++)
		if (tb->g[i].key == g)
			return &tb->g[i];
	return NULL;
}

/* Past RP_MAX_GROUPS groups: v's nodes (the busiest, then "other") and
 * cells, each edge's numbers exact sums of the cells folded into it. */
static void dot_folded(const struct rp_view *v, struct gd_out *o,
		       const struct vxgbp_groups *groups, const struct vxgbp_policy *policy)
{
	uint64_t rest = 0;

	for (int i = 0; i < v->tb.ng; i++)
		rest += v->tb.g[i].frames;
	for (int i = 0; i < v->n - 1; i++) {
		const struct vxgbp_track_count *c = sent_by(&v->tb, v->id[i]);

		rest -= c ? c->frames : 0;
		dot_node(o, v->id[i], groups, c);
	}
	out_printf(o, "  other [label=\"other groups (%u)\\n%llu frame%s sent\", "
		   "style=\"rounded,dashed\"];\n", v->merged, (unsigned long long)rest,
		   rest == 1 ? "" : "s");
	for (int s = 0; s < v->n; s++)
		for (int d = 0; d < v->n; d++)
			if (v->f[s][d])
				dot_edge(o, v->id[s], v->id[d], v->f[s][d], v->b[s][d],
					 report_policy(policy, v->id[s], v->id[d]),
					 report_log_range(v->b[s][d], v->min_b, v->max_b));
}

int dot_print(const struct vxgbp_track *t, struct gd_out *o,
	      const struct vxgbp_groups *groups, const struct vxgbp_policy *policy,
	      const char *capture)
{
	struct rp_view *v = calloc(1, sizeof(*v));
	uint8_t *map = calloc(65538 / 8 + 1, 1);
	int rc = v && map ? rp_view_get(v, t) : -1;

	if (!rc) {
		out_str(o, "digraph gbp {\n  label=\"gbpdump --stats: group to group, ");
		dot_str(o, capture ? capture : "");
		out_printf(o, " (%llu frames)", (unsigned long long)v->tb.s.frames);
		if (v->merged)
			out_printf(o, "\\nthe %d busiest of %u groups, the other %u as one node",
				   v->n - 1, v->n - 1 + v->merged, v->merged);
		out_str(o, "\";\n  labelloc=t;\n  rankdir=LR;\n"
			"  node [shape=box, style=rounded, fontname=\"DejaVu Sans\"];\n"
			"  edge [fontname=\"DejaVu Sans\", fontsize=10];\n");
		if (v->merged)
			dot_folded(v, o, groups, policy);
		else
			dot_body(&v->tb, o, groups, policy, map);
		out_str(o, "}\n");
	}
	if (v)
		rp_view_free(v);
	free(v);
	free(map);
	return rc;
}
