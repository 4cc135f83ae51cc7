// SPDX-License-Identifier: BSD-2-Clause
/*
 * vxgbp-stats.c - statistics of the VXLAN-GBP Wireshark plugin, fed by the
 * "vxgbp" tap: one vxgbp_tap_info_t per frame (its outermost VXLAN header),
 * so a frame counts once however many VXLAN headers it carries.
 *
 * Every listener owns a libvxgbp tracker (VXGBP_TRACK_MATRIX) fed from the
 * tap; the counts per group and per VNI and the group-to-group matrix are
 * the tracker's.  A destination's group is the group that destination
 * endpoint (inner IP address, else ARP address, else MAC) itself last sent
 * with, among the frames the listener saw.
 *
 *   tshark -z vxgbp,groups[,<display filter>]
 *       text report: frames and bytes per group, per VNI, and the matrix.
 *   Statistics > VXLAN-GBP Groups (GUI), tshark -z vxgbp,tree
 *       the same frame counts as a stats tree.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/stat_tap_ui.h>
#include <epan/stats_tree.h>
#include <wsutil/report_message.h>

#include <vxgbp/vxgbp.h>

#include "vxgbp-plugin.h"

#define NODE_GROUPS "Packets by group"
#define NODE_VNIS "Packets by VNI"
#define NODE_PAIRS "Source group -> destination group"

/* One listener's tracker, fed in frame order. */
typedef struct {
	struct vxgbp_track *t;
	guint32 last_frame;   /* the last frame fed (the tracker wants them increasing) */
} feed_t;

static void feed_reset(feed_t *f)
{
	vxgbp_plugin_track_free(f->t);
	f->t = vxgbp_plugin_track_new(VXGBP_TRACK_MATRIX);
	f->last_frame = 0;
}

/* Feed one tapped frame.  FALSE when there is nothing to count.  A frame
 * number that does not increase means the frames are being read again
 * (a retap): start over. */
static gboolean feed(feed_t *f, packet_info *pinfo, const vxgbp_tap_info_t *ti)
{
	struct vxgbp_pkt p = { .size = sizeof(p) };

	if (!ti || !ti->pkt)
		return FALSE;
	if (!f->t || pinfo->num <= f->last_frame)
		feed_reset(f);
	if (!f->t)
		return FALSE;
	/* Bytes are the frame's, whatever the header was found in. */
	p = *ti->pkt;
	p.wirelen = ti->frame_len;
	(void)vxgbp_track_frame(f->t, &p, pinfo->num, NULL);
	f->last_frame = pinfo->num;
	return TRUE;
}

/* "0x0200 (web)", "no GBP (G flag clear)", "unknown". */
static void group_label(char *buf, size_t len, guint32 group)
{
	const char *name;

	if (group == VXGBP_GROUP_NONE) {
		g_snprintf(buf, (gulong)len, "no GBP (G flag clear)");
		return;
	}
	if (group > 0xffff) {
		g_snprintf(buf, (gulong)len, "unknown");
		return;
	}
	name = vxgbp_plugin_group_name((guint16)group);
	if (name)
		g_snprintf(buf, (gulong)len, "0x%04x (%s)", group, name);
	else
		g_snprintf(buf, (gulong)len, "0x%04x", group);
}

static void pair_label(char *buf, size_t len, guint32 src, guint32 dst)
{
	char s[64], d[64];

	group_label(s, sizeof(s), src);
	group_label(d, sizeof(d), dst);
	g_snprintf(buf, (gulong)len, "%s -> %s", s, d);
}

/* The tracker's tables, copied out (g_free them). */
static struct vxgbp_track_count *get_counts(const struct vxgbp_track *t, int vnis, int *n)
{
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	struct vxgbp_track_count *c;
	size_t room;

	vxgbp_track_summary(t, &s);
	room = (vnis ? s.vnis : s.groups) + 1;
	c = g_new0(struct vxgbp_track_count, room);
	*n = vnis ? vxgbp_track_vnis(t, c, room) : vxgbp_track_groups(t, c, room);
	return c;
}

static struct vxgbp_track_cell *get_matrix(const struct vxgbp_track *t, int *n)
{
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	struct vxgbp_track_cell *c;

	vxgbp_track_summary(t, &s);
	c = g_new0(struct vxgbp_track_cell, s.pairs + 1);
	*n = vxgbp_track_matrix(t, c, s.pairs + 1);
	return c;
}

/* ------------------------------------------------------------------------
 * Text report (tshark -z vxgbp,groups[,filter]).
 */
typedef struct {
	char *filter;
	feed_t feed;
} report_t;

static void report_reset(void *tapdata)
{
	feed_reset(&((report_t *)tapdata)->feed);
}

