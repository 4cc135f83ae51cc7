/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report_int.h - what report.c, report/html.c and report/svg.c share: the
 * collector's state, the group view of the matrix and the graph, and the
 * small writers (escaping, times, colours).  Not used elsewhere.
 */
#ifndef GBPDUMP_REPORT_INT_H
#define GBPDUMP_REPORT_INT_H

#include "atomic_file.h"
#include "report.h"
#include "stats.h"

/* ---- the collector ---- */

#define RP_BUCKETS 120     /* time buckets; 24-120 of them are used */
#define RP_MARK_SLOTS 512  /* hash slots of the mark counts */
#define RP_MARKS_MAX 256   /* distinct marks counted one by one */
#define RP_DROPS 8         /* enum vxgbp_drop values kept apart */
#define RP_DEV_GBP 0       /* struct gd_report.dev[]: a `gbp` device */
#define RP_DEV_PLAIN 1     /* a device without `gbp` */

struct rp_bucket {
	uint64_t frames;
	uint64_t found[3];  /* findings at MUST, SHOULD, INFO (the profile's) */
};

/* Frames a device accepted with a mark, per mark (open addressing). */
struct rp_marks {
	uint32_t mark[RP_MARK_SLOTS];
	uint64_t n[RP_MARK_SLOTS];  /* 0: an empty slot */
	unsigned distinct;
	uint64_t unlisted;          /* frames whose mark found no slot */
};

/* What one Linux 6.12 VTEP configuration does with the frames. */
struct rp_dev {
	uint64_t accept;            /* delivered */
	uint64_t unchanged;         /* of those: skb->mark left as it was */
	uint64_t drop[RP_DROPS];    /* dropped, per enum vxgbp_drop */
	struct rp_marks marks;      /* of those delivered: the mark set */
};

struct gd_report {
	uint64_t frames, bytes;
	uint64_t vxlan;             /* first header VXLAN(-GBP): judged by Linux */
	uint64_t gpe;               /* first header VXLAN-GPE */
	uint64_t found[3];          /* the checker's totals after the last frame */
	int have_time;
	int64_t sec0;               /* the first frame's time: buckets start here */
	uint32_t nsec0;
	int64_t min_sec, max_sec;   /* the span (frames may be out of order) */
	uint32_t min_nsec, max_nsec;
	uint64_t early;             /* frames before the first one's time */
	uint64_t width;             /* bucket width, ns (1, 2, 10, 20, 100, ... us) */
	unsigned step;              /* how many times it grew */
	uint64_t last;              /* the latest offset from sec0, ns */
	struct rp_bucket b[RP_BUCKETS];
	struct rp_dev dev[2];
};

/* ---- the group view (matrix and graph) ---- */

#define RP_MAX_GROUPS 30    /* groups drawn; the rest in one REPORT_OTHER */
#define RP_MAX_ROWS 100     /* rows of the VNI and group tables; the rest in one */

struct rp_view {
	struct stats_tables tb;
	uint32_t id[RP_MAX_GROUPS];   /* ascending: IDs, NONE, UNKNOWN, OTHER */
	int n;
	unsigned merged;              /* groups folded into REPORT_OTHER */
	uint64_t f[RP_MAX_GROUPS][RP_MAX_GROUPS]; /* [src][dst] frames */
	uint64_t b[RP_MAX_GROUPS][RP_MAX_GROUPS]; /* [src][dst] bytes */
	uint64_t max_f, max_b;        /* of one cell */
	uint64_t min_b;               /* of one non-empty cell */
	int pairs;                    /* non-empty cells */
};

/* Fill v (zeroed by the caller) from t: 0, or -1 (out of memory). */
int rp_view_get(struct rp_view *v, const struct vxgbp_track *t);
void rp_view_free(struct rp_view *v);

/* ---- writing ---- */

struct rp_ctx {
	struct afile *a;
	const struct gd_report *rp;
	const struct report_src *src;
	const struct rp_view *v;
};

/* s escaped for HTML text and attribute values (escape.h: esc_html). */
void rp_esc(struct afile *a, const char *s);
/* "name (0x0200)" / "0x0200" / "plain VXLAN", escaped. */
void rp_group_label(struct afile *a, uint32_t g, const struct vxgbp_groups *groups);
/* "2023-11-14 22:13:20.000000" (UTC), or the raw seconds past gmtime. */
void rp_time(char *buf, size_t n, int64_t sec, uint32_t nsec);
/* "#rrggbb" on the heat-map scale, t in [0, 1]. */
void rp_color(char buf[8], double t);

/* report/svg.c */
void rp_svg_matrix(const struct rp_ctx *c);
void rp_svg_graph(const struct rp_ctx *c);
void rp_svg_timeline(const struct rp_ctx *c);

/* report/html.c */
void rp_html_head(const struct rp_ctx *c);
void rp_html_tables(const struct rp_ctx *c);
void rp_html_findings(const struct rp_ctx *c);
void rp_html_linux(const struct rp_ctx *c);
void rp_html_end(const struct rp_ctx *c);

#endif /* GBPDUMP_REPORT_INT_H */
