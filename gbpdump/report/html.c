// SPDX-License-Identifier: BSD-2-Clause
/*
 * report/html.c - the text parts of gbpdump --report: the page head (inline
 * CSS, a Content-Security-Policy that lets nothing be fetched), the header
 * with the capture and the options, the per-VNI and per-group tables, the
 * findings per rule from the --check engine (check_rule_next()), and the
 * Linux verdict summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

static const char css[] =
"body{font:14px/1.45 'DejaVu Sans',Verdana,sans-serif;color:#1d2733;background:#fff;"
"margin:0 auto;max-width:1200px;padding:12px 24px}\n"
"h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:28px 0 6px;"
"border-bottom:1px solid #d5dde6;padding-bottom:3px}h3{font-size:15px;margin:16px 0 4px}\n"
"table{border-collapse:collapse;margin:6px 0}th,td{padding:3px 10px;text-align:left;"
"vertical-align:top}thead th{border-bottom:1px solid #9aa7b4;font-weight:600}\n"
"tbody tr:nth-child(even){background:#f4f7fa}td.n,th.n{text-align:right;"
"font-variant-numeric:tabular-nums}\n"
"table.meta th{color:#5a6776;font-weight:normal;padding-left:0}\n"
"code,.mono{font-family:'DejaVu Sans Mono',monospace;font-size:13px}td.mono{white-space:nowrap}\n"
"nav a{margin-right:14px}p.none{color:#5a6776;font-style:italic}\n"
".warn{color:#9a3412}.bar{display:inline-block;height:9px;background:#6baed6;"
"margin-right:6px}\n"
".lvl{font-weight:600}.lvl.must{color:#b91c1c}.lvl.should{color:#c2410c}"
".lvl.info{color:#1d4ed8}\n"
"svg{max-width:100%;height:auto;font-family:'DejaVu Sans',Verdana,sans-serif}\n"
"svg text{font-size:12px;fill:#1d2733}svg text.num{text-anchor:middle;font-size:12px}\n"
"svg text.num.dark{fill:#fff}svg text.row{text-anchor:end}svg text.axis{fill:#5a6776}\n"
"svg text.lab{font-size:11px;fill:#5a6776}svg .gid{font-size:10px;fill:#5a6776}\n"
"svg .edge path,svg .edge circle{stroke:#4a6fa5;stroke-opacity:.6;fill:none}\n"
"svg .arrowhead{fill:#4a6fa5}svg .node circle{fill:#fdf6e3;stroke:#8a6d1d;"
"stroke-width:1.5}\n"
"svg .node.special circle{fill:#eceff3;stroke:#6b7785;stroke-dasharray:3 2}\n"
"svg rect.must{fill:#c0392b}svg rect.should{fill:#e67e22}svg rect.info{fill:#2e86c1}\n"
"svg line.ax{stroke:#9aa7b4}\n"
"svg .edge.p1 path,svg .edge.p1 circle{stroke:#15803d}svg .arrowhead.p1{fill:#15803d}\n"
"svg .edge.p0 path,svg .edge.p0 circle{stroke:#b91c1c}svg .arrowhead.p0{fill:#b91c1c}\n"
"svg .edge.p2 path,svg .edge.p2 circle{stroke:#d97706;stroke-dasharray:6 3}"
"svg .arrowhead.p2{fill:#d97706}\n"
"svg rect.pol{stroke-width:2.5}svg rect.p1{stroke:#15803d}svg rect.p0{stroke:#b91c1c}"
"svg rect.p2{stroke:#d97706;stroke-dasharray:5 3}\n"
"svg text.badge{font-size:11px;font-weight:700;text-anchor:end}svg text.p1{fill:#15803d}"
"svg text.p0{fill:#b91c1c}svg text.p2{fill:#d97706}\n";

/* "12.5 %": v of tot, one decimal, rounded; integer arithmetic. */
static void share(char *buf, size_t n, uint64_t v, uint64_t tot)
{
	uint64_t pm = tot ? (v * 1000 + tot / 2) / tot : 0;

	snprintf(buf, n, "%llu.%llu %%", (unsigned long long)(pm / 10),
		 (unsigned long long)(pm % 10));
}

/* A share cell with a bar as long as the share. */
static void share_td(struct afile *a, uint64_t v, uint64_t tot)
{
	char s[24];

	share(s, sizeof(s), v, tot);
	afile_printf(a, "<td class=\"n\"><span class=\"bar\" style=\"width:%llupx\"></span>%s"
		     "</td>", (unsigned long long)(tot ? v * 80 / tot : 0), s);
}