static tap_packet_status report_packet(void *tapdata, packet_info *pinfo,
				       epan_dissect_t *edt _U_, const void *data,
				       tap_flags_t flags _U_)
{
	report_t *rp = (report_t *)tapdata;

	return feed(&rp->feed, pinfo, (const vxgbp_tap_info_t *)data) ? TAP_PACKET_REDRAW
								       : TAP_PACKET_DONT_REDRAW;
}

static void print_row(const char *label, guint64 frames, guint64 bytes)
{
	printf("  %-40s %12" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT "\n", label, frames, bytes);
}

static void print_counts(const struct vxgbp_track *t, int vnis)
{
	char label[64];
	int n = 0, i;
	struct vxgbp_track_count *c = get_counts(t, vnis, &n);

	printf("\n%-42s %12s %14s\n", vnis ? "VNI" : "Group", "Packets", "Bytes");
	for (i = 0; i < n; i++) {
		if (vnis)
			g_snprintf(label, sizeof(label), "%u", c[i].key);
		else
			group_label(label, sizeof(label), c[i].key);
		print_row(label, c[i].frames, c[i].bytes);
	}
	g_free(c);
}

static void print_matrix(const struct vxgbp_track *t)
{
	char label[140];
	int n = 0, i;
	struct vxgbp_track_cell *c = get_matrix(t, &n);

	printf("\n%-42s %12s %14s\n", NODE_PAIRS, "Packets", "Bytes");
	for (i = 0; i < n; i++) {
		/* plain VXLAN has no source group: the matrix is about GBP */
		if (c[i].src == VXGBP_GROUP_NONE)
			continue;
		pair_label(label, sizeof(label), c[i].src, c[i].dst);
		print_row(label, c[i].frames, c[i].bytes);
	}
	g_free(c);
}

static void report_draw(void *tapdata)
{
	report_t *rp = (report_t *)tapdata;
	const char *rule = "================================================================================";
	struct vxgbp_track_summary s = { .size = sizeof(s) };

	if (!rp->feed.t)
		feed_reset(&rp->feed);
	vxgbp_track_summary(rp->feed.t, &s);
	printf("\n%s\nVXLAN-GBP groups\nFilter: %s\n", rule, rp->filter ? rp->filter : "<none>");
	printf("Total: %" G_GUINT64_FORMAT " packets, %" G_GUINT64_FORMAT " bytes\n", s.frames,
	       s.bytes);
	if (rp->feed.t) {
		print_counts(rp->feed.t, 0);
		print_counts(rp->feed.t, 1);
		print_matrix(rp->feed.t);
	}
	if (s.full)
		printf("(some endpoints, flows or pairs found no room in the tracker's memory budget: "
		       "not counted in the matrix)\n");
	printf("(destination group: learned from frames the destination endpoint sent)\n%s\n", rule);
}

static void report_finish(void *tapdata)
{
	report_t *rp = (report_t *)tapdata;

	vxgbp_plugin_track_free(rp->feed.t);
	g_free(rp->filter);
	g_free(rp);
}

#define REPORT_CLI "vxgbp,groups"

static void report_init(const char *opt_arg, void *userdata _U_)
{
	report_t *rp;
	GString *err;
	size_t n = strlen(REPORT_CLI);

	if (strncmp(opt_arg, REPORT_CLI, n) != 0 || (opt_arg[n] && opt_arg[n] != ',')) {
		report_failure("invalid \"-z %s\" argument; use -z " REPORT_CLI "[,<filter>]", opt_arg);
		return;
	}
	rp = g_new0(report_t, 1);
	if (opt_arg[n] == ',' && opt_arg[n + 1])
		rp->filter = g_strdup(opt_arg + n + 1);
	err = register_tap_listener("vxgbp", rp, rp->filter, 0, report_reset, report_packet,
				    report_draw, report_finish);
	if (err) {
		report_failure("couldn't register the " REPORT_CLI " tap: %s", err->str);
		g_string_free(err, TRUE);
		report_finish(rp);
	}
}

static tap_param report_params[] = {
	{ PARAM_FILTER, "filter", "Filter", NULL, TRUE }
};

static stat_tap_ui report_ui = {
	REGISTER_STAT_GROUP_GENERIC,
	"VXLAN-GBP groups",
	REPORT_CLI,
	report_init,
	G_N_ELEMENTS(report_params),
	report_params
};

/* ------------------------------------------------------------------------
 * Stats tree (GUI menu Statistics > VXLAN-GBP Groups; tshark -z vxgbp,tree).
 *
 * A stats tree carries no data of its caller's, so each one's state is
 * found by the tree's address (trees maps stats_tree * -> tree_state_t,
 * added in the init callback, removed in the cleanup callback).  The
 * group and VNI nodes count the frames as the tracker does; the matrix
 * nodes are set from the tracker's matrix: after every frame while it has
 * at most MATRIX_EVERY_FRAME cells, then whenever as many frames as it has
 * cells have passed since the last refresh (so a refresh costs O(1) a
 * frame).
 */
