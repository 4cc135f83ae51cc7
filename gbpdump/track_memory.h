/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * track_memory.h - the memory gbpdump gives libvxgbp's tracker (its zalloc/free,
 * struct vxgbp_track_opts).
 */
#ifndef GBPDUMP_TRACK_MEM_H
#define GBPDUMP_TRACK_MEM_H
#include <stddef.h>

/* size zeroed bytes, or NULL.  free with gd_track_mem_free(p, the same size). */
void *gd_track_mem_zalloc(size_t size);
void gd_track_mem_free(void *p, size_t size);

#endif /* GBPDUMP_TRACK_MEM_H */
