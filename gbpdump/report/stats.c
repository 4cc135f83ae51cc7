// SPDX-License-Identifier: BSD-2-Clause
/*
 * stats.c - gbpdump --stats: prints what libvxgbp's tracker counted (see
 * vxgbp.h, "Cross-frame analysis"): frames and bytes per VNI, per group
 * (plain VXLAN last), and the group-to-group matrix, where a destination's
 * group is learned from the frames that endpoint itself sent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "group.h"
#include "stats.h"

/* struct stats_tables (stats.h), under its short local name */
#define tables stats_tables

void stats_tables_free(struct tables *tb)
{
	free(tb->v);
	free(tb->g);
	free(tb->c);
	free(tb->m);
}

int stats_tables_get(const struct vxgbp_track *t, struct tables *tb)
{
	tb->s.size = sizeof(tb->s);
	vxgbp_track_summary(t, &tb->s);
	tb->v = malloc((tb->s.vnis ? tb->s.vnis : 1) * sizeof(*tb->v));
	tb->g = malloc((tb->s.groups ? tb->s.groups : 1) * sizeof(*tb->g));
	tb->c = malloc((tb->s.pairs ? tb->s.pairs : 1) * sizeof(*tb->c));
	tb->m = malloc((tb->s.mirrors ? tb->s.mirrors : 1) * sizeof(*tb->m));
	if (!tb->v || !tb->g || !tb->c || !tb->m)
		return -1;
	tb->nv = vxgbp_track_vnis(t, tb->v, tb->s.vnis);
	tb->ng = vxgbp_track_groups(t, tb->g, tb->s.groups);
	tb->nc = vxgbp_track_matrix(t, tb->c, tb->s.pairs);
	tb->nm = vxgbp_track_mirrors(t, tb->m, tb->s.mirrors);
	return tb->nv < 0 || tb->ng < 0 || tb->nc < 0 || tb->nm < 0 ? -1 : 0;
}

int stats_mirror_name(char *buf, size_t n, const struct vxgbp_track_mirror *m)
{
	const struct vxgbp_mirror_info *mi = vxgbp_mirror_get(m->kind);

	if (!mi)
		return snprintf(buf, n, "mirror %u id %u", m->kind, m->id);
	if (!mi->id_name)
		return snprintf(buf, n, "%s", mi->name);
	return snprintf(buf, n, "%s %s %u", mi->name, mi->id_name, m->id);
}

/* A group with a name, or an ID past the plain ones, in a 24-column
 * field (text_group()'s slow way, a call of its own: its buffer made every
 * call save and check a stack frame). */
static void text_group_fmt(struct gd_out *o, uint32_t g, const struct vxgbp_groups *groups)
{
	char buf[64];
	int n = group_format(buf, sizeof(buf), g, groups);

	out_printf(o, "%-24.*s", n, buf);
}

/* A group in a 24-column field; a plain ID, "(no gbp)" and "(unknown)"
 * without printf: the matrix of a large capture has tens of thousands of
 * rows, many of them to unknown destinations. */
static inline void text_group(struct gd_out *o, uint32_t g, const struct vxgbp_groups *groups)
{
	char *p;

	if (g < VXGBP_GROUP_NONE && !vxgbp_groups_name(groups, (uint16_t)g)) {
		p = out_reserve(o, 24); /* g < 0x10000: four digits */
		p = lw_hex4(LW_LIT(p, "0x"), (uint16_t)g);
		memset(p, ' ', 24 - 6);
		out_commit(o, p + 24 - 6);
		return;
	}
	if (g == VXGBP_GROUP_NONE || g == VXGBP_GROUP_UNKNOWN) { /* group_format's words */
		p = out_reserve(o, 24);
		memcpy(p, g == VXGBP_GROUP_NONE ? "(no gbp)                " :
						  "(unknown)               ", 24);
		out_commit(o, p + 24);
		return;
	}
	text_group_fmt(o, g, groups);
}

/* v right-aligned in w columns at p, as "%*llu" writes it: the spaces as
 * one 16-byte copy, then the digits backwards, two at a time from
 * gd_digits2, in place (lw_u64_w formats into a buffer, pads with memset
 * and copies; the tables have a number for every VNI and matrix row).  A
 * number wider than w goes that way.  p has room for 16 bytes, or 20 when
 * v is that wide. */
#define NUM_W_MAX 16

static char *num_w(char *p, uint64_t v, unsigned w)
{
	static const uint64_t lim[NUM_W_MAX + 1] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
		1000000000000ull, 10000000000000ull, 100000000000000ull,
		1000000000000000ull, 10000000000000000ull,
	};
	char *q = p + w;

	if (w > NUM_W_MAX || v >= lim[w])
		return lw_u64_w(p, v, (int)w);
	memcpy(p, "                ", NUM_W_MAX);
	for (; v >= 100; v /= 100)
		memcpy(q -= 2, gd_digits2 + 2 * (v % 100), 2);
	if (v >= 10)
		memcpy(q - 2, gd_digits2 + 2 * v, 2);
	else
		q[-1] = (char)('0' + v);
	return p + w;
}

/* The counters of a text row, "%12llu %13llu" behind sep (a few bytes):
 * one reservation for the row's numbers instead of one write a field.
 * Inline, so that the length of the literal sep is known. */
#define COUNTS_MAX (8 + 20 + 1 + 20) /* sep: at most 8 bytes (num_w: 16 for 13) */
_Static_assert(COUNTS_MAX <= GD_RESERVE_MAX, "text_counts: one reservation");

