/* SPDX-License-Identifier: BSD-2-Clause */
/* stats.h - gbpdump --stats (see stats.c). */
#ifndef GBPDUMP_STATS_H
#define GBPDUMP_STATS_H

#include <vxgbp/vxgbp.h>

#include "out.h"
#include "reader.h"

struct gd_stats;

struct gd_stats *stats_new(void);
void stats_add(struct gd_stats *st, const struct gd_rec *rec, const struct vxgbp_pkt *p);
/* 0, or -1 when memory ran out (the tables are then incomplete). */
int stats_print(struct gd_stats *st, struct gd_out *o, const struct vxgbp_groups *groups,
		int json);
void stats_free(struct gd_stats *st);

#endif /* GBPDUMP_STATS_H */
