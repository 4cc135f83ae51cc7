// SPDX-License-Identifier: BSD-2-Clause
/*
 * vxgbp-stats.c - statistics of the VXLAN-GBP Wireshark plugin, fed by the
 * "vxgbp" tap (one vxgbp_tap_info_t per VXLAN header dissected).
 *
 *   tshark -z vxgbp,groups[,<display filter>]
 *       text report: packets and bytes per group, per VNI, and the
 *       group-to-group matrix.  The destination's group is the group last
 *       seen in frames that the destination endpoint (inner IP address, else
 *       inner MAC) itself sent, over the whole capture.
 *   Statistics > VXLAN-GBP Groups (GUI), tshark -z vxgbp,tree
 *       the same counts of packets as a stats tree; there the destination's
 *       group is what was learned up to that frame.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/stat_tap_ui.h>
#include <epan/stats_tree.h>

#include "vxgbp-plugin.h"

#define NO_GBP (-1)           /* group key of frames without the G flag */
#define DST_UNKNOWN 0x10000u  /* destination group not learned */

typedef struct {
	guint64 pkts;
	guint64 bytes;
} counter_t;

typedef struct {
	guint16 sgroup;
	char *dst;            /* destination endpoint */
	counter_t c;
} flow_t;

typedef struct {
	char *filter;
	GTree *groups;        /* gint group (NO_GBP) -> counter_t */
	GTree *vnis;          /* guint vni -> counter_t */
	GHashTable *learned;  /* endpoint -> group + 1 (GUINT_TO_POINTER) */
	GHashTable *flows;    /* "group endpoint" -> flow_t */
	counter_t total;
} report_t;

static gint cmp_int(gconstpointer a, gconstpointer b, gpointer u _U_)
{
	gint x = GPOINTER_TO_INT(a), y = GPOINTER_TO_INT(b);

	return x < y ? -1 : x > y;
}

static gint cmp_u64p(gconstpointer a, gconstpointer b, gpointer u _U_)
{
	guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;

	return x < y ? -1 : x > y;
}

static void flow_free(gpointer p)
{
	flow_t *f = (flow_t *)p;

	g_free(f->dst);
	g_free(f);
}

static void report_clear(report_t *rp)
{
	if (rp->groups)
		g_tree_destroy(rp->groups);
	if (rp->vnis)
		g_tree_destroy(rp->vnis);
	if (rp->learned)
		g_hash_table_destroy(rp->learned);
	if (rp->flows)
		g_hash_table_destroy(rp->flows);
	rp->groups = g_tree_new_full(cmp_int, NULL, NULL, g_free);
	rp->vnis = g_tree_new_full(cmp_int, NULL, NULL, g_free);
	rp->learned = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	rp->flows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, flow_free);
	memset(&rp->total, 0, sizeof(rp->total));
}

static void count(GTree *t, gint key, guint32 bytes)
{
	counter_t *c = (counter_t *)g_tree_lookup(t, GINT_TO_POINTER(key));

	if (!c) {
		c = g_new0(counter_t, 1);
		g_tree_insert(t, GINT_TO_POINTER(key), c);
	}
	c->pkts++;
	c->bytes += bytes;
}

static void group_label(char *buf, size_t len, guint32 group)
{
	const char *name;

	if (group == DST_UNKNOWN) {
		g_snprintf(buf, (gulong)len, "unknown");
		return;
	}
	name = vxgbp_plugin_group_name((guint16)group);
	if (name)
		g_snprintf(buf, (gulong)len, "0x%04x (%s)", group, name);
	else
		g_snprintf(buf, (gulong)len, "0x%04x", group);
}

static void report_reset(void *tapdata)
{
	report_clear((report_t *)tapdata);
}

