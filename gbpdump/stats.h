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

/* 0, or -1 when memory for the sorted copies ran out (nothing printed). */
int stats_print(const struct vxgbp_track *t, struct gd_out *o,
		const struct vxgbp_groups *groups, int json);

#endif /* GBPDUMP_STATS_H */