static void head_span(const struct rp_ctx *c)
{
	const struct gd_report *rp = c->rp;
	char t0[64], t1[64];
	int64_t ds;
	uint32_t dn;

	if (!rp->have_time) {
		afile_printf(c->a, "<tr><th>time span</th><td>no frames</td></tr>\n");
		return;
	}
	if (__builtin_sub_overflow(rp->max_sec, rp->min_sec, &ds))
		ds = INT64_MAX; /* times no capture has; said as they are */
	if (rp->max_nsec < rp->min_nsec && ds > 0) {
		ds--;
		dn = 1000000000u + rp->max_nsec - rp->min_nsec;
	} else {
		dn = rp->max_nsec - rp->min_nsec;
	}
	rp_time(t0, sizeof(t0), rp->min_sec, rp->min_nsec);
	rp_time(t1, sizeof(t1), rp->max_sec, rp->max_nsec);
	afile_printf(c->a, "<tr><th>time span</th><td>%s to %s UTC (%lld.%06u s)%s</td></tr>\n",
		     t0, t1, (long long)ds, dn / 1000,
		     rp->early ? " <span class=\"warn\">(frames out of time order)</span>" : "");
}

static void head_meta(const struct rp_ctx *c)
{
	const struct vxgbp_track_summary *s = &c->v->tb.s;
	struct check_totals t;

	check_totals(c->src->chk, &t);
	afile_printf(c->a, "<table class=\"meta\">\n<tr><th>capture</th><td class=\"mono\">");
	rp_esc(c->a, c->src->capture);
	afile_printf(c->a, "</td></tr>\n<tr><th>frames</th><td>%llu (%llu bytes): %llu VXLAN, "
		     "%llu with G, %llu other</td></tr>\n", (unsigned long long)s->frames,
		     (unsigned long long)s->bytes, (unsigned long long)s->vxlan,
		     (unsigned long long)s->gbp, (unsigned long long)s->other);
	head_span(c);
	afile_printf(c->a, "<tr><th>made by</th><td>gbpdump (vxgbp) %s</td></tr>\n"
		     "<tr><th>options</th><td class=\"mono\">", VXGBP_VERSION);
	rp_esc(c->a, c->src->options);
	afile_printf(c->a, "</td></tr>\n<tr><th>findings</th><td>profile %s; checksums %s"
		     "</td></tr>\n", t.profile, t.checksums ? "verified" : "not verified");
	if (c->src->read_error) {
		afile_printf(c->a, "<tr><th>warning</th><td class=\"warn\">");
		rp_esc(c->a, c->src->read_error);
		afile_printf(c->a, "; this report has the frames before it</td></tr>\n");
	}
	if (s->full & ~VXGBP_TRACK_FULL_MIRRORS) /* the mirrors' table says it itself */
		afile_printf(c->a, "<tr><th>warning</th><td class=\"warn\">%s: tables full: "
			     "%llu frames not in the matrix, %llu not counted per VNI, %llu "
			     "endpoints and %llu flows not tracked; this report is incomplete"
			     "</td></tr>\n", c->src->limit, (unsigned long long)s->dropped_pairs,
			     (unsigned long long)s->dropped_vnis,
			     (unsigned long long)s->dropped_endpoints,
			     (unsigned long long)s->dropped_flows);
	afile_printf(c->a, "</table>\n");
}

void rp_html_head(const struct rp_ctx *c)
{
	afile_printf(c->a, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		     "style-src 'unsafe-inline'\">\n<meta name=\"viewport\" "
		     "content=\"width=device-width, initial-scale=1\">\n"
		     "<meta name=\"generator\" content=\"gbpdump (vxgbp) %s\">\n"
		     "<title>gbpdump report: ", VXGBP_VERSION);
	rp_esc(c->a, c->src->capture);
	afile_printf(c->a, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n"
		     "<h1>gbpdump report</h1>\n", css);
	head_meta(c);
	afile_printf(c->a, "<nav><a href=\"#matrix\">group to group</a><a href=\"#graph\">graph"
		     "</a><a href=\"#tables\">VNIs and groups</a><a href=\"#findings\">findings"
		     "</a><a href=\"#linux\">Linux verdicts</a></nav>\n</header>\n<main>\n");
}

/* ---- per VNI, per group ---- */