static inline void text_counts(struct gd_out *o, const char *sep, uint64_t frames,
			       uint64_t bytes)
{
	char *p = out_reserve(o, COUNTS_MAX);

	p = lw_mem(p, sep, strlen(sep));
	p = num_w(p, frames, 12);
	p = lw_c(p, ' ');
	out_commit(o, num_w(p, bytes, 13));
}

/* ,"frames":N,"bytes":N of a JSON row: one reservation, no printf (the
 * rows are many: 4,000 VNIs and 1,500 matrix rows on the diverse capture). */
#define JCOUNTS_MAX (sizeof(",\"frames\":,\"bytes\":") - 1 + 2 * 20)
_Static_assert(JCOUNTS_MAX <= GD_RESERVE_MAX, "json_counts: one reservation");

static void json_counts(struct gd_out *o, uint64_t frames, uint64_t bytes)
{
	char *p = out_reserve(o, JCOUNTS_MAX);

	p = lw_u64(LW_LIT(p, ",\"frames\":"), frames);
	out_commit(o, lw_u64(LW_LIT(p, ",\"bytes\":"), bytes));
}

/* ,"mirrors":[...]: each mirror's type, id under its own key ("vni",
 * "session"), counts; ,"mirrors_dropped":{...} when some found no room. */
static void json_mirrors(const struct tables *tb, struct gd_out *o)
{
	out_str(o, ",\"mirrors\":[");
	for (int i = 0; i < tb->nm; i++) {
		const struct vxgbp_mirror_info *mi = vxgbp_mirror_get(tb->m[i].kind);

		out_str(o, i ? ",{\"type\":" : "{\"type\":");
		out_json_str(o, mi ? mi->key : "?");
		if (mi && mi->id_name)
			out_printf(o, ",\"%s\":%u", mi->id_name, tb->m[i].id);
		json_counts(o, tb->m[i].frames, tb->m[i].bytes);
		out_putc(o, '}');
	}
	out_putc(o, ']');
	if (tb->s.dropped_mirrors)
		out_printf(o, ",\"mirrors_dropped\":{\"frames\":%llu,\"bytes\":%llu}",
			   (unsigned long long)tb->s.dropped_mirrors,
			   (unsigned long long)tb->s.dropped_mirror_bytes);
}

/* Text: frames through each mirror, after the VNIs (the fabric's). */
static void text_mirrors(const struct tables *tb, struct gd_out *o)
{
	char name[48];

	out_printf(o, "\nPer mirror (%llu frames, %llu bytes arrived through one):\n"
		   "  mirror                        frames         bytes\n",
		   (unsigned long long)tb->s.mirror_frames, (unsigned long long)tb->s.mirror_bytes);
	for (int i = 0; i < tb->nm; i++) {
		stats_mirror_name(name, sizeof(name), &tb->m[i]);
		out_printf(o, "  %-24s", name);
		text_counts(o, " ", tb->m[i].frames, tb->m[i].bytes);
		out_putc(o, '\n');
	}
	if (tb->s.dropped_mirrors) {
		out_printf(o, "  %-24s", "(not stored)");
		text_counts(o, " ", tb->s.dropped_mirrors, tb->s.dropped_mirror_bytes);
		out_putc(o, '\n');
	}
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
	for (int i = 0; i < tb->nv; i++) {
		char *p = out_reserve(o, 16 + 20); /* ,{"vni":N */

		p = LW_LIT(i ? lw_c(p, ',') : p, "{\"vni\":");
		out_commit(o, lw_u64(p, tb->v[i].key));
		json_counts(o, tb->v[i].frames, tb->v[i].bytes);
		out_putc(o, '}');
	}
	out_putc(o, ']');
	if (tb->s.mirror_frames)
		json_mirrors(tb, o);
	out_str(o, ",\"groups\":[");
	for (int i = 0; i < tb->ng; i++) {
		out_str(o, i ? ",{" : "{");
		group_json(o, "group", tb->g[i].key, groups);
		json_counts(o, tb->g[i].frames, tb->g[i].bytes);
		out_putc(o, '}');
	}
	out_str(o, "],\"matrix\":[");
	for (int i = 0; i < tb->nc; i++) {
		out_str(o, i ? ",{" : "{");
		group_json(o, "src", tb->c[i].src, groups);
		out_putc(o, ',');
		group_json(o, "dst", tb->c[i].dst, groups);
		json_counts(o, tb->c[i].frames, tb->c[i].bytes);
		if (policy) /* --policy: the pair's verdict */
			out_printf(o, ",\"policy\":\"%s\"",
				   group_verdict_name(vxgbp_policy_pair(policy, tb->c[i].src, tb->c[i].dst)));
		out_putc(o, '}');
	}
	out_putc(o, ']');
	if (tb->error) { /* the counts are of the frames read before it */
		out_str(o, ",\"error\":");
		out_json_str(o, tb->error);
	}
	out_putc(o, '}');
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
		char *p = out_reserve(o, 2 + 20); /* "  %8u %12llu %13llu" */

		out_commit(o, num_w(LW_LIT(p, "  "), tb->v[i].key, 8));
		text_counts(o, " ", tb->v[i].frames, tb->v[i].bytes);
		out_putc(o, '\n');
	}
	if (tb->s.mirror_frames)
		text_mirrors(tb, o);
	out_str(o, "\nPer group:\n  group                         frames         bytes\n");
	for (int i = 0; i < tb->ng; i++) {
		out_str(o, "  ");
		text_group(o, tb->g[i].key, groups);
		text_counts(o, " ", tb->g[i].frames, tb->g[i].bytes);
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
		text_counts(o, "  ", tb->c[i].frames, tb->c[i].bytes);
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
