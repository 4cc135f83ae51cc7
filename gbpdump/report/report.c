// SPDX-License-Identifier: BSD-2-Clause
/*
 * report.c - gbpdump --report: what is collected per frame (time buckets of
 * the findings, the Linux verdicts and marks), the group view of the
 * tracker's matrix, and the page written under a temporary name and moved
 * into place (common/atomic_file.h).  The page itself: report/html.c and
 * report/svg.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "escape.h"
#include "report_int.h"

_Static_assert(GD_ERRBUF >= AFILE_ERRBUF_SIZE, "errbuf sizes");

#define NSEC 1000000000u
#define RP_MAX_SEC 9000000000LL  /* offsets past this (285 years) are clamped */
#define N_SLOTS 65538u           /* group IDs, then NONE, then UNKNOWN */

/* ---- naming groups ---- */

const char *report_group_name(uint32_t g, const struct vxgbp_groups *groups)
{
	const char *name;

	if (g == VXGBP_GROUP_NONE)
		return "plain VXLAN";
	if (g == VXGBP_GROUP_UNKNOWN)
		return "unknown";
	if (g == REPORT_OTHER)
		return "other groups";
	name = g <= 0xffffu && groups ? vxgbp_groups_name(groups, (uint16_t)g) : NULL;
	return name ? name : "";
}

void report_group_id(char *buf, size_t n, uint32_t g)
{
	if (g <= 0xffffu)
		snprintf(buf, n, "0x%04x (%u)", g, g);
	else if (n)
		buf[0] = '\0';
}

int report_policy(const struct vxgbp_policy *p, uint32_t src, uint32_t dst)
{
	if (!p || src == REPORT_OTHER || dst == REPORT_OTHER)
		return -1;
	return vxgbp_policy_pair(p, src, dst);
}

const char *report_policy_word(int verdict)
{
	return verdict == VXGBP_POLICY_ALLOW ? "allowed" : verdict == VXGBP_POLICY_DENY
	       ? "denied" : verdict == VXGBP_POLICY_SOME ? "partly allowed" : "";
}

const char *report_policy_color(int verdict)
{
	return verdict == VXGBP_POLICY_ALLOW ? "#15803d" : verdict == VXGBP_POLICY_DENY
	       ? "#b91c1c" : verdict == VXGBP_POLICY_SOME ? "#d97706" : "";
}

double report_log_scale(uint64_t v, uint64_t max)
{
	if (!max || !v)
		return 0.0;
	return v >= max ? 1.0 : log1p((double)v) / log1p((double)max);
}

double report_log_range(uint64_t v, uint64_t min, uint64_t max)
{
	if (!min || max <= min || v >= max)
		return 1.0;
	return v <= min ? 0.0 : log((double)v / (double)min) / log((double)max / (double)min);
}

/* ---- the collector ---- */

struct gd_report *report_new(void)
{
	struct gd_report *rp = calloc(1, sizeof(*rp));

	if (rp)
		rp->width = 1000; /* 1 us; grows x2, x5, x2, ... */
	return rp;
}

void report_free(struct gd_report *rp)
{
	free(rp);
}

static int before(int64_t s1, uint32_t n1, int64_t s2, uint32_t n2)
{
	return s1 < s2 || (s1 == s2 && n1 < n2);
}

/* The span, and the frame's offset from the first frame in ns (0 for a
 * frame earlier than the first: it is counted in the first bucket). */
static uint64_t frame_offset(struct gd_report *rp, const struct gd_rec *rec)
{
	int64_t ds;

	if (!rp->have_time) {
		rp->have_time = 1;
		rp->sec0 = rp->min_sec = rp->max_sec = rec->sec;
		rp->nsec0 = rp->min_nsec = rp->max_nsec = rec->nsec;
	}
	if (before(rec->sec, rec->nsec, rp->min_sec, rp->min_nsec)) {
		rp->min_sec = rec->sec;
		rp->min_nsec = rec->nsec;
	}
	if (before(rp->max_sec, rp->max_nsec, rec->sec, rec->nsec)) {
		rp->max_sec = rec->sec;
		rp->max_nsec = rec->nsec;
	}
	if (before(rec->sec, rec->nsec, rp->sec0, rp->nsec0)) {
		rp->early++;
		return 0;
	}
	if (__builtin_sub_overflow(rec->sec, rp->sec0, &ds) || ds > RP_MAX_SEC)
		ds = RP_MAX_SEC;
	return (uint64_t)ds * NSEC + (rec->nsec % NSEC) - rp->nsec0;
}

/* Widen the buckets until offset d falls in one: merge neighbours by the
 * next factor of the 1-2-10 ladder. */