/* Is row a ahead of row b: more frames, the lower key on a tie? */
static int busier(const struct vxgbp_track_count *a, const struct vxgbp_track_count *b)
{
	return a->frames > b->frames || (a->frames == b->frames && a->key < b->key);
}

static void heap_swap(int *h, int i, int j)
{
	int x = h[i];

	h[i] = h[j];
	h[j] = x;
}

static void heap_down(const struct vxgbp_track_count *t, int *h, int n, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;

		if (l < n && busier(&t[h[m]], &t[h[l]]))
			m = l;
		if (r < n && busier(&t[h[m]], &t[h[r]]))
			m = r;
		if (m == i)
			return;
		heap_swap(h, i, m);
		i = m;
	}
}

static int int_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The rows a table shows: all n, or the RP_MAX_ROWS - 1 busiest (a heap
 * whose root is the least busy kept), back in the table's order.  Returns
 * how many are in keep[]. */
static int table_pick(const struct vxgbp_track_count *t, int n, int keep[RP_MAX_ROWS])
{
	int k = 0;

	if (n <= RP_MAX_ROWS) {
		for (; k < n; k++)
			keep[k] = k;
		return k;
	}
	for (int i = 0; i < n; i++) {
		if (k < RP_MAX_ROWS - 1) {
			keep[k++] = i;
			for (int j = k - 1; j > 0 && busier(&t[keep[(j - 1) / 2]], &t[keep[j]]);
			     j = (j - 1) / 2)
				heap_swap(keep, j, (j - 1) / 2);
		} else if (busier(&t[i], &t[keep[0]])) {
			keep[0] = i;
			heap_down(t, keep, k, 0);
		}
	}
	qsort(keep, (size_t)k, sizeof(keep[0]), int_cmp);
	return k;
}

/* A row's numbers: frames, share, bytes, share. */
static void count_tds(struct afile *a, uint64_t f, uint64_t b, uint64_t tf, uint64_t tb)
{
	afile_printf(a, "<td class=\"n\">%llu</td>", (unsigned long long)f);
	share_td(a, f, tf);
	afile_printf(a, "<td class=\"n\">%llu</td>", (unsigned long long)b);
	share_td(a, b, tb);
	afile_printf(a, "</tr>\n");
}

/* A table of t's n rows (groups, or VNIs), or of the busiest and one row
 * for the rest. */
static void count_table(const struct rp_ctx *c, const struct vxgbp_track_count *t, int n,
			int is_g)
{
	const struct stats_tables *tb = &c->v->tb;
	const char *what = is_g ? "groups" : "VNIs";
	int keep[RP_MAX_ROWS], k = table_pick(t, n, keep);
	uint64_t of = 0, ob = 0;

	if (k < n)
		afile_printf(c->a, "<p>%d %s: the %d with the most frames are listed, the other "
			     "%d in the last row.</p>\n", n, what, k, n - k);
	afile_printf(c->a, "<table class=\"%s\"><thead><tr>%s<th class=\"n\">frames</th>"
		     "<th class=\"n\">share</th><th class=\"n\">bytes</th><th class=\"n\">share"
		     "</th></tr></thead><tbody>\n", is_g ? "groups" : "vni",
		     is_g ? "<th>group</th><th>ID</th>" : "<th class=\"n\">VNI</th>");
	for (int i = 0, j = 0; i < n; i++) {
		char id[32];

		if (j == k || keep[j] != i) {
			of += t[i].frames;
			ob += t[i].bytes;
			continue;
		}
		j++;
		if (!is_g) {
			afile_printf(c->a, "<tr><td class=\"n\">%u</td>", t[i].key);
		} else {
			report_group_id(id, sizeof(id), t[i].key);
			afile_printf(c->a, "<tr><td>");
			rp_esc(c->a, report_group_name(t[i].key, c->src->groups));
			afile_printf(c->a, "</td><td class=\"mono\">%s</td>", id);
		}
		count_tds(c->a, t[i].frames, t[i].bytes, tb->s.frames, tb->s.bytes);
	}
	if (k < n) {
		afile_printf(c->a, "<tr><td%s>other (%d %s)</td>", is_g ? " colspan=\"2\"" : "",
			     n - k, what);
		count_tds(c->a, of, ob, tb->s.frames, tb->s.bytes);
	}
	afile_printf(c->a, "</tbody></table>\n");
}

