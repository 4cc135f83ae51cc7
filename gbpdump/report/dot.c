// SPDX-License-Identifier: BSD-2-Clause
/*
 * dot.c - gbpdump --stats --dot: the group-to-group matrix of libvxgbp's
 * tracker as a Graphviz digraph on standard output.  Every group that sent
 * or received is a node (name and ID in its label), every non-empty cell
 * an edge (frames and bytes in its label, pen width by bytes on a log
 * scale).  Layout is Graphviz's: `gbpdump ... --stats --dot | dot -Tsvg`.
 */
#include <stdio.h>
#include <stdlib.h>

#include "escape.h"
#include "report.h"
#include "stats.h"

/* The node name of a group: g256, plain, unknown. */
static void node_id(char *buf, size_t n, uint32_t g)
{
	if (g == VXGBP_GROUP_NONE)
		snprintf(buf, n, "plain");
	else if (g == VXGBP_GROUP_UNKNOWN)
		snprintf(buf, n, "unknown");
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
		int pv = report_policy(policy, c->src, c->dst);
		char s[16], d[16];

		node_id(s, sizeof(s), c->src);
		node_id(d, sizeof(d), c->dst);
		out_printf(o, "  %s -> %s [label=\"%llu frame%s\\n%llu bytes%s%s\", penwidth=%.2f",
			   s, d, (unsigned long long)c->frames, c->frames == 1 ? "" : "s",
			   (unsigned long long)c->bytes, pv < 0 ? "" : "\\npolicy: ",
			   report_policy_word(pv), 1 + 4 * report_log_range(c->bytes, min, max));
		if (pv >= 0)
			out_printf(o, ", color=\"%s\", fontcolor=\"%s\"%s", report_policy_color(pv),
				   report_policy_color(pv), pv == VXGBP_POLICY_SOME ?
				   ", style=dashed" : "");
		out_str(o, "];\n");
	}
}

int dot_print(const struct vxgbp_track *t, struct gd_out *o,
	      const struct vxgbp_groups *groups, const struct vxgbp_policy *policy,
	      const char *capture)
{
	struct stats_tables tb = { 0 };
	uint8_t *map = calloc(65538 / 8 + 1, 1);
	int rc = map ? stats_tables_get(t, &tb) : -1;

	if (!rc) {
		out_str(o, "digraph gbp {\n  label=\"gbpdump --stats: group to group, ");
		dot_str(o, capture ? capture : "");
		out_printf(o, " (%llu frames)\";\n  labelloc=t;\n  rankdir=LR;\n"
			   "  node [shape=box, style=rounded, fontname=\"DejaVu Sans\"];\n"
			   "  edge [fontname=\"DejaVu Sans\", fontsize=10];\n",
			   (unsigned long long)tb.s.frames);
		dot_body(&tb, o, groups, policy, map);
		out_str(o, "}\n");
	}
	stats_tables_free(&tb);
	free(map);
	return rc;
}