static tap_packet_status report_packet(void *tapdata, packet_info *pinfo _U_,
				       epan_dissect_t *edt _U_, const void *data,
				       tap_flags_t flags _U_)
{
	report_t *rp = (report_t *)tapdata;
	const vxgbp_tap_info_t *ti = (const vxgbp_tap_info_t *)data;

	if (!ti)
		return TAP_PACKET_DONT_REDRAW;
	rp->total.pkts++;
	rp->total.bytes += ti->bytes;
	count(rp->groups, ti->has_gbp ? (gint)ti->group : NO_GBP, ti->bytes);
	count(rp->vnis, (gint)ti->vni, ti->bytes);
	if (!ti->has_gbp)
		return TAP_PACKET_REDRAW;
	if (ti->src[0])
		g_hash_table_insert(rp->learned, g_strdup(ti->src),
				    GUINT_TO_POINTER((guint)ti->group + 1));
	{
		char *key = g_strdup_printf("%u %s", ti->group, ti->dst[0] ? ti->dst : "?");
		flow_t *f = (flow_t *)g_hash_table_lookup(rp->flows, key);

		if (!f) {
			f = g_new0(flow_t, 1);
			f->sgroup = ti->group;
			f->dst = g_strdup(ti->dst);
			g_hash_table_insert(rp->flows, key, f);
		} else {
			g_free(key);
		}
		f->c.pkts++;
		f->c.bytes += ti->bytes;
	}
	return TAP_PACKET_REDRAW;
}

typedef struct {
	report_t *rp;
	GTree *matrix;        /* guint64 (src << 17 | dst) -> counter_t */
} matrix_ctx_t;

static void matrix_add(gpointer key _U_, gpointer value, gpointer user)
{
	const flow_t *f = (const flow_t *)value;
	matrix_ctx_t *mc = (matrix_ctx_t *)user;
	guint learned = f->dst[0] ? GPOINTER_TO_UINT(g_hash_table_lookup(mc->rp->learned, f->dst)) : 0;
	guint32 dst = learned ? learned - 1 : DST_UNKNOWN;
	guint64 k = ((guint64)f->sgroup << 17) | dst;
	counter_t *c = (counter_t *)g_tree_lookup(mc->matrix, &k);

	if (!c) {
		guint64 *kp = g_new(guint64, 1);

		*kp = k;
		c = g_new0(counter_t, 1);
		g_tree_insert(mc->matrix, kp, c);
	}
	c->pkts += f->c.pkts;
	c->bytes += f->c.bytes;
}

static gboolean print_group(gpointer key, gpointer value, gpointer u _U_)
{
	const counter_t *c = (const counter_t *)value;
	gint g = GPOINTER_TO_INT(key);
	char label[64];

	if (g == NO_GBP)
		g_snprintf(label, sizeof(label), "no GBP (G flag clear)");
	else
		group_label(label, sizeof(label), (guint32)g);
	printf("  %-40s %12" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT "\n", label, c->pkts, c->bytes);
	return FALSE;
}

static gboolean print_vni(gpointer key, gpointer value, gpointer u _U_)
{
	const counter_t *c = (const counter_t *)value;
	char label[32];

	g_snprintf(label, sizeof(label), "%u", (guint)GPOINTER_TO_INT(key));
	printf("  %-40s %12" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT "\n", label, c->pkts, c->bytes);
	return FALSE;
}

static gboolean print_pair(gpointer key, gpointer value, gpointer u _U_)
{
	const counter_t *c = (const counter_t *)value;
	guint64 k = *(const guint64 *)key;
	char src[64], dst[64], label[140];

	group_label(src, sizeof(src), (guint32)(k >> 17));
	group_label(dst, sizeof(dst), (guint32)(k & 0x1ffff));
	g_snprintf(label, sizeof(label), "%s -> %s", src, dst);
	printf("  %-40s %12" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT "\n", label, c->pkts, c->bytes);
	return FALSE;
}

static void report_draw(void *tapdata)
{
	report_t *rp = (report_t *)tapdata;
	matrix_ctx_t mc = { rp, g_tree_new_full(cmp_u64p, NULL, g_free, g_free) };
	const char *rule = "================================================================================";

	g_hash_table_foreach(rp->flows, matrix_add, &mc);
	printf("\n%s\nVXLAN-GBP groups\nFilter: %s\n", rule, rp->filter ? rp->filter : "<none>");
	printf("Total: %" G_GUINT64_FORMAT " packets, %" G_GUINT64_FORMAT " bytes\n",
	       rp->total.pkts, rp->total.bytes);
	printf("\n%-42s %12s %14s\n", "Group", "Packets", "Bytes");
	g_tree_foreach(rp->groups, print_group, NULL);
	printf("\n%-42s %12s %14s\n", "VNI", "Packets", "Bytes");
	g_tree_foreach(rp->vnis, print_vni, NULL);
	printf("\n%-42s %12s %14s\n", "Source group -> destination group", "Packets", "Bytes");
	g_tree_foreach(mc.matrix, print_pair, NULL);
	printf("(destination group: learned from frames the destination endpoint sent)\n%s\n", rule);
	g_tree_destroy(mc.matrix);
}