/* The mirrors frames arrived through (only when some did): every one,
 * a capture has a few sessions. */
static void mirror_table(const struct rp_ctx *c)
{
	const struct stats_tables *tb = &c->v->tb;
	char name[48];

	afile_printf(c->a, "<h3>Per mirror (the session a frame arrived through)</h3>\n"
		     "<p>%llu frames (%llu bytes) arrived through a mirror or an underlay: "
		     "counted above by the fabric's header, here by the outermost session "
		     "around it.</p>\n<table class=\"mirrors\"><thead><tr><th>mirror</th>"
		     "<th class=\"n\">frames</th><th class=\"n\">share</th><th class=\"n\">bytes"
		     "</th><th class=\"n\">share</th></tr></thead><tbody>\n",
		     (unsigned long long)tb->s.mirror_frames, (unsigned long long)tb->s.mirror_bytes);
	for (int i = 0; i < tb->nm; i++) {
		stats_mirror_name(name, sizeof(name), &tb->m[i]);
		afile_printf(c->a, "<tr><td class=\"mono\">");
		rp_esc(c->a, name);
		afile_printf(c->a, "</td>");
		count_tds(c->a, tb->m[i].frames, tb->m[i].bytes, tb->s.frames, tb->s.bytes);
	}
	if (tb->s.dropped_mirrors) {
		afile_printf(c->a, "<tr><td>not stored (mirror table full)</td>");
		count_tds(c->a, tb->s.dropped_mirrors, tb->s.dropped_mirror_bytes, tb->s.frames,
			  tb->s.bytes);
	}
	afile_printf(c->a, "</tbody></table>\n");
}

void rp_html_tables(const struct rp_ctx *c)
{
	const struct stats_tables *tb = &c->v->tb;

	afile_printf(c->a, "<section id=\"tables\"><h2>VNIs and groups</h2>\n<h3>Per VNI</h3>\n");
	if (!tb->nv)
		afile_printf(c->a, "<p class=\"none\">No VXLAN frames.</p>\n");
	else
		count_table(c, tb->v, tb->nv, 0);
	if (tb->s.mirror_frames)
		mirror_table(c);
	afile_printf(c->a, "<h3>Per group (the frames each group sent)</h3>\n");
	if (!tb->ng)
		afile_printf(c->a, "<p class=\"none\">No VXLAN frames.</p>\n");
	else
		count_table(c, tb->g, tb->ng, 1);
	afile_printf(c->a, "<p>Shares are of all %llu frames (%llu bytes) read.</p>\n</section>\n",
		     (unsigned long long)tb->s.frames, (unsigned long long)tb->s.bytes);
}

/* ---- findings ---- */

static const char *const lvl_name[3] = { "MUST", "SHOULD", "INFO" };
static const char *const lvl_class[3] = { "must", "should", "info" };

/* Every rule's results, in rule order; NULL when memory ran out. */
static struct check_rule *rules_get(const struct gd_check *chk, unsigned *n)
{
	struct check_rule *cr = calloc(VXGBP_R__COUNT, sizeof(*cr));
	unsigned it = 0;

	*n = 0;
	while (cr && *n < VXGBP_R__COUNT && check_rule_next(chk, &it, &cr[*n]))
		(*n)++;
	return cr;
}

static void rules_table(const struct rp_ctx *c, const struct check_rule *cr, unsigned n)
{
	afile_printf(c->a, "<h3>Per rule</h3>\n<table class=\"rules\"><thead><tr><th>rule</th>"
		     "<th>level</th><th class=\"n\">count</th><th>source</th><th>what</th></tr>"
		     "</thead><tbody>\n");
	for (int l = 0; l < 3; l++)
		for (unsigned i = 0; i < n; i++) {
			if (!cr[i].count[l])
				continue;
			afile_printf(c->a, "<tr><td class=\"mono\">");
			rp_esc(c->a, cr[i].info->id);
			afile_printf(c->a, "</td><td class=\"lvl %s\">%s</td><td class=\"n\">%llu</td>"
				     "<td>", lvl_class[l], lvl_name[l],
				     (unsigned long long)cr[i].count[l]);
			rp_esc(c->a, cr[i].info->source);
			afile_printf(c->a, "</td><td>");
			rp_esc(c->a, cr[i].info->text);
			afile_printf(c->a, "</td></tr>\n");
		}
	afile_printf(c->a, "</tbody></table>\n");
}

