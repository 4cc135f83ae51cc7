// SPDX-License-Identifier: BSD-2-Clause
/*
 * stats.c - gbpdump --stats: prints what libvxgbp's tracker counted (see
 * vxgbp.h, "Cross-frame analysis"): frames and bytes per VNI, per group
 * (plain VXLAN last), and the group-to-group matrix, where a destination's
 * group is learned from the frames that endpoint itself sent.
 */
#include <stdio.h>
#include <stdlib.h>

#include "groupfmt.h"
#include "stats.h"

/* struct stats_tables (stats.h), under its short local name */
#define tables stats_tables

void stats_tables_free(struct tables *tb)
{
	free(tb->v);
	free(tb->g);
	free(tb->c);
}

int stats_tables_get(const struct vxgbp_track *t, struct tables *tb)
{
	vxgbp_track_summary(t, &tb->s);
	tb->v = malloc((tb->s.vnis ? tb->s.vnis : 1) * sizeof(*tb->v));
	tb->g = malloc((tb->s.groups ? tb->s.groups : 1) * sizeof(*tb->g));
	tb->c = malloc((tb->s.pairs ? tb->s.pairs : 1) * sizeof(*tb->c));
	if (!tb->v || !tb->g || !tb->c)
		return -1;
	tb->nv = vxgbp_track_vnis(t, tb->v, tb->s.vnis);
	tb->ng = vxgbp_track_groups(t, tb->g, tb->s.groups);
	tb->nc = vxgbp_track_matrix(t, tb->c, tb->s.pairs);
	return tb->nv < 0 || tb->ng < 0 || tb->nc < 0 ? -1 : 0;
}

/* A pair verdict of vxgbp_policy_pair(): "allow", "deny", "some". */
/* A group in a 24-column field (a plain ID without printf: the matrix
 * of a large capture has tens of thousands of rows). */
static void text_group(struct gd_out *o, uint32_t g, const struct vxgbp_groups *groups)
{
	char buf[64];
	int n;

	if (g < VXGBP_GROUP_NONE && !vxgbp_groups_name(groups, (uint16_t)g)) {
		out_write(o, "0x", 2);
		out_hex(o, g, 4);
		out_spaces(o, 24 - 6); /* g < 0x10000: four digits */
		return;
	}
	n = group_format(buf, sizeof(buf), g, groups);
	out_printf(o, "%-24.*s", n, buf);
}

static void print_json(const struct tables *tb, struct gd_out *o,
		       const struct vxgbp_groups *groups, const struct vxgbp_policy *policy,
		       const struct stats_tail *tail)
{
	out_printf(o, "{\"stats\":{\"frames\":%llu,\"bytes\":%llu,\"vxlan\":%llu,"
		   "\"gbp\":%llu,\"other\":%llu,\"vni\":[",
		   (unsigned long long)tb->s.frames, (unsigned long long)tb->s.bytes,
		   (unsigned long long)tb->s.vxlan, (unsigned long long)tb->s.gbp,
		   (unsigned long long)tb->s.other);
	for (int i = 0; i < tb->nv; i++)
		out_printf(o, "%s{\"vni\":%u,\"frames\":%llu,\"bytes\":%llu}", i ? "," : "",
			   tb->v[i].key, (unsigned long long)tb->v[i].frames,
			   (unsigned long long)tb->v[i].bytes);
	out_str(o, "],\"groups\":[");
	for (int i = 0; i < tb->ng; i++) {
		out_str(o, i ? ",{" : "{");
		group_json(o, "group", tb->g[i].key, groups);
		out_printf(o, ",\"frames\":%llu,\"bytes\":%llu}", (unsigned long long)tb->g[i].frames,
			   (unsigned long long)tb->g[i].bytes);
	}
	out_str(o, "],\"matrix\":[");
	for (int i = 0; i < tb->nc; i++) {
		out_str(o, i ? ",{" : "{");
		group_json(o, "src", tb->c[i].src, groups);
		out_putc(o, ',');
		group_json(o, "dst", tb->c[i].dst, groups);
		out_printf(o, ",\"frames\":%llu,\"bytes\":%llu", (unsigned long long)tb->c[i].frames,
			   (unsigned long long)tb->c[i].bytes);
		if (policy) /* --policy: the pair's verdict */
			out_printf(o, ",\"policy\":\"%s\"",
				   group_verdict_name(vxgbp_policy_pair(policy, tb->c[i].src, tb->c[i].dst)));
		out_putc(o, '}');
	}
	out_str(o, "]}");
	if (tail) /* more members of the document (merge.h: the summary) */
		tail->fn(tail->ctx, o);
	out_str(o, "}\n");
}

static void print_text(const struct tables *tb, struct gd_out *o,
		       const struct vxgbp_groups *groups, const struct vxgbp_policy *policy)
{
	out_printf(o, "%llu frames, %llu bytes: %llu VXLAN (%llu with GBP), %llu other\n",
		   (unsigned long long)tb->s.frames, (unsigned long long)tb->s.bytes,
		   (unsigned long long)tb->s.vxlan, (unsigned long long)tb->s.gbp,
		   (unsigned long long)tb->s.other);
	out_str(o, "\nPer VNI:\n       VNI       frames         bytes\n");
	for (int i = 0; i < tb->nv; i++) {
		out_write(o, "  ", 2); /* "  %8u %12llu %13llu" */
		out_u64_w(o, tb->v[i].key, 8);
		out_putc(o, ' ');
		out_u64_w(o, tb->v[i].frames, 12);
		out_putc(o, ' ');
		out_u64_w(o, tb->v[i].bytes, 13);
		out_putc(o, '\n');
	}
	out_str(o, "\nPer group:\n  group                         frames         bytes\n");
	for (int i = 0; i < tb->ng; i++) {
		out_str(o, "  ");
		text_group(o, tb->g[i].key, groups);
		out_putc(o, ' ');
		out_u64_w(o, tb->g[i].frames, 12);
		out_putc(o, ' ');
		out_u64_w(o, tb->g[i].bytes, 13);
		out_putc(o, '\n');
	}
	out_printf(o, "\nGroup to group (destination group learned from its own frames):\n"
		   "  source                   destination                    frames         bytes%s\n",
		   policy ? "  policy" : "");
	for (int i = 0; i < tb->nc; i++) {
		out_str(o, "  ");
		text_group(o, tb->c[i].src, groups);
		out_putc(o, ' ');
		text_group(o, tb->c[i].dst, groups);
		out_write(o, "  ", 2);
		out_u64_w(o, tb->c[i].frames, 12);
		out_putc(o, ' ');
		out_u64_w(o, tb->c[i].bytes, 13);
		if (policy) /* --policy: the pair's verdict */
			out_printf(o, "  %s",
				   group_verdict_name(vxgbp_policy_pair(policy, tb->c[i].src, tb->c[i].dst)));
		out_putc(o, '\n');
	}
}

void stats_print_tables(const struct tables *tb, struct gd_out *o,
			const struct vxgbp_groups *groups, int json,
			const struct vxgbp_policy *policy, const struct stats_tail *tail)
{
	if (json)
		print_json(tb, o, groups, policy, tail);
	else
		print_text(tb, o, groups, policy);
}

int stats_print(const struct vxgbp_track *t, struct gd_out *o,
		const struct vxgbp_groups *groups, int json, const struct vxgbp_policy *policy)
{
	struct tables tb = { 0 };
	int rc = stats_tables_get(t, &tb);

	if (!rc)
		stats_print_tables(&tb, o, groups, json, policy, NULL);
	stats_tables_free(&tb);
	return rc;
}