static void report_finish(void *tapdata)
{
	report_t *rp = (report_t *)tapdata;

	g_tree_destroy(rp->groups);
	g_tree_destroy(rp->vnis);
	g_hash_table_destroy(rp->learned);
	g_hash_table_destroy(rp->flows);
	g_free(rp->filter);
	g_free(rp);
}

#define REPORT_CLI "vxgbp,groups"

static void report_init(const char *opt_arg, void *userdata _U_)
{
	report_t *rp = g_new0(report_t, 1);
	GString *err;
	size_t n = strlen(REPORT_CLI);

	if (strncmp(opt_arg, REPORT_CLI, n) == 0 && opt_arg[n] == ',' && opt_arg[n + 1])
		rp->filter = g_strdup(opt_arg + n + 1);
	else if (strcmp(opt_arg, REPORT_CLI) != 0) {
		fprintf(stderr, "tshark: invalid \"-z %s\" argument; use -z " REPORT_CLI "[,<filter>]\n",
			opt_arg);
		exit(1);
	}
	report_clear(rp);
	err = register_tap_listener("vxgbp", rp, rp->filter, 0, report_reset, report_packet,
				    report_draw, report_finish);
	if (err) {
		fprintf(stderr, "tshark: couldn't register " REPORT_CLI " tap: %s\n", err->str);
		g_string_free(err, TRUE);
		report_finish(rp);
		exit(1);
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
 */
static int st_node_groups = -1;
static int st_node_vnis = -1;
static int st_node_pairs = -1;
static GHashTable *st_learned; /* endpoint -> group + 1, up to the current frame */

static void st_init(stats_tree *st)
{
	st_node_groups = stats_tree_create_node(st, "Packets by group", 0, STAT_DT_INT, TRUE);
	st_node_vnis = stats_tree_create_node(st, "Packets by VNI", 0, STAT_DT_INT, TRUE);
	st_node_pairs = stats_tree_create_node(st, "Source group -> destination group", 0,
					       STAT_DT_INT, TRUE);
	if (st_learned)
		g_hash_table_destroy(st_learned);
	st_learned = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

static void st_cleanup(stats_tree *st _U_)
{
	if (st_learned)
		g_hash_table_destroy(st_learned);
	st_learned = NULL;
}

static tap_packet_status st_packet(stats_tree *st, packet_info *pinfo _U_, epan_dissect_t *edt _U_,
				   const void *data, tap_flags_t flags _U_)
{
	const vxgbp_tap_info_t *ti = (const vxgbp_tap_info_t *)data;
	char label[64], dst[64], pair[140];
	guint learned;

	if (!ti)
		return TAP_PACKET_DONT_REDRAW;
	if (ti->has_gbp)
		group_label(label, sizeof(label), ti->group);
	else
		g_snprintf(label, sizeof(label), "no GBP (G flag clear)");
	tick_stat_node(st, "Packets by group", 0, TRUE);
	tick_stat_node(st, label, st_node_groups, FALSE);
	g_snprintf(pair, sizeof(pair), "%u", ti->vni);
	tick_stat_node(st, "Packets by VNI", 0, TRUE);
	tick_stat_node(st, pair, st_node_vnis, FALSE);
	if (!ti->has_gbp)
		return TAP_PACKET_REDRAW;
	if (st_learned && ti->src[0])
		g_hash_table_insert(st_learned, g_strdup(ti->src),
				    GUINT_TO_POINTER((guint)ti->group + 1));
	learned = st_learned && ti->dst[0]
		? GPOINTER_TO_UINT(g_hash_table_lookup(st_learned, ti->dst)) : 0;
	group_label(dst, sizeof(dst), learned ? learned - 1 : DST_UNKNOWN);
	g_snprintf(pair, sizeof(pair), "%s -> %s", label, dst);
	tick_stat_node(st, "Source group -> destination group", 0, TRUE);
	tick_stat_node(st, pair, st_node_pairs, FALSE);
	return TAP_PACKET_REDRAW;
}

void vxgbp_stats_register(void)
{
	register_stat_tap_ui(&report_ui, NULL);
	stats_tree_register_plugin("vxgbp", "vxgbp", "VXLAN-GBP Groups", 0, st_packet, st_init,
				   st_cleanup);
}