static void grow(struct gd_report *rp, uint64_t d)
{
	while (d / rp->width >= RP_BUCKETS) {
		unsigned k = rp->step % 2 ? 5 : 2;

		for (unsigned j = 0; j < RP_BUCKETS; j++) {
			struct rp_bucket m = { 0, { 0, 0, 0 } };

			for (unsigned i = j * k; i < j * k + k && i < RP_BUCKETS; i++) {
				m.frames += rp->b[i].frames;
				for (int l = 0; l < 3; l++)
					m.found[l] += rp->b[i].found[l];
			}
			rp->b[j] = m;
		}
		rp->width *= k;
		rp->step++;
	}
}

static void marks_add(struct rp_marks *m, uint32_t mark)
{
	unsigned h = (unsigned)((mark * 2654435761u) >> 23) % RP_MARK_SLOTS;

	for (unsigned i = 0; i < RP_MARK_SLOTS; i++, h = (h + 1) % RP_MARK_SLOTS) {
		if (m->n[h] && m->mark[h] == mark) {
			m->n[h]++;
			return;
		}
		if (!m->n[h]) {
			if (m->distinct == RP_MARKS_MAX)
				break;
			m->distinct++;
			m->mark[h] = mark;
			m->n[h] = 1;
			return;
		}
	}
	m->unlisted++;
}

static void dev_count(struct rp_dev *d, const struct vxgbp_hdr *h, unsigned flags)
{
	struct vxgbp_verdict v;

	vxgbp_verdict_linux(h, flags, &v);
	if (!v.accept)
		d->drop[(unsigned)v.why < RP_DROPS ? (unsigned)v.why : RP_DROPS - 1]++;
	else if (d->accept++, !v.mark_set)
		d->unchanged++;
	else
		marks_add(&d->marks, v.mark);
}

void report_frame(struct gd_report *rp, const struct gd_rec *rec,
		  const struct vxgbp_pkt *p, const struct gd_check *chk)
{
	struct rp_bucket *b;
	uint64_t d = frame_offset(rp, rec);

	rp->frames++;
	rp->bytes += rec->wirelen;
	grow(rp, d);
	if (d > rp->last)
		rp->last = d;
	b = &rp->b[d / rp->width];
	b->frames++;
	if (chk) {
		struct check_totals t;

		check_totals(chk, &t);
		for (int l = 0; l < 3; l++) {
			b->found[l] += t.count[l] - rp->found[l];
			rp->found[l] = t.count[l];
		}
	}
	if (!(p->have & VXGBP_HAVE_VXLAN))
		return;
	if (p->vx_kind != VXGBP_VX_VXLAN) {
		rp->gpe++;
		return;
	}
	rp->vxlan++;
	dev_count(&rp->dev[RP_DEV_GBP], &p->vx, VXGBP_DEV_GBP);
	dev_count(&rp->dev[RP_DEV_PLAIN], &p->vx, 0);
}

/* ---- the group view ---- */

static unsigned slot_of(uint32_t g)
{
	return g == VXGBP_GROUP_NONE ? 65536u : g == VXGBP_GROUP_UNKNOWN ? 65537u : g & 0xffffu;
}

static uint32_t group_of(unsigned slot)
{
	return slot == 65536u ? VXGBP_GROUP_NONE : slot == 65537u ? VXGBP_GROUP_UNKNOWN : slot;
}

/* The groups drawn: all of them, or the RP_MAX_GROUPS - 1 busiest (frames
 * sent and received; the lower ID on a tie) and REPORT_OTHER.  act[slot]
 * is 1 + the frames, 0 for a group not seen. */
static void view_pick(struct rp_view *v, uint64_t *act)
{
	unsigned present = 0;

	for (unsigned s = 0; s < N_SLOTS; s++)
		present += act[s] != 0;
	if (present > RP_MAX_GROUPS) {
		for (int k = 0; k < RP_MAX_GROUPS - 1; k++) {
			unsigned best = N_SLOTS;

			for (unsigned s = 0; s < N_SLOTS; s++)
				if (act[s] && (best == N_SLOTS || act[s] > act[best]))
					best = s;
			act[best] = 0;      /* picked: taken out of the running */
			v->id[k] = group_of(best);
		}
		v->n = RP_MAX_GROUPS - 1;
		v->merged = present - (RP_MAX_GROUPS - 1);
		for (int i = 1; i < v->n; i++) /* back to ID order (insertion sort) */
			for (int j = i; j > 0 && v->id[j - 1] > v->id[j]; j--) {
				uint32_t t = v->id[j];

				v->id[j] = v->id[j - 1];
				v->id[j - 1] = t;
			}
		v->id[v->n++] = REPORT_OTHER;
		return;
	}
	for (unsigned s = 0; s < N_SLOTS; s++)
		if (act[s])
			v->id[v->n++] = group_of(s);
}

