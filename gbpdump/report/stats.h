/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats.h - gbpdump --stats: the summary of libvxgbp's tracker (frames and
 * bytes per VNI and per group, the group-to-group matrix), as text or one
 * JSON object.  The counting is the tracker's (VXGBP_TRACK_MATRIX).
 */
#ifndef GBPDUMP_STATS_H
#define GBPDUMP_STATS_H

#include <vxgbp/vxgbp.h>

#include "out.h"

/* What the tracker gives, copied out sorted (vxgbp_track_vnis, _groups,
 * _matrix, _mirrors); also read by the report (report.c) and --dot (dot.c). */
struct stats_tables {
	struct vxgbp_track_summary s;
	struct vxgbp_track_count *v, *g;
	struct vxgbp_track_cell *c;
	struct vxgbp_track_mirror *m; /* per mirror (vxgbp_track_mirrors) */
	int nv, ng, nc, nm;
	const char *error; /* JSON: why the capture was not read to its end, or NULL */
};

/* Fill tb (zeroed by the caller) from t: 0, or -1 when memory ran out;
 * stats_tables_free it either way. */
int stats_tables_get(const struct vxgbp_track *t, struct stats_tables *tb);
void stats_tables_free(struct stats_tables *tb);

/* 0, or -1 when memory for the sorted copies ran out (nothing printed).
 * policy (--policy; NULL without) adds each matrix cell's pair verdict. */
int stats_print(const struct vxgbp_track *t, struct gd_out *o,
		const struct vxgbp_groups *groups, int json, const struct vxgbp_policy *policy);

/* "VXLAN vni 7", "ERSPAN-II session 100", "ERSPAN-I": a mirror's name
 * (vxgbp_mirror_get()) into buf (48 bytes are enough); its length. */
int stats_mirror_name(char *buf, size_t n, const struct vxgbp_track_mirror *m);

/* More members after "stats" in the JSON document: fn writes
 * ",\"key\":value..." (merge.h: the mergeable summary). */
struct stats_tail {
	void (*fn)(void *ctx, struct gd_out *o);
	void *ctx;
};
/* stats_print from tables already made (gbpdump --merge makes them from
 * summaries); tail NULL: none. */
void stats_print_tables(const struct stats_tables *tb, struct gd_out *o,
			const struct vxgbp_groups *groups, int json,
			const struct vxgbp_policy *policy, const struct stats_tail *tail);

#endif /* GBPDUMP_STATS_H */