#define MATRIX_EVERY_FRAME 256

typedef struct {
	feed_t feed;
	int node_groups, node_vnis, node_pairs;
	GHashTable *pair_nodes;  /* labels of matrix nodes set so far */
	guint64 since_refresh;   /* frames since the matrix nodes were set */
} tree_state_t;

static GHashTable *trees;

static void tree_state_free(gpointer p)
{
	tree_state_t *ts = (tree_state_t *)p;

	vxgbp_plugin_track_free(ts->feed.t);
	g_hash_table_destroy(ts->pair_nodes);
	g_free(ts);
}

static void st_init(stats_tree *st)
{
	tree_state_t *ts = g_new0(tree_state_t, 1);

	ts->node_groups = stats_tree_create_node(st, NODE_GROUPS, 0, STAT_DT_INT, TRUE);
	ts->node_vnis = stats_tree_create_node(st, NODE_VNIS, 0, STAT_DT_INT, TRUE);
	ts->node_pairs = stats_tree_create_node(st, NODE_PAIRS, 0, STAT_DT_INT, TRUE);
	ts->pair_nodes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	if (!trees)
		trees = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, tree_state_free);
	g_hash_table_replace(trees, st, ts);
}

static void st_cleanup(stats_tree *st)
{
	if (trees)
		g_hash_table_remove(trees, st);
}

static void zero_node(gpointer key, gpointer value _U_, gpointer user)
{
	stats_tree *st = (stats_tree *)user;
	tree_state_t *ts = (tree_state_t *)g_hash_table_lookup(trees, st);

	set_stat_node(st, (const gchar *)key, ts->node_pairs, FALSE, 0);
}

/* Set the matrix nodes to the tracker's matrix (cells that moved, e.g.
 * from "unknown" to a learned group, go to 0). */
static void st_matrix(stats_tree *st, tree_state_t *ts)
{
	char label[140];
	guint64 total = 0;
	int n = 0, i;
	struct vxgbp_track_cell *c = get_matrix(ts->feed.t, &n);

	g_hash_table_foreach(ts->pair_nodes, zero_node, st);
	for (i = 0; i < n; i++) {
		if (c[i].src == VXGBP_GROUP_NONE || c[i].frames > G_MAXINT)
			continue;
		pair_label(label, sizeof(label), c[i].src, c[i].dst);
		set_stat_node(st, label, ts->node_pairs, FALSE, (gint)c[i].frames);
		g_hash_table_add(ts->pair_nodes, g_strdup(label));
		total += c[i].frames;
	}
	set_stat_node(st, NODE_PAIRS, 0, TRUE, (gint)MIN(total, (guint64)G_MAXINT));
	ts->since_refresh = 0;
	g_free(c);
}

static tap_packet_status st_packet(stats_tree *st, packet_info *pinfo, epan_dissect_t *edt _U_,
				   const void *data, tap_flags_t flags _U_)
{
	const vxgbp_tap_info_t *ti = (const vxgbp_tap_info_t *)data;
	tree_state_t *ts = trees ? (tree_state_t *)g_hash_table_lookup(trees, st) : NULL;
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	char label[64];

	if (!ts || !feed(&ts->feed, pinfo, ti))
		return TAP_PACKET_DONT_REDRAW;
	if (!(ti->pkt->have & VXGBP_HAVE_VXLAN))
		return TAP_PACKET_REDRAW;
	/* a VXLAN-GPE header has no group, whatever its first bit says */
	group_label(label, sizeof(label),
		    ti->pkt->vx_kind == VXGBP_VX_VXLAN && vxgbp_hdr_has_gbp(&ti->pkt->vx)
			    ? ti->pkt->vx.group : VXGBP_GROUP_NONE);
	tick_stat_node(st, NODE_GROUPS, 0, TRUE);
	tick_stat_node(st, label, ts->node_groups, FALSE);
	g_snprintf(label, sizeof(label), "%u", ti->pkt->vx.vni);
	tick_stat_node(st, NODE_VNIS, 0, TRUE);
	tick_stat_node(st, label, ts->node_vnis, FALSE);
	vxgbp_track_summary(ts->feed.t, &s);
	if (s.pairs <= MATRIX_EVERY_FRAME || ++ts->since_refresh >= s.pairs)
		st_matrix(st, ts);
	return TAP_PACKET_REDRAW;
}

void vxgbp_stats_register(void)
{
	register_stat_tap_ui(&report_ui, NULL);
	stats_tree_register_plugin("vxgbp", "vxgbp", "VXLAN-GBP Groups", 0, st_packet, st_init,
				   st_cleanup);
}