static int view_index(const struct rp_view *v, uint32_t g)
{
	for (int i = 0; i < v->n; i++)
		if (v->id[i] == g)
			return i;
	return v->n - 1; /* folded into REPORT_OTHER, the last one */
}

int rp_view_get(struct rp_view *v, const struct vxgbp_track *t)
{
	uint64_t *act;

	if (stats_tables_get(t, &v->tb) || !(act = calloc(N_SLOTS, sizeof(*act))))
		return -1;
	for (int i = 0; i < v->tb.ng; i++)
		act[slot_of(v->tb.g[i].key)] += 1;
	for (int i = 0; i < v->tb.nc; i++) {
		const struct vxgbp_track_cell *c = &v->tb.c[i];

		act[slot_of(c->src)] += c->frames + !act[slot_of(c->src)];
		act[slot_of(c->dst)] += c->frames + !act[slot_of(c->dst)];
	}
	view_pick(v, act);
	free(act);
	for (int i = 0; i < v->tb.nc; i++) {
		const struct vxgbp_track_cell *c = &v->tb.c[i];
		int s = view_index(v, c->src), d = view_index(v, c->dst);

		v->pairs += !v->f[s][d];
		v->f[s][d] += c->frames;
		v->b[s][d] += c->bytes;
		if (v->f[s][d] > v->max_f)
			v->max_f = v->f[s][d];
		if (v->b[s][d] > v->max_b)
			v->max_b = v->b[s][d];
	}
	for (int s = 0; s < v->n; s++)
		for (int d = 0; d < v->n; d++)
			if (v->b[s][d] && (!v->min_b || v->b[s][d] < v->min_b))
				v->min_b = v->b[s][d];
	return 0;
}

void rp_view_free(struct rp_view *v)
{
	stats_tables_free(&v->tb);
}

/* ---- small writers ---- */

static void afile_sink(void *ctx, const char *s, size_t n)
{
	afile_write(ctx, s, n);
}

void rp_esc(struct afile *a, const char *s)
{
	esc_html(&(struct esc_sink){ afile_sink, a }, s);
}

void rp_group_label(struct afile *a, uint32_t g, const struct vxgbp_groups *groups)
{
	const char *name = report_group_name(g, groups);

	if (g > 0xffffu) {
		rp_esc(a, name);
		return;
	}
	if (*name) {
		rp_esc(a, name);
		afile_printf(a, " (0x%04x)", g);
	} else {
		afile_printf(a, "0x%04x", g);
	}
}

void rp_time(char *buf, size_t n, int64_t sec, uint32_t nsec)
{
	time_t t = (time_t)sec;
	struct tm tm;
	char d[32];

	if (sec == (int64_t)t && gmtime_r(&t, &tm) &&
	    strftime(d, sizeof(d), "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, n, "%s.%06u", d, (nsec % NSEC) / 1000);
	else
		snprintf(buf, n, "%lld.%09u s after the epoch", (long long)sec, nsec % NSEC);
}

void rp_color(char buf[8], double t)
{
	static const unsigned char stop[3][3] = {
		{ 0xee, 0xf5, 0xfc }, { 0x6b, 0xae, 0xd6 }, { 0x08, 0x30, 0x6b },
	};
	int k = t < 0.5 ? 0 : 1;
	double u = t < 0.5 ? t * 2 : (t - 0.5) * 2;
	int c[3];

	if (u < 0)
		u = 0;
	if (u > 1)
		u = 1;
	for (int i = 0; i < 3; i++)
		c[i] = (int)(stop[k][i] + (stop[k + 1][i] - stop[k][i]) * u + 0.5);
	snprintf(buf, 8, "#%02x%02x%02x", c[0] & 0xff, c[1] & 0xff, c[2] & 0xff);
}

/* ---- the page ---- */

int report_write(const struct gd_report *rp, const struct report_src *src, const char *path,
		 const char *const *inputs, const char *const *nouns, int force, char *errbuf)
{
	struct afile_opts ao = { (force ? AFILE_FORCE : 0) | AFILE_STDOUT, inputs,
				 "an input file", nouns };
	struct rp_view *v = calloc(1, sizeof(*v));
	struct afile a;
	struct rp_ctx c = { &a, rp, src, v };
	int rc;

	if (!v || rp_view_get(v, src->trk)) {
		snprintf(errbuf, GD_ERRBUF, "%s: out of memory", path);
		rc = -1;
	} else if ((rc = afile_open(&a, path, &ao, errbuf)) == 0) {
		rp_html_head(&c);
		rp_svg_matrix(&c);
		rp_svg_graph(&c);
		rp_html_tables(&c);
		rp_html_findings(&c);
		rp_html_linux(&c);
		rp_html_end(&c);
		rc = afile_close(&a, 1, errbuf);
	}
	if (v)
		rp_view_free(v);
	free(v);
	return rc;
}
