/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tabmem.h - the memory gbpdump gives libvxgbp's tracker (its zalloc/free,
 * struct vxgbp_track_opts).
 */
#ifndef GBPDUMP_TABMEM_H
#define GBPDUMP_TABMEM_H
#include <stddef.h>

/* size zeroed bytes, or NULL.  free with gd_tabmem_free(p, the same size). */
void *gd_tabmem_zalloc(size_t size);
void gd_tabmem_free(void *p, size_t size);

#endif /* GBPDUMP_TABMEM_H */
