// SPDX-License-Identifier: BSD-2-Clause
/*
 * report/svg.c - the pictures of gbpdump --report, as inline SVG: the
 * group-to-group heat map, the group graph (a circular layout computed
 * here: the same capture gives the same picture), the findings over time.
 * Every number drawn is also in a <title> (the tooltip) or in the cell.
 */
#include <math.h>
#include <stdio.h>

#include "report_int.h"

#define PI 3.14159265358979323846

/* "4.8 s", "20 ms", "0": a duration in ns in the largest unit it reaches,
 * up to three decimals (exact: every bucket edge is a multiple of 1 us). */
static void fmt_dur(char *buf, size_t n, uint64_t ns)
{
	static const struct { uint64_t div; const char *unit; } u[] = {
		{ 1000000000u, "s" }, { 1000000u, "ms" }, { 1000u, "\xc2\xb5s" }, { 1u, "ns" },
	};
	unsigned i = 0;
	uint64_t frac;
	int digits = 3;

	while (i < 3 && ns < u[i].div)
		i++;
	if (!ns) {
		snprintf(buf, n, "0");
		return;
	}
	frac = (ns % u[i].div) * 1000 / u[i].div; /* three decimals, cut */
	while (digits && frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	if (digits)
		snprintf(buf, n, "%llu.%0*llu %s", (unsigned long long)(ns / u[i].div), digits,
			 (unsigned long long)frac, u[i].unit);
	else
		snprintf(buf, n, "%llu %s", (unsigned long long)(ns / u[i].div), u[i].unit);
}

/* ---- the heat map ---- */

#define MX_LABEL 200 /* row label column */
#define MX_HEAD 130  /* rotated column labels */
#define MX_ROW 34

/* The rows: every group but "unknown", which never sends. */
static int is_row(const struct rp_view *v, int i)
{
	return v->id[i] != VXGBP_GROUP_UNKNOWN;
}

/* The policy's verdict on a pair, by VXGBP_POLICY_DENY, _ALLOW, _SOME. */
static const char *const badge[3] = { "\xe2\x9c\x95", "\xe2\x9c\x93", "~" };

static void mx_cell(const struct rp_ctx *c, int s, int d, double x, double y, int cw)
{
	const struct rp_view *v = c->v;
	const struct vxgbp_groups *gr = c->src->groups;
	double t = report_log_scale(v->f[s][d], v->max_f);
	char col[8];

	int pv = report_policy(c->src->policy, v->id[s], v->id[d]);

	rp_color(col, t);
	afile_printf(c->a, "<g class=\"cell\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" "
		     "height=\"%d\" fill=\"%s\"", x, y, cw - 2, MX_ROW - 2,
		     v->f[s][d] ? col : "#fafafa");
	if (pv >= 0 && v->f[s][d])
		afile_printf(c->a, " class=\"pol p%d\"", pv);
	else if (!v->f[s][d])
		afile_printf(c->a, " stroke=\"#e4e4e4\"");
	afile_printf(c->a, "><title>");
	rp_group_label(c->a, v->id[s], gr);
	afile_printf(c->a, " \xe2\x86\x92 ");
	rp_group_label(c->a, v->id[d], gr);
	afile_printf(c->a, ": %llu frame%s, %llu bytes%s%s</title></rect>",
		     (unsigned long long)v->f[s][d], v->f[s][d] == 1 ? "" : "s",
		     (unsigned long long)v->b[s][d],
		     pv < 0 ? "" : "; policy: ", report_policy_word(pv));
	if (pv >= 0 && v->f[s][d])
		afile_printf(c->a, "<text x=\"%.1f\" y=\"%.1f\" class=\"badge p%d\">%s</text>",
			     x + cw - 6, y + 11, pv, badge[pv]);
	if (v->f[s][d])
		afile_printf(c->a, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\">%llu</text>",
			     x + (cw - 2) / 2.0, y + MX_ROW / 2.0 + 4, t > 0.55 ? "num dark" : "num",
			     (unsigned long long)v->f[s][d]);
	afile_printf(c->a, "</g>\n");
}

/* The legend: up to five swatches on the log scale, 1 to the largest
 * cell, each the colour of a cell with that count. */
static void mx_legend(const struct rp_ctx *c, double y)
{
	uint64_t max = c->v->max_f, prev = 0;
	int x = 130;

	afile_printf(c->a, "<text x=\"0\" y=\"%.1f\" class=\"lab\">frames (log scale)</text>\n",
		     y + 14);
	for (int k = 0; k < 5 && max; k++) {
		double e = expm1(k / 4.0 * log1p((double)max));
		uint64_t val = k == 4 ? max : e < 1.5 ? 1 : (uint64_t)llround(e);
		char col[8];

		if (val <= prev)
			continue;
		prev = val;
		rp_color(col, report_log_scale(val, max));
		afile_printf(c->a, "<rect x=\"%d\" y=\"%.1f\" width=\"40\" height=\"14\" "
			     "fill=\"%s\"/><text x=\"%d\" y=\"%.1f\" class=\"lab\">%llu</text>\n",
			     x, y + 3, col, x + 44, y + 14, (unsigned long long)val);
		x += 90;
	}
	for (int k = 0; k < 3 && c->src->policy; k++) {
		static const int order[3] = { VXGBP_POLICY_ALLOW, VXGBP_POLICY_SOME,
					      VXGBP_POLICY_DENY };
		int pv = order[k];

		afile_printf(c->a, "<rect x=\"%d\" y=\"%.1f\" width=\"40\" height=\"14\" "
			     "fill=\"#fafafa\" class=\"pol p%d\"/><text x=\"%d\" y=\"%.1f\" "
			     "class=\"badge p%d\">%s</text><text x=\"%d\" y=\"%.1f\" class=\"lab\">"
			     "policy: %s</text>\n", 130 + k * 190, y + 27, pv, 164 + k * 190, y + 38,
			     pv, badge[pv], 176 + k * 190, y + 38, report_policy_word(pv));
	}
}

void rp_svg_matrix(const struct rp_ctx *c)
{
	const struct rp_view *v = c->v;
	int cw = v->n <= 12 ? 64 : 44, rows = 0, w, h;
	double y;

	for (int i = 0; i < v->n; i++)
		rows += is_row(v, i);
	w = MX_LABEL + v->n * cw + 180; /* the last column's label leans right */
	h = MX_HEAD + rows * MX_ROW + (c->src->policy ? 66 : 40);
	afile_printf(c->a, "<section id=\"matrix\"><h2>Group to group</h2>\n");
	if (!v->pairs) {
		afile_printf(c->a, "<p class=\"none\">No VXLAN traffic between groups.</p></section>\n");
		return;
	}
	afile_printf(c->a, "<p>Rows: the source group (the G bit and ID of the frame); columns: "
		     "the destination group, learned from the frames that destination sent. "
		     "Cells: frames; colour on a log scale; the tooltip has the bytes.%s</p>\n"
		     "<svg class=\"matrix\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		     "role=\"img\" aria-label=\"group-to-group matrix\">\n"
		     "<text x=\"%d\" y=\"%d\" class=\"axis\">source \xe2\x86\x93 / destination "
		     "\xe2\x86\x92</text>\n", c->src->policy ? " Outline and badge: what "
		     "the policy (--policy) says of all traffic of the pair: allowed, partly (by "
		     "protocol or port) or denied." : "",
		     w, h, w, h, 4, MX_HEAD - 8);
	for (int d = 0; d < v->n; d++) {
		afile_printf(c->a, "<text class=\"col\" transform=\"translate(%.1f %d) "
			     "rotate(-40)\">", MX_LABEL + d * cw + cw / 2.0, MX_HEAD - 8);
		rp_group_label(c->a, v->id[d], c->src->groups);
		afile_printf(c->a, "</text>\n");
	}
	y = MX_HEAD;
	for (int s = 0; s < v->n; s++) {
		if (!is_row(v, s))
			continue;
		afile_printf(c->a, "<text class=\"row\" x=\"%d\" y=\"%.1f\">", MX_LABEL - 8,
			     y + MX_ROW / 2.0 + 4);
		rp_group_label(c->a, v->id[s], c->src->groups);
		afile_printf(c->a, "</text>\n");
		for (int d = 0; d < v->n; d++)
			mx_cell(c, s, d, MX_LABEL + d * cw, y, cw);
		y += MX_ROW;
	}
	mx_legend(c, y + 12);
	afile_printf(c->a, "</svg>\n</section>\n");
}

/* ---- the graph ---- */

#define GR_MARGIN 170  /* room for the labels left and right of the circle */
#define GR_MARGIN_V 70 /* above and below */

struct node {
	double x, y, r, ux, uy; /* centre, radius, outward unit vector */
};

/* Nodes on a circle in the view's order (by ID), the first at the top;
 * radius by frames sent and received, on a log scale. */
static double gr_radius(const struct rp_view *v)
{
	return v->n <= 2 ? 110 : v->n <= 8 ? 170 : v->n <= 16 ? 250 : 330;
}

static void gr_layout(const struct rp_view *v, struct node *nd)
{
	uint64_t act[RP_MAX_GROUPS] = { 0 }, max = 0;
	double R = gr_radius(v), cx = R + GR_MARGIN, cy = R + GR_MARGIN_V;

	for (int i = 0; i < v->n; i++)
		for (int j = 0; j < v->n; j++) {
			act[i] += v->f[i][j];
			if (j != i)
				act[j] += v->f[i][j];
		}
	for (int i = 0; i < v->n; i++)
		if (act[i] > max)
			max = act[i];
	for (int i = 0; i < v->n; i++) {
		double a = -PI / 2 + 2 * PI * i / v->n;

		nd[i].ux = cos(a);
		nd[i].uy = sin(a);
		nd[i].x = cx + R * nd[i].ux;
		nd[i].y = cy + R * nd[i].uy;
		nd[i].r = 12 + 12 * report_log_scale(act[i], max);
	}
}

/* " p0" (denied), " p1" (allowed), " p2" (partly): CSS classes; "" none. */
static const char *pol_class(int pv)
{
	return pv == 0 ? " p0" : pv == 1 ? " p1" : pv == 2 ? " p2" : "";
}

static void gr_title(const struct rp_ctx *c, int s, int d, int pv)
{
	afile_printf(c->a, "<title>");
	rp_group_label(c->a, c->v->id[s], c->src->groups);
	afile_printf(c->a, " \xe2\x86\x92 ");
	rp_group_label(c->a, c->v->id[d], c->src->groups);
	afile_printf(c->a, ": %llu frame%s, %llu bytes%s%s</title>",
		     (unsigned long long)c->v->f[s][d], c->v->f[s][d] == 1 ? "" : "s",
		     (unsigned long long)c->v->b[s][d],
		     pv < 0 ? "" : "; policy: ", report_policy_word(pv));
}

/* A group's traffic to itself: a loop outside its node. */
static void gr_loop(const struct rp_ctx *c, const struct node *a, int s, double w, int pv)
{
	afile_printf(c->a, "<g class=\"edge%s\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"13\" "
		     "stroke-width=\"%.2f\">", pol_class(pv), a->x + (a->r + 10) * a->ux, a->y + (a->r + 10) * a->uy, w);
	gr_title(c, s, s, pv);
	afile_printf(c->a, "</circle></g>\n");
}

/* One edge: a curve bent to its left (so a -> b and b -> a stay apart),
 * from the rim of s to the rim of d, coloured by the policy's verdict. */
static void gr_edge(const struct rp_ctx *c, const struct node *nd, int s, int d)
{
	double w = 1.5 + 6.5 * report_log_range(c->v->b[s][d], c->v->min_b, c->v->max_b);
	const struct node *a = &nd[s], *b = &nd[d];
	int pv = report_policy(c->src->policy, c->v->id[s], c->v->id[d]);
	double dx = b->x - a->x, dy = b->y - a->y;
	double cx = (a->x + b->x) / 2 + dy * 0.15, cy = (a->y + b->y) / 2 - dx * 0.15;
	double la = hypot(cx - a->x, cy - a->y), lb = hypot(cx - b->x, cy - b->y);

	if (s == d) {
		gr_loop(c, a, s, w, pv);
		return;
	}
	if (la < 1 || lb < 1)
		return;
	afile_printf(c->a, "<g class=\"edge%s\"><path d=\"M%.1f %.1fQ%.1f %.1f %.1f %.1f\" "
		     "stroke-width=\"%.2f\" marker-end=\"url(#arrow%d)\">", pol_class(pv), a->x + a->r * (cx - a->x) / la,
		     a->y + a->r * (cy - a->y) / la, cx, cy, b->x + (b->r + 3) * (cx - b->x) / lb,
		     b->y + (b->r + 3) * (cy - b->y) / lb, w, pv < 0 ? 3 : pv);
	gr_title(c, s, d, pv);
	afile_printf(c->a, "</path></g>\n");
}

static void gr_node(const struct rp_ctx *c, const struct node *n, int i)
{
	uint32_t g = c->v->id[i];
	const char *name = report_group_name(g, c->src->groups);
	const char *anchor = n->ux > 0.25 ? "start" : n->ux < -0.25 ? "end" : "middle";
	double lx = n->x + (n->r + 30) * n->ux, ly = n->y + (n->r + 30) * n->uy;
	char id[32];

	report_group_id(id, sizeof(id), g);
	afile_printf(c->a, "<g class=\"node%s\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\">"
		     "<title>", g > 0xffffu ? " special" : "", n->x, n->y, n->r);
	rp_group_label(c->a, g, c->src->groups);
	afile_printf(c->a, "</title></circle><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
		     lx, ly + (n->uy > 0.25 ? 10 : n->uy < -0.25 ? -6 : 4), anchor);
	if (g == REPORT_OTHER)
		afile_printf(c->a, "other groups (%u)", c->v->merged);
	else
		rp_esc(c->a, *name ? name : id);
	if (*name && *id)
		afile_printf(c->a, "<tspan x=\"%.1f\" dy=\"14\" class=\"gid\">%s</tspan>", lx, id);
	afile_printf(c->a, "</text></g>\n");
}

/* Arrowheads: #arrow0..2 by the policy's verdict, #arrow3 without one. */
static void gr_defs(const struct rp_ctx *c)
{
	afile_printf(c->a, "<defs>");
	for (int k = 0; k < 4; k++)
		afile_printf(c->a, "<marker id=\"arrow%d\" viewBox=\"0 0 10 10\" refX=\"9\" "
			     "refY=\"5\" markerWidth=\"10\" markerHeight=\"10\" "
			     "markerUnits=\"userSpaceOnUse\" orient=\"auto\"><path "
			     "d=\"M0 0L10 5L0 10z\" class=\"arrowhead%s\"/></marker>", k,
			     pol_class(k < 3 ? k : -1));
	afile_printf(c->a, "</defs>\n");
}

void rp_svg_graph(const struct rp_ctx *c)
{
	const struct rp_view *v = c->v;
	struct node nd[RP_MAX_GROUPS];
	int w = (int)(2 * (gr_radius(v) + GR_MARGIN)), h = (int)(2 * (gr_radius(v) + GR_MARGIN_V));

	afile_printf(c->a, "<section id=\"graph\"><h2>Groups and their traffic</h2>\n");
	if (!v->pairs) {
		afile_printf(c->a, "<p class=\"none\">No VXLAN traffic between groups.</p></section>\n");
		return;
	}
	gr_layout(v, nd);
	afile_printf(c->a, "<p>Nodes: groups (size by frames sent and received); arrows: source "
		     "to destination group, width by bytes on a log scale%s.%s</p>\n"
		     "<svg class=\"graph\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		     "role=\"img\" aria-label=\"group graph\">\n",
		     c->src->policy ? "; colour: the policy's verdict (green allowed, orange "
		     "partly, red denied)" : "", v->merged ? " More than 30 groups: the 29 "
		     "busiest are drawn, the others are one node." : "",
		     w, h, w, h);
	gr_defs(c);
	for (int s = 0; s < v->n; s++)
		for (int d = 0; d < v->n; d++)
			if (v->f[s][d])
				gr_edge(c, nd, s, d);
	for (int i = 0; i < v->n; i++)
		gr_node(c, &nd[i], i);
	afile_printf(c->a, "</svg>\n</section>\n");
}

/* ---- findings over time ---- */

#define TL_W 860
#define TL_H 240
#define TL_L 56  /* left margin (y labels) */
#define TL_B 36  /* bottom margin (x labels) */
#define TL_T 12

static const char *const lvl_class[3] = { "must", "should", "info" };
static const char *const lvl_name[3] = { "MUST", "SHOULD", "INFO" };

static void tl_bar(const struct rp_ctx *c, unsigned i, double bw, uint64_t max)
{
	const struct rp_bucket *b = &c->rp->b[i];
	double ph = TL_H - TL_B - TL_T, y = TL_H - TL_B;
	char t0[32], t1[32];

	if (!b->found[0] && !b->found[1] && !b->found[2])
		return;
	fmt_dur(t0, sizeof(t0), i * c->rp->width);
	fmt_dur(t1, sizeof(t1), (i + 1) * c->rp->width);
	afile_printf(c->a, "<g class=\"bucket\"><title>+%s to +%s: %llu frames; %llu MUST, "
		     "%llu SHOULD, %llu INFO</title>", t0, t1, (unsigned long long)b->frames,
		     (unsigned long long)b->found[0], (unsigned long long)b->found[1],
		     (unsigned long long)b->found[2]);
	for (int l = 0; l < 3; l++) {
		double h = ph * (double)b->found[l] / (double)max;

		if (!b->found[l])
			continue;
		y -= h;
		afile_printf(c->a, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			     "height=\"%.1f\"/>", lvl_class[l], TL_L + i * bw, y,
			     bw > 3 ? bw - 1 : bw, h);
	}
	afile_printf(c->a, "</g>\n");
}

static void tl_axes(const struct rp_ctx *c, unsigned nb, uint64_t max)
{
	double pw = TL_W - TL_L - 10, base = TL_H - TL_B;
	char t[32];

	afile_printf(c->a, "<line class=\"ax\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		     "<line class=\"ax\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.1f\"/>\n",
		     TL_L, base, TL_L + pw, base, TL_L, TL_T, TL_L, base);
	afile_printf(c->a, "<text class=\"lab\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%llu</text>"
		     "<text class=\"lab\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">0</text>\n",
		     TL_L - 6, TL_T + 8, (unsigned long long)max, TL_L - 6, base);
	for (unsigned k = 0; k <= 4; k++) {
		unsigned i = nb * k / 4;

		fmt_dur(t, sizeof(t), i * c->rp->width);
		afile_printf(c->a, "<text class=\"lab\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">"
			     "+%s</text>\n", TL_L + pw * i / nb, base + 16,
			     k == 0 ? "start" : k == 4 ? "end" : "middle", t);
	}
}

void rp_svg_timeline(const struct rp_ctx *c)
{
	const struct gd_report *rp = c->rp;
	unsigned nb = rp->frames ? (unsigned)(rp->last / rp->width) + 1 : 0;
	uint64_t max = 0;
	char w[32];

	for (unsigned i = 0; i < nb; i++)
		if (rp->b[i].found[0] + rp->b[i].found[1] + rp->b[i].found[2] > max)
			max = rp->b[i].found[0] + rp->b[i].found[1] + rp->b[i].found[2];
	if (!max) {
		afile_printf(c->a, "<p class=\"none\">No findings.</p>\n");
		return;
	}
	fmt_dur(w, sizeof(w), rp->width);
	afile_printf(c->a, "<p>Findings per %s after the first frame, stacked by level "
		     "(%u buckets).</p>\n<svg class=\"timeline\" viewBox=\"0 0 %d %d\" "
		     "width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"findings over time\">\n",
		     w, nb, TL_W, TL_H, TL_W, TL_H);
	tl_axes(c, nb, max);
	for (unsigned i = 0; i < nb; i++)
		tl_bar(c, i, (double)(TL_W - TL_L - 10) / nb, max);
	for (int l = 0; l < 3; l++)
		afile_printf(c->a, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"12\" height=\"12\"/>"
			     "<text class=\"lab\" x=\"%d\" y=\"%d\">%s</text>\n", lvl_class[l],
			     TL_W - 250 + l * 80, TL_T, TL_W - 234 + l * 80, TL_T + 10, lvl_name[l]);
	afile_printf(c->a, "</svg>\n");
}