static void first_table(const struct rp_ctx *c, const struct check_rule *cr, unsigned n)
{
	afile_printf(c->a, "<h3>First occurrences</h3>\n<table class=\"first\"><thead><tr>"
		     "<th>rule</th><th>level</th><th class=\"n\">frame</th><th>time (UTC)</th>"
		     "<th class=\"n\">offset</th><th>what</th></tr></thead><tbody>\n");
	for (int l = 0; l < 3; l++)
		for (unsigned i = 0; i < n; i++)
			for (unsigned k = 0; k < cr[i].n_first[l] && k < CHECK_FIRST; k++) {
				const struct check_occ *o = &cr[i].first[l][k];
				char t[64];

				if (o->sec || o->nsec) /* 0: judged at the end (policy.*) */
					rp_time(t, sizeof(t), o->sec, o->nsec);
				else
					t[0] = '\0';
				afile_printf(c->a, "<tr><td class=\"mono\">");
				rp_esc(c->a, cr[i].info->id);
				afile_printf(c->a, "</td><td class=\"lvl %s\">%s</td><td class=\"n\">%llu"
					     "</td><td class=\"mono\">%s</td><td class=\"n\">",
					     lvl_class[l], lvl_name[l], (unsigned long long)o->frame, t);
				if (o->off >= 0)
					afile_printf(c->a, "%d", o->off);
				afile_printf(c->a, "</td><td>");
				rp_esc(c->a, o->what ? o->what : "");
				afile_printf(c->a, "</td></tr>\n");
			}
	afile_printf(c->a, "</tbody></table>\n<p>Offset: the byte in the frame of what is "
		     "judged (the VXLAN header, the layer, the error). Findings judged per flow "
		     "at the end (policy.*) name the flow's first frame, without a time.</p>\n");
}

void rp_html_findings(const struct rp_ctx *c)
{
	struct check_totals t;
	struct check_rule *cr;
	unsigned n;

	check_totals(c->src->chk, &t);
	afile_printf(c->a, "<section id=\"findings\"><h2>Findings</h2>\n<p>The rules of "
		     "<code>gbpdump --check</code>, profile %s: %llu MUST, %llu SHOULD, %llu INFO "
		     "findings; %llu frame%s could not be judged.</p>\n", t.profile,
		     (unsigned long long)t.count[0], (unsigned long long)t.count[1],
		     (unsigned long long)t.count[2], (unsigned long long)t.unjudged,
		     t.unjudged == 1 ? "" : "s");
	if (t.unjudged_mac)
		afile_printf(c->a, "<p>%llu frame%s had no inner Ethernet header (VXLAN-GPE carrying "
			     "IP): gbp.group-conflict by source MAC was not judged on %s; they are "
			     "tracked by inner IP address.</p>\n", (unsigned long long)t.unjudged_mac,
			     t.unjudged_mac == 1 ? "" : "s", t.unjudged_mac == 1 ? "it" : "them");
	rp_svg_timeline(c);
	if (t.count[0] + t.count[1] + t.count[2] > c->rp->found[0] + c->rp->found[1] +
	    c->rp->found[2])
		afile_printf(c->a, "<p>%llu findings were judged at the end of the capture, per "
			     "flow (policy.*): they are in the tables below, not in the chart.</p>\n",
			     (unsigned long long)(t.count[0] + t.count[1] + t.count[2] -
						  c->rp->found[0] - c->rp->found[1] -
						  c->rp->found[2]));
	if (!t.count[0] && !t.count[1] && !t.count[2]) {
		afile_printf(c->a, "</section>\n");
		return;
	}
	if (!(cr = rules_get(c->src->chk, &n))) {
		afile_printf(c->a, "<p class=\"warn\">Out of memory for the rule table.</p>"
			     "</section>\n");
		return;
	}
	rules_table(c, cr, n);
	first_table(c, cr, n);
	free(cr);
	afile_printf(c->a, "</section>\n");
}

/* ---- what Linux does ---- */

