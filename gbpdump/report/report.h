/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.h - gbpdump --report FILE: one self-contained HTML page (inline
 * CSS and SVG, no script, nothing fetched) that pictures a capture: the
 * group-to-group matrix as a heat map, the groups as a graph, per-VNI and
 * per-group tables, the findings over time and per rule, what a Linux 6.12
 * VTEP would do with the frames.  And gbpdump --stats --dot: the group
 * graph in Graphviz DOT (dot.c).
 *
 * What a header, a finding or a verdict means is libvxgbp's (the tracker,
 * vxgbp_verdict_linux()) and the --check engine's (check.h); the report
 * only counts and formats.  Its bytes depend on the capture and the
 * options only (no clock, no locale, no host name): a golden test compares
 * them.
 */
#ifndef GBPDUMP_REPORT_H
#define GBPDUMP_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include <vxgbp/vxgbp.h>

#include "check.h"
#include "out.h"
#include "reader.h"

struct gd_report; /* what the report collects per frame */

/* Everything the report is drawn from, at the end of the run. */
struct report_src {
	const struct vxgbp_track *trk;     /* with VXGBP_TRACK_MATRIX | _RULES */
	const struct gd_check *chk;        /* the --check engine of the run */
	const struct vxgbp_groups *groups; /* names from --groups (may be empty) */
	const char *capture;               /* -r FILE, or the interface */
	const char *options;               /* the command line, less --report FILE */
	const char *limit;                 /* what stopped the tracker's tables */
	const struct vxgbp_policy *policy; /* --policy: the matrix coloured by
	                                      vxgbp_policy_pair(); NULL without */
	const char *read_error;            /* what stopped the reading early (the
	                                      page has the frames before it); NULL */
};

/* A collector; NULL when memory ran out. */
struct gd_report *report_new(void);
/* One frame that matched, as parsed, after check_frame() saw it (chk: the
 * run's checker, whose per-level totals say what this frame added). */
void report_frame(struct gd_report *rp, const struct gd_rec *rec,
		  const struct vxgbp_pkt *p, const struct gd_check *chk);
/* Write the page to path ("-": standard output; never over an input, nor
 * an existing file without force; nouns: how a message calls each input).
 * 0, or -1 with errbuf (GD_ERRBUF bytes). */
int report_write(const struct gd_report *rp, const struct report_src *src, const char *path,
		 const char *const *inputs, const char *const *nouns, int force, char *errbuf);
void report_free(struct gd_report *rp);

/* gbpdump --stats --dot: the group graph in DOT on o.  0, or -1 when
 * memory ran out (nothing printed). */
int dot_print(const struct vxgbp_track *t, struct gd_out *o,
	      const struct vxgbp_groups *groups, const struct vxgbp_policy *policy,
	      const char *capture);

/* ---- shared by report*.c and dot.c ---- */

/* A group as the report names it: "web" (from --groups), "plain VXLAN"
 * (VXGBP_GROUP_NONE), "unknown" (VXGBP_GROUP_UNKNOWN), or "" for an ID
 * without a name; REPORT_OTHER: "other groups". */
#define REPORT_OTHER 0x30000u
const char *report_group_name(uint32_t g, const struct vxgbp_groups *groups);
/* "0x0200 (512)" for an ID, "" for the others. */
void report_group_id(char *buf, size_t n, uint32_t g);
/* vxgbp_policy_pair(p, src, dst): VXGBP_POLICY_ALLOW, _DENY or _SOME; -1
 * without a policy or for REPORT_OTHER. */
int report_policy(const struct vxgbp_policy *p, uint32_t src, uint32_t dst);
/* "allowed", "denied", "partly allowed"; "" for -1. */
const char *report_policy_word(int verdict);
/* Its colour: green, red, orange; "" for -1. */
const char *report_policy_color(int verdict);
/* ln(1 + v) / ln(1 + max), in [0, 1]: the log scale of colours. */
double report_log_scale(uint64_t v, uint64_t max);
/* ln(v / min) / ln(max / min), in [0, 1] (1 when max <= min): the log
 * scale of line widths, from the smallest to the largest value drawn. */
double report_log_range(uint64_t v, uint64_t min, uint64_t max);

#endif /* GBPDUMP_REPORT_H */