static int mark_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void linux_marks(const struct rp_ctx *c, const struct rp_marks *m, const char *dev)
{
	uint32_t list[RP_MARKS_MAX];
	unsigned n = 0;

	for (unsigned i = 0; i < RP_MARK_SLOTS && n < RP_MARKS_MAX; i++)
		if (m->n[i])
			list[n++] = m->mark[i];
	if (!n && !m->unlisted)
		return;
	qsort(list, n, sizeof(list[0]), mark_cmp);
	afile_printf(c->a, "<h3>Marks a device %s delivers with</h3>\n<table class=\"marks\">"
		     "<thead><tr><th>skb-&gt;mark</th><th>group</th><th>D</th><th>A</th>"
		     "<th class=\"n\">frames</th></tr></thead><tbody>\n", dev);
	for (unsigned i = 0; i < n; i++) {
		unsigned h = (unsigned)((list[i] * 2654435761u) >> 23) % RP_MARK_SLOTS;

		while (!m->n[h] || m->mark[h] != list[i])
			h = (h + 1) % RP_MARK_SLOTS;
		afile_printf(c->a, "<tr><td class=\"mono\">0x%08x</td><td>", list[i]);
		rp_group_label(c->a, list[i] & VXGBP_MARK_ID_MASK, c->src->groups);
		afile_printf(c->a, "</td><td>%s</td><td>%s</td><td class=\"n\">%llu</td></tr>\n",
			     list[i] & VXGBP_MARK_D ? "yes" : "", list[i] & VXGBP_MARK_A ? "yes" : "",
			     (unsigned long long)m->n[h]);
	}
	if (m->unlisted)
		afile_printf(c->a, "<tr><td colspan=\"4\">more than %d marks: the others</td>"
			     "<td class=\"n\">%llu</td></tr>\n", RP_MARKS_MAX,
			     (unsigned long long)m->unlisted);
	afile_printf(c->a, "</tbody></table>\n");
}

static void linux_row(const struct rp_ctx *c, const struct rp_dev *d, const char *dev)
{
	uint64_t dropped = 0;

	for (unsigned i = 1; i < RP_DROPS; i++)
		dropped += d->drop[i];
	afile_printf(c->a, "<tr><th>%s</th><td class=\"n\">%llu</td><td class=\"n\">%llu</td>"
		     "<td class=\"n\">%llu</td><td class=\"n\">%llu</td>", dev,
		     (unsigned long long)d->accept, (unsigned long long)(d->accept - d->unchanged),
		     (unsigned long long)d->unchanged, (unsigned long long)dropped);
	for (unsigned i = 1; i <= VXGBP_DROP_RSVD_VNI; i++)
		afile_printf(c->a, "<td class=\"n\">%llu</td>", (unsigned long long)d->drop[i]);
	afile_printf(c->a, "</tr>\n");
}

void rp_html_linux(const struct rp_ctx *c)
{
	const struct gd_report *rp = c->rp;

	afile_printf(c->a, "<section id=\"linux\"><h2>What a Linux 6.12 VTEP would do</h2>\n"
		     "<p>%llu frames whose first header is VXLAN(-GBP), as <code>vxlan_rcv()</code> "
		     "of Linux 6.12 takes them on a device made with and without <code>gbp</code> "
		     "(libvxgbp's model, <code>vxgbp_verdict_linux()</code>); %llu VXLAN-GPE "
		     "frames and %llu frames without VXLAN are not counted here.</p>\n",
		     (unsigned long long)rp->vxlan, (unsigned long long)rp->gpe,
		     (unsigned long long)(rp->frames - rp->vxlan - rp->gpe));
	afile_printf(c->a, "<table class=\"verdicts\"><thead><tr><th>device</th>"
		     "<th class=\"n\">delivered</th><th class=\"n\">with a mark</th>"
		     "<th class=\"n\">mark unchanged</th><th class=\"n\">dropped</th>");
	for (unsigned i = 1; i <= VXGBP_DROP_RSVD_VNI; i++)
		afile_printf(c->a, "<th class=\"n\">%s</th>", vxgbp_drop_name((enum vxgbp_drop)i));
	afile_printf(c->a, "</tr></thead><tbody>\n");
	linux_row(c, &rp->dev[RP_DEV_GBP], "with gbp");
	linux_row(c, &rp->dev[RP_DEV_PLAIN], "without gbp");
	afile_printf(c->a, "</tbody></table>\n");
	linux_marks(c, &rp->dev[RP_DEV_GBP].marks, "with gbp");
	linux_marks(c, &rp->dev[RP_DEV_PLAIN].marks, "without gbp");
	afile_printf(c->a, "</section>\n");
}

void rp_html_end(const struct rp_ctx *c)
{
	afile_printf(c->a, "</main>\n<footer><p>Written by gbpdump --report from the capture "
		     "alone: the same capture and options give the same file.</p></footer>\n"
		     "</body>\n</html>\n");
}
